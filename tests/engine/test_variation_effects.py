"""Diversity explained: what selection, crossover and mutation did to each generation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm
from engine.config.presets import PRESETS
from engine.errors import ConfigError
from engine.genomes.fitness import evaluate
from engine.lineage.lineage import COPY, CROSSED
from engine.lineage.variation_effects import VariationEffects, unmutated_children, variation_effects
from engine.operators.crossover import CROSSOVERS, PERMUTATION_CROSSOVERS


def effects_of(algorithm: GeneticAlgorithm) -> VariationEffects:
    snapshot = algorithm.snapshot
    assert snapshot.lineage is not None
    effects = variation_effects(
        snapshot.lineage,
        snapshot.population,
        algorithm.config.n,
        algorithm.encoding,
        algorithm.shape,
    )
    assert effects is not None
    return effects


def test_generation_zero_has_no_effects() -> None:
    algorithm = GeneticAlgorithm(Config(n=8, seed=1))
    lineage = algorithm.snapshot.lineage
    assert lineage is not None
    assert (
        variation_effects(
            lineage, algorithm.snapshot.population, 8, algorithm.encoding, algorithm.shape
        )
        is None
    )


def test_without_mutation_mutation_changes_nothing() -> None:
    algorithm = GeneticAlgorithm(
        Config(n=12, population=60, seed=4, mutation_rate=0.0, stop_when_solved=False)
    )
    for _ in range(5):
        algorithm.step()
        effects = effects_of(algorithm)
        assert effects.mutation.equal == 1.0
        assert effects.mutation.improved == effects.mutation.worse == 0.0


def test_without_crossover_the_children_are_the_parents() -> None:
    algorithm = GeneticAlgorithm(
        Config(n=12, population=60, seed=4, crossover_rate=0.0, stop_when_solved=False)
    )
    for _ in range(5):
        algorithm.step()
        effects = effects_of(algorithm)
        # Two children per couple, each a copy of the parent in its place: the same rows.
        assert effects.crossed == effects.parents
        assert all(math.isnan(share) for share in effects.crossover)
        assert effects.previous == algorithm.history.column("entropy")[-2]
        assert effects.current == algorithm.snapshot.stats.entropy


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_gives_shares_that_add_up_and_children_as_the_lineage_has_them(
    name: str,
) -> None:
    try:
        config = PRESETS[name].config(12, seed=5, stop_when_solved=False, generations=6)
    except ConfigError:
        config = PRESETS[name].config(8, seed=5, stop_when_solved=False, generations=6)
    algorithm = GeneticAlgorithm(config)
    while algorithm.has_next():
        snapshot = algorithm.step()
        effects = effects_of(algorithm)
        for shares in (effects.crossover, effects.mutation):
            if not math.isnan(shares.improved):
                assert sum(shares) == pytest.approx(1.0)
                assert all(0.0 <= share <= 1.0 for share in shares)
        assert all(0.0 <= value <= 1.0 + 1e-12 for value in effects.diversity())
        lineage = snapshot.lineage
        assert lineage is not None
        children = unmutated_children(lineage).genomes
        made = {row.tobytes() for row in children}
        kinds = lineage.kinds
        for index in np.flatnonzero((kinds == COPY) | (kinds == CROSSED)):
            assert lineage.unmutated[index].tobytes() in made


def test_crossover_shares_compare_each_crossed_child_with_its_better_parent() -> None:
    config = Config(n=10, population=30, seed=9, crossover_rate=1.0, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    algorithm.step()
    lineage = algorithm.snapshot.lineage
    assert lineage is not None and lineage.births is not None
    children = unmutated_children(lineage)
    fitness = evaluate(children.genomes, 10, algorithm.encoding, algorithm.shape).fitness
    pairs = lineage.births.pairs.take(children.couples, axis=0)
    better = lineage.previous_fitness.take(pairs).max(axis=1)
    assert children.crossed.shape[0] == children.genomes.shape[0]
    effects = effects_of(algorithm)
    assert effects.crossover.improved == np.mean(fitness > better)
    assert effects.crossover.worse == np.mean(fitness < better)


def test_the_run_is_the_same_bit_for_bit_whether_the_effects_are_read_or_not() -> None:
    config = Config(n=16, population=50, seed=21, stop_when_solved=False, unique=True)
    watched, alone = GeneticAlgorithm(config), GeneticAlgorithm(config)
    for _ in range(15):
        watched.step()
        effects_of(watched)
        alone.step()
    assert np.array_equal(watched.snapshot.population, alone.snapshot.population)
    assert np.array_equal(watched.snapshot.fitness, alone.snapshot.fitness)
    for column in ("best_fitness", "mean_fitness", "entropy"):
        assert np.array_equal(watched.history.column(column), alone.history.column(column))
    assert watched.rng.bit_generator.state == alone.rng.bit_generator.state


@pytest.mark.parametrize("crossover", sorted(CROSSOVERS))
@pytest.mark.parametrize(
    ("children_per_couple", "clone_uncrossed"), [(1, True), (2, True), (2, False)]
)
def test_every_crossover_and_couple_size_rebuilds_the_children_made(
    crossover: str, children_per_couple: int, clone_uncrossed: bool
) -> None:
    encoding = "permutation" if crossover in PERMUTATION_CROSSOVERS else "integer"
    config = Config(
        n=9,
        population=25,
        seed=13,
        encoding=encoding,
        crossover=crossover,
        crossover_rate=0.5,
        children_per_couple=children_per_couple,
        clone_uncrossed=clone_uncrossed,
        mutation="swap" if encoding == "permutation" else "random-reset",
        stop_when_solved=False,
    )
    algorithm = GeneticAlgorithm(config)
    for _ in range(4):
        snapshot = algorithm.step()
        lineage = snapshot.lineage
        assert lineage is not None and lineage.births is not None
        children = unmutated_children(lineage)
        assert children.genomes.shape[0] == config.children_per_generation or not clone_uncrossed
        # A child not crossed is a copy of the parent in its place of the couple.
        copies = np.setdiff1d(np.arange(children.genomes.shape[0]), children.crossed)
        assert np.array_equal(
            children.genomes[copies], lineage.previous.take(children.heads[copies], axis=0)
        )
        made = {row.tobytes() for row in children.genomes}
        kinds = lineage.kinds
        for index in np.flatnonzero((kinds == COPY) | (kinds == CROSSED)):
            assert lineage.unmutated[index].tobytes() in made
        effects = effects_of(algorithm)
        if not clone_uncrossed:
            assert children.crossed.shape[0] == children.genomes.shape[0]
        assert math.isnan(effects.crossover.improved) == (children.crossed.shape[0] == 0)
