"""The terminal's rules read without a terminal: the locale in POSIX order, the glyph flags and
variable, and the colours Textual draws in."""

from __future__ import annotations

import pytest
from rich.color import Color, ColorSystem
from rich.color_triplet import ColorTriplet

from tui.dashboard.terminal import (
    GlyphsError,
    choose_glyphs,
    colour_count,
    is_utf8_locale,
    locale_name,
    without_coercion,
)


@pytest.mark.parametrize(
    ("environ", "utf8"),
    [
        ({"LANG": "C"}, False),
        ({"LANG": "POSIX"}, False),
        ({}, False),  # no locale at all is POSIX's C
        ({"LANG": ""}, False),
        ({"LANG": "en_US"}, False),  # ISO-8859-1
        ({"LANG": "de_DE.ISO-8859-15@euro"}, False),
        ({"LANG": "C.UTF-8"}, True),
        ({"LANG": "en_GB.utf8"}, True),
        ({"LANG": "de_DE.UTF-8@euro"}, True),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "C"}, False),  # LC_ALL first
        ({"LANG": "C", "LC_ALL": "fr_FR.UTF-8"}, True),
        ({"LANG": "C", "LC_CTYPE": "en_GB.UTF-8"}, True),  # LC_CTYPE before LANG
        ({"LANG": "en_GB.UTF-8", "LC_CTYPE": "POSIX"}, False),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": ""}, True),  # empty is unset
    ],
)
def test_the_locale_is_read_in_posix_order(environ: dict[str, str], utf8: bool) -> None:
    assert is_utf8_locale(locale_name(environ)) is utf8
    assert choose_glyphs(None, environ) == ("unicode" if utf8 else "ascii")


def test_where_the_start_up_environment_is_lost_a_coerced_ctype_is_dropped() -> None:
    assert without_coercion({"LANG": "C", "LC_CTYPE": "C.UTF-8"}) == {"LANG": "C"}
    kept = {"LANG": "en_GB.UTF-8", "LC_CTYPE": "C.UTF-8"}
    assert without_coercion(kept) == kept


def test_flags_then_the_environment_then_the_locale_choose_the_glyphs() -> None:
    c_locale = {"LANG": "C"}
    assert choose_glyphs("unicode", c_locale) == "unicode"
    assert choose_glyphs("ascii", {"LANG": "C.UTF-8"}) == "ascii"
    assert choose_glyphs(None, {**c_locale, "QUEENS_GLYPHS": "Unicode"}) == "unicode"
    assert choose_glyphs(None, {"LANG": "C.UTF-8", "QUEENS_GLYPHS": "ascii"}) == "ascii"
    with pytest.raises(GlyphsError, match=r"QUEENS_GLYPHS='utf8'.*ascii or unicode"):
        choose_glyphs(None, {"QUEENS_GLYPHS": "utf8"})


@pytest.mark.parametrize(
    ("argv", "asked"),
    [
        ([], None),
        (["--ascii"], "ascii"),
        (["--unicode"], "unicode"),
        (["--ascii", "tui"], "ascii"),  # before the subcommand: kept
        (["tui", "--unicode", "--n", "8"], "unicode"),
        (["tui"], None),
        (["replay", "3", "--ascii"], "ascii"),
    ],
)
def test_glyph_flags_are_read_before_or_after_the_subcommand(
    argv: list[str], asked: str | None
) -> None:
    from tui.cli.command_line import build_parser
    from tui.cli.glyph_flags import glyphs_asked

    assert glyphs_asked(build_parser(argv).parse_args(argv)) == asked


def test_ascii_and_unicode_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli.command_line import main

    with pytest.raises(SystemExit) as exited:
        main(["tui", "--ascii", "--unicode"])
    assert exited.value.code == 2
    assert "--unicode: not allowed with argument --ascii" in capsys.readouterr().err


def test_the_help_names_the_variable_the_dashboard_reads() -> None:
    from tui.cli.command_line import build_parser
    from tui.dashboard.terminal import GLYPHS_VARIABLE

    assert f"{GLYPHS_VARIABLE}=unicode" in build_parser([]).format_help()


@pytest.mark.parametrize(
    ("environ", "colours"),
    [
        ({"TERM": "xterm"}, 16),
        ({"TERM": "linux"}, 16),
        ({"TERM": "screen"}, 16),
        ({"TERM": "vt100"}, 16),
        ({"TERM": "xterm-256color"}, 256),
        ({"TERM": "tmux-256color"}, 256),
        ({"TERM": "xterm", "COLORTERM": "truecolor"}, 1 << 24),
        ({"TERM": "xterm-256color", "TEXTUAL_COLOR_SYSTEM": "standard"}, 16),
    ],
)
def test_colours_are_counted_as_textual_draws_them(environ: dict[str, str], colours: int) -> None:
    assert colour_count(environ) == colours


def test_the_triplets_are_rich_s_own() -> None:
    """The contrast test relies on Rich matching #0000aa to ANSI blue, as app.tcss says."""
    assert Color.parse("#0000aa").downgrade(ColorSystem.STANDARD).number == 4
    assert ColorTriplet(0, 0, 170) == Color.parse("#0000aa").get_truecolor()
