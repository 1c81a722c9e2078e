#!/usr/bin/env bash
# Makes sure Debian's chromium is installed, for the web inspector's browser tests (threadline-server's
# InspectorBrowserTest drives /usr/bin/chromium headless with playwright-core from npm; no browser is
# downloaded by npm), and installs that test's npm packages, pinned by its package-lock.json.
# Safe to run again; installs only what is missing.
# Usage: bash scripts/ci-chromium.sh     (called by ./test before the build)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -x /usr/bin/chromium ]; then
  echo "ci-chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n1) already installed"
else
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "ci-chromium: chromium is missing and this user cannot install packages: run 'apt-get install chromium' as root" >&2
    exit 1
  fi
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "ci-chromium: installing chromium (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium >/dev/null
  [ -x /usr/bin/chromium ] || { echo "ci-chromium: apt-get install chromium did not provide /usr/bin/chromium" >&2; exit 1; }
  echo "ci-chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n1) installed"
fi

command -v npm >/dev/null 2>&1 || { echo "ci-chromium: npm is not on PATH; install Node.js 20+ (apt-get install nodejs npm)." >&2; exit 1; }
npm ci --prefix threadline-server/src/test/ui --no-audit --no-fund --loglevel=error
