# Python package targets; included by the top-level Makefile, which defines VENV, PY and `venv`.
.PHONY: python-dev test-python analysis bench-python python-wheel

MATURIN_TARGET := target/maturin

## Build the extension (release) and install the package into the virtualenv, editable.
python-dev: venv
	cd python && VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH \
		maturin develop --release --target-dir ../$(MATURIN_TARGET) -q

## Python tests: pytest (the scenario files, the API, simulate, SVG, the tour) and stubtest.
test-python: python-dev
	$(PY) -m pytest -q tests/python
	$(PY) -m mypy.stubtest pachisi._native
	$(PY) -m mypy python/python/pachisi examples/python/tour.py benchmarks/python_bench.py \
		benchmarks/study_bench.py

## The main job: the variant analysis, a study (examples/studies/main.toml, docs/STUDIES.md) on
## the local backend: the table, out/main.csv, out/main.json, out/main.png and the store
## out/main.sqlite (interrupted, `make run` resumes it).
analysis: python-dev
	$(PY) -m pachisi study run examples/studies/main.toml --fresh-if-changed

## Python API loop vs OpenSpiel (if installed) and simulate() scaling.
bench-python: python-dev
	$(PY) benchmarks/python_bench.py

## An abi3 wheel in target/wheels.
python-wheel: venv
	cd python && $(abspath $(VENV))/bin/maturin build --release --target-dir ../$(MATURIN_TARGET)
