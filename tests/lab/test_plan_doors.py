"""Plans that say nothing, or set what their operators ignore, are refused before anything runs.

An empty plan file (or one of comments, or an empty ``[grid]``) is a slip, not a wish for
twenty default runs: ``queens sweep FILE`` ends with one line, exit 2, naming the file, and
no store is made.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli.command_line import main

EMPTY_PLANS = {
    "empty": "",
    "blank lines": "\n\n   \n",
    "comments only": "# a plan to come\n# seeds = 20\n\n",
    "an empty grid": "# nothing yet\n[grid]\n",
}
"""Plan files that set no key, by what they hold."""


@pytest.mark.parametrize("kind", sorted(EMPTY_PLANS))
def test_a_plan_that_sets_nothing_is_refused_naming_the_file(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(EMPTY_PLANS[kind], encoding="utf-8")
    store = tmp_path / "s.sqlite3"
    code = main(["sweep", str(plan), "--store", str(store), "--workers", "1"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: plan: {str(plan)!r} is not allowed; ")
    assert "nothing to sweep" in captured.err
    assert captured.err.count("\n") == 1
    assert not store.exists()  # refused before the store was opened


def test_a_plan_that_sets_only_seeds_still_runs_the_default_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text("seeds = 2\nmax_evals = 2000\n", encoding="utf-8")
    code = main(["sweep", str(plan), "--store", str(tmp_path / "s.sqlite3"), "--workers", "1"])
    assert code == 0, capsys.readouterr().err
