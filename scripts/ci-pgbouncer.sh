#!/usr/bin/env bash
# Makes sure Debian's `pgbouncer` is installed, for the PostgreSQL store's tests behind a transaction
# pooler: they start a throwaway pgbouncer on a free loopback port in front of their own throwaway
# PostgreSQL (PgBouncerProcess), so the package's own service is stopped and disabled here (it would
# hold port 6432 and is not used). Safe to run again; installs only when the binary is missing.
# Usage: bash scripts/ci-pgbouncer.sh     (called by ./test and .ci/run before the build)
set -euo pipefail

find_pgbouncer() {
  if [ -n "${THREADLINE_PGBOUNCER:-}" ] && [ -x "$THREADLINE_PGBOUNCER" ]; then
    echo "$THREADLINE_PGBOUNCER"; return 0
  fi
  command -v pgbouncer 2>/dev/null && return 0
  [ -x /usr/sbin/pgbouncer ] && { echo /usr/sbin/pgbouncer; return 0; }
  return 1
}

stop_service() {
  # the package starts pgbouncer as a service on 6432; the tests start their own
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl stop pgbouncer >/dev/null 2>&1 || true
    systemctl disable pgbouncer >/dev/null 2>&1 || true
  elif [ -x /etc/init.d/pgbouncer ]; then
    /etc/init.d/pgbouncer stop >/dev/null 2>&1 || true
    command -v update-rc.d >/dev/null 2>&1 && update-rc.d pgbouncer disable >/dev/null 2>&1 || true
  fi
}

if bin=$(find_pgbouncer); then
  echo "ci-pgbouncer: $("$bin" --version 2>/dev/null | head -1) already installed ($bin)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "ci-pgbouncer: pgbouncer is missing and this user cannot install packages: run 'apt-get install pgbouncer' as root" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

echo "ci-pgbouncer: installing pgbouncer (Debian package)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null
if [ -n "$SUDO" ]; then $SUDO bash -c "$(declare -f stop_service); stop_service"; else stop_service; fi

if bin=$(find_pgbouncer); then
  echo "ci-pgbouncer: $("$bin" --version 2>/dev/null | head -1) installed ($bin)"
else
  echo "ci-pgbouncer: apt-get install pgbouncer did not provide a pgbouncer binary" >&2
  exit 1
fi
