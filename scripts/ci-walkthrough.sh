#!/usr/bin/env bash
# Makes sure curl and jq are installed, for WalkthroughTest (it runs the curl walkthrough of
# docs/http-api.md verbatim). Safe to run again; installs only when one is missing.
# Usage: bash scripts/ci-walkthrough.sh     (called by ./test before the build)
set -euo pipefail

missing=()
for tool in curl jq; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "ci-walkthrough: curl and jq already installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "ci-walkthrough: ${missing[*]} missing and this user cannot install packages: run 'apt-get install ${missing[*]}' as root" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "ci-walkthrough: installing ${missing[*]} (Debian packages)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
