"""Drive one or more :class:`~engine.GeneticAlgorithm` runs from a thread, off the event loop.

The runner is an invisible widget: it owns the runs and their thread worker and tells its
screen what happened through messages. The dashboard and the solutions screen drive one run;
the race drives two, a generation of each per turn, in the same thread, so neither side gets
more of the machine than the other. The worker only ever calls ``algorithm.step()``, so
however the runs are paced (flat out, slow motion, one step at a time) the same configs and
seeds give the same runs.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, get_current_worker

from engine import Config, GeneticAlgorithm, Snapshot
from tui.dashboard.runs.memory_release import release_memory
from tui.dashboard.runs.run_gate import RunGate
from tui.dashboard.runs.speed import SPEED_STEPS

SPEED_LIMITS: Final = SPEED_STEPS
"""Turns (generations) per second the `+`/`-` keys choose from; ``None`` is unlimited."""

STEPPED_INTERVAL: Final = 1 / 40
"""Seconds between :class:`EngineRunner.Stepped` messages while running: faster than any
repaint, far below the engine's rate, so the event loop is not flooded."""

DASHBOARD_HISTORY: Final = 50_000
"""Generations of statistics a run of the dashboard keeps in memory (72 bytes each: 3.6 MB);
a recorded run's every generation is in the store, an unrecorded run's export holds these."""
RELEASE_DELAY: Final = 0.5
"""Seconds after a run is replaced before its memory is given back (a few frames)."""
_RUN_IDS: Final = itertools.count(1)
"""Run ids unique across every runner of the app: messages bubble up to the app, and the app
must never take another screen's run for its own."""


