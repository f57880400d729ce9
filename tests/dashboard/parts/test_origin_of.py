"""Where a child's queens came from: the parent each was kept from, or moved by a mutation."""

from __future__ import annotations

import numpy as np

from engine import Config
from engine.lineage.lineage import CROSSED
from tests.dashboard.crossing import CHILD, CROSSING, generations
from tui.dashboard.pictures.origin import FROM_BOTH, FROM_FIRST, FROM_SECOND, MOVED, origin_of


def test_a_child_of_one_individual_crossed_with_itself_has_one_main_parent() -> None:
    config = Config(n=28, population=60, seed=4, crossover="pmx", mutation="swap")
    snapshot = generations(config, 4)[4]
    lineage = snapshot.lineage
    assert lineage is not None
    selfed = [
        i
        for i in range(60)
        if lineage.kinds[i] == CROSSED and lineage.parents[i, 0] == lineage.parents[i, 1]
    ]
    assert selfed
    origin = origin_of(snapshot, selfed[0])
    assert origin is not None and [p.main for p in origin.parents] == [True, False]


def test_the_queens_of_a_crossed_child_are_coloured_by_the_parent_they_came_from() -> None:
    snapshot = generations(CROSSING, 5)[5]
    lineage = snapshot.lineage
    assert lineage is not None and lineage.kinds[CHILD] == CROSSED
    origin = origin_of(snapshot, CHILD)
    assert origin is not None
    first, second = (int(parent) for parent in lineage.parents[CHILD])
    child, before = snapshot.population[CHILD], lineage.unmutated[CHILD]
    queens = origin.queens
    assert np.array_equal(queens == MOVED, lineage.moved[CHILD])
    kept = queens != MOVED
    from_first = (before == lineage.previous[first]) & kept
    from_second = (before == lineage.previous[second]) & kept
    assert np.array_equal(queens == FROM_BOTH, from_first & from_second)
    assert np.array_equal(queens == FROM_FIRST, from_first & ~from_second)
    assert np.array_equal(queens == FROM_SECOND, from_second & ~from_first)
    assert np.array_equal(child[kept], before[kept])
    assert origin.operator == "crossed (pmx), mutated: 2 queens moved"
    assert [(p.index, p.main) for p in origin.parents] == [(10, True), (36, False)]
    assert origin.parents[1].fitness == float(lineage.previous_fitness[36])
    assert origin.parents[1].conflicts == int(lineage.previous_conflicts[36])
    assert {"parent 1", "parent 2", "moved"} <= set(origin.counts())
