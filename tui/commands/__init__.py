"""The subcommands of ``queens``, one module each, imported only when chosen.

Each module has ``add_parser(commands)``, which adds its subparser and sets ``handler`` to a
function ``(args) -> exit code``. Heavy imports (Textual, Rich, the run store, Dask) happen
inside the handlers. Only the chosen command's module is imported at all: the others are listed
by name and summary (``queens --help``), so ``queens solve`` does not pay for the run store, the
sweeps or the dashboard.
"""

from __future__ import annotations

import argparse
from importlib import import_module
from typing import Final

COMMANDS: Final = {
    "solve": ("solve", "run the GA headless and print the result"),
    "tui": ("dashboard", "open the dashboard with the form prefilled"),
    "presets": ("presets", "list the presets: the published GAs, reproduced"),
    "solutions": ("solutions", "find every solution for N (harvest mode) and print them"),
    "compare": ("compare", "run presets over the same seeds in parallel and compare them"),
    "sweep": ("sweep", "run a grid of configs x seeds (local pool or Dask) and report"),
    "sweeps": ("sweeps", "list the sweeps kept in the run store"),
    "serve": ("serve", "serve the dashboard to a browser (textual-serve)"),
    "runs": ("runs", "list the recorded runs"),
    "show": ("show", "show a recorded run, or one of its generations"),
    "resume": ("resume", "continue a stopped or interrupted recorded run"),
    "export": ("export", "export a recorded run (csv, jsonl, json, or a run file)"),
    "replay": ("replay", "open the dashboard on a recorded run, in time travel"),
    "rm": ("rm", "delete a recorded run"),
}
"""Command name -> (module in ``tui.commands``, one-line summary), in ``--help`` order."""


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named on a command line (the first word that is not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def add_parsers(commands: argparse._SubParsersAction, chosen: str | None) -> None:  # type: ignore[type-arg]
    """Add every subcommand: in full for ``chosen`` (all of them when ``None``), else by name."""
    for name, (module, summary) in COMMANDS.items():
        if chosen is None or name == chosen:
            import_module(f"tui.commands.{module}").add_parser(commands)
        else:
            commands.add_parser(name, help=summary, add_help=False)
