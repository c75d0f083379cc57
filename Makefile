# The two commands of the README: `make run` and `make test`. Both set everything up first.
SHELL := /bin/bash
CARGO ?= cargo
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Rust test binaries that embed Python must load this interpreter's libpython (TOOLCHAIN.md #3).
PY_LIBDIR := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))' 2>/dev/null)

.PHONY: all setup run test lint test-self-contained test-rust test-cross test-crosscheck test-reference-long bench venv clean

all: test

## Set up the Python environment (virtualenv with the development requirements).
venv: $(VENV)/.stamp
$(VENV)/.stamp: python/requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r python/requirements-dev.txt
	touch $@

## Build everything and install the Python package into the virtualenv.
setup: venv python-dev
	$(CARGO) build --workspace --release

## The main job: a variant study over every preset (examples/studies/main.toml; table,
## out/main.csv, out/main.png; docs/STUDIES.md).
run: setup analysis

## Every test: Rust (unit, integration, property, doc), C and C++ (valgrind), Python.
test: lint test-self-contained test-rust test-fuzz-seeds test-c test-python test-cross test-crosscheck
	@echo "make test: all suites passed"

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## The repository names no path outside itself (docs/RULES.md is its rules text).
test-self-contained:
	bash tests/check_self_contained.sh

test-rust:
	LD_LIBRARY_PATH=$(PY_LIBDIR) $(CARGO) test --workspace

## A seed gives the same game in Rust, C and Python: three twin programs print every event of a
## seeded game of each preset with one fixed policy; their outputs must be identical.
CROSS_SEEDS := 1 2026
test-cross: python-dev c-libs
	@mkdir -p build/cross
	$(CARGO) build -q -p pachisi --example replay
	$(CC) -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude tests/cross/replay.c \
		-o build/cross/replay $(C_LINK_SHARED)
	@set -e; pass=0; for seed in $(CROSS_SEEDS); do \
		for v in $$($(PY) -c 'import pachisi; print(" ".join(pachisi.variants()))'); do \
			target/debug/examples/replay $$v $$seed > build/cross/rust-$$v-$$seed.txt; \
			build/cross/replay $$v $$seed > build/cross/c-$$v-$$seed.txt; \
			$(PY) tests/cross/replay.py $$v $$seed > build/cross/python-$$v-$$seed.txt; \
			cmp build/cross/rust-$$v-$$seed.txt build/cross/c-$$v-$$seed.txt; \
			cmp build/cross/rust-$$v-$$seed.txt build/cross/python-$$v-$$seed.txt; \
			pass=$$((pass + 1)); \
		done; \
	done; echo "Rust, C and Python replayed the same games"; \
	$(PY) tests/cross/readme_snippets.py; \
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude build/readme/quick.c -o build/readme/quick \
		$(C_LINK_SHARED); \
	build/readme/quick > build/readme/quick-c.txt; $(PY) build/readme/quick.py > build/readme/quick-py.txt; \
	pass=$$((pass + 2)); echo "the README's C and Python quick starts run"; \
	echo "test-cross: $$pass passed, 0 failed"

## Backgammon legal plays against GNU Backgammon and OpenSpiel, a quick run (the full one is
## `make crosscheck`: 10,000 positions x 21 rolls).
test-crosscheck:
	$(MAKE) crosscheck CROSSCHECK_POSITIONS=2000 CROSSCHECK_OPENSPIEL_GAMES=20 CROSSCHECK_PROFILE=debug

## Every fast move generator against its rule system's reference generator on about a million
## position-rolls in all (`make test` runs at least 20,000 per system). Not part of `make test`.
REFERENCE_TESTS := parcheesi_reference family_reference classic_reference backgammon_reference
REFERENCE_ROLLS_PER_SET ?= 12500
test-reference-long:
	REFERENCE_ROLLS=$(REFERENCE_ROLLS_PER_SET) $(CARGO) test --release -p pachisi \
		$(addprefix --test ,$(REFERENCE_TESTS)) -- --nocapture

## Criterion benchmarks (not part of `make test`; numbers go to docs/PERFORMANCE.md).
bench:
	$(CARGO) bench -p pachisi --bench engine

clean:
	$(CARGO) clean
	rm -rf $(VENV) out

include $(wildcard mk/*.mk)
