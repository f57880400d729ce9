"""The fields the lessons need: a neutral fitness, the takeover start, the headless chicken.

Each is an ordinary config field (the runs stay seeded and replayable), refused where it cannot
mean anything, and off by default, so every other run is the run it was (the corpus checks).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import CheckpointError, Config, ConfigError, GeneticAlgorithm
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES, evaluate
from engine.large_n.tracked_generation import tracks


def selection_only(**fields: object) -> Config:
    values = {
        "n": 8,
        "population": 40,
        "crossover_rate": 0.0,
        "mutation": "swap",
        "mutation_rate": 0.0,
        "survivor": "generational",
        "stop_when_solved": False,
        "seed": 3,
        **fields,
    }
    return Config.from_mapping(values)


def test_the_neutral_fitness_gives_every_board_the_same_value() -> None:
    rng = np.random.default_rng(1)
    boards = ENCODINGS["permutation"].random_population(50, 8, rng)
    scored = evaluate(boards, 8, ENCODINGS["permutation"], FITNESS_SHAPES["neutral"])
    assert (scored.fitness == 0.0).all()
    assert scored.conflicts.max() > 0  # the conflicts are still counted
    assert FITNESS_SHAPES["neutral"].best(8) == 0.0


def test_the_takeover_start_is_one_best_board_among_copies_of_the_worst() -> None:
    algorithm = GeneticAlgorithm(selection_only(one_best=True))
    snapshot = algorithm.snapshot
    assert snapshot.conflicts[0] == 1 + (8 - 2) * (8 - 3) // 2
    assert (snapshot.conflicts[1:] == 8 * 7 // 2).all()
    assert (snapshot.population[1:] == np.arange(8)).all()
    assert snapshot.fitness[0] > snapshot.fitness[1:].max()


@pytest.mark.parametrize("n", [4, 5, 17])
def test_the_takeover_best_is_strictly_better_on_every_board_with_solutions(n: int) -> None:
    snapshot = GeneticAlgorithm(selection_only(n=n, one_best=True)).snapshot
    assert snapshot.conflicts[0] < snapshot.conflicts[1]


@pytest.mark.parametrize(
    ("fields", "allowed"),
    [
        ({"n": 1}, "N >= 3"),
        ({"encoding": "squares", "crossover": "one-gene"}, "permutation or integer"),
        ({"greedy_start": True}, "greedy_start off"),
    ],
)
def test_the_takeover_start_is_refused_where_it_means_nothing(
    fields: dict[str, object], allowed: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        selection_only(one_best=True, **fields)
    assert caught.value.field == "one_best"
    assert allowed in caught.value.allowed


def test_selection_alone_only_copies_boards() -> None:
    algorithm = GeneticAlgorithm(selection_only(one_best=True, fitness="neutral"))
    start = {tuple(row) for row in algorithm.snapshot.population.tolist()}
    for _ in range(5):
        rows = {tuple(row) for row in algorithm.step().population.tolist()}
        assert rows <= start


def test_a_headless_chicken_crosses_with_random_boards() -> None:
    # Parents nearly all alike: crossing two of them gives them back; a random mate does not.
    fields = {"one_best": True, "crossover": "cut-crossfill", "crossover_rate": 1.0}
    plain = GeneticAlgorithm(selection_only(**fields)).step()
    headless = GeneticAlgorithm(selection_only(headless_chicken=True, **fields)).step()
    distinct_plain = len({tuple(row) for row in plain.population.tolist()})
    distinct_headless = len({tuple(row) for row in headless.population.tolist()})
    assert distinct_plain <= 3
    assert distinct_headless > 20


@pytest.mark.parametrize("per_couple", [1, 2])
def test_a_headless_chicken_run_is_seeded(per_couple: int) -> None:
    config = selection_only(
        headless_chicken=True, crossover_rate=0.7, children_per_couple=per_couple, seed=11
    )
    first, second = GeneticAlgorithm(config), GeneticAlgorithm(config)
    for _ in range(5):
        assert np.array_equal(first.step().population, second.step().population)


def test_a_headless_chicken_never_takes_the_kept_counts_road() -> None:
    large = Config(n=4096, population=4, headless_chicken=True)
    assert tracks(Config(n=4096, population=4))
    assert not tracks(large)


def test_the_new_fields_count_in_a_checkpoint_s_digest_only_when_set() -> None:
    # At their defaults they are left out, so checkpoints written before them keep their
    # digest (the corpus replays them); set, a checkpoint of the other run does not pass.
    plain = GeneticAlgorithm(selection_only()).state()
    headless = GeneticAlgorithm(selection_only(headless_chicken=True)).state()
    assert plain["digest"] != headless["digest"]
    moved = {**headless, "config": plain["config"]}
    with pytest.raises(CheckpointError, match="digest"):
        GeneticAlgorithm.from_state(moved)
