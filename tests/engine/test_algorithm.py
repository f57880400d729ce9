"""The steppable GA: determinism however it is driven, checkpoints, snapshots, stop rules."""

from __future__ import annotations

import json

import numpy as np
import pytest
from engine_reference import brute_conflicts, is_permutation_rows, sheppard_operators
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import (
    CheckpointError,
    Config,
    ConfigError,
    FinishedError,
    GeneticAlgorithm,
    Snapshot,
    snapshots,
)
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES, evaluate
from engine.genomes.uniqueness import HashSet
from engine.operators.crossover import FREE_CROSSOVERS, PERMUTATION_CROSSOVERS
from engine.operators.mutation import FREE_MUTATIONS, MUTATIONS
from engine.operators.selection import SELECTIONS
from engine.operators.survivors import SURVIVORS
from engine.snapshot import STAT_COLUMNS

FAST: dict[str, object] = {"n": 8, "population": 16, "generations": 15, "stop_when_solved": False}

CONFIGS = {
    "default": Config(**FAST, seed=3),
    "towards-ai": Config(
        **FAST,
        seed=4,
        encoding="integer",
        fitness="pairs",
        selection="roulette",
        crossover="single-point",
        crossover_rate=0.9,
        mutation="random-reset",
        mutation_rate=0.1,
    ),
    "sheppard": Config(
        **FAST,
        seed=5,
        encoding="squares",
        fitness="attacked",
        selection="uniform",
        crossover="one-gene",
        crossover_rate=1.0,
        mutation="conflict",
        unique=True,
    ),
    "generational": Config(
        **FAST,
        seed=6,
        fitness="linear",
        selection="rank",
        crossover="pmx",
        crossover_rate=0.8,
        mutation="inversion",
        mutation_rate=0.3,
        survivor="generational",
        elitism=2,
    ),
    "sheppard-fallback": Config(
        **FAST,
        seed=8,
        **sheppard_operators(),
    ),
    "queens-ai": Config(
        **FAST,
        seed=9,
        fitness="exponential",
        selection="best-2-of-5",
        crossover="cut-crossfill",
        crossover_rate=0.5,
        clone_uncrossed=False,
        mutation="swap",
        mutation_rate=0.4,
        survivor="steady-state",
    ),
    "steady-state": Config(
        **FAST,
        seed=7,
        fitness="exponential",
        selection="best-2-of-5",
        crossover="cycle",
        crossover_rate=1.0,
        mutation="swap-gene",
        mutation_rate=0.2,
        survivor="steady-state",
    ),
}

PARAMETRIZE_CONFIGS = pytest.mark.parametrize("config", list(CONFIGS.values()), ids=list(CONFIGS))

# The only column that is allowed to differ between two runs of the same seed: wall-clock time.
COMPARED_COLUMNS = [name for name in STAT_COLUMNS if name != "elapsed"]


def assert_same_snapshot(one: Snapshot, two: Snapshot) -> None:
    """Bit-for-bit equality of everything but the elapsed time."""
    for name in ("population", "fitness", "conflicts"):
        a, b = getattr(one, name), getattr(two, name)
        assert a.dtype == b.dtype, name
        assert a.shape == b.shape, name
        assert a.tobytes() == b.tobytes(), name
    assert one.best_index == two.best_index
    assert one.stop_reason == two.stop_reason
    assert one.seed == two.seed
    for name in COMPARED_COLUMNS:
        assert getattr(one.stats, name) == getattr(two.stats, name), name


def assert_same_history(one: GeneticAlgorithm, two: GeneticAlgorithm) -> None:
    assert len(one.history) == len(two.history)
    for name in COMPARED_COLUMNS:
        assert one.history.column(name).tobytes() == two.history.column(name).tobytes(), name


# --- Determinism. ---


@PARAMETRIZE_CONFIGS
def test_run_step_and_step_many_give_the_same_run(config):
    by_run = GeneticAlgorithm(config)
    final = by_run.run()
    assert final.generation == 15
    by_step = GeneticAlgorithm(config)
    while by_step.has_next():
        by_step.step()
    by_batches = GeneticAlgorithm(config)
    batches = []
    while by_batches.has_next():
        batches.append(len(by_batches.step_many(4)))
    assert batches == [4, 4, 4, 3]
    for other in (by_step, by_batches):
        assert_same_snapshot(final, other.snapshot)
        assert_same_history(by_run, other)


