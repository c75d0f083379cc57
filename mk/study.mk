# Variant studies (docs/STUDIES.md); included by the top-level Makefile, which defines VENV and PY.
#
#   make study-deps   pandas, tqdm and Ray into .venv (python/requirements-study.txt); make
#                     test-python depends on it
#   make test-ray     the Ray cluster tests (a simulated two-node cluster loses a worker and a
#                     node mid-study); make test runs only the quick Ray test
#   make bench-study  the local backend against plain simulate, Ray against local
.PHONY: study-deps test-ray bench-study

study-deps: $(VENV)/.study-stamp
$(VENV)/.study-stamp: python/requirements-study.txt $(VENV)/.stamp
	$(PY) -m pip install -q -r python/requirements-study.txt
	touch $@

test-python: study-deps

test-ray: python-dev study-deps
	PACHISI_RAY_TESTS=1 $(PY) -m pytest -q tests/python/test_study_ray.py

bench-study: python-dev study-deps
	$(PY) benchmarks/study_bench.py
