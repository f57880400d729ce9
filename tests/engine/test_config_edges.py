"""Config is one complete gate: types, memory, and runs that could never progress or end."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engine import Config, ConfigError, GeneticAlgorithm
from engine.config.config import ENCODINGS, fitting_operators
from engine.config.memory_budget import memory_needs, physical_memory


def refusal(**values: Any) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        Config(**values)
    return caught.value


@pytest.mark.parametrize(
    ("values", "field", "allowed"),
    [
        ({"n": 8.5}, "n", "a whole number is expected"),
        ({"n": True}, "n", "a whole number is expected"),
        ({"n": "8"}, "n", "a whole number is expected"),
        ({"population": np.float64(40.0)}, "population", "a whole number is expected"),
        ({"candidates": 2.5}, "candidates", "a whole number is expected"),
        ({"generations": 1.0}, "generations", "a whole number or None is expected"),
        ({"seed": False}, "seed", "a whole number or None is expected"),
        ({"unique": "no"}, "unique", "True or False is expected"),
        ({"unique": 0}, "unique", "True or False is expected"),
        ({"crossover_rate": True}, "crossover_rate", "a number is expected"),
        ({"crossover_rate": "0.5"}, "crossover_rate", "a number is expected"),
        ({"time_limit": 10**400}, "time_limit", "fits a float"),
        ({"time_limit": float("inf")}, "time_limit", "finite"),
        ({"time_limit": float("nan")}, "time_limit", "finite"),
        ({"encoding": 3}, "encoding", "a name (text) is expected"),
    ],
)
def test_config_itself_checks_types(values, field, allowed):
    error = refusal(**values)
    assert error.field == field
    assert allowed in error.allowed


def test_numpy_scalars_are_read_as_python_values():
    config = Config(
        n=np.int64(10),
        population=np.int32(30),
        crossover_rate=np.float32(0.5),
        unique=np.bool_(True),
        time_limit=3,
    )
    assert (config.n, config.population, config.unique, config.time_limit) == (10, 30, True, 3.0)
    assert type(config.n) is int and type(config.population) is int
    assert type(config.crossover_rate) is float and type(config.unique) is bool
    assert type(config.time_limit) is float
    # A normalised config equals one made of Python values, and round-trips through JSON.
    assert Config.from_mapping(config.to_dict()) == config


@pytest.mark.parametrize("values", [None, 5, "n=8", [("n", 8)]])
def test_from_mapping_refuses_what_is_not_a_mapping(values):
    with pytest.raises(ConfigError) as caught:
        Config.from_mapping(values)
    assert caught.value.field == "config"
    assert "mapping" in caught.value.allowed


def test_from_mapping_refuses_a_key_that_is_not_text():
    with pytest.raises(ConfigError) as caught:
        Config.from_mapping({1: 2})
    assert caught.value.field == "1"
    assert "text" in caught.value.allowed


def test_check_reports_a_key_that_is_not_text():
    errors = Config.check({1: 2, "n": "8"})  # type: ignore[dict-item]
    assert [error.field for error in errors] == ["1"]


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"n": np.int64(2**32)}, "n"),
        ({"n": 2**61}, "n"),
        ({"population": 10**9}, "population"),
        ({"n": 100_000, "candidates": 6_000_000}, "candidates"),
        ({"n": 10**6, "candidates": 10**7}, "candidates"),
        ({"offspring": 10**9, "mutation": "swap"}, "offspring"),
        ({"offspring": 10**8}, "offspring"),
        (
            {"n": 16, "harvest": True, "stop_when_solved": False, "max_evals": 10**12},
            "harvest",
        ),
        ({"unique": True, "generations": 10**12}, "unique"),
        ({"n": 64, "population": 100_000, "tournament_size": 100_000}, "tournament_size"),
    ],
)
def test_the_memory_estimate_blames_the_field_that_is_too_big(values, field, monkeypatch):
    monkeypatch.setattr("engine.config.memory_budget.physical_memory", lambda: 8 * 2**30)
    error = refusal(**values)
    assert error.field == field
    assert "GiB" in error.allowed


def test_the_estimate_is_plain_integers_so_nothing_overflows():
    # Validating must not allocate or overflow; the unchecked sizes are Python ints.
    needs = memory_needs(Config(unique=True, harvest=True, stop_when_solved=False, max_evals=9))
    assert set(needs) == {"population", "unique", "harvest"}
    assert all(type(size) is int for size, _ in needs.values())
    huge = Config.check({"candidates": str(10**18), "offspring": str(10**18)})
    # The candidates are past every move of the board (64 tries each), and the memory too.
    assert huge[0].field == "candidates"
    assert {error.field for error in huge} <= {"candidates", "offspring"}


@pytest.mark.parametrize(
    "field", ["seed", "local_search", "generations", "max_evals", "stagnation", "candidates"]
)
def test_whole_numbers_past_64_bits_are_refused_by_name(field):
    # A seed of 10^23 passed the checks and crashed the run store; a local search budget of
    # 2^64 overflowed numpy in the middle of a generation.
    error = refusal(**{field: 2**64})
    assert (error.field, error.value) == (field, 2**64)
    assert "2**62" in error.allowed
    if field in ("seed", "generations", "max_evals", "stagnation"):
        assert getattr(Config(**{field: 2**62}), field) == 2**62  # the bound itself is fine


def test_a_harvest_of_a_small_board_fits_and_a_bounded_unique_run_fits():
    assert memory_needs(Config(n=8, harvest=True, stop_when_solved=False))["harvest"][0] < 2**20
    assert Config(unique=True, generations=10**6).unique
    assert physical_memory() > 0


def test_a_run_that_can_never_make_a_child_is_refused():
    error = refusal(clone_uncrossed=False, crossover_rate=0.0)
    assert error.field == "crossover_rate"
    assert "clone-uncrossed" in error.allowed
    error = refusal(clone_uncrossed=False, fallback=True)
    assert error.field == "fallback"


def test_finding_all_solutions_past_the_known_totals_needs_a_budget():
    error = refusal(n=28, harvest=True, stop_when_solved=False)
    assert error.field == "harvest"
    for flag in ("--generations", "--max-evals", "--time-limit", "--stagnation"):
        assert flag in error.allowed
    for budget in ({"generations": 10}, {"max_evals": 10**4}, {"time_limit": 1.0}):
        assert Config(n=28, harvest=True, stop_when_solved=False, **budget).harvest
    # N = 27 has a known total, but storing all of them would need far too much memory.
    error = refusal(n=27, harvest=True, stop_when_solved=False)
    assert (error.field, "GiB" in error.allowed) == ("harvest", True)
    assert Config(n=27, harvest=True, stop_when_solved=False, time_limit=5.0).harvest


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_fitting_operators_make_a_valid_config_that_solves(encoding):
    operators = fitting_operators(encoding)
    assert set(operators) == {"crossover", "mutation", "fitness"}
    config = Config(n=8, encoding=encoding, seed=3, generations=3000, **operators)
    assert GeneticAlgorithm(config).run().stop_reason == "solved"


def test_fitting_operators_of_the_default_encoding_are_the_defaults():
    default = Config()
    assert fitting_operators("permutation") == {
        "crossover": default.crossover,
        "mutation": default.mutation,
        "fitness": default.fitness,
    }


def test_fitting_operators_refuses_an_unknown_encoding():
    with pytest.raises(ConfigError) as caught:
        fitting_operators("binary")
    assert caught.value.field == "encoding"


def test_the_memory_estimate_counts_the_local_search_and_the_greedy_start() -> None:
    from engine.operators.greedy_start import BYTES_PER_COLUMN
    from engine.operators.local_search import BYTES_PER_CHILD_GENE

    plain = Config(n=5000, population=20, mutation="swap", seed=1)
    memetic = plain.replace(local_search=50, greedy_start=True)

    def total(config: Config) -> int:
        return sum(size for size, _ in memory_needs(config).values())

    added = total(memetic) - total(plain)
    assert added >= 20 * 5000 * BYTES_PER_CHILD_GENE + 5000 * BYTES_PER_COLUMN
    described = " ".join(what for _, what in memory_needs(memetic).values())
    assert "local search" in described and "greedy start" in described
