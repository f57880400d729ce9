"""``queens solve``: run the GA headless and print the result (``--json``: one JSON document)."""

from __future__ import annotations

import argparse
import json
from typing import Any, Final

from engine import Config, GeneticAlgorithm, Snapshot
from tui.config_flags import add_config_flags, config_from_args
from tui.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.progress import run_to_stop
from tui.store_access import add_record_flags, solve_recorded

BOARD_PRINT_LIMIT: Final = 40
"""Boards up to this N are drawn in the human summary."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``solve`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "solve",
        help="run the GA headless and print the result",
        description="Run the GA without a UI and print the result (--json: one JSON document "
        "on stdout). Progress goes to stderr, only when stderr is a terminal. Exit codes: 0 "
        "solved, 1 not solved within the budget, 2 usage or config error, 130 interrupted, "
        "141 when the reader of stdout goes away early.",
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


def result_document(snapshot: Snapshot, config: Config) -> dict[str, Any]:
    """The JSON document ``queens solve --json`` prints."""
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
        "queens": [list(pair) for pair in snapshot.queens()],
        "genome": [int(gene) for gene in snapshot.best],
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


def solve(config: Config, as_json: bool) -> int:
    """Run to a stop rule; print the result. Returns the exit code."""
    algorithm = GeneticAlgorithm(config)
    final = run_to_stop(algorithm)
    if as_json:
        print(json.dumps(result_document(final, algorithm.config)))
    else:
        verdict = "solved" if final.solved else f"not solved ({final.best_conflicts} conflicts)"
        print(
            f"N = {final.n}: {verdict} after {final.generation:,} generations, "
            f"{final.evaluations:,} evaluations, {final.elapsed:.3f} s "
            f"(stop: {final.stop_reason}, seed {final.seed})"
        )
        if final.n <= BOARD_PRINT_LIMIT:
            print(board_text(final))
        print("genome:", " ".join(str(int(gene)) for gene in final.best))
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED
