"""A flag the chosen operators never read is refused, on the command line and in sweep plans.

``--tournament-size 1000 --selection best-2-of-5`` used to run as if the flag were not there.
Only what is given counts: a default, or a preset's value, that the operators do not read is
no one's choice. The table of which field matters for which operator is the engine's
(:mod:`engine.config.field_uses`), the one the dashboard's form dims its fields by.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Config
from engine.config.field_uses import APPLIES_WHEN, APPLIES_WHEN_ON
from tui.cli.command_line import main
from tui.lab.rerun_line import config_flags
from tui.lab.sweep.plan import build_plan, spec_from_flags
from tui.lab.sweep.plan_document import spec_from_file
from tui.lab.sweep.plan_error import PlanError
from tui.lab.sweep.task import DETERMINISTIC_FIELDS, run_task

UNREAD = {
    "tournament-size": (["--tournament-size", "1000", "--selection", "best-2-of-5"], "tournament"),
    "gene-rate": (["--gene-rate", "0.5", "--mutation", "swap"], "shuffle-indexes"),
    "candidates": (["--candidates", "4", "--mutation", "swap"], "conflict"),
    "elitism": (["--elitism", "3", "--survivor", "plus"], "generational"),
    "local-search-candidates": (["--local-search-candidates", "8"], "local-search above 0"),
}
"""Each field only some operators read, given while another is chosen, and what reads it."""


def test_every_field_of_the_table_is_tried() -> None:
    assert {name.replace("_", "-") for name in [*APPLIES_WHEN, *APPLIES_WHEN_ON]} == set(UNREAD)


@pytest.mark.parametrize("field", sorted(UNREAD))
def test_a_flag_the_operators_ignore_is_refused_naming_what_reads_it(
    field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    flags, reader = UNREAD[field]
    code = main(["solve", "--n", "8", "--seed", "1", "--generations", "1", *flags])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"queens: error: --{field}: ")
    assert f"only {reader}" in err
    assert f"leave {field} out" in err
    assert err.count("\n") == 1


def test_a_preset_s_operator_is_named_as_the_preset_s(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--preset", "queens-ai", "--tournament-size", "3"]) == 2
    assert "the selection is best-2-of-5 (the queens-ai preset's)" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags",
    [
        ["--selection", "best-2-of-5"],  # the default tournament size, not given
        ["--preset", "deap-nqueens", "--selection", "rank"],  # the preset's size, not given
        ["--tournament-size", "5", "--selection", "tournament"],
        ["--local-search", "4", "--local-search-candidates", "8"],
    ],
)
def test_defaults_and_presets_values_are_not_choices(
    flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["solve", "--n", "8", "--seed", "1", "--generations", "1", *flags])
    assert code in (0, 1), capsys.readouterr().err


def test_a_plan_that_sets_a_field_no_config_reads_is_refused(tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text("seeds = 1\nmax_evals = 100\n[grid]\nelitism = [1, 2]\n", encoding="utf-8")
    with pytest.raises(PlanError) as caught:
        build_plan(spec_from_file(plan))
    assert caught.value.entry == "elitism"
    assert "only generational survivor reads it" in caught.value.allowed
    assert f"in {plan}, line 4" in caught.value.allowed
    spec = spec_from_flags(
        ["selection=roulette,rank"], [], "8", "1", {"tournament_size": "5", "max_evals": "100"}
    )
    with pytest.raises(PlanError, match="selection: roulette, rank"):
        build_plan(spec)


def test_a_plan_whose_operator_axis_reads_the_field_in_some_cells_runs() -> None:
    spec = spec_from_flags(
        ["selection=tournament,roulette"],
        [],
        "8",
        "1",
        {"tournament_size": "5", "max_evals": "100"},
    )
    assert len(build_plan(spec).cells) == 2


def test_a_rerun_line_leaves_out_what_the_run_never_reads() -> None:
    # The dashboard's form keeps a dimmed field's value; its line must still run, the same run.
    config = Config(n=8, selection="roulette", tournament_size=7, seed=5, max_evals=2000)
    flags = config_flags(config)
    assert "--tournament-size" not in flags
    rerun = Config.from_mapping(
        {
            flag.removeprefix("--"): value
            for flag, value in zip(flags[::2], flags[1::2], strict=True)
        }
    )
    first, second = run_task(config.to_dict(), 5), run_task(rerun.to_dict(), 5)
    assert {f: first[f] for f in DETERMINISTIC_FIELDS} == {
        f: second[f] for f in DETERMINISTIC_FIELDS
    }
