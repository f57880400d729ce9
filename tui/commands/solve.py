"""``queens solve``: run the GA headless and print the result (``--json``: one JSON document)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from engine import Config, Snapshot
from tui.config_flags import add_config_flags, config_from_args
from tui.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.progress import INTERRUPTED, run_headless
from tui.store_access import add_record_flags, solve_recorded

BOARD_PRINT_LIMIT: Final = 40
"""Boards up to this N are drawn in the human summary."""

GENOME_PRINT_LIMIT: Final = 100
"""Genomes up to this N are printed whole in the human summary; longer ones are abbreviated."""

GENOME_ENDS: Final = 20
"""Genes shown at each end of an abbreviated genome."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``solve`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "solve",
        help="run the GA headless and print the result",
        description="Run the GA without a UI and print the result (--json: one JSON document "
        "on stdout). Progress goes to stderr, only when stderr is a terminal. "
        "--time-limit is kept strictly: a generation still running when it passes is "
        "abandoned and the last whole generation is the result; the first population is "
        "always evaluated in full, and a note on stderr says so up front when that alone is "
        "estimated to take longer than the limit. Ctrl+C or SIGTERM still prints the result "
        "so far (stop_reason 'interrupted', with the seed that replays the run). Exit codes: "
        "0 solved, 1 not solved within the budget, 2 usage or config error, 130 interrupted "
        "(Ctrl+C), 143 terminated (SIGTERM), 141 when the reader of stdout goes away early.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_record_flags(parser)
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens solve``."""
    if args.record:
        return solve_recorded(config_from_args(args), args)
    return solve(config_from_args(args), args.json)


def queens_list(snapshot: Snapshot) -> list[list[int]]:
    """``[[row, column], ...]`` of the best individual's queens, converted by numpy at once."""
    import numpy as np

    from engine.encodings import ENCODINGS

    rows, columns = ENCODINGS[snapshot.encoding].decode(snapshot.best[None, :], snapshot.n)
    pairs: list[list[int]] = np.stack((rows[0], columns[0]), axis=1).tolist()
    return pairs


def result_document(snapshot: Snapshot | None, config: Config) -> dict[str, Any]:
    """The JSON document ``queens solve --json`` prints.

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
        "queens": queens_list(snapshot),
        "genome": snapshot.best.tolist(),
        "stop_reason": snapshot.stop_reason,
        "config": config.to_dict(),
    }


def board_text(snapshot: Snapshot) -> str:
    """The best individual as a plain board: ``Q`` queens, ``.`` squares."""
    n = snapshot.n
    cells = [["."] * n for _ in range(n)]
    for row, column in snapshot.queens():
        cells[row][column] = "Q"
    return "\n".join(" ".join(line) for line in cells)


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
        verdict = f"not solved ({snapshot.best_conflicts} conflicts)"
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


def print_result(snapshot: Snapshot | None, config: Config, as_json: bool) -> None:
    """Print a run's result on stdout: one JSON document, or the summary for people."""
    if as_json:
        with collector_paused():
            text = json_text(result_document(snapshot, config))
        print(text)
        return
    print(summary_text(snapshot, config))
    if snapshot is None:
        return
    if snapshot.n <= BOARD_PRINT_LIMIT:
        print(board_text(snapshot))
    print("genome:", genome_text(snapshot))


def solve(config: Config, as_json: bool) -> int:
    """Run to a stop rule; print the result. Returns the exit code.

    Interrupted (Ctrl+C, SIGTERM), it prints the result so far, then exits 130 or 143.
    """
    final = run_headless(config, lambda last, seeded: print_result(last, seeded, as_json))
    if isinstance(final, int):
        return final
    print_result(final, config.replace(seed=final.seed), as_json)
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED
