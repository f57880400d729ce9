"""Lineage: every child made again from its recorded parents and draws, over operators,
encodings, presets and seeds; the mutation's inputs and outputs seen by spies; survivors
identical to their parent; and a run with lineage the same run as without, generation by
generation."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine.algorithm as algorithm_module
import engine.large_n.memetic_children as memetic_children
from engine import Config, ConfigError, GeneticAlgorithm, Snapshot
from engine.config.presets import PRESETS
from engine.lineage.lineage import (
    BEST,
    COPY,
    CROSSED,
    FROM_BEST,
    KIND,
    MOSTLY_SECOND,
    MUTATED,
    NEW,
    SURVIVOR,
    Lineage,
)
from engine.operators.crossover import CROSSOVER_PARTS, FREE_CROSSOVERS, PERMUTATION_CROSSOVERS
from engine.operators.mutation import (
    COUNTED_MUTATIONS,
    FREE_MUTATIONS,
    MUTATIONS,
    PERMUTATION_MUTATIONS,
)

# --- Spies on what the mutation and the local search saw and made. ---


class MutationStages:
    """The children entering the first mutation stage and leaving the last, step by step."""

    def __init__(self) -> None:
        self.entered: np.ndarray | None = None
        self.left: np.ndarray | None = None

    def clear(self) -> None:
        self.entered = self.left = None

    def stage(self, before: np.ndarray, after: np.ndarray) -> None:
        if self.entered is None:
            self.entered = before
        self.left = after.copy()


@contextlib.contextmanager
def watching_mutation() -> Iterator[MutationStages]:
    stages = MutationStages()

    def plain(operator: Any) -> Any:
        def spy(genomes: np.ndarray, rng: Any, settings_: Any) -> np.ndarray:
            before = genomes.copy()
            after = operator(genomes, rng, settings_)
            stages.stage(before, after)
            return after

        return spy

    def counted(operator: Any) -> Any:
        def spy(genomes: np.ndarray, rng: Any, settings_: Any, **kwargs: Any) -> Any:
            before = genomes.copy()  # the operator may move the genes in place
            after, lines = operator(genomes, rng, settings_, **kwargs)
            stages.stage(before, after)
            return after, lines

        return spy

    improve = algorithm_module.improve_children

    def improve_spy(children: np.ndarray, rng: Any, settings_: Any, lines: Any = None) -> Any:
        before = children.copy()
        after, counts = improve(children, rng, settings_, lines)
        stages.stage(before, after)
        return after, counts

    # Memetic runs mutate and search their children in one compiled pass.
    compiled = memetic_children.improve_children_compiled

    def compiled_spy(children: np.ndarray, rng: Any, mutation: Any, search: Any) -> Any:
        before = children.copy()  # changed in place
        conflicts = compiled(children, rng, mutation, search)
        stages.stage(before, children)
        return conflicts

    with contextlib.ExitStack() as stack:
        stack.enter_context(_attribute(memetic_children, "improve_children_compiled", compiled_spy))
        for name, operator in list(MUTATIONS.items()):
            stack.enter_context(_item(MUTATIONS, name, plain(operator)))
        for name, operator in list(COUNTED_MUTATIONS.items()):
            stack.enter_context(_item(COUNTED_MUTATIONS, name, counted(operator)))
        stack.enter_context(_attribute(algorithm_module, "improve_children", improve_spy))
        yield stages


@contextlib.contextmanager
def _item(mapping: dict[str, Any], key: str, value: Any) -> Iterator[None]:
    old = mapping[key]
    mapping[key] = value
    try:
        yield
    finally:
        mapping[key] = old


@contextlib.contextmanager
def _attribute(owner: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


# --- The checks every generation must pass. ---


def _segment_from(child: np.ndarray, parent: np.ndarray, low: int, high: int) -> bool:
    return bool(np.array_equal(child[low:high], parent[low:high]))


def check_generation(previous: Snapshot, current: Snapshot, stages: MutationStages) -> None:
    """Everything the lineage of ``current`` says, checked against the run itself."""
    lineage = current.lineage
    assert isinstance(lineage, Lineage)
    assert lineage.generation == current.generation
    parents, flags, population = lineage.parents, lineage.flags, current.population
    before = previous.population
    for array in (parents, flags, lineage.unmutated, lineage.moved, *lineage.draws):
        assert not array.flags.writeable
    assert parents.shape == (population.shape[0], 2)
    assert ((parents >= -1) & (parents < before.shape[0])).all()
    assert np.array_equal(lineage.first_parents, parents[:, 0])
    assert np.array_equal(lineage.second_parents, parents[:, 1])
    kinds = flags & KIND
    first, second = parents[:, 0], parents[:, 1]
    assert ((kinds == NEW) == (first < 0)).all()
    assert ((kinds == CROSSED) == (second >= 0)).all()

    # A survivor is its parent, unchanged; a new one and a survivor were never mutated.
    survivors = np.flatnonzero(kinds == SURVIVOR)
    assert np.array_equal(before[first[survivors]], population[survivors])
    kept = np.flatnonzero((kinds == SURVIVOR) | (kinds == NEW))
    assert not (flags[kept] & MUTATED).any()
    assert not lineage.moved[kept].any()

    # A copy is its parent before the mutation; a crossed child is made again from its two
    # parents and its draws, and its segment comes from where its operator says.
    copies = np.flatnonzero(kinds == COPY)
    assert np.array_equal(lineage.unmutated[copies], before[first[copies]])
    crossed = np.flatnonzero(kinds == CROSSED)
    name = lineage.operators.crossover
    draws = lineage.draws
    if crossed.shape[0]:
        made, _ = CROSSOVER_PARTS[name].make(
            before[first[crossed]], before[second[crossed]], draws.take(crossed)
        )
        assert np.array_equal(made, lineage.unmutated[crossed])
    for index in crossed:
        child, one, two = lineage.unmutated[index], before[first[index]], before[second[index]]
        low, high = int(draws.low[index]), int(draws.high[index])
        if name in ("ox", "pmx"):
            assert 0 <= low < high <= current.n and _segment_from(child, one, low, high)
        elif name in ("cut-crossfill", "single-point"):
            assert low == 0 and _segment_from(child, one, 0, high)
        elif name == "one-gene":
            expected = one.copy()
            expected[low] = two[low]
            assert np.array_equal(child, expected)
        elif name == "cycle":
            assert ((child == one) | (child == two)).all()
        child_now = population[index]
        given_first, given_second = (child_now == one).sum(), (child_now == two).sum()
        assert bool(flags[index] & MOSTLY_SECOND) == (given_second > given_first)
        expected_main = second[index] if given_second > given_first else first[index]
        assert lineage.main_parent(int(index)) == expected_main
    not_crossed = np.flatnonzero(kinds != CROSSED)
    assert (draws.low[not_crossed] == -1).all() and not draws.coins[not_crossed].any()

    # What the mutation moved is where the child differs from itself before the mutation,
    # and the spies saw exactly that child go in and come out.
    assert np.array_equal(lineage.moved, lineage.unmutated != population)
    assert np.array_equal(flags & MUTATED != 0, lineage.moved.any(axis=1))
    assert np.array_equal(lineage.origin_flags, flags & ~np.uint8(MUTATED))
    assert np.array_equal(lineage.kind_flags, flags & np.uint8(KIND | MOSTLY_SECOND))
    children = np.flatnonzero((kinds == COPY) | (kinds == CROSSED))
    if stages.entered is None:
        assert not lineage.moved.any()
    elif children.shape[0]:
        assert stages.left is not None
        pairs = {
            (a.tobytes(), b.tobytes()) for a, b in zip(stages.entered, stages.left, strict=True)
        }
        for index in children:
            assert (lineage.unmutated[index].tobytes(), population[index].tobytes()) in pairs

    in_place = (kinds == SURVIVOR) & (first == np.arange(population.shape[0]))
    assert lineage.all_in_place == bool(in_place.all())

    # The best, and who comes from the best of the generation before.
    assert np.flatnonzero(flags & BEST).tolist() == [current.best_index] == [lineage.best_index]
    from_best = (parents == previous.best_index).any(axis=1)
    assert np.array_equal(flags & FROM_BEST != 0, from_best)


def run_checked(config: Config, generations: int) -> None:
    with watching_mutation() as stages:
        algorithm = GeneticAlgorithm(config)
        first = algorithm.snapshot
        assert first.lineage is not None
        assert (first.lineage.flags & KIND == NEW).all() and (first.lineage.parents == -1).all()
        previous = first
        while algorithm.has_next() and previous.generation < generations:
            stages.clear()
            current = algorithm.step()
            check_generation(previous, current, stages)
            previous = current


# --- Over operators, encodings and seeds; over the presets. ---


@st.composite
def configs(draw: st.DrawFn) -> Config:
    encoding = draw(st.sampled_from(["permutation", "integer", "squares"]))
    permutation = encoding == "permutation"
    crossovers = PERMUTATION_CROSSOVERS if permutation else FREE_CROSSOVERS
    mutations = [*PERMUTATION_MUTATIONS, "conflict", *(() if permutation else FREE_MUTATIONS)]
    survivor = draw(st.sampled_from(["plus", "generational", "steady-state", "threshold"]))
    population = draw(st.integers(2, 16))
    values: dict[str, Any] = dict(
        n=draw(st.sampled_from([1, 4, 5, 6, 8])),
        population=population,
        encoding=encoding,
        selection=draw(st.sampled_from(["tournament", "roulette", "rank", "uniform"])),
        crossover=draw(st.sampled_from(sorted(crossovers))),
        crossover_rate=draw(st.sampled_from([0.0, 0.3, 1.0])),
        mutation=draw(st.sampled_from(sorted(mutations))),
        mutation_rate=draw(st.sampled_from([0.0, 0.5, 1.0])),
        survivor=survivor,
        children_per_couple=draw(st.sampled_from([1, 2])),
        clone_uncrossed=draw(st.booleans()),
        unique=draw(st.booleans()) and survivor in ("plus", "steady-state"),
        fallback=draw(st.booleans()),
        stop_when_solved=False,
        harvest=draw(st.booleans()),
        seed=draw(st.integers(0, 2**32 - 1)),
    )
    if survivor == "generational":
        values["elitism"] = draw(st.integers(0, population - 1))
    if permutation and draw(st.booleans()):
        values["local_search"] = draw(st.integers(1, 8))
        values["greedy_start"] = draw(st.booleans())
    try:
        return Config(**values)
    except ConfigError:
        assume(False)
        raise


@settings(max_examples=60, deadline=None)
@given(config=configs())
def test_every_child_is_made_again_from_its_lineage(config: Config) -> None:
    run_checked(config, generations=6)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("seed", [0, 1])
def test_every_preset_keeps_its_lineage(name: str, seed: int) -> None:
    preset = PRESETS[name]
    n = preset.native_n if name != "memetic" else 200
    values = {**preset.values(n), "seed": seed, "stop_when_solved": False}
    if name == "sheppard":
        values["n"] = 5
        values["population"] = values["offspring"] = 3 * 5 * 5
    run_checked(Config.from_mapping(values), generations=8)


# --- Lineage on and off: the same run. ---


def population_hashes(config: Config, lineage: bool, generations: int) -> list[str]:
    algorithm = GeneticAlgorithm(config, lineage=lineage)
    hashes = []
    snapshot = algorithm.snapshot
    while True:
        digest = hashlib.sha256(snapshot.population.tobytes())
        digest.update(snapshot.fitness.tobytes())
        digest.update(snapshot.conflicts.tobytes())
        digest.update(str(algorithm.rng.bit_generator.state).encode())
        hashes.append(digest.hexdigest())
        if lineage:
            # Reading everything it offers must not change the run either.
            lineage_now = snapshot.lineage
            assert lineage_now is not None
            _ = lineage_now.flags, lineage_now.moved, lineage_now.draws, lineage_now.unmutated
        else:
            assert snapshot.lineage is None
        if snapshot.generation >= generations or not algorithm.has_next():
            return hashes
        snapshot = algorithm.step()


@settings(max_examples=30, deadline=None)
@given(config=configs())
def test_lineage_on_and_off_is_the_same_run(config: Config) -> None:
    assert population_hashes(config, True, 8) == population_hashes(config, False, 8)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_is_the_same_run_with_or_without_lineage(name: str) -> None:
    preset = PRESETS[name]
    n = preset.native_n if name != "memetic" else 300
    config = preset.config(n, seed=7, stop_when_solved=False)
    assert population_hashes(config, True, 12) == population_hashes(config, False, 12)


# --- A few cases by hand. ---


def test_without_crossover_or_mutation_every_child_is_an_unchanged_copy() -> None:
    config = Config(n=8, population=10, crossover_rate=0.0, mutation_rate=0.0, seed=3)
    algorithm = GeneticAlgorithm(config)
    before = algorithm.snapshot
    after = algorithm.step()
    lineage = after.lineage
    assert lineage is not None
    kinds = lineage.kinds
    assert set(kinds.tolist()) <= {SURVIVOR, COPY}
    assert not lineage.mutated.any()
    assert (lineage.parents[:, 1] == -1).all()
    assert np.array_equal(before.population[lineage.parents[:, 0]], after.population)
    assert [lineage.operator(i) for i in range(10)] == [
        "survivor" if kind == SURVIVOR else "copy" for kind in kinds
    ]


def test_the_operator_says_how_a_child_was_made() -> None:
    config = Config(n=8, population=20, crossover_rate=1.0, seed=5, stop_when_solved=False)
    lineage = GeneticAlgorithm(config).step().lineage
    assert lineage is not None
    described = {lineage.operator(i) for i in range(20)}
    assert described <= {"survivor", "ox", "ox + conflict"}
    assert "ox + conflict" in described


def test_harvest_newcomers_have_no_parents() -> None:
    config = Config(n=5, population=30, harvest=True, stop_when_solved=False, seed=2)
    algorithm = GeneticAlgorithm(config)
    newcomers = 0
    for snapshot in algorithm.step_many(20):
        lineage = snapshot.lineage
        assert lineage is not None
        new = lineage.kinds == NEW
        newcomers += int(new.sum())
        assert (lineage.parents[new] == -1).all()
    assert newcomers > 0


def test_a_resumed_run_has_no_lineage_at_its_checkpoint_then_the_same_as_the_original() -> None:
    config = Config(n=10, population=12, crossover_rate=0.5, seed=11, stop_when_solved=False)
    original = GeneticAlgorithm(config)
    original.step_many(3)
    resumed = GeneticAlgorithm.from_state(original.state())
    assert resumed.snapshot.lineage is None
    ahead, again = original.step().lineage, resumed.step().lineage
    assert ahead is not None and again is not None
    assert np.array_equal(ahead.parents, again.parents)
    assert np.array_equal(ahead.flags, again.flags)
    assert np.array_equal(ahead.moved, again.moved)
    for mine, theirs in zip(ahead.draws, again.draws, strict=True):
        assert np.array_equal(mine, theirs)


def test_a_run_resumed_at_generation_0_has_the_first_lineage() -> None:
    config = Config(n=6, population=8, seed=1)
    resumed = GeneticAlgorithm.from_state(GeneticAlgorithm(config).state())
    lineage = resumed.snapshot.lineage
    assert lineage is not None
    assert (lineage.kinds == NEW).all()


def test_a_lineage_holds_the_generation_before_as_it_was_published() -> None:
    algorithm = GeneticAlgorithm(Config(n=24, population=30, seed=4))
    before = algorithm.snapshot
    first = before.lineage
    assert first is not None and first.previous.shape[0] == 0
    for _ in range(5):
        after = algorithm.step()
        lineage = after.lineage
        assert lineage is not None
        assert np.array_equal(lineage.previous, before.population)
        assert np.array_equal(lineage.previous_fitness, before.fitness)
        assert np.array_equal(lineage.previous_conflicts, before.conflicts)
        parents = lineage.parents[lineage.parents >= 0]
        assert (parents < lineage.previous.shape[0]).all()
        before = after
