#!/usr/bin/env bash
# Installs the official LangGraph and OpenAI SDKs (from npm, pinned by package-lock.json) that
# threadline-server's CompatSdkTest drives the server with. Needs node and npm on PATH. Run before the
# Maven build (./test does).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null 2>&1 || { echo "ci-node: npm is not on PATH; install Node.js 20+ (apt-get install nodejs npm)." >&2; exit 1; }
npm ci --prefix threadline-server/src/test/node/compat --no-audit --no-fund --loglevel=error
