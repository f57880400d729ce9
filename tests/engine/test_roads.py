"""One road per generation: the table that chooses it, and the draws every road shares."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm
from engine.config.presets import PRESETS
from engine.errors import ConfigError
from engine.genomes.encodings import ENCODINGS, PERMUTATION
from engine.large_n.memetic_children import improve_children_compiled
from engine.large_n.roads import COMPILED_CHILDREN, KEPT_COUNTS, PLAIN, ROADS, road_for
from engine.operators.conflict_draws import attacked_queens, draw_conflict_moves
from engine.operators.local_search import LocalSearchSettings
from engine.operators.mutation import MutationSettings, conflict_mutation_counted


@pytest.mark.parametrize(
    ("config", "road"),
    [
        (Config(n=64), PLAIN),
        (Config(n=2048), KEPT_COUNTS),
        (Config(n=2048, unique=True), PLAIN),
        (Config(n=4096, mutation="swap"), PLAIN),
        (PRESETS["memetic"].config(64), COMPILED_CHILDREN),
        (PRESETS["memetic"].config(64).replace(unique=True), PLAIN),
        (PRESETS["sheppard"].config(8), PLAIN),
    ],
)
def test_a_run_takes_the_first_road_whose_condition_holds(config: Config, road: Any) -> None:
    assert road_for(config) is road
    assert GeneticAlgorithm(config)._road is road
    taken = [candidate for candidate in ROADS if candidate.taken_when(config)]
    assert taken[0] is road and taken[-1] is PLAIN


def test_every_preset_at_every_size_takes_one_faster_road_at_most() -> None:
    for preset in PRESETS.values():
        for n in preset.allowed_n or (8, 64, 2048, 4096):
            try:
                config = preset.config(n)
            except ConfigError:  # more memory than this machine allows a run
                continue
            faster = [road for road in ROADS[:-1] if road.taken_when(config)]
            assert len(faster) <= 1, (preset.name, n, faster)


@pytest.mark.parametrize("encoding", ["permutation", "integer", "squares"])
@pytest.mark.parametrize(("count", "n"), [(0, 9), (5, 1), (7, 9), (40, 30)])
def test_the_numpy_mutation_draws_exactly_the_shared_draws(
    encoding: str, count: int, n: int
) -> None:
    coding = ENCODINGS[encoding]
    genomes = coding.random_population(count, n, np.random.default_rng(n))
    settings = MutationSettings(0.6, n, coding, 0.0, 5)
    mutated, drawn = np.random.default_rng(3), np.random.default_rng(3)
    conflict_mutation_counted(genomes, mutated, settings)
    draw_conflict_moves(drawn, count, coding.gene_values(n), 0.6, 5)
    assert mutated.bit_generator.state == drawn.bit_generator.state


@pytest.mark.parametrize(("count", "n"), [(0, 9), (7, 9), (6, 200)])
def test_the_compiled_children_draw_the_shared_draws_first(count: int, n: int) -> None:
    genomes = PERMUTATION.random_population(count, n, np.random.default_rng(n))
    settings = MutationSettings(1.0, n, PERMUTATION, 0.0, 4)
    compiled, numpy_made = genomes.copy(), genomes.copy()
    compiled_rng, numpy_rng = np.random.default_rng(5), np.random.default_rng(5)
    conflicts = improve_children_compiled(
        compiled, compiled_rng, settings, LocalSearchSettings(0, 8)
    )
    numpy_made, lines = conflict_mutation_counted(numpy_made, numpy_rng, settings)
    assert np.array_equal(compiled, numpy_made)
    assert np.array_equal(conflicts, lines.conflicts)
    assert compiled_rng.bit_generator.state == numpy_rng.bit_generator.state


@pytest.mark.parametrize("density", [0.0, 0.05, 0.5])
def test_some_rows_attacked_queens_are_those_of_the_rows_gathered(density: float) -> None:
    rng = np.random.default_rng(9)
    attacked = rng.random((50, 33)) < density
    rows = rng.integers(0, 50, 80)
    draw = rng.random(80)
    expected = attacked_queens(attacked[rows], draw)
    assert np.array_equal(attacked_queens(attacked, draw, rows), expected)
