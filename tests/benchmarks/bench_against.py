"""Benchmark (not a test): this checkout's engine against the engine of a git revision, the two
stepped alternately in one process, and checked to make the same run.

The revision's ``engine/`` is extracted (``git archive``) into a temporary folder as a package
named ``engine_base`` (its imports of ``engine`` renamed), so that both engines live in one
process: each runs the same config and seed, in blocks of generations taken in turn (A then B,
B then A, ...), and after every block their snapshots (population, fitness, conflicts,
statistics, best index) and generators' states must be equal. The CPU time of each block is
summed per engine: the machine's other work falls on both alike, and the ratio is what a
change bought.

Run: ``.venv/bin/python tests/benchmarks/bench_against.py REVISION N SEED [WARM BLOCKS SIZE]``
(for instance ``main 16384 0 0 150 50``: a whole default run at N = 16,384, about a minute
per engine). ``WARM`` generations are stepped (and compared) first, untimed.
"""

from __future__ import annotations

import importlib
import io
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

import engine

ROOT = Path(__file__).resolve().parents[2]


def base_engine(revision: str, folder: Path) -> ModuleType:
    """The engine package of ``revision``, imported as ``engine_base`` from ``folder``."""
    archive = subprocess.run(
        ["git", "archive", revision, "engine"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "engine").rename(folder / "engine_base")
    importing = re.compile(r"\b(from|import) engine(?=[. ])")
    for path in (folder / "engine_base").rglob("*.py"):
        text = importing.sub(r"\1 engine_base", path.read_text())
        path.write_text(text.replace('"engine.', '"engine_base.'))
    sys.path.insert(0, str(folder))
    return importlib.import_module("engine_base")


def same_run(a: Any, b: Any) -> bool:
    """Whether two algorithms stand at the same generation, bit for bit."""
    mine, theirs = a.snapshot, b.snapshot
    return (
        np.array_equal(mine.population, theirs.population)
        and np.array_equal(mine.fitness, theirs.fitness)
        and np.array_equal(mine.conflicts, theirs.conflicts)
        and mine.stats._replace(elapsed=0.0) == theirs.stats._replace(elapsed=0.0)
        and mine.best_index == theirs.best_index
        and str(a.rng.bit_generator.state) == str(b.rng.bit_generator.state)
    )


def main() -> None:
    revision, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    given = sys.argv[4:7]
    warm, blocks, size = (int(value) for value in [*given, *["0", "20", "50"][len(given) :]])
    with tempfile.TemporaryDirectory() as folder:
        base = base_engine(revision, Path(folder))
        a = base.GeneticAlgorithm(base.Config(n=n, seed=seed, generations=30_000))
        b = engine.GeneticAlgorithm(engine.Config(n=n, seed=seed, generations=30_000))
        for generation in range(warm):
            a.step(), b.step()
            assert same_run(a, b), f"the runs part at generation {generation + 1}"
        spent = {"A": 0.0, "B": 0.0}
        ratios = []
        for block in range(blocks):
            times = {}
            for name in ("A", "B") if block % 2 == 0 else ("B", "A"):
                algorithm = a if name == "A" else b
                started = time.process_time()
                for _ in range(size):
                    if algorithm.has_next():
                        algorithm.step()
                times[name] = time.process_time() - started
                spent[name] += times[name]
            assert same_run(a, b), f"the runs part in block {block + 1}"
            ratios.append(times["B"] / times["A"])
        steps = b.snapshot.generation - warm
        print(
            f"N = {n:,}, seed {seed}, generations {warm:,}-{b.snapshot.generation:,}: "
            f"A ({revision}) {spent['A'] / steps * 1e3:.3f} ms a generation, "
            f"B (this checkout) {spent['B'] / steps * 1e3:.3f} ms; "
            f"B/A {spent['B'] / spent['A']:.3f} "
            f"(median of blocks {float(np.median(ratios)):.3f}); the same run after every block"
        )


if __name__ == "__main__":
    main()
