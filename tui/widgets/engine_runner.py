"""Drive a :class:`~engine.GeneticAlgorithm` from a thread, off the event loop.

The runner is an invisible widget: it owns the run and its thread worker and tells the app what
happened through messages. The worker only ever calls ``algorithm.step()``, so however the run
is paced (flat out, slow motion, one step at a time) the same config and seed give the same run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, get_current_worker

from engine import Config, GeneticAlgorithm, Snapshot
from tui.run_gate import RunGate

SPEED_LIMITS: Final[tuple[float | None, ...]] = (1.0, 5.0, 20.0, 100.0, None)
"""Generations per second the `+`/`-` keys choose from; ``None`` is unlimited."""

PROGRESS_INTERVAL: Final = 1 / 40
"""Seconds between progress messages while running: faster than any repaint, far below the
engine's rate, so the event loop is not flooded."""


class EngineRunner(Widget):
    """Owns the current run and steps it in a thread worker.

    Control methods (:meth:`start`, :meth:`resume`, :meth:`pause`, :meth:`step_once`) may be
    called from the event loop at any time; they only flip flags the worker reads.
    """

    DEFAULT_CSS = """
    EngineRunner {
        display: none;
    }
    """

    @dataclass
    class Progress(Message):
        """A newer snapshot is available (high rate: a newer one replaces a queued one)."""

        run_id: int
        snapshot: Snapshot

        def can_replace(self, message: Message) -> bool:
            """A queued progress message of the same run is stale once this one exists."""
            return isinstance(message, EngineRunner.Progress) and message.run_id == self.run_id

    @dataclass
    class Finished(Message):
        """A stop rule fired; the snapshot says which."""

        run_id: int
        snapshot: Snapshot

    @dataclass
    class Failed(Message):
        """The engine raised; the run is over but the app lives on."""

        run_id: int
        error: str

    def __init__(self, *, speed_index: int = len(SPEED_LIMITS) - 1) -> None:
        super().__init__()
        self.algorithm: GeneticAlgorithm | None = None
        """The current run (``None`` before the first)."""
        self.run_id = 0
        """Counts runs, so that messages from a replaced run can be told apart."""
        self.speed_index = speed_index
        """Index into :data:`SPEED_LIMITS`."""
        self._gate = RunGate()
        self._worker: Worker[None] | None = None

    @property
    def speed_limit(self) -> float | None:
        """Generations per second allowed, or ``None`` for unlimited."""
        return SPEED_LIMITS[self.speed_index]

    @property
    def running(self) -> bool:
        """Whether the run is stepping on its own."""
        return self._gate.running

    def start(self, config: Config, *, run: bool) -> GeneticAlgorithm:
        """Replace the current run with a new one.

        Args:
            config: The new run's configuration.
            run: Start stepping at once (else wait at generation 0).

        Returns:
            The new run.

        Raises:
            Exception: Whatever the engine raises while setting the run up.
        """
        self.stop()
        algorithm = GeneticAlgorithm(config)
        self.run_id += 1
        self.algorithm = algorithm
        self._gate.reset(run=run)
        self._worker = self.run_worker(
            lambda: self._drive(algorithm, self.run_id),
            name=f"engine-run-{self.run_id}",
            group="engine",
            thread=True,
            exit_on_error=False,
        )
        return algorithm

    def on_unmount(self) -> None:
        """The app is closing: let the thread end, or the interpreter would wait for it."""
        self.stop()

    def stop(self) -> None:
        """Let the current worker finish its generation and end."""
        self._gate.cancel()
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None

    def resume(self) -> None:
        """Step on its own, at the speed limit."""
        self._gate.set_running(True)

    def pause(self) -> None:
        """Stop after the generation being computed."""
        self._gate.set_running(False)

    def step_once(self) -> None:
        """Pause, then compute exactly one more generation."""
        self._gate.request_step()

    def set_speed(self, index: int) -> None:
        """Choose a speed limit from :data:`SPEED_LIMITS` (clamped)."""
        with self._gate.condition:
            self.speed_index = max(0, min(len(SPEED_LIMITS) - 1, index))
            self._gate.condition.notify_all()

    def _drive(self, algorithm: GeneticAlgorithm, run_id: int) -> None:
        """The worker: step while allowed, at the speed limit, and report."""
        worker = get_current_worker()
        last_post = 0.0
        posted = -1
        next_due = time.monotonic()
        try:
            while True:
                with self._gate.condition:
                    while self._gate.idle():
                        latest = algorithm.snapshot
                        if latest.generation != posted and not self._gate.cancelled:
                            # Paused between two throttled reports: show where it stopped.
                            posted = latest.generation
                            self.post_message(self.Progress(run_id, latest))
                        # Wake now and then: a worker cancelled by the app's exit must notice.
                        self._gate.condition.wait(0.25)
                        if worker.is_cancelled:
                            return
                    if self._gate.cancelled or worker.is_cancelled:
                        return
                    single = self._gate.take_turn()
                    limit = SPEED_LIMITS[self.speed_index]
                    if not single and limit is not None:
                        # Slow motion: wait for the next tick, but wake at once on a key.
                        delay = next_due - time.monotonic()
                        if delay > 0:
                            self._gate.condition.wait(delay)
                            continue
                if not algorithm.has_next():
                    self._gate.halt()
                    self.post_message(self.Finished(run_id, algorithm.snapshot))
                    return
                started = time.monotonic()
                snapshot = algorithm.step()
                now = time.monotonic()
                limit = SPEED_LIMITS[self.speed_index]
                # Steady ticks while running; after a pause the clock starts again from now.
                next_due = max(next_due, started) + (1.0 / limit if limit else 0.0)
                if snapshot.finished:
                    self._gate.halt()
                    self.post_message(self.Finished(run_id, snapshot))
                    return
                if single or now - last_post >= PROGRESS_INTERVAL:
                    last_post, posted = now, snapshot.generation
                    self.post_message(self.Progress(run_id, snapshot))
        except Exception as error:
            self._gate.halt()
            self.post_message(self.Failed(run_id, f"{type(error).__name__}: {error}"))
