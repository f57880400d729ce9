"""Checkpoints: ``from_state`` trusts nothing, and a good checkpoint resumes bit for bit."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import tracemalloc
from functools import cache
from typing import Any

import numpy as np
import pytest
from engine_reference import sheppard_operators
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import CheckpointError, Config, GeneticAlgorithm, Snapshot
from engine.checkpoint.checkpoint import BUDGET_FIELDS, read_checkpoint
from engine.snapshot import STAT_COLUMNS

FAST: dict[str, Any] = {"n": 6, "population": 10, "generations": 40, "stop_when_solved": False}

CONFIGS: dict[str, Config] = {
    "default": Config(**FAST, seed=1),
    "integer": Config(
        **FAST, seed=2, encoding="integer", crossover="single-point", crossover_rate=0.7
    ),
    "sheppard": Config(
        **FAST,
        seed=3,
        **sheppard_operators(),
    ),
    "harvest": Config(**{**FAST, "n": 8}, seed=4, harvest=True, unique=True),
    "generational": Config(
        **FAST, seed=5, fitness="linear", survivor="generational", elitism=1, mutation="swap"
    ),
}
PAUSES = (0, 7)
COMPARED = [name for name in STAT_COLUMNS if name != "elapsed"]


@cache
def saved(name: str, pause: int) -> str:
    """A checkpoint after ``pause`` generations, as JSON text (so each test gets a fresh copy)."""
    algorithm = GeneticAlgorithm(CONFIGS[name])
    algorithm.step_many(pause)
    return json.dumps(algorithm.state())


@cache
def continued(name: str, pause: int, steps: int = 4) -> tuple[Snapshot, ...]:
    """What the original run publishes from ``pause`` on."""
    algorithm = GeneticAlgorithm(CONFIGS[name])
    algorithm.step_many(pause)
    return (algorithm.snapshot, *algorithm.step_many(steps))


def assert_same(one: Snapshot, two: Snapshot) -> None:
    for name in ("population", "fitness", "conflicts", "solutions"):
        assert getattr(one, name).tobytes() == getattr(two, name).tobytes(), name
    assert (one.best_index, one.stop_reason) == (two.best_index, two.stop_reason)
    for name in COMPARED:
        assert getattr(one.stats, name) == getattr(two.stats, name), name


def assert_resumes_exactly(state: Any, name: str, pause: int) -> None:
    """The resumed run publishes what the original did (and stops when it did, unless the
    checkpoint's budget was changed, which may only change when it stops)."""
    resumed = GeneticAlgorithm.from_state(state)
    expected = continued(name, pause)
    same_budget = all(
        getattr(resumed.config, field) == getattr(CONFIGS[name], field) for field in BUDGET_FIELDS
    )
    got = [resumed.snapshot]
    while len(got) < len(expected) and resumed.has_next():
        got.append(resumed.step())
    if same_budget:
        assert len(got) == len(expected)
    for one, two in zip(expected, got, strict=False):
        if not same_budget:
            one = dataclasses.replace(one, stop_reason=two.stop_reason)
        assert_same(one, two)


def refusal(state: Any) -> CheckpointError:
    with pytest.raises(CheckpointError) as caught:
        GeneticAlgorithm.from_state(state)
    return caught.value


def fresh(name: str = "default", pause: int = 7) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(saved(name, pause))
    return state


# --- Good checkpoints resume exactly, in every form. ---


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("pause", PAUSES)
def test_a_checkpoint_resumes_exactly_from_json(name, pause):
    assert_resumes_exactly(fresh(name, pause), name, pause)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_checkpoint_with_numpy_arrays_resumes_exactly(name):
    algorithm = GeneticAlgorithm(CONFIGS[name])
    algorithm.step_many(7)
    state = algorithm.state(arrays=True)
    for key in ("population", "seen", "solutions"):
        assert isinstance(state[key], np.ndarray)
    assert all(isinstance(column, np.ndarray) for column in state["history"].values())
    # The same content has the same digest, lists or arrays.
    assert state["digest"] == algorithm.state()["digest"]
    population = state["population"]
    assert_resumes_exactly(state, name, 7)
    # The caller's arrays are copied, never frozen or changed.
    assert population.flags.writeable
    assert population.tobytes() == algorithm.snapshot.population.tobytes()


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_checkpoint_without_history_resumes_exactly_and_starts_its_history_there(name):
    algorithm = GeneticAlgorithm(CONFIGS[name])
    algorithm.step_many(7)
    state = json.loads(json.dumps(algorithm.state(history=False)))
    assert "history" not in state
    assert_resumes_exactly(state, name, 7)
    resumed = GeneticAlgorithm.from_state(state)
    assert (resumed.history.first_generation, len(resumed.history)) == (7, 1)
    resumed.step_many(3)
    assert resumed.history.column("generation").tolist() == [7, 8, 9, 10][: len(resumed.history)]
    assert resumed.history.row(-1) == resumed.snapshot.stats


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_first_generation_without_history_must_say_its_own_best(name):
    # Resuming at generation 0 writes the history from its first row, which then checks the
    # counters: a best raised by hand (no digest to tell) is refused, not resumed into a run
    # whose own checkpoint is refused three generations later.
    algorithm = GeneticAlgorithm(CONFIGS[name])
    state = json.loads(json.dumps(algorithm.state(history=False)))
    del state["digest"]
    GeneticAlgorithm.from_state(copy.deepcopy(state)).step_many(3)
    state["best_ever"] = float(algorithm.snapshot.fitness.max()) + 0.5
    with pytest.raises(CheckpointError, match=r"best_ever.*generation 0's best fitness"):
        GeneticAlgorithm.from_state(state)


def test_a_checkpoint_resumes_with_a_history_limit():
    state = fresh("default", 7)
    resumed = GeneticAlgorithm.from_state(state, history_limit=3)
    assert (resumed.history.first_generation, len(resumed.history)) == (5, 3)
    resumed.step_many(10)
    assert resumed.history.column("generation").tolist() == [15, 16, 17]
    assert resumed.history.row(-1) == resumed.snapshot.stats


def test_the_checkpoint_of_a_limited_run_holds_its_last_rows_and_resumes_exactly():
    algorithm = GeneticAlgorithm(CONFIGS["sheppard"], history_limit=4)
    algorithm.step_many(7)
    state = json.loads(json.dumps(algorithm.state()))
    assert state["history"]["generation"] == [4, 5, 6, 7]
    assert_resumes_exactly(state, "sheppard", 7)
    resumed = GeneticAlgorithm.from_state(state)
    assert resumed.history.column("generation").tolist() == [4, 5, 6, 7]


# --- Damaged checkpoints are refused, naming the field (each of these passed or crashed). ---


def test_a_population_of_the_wrong_size_is_refused_before_it_is_read():
    state = fresh()
    state["population"] = state["population"] * 100
    assert refusal(state).field == "population"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("generation", -5),
        ("generation", 7.0),
        ("generation", True),
        ("evaluations", -1),
        ("elapsed", math.nan),
        ("elapsed", math.inf),
        ("elapsed", -1.0),
        ("elapsed", "soon"),
        ("stagnant", 10**6),
        ("best_ever", None),
        ("threshold", [1.0]),
        ("mutating", "no"),
        ("mutating", True),
        ("seen", [1, 2]),
        ("seen", "abc"),
        ("solutions", [[0, 0, 0, 0, 0, 0]]),
        ("solutions", [[0, 1, 2, 3, 4, 5]]),
        ("solutions", {"a": 1}),
        ("rng", None),
        ("rng", {"bit_generator": "MT19937"}),
        ("history", {"generation": [0]}),
        ("config", None),
        ("digest", 12),
    ],
)
def test_a_bad_value_is_refused_naming_its_field(key, value):
    error = refusal({**fresh(), key: value})
    assert error.field.split(".")[0].split("[")[0] == key
    assert str(error).startswith(f"checkpoint {error.field}: ")


