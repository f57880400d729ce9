"""A recorded run's generations as an ancestry reads them: :class:`RecordedSource`.

A generation's family (its individuals' parents and flags) comes from the run's record when
it was kept there; otherwise it is recomputed by re-stepping the run from the nearest keyframe
(:class:`~tui.lab.timeline.Timeline`), a stretch between two keyframes at a time. The snapshots
an ancestry reads are re-stepped the same way, each with its lineage.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping

from engine import Snapshot
from tui.lab.lineage import ArrayFamily, Piece
from tui.lab.store import StoreError
from tui.lab.timeline import Timeline


def snapshot_with_lineage(timeline: Timeline, generation: int) -> Snapshot:
    """Generation ``generation`` of a recorded run, with its lineage.

    A run restored from a keyframe has no lineage at the keyframe's own generation (the
    generation before is not kept in it): that generation is re-stepped from the one before.

    Raises:
        StoreError: No such generation, or the record cannot be re-stepped.
    """
    snapshot = timeline.snapshot_at(generation)
    if snapshot.lineage is None and generation > 0:
        timeline.algorithm_at(generation - 1)
        snapshot = timeline.snapshot_at(generation)
    if snapshot.lineage is None:
        raise StoreError(f"run {timeline.run_id}: generation {generation} has no lineage")
    return snapshot


class RecordedSource:
    """The generations of a recorded run, for :func:`tui.lab.lineage.ancestry`.

    Args:
        timeline: The run's timeline (its store, its keyframes).
    """

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self._restepped: dict[int, ArrayFamily] = {}
        self.kept = 0
        """Families read from the record so far."""
        self.recomputed = 0
        """Families recomputed by re-stepping so far."""

    def families(self, top: int) -> Iterator[Piece]:
        """Generations ``top`` down to 1: the record's (stretches in place whole), the others
        re-stepped."""
        timeline = self.timeline
        due = top  # the next generation to give
        for piece in timeline.store.lineage_pieces(timeline.run_id, top):
            high, low = (
                (piece[0], piece[0]) if isinstance(piece, tuple) else (piece.high, piece.low)
            )
            for generation in range(due, high, -1):
                self.recomputed += 1
                yield generation, self._restepped_family(generation)
            self.kept += high - low + 1
            yield piece
            due = low - 1
        for generation in range(due, 0, -1):
            self.recomputed += 1
            yield generation, self._restepped_family(generation)

    def snapshots(
        self, generations: Collection[int], lineage: Collection[int]
    ) -> Mapping[int, Snapshot]:
        """The snapshots of those generations, re-stepped in increasing order; those of
        ``lineage`` with their lineage (a keyframe's own generation is then re-stepped from
        the one before)."""
        timeline = self.timeline
        return {
            g: snapshot_with_lineage(timeline, g) if g in lineage else timeline.snapshot_at(g)
            for g in sorted(generations)
        }

    def _restepped_family(self, generation: int) -> ArrayFamily:
        """The family of ``generation``, re-stepping the stretch from the keyframe before it.

        The whole stretch is kept (parents and flags only): a line walks down through it.
        """
        family = self._restepped.get(generation)
        if family is not None:
            return family
        timeline = self.timeline
        keyframes = timeline.store.keyframe_generations(timeline.run_id)
        start = max((g for g in keyframes if g < generation), default=0)
        self._restepped = {}  # a line only walks down: the stretch above is done with
        timeline.algorithm_at(start)
        for at in range(start + 1, generation + 1):
            lineage = timeline.algorithm_at(at).snapshot.lineage
            if lineage is None:  # the keyframe of ``at`` itself was restored
                lineage = snapshot_with_lineage(timeline, at).lineage
            assert lineage is not None
            self._restepped[at] = ArrayFamily(
                lineage.parents, lineage.origin_flags, lineage.best_index
            )
        return self._restepped[generation]
