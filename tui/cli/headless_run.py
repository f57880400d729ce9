"""Running a GA headless to its stop: live status on a terminal, and a time limit kept strictly.

The engine checks ``--time-limit`` between generations, so one slow generation could overrun it
by its whole length (``--n 20000 --population 2000 --time-limit 1`` ran 26 s). Headless runs
here do better in two ways:

- a generation still running when the limit passes is abandoned (a ``SIGALRM`` timer), and the
  result is the last whole generation, with ``stop_reason`` ``"time-limit"``;
- the first population, which must be evaluated in full to have any result, is timed on a small
  sample first; when it alone would take longer than the limit, a note on stderr says so
  before the run starts.
"""

from __future__ import annotations

import dataclasses
import secrets
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Final

from engine import Config, GeneticAlgorithm, Snapshot
from engine.termination import TIME_LIMIT

PROGRESS_INTERVAL: Final = 0.1
"""Seconds between two progress lines on stderr."""

INTERRUPTED: Final = "interrupted"
"""The ``stop_reason`` of a run stopped by Ctrl+C or SIGTERM."""

SAMPLE_GENES: Final = 20_000
"""Genes of the sample population timed to estimate the first population's evaluation (a
population no bigger than this is not sampled: timing it would cost as much as making it)."""


class LiveStatusLine:
    """A one-line live status on stderr (Rich), shown only when stderr is a terminal."""

    def __init__(self) -> None:
        from rich.console import Console

        self._console = Console(stderr=True)
        self._status = self._console.status("starting")
        self._last = 0.0

    def __enter__(self) -> LiveStatusLine:
        self._status.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._status.stop()

    def update(self, snapshot: Snapshot) -> None:
        now = time.monotonic()
        if now - self._last < PROGRESS_INTERVAL:
            return
        self._last = now
        rate = snapshot.generation / snapshot.elapsed if snapshot.elapsed > 0 else 0.0
        self._status.update(
            f"Gen {snapshot.generation:,}  evals {snapshot.evaluations:,}  "
            f"conflicts {snapshot.best_conflicts}  mean {snapshot.stats.mean_conflicts:.1f}  "
            f"{rate:,.0f} gen/s"
        )


LONGEST_TIMER: Final = 2.0**31
"""Seconds the interval timer is armed for at most (68 years; ``setitimer`` overflows near
2**63 on this platform): a longer limit is left to the engine's own check between generations."""


class _DeadlinePassed(Exception):
    """Raised by the timer inside a generation that runs past the time limit."""


class GenerationDeadline:
    """Abandon the generation in progress when the run's time limit passes.

    A context manager around the stepping loop. The timer is armed for what is left of the
    limit after the first population; when it fires, the step in progress is given up and
    :attr:`passed` is set. Does nothing without a limit, off the main thread, or where
    ``signal.setitimer`` does not exist (Windows): the engine's own check then applies.
    """

    def __init__(self, algorithm: GeneticAlgorithm) -> None:
        limit = algorithm.config.time_limit
        self._remaining = None if limit is None else limit - algorithm.snapshot.elapsed
        self._armed = False
        self._previous: signal._HANDLER = None
        self.passed = False

    def _usable(self) -> bool:
        return (
            self._remaining is not None
            and 0 < self._remaining <= LONGEST_TIMER
            and hasattr(signal, "setitimer")
        )

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if self._armed:
            raise _DeadlinePassed

    def __enter__(self) -> GenerationDeadline:
        if self._usable():
            assert self._remaining is not None
            try:
                self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
            except ValueError:  # not the main thread: only it can handle signals
                return self
            self._armed = True
            signal.setitimer(signal.ITIMER_REAL, self._remaining)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool:
        if self._armed:
            self._armed = False  # from here on, a late alarm is ignored
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
        self.passed = kind is _DeadlinePassed
        return self.passed


