"""The ``queens`` command: the dashboard, and headless commands for scripts and benchmarks.

``queens`` alone opens the dashboard. Each subcommand lives in its own module under
``tui/commands/``; this module builds the parser from them and turns errors into exit codes:
0 solved, 1 not solved within the budget, 2 usage or config error, 130 interrupted (Ctrl+C),
143 terminated (SIGTERM), 141 when the reader of stdout goes away early.

The console script enters through :mod:`tui.cli.entry`, which handles signals from the first
instant; nothing here imports numpy or the engine until a command needs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from tui.cli.commands import add_parsers, chosen_command
from tui.cli.config_flags import config_flags, config_from_args
from tui.cli.exit_codes import EXIT_BROKEN_PIPE, EXIT_USAGE
from tui.cli.glyph_flags import add_glyph_flags, glyphs_asked
from tui.cli.signals import report_interruption
from tui.cli.speed_flag import add_speed_flag, chosen_speed

__all__ = ["build_parser", "config_flags", "config_from_args", "main"]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("queens-ga")
    except PackageNotFoundError:
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked for (importlib.metadata is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def _terminal_columns() -> int:
    """The columns ``shutil.get_terminal_size()`` would give, without importing shutil (which
    argparse does for every parser, ~4 ms of each start-up): ``COLUMNS``, the terminal, or 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """An argument parser whose help is as wide as the terminal, measured without shutil."""

    def __init__(self, **kwargs: Any) -> None:
        formatter_class: type[argparse.HelpFormatter] = kwargs.pop(
            "formatter_class", argparse.HelpFormatter
        )
        width = _terminal_columns() - 2  # what argparse takes off the terminal's width

        def formatter(prog: str) -> argparse.HelpFormatter:
            return formatter_class(prog, width=width)

        super().__init__(formatter_class=formatter, **kwargs)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``queens`` argument parser and its subcommands.

    With ``argv``, only the subcommand it names is built (its module imported); without, or
    when it names none, every subcommand is built.
    """
    parser = _Parser(
        prog="queens",
        description="Watch, steer and compare genetic algorithms on the N-Queens puzzle. "
        "With no command, opens the dashboard.",
        epilog="Exit codes: 0 solved, 1 not solved within the budget, 2 usage or config error, "
        "130 interrupted (Ctrl+C), 143 terminated (SIGTERM), 141 when the reader of stdout "
        "goes away early.",
    )
    parser.add_argument("--version", action=_VersionAction)
    add_glyph_flags(parser)  # ``queens`` alone opens the dashboard
    add_speed_flag(parser, "5, the showcase's")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    add_parsers(commands, None if argv is None else chosen_command(list(argv)))
    return parser


def refuse_unknown(
    parser: argparse.ArgumentParser, command: str | None, unknown: list[str]
) -> None:
    """Exit 2 on words no parser knew, with the usage of the command they were given to.

    ``parse_args`` would report them from the top-level parser, with ``queens``' own usage,
    which says nothing of the command's flags. A single-dash flag whose double-dash spelling
    the command has (``-n`` for ``--n``) is pointed at.
    """
    owner = parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            owner = action.choices[command]
    message = f"unrecognized arguments: {' '.join(unknown)}"
    for word in unknown:
        near = "--" + word.lstrip("-")
        if (
            word.startswith("-")
            and not word.startswith("--")
            and near in owner._option_string_actions
        ):
            message += f" (did you mean {near}?)"
            break
    owner.error(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``queens`` command. Returns (and exits with) the exit code."""
    from engine.errors import NotAllowed

    try:
        words = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(words)
        args, unknown = parser.parse_known_args(words)
        if unknown:
            refuse_unknown(parser, args.command, unknown)
        if args.command is None:
            from tui.cli.commands.dashboard import dashboard
            from tui.dashboard.runs.speed import OPENING_SPEED

            return dashboard(None, glyphs_asked(args), speed=chosen_speed(args, OPENING_SPEED))
        code: int = args.handler(args)
        return code
    except NotAllowed as error:  # a config value, a sweep plan's entry, a flag of our own
        print(f"queens: error: {error.command_line_text()}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as interruption:
        return report_interruption(interruption)
    except BrokenPipeError:
        # Python would complain again when flushing stdout at exit: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
