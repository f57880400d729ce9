# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# `make run` installs what the dashboard needs; `make test` adds the test tools, Dask, scipy
# and matplotlib.
RUN_STAMP  := $(VENV)/.run-stamp
STAMP      := $(VENV)/.installed-stamp
# `make test` also runs the engine's tests and the corpus on the oldest numpy pyproject.toml
# allows: the floor it says it supports is the floor it tests. That numpy alone goes into a
# folder put in front of the venv's packages (no second venv to build: seconds, not minutes).
OLDEST_NUMPY := $(shell sed -n 's/^ *"numpy>=\([0-9.]*\)",*$$/\1/p' pyproject.toml)
OLDEST       := $(VENV)/oldest-numpy
OLDEST_STAMP := $(OLDEST)/.installed-stamp

.PHONY: run test check test-oldest bench screenshots lint clean

# The tests start hundreds of Python processes (the command line, the dashboard in a terminal,
# sweep workers): let them keep the project's compiled modules. Where the environment turns
# that off, each process compiled every module it imports again, and each test process
# rewrote every test file's asserts again.
unexport PYTHONDONTWRITEBYTECODE

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster,stats]'
	touch $(STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/queens

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine tui
	$(BIN)/lint-imports --no-logo
	$(BIN)/pytest -q -n 3 --dist worksteal
	$(MAKE) --no-print-directory test-oldest

# The fast loop while working: the same checks, and the tests not marked slow (about a minute).
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine tui
	$(BIN)/lint-imports --no-logo
	$(BIN)/pytest -q -n 2 --dist worksteal -m "not slow"

$(OLDEST_STAMP): pyproject.toml | $(BIN)/python
	test -n "$(OLDEST_NUMPY)"
	rm -rf $(OLDEST)
	$(BIN)/python -m pip install --quiet --no-deps --target $(OLDEST) 'numpy==$(OLDEST_NUMPY).*'
	touch $(OLDEST_STAMP)

test-oldest: $(STAMP) $(OLDEST_STAMP)
	PYTHONPATH=$(OLDEST) $(BIN)/python -c "import numpy, numba; assert numpy.__version__.startswith('$(OLDEST_NUMPY).'), numpy.__version__; print('oldest supported numpy', numpy.__version__, 'with numba', numba.__version__)"
	PYTHONPATH=$(OLDEST) $(BIN)/pytest -q -n 2 --dist worksteal -p no:cacheprovider -m "not slow or corpus" tests/engine tests/corpus

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster,bench]'
	$(BIN)/python tests/benchmarks/bench_engine.py
	$(BIN)/python tests/benchmarks/bench_startup.py
	$(BIN)/python tests/benchmarks/bench_store.py
	$(BIN)/python tests/benchmarks/bench_memetic.py
	$(BIN)/python tests/benchmarks/bench_long_runs.py
	$(BIN)/python tests/benchmarks/bench_views.py
	$(BIN)/python tests/benchmarks/bench_sweep.py
	$(BIN)/python tests/benchmarks/bench_solutions.py
	$(BIN)/python tests/benchmarks/bench_lineage.py
	$(BIN)/python tests/benchmarks/bench_population_views.py

screenshots: $(STAMP)
	$(BIN)/python tests/benchmarks/make_screenshots.py
	$(BIN)/python tests/benchmarks/make_replay_screenshot.py
	$(BIN)/python tests/benchmarks/browser_screenshot.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