def test_an_all_zeros_permutation_is_not_a_solution():
    state = fresh()
    state["population"][0] = [0] * 6
    error = refusal(state)
    assert (error.field, error.problem) == ("population[0]", "not a permutation of 0..N-1")


@pytest.mark.parametrize("gene", [-1, 6, 2**70])
def test_a_gene_out_of_range_is_refused(gene):
    state = fresh("integer")
    state["population"][3][2] = gene
    assert refusal(state).field == "population"


def test_a_ragged_history_is_refused():
    state = fresh()
    state["history"]["elapsed"] = state["history"]["elapsed"][:-1]
    error = refusal(state)
    assert error.field == "history"
    assert "different lengths" in error.problem


def test_a_bad_config_inside_names_the_config_field():
    state = fresh()
    state["config"]["n"] = 8.5
    assert refusal(state).field == "config.n"
    state["config"] = {**fresh()["config"], "candidates": 10**18}
    assert refusal(state).field == "config.candidates"
    state["config"] = {**fresh()["config"], "seed": None}
    assert refusal(state).field == "config.seed"


@pytest.mark.parametrize("missing", ["population", "rng", "config", "seen"])
def test_a_missing_key_is_refused(missing):
    state = fresh()
    del state[missing]
    error = refusal(state)
    assert (error.field, error.problem) == (missing, "missing")


def test_an_unknown_key_and_a_non_mapping_are_refused():
    assert refusal({**fresh(), "extra": 1}).field == "extra"
    assert refusal([1, 2, 3]).field == "state"
    assert refusal(None).field == "state"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda rng: rng["state"].update(inc=2), "rng.state.inc"),
        (lambda rng: rng["state"].update(state=-1), "rng.state.state"),
        (lambda rng: rng["state"].update(state=2**128), "rng.state.state"),
        (lambda rng: rng.update(has_uint32=5), "rng.has_uint32"),
        (lambda rng: rng.update(uinteger="x"), "rng.uinteger"),
        (lambda rng: rng.pop("uinteger"), "rng"),
        (lambda rng: rng.update(state=[1, 2]), "rng.state"),
    ],
)
def test_a_garbage_random_state_is_refused(change, field):
    state = fresh()
    change(state["rng"])
    assert refusal(state).field == field


