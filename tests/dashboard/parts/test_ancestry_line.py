"""An ancestry line from the lineage kept in memory: the ring of the newest generations, the line
it gives, and what the best-from-best question says without an answer."""

from __future__ import annotations

from engine import GeneticAlgorithm, Snapshot
from tests.dashboard.crossing import CROSSING, generations
from tui.dashboard.runs.ancestry import ring_line
from tui.dashboard.runs.lineage_ring import LineageRing, snapshot_bytes
from tui.lab.lineage import SnapshotSource, trace


def test_the_ring_keeps_the_newest_generations_and_the_line_stops_where_it_does() -> None:
    algorithm = GeneticAlgorithm(CROSSING)
    ring = LineageRing(generations=6)
    kept: list[Snapshot] = [algorithm.snapshot]
    for _ in range(20):
        kept.append(algorithm.step())
        ring.observe(algorithm, kept[-1])
    assert ring.span == (15, 20) and len(ring) == 6
    line = ring_line(ring, kept[20], 3)
    assert not line.complete and line.oldest == 15
    whole = trace(SnapshotSource(kept), 20, 3).ancestors
    assert line.ancestors == whole[: len(line.ancestors)]
    # Within a budget of bytes: never fewer than two generations.
    small = LineageRing(budget=3 * snapshot_bytes(kept[1]))
    for snapshot in kept[1:]:
        small.observe(algorithm, snapshot)
    assert small.span == (18, 20) and small.kept_bytes <= small.budget
    # Another run starts the ring again.
    other = GeneticAlgorithm(CROSSING)
    ring.observe(other, other.step())
    assert ring.span == (1, 1)


def test_a_whole_line_in_memory_is_the_labs() -> None:
    kept = generations(CROSSING, 15)
    ring = LineageRing()
    algorithm = GeneticAlgorithm(CROSSING)
    for snapshot in kept[1:]:
        ring.observe(algorithm, snapshot)
    for index in (0, 7, 21):
        line = ring_line(ring, kept[15], index)
        lab = trace(SnapshotSource(kept), 15, index)
        assert line.complete and line.ancestors == lab.ancestors and line.descent == lab.descent


def test_the_best_from_best_question_says_why_it_has_no_answer_yet() -> None:
    from tui.dashboard.screens.ancestry import descent_text
    from tui.lab.lineage import BestDescent

    nothing = BestDescent(0, 0, 0)
    assert descent_text(nothing, 0).endswith("not known (gen 0 has no generation before it)")
    assert descent_text(nothing, 7).endswith("not known (only gen 7 is read here, none before it)")
    assert descent_text(BestDescent(4, 2, 1), 4).startswith(
        "the best of gen X+1 has the best of gen X as a parent in 2 of 4 generations (1-4): 50.0%"
    )
