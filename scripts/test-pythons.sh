#!/usr/bin/env bash
# The core's tests on every Python 3.11-3.13 this machine has, each in a venv
# holding pyrummy with NO extra and only the test tools: proves that the rules
# core and the bots need nothing but Python, on each supported version.
# A version the machine lacks is reported and passed over (Debian 12 ships 3.11;
# pyenv builds, where present, give 3.12 and 3.13).
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {  # $1 = 3.12 -> path of an interpreter of that version, or nothing
  local version=$1 candidate
  for candidate in "python$version" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/"python$version"; do
    if "$candidate" -c 'import sys, venv' >/dev/null 2>&1; then
      command -v "$candidate" 2>/dev/null || echo "$candidate"
      return 0
    fi
  done
}

mapfile -t paths < <(python3 scripts/core_tests.py)
ran=0
for version in 3.11 3.12 3.13; do
  python=$(find_python "$version" || true)
  if [[ -z "$python" ]]; then
    echo "Python $version: not on this machine, not tested"
    continue
  fi
  venv=".venv-py$version"
  if [[ ! -f "$venv/.installed-stamp" || pyproject.toml -nt "$venv/.installed-stamp" ]]; then
    "$python" -m venv --clear "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
    "$venv/bin/python" -m pip install -q -e . pytest pytest-xdist hypothesis
    touch "$venv/.installed-stamp"
  fi
  # Nothing but the test tools may be installed beside pyrummy.
  "$venv/bin/python" - <<'PY'
import importlib.util, sys
extras = ["rich", "matplotlib", "scipy", "fastapi", "sqlalchemy", "numpy", "pettingzoo"]
present = [name for name in extras if importlib.util.find_spec(name)]
sys.exit(f"the core venv holds {present}" if present else 0)
PY
  echo "Python $version ($python): core tests with no extra installed"
  "$venv/bin/python" -m pytest -n 2 -p no:cacheprovider "${paths[@]}"
  ran=$((ran + 1))
done
((ran > 0)) || { echo "no Python 3.11-3.13 found" >&2; exit 1; }
