#!/usr/bin/env bash
# Makes sure redis-server and redis-cli (Debian's redis-server package) are installed, for the Redis
# store's tests: they start throwaway servers and a 3-master cluster on loopback themselves, so no
# service is started here. Safe to run again; installs only when a binary is missing.
# Usage: bash scripts/ci-redis.sh     (called by .ci/run before the build)
set -euo pipefail

if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  echo "ci-redis: $(redis-server --version | cut -d' ' -f1-3) already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "ci-redis: redis-server is missing and this user cannot install packages: run 'apt-get install redis-server' as root" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

echo "ci-redis: installing redis-server (Debian package)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null

# The package may start a system service on port 6379; the tests do not use it (they pick free ports).
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  echo "ci-redis: $(redis-server --version | cut -d' ' -f1-3) installed"
else
  echo "ci-redis: apt-get install redis-server did not provide redis-server and redis-cli" >&2
  exit 1
fi
