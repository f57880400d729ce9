"""Every rerun line reruns its config: read back by the real ``queens solve`` parser, the line
gives the config it was written from, float for float.

The lab writes the lines and never imports the command line; this test imports both, to hold
the writer to the reader.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Final

import pytest
from hypothesis import example, given, reject, settings
from hypothesis import strategies as st

from engine import FIELDS, Config, ConfigError, fitting_operators
from engine.config.config import LARGEST_WHOLE_NUMBER
from engine.config.field_uses import unread_fields
from engine.config.presets import PRESETS
from tui.cli.command_line import build_parser, main
from tui.cli.config_flags import OPERATOR_FIELDS, config_from_args
from tui.lab.rerun_line import config_flags, flag_of, solve_flags, solve_line, value_word
from tui.lab.sweep.fingerprint import canonical_config, config_fingerprint
from tui.lab.sweep.plan import Cell, SweepPlan, build_plan, spec_from_flags
from tui.lab.sweep.report import rerun_command, run_records, summarize
from tui.lab.sweep.task import run_task

SMALL_COUNTS: Final = {
    "n": (1, 40),
    "population": (2, 60),
    "tournament_size": (1, 8),
    "candidates": (1, 16),
    "elitism": (0, 8),
    "children_per_couple": (1, 2),
    "local_search": (0, 20),
    "local_search_candidates": (1, 24),
    "offspring": (1, 120),
}
"""Bounds for the counts that size what a run allocates, so most drawn configs fit in memory;
the other whole numbers (budgets, the seed) are drawn up to the largest a config takes."""

AWKWARD_PROBABILITIES: Final = (0.123456789, 0.9, 0.1, 1 / 3, 0.0, 1.0, 5e-324, 1e-05, 0.7)
"""Probabilities whose short or rounded spellings differ from the float (or must not)."""

AWKWARD_SECONDS: Final = (1234567.5, 2.5, 1e-3, 123456789.123, 1e16, 3600.0)
"""Time limits: large, fractional, tiny, and whole floats."""


def _whole_numbers(name: str) -> st.SearchStrategy[int]:
    low, high = SMALL_COUNTS.get(name, (1, LARGEST_WHOLE_NUMBER))
    return st.integers(low, high) | st.sampled_from([low, high])


def _numbers(name: str) -> st.SearchStrategy[float]:
    if name == "time_limit":
        drawn = st.floats(min_value=0.0, max_value=1e18, exclude_min=True)
        return st.sampled_from(AWKWARD_SECONDS) | drawn
    return st.sampled_from(AWKWARD_PROBABILITIES) | st.floats(min_value=0.0, max_value=1.0)


def field_values(name: str) -> st.SearchStrategy[Any]:
    """Values of one config field, by its type and, for names, its choices."""
    field = FIELDS[name]
    annotation = str(field.type)
    kind = annotation.removesuffix(" | None")
    values: st.SearchStrategy[Any]
    if field.metadata["choices"]:
        values = st.sampled_from(field.metadata["choices"])
    elif kind == "bool":
        values = st.booleans()
    elif kind == "int":
        values = _whole_numbers(name)
    elif kind == "float":
        values = _numbers(name)
    else:
        raise AssertionError(f"no strategy for {name}: {annotation}")
    return st.none() | values if annotation.endswith(" | None") else values


def _repaired(values: dict[str, Any]) -> dict[str, Any] | None:
    """``values`` with each field a rule refuses set back (an operator to one that fits the
    encoding, anything else to its default), or ``None`` when that does not make them valid."""
    for _ in FIELDS:
        errors = Config.check(values)
        if not errors:
            return values
        for error in errors:
            name = error.field.replace("-", "_")
            if name in OPERATOR_FIELDS:
                values[name] = fitting_operators(values["encoding"])[name]
            elif name in FIELDS:
                values[name] = FIELDS[name].default
            else:
                return None
    return None


@st.composite
def configs(draw: st.DrawFn) -> Config:
    """Valid configs, every field drawn (the few rules a draw breaks are repaired)."""
    values = _repaired({name: draw(field_values(name)) for name in FIELDS})
    if values is None:
        reject()
    return Config(**values)


def parsed(line: str) -> Config:
    """The config ``queens solve`` runs for a command line, read by its own parser."""
    words = shlex.split(line)
    assert words[:2] == ["queens", "solve"]
    return config_from_args(build_parser(words[1:]).parse_args(words[1:]))


def exactly(config: Config) -> list[tuple[str, str, str]]:
    """Each field's name, type and repr: equal only when every float is the same float."""
    return [(name, type(value).__name__, repr(value)) for name, value in config.to_dict().items()]


def as_run(config: Config, preset: str | None = None) -> Config:
    """``config`` with each field its operators never read at the value under the flags (the
    preset's, or the default): a line leaves such a field out, and the run is the same."""
    under = {name: spec.default for name, spec in FIELDS.items()}
    if preset is not None:
        under |= PRESETS[preset].values(config.n)
    return config.replace(**{name: under[name] for name in unread_fields(config.to_dict())})


def cell_of(config: Config, preset: str | None) -> Cell:
    """A sweep cell for ``config`` as the plan builds one (the seed left out)."""
    document = canonical_config(config.to_dict())
    return Cell({}, preset, document, config_fingerprint(document))


# What a config's line says ------------------------------------------------------------------


