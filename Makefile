# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# `make run` installs what the dashboard needs; `make test` adds the test tools and Dask.
RUN_STAMP  := $(VENV)/.run-stamp
STAMP      := $(VENV)/.installed-stamp
# `make test` also runs the engine's tests and the corpus on the oldest numpy pyproject.toml
# allows, in a second environment: the floor it says it supports is the floor it tests.
OLDEST_NUMPY := $(shell sed -n 's/^ *"numpy>=\([0-9.]*\)",*$$/\1/p' pyproject.toml)
OLDEST       := .venv-oldest
OLDEST_STAMP := $(OLDEST)/.installed-stamp

.PHONY: run test test-oldest bench screenshots lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/queens

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine tui
	$(BIN)/lint-imports --no-logo
	$(BIN)/pytest -q -n 2 --dist worksteal
	$(MAKE) --no-print-directory test-oldest

# numpy pinned in the same install as the project, so pip cannot upgrade it; then checked.
$(OLDEST_STAMP): pyproject.toml
	test -n "$(OLDEST_NUMPY)"
	$(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST)/bin/python -m pip install --quiet 'numpy==$(OLDEST_NUMPY).*' -e '.[dev]'
	$(OLDEST)/bin/python -c "import numpy, numba; assert numpy.__version__.startswith('$(OLDEST_NUMPY).'), numpy.__version__"
	touch $(OLDEST_STAMP)

test-oldest: $(OLDEST_STAMP)
	$(OLDEST)/bin/python -c "import numpy, numba; print('oldest supported numpy', numpy.__version__, 'with numba', numba.__version__)"
	$(OLDEST)/bin/pytest -q -n 2 --dist worksteal tests/engine tests/corpus

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
	rm -rf $(VENV) $(OLDEST) .pytest_cache .mypy_cache .ruff_cache
