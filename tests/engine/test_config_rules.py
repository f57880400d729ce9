"""Config validation: each rule refuses a bad value, naming the field, the value and the rule."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.config.config import FIELDS, Config, config_errors, parse_field
from engine.errors import ConfigError


def refusal(**values: Any) -> ConfigError:
    """The error building a config with these values raises."""
    with pytest.raises(ConfigError) as caught:
        Config(**values)
    return caught.value


def assert_names(error: ConfigError, field: str, value: object, *allowed: str) -> None:
    assert error.name == field
    assert error.value == value
    assert str(error) == f"{field}: {value!r} is not allowed; {error.allowed}"
    for words in allowed:
        assert words in error.allowed


@pytest.mark.parametrize(
    ("values", "field", "value", "allowed"),
    [
        ({"n": 0}, "n", 0, ">= 1"),
        ({"n": -5}, "n", -5, ">= 1"),
        ({"n": 2}, "n", 2, "no solution"),
        ({"n": 3}, "n", 3, "no solution"),
        ({"population": 1}, "population", 1, ">= 2"),
        ({"generations": 0}, "generations", 0, ">= 1"),
        ({"max_evals": 0}, "max-evals", 0, ">= 1"),
        ({"stagnation": 0}, "stagnation", 0, ">= 1"),
        ({"candidates": 0}, "candidates", 0, ">= 1"),
        ({"offspring": 0}, "offspring", 0, ">= 1"),
        ({"seed": -1}, "seed", -1, ">= 0"),
        ({"time_limit": 0.0}, "time-limit", 0.0, "> 0"),
        ({"crossover_rate": 1.5}, "crossover-rate", 1.5, "between 0 and 1"),
        ({"crossover_rate": -0.1}, "crossover-rate", -0.1, "between 0 and 1"),
        ({"mutation_rate": 2.0}, "mutation-rate", 2.0, "between 0 and 1"),
        ({"gene_rate": -0.5}, "gene-rate", -0.5, "between 0 and 1"),
        ({"population": 10, "tournament_size": 11}, "tournament-size", 11, "population (10)"),
        ({"tournament_size": 0}, "tournament-size", 0, "between 1"),
        ({"population": 10, "elitism": 10}, "elitism", 10, "population - 1 (9)"),
        ({"elitism": -1}, "elitism", -1, "between 0"),
        (
            {"population": 10, "survivor": "generational", "elitism": 2, "offspring": 7},
            "offspring",
            7,
            "= 8 children",
        ),
        ({"survivor": "generational", "unique": True}, "unique", True, "plus or steady-state"),
        ({"children_per_couple": 3}, "children-per-couple", 3, "1 or 2"),
        ({"children_per_couple": 0}, "children-per-couple", 0, "1 or 2"),
        ({"harvest": True}, "harvest", True, "stop-when-solved off"),
        (
            {"survivor": "generational", "clone_uncrossed": False},
            "clone-uncrossed",
            False,
            "full set of children",
        ),
        ({"crossover": "single-point"}, "crossover", "single-point", "permutation encoding"),
        ({"crossover": "one-gene"}, "crossover", "one-gene", "permutation encoding"),
        ({"mutation": "random-reset"}, "mutation", "random-reset", "permutation encoding"),
        ({"encoding": "integer"}, "crossover", "ox", "integer encoding needs one of"),
        ({"encoding": "integer", "crossover": "pmx"}, "crossover", "pmx", "one-gene"),
        (
            {"encoding": "integer", "crossover": "single-point", "fitness": "collisions"},
            "fitness",
            "collisions",
            "permutation encoding",
        ),
        ({"selection": "roulette", "fitness": "attacked"}, "selection", "roulette", "pairs"),
        ({"selection": "roulette", "fitness": "excess"}, "selection", "roulette", "non-negative"),
        ({"n": 100_000, "population": 10**7}, "population", 10**7, "GiB"),
        ({"encoding": "binary"}, "encoding", "binary", "permutation, integer, squares"),
        ({"fitness": "happiness"}, "fitness", "happiness", "choose one of pairs"),
        ({"selection": "lottery"}, "selection", "lottery", "tournament"),
        ({"crossover": "blend"}, "crossover", "blend", "cut-crossfill"),
        ({"mutation": "gauss"}, "mutation", "gauss", "conflict"),
        ({"survivor": "everyone"}, "survivor", "everyone", "steady-state"),
    ],
)
def test_every_rule_names_field_value_and_what_is_allowed(values, field, value, allowed):
    assert_names(refusal(**values), field, value, allowed)


@pytest.mark.parametrize(
    "values",
    [
        {"n": 1},
        {"n": 4, "population": 2, "tournament_size": 2},
        {"crossover_rate": 0.0, "mutation_rate": 1.0, "gene_rate": 0.0},
        {"selection": "roulette", "fitness": "linear"},
        {"selection": "tournament", "fitness": "attacked"},
        {"encoding": "squares", "crossover": "one-gene", "mutation": "random-reset"},
        {"encoding": "integer", "crossover": "single-point", "mutation": "conflict"},
        {"survivor": "generational", "elitism": 39, "offspring": 1},
        {"survivor": "steady-state", "unique": True},
        {"population": 5, "elitism": 4, "tournament_size": 5},
        {"children_per_couple": 1, "clone_uncrossed": False},
        {"harvest": True, "stop_when_solved": False},
    ],
)
def test_the_edges_of_each_rule_are_allowed(values):
    assert config_errors(Config(**values)) == []


def test_replace_validates_again():
    with pytest.raises(ConfigError) as caught:
        Config().replace(population=1)
    assert caught.value.field == "population"


def test_to_dict_and_from_mapping_round_trip():
    config = Config(n=12, encoding="squares", crossover="one-gene", seed=9, time_limit=2.5)
    assert Config.from_mapping(config.to_dict()) == config


def test_from_mapping_reads_dashed_names_and_text():
    config = Config.from_mapping(
        {"n": "10", "crossover-rate": "0.5", "unique": "yes", "seed": "none", "survivor": "plus"}
    )
    assert (config.n, config.crossover_rate, config.unique, config.seed) == (10, 0.5, True, None)


def test_from_mapping_refuses_an_unknown_field():
    with pytest.raises(ConfigError) as caught:
        Config.from_mapping({"n": 8, "mutation_strength": 3})
    assert_names(caught.value, "mutation-strength", 3, "known fields are", "crossover_rate")


def test_from_mapping_refuses_a_badly_typed_value():
    with pytest.raises(ConfigError) as caught:
        Config.from_mapping({"population": "lots"})
    assert_names(caught.value, "population", "lots", "whole number")


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("n", "eight", "a whole number is expected"),
        ("n", "8.5", "a whole number is expected"),
        ("n", 8.5, "a whole number is expected"),
        ("n", True, "a whole number is expected"),
        ("generations", "forever", "a whole number or none is expected"),
        ("crossover_rate", "half", "a number is expected"),
        ("crossover_rate", None, "a number is expected"),
        ("mutation_rate", False, "a number is expected"),
        ("time_limit", "soon", "a number or none is expected"),
        ("unique", "maybe", "true or false is expected"),
        ("encoding", 3, "a name is expected"),
    ],
)
def test_parse_field_refuses_junk(name, value, allowed):
    with pytest.raises(ConfigError) as caught:
        parse_field(name, value)
    assert_names(caught.value, name.replace("_", "-"), value, allowed)


@pytest.mark.parametrize(
    ("name", "value", "parsed"),
    [
        ("n", " 12 ", 12),
        ("n", "1_000", 1000),
        ("n", 16.0, 16),
        ("seed", "None", None),
        ("seed", "", None),
        ("generations", "off", None),
        ("time_limit", "1.5", 1.5),
        ("crossover_rate", "0.25", 0.25),
        ("unique", "ON", True),
        ("stop_when_solved", "no", False),
        ("encoding", " squares ", "squares"),
    ],
)
def test_parse_field_reads_what_people_type(name, value, parsed):
    assert parse_field(name, value) == parsed


def test_check_reports_every_problem_at_once_without_raising():
    errors = Config.check(
        {"n": "abc", "population": "1", "crossover-rate": "2", "fitness": "nope", "colour": "red"}
    )
    by_field = {error.field: error for error in errors}
    assert {"n", "population", "crossover_rate", "fitness", "colour"} <= set(by_field)
    # The population of 1 also makes the default tournament of 2 too big.
    assert set(by_field) - {"n", "population", "crossover_rate", "fitness", "colour"} == {
        "tournament_size"
    }
    # Each field is reported once: the unparseable n is not checked again with a default.
    assert len(errors) == len(by_field)
    assert by_field["n"].value == "abc"
    assert by_field["population"].value == 1
    assert by_field["crossover_rate"].value == 2.0
    assert by_field["colour"].allowed == "not a config field"


def test_check_of_good_values_is_empty():
    assert Config.check({}) == []
    assert Config.check({"n": "12", "population": "30", "encoding": "permutation"}) == []


def test_a_config_error_is_a_value_error():
    assert isinstance(refusal(n=0), ValueError)


def test_every_field_has_help_and_every_name_field_its_choices():
    for name, field in FIELDS.items():
        assert field.metadata["help"], name
    for name in ("encoding", "fitness", "selection", "crossover", "mutation", "survivor"):
        choices = FIELDS[name].metadata["choices"]
        assert getattr(Config(), name) in choices
        assert len(choices) >= 2
    assert set(FIELDS) == {f.name for f in dataclasses.fields(Config)}


def test_derived_settings():
    assert Config().children_per_generation == 40
    assert Config(survivor="steady-state").children_per_generation == 2
    assert Config(offspring=7).children_per_generation == 7
    assert Config(n=8).shuffle_gene_rate == 0.25
    assert Config(n=1).shuffle_gene_rate == 1.0
    assert Config(gene_rate=0.1).shuffle_gene_rate == 0.1


def test_a_refusal_keeps_the_field_as_the_config_names_it_and_gives_its_flag() -> None:
    error = refusal(mutation_rate=2.0)
    assert error.field == "mutation_rate"
    assert hasattr(Config(), error.field)
    assert error.name == "mutation-rate"
    assert error.flag == "--mutation-rate"
    assert str(error).startswith("mutation-rate: 2.0 is not allowed; ")
