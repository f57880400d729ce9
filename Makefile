# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test bench screenshots lint clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/queens

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine tui
	$(BIN)/lint-imports --no-logo
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster,bench]'
	$(BIN)/python tests/benchmarks/bench_engine.py
	$(BIN)/python tests/benchmarks/bench_startup.py
	$(BIN)/python tests/benchmarks/bench_store.py
	$(BIN)/python tests/benchmarks/bench_memetic.py
	$(BIN)/python tests/benchmarks/bench_long_runs.py
	$(BIN)/python tests/benchmarks/bench_views.py
	$(BIN)/python tests/benchmarks/bench_sweep.py

screenshots: $(STAMP)
	$(BIN)/python tests/benchmarks/make_screenshots.py
	$(BIN)/python tests/benchmarks/make_replay_screenshot.py
	$(BIN)/python tests/benchmarks/browser_screenshot.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