def test_a_changed_count_is_refused_by_the_cross_checks_or_the_digest():
    state = fresh()
    state["evaluations"] += 1
    assert refusal(state).field == "history.evaluations"
    state = fresh()
    state["stagnant"] = max(0, state["stagnant"] - 1) if state["stagnant"] else 1
    assert refusal(state).field == "stagnant"
    state = fresh()
    state["history"]["mean_fitness"][2] += 1.0
    assert refusal(state).field == "digest"


def test_a_resumed_run_may_change_its_budget_and_keep_its_digest():
    state = fresh()
    state["config"]["generations"] = 1000
    state["config"]["time_limit"] = 60.0
    resumed = GeneticAlgorithm.from_state(state)
    assert resumed.config.generations == 1000
    resumed.step_many(50)
    assert resumed.snapshot.generation == 57
    state = fresh()
    state["config"]["seed"] += 1
    assert refusal(state).field == "digest"


def test_a_small_file_never_allocates_what_its_config_declares(monkeypatch):
    # A huge machine, so that the config alone is allowed: the checkpoint must still be
    # refused before anything of the declared size exists.
    monkeypatch.setattr("engine.config.memory_budget.physical_memory", lambda: 2**50)
    for declared in ({"n": 10**8}, {"population": 10**8}, {"n": 10**6, "population": 10**4}):
        state = fresh()
        state["config"] = {**state["config"], **declared}
        state["evaluations"] = 10**12
        text = json.dumps(state)
        assert len(text) < 8_000
        tracemalloc.start()
        try:
            with pytest.raises(CheckpointError) as caught:
                GeneticAlgorithm.from_state(json.loads(text))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert caught.value.field.startswith("population")
        assert peak < 2**20, f"{declared}: {peak:,} bytes"


# --- The property: a damaged checkpoint resumes exactly or raises CheckpointError. ---

GARBAGE = st.sampled_from(
    [None, True, False, 0, -1, 1.5, math.nan, math.inf, -math.inf, 2**64, 2**200, "x", "", [], {}]
)
FACTORS = st.sampled_from([-1, 0, 2, 0.5, 1e300, math.nan, math.inf, 1])


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a nested JSON value (keys of mappings, indices of short lists)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index in sorted({0, 1, len(value) - 1} & set(range(len(value)))):
            found += paths(value[index], (*prefix, index))
    return found


def parent_of(state: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        state = state[key]
    return state


def scaled(value: Any, factor: float) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    try:
        result = value * factor
    except OverflowError:
        return math.inf
    if isinstance(value, int) and isinstance(result, float) and math.isfinite(result):
        return int(result) if result.is_integer() else result
    return result


@st.composite
def damaged(draw: st.DrawFn) -> tuple[Any, str, int]:
    name = draw(st.sampled_from(list(CONFIGS)))
    pause = draw(st.sampled_from(PAUSES))
    state = fresh(name, pause)
    for _ in range(draw(st.integers(1, 2))):
        places = [p for p in paths(state) if p]
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = parent_of(state, path)
        key = path[-1]
        value = parent[key]
        kind = draw(
            st.sampled_from(["drop", "garbage", "scale", "truncate", "extend", "reshape", "dup"])
        )
        if kind == "drop" and isinstance(parent, dict):
            del parent[key]
        elif kind == "garbage":
            parent[key] = draw(GARBAGE)
        elif kind == "scale":
            parent[key] = scaled(value, draw(FACTORS))
        elif kind == "truncate" and isinstance(value, list) and value:
            parent[key] = value[: draw(st.integers(0, len(value) - 1))]
        elif kind == "extend" and isinstance(value, list) and value:
            parent[key] = value + copy.deepcopy(value[-draw(st.integers(1, len(value))) :])
        elif kind == "reshape" and isinstance(value, list) and value and isinstance(value[0], list):
            flat = [gene for row in value for gene in row]
            transposed = [list(column) for column in zip(*value, strict=False)]
            parent[key] = draw(st.sampled_from([flat, [flat], transposed]))
        elif kind == "dup" and isinstance(value, list) and len(value) > 1:
            # A repeated first element: a duplicate gene in a permutation row, a repeated row.
            parent[key] = [value[0], *value[:-1]]
    return state, name, pause


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_a_damaged_checkpoint_resumes_exactly_or_raises_checkpoint_error(case):
    state, name, pause = case
    try:
        GeneticAlgorithm.from_state(copy.deepcopy(state))
    except CheckpointError:
        return
    assert_resumes_exactly(state, name, pause)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_without_a_digest_damage_is_refused_or_the_run_goes_on_without_crashing(case):
    # A checkpoint without a digest may be changed into another valid run; it must still
    # either be refused with CheckpointError or resume and step like any run.
    state, _, _ = case
    if isinstance(state, dict):
        state.pop("digest", None)
    try:
        resumed = GeneticAlgorithm.from_state(state)
    except CheckpointError:
        return
    resumed.step_many(3)
    assert read_checkpoint(resumed.state()).generation == resumed.snapshot.generation
