# Backgammon cross-check against GNU Backgammon (tests/crosscheck/backgammon_crosscheck.py).
# Uses the repository's virtualenv (.venv); installs the gnubg Python bindings and OpenSpiel
# there, builds the bg_moves example in release and compares every legal play set for
# CROSSCHECK_POSITIONS positions x 21 rolls with gnubg, and every turn of
# CROSSCHECK_OPENSPIEL_GAMES random OpenSpiel games.
CROSSCHECK_VENV ?= .venv
CROSSCHECK_PY := $(CROSSCHECK_VENV)/bin/python
CROSSCHECK_POSITIONS ?= 10000
CROSSCHECK_SEED ?= 20261202
# `release` for the full run; `make test` uses the debug build it already has (no release build
# of the examples' dev-dependencies).
CROSSCHECK_PROFILE ?= release
CROSSCHECK_OPENSPIEL_GAMES ?= 100

.PHONY: crosscheck crosscheck-deps

crosscheck-deps: $(CROSSCHECK_VENV)/.crosscheck-stamp
$(CROSSCHECK_VENV)/.crosscheck-stamp:
	test -x $(CROSSCHECK_PY) || python3 -m venv $(CROSSCHECK_VENV)
	$(CROSSCHECK_PY) -m pip install -q gnubg==1.1.0a16 open_spiel
	touch $@

## Backgammon legal plays vs GNU Backgammon (positions x 21 rolls).
crosscheck: crosscheck-deps
	cargo build $(if $(filter release,$(CROSSCHECK_PROFILE)),--release) -p pachisi --example bg_moves
	$(CROSSCHECK_PY) tests/crosscheck/backgammon_crosscheck.py \
		--moves target/$(CROSSCHECK_PROFILE)/examples/bg_moves \
		--positions $(CROSSCHECK_POSITIONS) --seed $(CROSSCHECK_SEED) \
		--openspiel-games $(CROSSCHECK_OPENSPIEL_GAMES)
