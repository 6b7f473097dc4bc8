PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# What running needs (make run), and the test tools on top of it (make test): one stamp each.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: test run bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

test: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy src
	$(BIN)/pytest

run: $(RUN_STAMP)
	$(BIN)/splitpot play

bench: $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/evaluate.py
	$(BIN)/python -W ignore benchmarks/engine.py
	$(BIN)/python benchmarks/equity.py

clean:
	rm -rf $(VENV)