@pytest.mark.parametrize("batch", [1, 4])
async def test_the_async_stream_gives_the_same_run(batch):
    config = CONFIGS["sheppard"]
    reference = GeneticAlgorithm(config)
    expected = [reference.snapshot, *reference.step_many(100)]
    streamed = GeneticAlgorithm(config)
    seen = [snapshot async for snapshot in snapshots(streamed, batch=batch)]
    assert [s.generation for s in seen] == list(range(16))
    for one, two in zip(expected, seen, strict=True):
        assert_same_snapshot(one, two)
    assert_same_history(reference, streamed)


async def test_the_stream_refuses_an_empty_batch():
    with pytest.raises(ValueError, match="batch"):
        async for _ in snapshots(GeneticAlgorithm(CONFIGS["default"]), batch=0):
            pass


@PARAMETRIZE_CONFIGS
def test_different_seeds_give_different_runs(config):
    one = GeneticAlgorithm(config).run()
    two = GeneticAlgorithm(config.replace(seed=config.seed + 1)).run()
    assert not np.array_equal(one.population, two.population)


@PARAMETRIZE_CONFIGS
@pytest.mark.parametrize("pause", [0, 6])
def test_a_checkpoint_resumes_exactly(config, pause):
    uninterrupted = GeneticAlgorithm(config)
    final = uninterrupted.run()
    first_half = GeneticAlgorithm(config)
    first_half.step_many(pause)
    saved = json.loads(json.dumps(first_half.state()))
    resumed = GeneticAlgorithm.from_state(saved)
    assert_same_snapshot(resumed.snapshot, first_half.snapshot)
    assert_same_history(resumed, first_half)
    assert_same_snapshot(resumed.run(), final)
    assert_same_history(resumed, uninterrupted)


def test_a_checkpoint_of_a_unique_run_keeps_the_seen_genomes():
    config = CONFIGS["sheppard"].replace(n=5, population=6, generations=12, mutation_rate=0.0)
    uninterrupted = GeneticAlgorithm(config)
    final = uninterrupted.run()
    paused = GeneticAlgorithm(config)
    paused.step_many(5)
    state = json.loads(json.dumps(paused.state()))
    assert len(state["seen"]) > config.population
    resumed = GeneticAlgorithm.from_state(state)
    assert_same_snapshot(resumed.run(), final)
    # A checkpoint that forgot what was seen is refused: it would resume a different run.
    with pytest.raises(CheckpointError) as caught:
        GeneticAlgorithm.from_state({**state, "seen": []})
    assert caught.value.field == "seen"
    # Forgetting what was seen would let old genomes back in and change the run.
    forgetful = GeneticAlgorithm.from_state(state)
    forgetful._run_state.seen = HashSet()
    forgetful_final = forgetful.run()
    assert forgetful.snapshot.evaluations != final.evaluations or not np.array_equal(
        forgetful_final.population, final.population
    )


# --- Snapshots. ---


def test_snapshot_arrays_are_read_only():
    snapshot = GeneticAlgorithm(CONFIGS["default"]).step()
    for array in (snapshot.population, snapshot.fitness, snapshot.conflicts, snapshot.best):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = array[0]


def test_a_published_snapshot_never_changes():
    algorithm = GeneticAlgorithm(CONFIGS["default"].replace(generations=30))
    held = [algorithm.snapshot, algorithm.step()]
    copies = [(s.population.copy(), s.fitness.copy(), s.conflicts.copy()) for s in held]
    algorithm.run()
    assert not np.array_equal(algorithm.snapshot.population, copies[0][0])
    for snapshot, (population, fitness, conflicts) in zip(held, copies, strict=True):
        assert np.array_equal(snapshot.population, population)
        assert np.array_equal(snapshot.fitness, fitness)
        assert np.array_equal(snapshot.conflicts, conflicts)


@PARAMETRIZE_CONFIGS
def test_history_has_a_row_per_generation(config):
    algorithm = GeneticAlgorithm(config)
    assert len(algorithm.history) == 1
    while algorithm.has_next():
        snapshot = algorithm.step()
        assert len(algorithm.history) == snapshot.generation + 1
        assert algorithm.history.row(-1) == snapshot.stats
    assert algorithm.history.column("generation").tolist() == list(range(16))


