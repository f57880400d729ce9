"""Counts that cannot mean anything on the board asked for are refused before any work.

Each count-like field of the config is held to what it can mean for N and the population: tries
past every possible move (``candidates``, ``local-search-candidates``), a swap budget past every
conflict a board can have (``local-search``), an elite or a tournament past the population, and
children, boards or populations past the machine's memory. A huge value ends at once with exit
2 naming the field and what is allowed; a value at the limit runs. The rules are the config's
own, so the dashboard's form (``Config.check``) and sweep plans refuse the same values.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import Config, ConfigError
from tui.cli.command_line import main
from tui.lab.sweep.plan import build_plan, spec_from_flags
from tui.lab.sweep.plan_error import PlanError

ROOT = Path(__file__).resolve().parents[2]
"""The repository, where ``python -m tui`` finds the package."""

HUGE = str(2**62)
"""The largest whole number the config takes at all."""

WAIT_LIMIT = 60.0
"""Seconds a refusal may take (generous: the machine is shared; a run that goes on fails)."""

REFUSALS = {
    "candidates": ([], "a whole number between 1 and 4,032: 64 tries for each of the 63"),
    "local-search-candidates": (
        ["--local-search", "8"],
        "a whole number between 1 and 4,032: 64 tries for each of the 63 partner columns",
    ),
    "local-search": ([], "a whole number between 0 (off) and 2,016: each swap"),
    "elitism": (["--survivor", "generational"], "between 0 and population - 1 (39)"),
    "tournament-size": ([], "between 1 and the population (40)"),
    "offspring": ([], "this machine allows"),
    "population": ([], "this machine allows"),
    "generations": ([], None),
    "max-evals": ([], None),
    "stagnation": ([], None),
}
"""Each count flag, the flags that make it matter, and what its refusal at 2**62 says (None:
a budget, which may be as large as 2**62: a stop rule that never fires costs nothing)."""


@pytest.mark.parametrize("flag", sorted(REFUSALS))
def test_a_huge_count_is_refused_at_once_naming_its_limit(flag: str) -> None:
    extra, allowed = REFUSALS[flag]
    value = HUGE if allowed is not None else str(2**62 + 1)
    done = subprocess.run(
        [sys.executable, "-m", "tui", "solve", "--n", "64", "--seed", "1", *extra,
         f"--{flag}", value],
        capture_output=True, text=True, timeout=WAIT_LIMIT, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"queens: error: --{flag}: {value} is not allowed; ")
    assert (allowed or "a whole number <= 2**62") in done.stderr
    assert done.stderr.count("\n") == 1


AT_THE_LIMIT = {
    "candidates": (["--candidates", "4032"], "candidates"),
    "local-search-candidates": (
        ["--local-search", "8", "--local-search-candidates", "4032"],
        "local_search_candidates",
    ),
    "local-search": (["--local-search", "2016"], "local_search"),
    "elitism": (["--survivor", "generational", "--elitism", "39"], "elitism"),
    "tournament-size": (["--tournament-size", "40"], "tournament_size"),
}
"""Flags at their limit for N = 64 and the default population of 40, and the field they set."""


@pytest.mark.parametrize("case", sorted(AT_THE_LIMIT))
def test_a_count_at_its_limit_runs(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    flags, name = AT_THE_LIMIT[case]
    code = main(["solve", "--n", "64", "--seed", "1", "--generations", "2", *flags])
    assert code in (0, 1), capsys.readouterr().err
    given = {
        flag.removeprefix("--"): value for flag, value in zip(flags[::2], flags[1::2], strict=True)
    }
    at_limit = Config.from_mapping({"n": 64, **given})
    # One past the limit is refused, naming the field.
    with pytest.raises(ConfigError) as caught:
        at_limit.replace(**{name: getattr(at_limit, name) + 1})
    assert caught.value.field == name


@pytest.mark.parametrize(
    ("encoding", "crossover", "choices"),
    [("permutation", "ox", 11), ("integer", "single-point", 12), ("squares", "one-gene", 144)],
)
def test_the_mutation_s_tries_are_held_to_the_moves_of_the_encoding(
    encoding: str, crossover: str, choices: int
) -> None:
    config = Config(n=12, encoding=encoding, crossover=crossover, candidates=64 * choices)
    with pytest.raises(ConfigError, match=f"64 tries for each of the {choices:,} "):
        config.replace(candidates=64 * choices + 1)


def test_a_one_queen_board_keeps_its_default_tries() -> None:
    config = Config(n=1)
    assert (config.candidates, config.local_search_candidates) == (8, 16)
    assert Config(n=1, local_search=1, local_search_candidates=64).local_search == 1


def test_the_form_and_sweep_plans_refuse_the_same_counts() -> None:
    errors = Config.check({"n": "64", "local_search": "8", "local_search_candidates": HUGE})
    assert [error.field for error in errors] == ["local_search_candidates"]
    assert "between 1 and 4,032" in errors[0].allowed
    spec = spec_from_flags(
        ["local_search_candidates=16,5000"],
        [],
        "64",
        "1",
        {"local_search": "8", "max_evals": "100"},
    )
    with pytest.raises(PlanError) as caught:
        build_plan(spec)
    assert caught.value.entry == "local-search-candidates"
    assert "between 1 and 4,032" in caught.value.allowed
