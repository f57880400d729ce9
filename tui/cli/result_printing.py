"""A run's result as ``queens solve`` prints it: the summary, board and genome for people, or
one JSON document; ``queens resume`` and ``solve --record`` add the run id."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from engine import Config, Snapshot
from tui.cli.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.cli.headless_run import INTERRUPTED
from tui.lab.json_stream import Rows, write_json

BOARD_PRINT_LIMIT: Final = 40
"""Boards up to this N are drawn in the human summary."""

GENOME_PRINT_LIMIT: Final = 100
"""Genomes up to this N are printed whole in the human summary; longer ones are abbreviated."""

GENOME_ENDS: Final = 20
"""Genes shown at each end of an abbreviated genome."""


def queens_rows(snapshot: Snapshot, index: int | None = None) -> Rows:
    """``[[row, column], ...]`` of an individual's queens (the best by default), as arrays:
    written a chunk at a time (:mod:`tui.lab.json_stream`), never a list of N pairs."""
    from engine.genomes.encodings import ENCODINGS

    genome = snapshot.best if index is None else snapshot.population[index]
    rows, columns = ENCODINGS[snapshot.encoding].decode(genome[None, :], snapshot.n)
    return Rows((rows[0], columns[0]))


def result_document(snapshot: Snapshot | None, config: Config) -> dict[str, Any]:
    """The JSON document ``queens solve --json`` prints (its arrays as arrays: write it with
    :func:`tui.lab.json_stream.write_json`).

    ``snapshot`` is ``None`` when the run was interrupted before its first population was
    evaluated: the document then has the seed and config, and no individual.
    """
    if snapshot is None:
        return {
            "solved": False,
            "n": config.n,
            "seed": config.seed,
            "generations": 0,
            "evaluations": 0,
            "elapsed_s": 0.0,
            "conflicts": None,
            "fitness": None,
            "max_fitness": None,
            "queens": None,
            "genome": None,
            "stop_reason": INTERRUPTED,
            "config": config.to_dict(),
        }
    return {
        "solved": snapshot.solved,
        "n": snapshot.n,
        "seed": snapshot.seed,
        "generations": snapshot.generation,
        "evaluations": snapshot.evaluations,
        "elapsed_s": round(snapshot.elapsed, 6),
        "conflicts": snapshot.best_conflicts,
        "fitness": float(snapshot.fitness[snapshot.best_index]),
        "max_fitness": snapshot.max_fitness,
        "queens": queens_rows(snapshot),
        "genome": snapshot.best,
        "stop_reason": snapshot.stop_reason,
        "config": config.to_dict(),
    }


BOARD_LEGEND: Final = (
    "Q a queen, X an attacked queen (a conflict is a pair of queens attacking each other); "
    "rows and columns numbered from 0"
)
"""What the printed board's marks mean."""


