"""Plain terminals: 16 colours, a locale that is not UTF-8, and the ASCII mode they call for.

The ASCII mode is checked where it matters, on what the dashboard writes to a real
pseudo-terminal: every character, escape sequences aside, must be ASCII, over every screen a
user reaches by keys. The locale rule is checked in a fresh Python, which rewrites its own
environment at start-up (PEP 538), and the 16-colour look by the contrast of the colours Textual
sends once Rich has brought them down to the 16 ANSI ones. The rules themselves, read without a
terminal, are in ``parts/test_terminal.py`` and ``parts/test_ascii_filter.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path

import pytest
from rich.color import Color, ColorSystem
from textual.geometry import Region
from textual.widgets._footer import FooterKey

from tests.pseudo_terminal import TerminalOutput
from tui.dashboard.app import QueensApp
from tui.dashboard.widgets.population_table import PopulationTable


def test_pythons_own_c_utf8_is_not_taken_for_the_users_locale() -> None:
    """With ``LANG=C`` Python sets ``LC_CTYPE=C.UTF-8`` in its own environment at start-up;
    the dashboard still sees C. A ``LC_CTYPE=C.UTF-8`` the user set is kept."""
    probe = (
        "import os; from tui.dashboard.terminal import choose_glyphs; "
        "print(os.environ.get('LC_CTYPE'), choose_glyphs(None))"
    )
    base = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    lines = []
    for extra in ({"LANG": "C"}, {"LANG": "C", "LC_CTYPE": "C.UTF-8"}):
        done = subprocess.run(
            [sys.executable, "-c", probe],
            env={**base, **extra, "PYTHONCOERCECLOCALE": "1"},
            capture_output=True,
            text=True,
            check=True,
        )
        lines.append(done.stdout.split())
    # Python coerces only where a C.UTF-8 locale is installed; the answer must not change.
    assert lines[0][1] == "ascii", "Python coerced the C locale; the user asked for C"
    assert lines[1] == ["C.UTF-8", "unicode"]
    if lines[0][0] != "C.UTF-8":
        pytest.skip("this system has no C.UTF-8 locale: Python did not coerce")


def test_an_unknown_glyph_choice_is_a_usage_error_not_a_traceback() -> None:
    done = subprocess.run(
        queens_script(),
        env={**os.environ, "QUEENS_GLYPHS": "fancy"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "QUEENS_GLYPHS='fancy' is not a choice: use ascii or unicode" in done.stderr
    assert "Traceback" not in done.stderr


# The dashboard on a pseudo-terminal -------------------------------------------------------

ESCAPES = re.compile(
    rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\|[()][0-9A-Za-z]"
    rb"|[=>78MDEHc])"
)
"""CSI, OSC and DCS sequences, character-set choices and the short escapes."""

TOUR: Sequence[tuple[bytes, float]] = (
    (b" ", 2.5),  # run
    (b" ", 0.5),  # pause
    (b"\x10", 1.5),  # ctrl+p: the palette
    (b"\x1b", 0.5),
    (b"?", 1.5),  # help
    (b"\x1b", 0.5),
    (b"t", 0.5),  # the table
    (b"\r", 1.5),  # inspect a row: conflicts, sparklines
    (b"\x1b", 0.5),
    (b"b", 0.5),
    (b"v", 1.0),  # the population's placement map
    (b"v", 1.0),  # its conflict histogram
    (b"v", 0.5),
    (b"[", 1.0),  # back in time: the chart's mark, REPLAY
    (b"+", 0.5),  # a toast
    (b"f", 1.0),  # the form
    (b"\x1b", 0.5),
    (b"l", 1.5),  # recorded runs
    (b"\x1b", 0.5),
    (b"s", 2.5),  # every solution
    (b"\x1b", 0.5),
    (b"\x1b", 0.5),
    (b"x", 2.0),  # the race
    (b"\x1b", 0.5),
)
"""Keys that walk through every screen, with the seconds to let each one draw."""


def queens_script() -> list[str]:
    """The installed console script, else ``python -m tui``."""
    script = Path(sys.executable).with_name("queens")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


def dashboard_output(
    tmp_path: Path,
    environ: Mapping[str, str],
    args: Sequence[str],
    tour: Sequence[tuple[bytes, float]],
) -> str:
    """Everything the dashboard writes to a 100x32 pseudo-terminal while ``tour`` is typed,
    then ``q``; escape sequences removed."""
    import fcntl
    import pty
    import struct
    import termios

    pid, terminal = pty.fork()
    if pid == 0:  # the child: the locale and terminal exactly as given, nothing inherited
        for name in ("LC_ALL", "LC_CTYPE", "LANG", "COLORTERM", "QUEENS_GLYPHS", "NO_COLOR"):
            os.environ.pop(name, None)
        os.environ.update(environ)
        os.environ["QUEENS_STORE"] = str(tmp_path / "runs.sqlite3")
        os.environ["QUEENS_GA_CONFIG_DIR"] = str(tmp_path / "settings")
        command = queens_script()
        os.execv(command[0], [*command, *args])
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    output = TerminalOutput(terminal, look=0.05)
    output.wait_for(b"Quit", 60.0, "the dashboard's footer")
    for key, seconds in tour:
        os.write(terminal, key)
        output.read_for(seconds)
    os.write(terminal, b"q")
    output.read_for(20.0)
    _, status = os.waitpid(pid, 0)
    os.close(terminal)
    assert os.waitstatus_to_exitcode(status) == 0, output.last()
    return ESCAPES.sub(b"", output.written).decode("utf-8", errors="replace")


def not_ascii(text: str) -> str:
    """The characters of ``text`` that are not ASCII, once each."""
    return "".join(sorted({character for character in text if not character.isascii()}))


def test_a_c_locale_on_the_linux_console_gets_ascii_only(tmp_path: Path) -> None:
    """TERM=linux LANG=C (what a serial console or a bare SSH session has): ASCII by itself."""
    written = dashboard_output(tmp_path, {"TERM": "linux", "LANG": "C"}, [], TOUR)
    assert "Quit" in written and "Population" in written
    assert not_ascii(written) == ""


def test_ascii_flag_in_a_utf8_locale_draws_ascii_only(tmp_path: Path) -> None:
    written = dashboard_output(tmp_path, {"TERM": "xterm", "LANG": "C.UTF-8"}, ["--ascii"], TOUR)
    assert "Quit" in written
    assert not_ascii(written) == ""


def test_unicode_flag_brings_unicode_back_and_the_palette_has_no_emoji(tmp_path: Path) -> None:
    """``--unicode`` over a C locale draws box lines again; the palette's prompt is ``>``,
    not the magnifying-glass emoji many fonts and browsers cannot draw."""
    tour = ((b"\x10", 1.5), (b"\x1b", 0.5))
    written = dashboard_output(
        tmp_path, {"TERM": "xterm-256color", "LANG": "C"}, ["--unicode"], tour
    )
    assert "╭" in written and "─" in written
    assert "🔎" not in written


# Pilot: what ASCII mode draws, and the 16-colour look ---------------------------------------


async def test_every_glyph_drawn_in_ascii_mode_has_a_translation() -> None:
    """Nothing on the screens the keys reach falls back to ``?``, and the boards' screens are
    told to draw ASCII (the board draws it)."""
    from tui.dashboard.screens import RaceScreen

    app = QueensApp(ascii=True, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        for key in ("space", "ctrl+p", "escape", "question_mark", "escape", "t", "enter"):
            await pilot.press(key)
            await pilot.pause(0.3)
        await pilot.press("escape", "space", "x")
        await pilot.pause(0.5)
        assert app.has_class("-ascii")
        assert app.main_screen.ascii
        assert isinstance(app.screen, RaceScreen) and app.screen.ascii
        assert app.unmapped_characters == set()


XTERM: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
)  # fmt: skip
"""xterm's default 16 colours (``TERM=xterm``, the one PuTTY announces too)."""
PUTTY: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0), (187, 0, 0), (0, 187, 0), (187, 187, 0), (0, 0, 187), (187, 0, 187),
    (0, 187, 187), (187, 187, 187), (85, 85, 85), (255, 85, 85), (85, 255, 85), (255, 255, 85),
    (85, 85, 255), (255, 85, 255), (85, 255, 255), (255, 255, 255),
)  # fmt: skip
"""PuTTY's default 16 colours."""


def luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance, as WCAG defines it."""
    channels = []
    for value in rgb:
        c = value / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def sixteen_colour_contrast(foreground: Color, background: Color) -> float:
    """The worst contrast ratio of two colours, once brought down to the 16 ANSI colours as
    Rich does for ``TERM=xterm``, under xterm's and PuTTY's palettes."""
    numbers = [colour.downgrade(ColorSystem.STANDARD).number for colour in (foreground, background)]
    ratios = []
    for palette in (XTERM, PUTTY):
        light, dark = sorted((luminance(palette[n or 0]) for n in numbers), reverse=True)
        ratios.append((light + 0.05) / (dark + 0.05))
    return min(ratios)


def drawn_colours(widget: object, text: str) -> tuple[Color, Color]:
    """The foreground and background the segment holding ``text`` is drawn in."""
    from textual.widget import Widget

    assert isinstance(widget, Widget)
    width, height = widget.size.width + 4, widget.size.height + 2
    for strip in widget.render_lines(Region(0, 0, width, height)):
        for segment in strip:
            style = segment.style
            if text in segment.text and style is not None and style.color and style.bgcolor:
                return style.color, style.bgcolor
    raise AssertionError(f"{text!r} is not drawn by {widget!r}")


async def test_footer_keys_and_table_header_read_in_16_colours(
    wait_for: Callable[..., Awaitable[None]],
) -> None:
    """WCAG's 4.5 at least, in xterm's and PuTTY's 16 colours: the theme's orange keys on
    grey and yellow header on grey both came down to bright colours on bright black."""
    app = QueensApp(colours=16, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:

        def step_keys() -> list[FooterKey]:
            return [key for key in app.screen.query(FooterKey) if key.key_display == "n"]

        await wait_for(pilot, lambda: bool(step_keys()), "the footer's keys")
        assert app.has_class("-sixteen-colours")
        key = step_keys()[0]
        for part in ("footer-key--key", "footer-key--description"):
            style = key.get_component_rich_style(part)  # what FooterKey.render draws with
            assert style.color is not None and style.bgcolor is not None
            assert sixteen_colour_contrast(style.color, style.bgcolor) >= 4.5, part
        table = app.screen.query_one(PopulationTable)
        foreground, background = drawn_colours(table, "Rank")
        assert sixteen_colour_contrast(foreground, background) >= 4.5


async def test_table_rows_and_cursor_read_in_16_colours() -> None:
    """The odd rows' stripe and the cursor came down to bright black and cyan, under which the
    genome's cyan and the cursor's white read at 2: every figure and gene of the first rows,
    cursor on them or not, table focused or not, reads at 4.5 at least."""
    app = QueensApp(colours=16, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await pilot.pause(0.5)
        table = app.screen.query_one(PopulationTable)
        await pilot.press("t")
        for key in ("", "f"):  # the table focused, then the form
            if key:
                await pilot.press(key)
                await pilot.pause(0.3)
            focused = table.has_focus
            lines = table.render_lines(Region(0, 0, table.size.width, 6))[2:6]  # rows 1-4
            drawn = [
                segment for line in lines for segment in list(line)[1:-1] if segment.text.strip()
            ]
            assert len(drawn) >= 8
            for segment in drawn:
                style = segment.style
                assert style is not None and style.color is not None
                background = style.bgcolor or Color.parse("#000000")
                contrast = sixteen_colour_contrast(style.color, background)
                assert contrast >= 4.5, (focused, segment.text, contrast)
        assert not table.has_focus
