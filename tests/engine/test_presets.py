"""Presets: each one builds its source's published GA, solves at its N, and replays exactly."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import brute_conflicts, squares_of

from engine import Config, ConfigError, GeneticAlgorithm, stop_rules
from engine.config.presets import PRESETS, Preset, preset_named
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES, evaluate
from engine.termination import MaxEvaluations, MaxGenerations, Solved

PARAMETRIZE_PRESETS = pytest.mark.parametrize("preset", list(PRESETS.values()), ids=list(PRESETS))


# --- Building configs. ---


@PARAMETRIZE_PRESETS
def test_every_preset_builds_a_valid_config_at_its_own_n(preset: Preset):
    config = preset.config()
    assert isinstance(config, Config)
    assert config.n == preset.native_n
    assert config == preset.config(preset.native_n)
    # Validated again from plain values: nothing in a preset slips past the rules.
    assert Config.from_mapping(config.to_dict()) == config
    if preset.allowed_n is not None:
        assert preset.native_n in preset.allowed_n
    assert preset_named(preset.name) is preset


@PARAMETRIZE_PRESETS
def test_every_preset_builds_a_config_for_each_size_it_allows(preset: Preset):
    sizes = preset.allowed_n if preset.allowed_n is not None else (4, 6, 12)
    for n in sizes:
        assert preset.config(n).n == n


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("codeproject-2011", [4, 5, 9, 16]),
        ("queens-ai", [4, 10, 12, 20, 128]),
    ],
)
def test_presets_with_fixed_sizes_refuse_other_sizes(name, refused):
    preset = preset_named(name)
    for n in refused:
        with pytest.raises(ConfigError) as caught:
            preset.config(n)
        assert caught.value.field == "n"
        assert caught.value.value == n
        for allowed in preset.allowed_n:
            assert str(allowed) in caught.value.allowed


def test_the_fixed_sizes_are_the_published_ones():
    assert preset_named("codeproject-2011").allowed_n == (8,)
    assert preset_named("queens-ai").allowed_n == (8, 16, 32, 64)


@PARAMETRIZE_PRESETS
def test_overrides_apply_and_leave_the_rest(preset: Preset):
    base = preset.config()
    changed = preset.config(seed=3, population=50)
    assert changed.seed == 3
    assert changed.population == 50
    assert changed.replace(seed=base.seed, population=base.population) == base


def test_an_override_is_validated():
    with pytest.raises(ConfigError) as caught:
        preset_named("codeproject-2011").config(clone_uncrossed=False)
    assert caught.value.field == "clone_uncrossed"
    with pytest.raises(ConfigError) as caught:
        preset_named("sheppard").config(harvest=True)
    assert caught.value.field == "harvest"


def test_an_unknown_preset_is_a_config_error_naming_the_field():
    with pytest.raises(ConfigError) as caught:
        preset_named("nope")
    assert caught.value.field == "preset"
    assert caught.value.value == "nope"
    for name in PRESETS:
        assert name in caught.value.allowed


# --- Each preset is its source's published GA. ---


def test_codeproject_2011_parameters():
    config = preset_named("codeproject-2011").config()
    assert config.n == 8
    assert config.population == 100
    assert config.generations == 10
    assert config.encoding == "permutation"
    assert config.selection == "roulette"
    assert (config.crossover, config.crossover_rate) == ("order-uniform", 0.7)
    assert config.children_per_couple == 1
    assert config.clone_uncrossed
    assert (config.mutation, config.mutation_rate) == ("swap-gene", 0.01)
    assert config.survivor == "generational"
    assert config.elitism == 0
    assert config.fitness == "collisions"
    assert config.stop_when_solved
    assert config.children_per_generation == 100
    # Its fitness is 28 minus the collisions: 28 is a solution, the main diagonal scores 0.
    algorithm = GeneticAlgorithm(config.replace(seed=0))
    assert algorithm.snapshot.max_fitness == 28.0
    shape = FITNESS_SHAPES[config.fitness]
    diagonal = evaluate(np.arange(8)[None, :], 8, ENCODINGS[config.encoding], shape)
    assert diagonal.fitness.tolist() == [0.0]


@pytest.mark.parametrize("n", [5, 8])
def test_sheppard_parameters(n):
    config = preset_named("sheppard").config(n)
    pool = 3 * n * n
    assert config.encoding == "squares"
    assert config.population == pool
    assert config.offspring == pool
    assert config.children_per_generation == pool
    assert config.unique
    assert config.fallback
    assert config.survivor == "threshold"
    assert config.selection == "uniform"
    assert (config.crossover, config.crossover_rate) == ("one-gene", 1.0)
    assert config.children_per_couple == 1
    assert (config.mutation, config.mutation_rate) == ("reset-one", 1.0)
    assert config.fitness == "attacked"
    assert config.stop_when_solved
    assert (config.generations, config.max_evals) == (None, None)


def test_sheppard_pool_at_eight_is_192():
    assert preset_named("sheppard").config().population == 192


def test_towardsai_5queens_parameters():
    config = preset_named("towardsai-5queens").config()
    assert config.n == 5
    assert config.population == 4
    assert config.encoding == "integer"
    assert config.selection == "roulette"
    assert config.crossover == "single-point"
    assert config.children_per_couple == 2
    assert config.fitness == "pairs"
    assert config.survivor == "generational"
    assert GeneticAlgorithm(config.replace(seed=0)).snapshot.max_fitness == 10.0


# Towards AI (2021) prints chromosomes as 1-based rows per column; our genes are 0-based.
# The article prints fitness 5 for [5 2 3 4 1]; that board has 6 attacking pairs, so 4.
TOWARDS_AI_WORKED = [
    ([4, 1, 3, 2, 4], 7),
    ([3, 2, 4, 0, 3], 6),
    ([1, 0, 2, 1, 3], 6),
    ([4, 1, 2, 3, 0], 4),
]


def test_towardsai_worked_numbers_through_the_presets_own_fitness():
    config = preset_named("towardsai-5queens").config(seed=0)
    genomes = np.array([genome for genome, _ in TOWARDS_AI_WORKED], dtype=np.int64)
    scored = evaluate(genomes, config.n, ENCODINGS[config.encoding], FITNESS_SHAPES[config.fitness])
    assert scored.fitness.tolist() == [fitness for _, fitness in TOWARDS_AI_WORKED]
    assert scored.conflicts.tolist() == [10 - fitness for _, fitness in TOWARDS_AI_WORKED]


def test_queens_ai_parameters():
    config = preset_named("queens-ai").config()
    assert config.n == 8
    assert config.population == 100
    assert config.encoding == "permutation"
    assert config.selection == "best-2-of-5"
    assert (config.crossover, config.crossover_rate) == ("cut-crossfill", 0.9)
    assert config.children_per_couple == 2
    assert not config.clone_uncrossed
    assert (config.mutation, config.mutation_rate) == ("swap", 0.4)
    assert config.survivor == "steady-state"
    assert config.offspring == 2
    assert config.children_per_generation == 2
    assert config.fitness == "exponential"
    assert config.max_evals == 10_000
    assert config.generations is None
    assert stop_rules(config) == (Solved(), MaxEvaluations(10_000))


def test_deap_nqueens_parameters():
    config = preset_named("deap-nqueens").config()
    assert config.n == 20
    assert config.population == 300
    assert config.encoding == "permutation"
    assert (config.selection, config.tournament_size) == ("tournament", 3)
    assert (config.crossover, config.crossover_rate) == ("pmx", 0.5)
    assert (config.mutation, config.mutation_rate) == ("shuffle-indexes", 0.2)
    assert config.shuffle_gene_rate == pytest.approx(0.1)
    assert config.survivor == "generational"
    assert config.elitism == 0
    assert config.generations == 100
    assert not config.stop_when_solved
    assert config.fitness == "excess"
    assert stop_rules(config) == (MaxGenerations(100),)


def test_deap_gene_rate_follows_n():
    assert preset_named("deap-nqueens").config(8).shuffle_gene_rate == pytest.approx(0.25)
    assert preset_named("deap-nqueens").config(40).shuffle_gene_rate == pytest.approx(0.05)


# --- Each preset solves at its own N. ---

SOLVING_SEEDS = (0, 1, 2, 3, 4)


def assert_is_solution(genome: np.ndarray, config: Config) -> None:
    queens = squares_of(genome.tolist(), ENCODINGS[config.encoding], config.n)
    assert len(set(queens)) == config.n
    assert brute_conflicts(queens) == 0


@PARAMETRIZE_PRESETS
def test_every_preset_solves_its_own_n_for_one_of_a_few_seeds(preset: Preset):
    solved = []
    for seed in SOLVING_SEEDS:
        # A time limit bounds the slow seeds (Sheppard's pool can stall for seconds).
        config = preset.config(seed=seed, time_limit=2.0)
        final = GeneticAlgorithm(config).run()
        if final.solved:
            assert_is_solution(final.best, config)
            solved.append(seed)
            break
    assert solved, f"{preset.name} solved none of seeds {SOLVING_SEEDS}"


def test_deap_does_not_stop_at_its_first_solution():
    algorithm = GeneticAlgorithm(preset_named("deap-nqueens").config(seed=0))
    final = algorithm.run()
    assert final.stop_reason == "max-generations"
    assert final.generation == 100
    best_conflicts = algorithm.history.column("best_conflicts")
    # Solved well before the end, and it went on regardless.
    assert best_conflicts[:-1].min() == 0
    assert final.evaluations == 300 * 101


# --- Determinism. ---

# Bounded so each run is short; Sheppard without a time limit, which would not be deterministic.
DETERMINISM_LIMITS = {
    "codeproject-2011": {},
    "sheppard": {"generations": 25},
    "towardsai-5queens": {"generations": 60},
    "queens-ai": {"generations": 150},
    "deap-nqueens": {"generations": 15},
    "eiben-smith": {"generations": 150},
    "default": {"generations": 30},
    "showcase": {"generations": 30},
    "memetic": {"generations": 10},
}


def test_every_preset_has_determinism_limits():
    assert set(DETERMINISM_LIMITS) == set(PRESETS)


@PARAMETRIZE_PRESETS
@pytest.mark.parametrize("seed", [1, 5])
def test_every_preset_replays_exactly_by_run_and_by_step(preset: Preset, seed: int):
    config = preset.config(seed=seed, **DETERMINISM_LIMITS[preset.name])
    by_run = GeneticAlgorithm(config)
    final = by_run.run()
    by_step = GeneticAlgorithm(config)
    while by_step.has_next():
        by_step.step()
    other = by_step.snapshot
    assert other.generation == final.generation
    assert other.stop_reason == final.stop_reason
    assert other.evaluations == final.evaluations
    for name in ("population", "fitness", "conflicts", "solutions"):
        one, two = getattr(final, name), getattr(other, name)
        assert one.shape == two.shape, name
        assert one.tobytes() == two.tobytes(), name
    for column in ("best_fitness", "mean_fitness", "evaluations"):
        assert by_run.history.column(column).tolist() == by_step.history.column(column).tolist()
