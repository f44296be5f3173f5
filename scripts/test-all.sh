#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine with Node 20: system packages, npm packages, lint, type check,
# build, unit + integration tests (the runtime as a real process against stub model servers), then the end-to-end
# suite in a real VS Code (code-server + Chromium, installed by scripts/vscode-setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v git >/dev/null || need+=(git)
command -v rg >/dev/null || need+=(ripgrep)
command -v tmux >/dev/null || need+=(tmux)
[ -x /usr/bin/time ] || need+=(time)
command -v bwrap >/dev/null || need+=(bubblewrap)   # the command sandbox and its tests
command -v chromium >/dev/null || need+=(chromium)   # the chat-panel browser tests and e2e
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)   # code-server's kerberos addon (e2e)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${need[*]} (Debian packages)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing ${need[*]}: install them (apt-get install ${need[*]}) or run as root" >&2
    [ "${CI:-}" = true ] && exit 1
  fi
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

npm test
if [ -f scripts/e2e-run.sh ] || grep -q '"test:e2e"' package.json; then
  npm run test:e2e
fi
