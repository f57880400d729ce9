"""The subcommands of ``queens``, one module each, imported only when chosen.

Each module has ``add_parser(commands)``, which adds its subparser and sets ``handler`` to a
function ``(args) -> exit code``. Heavy imports (Textual, Rich, the run store, Dask) happen
inside the handlers. Only the chosen command's module is imported at all (``queens --help``, and a
command line that names no known command, build them all), so ``queens solve`` does not pay for
the run store, the sweeps or the dashboard.
"""

from __future__ import annotations

import argparse
from importlib import import_module
from typing import Final

COMMANDS: Final = {
    "solve": "solve",
    "tui": "dashboard",
    "presets": "presets",
    "solutions": "solutions",
    "compare": "compare",
    "sweep": "sweep",
    "sweeps": "sweeps",
    "lesson": "lesson",
    "serve": "serve",
    "runs": "runs",
    "show": "show",
    "lineage": "lineage",
    "resume": "resume",
    "export": "export",
    "replay": "replay",
    "rm": "rm",
}
"""Command name -> its module in ``tui.cli.commands``, in ``--help`` order (each module's
``add_parser`` carries the one-line summary)."""


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named on a command line (the first word that is not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def add_parsers(commands: argparse._SubParsersAction, chosen: str | None) -> None:  # type: ignore[type-arg]
    """Add ``chosen`` alone, in full; or, when ``None``, every subcommand.

    A command line that names its command is parsed by that command's parser only: building the
    other thirteen parsers cost ~4 ms of every start-up (argparse looks up translations for each).
    """
    for name, module in COMMANDS.items():
        if chosen is None or name == chosen:
            import_module(f"tui.cli.commands.{module}").add_parser(commands)
