"""``queens solutions``: find-all mode, print every solution found for N."""

from __future__ import annotations

import argparse
import json

from engine import Config, GeneticAlgorithm
from engine.solutions import KNOWN_TOTALS
from tui.config_flags import add_config_flags, config_from_args
from tui.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.progress import run_to_stop


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``solutions`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "solutions",
        help="find every solution for N (harvest mode) and print them",
        description="Run the GA in find-all mode: record each solution (and its rotations and "
        "reflections), replace it by a newcomer, stop when the known total is reached or the "
        "budget ends.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens solutions``."""
    return find_solutions(config_from_args(args), args.json)


def find_solutions(config: Config, as_json: bool) -> int:
    """Find-all mode: exit 0 when every known solution was found, 1 when the budget ended."""
    config = config.replace(harvest=True, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    final = run_to_stop(algorithm)
    boards = final.solutions
    known = final.stop_reason == "all-found"
    if as_json:
        document = {
            "n": final.n,
            "seed": final.seed,
            "found": int(boards.shape[0]),
            "fundamental_found": final.fundamental_solutions,
            "known_total": KNOWN_TOTALS.get(final.n, (None, None))[0],
            "known_fundamental": KNOWN_TOTALS.get(final.n, (None, None))[1],
            "all_found": known,
            "generations": final.generation,
            "evaluations": final.evaluations,
            "elapsed_s": round(final.elapsed, 6),
            "stop_reason": final.stop_reason,
            "solutions": boards.tolist(),
            "config": algorithm.config.to_dict(),
        }
        print(json.dumps(document))
    else:
        print(
            f"N = {final.n}: {final.solutions_text} in {final.generation:,} generations, "
            f"{final.evaluations:,} evaluations, {final.elapsed:.2f} s "
            f"(stop: {final.stop_reason}, seed {final.seed})"
        )
        for board in boards:
            print(" ".join(str(int(row)) for row in board))
    return EXIT_SOLVED if known else EXIT_UNSOLVED