class EngineRunner(Widget):
    """Owns the current runs and steps them in turn in a thread worker.

    Control methods (:meth:`start`, :meth:`resume`, :meth:`pause`, :meth:`step_once`) may be
    called from the event loop at any time; they only flip flags the worker reads.
    """

    DEFAULT_CSS = """
    EngineRunner {
        display: none;
    }
    """

    @dataclass
    class Stepped(Message):
        """Newer snapshots after a step (high rate: a newer one replaces a queued one)."""

        run_id: int
        snapshots: tuple[Snapshot, ...]

        @property
        def snapshot(self) -> Snapshot:
            """The first (for one run: the only) run's snapshot."""
            return self.snapshots[0]

        def can_replace(self, message: Message) -> bool:
            """A queued message of the same run is stale once this one exists."""
            return isinstance(message, EngineRunner.Stepped) and message.run_id == self.run_id

    @dataclass
    class Finished(Message):
        """Every run's stop rule fired; the snapshots say which."""

        run_id: int
        snapshots: tuple[Snapshot, ...]

        @property
        def snapshot(self) -> Snapshot:
            """The first (for one run: the only) run's snapshot."""
            return self.snapshots[0]

    @dataclass
    class Failed(Message):
        """An engine raised; the run is over but the app lives on."""

        run_id: int
        error: str

    @dataclass
    class ThreadEnded(Message, bubble=False):
        """A worker's thread ended (its runs finished, failed or were replaced)."""

        run_id: int

    def __init__(
        self, *, speed_limit: float | None = None, history_limit: int | None = None
    ) -> None:
        super().__init__()
        self.history_limit = history_limit
        """Generations of statistics each new run keeps in memory (``None``: all)."""
        self.algorithms: tuple[GeneticAlgorithm, ...] = ()
        """The current runs (empty before the first)."""
        self.run_id = 0
        """Identifies the current runs, so that messages from replaced runs can be told apart."""
        self._speed_limit = speed_limit
        self._gate = RunGate()
        self._worker: Worker[None] | None = None
        self._turn = threading.Lock()
        """Held by the worker while it steps the runs (a turn), and by :meth:`between_turns`."""
        self.after_step: Callable[[GeneticAlgorithm, Snapshot], None] | None = None
        """Called in the engine thread right after each step (the run recorder's hook)."""

    @property
    def algorithm(self) -> GeneticAlgorithm | None:
        """The first (for one run: the only) current run, ``None`` before the first."""
        return self.algorithms[0] if self.algorithms else None

    @property
    def speed_limit(self) -> float | None:
        """Turns per second allowed, or ``None`` for unlimited."""
        return self._speed_limit

    @property
    def running(self) -> bool:
        """Whether the runs are stepping on their own."""
        return self._gate.running

    def start(self, config: Config, *, run: bool) -> GeneticAlgorithm:
        """Replace the current runs with one new run (see :meth:`start_all`)."""
        return self.start_all([config], run=run)[0]

    def start_all(
        self,
        configs: Sequence[Config],
        *,
        run: bool,
        algorithms: Sequence[GeneticAlgorithm] | None = None,
    ) -> tuple[GeneticAlgorithm, ...]:
        """Replace the current runs with new ones, stepped in turn.

        Args:
            configs: One config per run.
            run: Start stepping at once (else wait at generation 0).
            algorithms: Runs already set up (a resumed run) instead of new ones from
                ``configs``.

        Returns:
            The new runs, in the order of ``configs``.

        Raises:
            Exception: Whatever the engine raises while setting a run up.
        """
        replacing = bool(self.algorithms)
        self.stop()
        runs = (
            tuple(GeneticAlgorithm(config, history_limit=self.history_limit) for config in configs)
            if algorithms is None
            else tuple(algorithms)
        )
        run_id = next(_RUN_IDS)
        self.run_id = run_id
        self.algorithms = runs
        self._gate.reset(run=run)
        self._worker = self.run_worker(
            lambda: self._drive(runs, run_id),
            name=f"engine-run-{run_id}",
            group="engine",
            thread=True,
            exit_on_error=False,
        )
        if replacing:
            # Once the screen has let go of the old runs' snapshots and repainted its views
            # (their caches held the old lines); a thread still computing the old runs' last
            # turn releases again when it ends.
            self.set_timer(RELEASE_DELAY, release_memory, name="release-memory")
        return runs

    def on_unmount(self) -> None:
        """The screen is closing: let the thread end, or the interpreter would wait for it."""
        self.stop()

    def stop(self) -> None:
        """Let the current worker finish its turn and end."""
        self._gate.cancel()
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None

    def resume(self) -> None:
        """Step on their own, at the speed limit."""
        self._gate.set_running(True)

    def pause(self) -> None:
        """Stop after the turn being computed."""
        self._gate.set_running(False)

    def step_once(self) -> None:
        """Pause, then compute exactly one more turn: a generation of each run still going."""
        self._gate.request_step()

    @contextmanager
    def between_turns(self) -> Iterator[tuple[GeneticAlgorithm, ...]]:
        """The current runs, held between two turns: a turn being computed ends first, and no
        other starts until the block ends (to change a paused run: another operator)."""
        with self._turn:
            yield self.algorithms

    def set_speed(self, limit: float | None) -> None:
        """Step at most ``limit`` turns per second (``None``: unlimited), from the next turn."""
        with self._gate.condition:
            self._speed_limit = limit
            self._gate.condition.notify_all()

    def _drive(self, algorithms: tuple[GeneticAlgorithm, ...], run_id: int) -> None:
        """The worker: a turn at a time while allowed, at the speed limit, and report."""
        worker = get_current_worker()
        last_post = 0.0
        posted: tuple[int, ...] = ()
        next_due = time.monotonic()

        def snapshots() -> tuple[Snapshot, ...]:
            return tuple(algorithm.snapshot for algorithm in algorithms)

        def generations(pair: tuple[Snapshot, ...]) -> tuple[int, ...]:
            return tuple(snapshot.generation for snapshot in pair)

        try:
            while True:
                with self._gate.condition:
                    while self._gate.idle():
                        latest = snapshots()
                        if generations(latest) != posted and not self._gate.cancelled:
                            # Paused between two throttled reports: show where it stopped.
                            posted = generations(latest)
                            self.post_message(self.Stepped(run_id, latest))
                        # Wake now and then: a worker cancelled by the app's exit must notice.
                        self._gate.condition.wait(0.25)
                        if worker.is_cancelled:
                            return
                    if self._gate.cancelled or worker.is_cancelled:
                        return
                    single = self._gate.take_turn()
                    limit = self._speed_limit
                    if not single and limit is not None:
                        # Slow motion: wait for the next tick, but wake at once on a key.
                        delay = next_due - time.monotonic()
                        if delay > 0:
                            self._gate.condition.wait(delay)
                            continue
                if not any(algorithm.has_next() for algorithm in algorithms):
                    self._gate.halt()
                    self.post_message(self.Finished(run_id, snapshots()))
                    return
                started = time.monotonic()
                with self._turn:
                    for algorithm in algorithms:
                        if algorithm.has_next():
                            snapshot = algorithm.step()
                            if self.after_step is not None:
                                self.after_step(algorithm, snapshot)
                now = time.monotonic()
                limit = self._speed_limit
                # Steady ticks while running; after a pause the clock starts again from now.
                next_due = max(next_due, started) + (1.0 / limit if limit else 0.0)
                latest = snapshots()
                if not any(algorithm.has_next() for algorithm in algorithms):
                    self._gate.halt()
                    self.post_message(self.Finished(run_id, latest))
                    return
                if single or now - last_post >= STEPPED_INTERVAL:
                    last_post, posted = now, generations(latest)
                    self.post_message(self.Stepped(run_id, latest))
        except Exception as error:
            self._gate.halt()
            self.post_message(self.Failed(run_id, f"{type(error).__name__}: {error}"))
        finally:
            self.post_message(self.ThreadEnded(run_id))

    def on_engine_runner_thread_ended(self, message: ThreadEnded) -> None:
        """A replaced run's thread is gone, and by now the screen has let go of its snapshots
        too: give their memory back."""
        if message.run_id != self.run_id:
            release_memory()
