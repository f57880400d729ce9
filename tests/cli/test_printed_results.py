"""What ``queens solve`` prints for people and for programs: the board, its marks and counts,
the genome whole or abbreviated, the queens as the engine places them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import Config, GenerationStats, GeneticAlgorithm, Snapshot
from engine.config.config import fitting_operators
from tui.cli.command_line import main


def test_human_output_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--n", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("N = 6: solved")
    lines = out.splitlines()
    header = lines.index("    0 1 2 3 4 5")
    board = lines[header + 1 : header + 7]
    assert [line[:4] for line in board] == [f"{row:>3} " for row in range(6)]
    assert all(set(line[4:]) <= {"Q", ".", " "} and line.count("Q") == 1 for line in board)
    assert "Q a queen, X an attacked queen" in lines[header + 7]


def test_attacked_queens_are_marked_on_a_numbered_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--n", "12", "--seed", "1", "--generations", "2", "--no-stop-when-solved"]
    assert main(["solve", *flags, "--mutation-rate", "0", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert main(["solve", *flags, "--mutation-rate", "0"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["1", "1"] and lines[2].split() == [str(c % 10) for c in range(12)]
    marks = {(row, column): lines[3 + row][4 + 2 * column] for row, column in document["queens"]}
    attacked = {square for square, mark in marks.items() if mark == "X"}
    assert set(marks.values()) <= {"Q", "X"} and len(attacked) >= 2

    # Every X shares a row, column or diagonal with another queen; no Q does.
    def attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))

    for square in marks:
        assert (square in attacked) == any(attacks(square, other) for other in marks)


def small_snapshot(n: int, seed: int = 0, encoding: str = "permutation") -> Snapshot:
    """A real snapshot of a short run (for the output functions)."""
    flags = {} if encoding == "permutation" else fitting_operators(encoding)
    return GeneticAlgorithm(
        Config(n=n, population=4, seed=seed, encoding=encoding, **flags)  # type: ignore[arg-type]
    ).snapshot


def synthetic_snapshot(genome: np.ndarray) -> Snapshot:  # type: ignore[type-arg]
    """A snapshot around one given permutation, as a run of that size would publish it."""
    n = genome.shape[0]
    stats = GenerationStats(0, 1, 0.0, 0.0, 0.0, 0.0, 0, 0.0, 1.0, 0.0)
    return Snapshot(
        stats=stats,
        n=n,
        encoding="permutation",
        seed=7,
        max_fitness=0.0,
        population=genome[None, :].astype(np.int64),
        fitness=np.zeros(1),
        conflicts=np.zeros(1, dtype=np.int64),
        best_index=0,
        stop_reason="solved",
        solutions=np.empty((0, n), dtype=np.int64),
        fundamental_solutions=0,
    )


@pytest.mark.parametrize("encoding", ["permutation", "integer", "squares"])
def test_queens_rows_are_the_engines_queens(encoding: str) -> None:
    import io

    from tui.cli.result_printing import queens_rows
    from tui.lab.json_stream import write_json

    snapshot = small_snapshot(9, seed=4, encoding=encoding)
    written = io.StringIO()
    write_json(queens_rows(snapshot), written)
    assert json.loads(written.getvalue()) == [list(pair) for pair in snapshot.queens()]


def test_a_huge_genome_is_printed_whole_in_json_and_abbreviated_for_people(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui.cli.result_printing import print_result

    n = 100_000
    genome = np.random.default_rng(1).permutation(n)
    snapshot = synthetic_snapshot(genome)
    config = Config(n=n, population=2, seed=7)
    print_result(snapshot, config, as_json=True)
    document = json.loads(capsys.readouterr().out)
    assert document["genome"] == genome.tolist()
    assert document["queens"] == [[int(row), column] for column, row in enumerate(genome)]

    print_result(snapshot, config, as_json=False)
    out = capsys.readouterr().out
    genome_line = next(line for line in out.splitlines() if line.startswith("genome:"))
    first = " ".join(str(g) for g in genome[:20])
    last = " ".join(str(g) for g in genome[-20:])
    assert genome_line == f"genome: {first} ... {last} (100,000 genes; --json prints them all)"
    assert len(out) < 1000


def test_a_short_genome_is_printed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli.result_printing import print_result

    snapshot = small_snapshot(100, seed=2)
    print_result(snapshot, Config(n=100, population=4, seed=2), as_json=False)
    genome_line = capsys.readouterr().out.splitlines()[-1]
    assert genome_line == "genome: " + " ".join(str(g) for g in snapshot.best.tolist())


def test_the_summary_and_the_board_say_which_count_is_which(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--n", "12", "--seed", "1", "--generations", "2", "--no-stop-when-solved"]
    assert main(["solve", *flags, "--mutation-rate", "0", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert main(["solve", *flags, "--mutation-rate", "0"]) == 1
    lines = capsys.readouterr().out.splitlines()
    board = lines[3:15]
    attacked = sum(line[4:].count("X") for line in board)
    pairs = document["conflicts"]
    assert attacked != pairs  # the two counts differ here: the words must tell them apart
    assert f"not solved ({pairs} conflicts, {attacked} attacked queens)" in lines[0]
    assert "a conflict is a pair of queens attacking each other" in lines[15]
