"""``queens lesson NAME``: bad flags refused with one line and exit 2; a real run on local
workers prints the document the JSON promises, and CSV and the table the same rows."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from tui.cli.command_line import main


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    code = main(["lesson", *argv])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_an_unknown_lesson_is_refused_naming_every_lesson(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = _refused(capsys, "tournament")
    assert "lesson" in line and "'tournament'" in line
    for name in ("takeover", "drift", "founders", "headless-chicken", "landscape", "hill-climbing"):
        assert name in line


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["drift", "--population", "1"], ["population", "1", "2 to 100,000"]),
        (["drift", "--population", "many"], ["population", "many", "whole number"]),
        (["drift", "--seeds", "0"], ["seeds", "0", "1 to 1,000,000"]),
        (["takeover", "--seeds", "2.5"], ["seeds", "2.5"]),
        (["landscape", "--population", "10"], ["population", "landscape", "no population"]),
        (["landscape", "--seeds", "3"], ["seeds", "landscape", "no seeds"]),
        (["landscape", "--n", "11"], ["--n", "11", "4 to 10"]),
        (["landscape", "--n", "3"], ["--n", "3", "4 to 10"]),
        (["drift", "--n", "8"], ["--n", "8", "only the landscape"]),
        (["hill-climbing", "--population", "10"], ["population", "hill-climbing"]),
        (["drift", "--workers", "0"], ["workers", "0"]),
        (["drift", "--scheduler", "nowhere"], ["scheduler", "nowhere"]),
        (
            ["drift", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1"],
            ["scheduler", "tcp://127.0.0.1:9"],
        ),
        (["drift", "--store", "x.sqlite3"], ["store", "x.sqlite3", "--record-runs"]),
        (
            ["drift", "--record-runs", "--scheduler", "tcp://127.0.0.1:9"],
            ["record-runs", "local workers only"],
        ),
    ],
)
def test_bad_flags_are_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    line = _refused(capsys, *argv)
    for word in words:
        assert word in line, line


def test_json_and_csv_are_one_choice(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["lesson", "drift", "--json", "--csv"])
    assert stopped.value.code == 2


def queens(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", "lesson", *words],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.mark.slow
def test_a_lesson_runs_on_local_workers_and_prints_its_document() -> None:
    done = queens("drift", "--population", "20", "--seeds", "3", "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert list(document) == ["lesson", "population", "seeds", "rows"]
    assert (document["lesson"], document["population"], document["seeds"]) == ("drift", 20, 3)
    first = document["rows"][0]
    assert first["label"] == "t=0" and first["measured"] == first["theory"]
    # The same seeds on one worker give the same document.
    alone = queens("drift", "--population", "20", "--seeds", "3", "--workers", "1", "--json")
    assert json.loads(alone.stdout) == document
    as_csv = queens("drift", "--population", "20", "--seeds", "3", "--workers", "1", "--csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert [row["label"] for row in rows] == [row["label"] for row in document["rows"]]
    table = queens("drift", "--population", "20", "--seeds", "3", "--workers", "1")
    assert "E[H(t)] = H0 (1 - 1/P)^t" in table.stdout
    assert "t=0" in table.stdout


def test_the_landscape_stops_at_the_board_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lesson", "landscape", "--n", "6", "--json", "--workers", "1"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [row["n"] for row in document["rows"]] == [4, 5, 6]
    assert [row["solutions"] for row in document["rows"]] == [2, 10, 4]
