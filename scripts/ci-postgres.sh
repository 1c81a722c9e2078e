#!/usr/bin/env bash
# Makes sure the PostgreSQL server binaries the postgres store's tests start are installed
# (Debian's `postgresql`: initdb and postgres under /usr/lib/postgresql/N/bin, and the `postgres`
# user the tests run the server as). The tests start and stop their own throwaway server on a free
# loopback port; nothing here starts one. Called by .ci/run before the build; safe to run again.
set -euo pipefail

have_server() {
  local bin
  if [ -n "${THREADLINE_PG_BIN:-}" ] && [ -x "$THREADLINE_PG_BIN/initdb" ] && [ -x "$THREADLINE_PG_BIN/postgres" ]; then
    return 0
  fi
  for bin in /usr/lib/postgresql/*/bin; do
    [ -x "$bin/initdb" ] && [ -x "$bin/postgres" ] && return 0
  done
  return 1
}

if have_server && getent passwd postgres >/dev/null; then
  echo "ci-postgres: PostgreSQL server binaries present ($(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tr '\n' ' '))"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ci-postgres: PostgreSQL is not installed and this is not root: run 'apt-get install postgresql'" >&2
  exit 1
fi

echo "ci-postgres: installing PostgreSQL (apt-get install postgresql)"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y postgresql
# the package starts a cluster of its own on 5432; the tests do not use it
if command -v pg_lsclusters >/dev/null 2>&1; then
  pg_lsclusters --no-header 2>/dev/null | while read -r version name _; do
    pg_ctlcluster "$version" "$name" stop 2>/dev/null || true
  done
fi
have_server || { echo "ci-postgres: apt-get installed postgresql but no initdb/postgres was found" >&2; exit 1; }
echo "ci-postgres: PostgreSQL server binaries installed"
