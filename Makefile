# Two entry points that work on a fresh machine: `make run` and `make test`.
# Each creates .venv and installs what it needs first: `make run` only the
# web game's packages (the `web` extra), `make test` everything the tests
# need (`.[all,dev]`), upgrading a venv that `make run` made.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
# One stamp per install: the web game's, and the whole one of the tests.
WEB_STAMP := $(VENV)/.web-stamp
STAMP := $(VENV)/.installed-stamp
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed-stamp

.PHONY: run test lint typecheck unit core-tests test-pythons docs bench system-deps clean

$(WEB_STAMP): pyproject.toml
	@PYTHON=$(PYTHON) bash scripts/venv-install.sh $(VENV) web "the web game's packages"
	@touch $(WEB_STAMP)

$(STAMP): pyproject.toml
	@PYTHON=$(PYTHON) bash scripts/venv-install.sh $(VENV) all,dev "every extra and the test tools"
	@touch $(STAMP) $(WEB_STAMP)

run: $(WEB_STAMP)
	@echo "Serving the web game on http://$(HOST):$(PORT) (Ctrl-C stops it; games are kept in data/)"
	$(BIN)/pyrummy serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# The storage, server, crash and hidden-information suites also run on
# PostgreSQL: a throwaway cluster for this run, stopped at the end.
# The tests that hold wall-clock promises (marked `quiet`) run after the
# others, alone: beside a second worker's browser they measure the load.
unit: $(STAMP)
	bash scripts/pg-cluster.sh run $(BIN)/pytest -n 2 -m "not quiet"
	$(BIN)/pytest -p no:cacheprovider -m quiet tests/web

# The tests that need nothing but the core (no database, server or browser):
# the quick check while working on the rules or the bots.
core-tests: $(STAMP)
	$(BIN)/pytest -n 2 -p no:cacheprovider $$($(BIN)/python scripts/core_tests.py)

system-deps:
	bash scripts/system-deps.sh
	bash scripts/axe-core.sh

# The documentation site (Sphinx + MyST) into docs/_build/html; any warning fails it.
DOCS_STAMP := $(VENV)/.docs-stamp
$(DOCS_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install -q -e '.[docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(BIN)/sphinx-build -n -W --keep-going -q -b html docs docs/_build/html

# The core's tests on Python 3.11-3.13 in venvs with no extra installed.
test-pythons:
	bash scripts/test-pythons.sh

test: system-deps lint typecheck docs test-pythons unit

# Benchmarks run beside the peers (RLCard, OpenSpiel), installed only here.
$(BENCH_STAMP): pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install -q -e . rlcard==1.2.0 open-spiel==2.0.2 numpy
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BENCH_VENV)/bin/python benchmarks/solver.py
	$(BENCH_VENV)/bin/python benchmarks/engine.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) .venv-py3.* .mypy_cache .pytest_cache .ruff_cache docs/_build