@PARAMETRIZE_CONFIGS
def test_snapshot_statistics_describe_the_population(config):
    snapshot = GeneticAlgorithm(config).step_many(3)[-1]
    stats = snapshot.stats
    assert stats.best_fitness == snapshot.fitness.max()
    assert stats.worst_fitness == snapshot.fitness.min()
    assert stats.mean_fitness == pytest.approx(snapshot.fitness.mean())
    assert stats.best_conflicts == snapshot.conflicts.min()
    assert snapshot.fitness[snapshot.best_index] == snapshot.fitness.max()
    best_rows = np.flatnonzero(snapshot.fitness == snapshot.fitness.max())
    assert snapshot.best_conflicts == snapshot.conflicts[best_rows].min()
    # Every individual's conflicts are its own, recounted by brute force, and its fitness is
    # what a fresh evaluation gives (the conflict mutation hands over updated line counts).
    for index in range(snapshot.population.shape[0]):
        assert snapshot.conflicts[index] == brute_conflicts(snapshot.queens(index))
    fresh = evaluate(
        np.asarray(snapshot.population),
        config.n,
        ENCODINGS[config.encoding],
        FITNESS_SHAPES[config.fitness],
    )
    assert fresh.fitness.tobytes() == snapshot.fitness.tobytes()
    assert snapshot.max_fitness > stats.worst_fitness or snapshot.solved


def test_evaluations_count_the_initial_population_and_every_child():
    config = CONFIGS["default"]
    final = GeneticAlgorithm(config).run()
    assert final.evaluations == config.population * (1 + 15)
    steady = GeneticAlgorithm(CONFIGS["steady-state"]).run()
    assert steady.evaluations == 16 + 2 * 15


def test_generational_elitism_keeps_the_best_fitness_from_falling():
    algorithm = GeneticAlgorithm(CONFIGS["generational"].replace(generations=40))
    algorithm.run()
    best = algorithm.history.column("best_fitness")
    assert (np.diff(best) >= 0).all()


def test_generational_without_elitism_can_lose_its_best():
    config = CONFIGS["generational"].replace(
        elitism=0, generations=40, mutation="scramble", mutation_rate=1.0
    )
    algorithm = GeneticAlgorithm(config)
    algorithm.run()
    assert (np.diff(algorithm.history.column("best_fitness")) < 0).any()


# --- Stop rules. ---


def test_stops_when_solved():
    algorithm = GeneticAlgorithm(Config(n=8, population=30, generations=500, seed=11))
    final = algorithm.run()
    assert final.stop_reason == "solved"
    assert final.solved and final.best_conflicts == 0
    assert brute_conflicts(final.queens()) == 0
    assert final.stats.best_fitness == final.max_fitness
    assert final.generation < 500
    # The run stopped at the first solution.
    assert (algorithm.history.column("best_conflicts")[:-1] > 0).all()


def test_stops_after_max_generations():
    final = GeneticAlgorithm(Config(n=30, population=10, generations=7, seed=1)).run()
    assert (final.stop_reason, final.generation) == ("max-generations", 7)


def test_stops_after_max_evaluations():
    algorithm = GeneticAlgorithm(Config(n=30, population=10, max_evals=55, seed=1))
    final = algorithm.run()
    assert final.stop_reason == "max-evaluations"
    assert (final.generation, final.evaluations) == (5, 60)
    assert algorithm.history.column("evaluations")[-2] < 55


def test_stops_on_stagnation():
    # Children are copies of their parents: the best can never improve.
    config = Config(
        n=30,
        population=10,
        stagnation=3,
        generations=50,  # a guard: a broken stagnation rule fails here instead of hanging
        crossover_rate=0.0,
        mutation_rate=0.0,
        seed=1,
    )
    final = GeneticAlgorithm(config).run()
    assert (final.stop_reason, final.generation) == ("stagnation", 3)


def test_stagnation_counts_from_the_last_improvement():
    config = Config(n=30, population=10, stagnation=4, generations=500, seed=2)
    algorithm = GeneticAlgorithm(config)
    final = algorithm.run()
    assert final.stop_reason == "stagnation"
    best = algorithm.history.column("best_fitness")
    # The last 4 generations did not beat the best before them; some improvement came earlier.
    assert best[-4:].max() <= best[:-4].max()
    assert final.generation > 4


def test_stops_on_a_time_limit():
    final = GeneticAlgorithm(Config(n=30, population=10, time_limit=1e-9, seed=1)).run()
    assert final.stop_reason == "time-limit"
    assert final.elapsed >= 1e-9


