#!/usr/bin/env bash
# Installs the MCP reference servers (from npm, pinned by package-lock.json) that threadline-mcp's tests
# start as real processes. Needs node and npm on PATH. Run before the Maven build, e.g. from .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null 2>&1 || { echo "ci-mcp: npm is not on PATH; install Node.js 20+ (apt-get install nodejs npm)." >&2; exit 1; }
npm ci --prefix threadline-mcp/src/test/node --no-audit --no-fund --loglevel=error
