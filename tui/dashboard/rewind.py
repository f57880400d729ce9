"""Any generation of the recorded run, fast when it is near one already reached.

No Textual here; called from the time-travel thread only. Re-stepping dominates a jump in a
large run (at P = 200,000, N = 28 a generation takes 0.3 to 0.5 s, and the store keeps few
keyframes of a run that large: each is tens of megabytes), so the generations passed on the way
are kept in memory as copies of the run, within :data:`CHECKPOINT_BUDGET`: the ones ten
generations apart back from the target (where ``{`` goes next), on the decades (where ``}``
and ``g`` go), and the one just before the target (where ``[`` goes). The copies farthest from
the generation shown go first when the budget is reached.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from engine import GeneticAlgorithm, Snapshot
from tui.lab.timeline import Timeline

CHECKPOINT_BUDGET: Final = 512 * 2**20
"""Bytes of run copies kept in memory (a copy at P = 200,000, N = 28 takes about 100 MB)."""
CHECKPOINT_EVERY: Final = 10
"""Copies are kept every this many generations (the ``{`` and ``}`` stride)."""


class Abandoned(Exception):
    """A newer request replaced the one being computed."""


def footprint(algorithm: GeneticAlgorithm) -> int:
    """The bytes of the numpy arrays a run holds (what a copy of it costs, nearly)."""
    seen: set[int] = set()
    total = 0
    stack: list[Any] = [algorithm]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            total += item.nbytes
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif hasattr(item, "__dict__") and not isinstance(item, type):
            stack.extend(vars(item).values())
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, slot, None) for slot in item.__slots__)
    return total


class Rewinder:
    """Reaches generations of one recorded run, keeping copies of the run on the way.

    Args:
        timeline: The run's timeline (checks every re-stepped generation against the record).
        budget: Bytes of copies kept.
    """

    def __init__(self, timeline: Timeline, *, budget: int = CHECKPOINT_BUDGET) -> None:
        self.timeline = timeline
        self.budget = budget
        self.checkpoints: dict[int, tuple[GeneticAlgorithm, int]] = {}
        """Copies of the run by generation, with their size in bytes."""

    def snapshot_at(self, generation: int, abandon: Callable[[], bool] = lambda: False) -> Snapshot:
        """Generation ``generation``, exactly.

        Args:
            generation: The generation wanted.
            abandon: Asked after each generation re-stepped: ``True`` stops the walk (the
                run reached so far is kept as a start for the next request).

        Raises:
            Abandoned: ``abandon()`` said so.
            StoreError: No such generation, a damaged record, or a re-step that differs.
        """
        start = self._start_for(generation)

        def stepped(algorithm: GeneticAlgorithm) -> None:
            at = algorithm.snapshot.generation
            if self._worth_keeping(at, generation):
                self._keep(at, algorithm, generation)
            if abandon():
                raise Abandoned

        snapshot = self.timeline.snapshot_at(generation, start=start, after_step=stepped)
        return snapshot

    def _start_for(self, generation: int) -> GeneticAlgorithm | None:
        """A copy of the nearest kept run at or before ``generation``, if it is nearer than
        the one the timeline holds (``None``: let the timeline choose)."""
        kept = [at for at in self.checkpoints if at <= generation]
        if not kept:
            return None
        at = max(kept)
        cached = self.timeline.cached_generation
        if cached is not None and at <= cached <= generation:
            return None
        # A copy: the timeline steps what it is given, and the kept one must stay where it is.
        return copy.deepcopy(self.checkpoints[at][0])

    @staticmethod
    def _worth_keeping(at: int, target: int) -> bool:
        """Decades, the generations ten by ten back from the target, and the one before it."""
        return (
            at % CHECKPOINT_EVERY == 0 or (target - at) % CHECKPOINT_EVERY == 0 or at == target - 1
        )

    def _keep(self, at: int, algorithm: GeneticAlgorithm, target: int) -> None:
        """Keep a copy of the run at ``at``; drop the copies farthest from ``target`` when
        over the budget (a run larger than the whole budget is not copied)."""
        if at in self.checkpoints:
            return
        size = footprint(algorithm)
        if size > self.budget:
            return
        self.checkpoints[at] = (copy.deepcopy(algorithm), size)
        while self.used() > self.budget and len(self.checkpoints) > 1:
            farthest = max(self.checkpoints, key=lambda g: (abs(g - target), -g))
            del self.checkpoints[farthest]

    def used(self) -> int:
        """Bytes of copies kept."""
        return sum(size for _, size in self.checkpoints.values())
