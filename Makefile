# Quick start: `make run` serves a table on this machine; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# setuptools says on every editable install of a package that is not under src/ that folders named like it may take
# precedence: true of any checkout, nothing to act on, so it is not printed.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation:UserWarning" $(BIN)/pip install -q -e

.PHONY: run test lint translations bench-smoke

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.run: $(BIN)/python pyproject.toml
	$(EDITABLE) .
	touch $@

$(VENV)/.test: $(VENV)/.run
	$(EDITABLE) '.[test]'
	touch $@

run: $(VENV)/.run
	$(BIN)/companion serve --host 0.0.0.0 --port 8000 --data-dir data

# Two workers, each taking whole test files: a file's walks and servers are set up once, in one worker.
test: lint
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check companion tests bench deploy

translations: $(VENV)/.run
	$(BIN)/python -m companion.catalogs update
