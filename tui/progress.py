"""Running a GA headless to its stop, with a live status line on stderr when it is a terminal."""

from __future__ import annotations

import sys
import time
from typing import Final

from engine import GeneticAlgorithm, Snapshot

PROGRESS_INTERVAL: Final = 0.1
"""Seconds between two progress lines on stderr."""


class Progress:
    """A one-line live status on stderr (Rich), shown only when stderr is a terminal."""

    def __init__(self) -> None:
        from rich.console import Console

        self._console = Console(stderr=True)
        self._status = self._console.status("starting")
        self._last = 0.0

    def __enter__(self) -> Progress:
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


def run_to_stop(algorithm: GeneticAlgorithm) -> Snapshot:
    """Step to a stop rule, with live progress on stderr when it is a terminal."""
    if sys.stderr.isatty():
        with Progress() as progress:
            while algorithm.has_next():
                progress.update(algorithm.step())
    return algorithm.run()
