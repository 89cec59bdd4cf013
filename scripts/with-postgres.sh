#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL on loopback, then
# stops it. Needs Debian's postgresql package and root (initdb runs as `postgres`).
# Usage: scripts/with-postgres.sh <command...>
set -euo pipefail
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PORT=${PG_TEST_PORT:-55432}
DIR=$(mktemp -d)
chown postgres "$DIR"
cleanup() {
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT
runuser -u postgres -- "$BIN/initdb" -D "$DIR/data" -A trust -U postgres >/dev/null
runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" \
  -o "-k $DIR -p $PORT -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" -l "$DIR/log" -w start >/dev/null
export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
"$@"
