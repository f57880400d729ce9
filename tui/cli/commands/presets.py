"""``queens presets``: list the published GAs the presets reproduce."""

from __future__ import annotations

import argparse

from engine.config.presets import PRESETS
from tui.cli.exit_codes import EXIT_SOLVED


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``presets`` to the ``queens`` subcommands."""
    parser = commands.add_parser("presets", help="list the presets: the published GAs, reproduced")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the presets, one line each."""
    sizes = {name: f"N={preset.native_n:,}" for name, preset in PRESETS.items()}
    name_width = max(len(name) for name in PRESETS)
    size_width = max(len(size) for size in sizes.values())
    for name, preset in PRESETS.items():
        print(f"{name:<{name_width}}  {sizes[name]:<{size_width}}  {preset.summary}")
    return EXIT_SOLVED
