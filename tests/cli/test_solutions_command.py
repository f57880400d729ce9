"""``queens solutions``: the exact search's output, its errors, its interruptions, and --by-ga."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.solutions.archive import canonical
from tests.waiting import wait_until
from tui.cli.command_line import main


def solutions_of(lines: list[str], n: int) -> tuple[list[list[int]], list[bool]]:
    """The boards printed one a line, and which are marked ``*``."""
    boards, marked = [], []
    for line in lines:
        words = line.split()
        marked.append(words[-1] == "*")
        boards.append([int(word) for word in words[:n]])
        assert len(words) == n + marked[-1]
    return boards, marked


def assert_solutions(boards: list[list[int]], n: int) -> None:
    for board in boards:
        assert sorted(board) == list(range(n))
        assert len({r + c for r, c in enumerate(board)}) == n
        assert len({r - c for r, c in enumerate(board)}) == n


def test_lists_every_solution_under_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solutions", "--n", "8"]) == 0
    captured = capsys.readouterr()
    summary, *lines = captured.out.splitlines()
    assert summary.startswith("N = 8: 92 solutions, 12 fundamental (")
    assert "* marks the representative" in summary
    boards, marked = solutions_of(lines, 8)
    assert len(boards) == len({tuple(b) for b in boards}) == 92
    assert boards == sorted(boards)
    assert_solutions(boards, 8)
    assert sum(marked) == 12
    for board, mark in zip(boards, marked, strict=True):
        assert mark == (canonical(board) == tuple(board))
    assert captured.err == ""


def test_two_digit_columns_and_thousands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solutions", "--n", "12"]) == 0
    summary, *lines = capsys.readouterr().out.splitlines()
    assert summary.startswith("N = 12: 14,200 solutions, 1,787 fundamental (")
    boards, marked = solutions_of(lines, 12)
    assert len(boards) == 14200 and sum(marked) == 1787
    assert boards == sorted(boards)
    assert_solutions(boards, 12)


def test_count_prints_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solutions", "--n", "13", "--count"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("N = 13: 73,712 solutions, 9,233 fundamental (")
    assert out.count("\n") == 1


def test_count_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solutions", "--n", "10", "--count", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["n"] == 10 and document["total"] == 724 and document["fundamental"] == 92
    assert document["complete"] is True
    assert document["prefixes_searched"] == document["prefixes"]
    assert isinstance(document["elapsed_s"], float)
    assert "solutions" not in document


@pytest.mark.parametrize("n", [1, 6, 11])
def test_listing_json(capsys: pytest.CaptureFixture[str], n: int) -> None:
    assert main(["solutions", "--n", str(n), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    solutions = document["solutions"]
    assert document["total"] == len(solutions) == {1: 1, 6: 4, 11: 2680}[n]
    assert solutions == sorted(solutions)
    assert_solutions(solutions, n)
    representatives = [solutions[i] for i in document["fundamental_indices"]]
    assert len(representatives) == document["fundamental"] == {1: 1, 6: 1, 11: 341}[n]
    assert all(canonical(board) == tuple(board) for board in representatives)
    others = set(range(len(solutions))) - set(document["fundamental_indices"])
    assert all(canonical(solutions[i]) != tuple(solutions[i]) for i in others)


@pytest.mark.parametrize("n", [2, 3])
def test_boards_without_solutions(capsys: pytest.CaptureFixture[str], n: int) -> None:
    assert main(["solutions", "--n", str(n)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"N = {n}: 0 solutions, 0 fund")


@pytest.mark.parametrize(
    ("words", "field"),
    [
        (["--n", "0"], "n"),
        (["--n", "-2", "--count"], "n"),
        (["--n", "33", "--count"], "n"),
        (["--n", "17"], "n"),
        (["--n", "eight"], "n"),
        (["--population", "10"], "population"),
        (["--seed", "1"], "seed"),
        (["--no-unique"], "unique"),
        (["--preset", "sheppard"], "preset"),
        (["--by-ga", "--count"], "count"),
    ],
)
def test_bad_input_exits_2_and_names_the_field(
    capsys: pytest.CaptureFixture[str], words: list[str], field: str
) -> None:
    assert main(["solutions", *words]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: --{field}: ")


def test_listing_n_17_suggests_counting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solutions", "--n", "17"]) == 2
    assert "count them instead" in capsys.readouterr().err


def test_long_listings_are_announced_on_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.cli.commands.solutions as command

    monkeypatch.setattr(command, "LONG_LISTING", 8)
    assert main(["solutions", "--n", "8"]) == 0
    assert capsys.readouterr().err == (
        "queens: note: N = 8 has 92 solutions: this prints a line for each "
        "(--count prints only the counts)\n"
    )
    assert main(["solutions", "--n", "8", "--count"]) == 0
    assert capsys.readouterr().err == ""


def test_help_tells_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["solutions", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--count", "--by-ga", "--json", "Exit codes: 0 done", "130 interrupted"):
        assert words in text
    assert text.index("--n N") < text.index("--population")


def test_by_ga_harvests_and_reports_against_the_exact_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solutions", "--by-ga", "--n", "6", "--seed", "1"]) == 0
    summary, exact, *lines = capsys.readouterr().out.splitlines()
    assert summary.startswith("N = 6: found 4 / 4 (1 / 1 fundamental)")
    assert exact.startswith("exact set (4 solutions, 1 fundamental): the GA found all 4 by ")
    assert sorted(lines) == ["1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2", "4 2 0 5 3 1"]


def test_by_ga_within_a_short_budget_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    words = ["solutions", "--by-ga", "--n", "8", "--seed", "1", "--generations", "3"]
    assert main(words) == 1
    exact = capsys.readouterr().out.splitlines()[1]
    assert exact.startswith("exact set (92 solutions, 12 fundamental): the GA found ")
    assert exact.endswith("when the run stopped (max-generations)")


def queens_command() -> list[str]:
    script = Path(sys.executable).with_name("queens")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


def test_the_console_script_prints_every_line_and_no_progress_off_a_terminal() -> None:
    done = subprocess.run(
        [*queens_command(), "solutions", "--n", "10"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr == ""  # progress only when stderr is a terminal
    assert len(done.stdout.splitlines()) == 1 + 724


def interrupt_while_counting(words: list[str], signum: int) -> tuple[int, str, str]:
    """Run ``queens`` with stderr on a terminal; once its progress line shows prefixes searched,
    send ``signum``. Returns the exit code, stdout, and what the terminal showed."""
    import pty

    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [*queens_command(), *words], stdout=subprocess.PIPE, stderr=terminal, text=True
    )
    os.close(terminal)
    shown = b""

    def progress_shown() -> bool:
        nonlocal shown
        if select.select([controller], [], [], 0.1)[0]:
            shown += os.read(controller, 4096)
        return bool(re.search(rb"[1-9][0-9,]* of [0-9,]+ prefixes", shown))

    wait_until(progress_shown, 60, "a progress line", interval=0, detail=lambda: repr(shown))
    process.send_signal(signum)
    out, _ = process.communicate(timeout=60)
    while select.select([controller], [], [], 0.2)[0]:
        try:
            chunk = os.read(controller, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    return process.returncode, out, shown.decode(errors="replace")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux pseudo-terminals")
def test_ctrl_c_while_counting_prints_the_partial_count() -> None:
    code, out, shown = interrupt_while_counting(
        ["solutions", "--n", "17", "--count"], signal.SIGINT
    )
    assert code == 130
    found = re.fullmatch(
        r"N = 17: PARTIAL count, interrupted after ([\d,]+) of ([\d,]+) prefixes \(.*\): "
        r"([\d,]+) solutions so far \(fundamental: not counted\) \([\d.]+ s\)\n",
        out,
    )
    assert found is not None, out
    searched, prefixes, solutions = (int(group.replace(",", "")) for group in found.groups())
    assert 1 <= searched < prefixes
    assert 0 < solutions < 95_815_104
    assert "counting N = 17: " in shown and "queens: interrupted" in shown
    assert "Traceback" not in shown


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux pseudo-terminals")
def test_sigterm_while_listing_prints_what_was_found_as_json() -> None:
    code, out, shown = interrupt_while_counting(
        ["solutions", "--n", "16", "--json"], signal.SIGTERM
    )
    assert code == 143
    document = json.loads(out)
    assert document["complete"] is False
    assert 1 <= document["prefixes_searched"] < document["prefixes"]
    solutions = np.array(document["solutions"], dtype=np.int64).reshape(-1, 16)
    assert 0 < document["total"] == solutions.shape[0] < 14_772_512
    assert_solutions(solutions[:: max(1, solutions.shape[0] // 500)].tolist(), 16)
    assert "queens: terminated" in shown
