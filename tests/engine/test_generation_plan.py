"""How a generation is planned: children per couple, uncrossed couples, Sheppard's threshold and
fallback, reset-one mutation, and the evaluations each of them spends."""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.algorithm as algorithm_module
from engine import CheckpointError, Config, ConfigError, GeneticAlgorithm
from engine.config.presets import preset_named
from engine.genomes.encodings import INTEGER, SQUARES, Encoding
from engine.operators.crossover import CROSSOVERS
from engine.operators.mutation import MUTATIONS, MutationSettings, reset_one_mutation
from engine.operators.survivors import threshold_acceptance


class Spy:
    """Wraps an operator and records its inputs and outputs, call by call."""

    def __init__(self, function: Any) -> None:
        self.function = function
        self.calls: list[tuple[tuple[Any, ...], Any]] = []

    def __call__(self, *args: Any) -> Any:
        result = self.function(*args)
        self.calls.append((args, result))
        return result


# --- queens_AI: one couple per iteration, no clones when the couple does not cross. ---


def queens_ai(**overrides: Any) -> Config:
    return preset_named("queens-ai").config(**{"seed": 11, **overrides})


def test_uncrossed_couples_make_no_children_and_spend_no_evaluations():
    # A rate of exactly 0 never makes a child, so it is refused (test_config_rules); a tiny
    # rate still leaves every couple of these 20 steps uncrossed.
    algorithm = GeneticAlgorithm(queens_ai(crossover_rate=1e-12, stop_when_solved=False))
    start = algorithm.snapshot
    assert start.evaluations == 100
    algorithm.step_many(20)
    assert algorithm.history.column("evaluations").tolist() == [100.0] * 21
    # No child, so no one was replaced: the same individuals (survivors come best first).
    after = algorithm.snapshot.population
    assert sorted(map(tuple, after.tolist())) == sorted(map(tuple, start.population.tolist()))


def test_a_crossing_couple_adds_exactly_two_evaluations_per_step():
    algorithm = GeneticAlgorithm(queens_ai(crossover_rate=1.0, stop_when_solved=False))
    algorithm.step_many(40)
    evaluations = algorithm.history.column("evaluations")
    assert evaluations[0] == 100
    assert np.diff(evaluations).tolist() == [2.0] * 40


def test_at_the_published_rate_a_step_spends_two_evaluations_or_none():
    algorithm = GeneticAlgorithm(queens_ai(stop_when_solved=False))
    algorithm.step_many(200)
    steps = np.diff(algorithm.history.column("evaluations"))
    assert set(steps.tolist()) == {0.0, 2.0}
    # About 1 couple in 10 does not cross.
    assert 0.8 < np.mean(steps == 2) < 0.97


def test_the_evaluation_limit_counts_the_initial_population():
    config = queens_ai(crossover_rate=1.0, stop_when_solved=False, max_evals=1_000)
    final = GeneticAlgorithm(config).run()
    assert final.stop_reason == "max-evaluations"
    assert final.evaluations == 1_000
    # 100 for the initial population, then 2 a step: 450 steps, not 500.
    assert final.generation == 450


def test_the_published_10000_evaluation_stop_fires():
    config = queens_ai(crossover_rate=1.0, stop_when_solved=False)
    assert config.max_evals == 10_000
    algorithm = GeneticAlgorithm(config)
    algorithm.step()
    # Resume as if the run had already spent 9,996 evaluations (a full run takes seconds):
    # without its history and digest, a checkpoint's counters are not cross-checked.
    state = json.loads(json.dumps(algorithm.state(history=False)))
    del state["digest"]
    state["evaluations"] = 9_996
    resumed = GeneticAlgorithm.from_state(state)
    assert resumed.snapshot.stop_reason is None
    assert resumed.step().stop_reason is None
    final = resumed.step()
    assert final.evaluations == 10_000
    assert final.stop_reason == "max-evaluations"
    assert not resumed.has_next()


# --- One child per couple. ---


@pytest.mark.parametrize(("per_couple", "couples"), [(1, 20), (2, 10)])
def test_a_generation_makes_p_children_from_p_or_p_over_2_couples(monkeypatch, per_couple, couples):
    spy = Spy(CROSSOVERS["ox"])
    monkeypatch.setitem(CROSSOVERS, "ox", spy)
    config = Config(
        n=8,
        population=20,
        crossover_rate=1.0,
        children_per_couple=per_couple,
        stop_when_solved=False,
        seed=2,
    )
    algorithm = GeneticAlgorithm(config)
    algorithm.step_many(3)
    assert [args[0].shape[0] for args, _ in spy.calls] == [couples] * 3
    assert algorithm.history.column("evaluations").tolist() == [20.0, 40.0, 60.0, 80.0]


def test_an_odd_number_of_children_takes_one_child_of_the_last_couple():
    config = Config(n=8, population=10, offspring=5, stop_when_solved=False, seed=2)
    algorithm = GeneticAlgorithm(config)
    algorithm.step_many(2)
    assert algorithm.history.column("evaluations").tolist() == [10.0, 15.0, 20.0]


