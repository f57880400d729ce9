"""``--ascii`` and ``--unicode``: what the dashboard draws with (``queens``, ``queens tui``,
``queens replay``), and the choice made from them, ``$QUEENS_GLYPHS`` and the locale."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from tui.dashboard.terminal import Glyphs

GLYPHS_VARIABLE: Final = "QUEENS_GLYPHS"
""":data:`tui.dashboard.terminal.GLYPHS_VARIABLE`, spelled out: the parser is built before
anything of the dashboard is imported (a headless command never imports it)."""


def add_glyph_flags(parser: argparse.ArgumentParser) -> None:
    """``--ascii`` and ``--unicode``: what the dashboard draws with, whatever the locale.

    Neither flag sets a default (read them with :func:`glyphs_asked`), so ``queens --ascii
    tui`` keeps the ``--ascii`` given before the subcommand.
    """
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--ascii",
        dest="glyphs",
        action="store_const",
        const="ascii",
        default=argparse.SUPPRESS,
        help="draw ASCII only: borders, charts, marks and the board (the default where the "
        "locale, LC_ALL, LC_CTYPE or LANG, is not UTF-8)",
    )
    group.add_argument(
        "--unicode",
        dest="glyphs",
        action="store_const",
        const="unicode",
        default=argparse.SUPPRESS,
        help="draw box lines, Braille and chess symbols even where the locale is not UTF-8 "
        f"(or set {GLYPHS_VARIABLE}=unicode; {GLYPHS_VARIABLE}=ascii is --ascii)",
    )


def glyphs_asked(args: argparse.Namespace) -> Glyphs | None:
    """What ``--ascii`` or ``--unicode`` asked for, before or after the subcommand."""
    glyphs: Glyphs | None = getattr(args, "glyphs", None)
    return glyphs


def dashboard_draws_ascii(glyphs: Glyphs | None) -> bool | None:
    """Whether the dashboard draws ASCII only, as the flags, the environment and the locale
    say; ``None`` after saying on stderr that ``$QUEENS_GLYPHS`` holds no known choice."""
    from tui.dashboard.terminal import GlyphsError, choose_glyphs

    try:
        return choose_glyphs(glyphs) == "ascii"
    except GlyphsError as error:
        print(f"queens: error: {error}", file=sys.stderr)
        return None
