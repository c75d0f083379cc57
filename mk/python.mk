# Python package targets; included by the top-level Makefile, which defines VENV, PY and `venv`.
.PHONY: python-dev test-python analysis bench-python bench-python-instructions bench-peers python-wheel test-wheel rl-deps \
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
	$(PY) -m pytest -q tests/python tests/independent
	$(PY) -m mypy.stubtest pachisi._native
	$(PY) -m mypy python/python/pachisi examples/python/tour.py benchmarks/python_bench.py \
		benchmarks/peers.py examples/python/train_parcheesi.py benchmarks/rl_bench.py \
		benchmarks/study_bench.py benchmarks/loop_instructions.py

## The main job: the variant analysis, a study (examples/studies/main.toml, docs/STUDIES.md) on
## the local backend: the table, out/main.csv, out/main.json, out/main.png and the store
## out/main.sqlite (interrupted, `make run` resumes it).
analysis: python-dev
	$(PY) -m pachisi study run examples/studies/main.toml --fresh-if-changed

## Python API loop vs OpenSpiel (if installed) and simulate() scaling.
bench-python: python-dev
	$(PY) benchmarks/python_bench.py

## The same Python loop's instructions per game, pachisi against pyspiel (callgrind: stable under
## load; pyspiel only if installed, as make crosscheck-deps does).
bench-python-instructions: python-dev
	$(PY) benchmarks/loop_instructions.py --games 100

## pachisi against its peers side by side (OpenSpiel C++ and Python loops, pgx on CPU; each
## only if installed: pip install open_spiel pgx jax), games/s and ratios from one run.
bench-peers: python-dev
	$(PY) benchmarks/peers.py

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