def test_one_child_per_couple_clones_the_first_parent_when_uncrossed(monkeypatch):
    spy = Spy(MUTATIONS["swap-gene"])
    monkeypatch.setitem(MUTATIONS, "swap-gene", spy)
    config = preset_named("codeproject-2011").config(
        seed=4, crossover_rate=0.0, stop_when_solved=False
    )
    algorithm = GeneticAlgorithm(config)
    parents = {tuple(row) for row in algorithm.snapshot.population.tolist()}
    algorithm.step()
    ((args, _),) = spy.calls
    children = args[0]
    assert children.shape == (100, 8)
    assert {tuple(row) for row in children.tolist()} <= parents


def test_codeproject_spends_100_evaluations_per_generation():
    config = preset_named("codeproject-2011").config(seed=3, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    final = algorithm.run()
    assert final.stop_reason == "max-generations"
    assert algorithm.history.column("evaluations").tolist() == [100.0 + 100 * g for g in range(11)]


@pytest.mark.parametrize("seed", range(6))
def test_codeproject_evaluations_follow_the_generations_as_published(seed):
    algorithm = GeneticAlgorithm(preset_named("codeproject-2011").config(seed=seed))
    snapshots = [algorithm.snapshot, *algorithm.step_many(10)]
    for snapshot in snapshots:
        assert snapshot.evaluations == 100 + 100 * snapshot.generation


# --- Sheppard's threshold. ---


def test_threshold_hand_checked():
    passed, threshold = threshold_acceptance(np.array([4.0, 5.0, 7.0, 6.0, 7.0]), 5.0)
    assert passed.tolist() == [False, True, True, False, True]
    assert threshold == 7.0


def test_threshold_never_goes_down():
    passed, threshold = threshold_acceptance(np.array([1.0, 2.0, 3.0]), 5.0)
    assert passed.tolist() == [False, False, False]
    assert threshold == 5.0


def test_threshold_of_no_children_is_unchanged():
    passed, threshold = threshold_acceptance(np.array([], dtype=np.float64), -3.0)
    assert passed.shape == (0,)
    assert threshold == -3.0


def test_threshold_on_negative_costs_as_sheppards_fitness():
    # Costs 14, 12, 20, 12, 10 (negated): the gate rises to -12, then -10.
    children = -np.array([14.0, 12.0, 20.0, 12.0, 10.0])
    passed, threshold = threshold_acceptance(children, -14.0)
    assert passed.tolist() == [True, True, False, True, True]
    assert threshold == -10.0


def naive_threshold(children: list[float], threshold: float) -> tuple[list[bool], float]:
    """Sheppard's loop: a child at least as good as the gate passes; a better one raises it."""
    passed = []
    for child in children:
        passed.append(child >= threshold)
        if child > threshold:
            threshold = child
    return passed, threshold


@settings(max_examples=200, deadline=None)
@given(
    children=st.lists(st.integers(-20, 20), max_size=30),
    threshold=st.integers(-20, 20),
)
def test_threshold_matches_the_sequential_loop(children, threshold):
    values = np.array(children, dtype=np.float64)
    passed, after = threshold_acceptance(values, float(threshold))
    expected_passed, expected_after = naive_threshold([float(c) for c in children], threshold)
    assert passed.dtype == np.bool_
    assert passed.tolist() == expected_passed
    assert after == expected_after


# --- Sheppard's fallback: crossover until a generation lets no child in, then mutation. ---


def watch_sheppard(monkeypatch, **overrides: Any) -> tuple[Spy, Spy, Spy]:
    crossover = Spy(CROSSOVERS["one-gene"])
    mutation = Spy(MUTATIONS["reset-one"])
    gate = Spy(threshold_acceptance)
    monkeypatch.setitem(CROSSOVERS, "one-gene", crossover)
    monkeypatch.setitem(MUTATIONS, "reset-one", mutation)
    monkeypatch.setattr(algorithm_module, "threshold_acceptance", gate)
    return crossover, mutation, gate


def test_fallback_mutates_only_after_a_generation_that_let_no_child_in(monkeypatch):
    crossover, mutation, gate = watch_sheppard(monkeypatch)
    config = preset_named("sheppard").config(n=6, seed=1, generations=60, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    assert not algorithm._run_state.mutating  # Sheppard starts with crossover
    kinds = []
    while algorithm.has_next():
        mutating = algorithm._run_state.mutating
        population = {tuple(row) for row in algorithm.snapshot.population.tolist()}
        crossover.calls.clear()
        mutation.calls.clear()
        gate.calls.clear()
        algorithm.step()
        if mutating:
            kinds.append("mutation")
            assert crossover.calls == []
            ((args, children),) = mutation.calls
            clones = args[0]
            # Nothing crossed: each child starts as a copy of one parent...
            assert {tuple(row) for row in clones.tolist()} <= population
            # ...and reset-one (rate 1) changes at most one gene of it.
            assert ((children != clones).sum(axis=1) <= 1).all()
            assert (children != clones).any()
        else:
            kinds.append("crossover")
            assert len(crossover.calls) == 1
            assert mutation.calls == []
        ((_, (passed, _)),) = gate.calls
        assert algorithm._run_state.mutating == (not passed.any())
    # Both kinds of generation happened, and each switched to the other at least once.
    switches = {(a, b) for a, b in itertools.pairwise(kinds) if a != b}
    assert switches == {("crossover", "mutation"), ("mutation", "crossover")}


def test_without_fallback_every_generation_crosses_and_mutates(monkeypatch):
    crossover, mutation, _ = watch_sheppard(monkeypatch)
    config = preset_named("sheppard").config(
        n=6, seed=1, generations=15, stop_when_solved=False, fallback=False
    )
    algorithm = GeneticAlgorithm(config)
    while algorithm.has_next():
        algorithm.step()
        assert not algorithm._run_state.mutating
    assert len(crossover.calls) == 15
    assert len(mutation.calls) == 15


def test_the_fallback_flag_survives_a_checkpoint():
    config = preset_named("sheppard").config(n=6, seed=1, generations=60, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    while not algorithm._run_state.mutating:
        algorithm.step()
    state = json.loads(json.dumps(algorithm.state()))
    assert state["mutating"] is True
    resumed = GeneticAlgorithm.from_state(state)
    assert resumed._run_state.mutating
    final = algorithm.run()
    assert resumed.run().population.tobytes() == final.population.tobytes()
    # Forgetting the flag changes the run: the digest refuses such a checkpoint...
    with pytest.raises(CheckpointError) as caught:
        GeneticAlgorithm.from_state({**state, "mutating": False})
    assert caught.value.field == "digest"
    # ... which, without a digest, would resume a different run.
    state.pop("digest")
    forgetful = GeneticAlgorithm.from_state({**state, "mutating": False})
    assert forgetful.run().population.tobytes() != final.population.tobytes()


def test_sheppard_threshold_starts_at_the_worst_parent_and_only_rises():
    config = preset_named("sheppard").config(seed=0, generations=30, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    assert algorithm._run_state.threshold == algorithm.snapshot.fitness.min()
    thresholds = [algorithm._run_state.threshold]
    while algorithm.has_next():
        snapshot = algorithm.step()
        thresholds.append(algorithm._run_state.threshold)
        # The gate never passes the best individual.
        assert algorithm._run_state.threshold <= snapshot.fitness.max()
    assert np.all(np.diff(thresholds) >= 0)
    assert thresholds[-1] > thresholds[0]


# --- Reset-one mutation. ---


def reset_settings(n: int, rate: float, encoding: Encoding) -> MutationSettings:
    return MutationSettings(rate=rate, n=n, encoding=encoding, gene_rate=0.5, candidates=4)


@pytest.mark.parametrize("encoding", [INTEGER, SQUARES])
def test_reset_one_at_rate_1_changes_at_most_one_gene_within_range(encoding):
    n = 8
    rng = np.random.default_rng(0)
    genomes = rng.integers(0, encoding.gene_values(n), size=(2_000, n))
    original = genomes.copy()
    children = reset_one_mutation(genomes, rng, reset_settings(n, 1.0, encoding))
    assert np.array_equal(genomes, original)  # the input is left alone
    assert children.shape == genomes.shape
    changed = (children != genomes).sum(axis=1)
    assert changed.max() <= 1
    # The new value may equal the old one (1 chance in gene_values); otherwise a gene moves.
    assert np.mean(changed == 1) == pytest.approx(1 - 1 / encoding.gene_values(n), abs=0.03)
    assert children.min() >= 0
    assert children.max() < encoding.gene_values(n)
    # Every position and every value gets drawn.
    rows, columns = np.nonzero(children != genomes)
    assert set(columns.tolist()) == set(range(n))
    assert set(children[rows, columns].tolist()) == set(range(encoding.gene_values(n)))


@pytest.mark.parametrize("encoding", [INTEGER, SQUARES])
def test_reset_one_at_rate_0_changes_nothing(encoding):
    rng = np.random.default_rng(1)
    genomes = rng.integers(0, encoding.gene_values(6), size=(200, 6))
    children = reset_one_mutation(genomes, rng, reset_settings(6, 0.0, encoding))
    assert np.array_equal(children, genomes)
    assert children is not genomes


def test_reset_one_rate_is_per_child():
    rng = np.random.default_rng(2)
    genomes = rng.integers(0, 64, size=(4_000, 8))
    children = reset_one_mutation(genomes, rng, reset_settings(8, 0.25, SQUARES))
    changed = (children != genomes).sum(axis=1)
    assert changed.max() <= 1
    assert np.mean(changed) == pytest.approx(0.25 * 63 / 64, abs=0.03)


def test_reset_one_is_not_for_permutations():
    with pytest.raises(ConfigError) as caught:
        Config(encoding="permutation", mutation="reset-one")
    assert caught.value.field == "mutation"
