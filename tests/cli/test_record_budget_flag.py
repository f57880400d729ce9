"""``--record-budget``: a size such as ``64MB`` on the commands that record; anything else is
exit 2 naming the flag, the value and what is allowed, before a store is touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.cli.command_line import main
from tui.lab.store import RunStore


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "--n", "8", "--record"],
        ["tui", "--n", "8"],
        ["replay", "1"],
        ["resume", "1"],
    ],
    ids=lambda words: words[0],
)
@pytest.mark.parametrize("value", ["64XB", "12", "2KB", "9999GB"])
def test_a_budget_that_is_no_size_is_refused_before_the_store_is_opened(
    command: list[str], value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "runs.sqlite3"
    code = main([*command, "--record-budget", value, "--store", str(store)])
    assert code == 2
    error = capsys.readouterr().err.strip()
    assert error == (
        f"queens: error: --record-budget: {value!r} is not allowed; a size from 64KB to 1024GB, "
        "such as 64MB or 512KB (KB, MB, GB: powers of 1024)"
    )
    assert not store.exists()


def test_a_budget_without_record_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--n", "8", "--record-budget", "1MB"]) == 2
    assert "record-budget: '1MB' is not allowed; only with --record" in capsys.readouterr().err


@pytest.mark.slow  # a long recorded run
def test_solve_records_within_the_budget_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "runs.sqlite3"
    flags = ["--n", "8", "--mutation-rate", "0", "--no-stop-when-solved", "--generations"]
    code = main(
        ["solve", *flags, "3000", "--seed", "1", "--record", "--record-budget", "256KB",
         "--store", str(store), "--json"]
    )  # fmt: skip
    assert code == 1
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    with RunStore.open(store) as opened:
        size = opened.run_size(run_id)
        assert size.stats == 3001 and size.bytes <= 256 * 2**10
        assert opened.run(run_id).keyframe_spacing > 16


@pytest.mark.slow  # a long recorded run
def test_a_budget_the_statistics_fill_ends_the_record_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "runs.sqlite3"
    flags = ["--n", "8", "--mutation-rate", "0", "--no-stop-when-solved", "--generations"]
    code = main(
        ["solve", *flags, "3000", "--seed", "1", "--record", "--record-budget", "64KB",
         "--store", str(store)]
    )  # fmt: skip
    assert code == 2
    assert "run 1 reached its record budget of 64KB at generation" in capsys.readouterr().err
    with RunStore.open(store) as opened:
        assert opened.run(1).status == "interrupted"
