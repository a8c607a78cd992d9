#!/usr/bin/env bash
# axe-core for the accessibility tests (tests/web/test_web_axe.py), from the npm
# registry into .axe/ (not committed); the tests inject axe.min.js into the
# page themselves, no CDN. Does nothing when it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f .axe/node_modules/axe-core/axe.min.js ]] && exit 0
command -v npm >/dev/null 2>&1 || { echo "npm is needed for axe-core (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p .axe
npm install --prefix .axe --no-audit --no-fund --silent axe-core@4.14.1
