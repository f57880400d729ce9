"""What the terminal can show: how many colours, and whether its locale is UTF-8.

Colours are decided as Textual decides them (it asks Rich): ``TEXTUAL_COLOR_SYSTEM`` if set,
else ``COLORTERM=truecolor`` (or ``24bit``) for 16 million colours, else the end of ``TERM``:
``-256color`` (or ``kitty``) for 256, anything else (``xterm``, ``linux``, ``screen``,
``vt100``) for the 16 ANSI colours. SSH forwards ``TERM`` but not ``COLORTERM``, so over SSH
most terminals are drawn in 16 or 256 colours, whatever they could show.

Characters: a locale whose character set is not UTF-8 (``LANG=C``, ``POSIX``,
``en_US.ISO-8859-1``, or no locale variable at all) gets the dashboard in ASCII only. The
locale is read as the user set it, in the POSIX order (``LC_ALL``, then ``LC_CTYPE``, then
``LANG``): Python itself, seeing a C locale, sets ``LC_CTYPE=C.UTF-8`` in its own environment
at start-up (PEP 538) and would report UTF-8. On Linux the environment the process was started
with is still in ``/proc/self/environ``; elsewhere a ``LC_CTYPE`` of ``C.UTF-8`` beside a C
``LANG`` is taken for Python's doing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from textual.dom import DOMNode

Glyphs = Literal["ascii", "unicode"]
"""What the dashboard draws with: ASCII only, or Unicode (box drawing, Braille, symbols)."""

GLYPHS_VARIABLE: Final = "QUEENS_GLYPHS"
"""Environment variable choosing the glyphs (``ascii`` or ``unicode``) whatever the locale."""
GLYPH_CHOICES: Final[tuple[Glyphs, ...]] = ("ascii", "unicode")

LOCALE_VARIABLES: Final = ("LC_ALL", "LC_CTYPE", "LANG")
"""The variables that name the character set, the first one set (not empty) winning."""
COERCED_LOCALES: Final = frozenset({"c.utf-8", "c.utf8", "utf-8"})
"""What Python sets ``LC_CTYPE`` to when it finds a C locale (PEP 538)."""
C_LOCALES: Final = frozenset({"", "c", "posix"})

COLOUR_COUNTS: Final = {"standard": 16, "windows": 16, "256": 256, "truecolor": 1 << 24}
"""Colours of each of Rich's colour systems."""

ASCII_CLASS: Final = "-ascii"
"""The app's class in ASCII mode (widgets word their marks in ASCII under it)."""
SIXTEEN_COLOURS_CLASS: Final = "-sixteen-colours"
"""The app's class where Textual draws in the 16 ANSI colours (``app.tcss`` restyles)."""


class GlyphsError(ValueError):
    """The glyphs asked for by :data:`GLYPHS_VARIABLE` are not a known choice."""


def startup_environment() -> Mapping[str, str]:
    """The environment this process was started with, before Python changed its own.

    ``/proc/self/environ`` keeps it on Linux; where it cannot be read, ``os.environ`` less
    the ``LC_CTYPE`` that Python sets over a C locale (PEP 538: ``C.UTF-8`` when ``LC_ALL`` is
    unset and ``LANG`` is C, POSIX or empty).
    """
    try:
        with open("/proc/self/environ", "rb") as environ_file:
            raw = environ_file.read()
    except OSError:
        return without_coercion(os.environ)
    variables = {}
    for entry in raw.split(b"\0"):
        name, equals, value = entry.partition(b"=")
        if equals:
            variables[os.fsdecode(name)] = os.fsdecode(value)
    return variables


def without_coercion(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` less a ``LC_CTYPE`` that looks set by Python over a C locale (PEP 538).

    Only a guess where the start-up environment is lost: a user who set ``LC_CTYPE=C.UTF-8``
    beside ``LANG=C`` is taken for a C locale too.
    """
    variables = dict(environ)
    coerced = (
        not variables.get("LC_ALL")
        and variables.get("LC_CTYPE", "").lower() in COERCED_LOCALES
        and variables.get("LANG", "").lower() in C_LOCALES
    )
    if coerced:
        del variables["LC_CTYPE"]
    return variables


def locale_name(environ: Mapping[str, str]) -> str:
    """The locale that decides the character set: the first of ``LC_ALL``, ``LC_CTYPE`` and
    ``LANG`` that is set and not empty, else ``C`` (what POSIX gives a process with none)."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            return value
    return "C"


def is_utf8_locale(name: str) -> bool:
    """Whether a locale name's character set is UTF-8: ``en_GB.UTF-8``, ``C.utf8``,
    ``de_DE.UTF-8@euro``; not ``C``, ``POSIX``, ``en_US`` (ISO-8859-1) or ``ja_JP.eucJP``."""
    codeset = name.partition(".")[2].partition("@")[0]
    return codeset.lower().replace("-", "").replace("_", "") == "utf8"


def locale_is_utf8(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the locale the user set (``None``: this process's start-up environment) is
    UTF-8."""
    return is_utf8_locale(locale_name(startup_environment() if environ is None else environ))


def choose_glyphs(asked: Glyphs | None, environ: Mapping[str, str] | None = None) -> Glyphs:
    """What the dashboard draws with.

    Args:
        asked: ``--ascii`` or ``--unicode`` on the command line (``None``: neither).
        environ: The environment (``None``: this process's, as it started).

    Raises:
        GlyphsError: :data:`GLYPHS_VARIABLE` is set to something else than ``ascii`` or
            ``unicode``.
    """
    if asked is not None:
        return asked
    environ = startup_environment() if environ is None else environ
    wanted = environ.get(GLYPHS_VARIABLE, "").strip().lower()
    if wanted in GLYPH_CHOICES:
        return "ascii" if wanted == "ascii" else "unicode"
    if wanted:
        raise GlyphsError(
            f"{GLYPHS_VARIABLE}={environ[GLYPHS_VARIABLE]!r} is not a choice: "
            f"use {' or '.join(GLYPH_CHOICES)} (or leave it unset to follow the locale)"
        )
    return "unicode" if locale_is_utf8(environ) else "ascii"


def colour_count(environ: Mapping[str, str] | None = None) -> int:
    """How many colours Textual draws with in this environment (0: none, a dumb terminal).

    Asks Rich exactly as Textual's app does (``TEXTUAL_COLOR_SYSTEM`` first, a terminal
    forced), so the answer is what the dashboard will send.
    """
    import io

    from rich.console import Console

    environ = dict(os.environ if environ is None else environ)
    system = environ.get("TEXTUAL_COLOR_SYSTEM", "auto")
    console = Console(
        color_system=system if system in (*COLOUR_COUNTS, "auto") else "auto",  # type: ignore[arg-type]
        file=io.StringIO(),
        force_terminal=True,
        _environ=environ,
    )
    return COLOUR_COUNTS.get(console.color_system or "", 0)


def draws_ascii(node: DOMNode) -> bool:
    """Whether the app ``node`` is in draws ASCII only."""
    return node.app.has_class(ASCII_CLASS)
