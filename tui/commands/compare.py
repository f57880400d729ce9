"""``queens compare``: run presets over the same seeds and compare them (a sweep over presets)."""

from __future__ import annotations

import argparse

from engine.presets import PRESETS
from tui.commands.sweep import add_runner_flags


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``compare`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "compare",
        help="run presets over the same seeds in parallel and compare them",
        description="Run each preset on the same seeds (a sweep over presets: results are "
        "kept in the run store, and the same command continues an interrupted compare). A "
        "preset that stops only when solved gets a budget of evaluations. Exit codes: 0 done, "
        "2 bad input, 130 interrupted, 143 terminated.",
    )
    parser.add_argument(
        "--preset",
        dest="presets",
        action="append",
        default=[],
        metavar="NAME",
        help=f"a preset to compare (repeat) [{', '.join(PRESETS)}]",
    )
    parser.add_argument("--n", default=None, help="board size (default: each preset's own)")
    parser.add_argument(
        "--seeds", default="20", help="runs per preset: K (seeds 0..K-1) or A-B (default 20)"
    )
    parser.add_argument(
        "--max-evals",
        default=None,
        help="evaluations per run for presets with no budget of their own (default 200000)",
    )
    parser.add_argument(
        "--time-limit", default=None, help="seconds allowed per run (flagged in the report)"
    )
    add_runner_flags(parser, workers_flag="--jobs")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens compare``."""
    from tui.compare import compare_command

    return compare_command(args)
