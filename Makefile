# The two commands of the README: `make run` and `make test`. Both set everything up first.
SHELL := /bin/bash
CARGO ?= cargo
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Rust test binaries that embed Python must load this interpreter's libpython (TOOLCHAIN.md #3).
PY_LIBDIR := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))' 2>/dev/null)

.PHONY: all setup run test lint test-rust bench venv clean

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

## The main job: a variant analysis over every preset (table + out/analysis.png).
run: setup analysis

## Every test: Rust (unit, integration, property, doc), C and C++ (valgrind), Python.
test: lint test-rust test-c test-python
	@echo "make test: all suites passed"

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

test-rust:
	LD_LIBRARY_PATH=$(PY_LIBDIR) $(CARGO) test --workspace

## Criterion benchmarks (not part of `make test`; numbers go to docs/PERFORMANCE.md).
bench:
	$(CARGO) bench -p pachisi --bench engine

clean:
	$(CARGO) clean
	rm -rf $(VENV) out

include $(wildcard mk/*.mk)
