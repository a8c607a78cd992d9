#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (Debian's postgresql; installed
# with apt-get when missing and we are root).
#
#   pg-cluster.sh start DIR   initdb into DIR (owned by the `postgres` user when
#                             run as root), start it on a free loopback port and
#                             print its URL (postgresql://postgres@127.0.0.1:PORT/postgres)
#   pg-cluster.sh stop DIR    stop it and delete DIR
#   pg-cluster.sh run CMD...  start one in a temporary folder, run CMD with
#                             PYRUMMY_TEST_POSTGRES_URL set, stop it whatever happens
#   PYRUMMY_PG_OPTIONS        more server options for start (benchmarks/load.py
#                             loads pg_stat_statements with it to count statements)
set -euo pipefail

find_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -z $found ]] && command -v initdb >/dev/null 2>&1; then
    found=$(dirname "$(readlink -f "$(command -v initdb)")")
  fi
  echo "$found"
}

ensure_installed() {
  PG_BIN=$(find_bin)
  if [[ -n $PG_BIN && -x $PG_BIN/initdb ]]; then
    return
  fi
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "PostgreSQL is missing: install it (Debian: apt-get install postgresql)" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  PG_BIN=$(find_bin)
}

# PostgreSQL refuses to run as root: as root, the cluster belongs to `postgres`.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local dir=$1
  ensure_installed
  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres "$dir"
    chmod 700 "$dir"
  fi
  as_owner "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  local port
  port=$(free_port)
  # Loopback only; no durability needed for a cluster thrown away after the tests.
  as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${PYRUMMY_PG_OPTIONS:-}" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  echo "$port" >"$dir/port"
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

stop() {
  local dir=$1
  PG_BIN=$(find_bin)
  if [[ -d $dir/data ]]; then
    as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case ${1:-} in
  start) start "$2" ;;
  stop) stop "$2" ;;
  run)
    shift
    dir=$(mktemp -d /tmp/pyrummy-pg.XXXXXX)
    trap 'stop "$dir"' EXIT INT TERM
    PYRUMMY_TEST_POSTGRES_URL=$(start "$dir")
    export PYRUMMY_TEST_POSTGRES_URL
    "$@"
    ;;
  *)
    echo "usage: $0 start DIR | stop DIR | run CMD..." >&2
    exit 2
    ;;
esac