def test_a_field_is_written_as_its_flag() -> None:
    assert flag_of("max_evals") == "--max-evals"
    assert flag_of("n") == "--n"


def test_a_float_is_written_as_the_float_it_is() -> None:
    assert value_word(0.123456789) == "0.123456789"
    assert value_word(1234567.5) == "1234567.5"
    assert value_word(0.9) == "0.9"
    assert value_word(None) == "none"
    assert value_word(2**62) == str(2**62)


def test_simple_values_keep_the_spelling_they_always_had() -> None:
    config = Config(
        n=12,
        population=50,
        time_limit=2.5,
        crossover_rate=0.9,
        mutation_rate=0.01,
        survivor="generational",
        clone_uncrossed=True,
        stop_when_solved=False,
        unique=False,
        greedy_start=True,
        seed=4,
    )
    assert solve_line(config_flags(config)) == (
        "queens solve --n 12 --population 50 --time-limit 2.5 --crossover-rate 0.9 "
        "--mutation-rate 0.01 --survivor generational --no-stop-when-solved --greedy-start "
        "--seed 4"
    )


def test_a_config_at_its_defaults_is_the_bare_command() -> None:
    assert config_flags(Config()) == []
    assert solve_line([]) == "queens solve"


# Every config comes back from its line -------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(configs())
@example(Config(crossover_rate=0.123456789, time_limit=1234567.5))
@example(Config(seed=LARGEST_WHOLE_NUMBER, max_evals=LARGEST_WHOLE_NUMBER, mutation_rate=5e-324))
def test_every_config_comes_back_from_its_line(config: Config) -> None:
    rebuilt = parsed(solve_line(config_flags(config)))
    assert rebuilt == as_run(config)
    assert exactly(rebuilt) == exactly(as_run(config))


@settings(max_examples=300, deadline=None)
@given(configs(), st.sampled_from(sorted(PRESETS)), st.integers(0, LARGEST_WHOLE_NUMBER))
def test_every_sweep_cell_comes_back_from_its_line(config: Config, preset: str, seed: int) -> None:
    # A cell with a preset is written as the preset and what differs from it, which may be a
    # field the preset sets and the cell leaves without a value (written "none").
    allowed = PRESETS[preset].allowed_n
    chosen = None if allowed is not None and config.n not in allowed else preset
    rebuilt = parsed(rerun_command(cell_of(config, chosen), seed))
    assert exactly(rebuilt) == exactly(as_run(config, chosen).replace(seed=seed))


def test_a_field_the_preset_sets_and_the_cell_clears_is_written_none() -> None:
    config = PRESETS["codeproject-2011"].config(8, generations=None, max_evals=5000)
    line = rerun_command(cell_of(config, "codeproject-2011"), 3)
    assert line == (
        "queens solve --preset codeproject-2011 --n 8 --generations none --max-evals 5000 --seed 3"
    )
    assert parsed(line) == config.replace(seed=3)


def test_a_preset_line_names_the_preset_first_and_the_seed_last() -> None:
    config = PRESETS["queens-ai"].config(16, mutation_rate=0.123456789)
    flags = solve_flags({**config.to_dict(), "seed": "S"}, preset="queens-ai", always=("n",))
    assert flags == [
        "--preset",
        "queens-ai",
        "--n",
        "16",
        "--mutation-rate",
        "0.123456789",
        "--seed",
        "S",
    ]


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(ConfigError):
        solve_flags(Config().to_dict(), preset="no-such-preset")


# A sweep's report reruns its cells -----------------------------------------------------------


def awkward_plan() -> SweepPlan:
    """Two cells: a probability and a time limit that six digits do not spell."""
    fixed = {"time_limit": "1234567.5", "max_evals": "3000"}
    return build_plan(spec_from_flags(["crossover_rate=0.123456789,0.9"], [], "8", "2", fixed))


def test_the_report_reruns_each_cell_exactly() -> None:
    plan = awkward_plan()
    assert {cell.config["crossover_rate"] for cell in plan.cells} == {0.123456789, 0.9}
    results = {
        (cell.fingerprint, seed): run_task(cell.config, seed)
        for cell in plan.cells
        for seed in plan.seeds
    }
    records = run_records(plan, results)
    runs = [(cell, seed) for cell in plan.cells for seed in plan.seeds]
    assert len(records) == len(runs)
    for record, (cell, seed) in zip(records, runs, strict=True):
        expected = Config.from_mapping({**cell.config, "seed": seed})
        assert exactly(parsed(record["rerun"])) == exactly(expected)
    for row in summarize(plan, results):
        assert parsed(row.rerun).replace(seed=None) == Config.from_mapping(row.cell.config)


def test_the_awkward_cell_s_line_repeats_its_run(capsys: pytest.CaptureFixture[str]) -> None:
    plan = awkward_plan()
    cell = next(cell for cell in plan.cells if cell.config["crossover_rate"] == 0.123456789)
    line = rerun_command(cell, 1)
    assert "--crossover-rate 0.123456789" in line
    assert "--time-limit 1234567.5" in line
    result = run_task(cell.config, 1)
    code = main([*shlex.split(line)[1:], "--json"])
    rerun = json.loads(capsys.readouterr().out)
    assert code == (0 if result["solved"] else 1)
    assert (rerun["generations"], rerun["evaluations"]) == (
        result["generations"],
        result["evaluations"],
    )
