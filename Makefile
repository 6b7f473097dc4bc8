PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test run bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy src
	$(BIN)/pytest

run: $(STAMP)
	$(BIN)/splitpot play

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/evaluate.py
	$(BIN)/python -W ignore benchmarks/engine.py
	$(BIN)/python benchmarks/equity.py

clean:
	rm -rf $(VENV)
