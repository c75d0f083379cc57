# Python package targets; included by the top-level Makefile, which defines VENV, PY and `venv`.
.PHONY: python-dev test-python analysis bench-python bench-peers python-wheel rl-deps \
	test-rl-openspiel-long bench-rl train-example

MATURIN_TARGET := target/maturin

## Build the extension (release) and install the package into the virtualenv, editable.
python-dev: venv
	cd python && VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH \
		maturin develop --release --target-dir ../$(MATURIN_TARGET) -q

## The RL adapters' ecosystems (Gymnasium, PettingZoo, OpenSpiel) for tests/python/test_rl.py.
rl-deps: $(VENV)/.rl-stamp
$(VENV)/.rl-stamp: python/requirements-rl.txt | venv
	$(PY) -m pip install -q -r python/requirements-rl.txt
	touch $@

## Python tests: pytest (the scenario files, the API, simulate, SVG, the tour, the RL adapters
## under their ecosystems' checkers) and stubtest.
test-python: python-dev rl-deps
	$(PY) -m pytest -q tests/python
	$(PY) -m mypy.stubtest pachisi._native
	$(PY) -m mypy python/python/pachisi examples/python/tour.py benchmarks/python_bench.py \
		benchmarks/peers.py examples/python/train_parcheesi.py benchmarks/rl_bench.py

## The main job: the variant analysis (table, out/analysis.png, out/analysis.json).
analysis: python-dev
	$(PY) -m pachisi.analysis --out out

## Python API loop vs OpenSpiel (if installed) and simulate() scaling.
bench-python: python-dev
	$(PY) benchmarks/python_bench.py

## pachisi against its peers side by side (OpenSpiel C++ and Python loops, pgx on CPU; each
## only if installed: pip install open_spiel pgx jax), games/s and ratios from one run.
bench-peers: python-dev
	$(PY) benchmarks/peers.py

## An abi3 wheel in target/wheels.
python-wheel: venv
	cd python && $(abspath $(VENV))/bin/maturin build --release --target-dir ../$(MATURIN_TARGET)

## The backgammon `openspiel` encoding against OpenSpiel's backgammon on RL_GAMES random games.
RL_GAMES ?= 1000
test-rl-openspiel-long: python-dev rl-deps
	cd tests/python && ../../$(PY) openspiel_backgammon.py --games $(RL_GAMES) --seed 0

## VecEnv throughput (random legal actions) beside OpenSpiel's loop (and pgx when installed).
bench-rl: python-dev rl-deps
	$(PY) benchmarks/rl_bench.py

## The example: a masked policy-gradient agent on 2-seat Parcheesi against `random`.
train-example: python-dev
	$(PY) examples/python/train_parcheesi.py