def run_to_stop(algorithm: GeneticAlgorithm) -> Snapshot:
    """Step to a stop rule, with live progress on stderr when it is a terminal.

    A generation still running when the time limit passes is abandoned: the result is then
    the last whole generation, stopped for ``"time-limit"``.
    """
    with GenerationDeadline(algorithm) as deadline:
        if sys.stderr.isatty():
            with LiveStatusLine() as progress:
                while algorithm.has_next():
                    progress.update(algorithm.step())
        else:
            while algorithm.has_next():
                algorithm.step()
    if deadline.passed:
        return time_limit_passed(algorithm.snapshot)
    return algorithm.snapshot


def time_limit_passed(last: Snapshot) -> Snapshot:
    """Say on stderr that the generation after ``last`` was abandoned; ``last``, stopped by time."""
    print(
        f"queens: the time limit passed during generation {last.generation + 1:,}; "
        f"the result is generation {last.generation:,}",
        file=sys.stderr,
    )
    return dataclasses.replace(last, stop_reason=TIME_LIMIT)


def run_headless(config: Config, show: Callable[[Snapshot | None, Config], None]) -> Snapshot | int:
    """Run ``config`` to its stop and return the final snapshot; interrupted, show what there is.

    Interrupted (Ctrl+C, SIGTERM), ``show`` gets the last whole generation (``None`` before the
    first population) and the config with its seed, and the exit code (130 or 143) is returned
    instead of a snapshot.
    """
    from tui.cli.signals import report_interruption

    config = with_seed(config)
    algorithm: GeneticAlgorithm | None = None
    try:
        warn_when_first_population_overruns(config)
        # Nothing here reads a generation's lineage, which holds the generation before it:
        # one more copy of the population (160 MB for the memetic preset at N = 10^7).
        algorithm = GeneticAlgorithm(config, lineage=False)
        return run_to_stop(algorithm)
    except KeyboardInterrupt as interruption:
        show(None if algorithm is None else interrupted(algorithm.snapshot), config)
        sys.stdout.flush()
        return report_interruption(interruption)


def with_seed(config: Config) -> Config:
    """``config`` with a seed: its own, or one drawn now (as the engine would draw it).

    Drawn here rather than in the engine so that a run interrupted before its first
    generation can still report the seed that replays it.
    """
    return config if config.seed is not None else config.replace(seed=secrets.randbits(32))


def first_population_seconds(config: Config) -> float | None:
    """Estimated seconds to create and evaluate the first population, from a timed sample.

    ``None`` when there is no time limit, or when the population is no bigger than the sample
    (no sample is timed then).
    """
    import numpy as np

    from engine import fitness_shape_of
    from engine.genomes.encodings import ENCODINGS
    from engine.genomes.fitness import evaluate

    limit = config.time_limit
    genes = config.population * config.n
    if limit is None or genes <= SAMPLE_GENES:
        return None
    encoding, shape = ENCODINGS[config.encoding], fitness_shape_of(config.fitness)
    rng = np.random.default_rng(0)  # not the run's: the run stays the same with or without this
    evaluate(encoding.random_population(2, 8, rng), 8, encoding, shape)  # first-call costs
    rows = max(1, min(config.population, SAMPLE_GENES // config.n))
    started = time.perf_counter()
    sample = encoding.random_population(rows, config.n, rng)
    evaluate(sample, config.n, encoding, shape)
    return (time.perf_counter() - started) * config.population / rows


def warn_when_first_population_overruns(config: Config) -> None:
    """Say on stderr, before the run, when its first population alone overruns the time limit."""
    estimate = first_population_seconds(config)
    if estimate is None or config.time_limit is None or estimate <= config.time_limit:
        return
    print(
        f"queens: note: the first population ({config.population:,} x {config.n:,} genes) is "
        f"estimated to take {estimate:.1f} s, more than --time-limit {config.time_limit:g}; it "
        "is always evaluated in full, so this run will take at least that long",
        file=sys.stderr,
    )


def interrupted(snapshot: Snapshot) -> Snapshot:
    """``snapshot`` marked as the result of an interrupted run."""
    return dataclasses.replace(snapshot, stop_reason=INTERRUPTED)
