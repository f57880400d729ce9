"""``queens compare``: run presets over the same seeds in worker processes and compare them."""

from __future__ import annotations

import argparse

from engine.presets import PRESETS


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``compare`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "compare",
        help="run presets over the same seeds in parallel and compare them",
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
    parser.add_argument("--seeds", default="20", help="runs per preset, seeds 0.. (default 20)")
    parser.add_argument(
        "--time-limit", default=None, help="seconds allowed per run (default: the preset's)"
    )
    parser.add_argument("--jobs", default=None, help="worker processes (default: CPU count)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON document")
    output.add_argument("--csv", action="store_true", help="print one CSV row per run")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens compare``."""
    from tui.compare import compare_command

    return compare_command(args)