def _column_header(n: int) -> list[str]:
    """Column numbers above the board: one line of units, and one of tens from N = 11 on."""
    units = "    " + " ".join(str(column % 10) for column in range(n))
    if n <= 10:
        return [units]
    tens = "    " + " ".join(str(column // 10) if column >= 10 else " " for column in range(n))
    return [tens.rstrip(), units]


def board_text(snapshot: Snapshot, index: int | None = None) -> str:
    """An individual (the best by default) as a plain board with numbered rows and columns:
    ``Q`` a queen, ``X`` a queen another attacks, ``.`` an empty square (see
    :data:`BOARD_LEGEND`), so that a conflict named as ``row,column`` can be found."""
    from engine.genomes.conflicts import board_lines
    from engine.genomes.encodings import ENCODINGS

    n = snapshot.n
    chosen = snapshot.best_index if index is None else index
    genome = snapshot.population[chosen : chosen + 1]
    encoding = ENCODINGS[snapshot.encoding]
    attacked = board_lines(genome, n, encoding).attacked()[0]
    rows, columns = encoding.decode(genome, n)
    cells = [["."] * n for _ in range(n)]
    for row, column, hit in zip(
        rows[0].tolist(), columns[0].tolist(), attacked.tolist(), strict=True
    ):
        cells[row][column] = "X" if hit else "Q"
    lines = _column_header(n)
    lines += [f"{row:>3} " + " ".join(line) for row, line in enumerate(cells)]
    return "\n".join(lines)


def conflict_words(snapshot: Snapshot, index: int | None = None) -> str:
    """An individual's (the best's by default) two counts, each named: ``9 conflicts, 12
    attacked queens``. A conflict is a pair of queens attacking each other; the board marks
    the attacked queens (``X``), a different count, so the line above it gives both and
    :data:`BOARD_LEGEND` says what each is."""
    from engine.genomes.conflicts import board_lines
    from engine.genomes.encodings import ENCODINGS

    chosen = snapshot.best_index if index is None else index
    genome = snapshot.population[chosen : chosen + 1]
    attacked = int(board_lines(genome, snapshot.n, ENCODINGS[snapshot.encoding]).attacked().sum())
    pairs = int(snapshot.conflicts[chosen])
    pair_word = "conflict" if pairs == 1 else "conflicts"
    queen_word = "attacked queen" if attacked == 1 else "attacked queens"
    return f"{pairs:,} {pair_word}, {attacked:,} {queen_word}"


def genome_text(snapshot: Snapshot) -> str:
    """The best genome for people: whole up to ``GENOME_PRINT_LIMIT`` genes, else both ends."""
    genes = snapshot.best
    if genes.shape[0] <= GENOME_PRINT_LIMIT:
        return " ".join(map(str, genes.tolist()))
    head = " ".join(map(str, genes[:GENOME_ENDS].tolist()))
    tail = " ".join(map(str, genes[-GENOME_ENDS:].tolist()))
    return f"{head} ... {tail} ({genes.shape[0]:,} genes; --json prints them all)"


def summary_text(snapshot: Snapshot | None, config: Config) -> str:
    """The one-line verdict of the human output."""
    if snapshot is None:
        return f"N = {config.n}: interrupted before the first population (seed {config.seed})"
    if snapshot.stop_reason == INTERRUPTED:
        verdict = "interrupted" + ("" if not snapshot.solved else " (solved)")
    elif snapshot.solved:
        verdict = "solved"
    else:
        verdict = f"not solved ({conflict_words(snapshot)})"
    return (
        f"N = {snapshot.n}: {verdict} after {snapshot.generation:,} generations, "
        f"{snapshot.evaluations:,} evaluations, {snapshot.elapsed:.3f} s "
        f"(stop: {snapshot.stop_reason}, seed {snapshot.seed})"
    )


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the garbage collector while the long lists of a huge result are built and written.

    A million small lists (one per queen) would otherwise trigger it thousands of times, for
    nothing: they hold no cycles. With it paused, N = 10^6 is written about twice as fast.
    """
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def json_text(document: dict[str, Any]) -> str:
    """``document`` as JSON text (no cycle check: its lists come fresh from ``tolist()``)."""
    import json

    return json.dumps(document, check_circular=False)


def print_json(document: dict[str, Any]) -> None:
    """Print ``document`` on stdout as one line of JSON, its arrays written as they stream."""
    write_json(document, sys.stdout)
    sys.stdout.write("\n")


def print_result(snapshot: Snapshot | None, config: Config, as_json: bool) -> None:
    """Print a run's result on stdout: one JSON document, or the summary for people."""
    if as_json:
        print_json(result_document(snapshot, config))
        return
    print(summary_text(snapshot, config))
    if snapshot is None:
        return
    if snapshot.n <= BOARD_PRINT_LIMIT:
        print(board_text(snapshot))
        print(BOARD_LEGEND)
    print("genome:", genome_text(snapshot))


def report(
    final: Snapshot, config: Config, run_id: int, as_json: bool, extra: dict[str, Any]
) -> int:
    """Print the result as ``queens solve`` does, with the run id; returns the exit code."""
    print_recorded_result(final, config, run_id, as_json, extra)
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED


def print_recorded_result(
    final: Snapshot, config: Config, run_id: int, as_json: bool, extra: dict[str, Any]
) -> None:
    if as_json:
        document = result_document(final, config)
        document["run_id"] = run_id
        document.update(extra)
        print_json(document)
    else:
        print_result(final, config, False)
        print(f"recorded as run {run_id} (queens show {run_id})")
    sys.stdout.flush()
