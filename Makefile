PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# What running needs (make run), and the test tools on top of it (make test): one stamp each.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
KERNELS_STAMP := $(VENV)/.compiled-kernels
KERNELS := $(wildcard src/splitpot/*/_kernels.py src/splitpot/*/kernels.py src/splitpot/bots/*.py)

.PHONY: test test-fast lint messages run play bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

# numba compiles the evaluator's, the equity's and the bots' kernels once, into its cache on
# disk, before the room's processes would each compile them while holding the GIL (the
# room stops for as long: seconds, half a minute for the equity's).
$(KERNELS_STAMP): $(RUN_STAMP) $(KERNELS)
	@echo "compiling the evaluator's and the equity's kernels (once; about a minute)"
	$(BIN)/splitpot equity AsKs2d3d QhQcJhTc --board Jd4d3c > /dev/null
	$(BIN)/splitpot equity AsKs2d3d '*' --samples 1000 --seed 1 > /dev/null
	$(BIN)/splitpot simulate --hands 20 --seed 1 > /dev/null
	touch $(KERNELS_STAMP)

# The browser tests drive Debian's Chromium (Playwright's own download does not work here),
# with Debian's CJK fonts for the Japanese pages' screenshots: installed when missing (as
# root, or with sudo); where they cannot be, those tests are skipped (CI sets
# SPLITPOT_REQUIRE_BROWSER=1: then they fail).
test: $(TEST_STAMP)
	@{ test -x /usr/bin/chromium && test -d /usr/share/fonts/opentype/noto; } || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    chromium fonts-noto-cjk \
	  || echo "make test: Chromium or the CJK fonts could not be installed: the browser tests may be skipped"; }
	$(MAKE) --no-print-directory -j2 lint $(KERNELS_STAMP)
	$(BIN)/pytest

# ruff and mypy; make test runs them beside the kernels' compile (a fresh clone's half minute)
lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy src

# The fast lane (under a minute): the pure core and the table host, no server, no database,
# no browser; run it while you work, and make test before you commit.
FAST_TESTS := $(addprefix tests/,test_cards.py test_evaluate_rules.py \
  test_evaluate_properties.py test_rules.py test_engine_rules.py test_engine_corners.py \
  test_engine_showdown.py test_engine_properties.py test_corpus.py test_table.py \
  test_table_corners.py test_table_events.py test_table_settings.py test_table_host.py \
  test_protocol.py test_protocol_decode.py test_history.py test_history_corners.py \
  test_dealer.py test_fair.py test_verify.py test_play_corners.py test_architecture.py \
  test_i18n.py)
test-fast: lint
	$(BIN)/pytest $(FAST_TESTS)

# The catalogues (src/splitpot/locale/*/LC_MESSAGES/*.po) brought up to date with the code:
# new messages added untranslated, gone ones dropped; it says what each still lacks
# (tests/test_i18n.py fails until every language has them all).
messages: $(RUN_STAMP)
	$(BIN)/python -m splitpot.i18n.catalogues

# The room on 127.0.0.1:8000 (SQLite in your data folder) with five bots waiting;
# make run PORT=8001 for another port, HOST=0.0.0.0 for friends on your network.
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(KERNELS_STAMP)
	$(BIN)/splitpot serve --bots 5 --host $(HOST) --port $(PORT)

# The offline game in the terminal, against bots.
play: $(RUN_STAMP)
	$(BIN)/splitpot play

bench: $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/evaluate.py
	$(BIN)/python -W ignore benchmarks/engine.py
	$(BIN)/python benchmarks/equity.py
	$(BIN)/python benchmarks/fair.py

clean:
	rm -rf $(VENV)
