"""Plug-in operators: what checking one costs, and what a generation costs with a numpy plug-in
next to the built-in it copies.

Prints, at P = 1,000 and N = 64:

- the check of each example plug-in of ``docs/examples/plugin_ops.py`` (the median of fresh
  checks: the file read, compiled and called on the sample, as a new process would);
- the time per generation of the built-in ``swap`` mutation and of its copy
  ``swap_two_queens`` (the same draws, the same run), alternated in rounds so that both see the
  same machine, and the plug-in's cost relative to the built-in's;
- the swap of a changed plug-in file into a paused, recorded run (the median of fresh swaps,
  each a new version of the file: read, compiled, checked, bound to the run, and kept in its
  record), against the 250 ms it may take, with its two parts: the engine's swap and the record.

Run with ``python tests/benchmarks/bench_plugins.py [--rounds 7] [--generations 200]``.
Figures depend on the machine and on what else it runs: compare them within one run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import engine.operators.plugins as plugins
from engine import Config, GeneticAlgorithm
from engine.config import plugin_checks
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "plugin_ops.py"
KINDS = {
    "selection": "tournament_of_three",
    "crossover": "head_and_rest",
    "mutation": "swap_two_queens",
    "survivor": "best_of_both",
    "fitness": "squared_pairs",
}
SIZE = {"n": 64, "population": 1000}


def check_milliseconds(field: str, function: str, repeats: int) -> tuple[float, float, float]:
    """The median and the fastest time of a fresh check (nothing kept from the one before),
    and the median of the two calls of the plug-in it makes (the plug-in's own time, which the
    check cannot make shorter)."""
    times = []
    for _ in range(repeats):
        plugins._SOURCES.clear()
        plugins._MODULES.clear()
        plugin_checks._checked.cache_clear()
        started = time.perf_counter()
        Config(**SIZE, seed=1, **{field: f"{EXAMPLES}:{function}"})  # type: ignore[arg-type]
        times.append(time.perf_counter() - started)
    # The config's own rules, timed alone, are taken off: what is left is the plug-in's.
    rules = []
    for _ in range(repeats):
        started = time.perf_counter()
        Config(**SIZE, seed=1)  # type: ignore[arg-type]
        rules.append(time.perf_counter() - started)
    own = []
    call, arguments = _call_of(field, function)
    for _ in range(repeats):
        started = time.perf_counter()
        call(*arguments())
        call(*arguments())
        own.append(time.perf_counter() - started)
    total = statistics.median(times) - statistics.median(rules)
    fastest = min(times) - min(rules)
    return 1e3 * total, 1e3 * fastest, 1e3 * statistics.median(own)


def _call_of(field: str, function: str) -> tuple[Callable[..., Any], Callable[[], tuple[Any, ...]]]:
    """The plug-in, and the arguments the check gives it (a generator drawn fresh each time)."""
    called = plugins.plugin_function(f"{EXAMPLES}:{function}")
    rng = np.random.default_rng(1)
    genomes = rng.permuted(np.tile(np.arange(SIZE["n"]), (SIZE["population"], 1)), axis=1)
    fitness = rng.random(SIZE["population"])
    half = SIZE["population"] // 2
    given: dict[str, Callable[[], tuple[Any, ...]]] = {
        "selection": lambda: (fitness, SIZE["population"], np.random.default_rng(2), 2),
        "crossover": lambda: (genomes[:half], genomes[half:], np.random.default_rng(2)),
        "mutation": lambda: (genomes, np.random.default_rng(2), 1.0),
        "survivor": lambda: (fitness[:half], fitness[half:], 0),
        "fitness": lambda: (genomes, np.zeros(SIZE["population"], np.int64), SIZE["n"]),
    }
    return called, given[field]


def generation_seconds(config: Config, generations: int) -> float:
    """Seconds per generation over ``generations`` steps of a fresh run."""
    algorithm = GeneticAlgorithm(config, lineage=False)
    started = time.perf_counter()
    algorithm.step_many(generations)
    return (time.perf_counter() - started) / generations


SWAP_TARGET_MS = 250.0
"""What a swap in a paused run may take."""


def swap_milliseconds(repeats: int) -> tuple[list[float], list[float]]:
    """Fresh swaps into a paused, recorded run at :data:`SIZE`: for each, the engine's swap
    (the new file read, compiled, checked and bound) and the record's (the buffered generations
    committed, the swap kept), in ms."""
    source = (EXAMPLES.parent / "plugin_ops.py").read_text(encoding="utf-8")
    engine_times, record_times = [], []
    with tempfile.TemporaryDirectory() as folder:
        ops = Path(folder) / "ops.py"
        ops.write_text(source, encoding="utf-8")
        config = Config(
            **SIZE,  # type: ignore[arg-type]
            seed=5,
            mutation=f"{ops}:swap_two_queens",
            stop_when_solved=False,
        )
        with RunStore.open(Path(folder) / "runs.sqlite3") as store:
            algorithm = GeneticAlgorithm(config)
            recorder = Recorder(store, algorithm)
            for version in range(repeats):
                for _ in range(3):  # a few generations recorded since the last swap
                    recorder.record(algorithm.step())
                recorder.flush()  # the pause
                ops.write_text(f"{source}\n# version {version}\n", encoding="utf-8")
                started = time.perf_counter()
                algorithm.swap_operator("mutation", f"{ops}:swap_two_queens")
                swapped = time.perf_counter()
                recorder.note_swap("mutation")
                recorded = time.perf_counter()
                engine_times.append(1e3 * (swapped - started))
                record_times.append(1e3 * (recorded - swapped))
            recorder.close()
            assert len(store.run(recorder.run_id).swaps) == repeats
    return engine_times, record_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--generations", type=int, default=200)
    args = parser.parse_args()
    print(f"check of a plug-in at P = {SIZE['population']:,}, N = {SIZE['n']} (median of 9):")
    print(f"  {'kind':<10} {'function':<20} {'check':>8} {'fastest':>9} {'its calls':>10}")
    for field, function in KINDS.items():
        total, fastest, own = check_milliseconds(field, function, 9)
        print(f"  {field:<10} {function:<20} {total:6.1f} ms {fastest:6.1f} ms {own:7.1f} ms")
    fields = {**SIZE, "seed": 3, "mutation_rate": 1.0, "stop_when_solved": False}
    built_in = Config(mutation="swap", **fields)  # type: ignore[arg-type]
    plugged = Config(mutation=f"{EXAMPLES}:swap_two_queens", **fields)  # type: ignore[arg-type]
    times: dict[str, list[float]] = {"built-in swap": [], "plug-in copy": []}
    for _ in range(args.rounds):
        times["built-in swap"].append(generation_seconds(built_in, args.generations))
        times["plug-in copy"].append(generation_seconds(plugged, args.generations))
    print(f"per generation, {args.rounds} alternated rounds of {args.generations} generations:")
    for name, values in times.items():
        print(f"  {name:<14} median {1e3 * statistics.median(values):6.3f} ms")
    ratio = statistics.median(times["plug-in copy"]) / statistics.median(times["built-in swap"])
    print(f"  plug-in / built-in: {ratio:.3f} ({100 * (ratio - 1):+.1f}%)")
    swapped, recorded = swap_milliseconds(9)
    total = [a + b for a, b in zip(swapped, recorded, strict=True)]
    print(f"swap of a changed mutation file into a paused, recorded run (median of {len(total)}):")
    print(f"  engine (read, compile, check, bind) {statistics.median(swapped):6.1f} ms")
    print(f"  record (commit, keep the swap)      {statistics.median(recorded):6.1f} ms")
    print(
        f"  whole swap {statistics.median(total):6.1f} ms (slowest {max(total):.1f} ms); "
        f"target at most {SWAP_TARGET_MS:.0f} ms"
    )


if __name__ == "__main__":
    main()
