"""``queens compare``: run presets over the same seeds in parallel processes, side by side.

Each run is one task for a worker process: (preset, N, seed, time limit) in, a
:class:`RunResult` of plain values out. A run's result depends only on its task (the engine is
deterministic for a seed), so worker scheduling changes nothing but the seconds; a time limit is
the one exception, since it can cut a run short on a loaded machine. Results come back sorted by
the order the presets were given, then by seed. The report (table, chart, JSON, CSV) is in
:mod:`tui.compare_report`.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any, Final

from engine import Config, ConfigError, GeneticAlgorithm
from engine.config import parse_field
from engine.presets import PRESETS, Preset, preset_named

DEFAULT_TIME_LIMIT: Final = 10.0
"""Seconds allowed per run for a preset that has no budget of its own (so compare ends)."""


@dataclass(frozen=True)
class RunResult:
    """One run of a compare, as plain values.

    Attributes:
        preset: The preset's name.
        n: The board size.
        seed: The run's seed.
        solved: Whether any generation had a solution.
        generations: Generations to the first solution (or to the end, when unsolved).
        evaluations: Fitness evaluations to the first solution (or to the end).
        seconds: Seconds of computing to the first solution (or to the end).
        stop_reason: The stop rule that ended the run.
        conflicts: The fewest conflicts any generation's best individual had (0 when solved).
        time_limit: The time limit the run had, or ``None``.
        rerun: The command that runs it again alone.
    """

    preset: str
    n: int
    seed: int
    solved: bool
    generations: int
    evaluations: int
    seconds: float
    stop_reason: str | None
    conflicts: int
    time_limit: float | None
    rerun: str

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-able mapping."""
        return asdict(self)


@dataclass(frozen=True)
class Entrant:
    """A preset as compared: its name, board size and per-run time limit.

    Attributes:
        name: The preset's name.
        n: The board size.
        time_limit: Seconds allowed per run, or ``None`` for the preset's own budget.
        defaulted: Whether ``time_limit`` is :data:`DEFAULT_TIME_LIMIT`, added because the
            preset has no budget of its own.
    """

    name: str
    n: int
    time_limit: float | None
    defaulted: bool


@dataclass(frozen=True)
class Comparison:
    """What ``queens compare`` was asked, validated.

    Attributes:
        entrants: The presets, in the order given (each once).
        n: The board size asked for, or ``None`` for each preset's own.
        seeds: Runs per preset, with seeds ``0 .. seeds - 1``.
        time_limit: The ``--time-limit`` given, or ``None``.
        jobs: Worker processes.
    """

    entrants: tuple[Entrant, ...]
    n: int | None
    seeds: int
    time_limit: float | None
    jobs: int


def rerun_command(name: str, n: int, seed: int | str, time_limit: float | None) -> str:
    """The ``queens solve`` command that repeats one run of a compare (``seed`` may be ``"S"``)."""
    words = ["queens", "solve", "--preset", name, "--n", str(n), "--seed", str(seed)]
    if time_limit is not None:
        words += ["--time-limit", f"{time_limit:g}"]
    return shlex.join(words)


def has_budget(config: Config) -> bool:
    """Whether a config stops on its own even when it never solves."""
    limits = (config.generations, config.max_evals, config.time_limit, config.stagnation)
    return any(limit is not None for limit in limits)


def _whole(flag: str, text: str, low: int) -> int:
    try:
        value = int(text.strip().replace("_", ""))
    except ValueError:
        raise ConfigError(flag, text, f"a whole number >= {low} is expected") from None
    if value < low:
        raise ConfigError(flag, value, f"a whole number >= {low} is expected")
    return value


def _seconds(text: str | None) -> float | None:
    value = parse_field("time_limit", text)
    if value is not None and not (math.isfinite(value) and value > 0):
        raise ConfigError("time_limit", value, "a number of seconds > 0 is expected")
    return value  # type: ignore[no-any-return]


def entrant(preset: Preset, n: int | None, time_limit: float | None) -> Entrant:
    """The preset as it will run: its size, and the time limit each run gets.

    Raises:
        ConfigError: If the preset does not fit ``n``.
    """
    config = preset.config(n)
    if time_limit is not None:
        return Entrant(preset.name, config.n, time_limit, defaulted=False)
    if has_budget(config):
        return Entrant(preset.name, config.n, config.time_limit, defaulted=False)
    return Entrant(preset.name, config.n, DEFAULT_TIME_LIMIT, defaulted=True)


