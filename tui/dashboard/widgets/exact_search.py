"""List or count every solution of N exactly, in a thread worker, off the event loop.

An invisible widget, as :class:`~tui.dashboard.widgets.EngineRunner` is for the GA: it owns
one search at a time and tells its screen how it goes through messages, posted from the
thread with ``post_message``. The engine searches a batch of prefixes at a time
(:func:`~engine.solutions.exact.listing_steps`, :func:`~engine.solutions.exact.count_steps`);
between two batches the worker looks whether it was stopped, so :meth:`ExactSearch.stop` takes
effect within a batch (under a second up to N = 17, a few seconds at N = 18).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Final

from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from engine.solutions.exact import (
    ListingBatch,
    count_steps,
    listing_steps,
    solution_list,
)
from engine.solutions.symmetry import fundamental_count
from tui.dashboard.pictures.solution_sets import ExactSolutionSet

_SEARCH_IDS: Final = itertools.count(1)
"""Search ids, so that messages from a replaced search are told apart."""


class ExactSearch(Widget):
    """Runs one exact listing or count at a time in a thread worker."""

    DEFAULT_CSS = """
    ExactSearch {
        display: none;
    }
    """

    @dataclass
    class Progress(Message):
        """Prefixes searched so far (a newer one replaces a queued one).

        Attributes:
            search_id: The search it comes from.
            n: The board size.
            searched: Prefixes searched.
            prefixes: Prefixes in all.
            solutions: Solutions found so far, mirror images included.
            elapsed: Seconds since the search began.
        """

        search_id: int
        n: int
        searched: int
        prefixes: int
        solutions: int
        elapsed: float

        def can_replace(self, message: Message) -> bool:
            """A queued progress of the same search is stale once this one exists."""
            return isinstance(message, ExactSearch.Progress) and message.search_id == self.search_id

    @dataclass
    class Listed(Message):
        """The listing ended: every solution, or those found before it was stopped.

        Attributes:
            search_id: The search it comes from.
            solutions: The solutions (``solutions.listing.complete`` says whether all).
            searched: Prefixes searched.
            prefixes: Prefixes in all (``None`` if stopped before it knew).
            elapsed: Seconds the listing took.
        """

        search_id: int
        solutions: ExactSolutionSet
        searched: int
        prefixes: int | None
        elapsed: float

    @dataclass
    class Counted(Message):
        """The count ended: the total, or the solutions counted before it was stopped.

        Attributes:
            search_id: The search it comes from.
            n: The board size.
            total: Solutions counted, mirror images included.
            fundamental: Fundamental solutions, or ``None`` when the count was stopped.
            searched: Prefixes searched.
            prefixes: Prefixes in all.
            elapsed: Seconds the count took.
        """

        search_id: int
        n: int
        total: int
        fundamental: int | None
        searched: int
        prefixes: int
        elapsed: float

        @property
        def complete(self) -> bool:
            """Whether every solution was counted."""
            return self.fundamental is not None

    @dataclass
    class Failed(Message):
        """The search raised; the app lives on."""

        search_id: int
        error: str

    def __init__(self) -> None:
        super().__init__()
        self.search_id = 0
        """The current search (0 before the first)."""
        self._worker: Worker[None] | None = None

    @property
    def running(self) -> bool:
        """Whether a search is under way (and not yet told to stop)."""
        worker = self._worker
        return (
            worker is not None
            and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            and not worker.is_cancelled
        )

    @property
    def worker(self) -> Worker[None] | None:
        """The thread worker of the current search."""
        return self._worker

    def list_solutions(self, n: int) -> int:
        """Start listing every solution of ``n`` (up to the engine's listing limit).

        Returns:
            The search's id, which its messages carry.
        """
        return self._start(n, listing=True)

    def count_solutions(self, n: int) -> int:
        """Start counting the solutions of ``n`` (up to the engine's counting limit).

        Returns:
            The search's id, which its messages carry.
        """
        return self._start(n, listing=False)

    def stop(self) -> None:
        """Stop the search after the batch it is on; what was found so far is reported."""
        if self._worker is not None:
            self._worker.cancel()

    def _start(self, n: int, *, listing: bool) -> int:
        self.stop()
        self.search_id = next(_SEARCH_IDS)
        search_id = self.search_id
        work = self._list if listing else self._count
        self._worker = self.run_worker(
            lambda: work(n, search_id),
            name=f"exact-search-{n}",
            group="exact-search",
            thread=True,
            exit_on_error=False,
        )
        return search_id

    # In the worker's thread ---------------------------------------------------------------

    def _list(self, n: int, search_id: int) -> None:
        worker = get_current_worker()
        started = time.perf_counter()
        batches: list[ListingBatch] = []
        found = 0
        try:
            for batch in listing_steps(n):
                batches.append(batch)
                found += 2 * batch.boards.shape[0] if n >= 4 else batch.boards.shape[0]
                elapsed = time.perf_counter() - started
                self.post_message(
                    self.Progress(search_id, n, batch.searched, batch.prefixes, found, elapsed)
                )
                if worker.is_cancelled:
                    break
            last = batches[-1] if batches else None
            complete = last is not None and last.searched == last.prefixes
            listing = solution_list(n, batches, complete=complete)
            batches.clear()  # their boards are in the listing now
            solutions = ExactSolutionSet(listing)
            searched, prefixes = (last.searched, last.prefixes) if last else (0, None)
            elapsed = time.perf_counter() - started
            self.post_message(self.Listed(search_id, solutions, searched, prefixes, elapsed))
        except Exception as error:  # a failed search must not take the dashboard with it
            self.post_message(self.Failed(search_id, f"{type(error).__name__}: {error}"))

    def _count(self, n: int, search_id: int) -> None:
        worker = get_current_worker()
        started = time.perf_counter()
        try:
            last = None
            for last in count_steps(n):
                elapsed = time.perf_counter() - started
                self.post_message(
                    self.Progress(
                        search_id, n, last.searched, last.prefixes, last.solutions, elapsed
                    )
                )
                if worker.is_cancelled:
                    break
            assert last is not None  # count_steps yields before its first batch
            fundamental = fundamental_count(n, last.solutions) if last.complete else None
            elapsed = time.perf_counter() - started
            self.post_message(
                self.Counted(
                    search_id, n, last.solutions, fundamental, last.searched, last.prefixes, elapsed
                )
            )
        except Exception as error:  # a failed search must not take the dashboard with it
            self.post_message(self.Failed(search_id, f"{type(error).__name__}: {error}"))
