"""A recorded run's generations as an ancestry reads them: :class:`RecordedSource`.

A generation's family (its individuals' parents and flags) comes from the run's record when
it was kept there; otherwise it is recomputed by re-stepping the run from the nearest keyframe
(:class:`~tui.lab.timeline.Timeline`), a stretch between two keyframes at a time. The snapshots
an ancestry reads are re-stepped the same way, each with its lineage.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from engine import Snapshot
from tui.lab.lineage import ArrayFamily, Family
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

    def families(self, top: int) -> Iterator[tuple[int, Family]]:
        """The families of generations ``top`` down to 1: the record's, else re-stepped."""
        timeline = self.timeline
        kept = timeline.store.lineage_families(timeline.run_id, top)
        upcoming = next(kept, None)
        for generation in range(top, 0, -1):
            while upcoming is not None and upcoming[0] > generation:
                upcoming = next(kept, None)
            if upcoming is not None and upcoming[0] == generation:
                self.kept += 1
                yield generation, upcoming[1]
            else:
                self.recomputed += 1
                yield generation, self._restepped_family(generation)

    def snapshots(self, generations: Sequence[int]) -> Mapping[int, Snapshot]:
        """The snapshots of those generations (increasing: re-stepped forward), with lineage."""
        return {g: snapshot_with_lineage(self.timeline, g) for g in sorted(generations)}

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
