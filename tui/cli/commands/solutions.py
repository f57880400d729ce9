"""``queens solutions``: find-all mode, print every solution found for N."""

from __future__ import annotations

import argparse
from typing import Any

from engine import Config, Snapshot
from engine.solutions import KNOWN_TOTALS
from tui.cli.config_flags import add_config_flags, config_from_args
from tui.cli.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.cli.headless_run import INTERRUPTED, run_headless
from tui.cli.result_printing import collector_paused, json_text


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``solutions`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "solutions",
        help="find every solution for N (harvest mode) and print them",
        description="Run the GA in find-all mode: record each solution (and its rotations and "
        "reflections), replace it by a newcomer, stop when the known total is reached or the "
        "budget ends. Ctrl+C or SIGTERM still prints what was found so far (stop_reason "
        "'interrupted'); exit 130 or 143.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens solutions``."""
    return find_solutions(config_from_args(args), args.json)


def solutions_document(snapshot: Snapshot | None, config: Config) -> dict[str, Any]:
    """The JSON document ``queens solutions --json`` prints (``snapshot`` ``None``: interrupted
    before the first population)."""
    known_total, known_fundamental = KNOWN_TOTALS.get(config.n, (None, None))
    stop_reason: str | None
    if snapshot is None:
        boards: list[list[int]] = []
        found = fundamental = generations = evaluations = 0
        elapsed, stop_reason = 0.0, INTERRUPTED
    else:
        boards = snapshot.solutions.tolist()
        found, fundamental = len(boards), snapshot.fundamental_solutions
        generations, evaluations = snapshot.generation, snapshot.evaluations
        elapsed, stop_reason = snapshot.elapsed, snapshot.stop_reason
    return {
        "n": config.n,
        "seed": config.seed,
        "found": found,
        "fundamental_found": fundamental,
        "known_total": known_total,
        "known_fundamental": known_fundamental,
        "all_found": stop_reason == "all-found",
        "generations": generations,
        "evaluations": evaluations,
        "elapsed_s": round(elapsed, 6),
        "stop_reason": stop_reason,
        "solutions": boards,
        "config": config.to_dict(),
    }


def print_solutions(snapshot: Snapshot | None, config: Config, as_json: bool) -> None:
    """Print what a find-all run found: one JSON document, or a summary and one board a line."""
    if as_json:
        with collector_paused():
            text = json_text(solutions_document(snapshot, config))
        print(text)
        return
    if snapshot is None:
        print(f"N = {config.n}: interrupted before the first population (seed {config.seed})")
        return
    print(
        f"N = {snapshot.n}: {snapshot.solutions_text} in {snapshot.generation:,} generations, "
        f"{snapshot.evaluations:,} evaluations, {snapshot.elapsed:.2f} s "
        f"(stop: {snapshot.stop_reason}, seed {snapshot.seed})"
    )
    for board in snapshot.solutions.tolist():
        print(" ".join(map(str, board)))


def find_solutions(config: Config, as_json: bool) -> int:
    """Find-all mode: exit 0 when every known solution was found, 1 when the budget ended.

    Interrupted (Ctrl+C, SIGTERM), it prints what was found so far, then exits 130 or 143.
    """
    config = config.replace(harvest=True, stop_when_solved=False)
    final = run_headless(config, lambda last, seeded: print_solutions(last, seeded, as_json))
    if isinstance(final, int):
        return final
    print_solutions(final, config.replace(seed=final.seed), as_json)
    return EXIT_SOLVED if final.stop_reason == "all-found" else EXIT_UNSOLVED
