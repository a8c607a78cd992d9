#!/usr/bin/env bash
# Create a venv (when it is missing) and install pyrummy into it, editable,
# with the extras asked for, saying what it does as it goes: `make run`
# installs the web extra only, `make test` everything the tests need.
#
#   scripts/venv-install.sh VENV EXTRAS DESCRIPTION
#   scripts/venv-install.sh .venv web "the web game's packages"
#
# PYTHON names the interpreter that creates the venv (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$1
extras=$2
what=$3
python=${PYTHON:-python3}
started=$SECONDS

if [[ ! -x "$venv/bin/python" ]]; then
  echo "Creating $venv with $("$python" --version 2>&1) ..."
  "$python" -m venv "$venv"
  echo "Updating pip in $venv ..."
  "$venv/bin/python" -m pip install -q --upgrade pip
fi

# Training (the `train` extra, in `all`) needs PyTorch. A bare `torch` from
# PyPI is a CUDA build of several GB on Linux; TORCH_SPEC names the release
# to take first (2.13.0: the CPU build this project's machines hold).
if [[ ",$extras," == *",all,"* || ",$extras," == *",train,"* ]] \
  && ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
  spec=${TORCH_SPEC:-torch==2.13.0}
  echo "Installing PyTorch ($spec) into $venv for the training examples ..."
  "$venv/bin/python" -m pip install -q --progress-bar off "$spec"
fi

echo "Installing $what into $venv (pip install -e '.[$extras]'; first run only) ..."
# pip's own output, one line a package it fetches (from an index, or a local
# wheel: "Processing"); its errors go to stderr untouched.
"$venv/bin/python" -m pip install --progress-bar off -e ".[$extras]" \
  | { grep --line-buffered -E '^(Collecting|Processing|Installing collected packages)' \
      | sed -u -E -e 's/^Collecting ([A-Za-z0-9_.-]+).*/  fetching \1/' \
          -e 's#^Processing [^ ]*/([A-Za-z0-9_.]+)-[0-9][^ /]*( .*)?$#  fetching \1#' \
          -e 's/^Installing collected packages: .*/  installing them .../' || true; }

size=$(du -sm "$venv" | cut -f1)
echo "Installed $what in $((SECONDS - started)) s; $venv now takes ${size} MB."
