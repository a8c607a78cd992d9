#!/usr/bin/env bash
# Debian packages the tests need: chromium (the browser tests drive
# /usr/bin/chromium with Playwright; no browser is ever downloaded) and tmux
# (terminal tests), node and npm (the page's modules in tests, axe-core). Installs what is missing; does nothing when all is there.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# node runs the page's own modules in tests (the local meld check); npm fetches axe-core.
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
((${#need[@]})) || exit 0
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing: ${need[*]}; install them with your package manager (Debian: apt-get install ${need[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
