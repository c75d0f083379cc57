# Python package targets; included by the top-level Makefile, which defines VENV, PY and `venv`.
.PHONY: python-dev test-python analysis bench-python python-wheel test-wheel

MATURIN_TARGET := target/maturin

## Build the extension (release) and install the package into the virtualenv, editable.
python-dev: venv
	cd python && VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH \
		maturin develop --release --target-dir ../$(MATURIN_TARGET) -q

## Python tests: pytest (the scenario files, the API, simulate, SVG, the tour) and stubtest.
test-python: python-dev
	$(PY) -m pytest -q tests/python
	$(PY) -m mypy.stubtest pachisi._native
	$(PY) -m mypy python/python/pachisi examples/python/tour.py benchmarks/python_bench.py

## The main job: the variant analysis (table, out/analysis.png, out/analysis.json).
analysis: python-dev
	$(PY) -m pachisi.analysis --out out

## Python API loop vs OpenSpiel (if installed) and simulate() scaling.
bench-python: python-dev
	$(PY) benchmarks/python_bench.py

## The wheel's build tools (python/requirements-wheel.txt: maturin, zig, auditwheel).
$(VENV)/.wheel-stamp: python/requirements-wheel.txt $(VENV)/.stamp
	$(PY) -m pip install -q -r python/requirements-wheel.txt
	touch $@

## A portable abi3 wheel in target/wheels: zig links the extension against glibc 2.17 symbols, so
## the wheel is tagged manylinux2014 (installs on any x86_64 Linux with glibc >= 2.17) without
## Docker; auditwheel then reports the tag the wheel really qualifies for.
WHEEL_TARGET := target/maturin-zig
python-wheel: $(VENV)/.wheel-stamp
	rm -f target/wheels/pachisi-*.whl
	cd python && PATH=$(abspath $(VENV))/bin:$$PATH maturin build --release --zig \
		--compatibility manylinux2014 --target-dir ../$(WHEEL_TARGET) --out ../target/wheels
	$(VENV)/bin/auditwheel show target/wheels/pachisi-*.whl

## The wheel in a fresh virtualenv (build/wheel-venv): installs, imports, plays every preset.
test-wheel: python-wheel
	rm -rf build/wheel-venv
	$(PYTHON) -m venv build/wheel-venv
	build/wheel-venv/bin/pip install -q target/wheels/pachisi-*.whl
	build/wheel-venv/bin/python -I tests/wheel/smoke.py
