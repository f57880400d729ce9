"""``--speed``: the generations per second the dashboard opens at (``queens``, ``queens tui``,
``queens replay``), checked before the screen opens."""

from __future__ import annotations

import argparse
from typing import Final

SPEED_DEST: Final = "speed"
"""Where ``--speed`` keeps its text in the parsed arguments (absent when not given)."""


def add_speed_flag(parser: argparse.ArgumentParser, default: str) -> None:
    """``--speed``; ``default`` says in the help what opens without it.

    The text is kept as typed and checked by :func:`chosen_speed`, so the error reads like
    every other bad value (``queens: error: --speed: ...``, exit code 2); no default is set,
    so ``queens --speed 2 tui`` keeps the value given before the subcommand.
    """
    parser.add_argument(
        "--speed",
        dest=SPEED_DEST,
        metavar="GENS_PER_S",
        default=argparse.SUPPRESS,
        help="speed limit in generations per second, a positive number or unlimited; "
        f"+ and - change it in the dashboard (default: {default})",
    )


def chosen_speed(args: argparse.Namespace, default: float | None) -> float | None:
    """The speed limit the dashboard opens at: ``--speed`` (``None``: unlimited), else
    ``default``.

    Raises:
        UsageError: If ``--speed`` is no positive number nor ``unlimited``, naming the flag,
            the value and what is allowed.
    """
    from tui.cli.usage_error import UsageError
    from tui.dashboard.runs.speed import SPEED_ALLOWED, SpeedError, parse_speed

    text: str | None = getattr(args, SPEED_DEST, None)
    if text is None:
        return default
    try:
        return parse_speed(text)
    except SpeedError:
        raise UsageError("--speed", text, SPEED_ALLOWED) from None
