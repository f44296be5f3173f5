#!/usr/bin/env bash
# The "main job": a real VS Code (code-server, local only) with the agentcli extension and a demo workspace.
# Installs what is missing, builds, starts, prints the URL and keeps running until Ctrl-C.
#
#   bash scripts/start-vscode.sh [--port 8080] [--folder PATH] [--demo-model]
#
# --folder PATH   open this folder instead of a fresh copy of demo-workspace/
# --demo-model    also start demo-walkthrough, a scripted test double, and point the workspace at it (for trying the
#                 product without a model: it plays the panel's example prompts through the real agent with real tool
#                 calls, and lists what else it knows). Without it, configure a real provider in Settings
#                 (agentcli.provider and its options) and set its key with "agentcli: Set API Key".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
for v in $(compgen -e | grep '^npm_' || true); do unset "$v"; done
if [ ! -d node_modules ]; then
  echo "installing the project's packages (npm ci)"
  npm ci --no-audit --no-fund
fi
bash scripts/vscode-setup.sh
echo "building"
node esbuild.mjs
exec node --import tsx scripts/vscode-start.ts "$@"