def test_a_generous_time_limit_does_not_stop_the_run():
    config = Config(n=30, population=10, time_limit=3600.0, generations=3, seed=1)
    assert GeneticAlgorithm(config).run().stop_reason == "max-generations"


def test_without_a_stop_rule_the_run_goes_on():
    algorithm = GeneticAlgorithm(Config(n=30, population=10, stop_when_solved=False, seed=1))
    algorithm.step_many(20)
    assert algorithm.has_next()
    assert algorithm.snapshot.stop_reason is None


def test_stepping_a_finished_run_raises():
    algorithm = GeneticAlgorithm(Config(n=30, population=10, generations=2, seed=1))
    algorithm.run()
    assert not algorithm.has_next()
    with pytest.raises(FinishedError, match="max-generations"):
        algorithm.step()
    assert algorithm.step_many(5) == []


# --- Seeds. ---


def test_a_drawn_seed_is_recorded_and_replays_the_run():
    config = Config(n=8, population=12, generations=10, stop_when_solved=False)
    assert config.seed is None
    algorithm = GeneticAlgorithm(config)
    assert isinstance(algorithm.config.seed, int)
    assert algorithm.snapshot.seed == algorithm.config.seed
    assert algorithm.state()["config"]["seed"] == algorithm.config.seed
    final = algorithm.run()
    replay = GeneticAlgorithm(config.replace(seed=algorithm.config.seed)).run()
    assert_same_snapshot(final, replay)


# --- Any valid config runs, and every generation keeps the engine's promises. ---


@st.composite
def config_values(draw: st.DrawFn) -> dict[str, object]:
    """Config values, mostly valid: operators that fit the encoding drawn."""
    encoding = draw(st.sampled_from(sorted(ENCODINGS)))
    permutation = encoding == "permutation"
    crossovers = PERMUTATION_CROSSOVERS if permutation else FREE_CROSSOVERS
    mutations = sorted(set(MUTATIONS) - (set(FREE_MUTATIONS) if permutation else set()))
    survivor = draw(st.sampled_from(sorted(SURVIVORS)))
    generational = survivor == "generational"
    return {
        "n": draw(st.sampled_from([1, 4, 5, 6])),
        "population": draw(st.integers(min_value=2, max_value=12)),
        "encoding": encoding,
        "fitness": draw(st.sampled_from(sorted(FITNESS_SHAPES))),
        "selection": draw(st.sampled_from(sorted(SELECTIONS))),
        "tournament_size": draw(st.integers(min_value=1, max_value=2)),
        "crossover": draw(st.sampled_from(sorted(crossovers))),
        "crossover_rate": draw(st.sampled_from([0.0, 0.5, 1.0])),
        "mutation": draw(st.sampled_from(mutations)),
        "mutation_rate": draw(st.sampled_from([0.0, 0.3, 1.0])),
        "survivor": survivor,
        "elitism": draw(st.integers(min_value=0, max_value=1)) if generational else 0,
        "children_per_couple": draw(st.sampled_from([1, 2])),
        "clone_uncrossed": generational or draw(st.booleans()),
        "fallback": draw(st.booleans()),
        "unique": not generational and draw(st.booleans()),
        "seed": draw(st.integers(min_value=0, max_value=2**32 - 1)),
    }


@settings(max_examples=80, deadline=None)
@given(values=config_values())
def test_any_valid_config_runs_and_keeps_its_promises(values):
    try:
        config = Config(**values, generations=4, stop_when_solved=False)
    except ConfigError:
        assume(False)
        return
    encoding = ENCODINGS[config.encoding]
    shape = FITNESS_SHAPES[config.fitness]
    algorithm = GeneticAlgorithm(config)
    snapshot = algorithm.snapshot
    while True:
        population = np.asarray(snapshot.population)
        assert population.shape == (config.population, config.n)
        assert population.min() >= 0
        assert population.max() < encoding.gene_values(config.n)
        if encoding.is_permutation:
            assert is_permutation_rows(population)
        fresh = evaluate(population, config.n, encoding, shape)
        assert fresh.fitness.tobytes() == snapshot.fitness.tobytes()
        assert fresh.conflicts.tobytes() == snapshot.conflicts.tobytes()
        assert len(algorithm.history) == snapshot.generation + 1
        if not algorithm.has_next():
            break
        snapshot = algorithm.step()
    assert (snapshot.generation, snapshot.stop_reason) == (4, "max-generations")
