"""Drive two runs side by side from one thread worker, one generation each per turn.

Both runs step in the same thread, alternately, so neither gets more of the machine than the
other and the race is the same every time for the same configs and seeds. A side whose stop
rule fired sits out; the race ends when both have.
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

PROGRESS_INTERVAL: Final = 1 / 40
"""Seconds between progress messages while racing (see the engine runner's)."""

Pair = tuple[Snapshot, Snapshot]


class RaceRunner(Widget):
    """Owns two runs and steps them in turn in a thread worker.

    Control methods may be called from the event loop at any time; they only flip flags the
    worker reads.
    """

    DEFAULT_CSS = """
    RaceRunner {
        display: none;
    }
    """

    @dataclass
    class Progress(Message):
        """Newer snapshots of both sides (a newer message replaces a queued one)."""

        run_id: int
        snapshots: Pair

        def can_replace(self, message: Message) -> bool:
            """A queued progress message of the same race is stale once this one exists."""
            return isinstance(message, RaceRunner.Progress) and message.run_id == self.run_id

    @dataclass
    class Finished(Message):
        """Both sides have stopped."""

        run_id: int
        snapshots: Pair

    @dataclass
    class Failed(Message):
        """An engine raised; the race is over but the app lives on."""

        run_id: int
        error: str

    def __init__(self) -> None:
        super().__init__()
        self.algorithms: tuple[GeneticAlgorithm, GeneticAlgorithm] | None = None
        """The two runs of the current race (``None`` before the first)."""
        self.run_id = 0
        """Counts races, so that messages from a replaced race can be told apart."""
        self._gate = RunGate()
        self._worker: Worker[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the race is stepping on its own."""
        return self._gate.running

    def start(self, first: Config, second: Config, *, run: bool) -> Pair:
        """Replace the race with a new one.

        Args:
            first: Side A's configuration.
            second: Side B's configuration.
            run: Start stepping at once (else wait at generation 0).

        Returns:
            Both sides' generation-0 snapshots.

        Raises:
            Exception: Whatever the engine raises while setting a run up.
        """
        self.stop()
        algorithms = (GeneticAlgorithm(first), GeneticAlgorithm(second))
        self.run_id += 1
        self.algorithms = algorithms
        self._gate.reset(run=run)
        run_id = self.run_id
        self._worker = self.run_worker(
            lambda: self._drive(algorithms, run_id),
            name=f"race-{run_id}",
            group="race",
            thread=True,
            exit_on_error=False,
        )
        return algorithms[0].snapshot, algorithms[1].snapshot

    def on_unmount(self) -> None:
        """The screen is closing: let the thread end."""
        self.stop()

    def stop(self) -> None:
        """Let the worker finish its turn and end."""
        self._gate.cancel()
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None

    def resume(self) -> None:
        """Step on its own, as fast as the engines go."""
        self._gate.set_running(True)

    def pause(self) -> None:
        """Stop after the turn being computed."""
        self._gate.set_running(False)

    def step_once(self) -> None:
        """Pause, then compute exactly one more turn: a generation of each side still going."""
        self._gate.request_step()

    def _drive(self, algorithms: tuple[GeneticAlgorithm, GeneticAlgorithm], run_id: int) -> None:
        """The worker: a turn at a time while allowed, and report."""
        worker = get_current_worker()
        first, second = algorithms
        last_post = 0.0
        posted = (-1, -1)
        try:
            while True:
                with self._gate.condition:
                    while self._gate.idle():
                        latest = (first.snapshot, second.snapshot)
                        if (latest[0].generation, latest[1].generation) != posted:
                            # Paused between two throttled reports: show where it stopped.
                            posted = (latest[0].generation, latest[1].generation)
                            self.post_message(self.Progress(run_id, latest))
                        self._gate.condition.wait(0.25)
                        if worker.is_cancelled:
                            return
                    if self._gate.cancelled or worker.is_cancelled:
                        return
                    single = self._gate.take_turn()
                for algorithm in algorithms:
                    if algorithm.has_next():
                        algorithm.step()
                pair = (first.snapshot, second.snapshot)
                if not (first.has_next() or second.has_next()):
                    self._gate.halt()
                    self.post_message(self.Finished(run_id, pair))
                    return
                now = time.monotonic()
                if single or now - last_post >= PROGRESS_INTERVAL:
                    last_post = now
                    posted = (pair[0].generation, pair[1].generation)
                    self.post_message(self.Progress(run_id, pair))
        except Exception as error:
            self._gate.halt()
            self.post_message(self.Failed(run_id, f"{type(error).__name__}: {error}"))
