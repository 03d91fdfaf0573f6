#!/usr/bin/env bash
# A throw-away PostgreSQL server for the distributed tests and for trying the distributed mode on
# one machine. Nothing outside the data folder is touched (no system cluster, no systemd).
#
#   scripts/dist/postgres.sh start [DIR]   installs PostgreSQL from Debian's packages when missing,
#                                          creates a cluster in DIR (default: a new temp folder) on a
#                                          free loopback port and prints, as the last line of stdout:
#                                          DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres
#                                          and before it STRATUM_PG_DIR=DIR (what `stop` needs)
#   scripts/dist/postgres.sh stop DIR      stops that server and removes DIR
#
# initdb refuses to run as root; as root the cluster belongs to the `postgres` system user that
# Debian's package creates, otherwise to the calling user.
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

find_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

install_postgres() {
  log "PostgreSQL server binaries not found: installing Debian's postgresql package"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  # the package's postinst may not start a service here (no systemd); we never need it to
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
}

# runs a command as the cluster's owner
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bindir dir port
  bindir="$(find_bindir)" || { install_postgres; bindir="$(find_bindir)"; } || { log "no initdb after install"; exit 1; }
  dir="${1:-$(mktemp -d "${TMPDIR:-/tmp}/stratum-pg-XXXXXX")}"
  if [ -e "$dir/data" ]; then log "$dir/data exists: give start a new or empty folder"; exit 1; fi
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  echo "$bindir" >"$dir/bindir" # marks the folder as ours for `stop`
  # C.UTF-8 exists on Debian; a system without it gets the plain C locale. --no-sync: the cluster
  # is thrown away, so initdb need not wait for the disk
  as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { rm -rf "$dir/data"; as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --no-locale >"$dir/initdb.log" 2>&1; } \
    || { log "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }
  # a free port can be taken between the probe and the start: try a few
  local tries=0
  while :; do
    port="$(free_port)"
    # fsync off: a test cluster that is thrown away need not survive a power cut
    if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null; then
      break
    fi
    tries=$((tries + 1))
    if [ "$tries" -ge 3 ]; then log "pg_ctl start failed:"; tail -n 20 "$dir/server.log" >&2; exit 1; fi
  done
  echo "STRATUM_PG_DIR=$dir"
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
}

stop() {
  local dir="${1:?usage: postgres.sh stop DIR}"
  [ -d "$dir" ] || return 0
  # only a folder this script made (never delete anything else by a mistyped argument)
  if [ ! -f "$dir/bindir" ]; then log "$dir is not a cluster made by postgres.sh start; left alone"; exit 1; fi
  if [ -d "$dir/data" ]; then
    as_owner "$(cat "$dir/bindir")/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 start [DIR] | stop DIR" >&2; exit 2 ;;
esac
