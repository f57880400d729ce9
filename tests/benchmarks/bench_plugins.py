"""Plug-in operators: what checking one costs, and what a generation costs with a numpy plug-in
next to the built-in it copies.

Prints, at P = 1,000 and N = 64:

- the check of each example plug-in of ``docs/examples/plugin_ops.py`` (the median of fresh
  checks: the file read, compiled and called on the sample, as a new process would);
- the time per generation of the built-in ``swap`` mutation and of its copy
  ``swap_two_queens`` (the same draws, the same run), alternated in rounds so that both see the
  same machine, and the plug-in's cost relative to the built-in's.

Run with ``python tests/benchmarks/bench_plugins.py [--rounds 7] [--generations 200]``.
Figures depend on the machine and on what else it runs: compare them within one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import engine.operators.plugins as plugins
from engine import Config, GeneticAlgorithm
from engine.config import plugin_checks

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


if __name__ == "__main__":
    main()
