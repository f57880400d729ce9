"""Sweep plans: --grid, TOML plan files, seeds, budgets and bounds, checked before any run."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config.presets import PRESETS
from tui.lab.sweep.fingerprint import config_fingerprint
from tui.lab.sweep.plan import (
    MAX_TASKS,
    SeedRange,
    build_plan,
    parse_seeds,
    plan_from_dict,
    spec_from_flags,
)
from tui.lab.sweep.plan_document import spec_from_file
from tui.lab.sweep.plan_error import PlanError


def plan_of(grid: list[str], presets: list[str] = [], n: str | None = None, **fixed: object):  # type: ignore[no-untyped-def]  # noqa: B006
    return build_plan(spec_from_flags(grid, presets, n, "3", fixed))


def test_axes_multiply_into_cells_in_order() -> None:
    plan = plan_of(["mutation_rate=0.5,1.0"], ["default", "queens-ai"], "8,16", max_evals="5000")
    assert [axis.name for axis in plan.axes] == ["preset", "n", "mutation_rate"]
    assert len(plan.cells) == 8
    assert plan.tasks == 24
    first, last = plan.cells[0], plan.cells[-1]
    assert first.values == {"preset": "default", "n": 8, "mutation_rate": 0.5}
    assert last.values == {"preset": "queens-ai", "n": 16, "mutation_rate": 1.0}
    assert first.config["max_evals"] == 5000
    assert last.config["population"] == PRESETS["queens-ai"].config(16).population
    assert len({cell.fingerprint for cell in plan.cells}) == 8


def test_a_fingerprint_ignores_the_seed_and_how_the_config_was_written() -> None:
    preset = PRESETS["queens-ai"].config(16)
    spelled_out = {name: value for name, value in preset.to_dict().items() if name != "seed"}
    assert config_fingerprint(preset.to_dict()) == config_fingerprint(spelled_out)
    assert config_fingerprint(preset.replace(seed=5).to_dict()) == config_fingerprint(spelled_out)
    assert config_fingerprint(preset.replace(mutation_rate=0.5).to_dict()) != config_fingerprint(
        spelled_out
    )
    again = plan_of(["mutation_rate=0.5,1.0"], n="8", max_evals="5000")
    assert (
        again.fingerprint
        == plan_of(["mutation-rate=0.5, 1.0"], n="8", max_evals="5000").fingerprint
    )


def test_the_plan_survives_the_store_round_trip() -> None:
    plan = plan_of(["crossover_rate=0.1,0.9"], ["default"], "8,10", generations="50")
    again = plan_from_dict(plan.to_dict())
    assert again.fingerprint == plan.fingerprint
    assert again.cells == plan.cells


@pytest.mark.parametrize(
    ("text", "first", "count"),
    [("5", 0, 5), ("100-149", 100, 50), ("7-7", 7, 1), ("1_000", 0, 1000), (12, 0, 12)],
)
def test_seeds_are_a_count_or_a_range(text: object, first: int, count: int) -> None:
    assert parse_seeds(text) == SeedRange(first, count)
    assert list(parse_seeds(text)) == list(range(first, first + count))


@pytest.mark.parametrize("text", ["0", "-3", "5-2", "many", "", True, 2.5, "1000000000", "3-"])
def test_bad_seeds_are_refused_naming_the_value(text: object) -> None:
    with pytest.raises(PlanError, match=r"^seeds: "):
        parse_seeds(text)


@pytest.mark.parametrize(
    ("grid", "fixed", "message"),
    [
        (["mutaton_rate=0.1"], {}, "mutaton-rate: 'mutaton_rate=0.1' is not allowed; known fields"),
        (["crossover=ox,pmxx"], {}, "crossover: 'pmxx' is not allowed; choose one of"),
        (["mutation_rate=0.5,high"], {}, "mutation-rate: 'high' is not allowed; a number"),
        (["mutation_rate=0.5,2"], {}, "mutation-rate: 2.0 is not allowed; a probability"),
        (["mutation_rate="], {}, "mutation-rate: '' is not allowed; a comma-separated list"),
        (["mutation_rate=0.5,,1"], {}, "mutation-rate: '0.5,,1' is not allowed"),
        (["mutation_rate"], {}, "grid: 'mutation_rate' is not allowed; FIELD=V1,V2"),
        (["seed=1,2"], {}, "seed: 'seed=1,2' is not allowed; give the seeds with seeds"),
        (["n=8,3"], {}, "n: 3 is not allowed"),
        (["n=8"], {"max_evals": "-5"}, "max-evals: -5 is not allowed"),
    ],
)
def test_a_bad_grid_names_the_field_and_the_value(
    grid: list[str], fixed: dict[str, object], message: str
) -> None:
    fixed = {"generations": "10", **fixed}
    with pytest.raises(PlanError) as caught:
        build_plan(spec_from_flags(grid, [], None, "3", fixed))
    assert str(caught.value).startswith(message)
    assert "(from the command line)" in str(caught.value)


def test_a_config_that_may_never_stop_is_refused() -> None:
    with pytest.raises(PlanError, match=r"^budget: .*cell n=8.*may never stop"):
        build_plan(spec_from_flags([], [], "8", "3", {}))
    with pytest.raises(PlanError, match=r"cell preset=default.*may never stop"):
        build_plan(spec_from_flags([], ["default", "deap-nqueens"], None, "3", {}))
    # A deterministic budget, or a time limit (flagged in the report), is enough.
    for fixed in ({"max_evals": "100"}, {"stagnation": "5"}, {"time_limit": "1"}):
        assert build_plan(spec_from_flags([], [], "8", "3", fixed)).tasks == 3
    # deap-nqueens has its own (100 generations).
    assert build_plan(spec_from_flags([], ["deap-nqueens"], None, "3", {})).tasks == 3


def test_a_cell_that_does_not_fit_names_the_cell() -> None:
    with pytest.raises(PlanError, match=r"^n: 10 .*supports N = 8.*cell preset=queens-ai, n=10"):
        build_plan(spec_from_flags([], ["queens-ai"], "8,10", "3", {}))


def test_too_many_cells_or_runs_are_refused_before_anything_is_allocated() -> None:
    many = ",".join(str(n) for n in range(4, 204))
    with pytest.raises(PlanError, match=r"^grid: 40000 is not allowed; at most 10,000"):
        build_plan(spec_from_flags([f"population={many}"], [], many, "1", {"generations": "1"}))
    with pytest.raises(PlanError, match=f"at most {MAX_TASKS:,} runs in all"):
        build_plan(spec_from_flags([], [], "8,10", str(MAX_TASKS), {"generations": "1"}))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "plan.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_plan_file_gives_the_same_sweep_as_the_flags(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'preset = ["default", "queens-ai"]\nn = [8, 16]\nseeds = "0-2"\nmax_evals = 5000\n'
        "\n[grid]\nmutation_rate = [0.5, 1.0]\n",
    )
    from_file = build_plan(spec_from_file(path))
    from_flags = plan_of(
        ["mutation_rate=0.5,1.0"], ["default", "queens-ai"], "8,16", max_evals="5000"
    )
    assert from_file.fingerprint == from_flags.fingerprint
    # Flags given with a file win over it.
    spec = spec_from_flags([], [], "8", "5", {}, spec_from_file(path))
    plan = build_plan(spec)
    assert plan.seeds == SeedRange(0, 5)
    assert {cell.values["n"] for cell in plan.cells} == {8}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "seeds = 3\nmax_evals = 100\n\n[grid]\nmutaton_rate = [0.1]\n",
            r"mutaton-rate: \[0.1\] is not allowed; known fields .*line 5",
        ),
        (
            "seeds = 3\nmax_evals = 100\n[grid]\ncrossover = ['ox', 'pmxx']\n",
            "crossover: 'pmxx' is not allowed.*line 4",
        ),
        (
            "seeds = 3\nmax_evals = 100\ngrid = { mutation_rate = [0.5, 'x'] }\n",
            "mutation-rate: 'x' .*line 3",
        ),
        ("seeds = 3\n\n\nmax_evals = 'lots'\n", "max-evals: 'lots' .*line 4"),
        ("seeds = 0\nmax_evals = 1\n", "seeds: 0 is not allowed.*line 1"),
        ("seeds = 3\nmax_evals = 10\nwidth = 3\n", "width: 3 is not allowed; known fields.*line 3"),
        (
            "seeds = 3\nmax_evals = 10\nn = []\n",
            "n: \\[\\] is not allowed; a non-empty list.*line 3",
        ),
        ("seeds = 3\nmax_evals = 10\npreset = ['nope']\n", "preset: 'nope' is not allowed.*line 3"),
        ("seeds = 3\nmax_evals = = 10\n", "plan: .* valid TOML .*line 2"),
    ],
)
def test_a_bad_plan_file_names_the_field_the_value_the_file_and_the_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(PlanError, match=message) as caught:
        build_plan(spec_from_file(path))
    assert "plan.toml" in str(caught.value)


def test_a_missing_plan_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match=r"^plan: .*no-such.toml.* is not allowed; a readable"):
        spec_from_file(tmp_path / "no-such.toml")


# Fingerprints written by 0.1.0, before the config's later fields (one_best, headless_chicken):
# a sweep kept then is found again, and resumes, only if these stay the same.
FINGERPRINTS_OF_0_1_0 = {
    "4ca3a9ed7e3a175f08e6c29ecf3ab5cc63087f639e3c2235557d276c892e84c7": {},
    "f93209892d1225e6da1d70a68a13d8fe1d283eead077312a6cc3ff1f3492d3b1": {
        "n": 32,
        "mutation": "swap",
        "crossover_rate": 0.5,
    },
}


def test_a_sweep_kept_by_an_earlier_version_keeps_its_fingerprints() -> None:
    for fingerprint, values in FINGERPRINTS_OF_0_1_0.items():
        assert config_fingerprint(values) == fingerprint
    # A later field set to anything but its default is a different config.
    assert config_fingerprint({"n": 32, "headless_chicken": True}) not in FINGERPRINTS_OF_0_1_0