def comparison_from_args(args: argparse.Namespace) -> Comparison:
    """Validate the ``compare`` flags, before any run starts.

    Raises:
        ConfigError: On an unknown preset, a preset that does not fit ``--n``, no preset at
            all, or a bad ``--seeds``, ``--jobs`` or ``--time-limit``; naming the flag.
    """
    names = list(dict.fromkeys(args.presets))  # each once, in the order given
    if not names:
        raise ConfigError(
            "preset", [], f"give at least one --preset NAME (repeat it): {', '.join(PRESETS)}"
        )
    presets = [preset_named(name) for name in names]
    n = None if args.n is None else parse_field("n", args.n)
    seeds = _whole("seeds", args.seeds, 1)
    jobs = (os.cpu_count() or 1) if args.jobs is None else _whole("jobs", args.jobs, 1)
    time_limit = _seconds(args.time_limit)
    entrants = tuple(entrant(preset, n, time_limit) for preset in presets)
    return Comparison(entrants, n, seeds, time_limit, jobs)


def run_one(name: str, n: int, seed: int, time_limit: float | None) -> RunResult:
    """Run one preset on one seed to its stop rule (in a worker process).

    A run counts as solved when any generation had a solution, even when the preset goes on
    (DEAP's runs its 100 generations); generations, evaluations and seconds are then those of
    the first solved generation.
    """
    config = PRESETS[name].config(n).replace(seed=seed)
    if time_limit is not None:
        config = config.replace(time_limit=time_limit)
    algorithm = GeneticAlgorithm(config)
    final = algorithm.run()
    conflicts = algorithm.history.column("best_conflicts")
    solved_at = [int(i) for i in (conflicts == 0).nonzero()[0][:1]]
    row = algorithm.history.row(solved_at[0] if solved_at else -1)
    return RunResult(
        preset=name,
        n=n,
        seed=seed,
        solved=bool(solved_at),
        generations=int(row.generation),
        evaluations=int(row.evaluations),
        seconds=round(float(row.elapsed), 6),
        stop_reason=final.stop_reason,
        conflicts=int(conflicts.min()),
        time_limit=time_limit,
        rerun=rerun_command(name, n, seed, time_limit),
    )


def _ignore_interrupts() -> None:
    """Workers leave Ctrl+C to the parent, which stops them (no traceback from each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now, not after their current run."""
    # shutdown() forgets the workers: take them first. There is no public way before 3.14.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def run_all(
    comparison: Comparison, on_done: Callable[[int, int], None] | None = None
) -> list[RunResult]:
    """Every run of the comparison, in worker processes.

    Args:
        comparison: What to run.
        on_done: Called with (runs done, runs in all) as runs finish.

    Returns:
        The results, by preset in the order given, then by seed.

    Raises:
        KeyboardInterrupt: On Ctrl+C, once the workers are stopped.
    """
    tasks = [
        (e.name, e.n, seed, e.time_limit)
        for e in comparison.entrants
        for seed in range(comparison.seeds)
    ]
    workers = max(1, min(comparison.jobs, len(tasks)))
    results: dict[int, RunResult] = {}
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        futures: dict[Future[RunResult], int] = {
            pool.submit(run_one, *task): index for index, task in enumerate(tasks)
        }
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if on_done is not None:
                on_done(len(results), len(tasks))
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown()
    return [results[index] for index in range(len(tasks))]


def _run_with_status(comparison: Comparison) -> list[RunResult]:
    """:func:`run_all`, with a live count on stderr when stderr is a terminal."""
    if not sys.stderr.isatty():
        return run_all(comparison)
    from rich.console import Console

    total = len(comparison.entrants) * comparison.seeds
    with Console(stderr=True).status(f"compare: 0/{total} runs") as status:
        return run_all(comparison, lambda done, _: status.update(f"compare: {done}/{total} runs"))


def compare_command(args: argparse.Namespace) -> int:
    """Run ``queens compare`` and print its report. Returns the exit code (0 once it ends).

    Raises:
        ConfigError: On bad input (the command line prints it and exits 2).
        KeyboardInterrupt: On Ctrl+C, once the workers are stopped (exit 130).
    """
    from tui import compare_report

    comparison = comparison_from_args(args)
    results = _run_with_status(comparison)
    if args.json:
        print(compare_report.json_text(comparison, results))
    elif args.csv:
        sys.stdout.write(compare_report.csv_text(results))
    else:
        print(compare_report.table_text(comparison, results))
        if sys.stdout.isatty():
            chart = compare_report.chart_text(comparison, results)
            if chart:
                print(chart)
        print(compare_report.rerun_text(comparison))
    return 0
