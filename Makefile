# Quick start: `make run` serves a table on this machine; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint translations bench-smoke

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.run: $(BIN)/python pyproject.toml setup.py
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.test: $(VENV)/.run
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.run
	$(BIN)/companion serve --host 0.0.0.0 --port 8000 --data-dir data

test: lint
	$(BIN)/python -m pytest -q

lint: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check companion tests bench deploy

translations: $(VENV)/.run
	$(BIN)/python -m companion.catalogs update
