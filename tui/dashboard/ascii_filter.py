"""ASCII only: every character the dashboard sends, translated as it leaves a widget.

The widgets choose ASCII words and marks themselves where a translation would read badly
(``...`` for an ellipsis, ``<=``, a chart's legend); this filter, a Textual line filter that
the app adds in ASCII mode, catches everything else, Textual's own drawing above all: borders,
scrollbars, the select's arrows, the footer's separator, toasts. Each character becomes as
many ASCII characters as the cells it takes, so nothing moves:

- box drawing by its shape: ``-`` ``|`` ``+`` (``=`` for a double line);
- block elements (``█▀▊▁``...) as the colour that covers most of the cell: a space, drawn in
  reverse when the block covers half or more, so bars, scrollbar thumbs and borders of blocks
  keep their look at a cell's precision; shades ``░▒▓`` as ``.:*``;
- Braille (the chart) by where its dots are: ``'`` high, ``-`` middle, ``.`` low, ``|`` tall;
- marks and symbols by a table (``…`` ``~``, ``·`` ``-``, ``×`` ``x``, ``▼`` ``v``, ``♛`` ``Q``).

A character in none of these is drawn as ``?`` and kept in :attr:`AsciiFilter.unmapped`, so a
test can name what still needs a translation.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

SYMBOLS: Final = {
    "\u00a0": " ",  # no-break space
    "…": "~",
    "·": "-",
    "•": "*",
    "×": "x",
    "÷": "/",
    "±": "+",
    "−": "-",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "≤": "<",
    "≥": ">",
    "≈": "~",
    "≠": "#",
    "∞": "~",
    "°": "o",
    "⇄": "/",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "▲": "^",
    "△": "^",
    "▴": "^",
    "▼": "v",
    "▽": "v",
    "▾": "v",
    "▶": ">",
    "▸": ">",
    "►": ">",
    "◀": "<",
    "◂": "<",
    "◄": "<",
    "●": "o",
    "○": "o",
    "◯": "O",
    "■": "#",
    "□": "#",
    "✓": "+",
    "✔": "+",
    "✗": "x",
    "✘": "x",
    "♛": "Q",
    "♕": "X",
    "½": "2",
    "¼": "4",
    "⅛": "8",
    "🔎": ">",
    "🔍": ">",
}
"""Marks and symbols the dashboard or Textual may draw, each as one ASCII character."""

SHADES: Final = {"░": ".", "▒": ":", "▓": "*"}
"""Light, medium and dark shade: a density, kept as one."""

BLOCK_SHARES: Final = {
    "█": 1.0,
    "▀": 0.5,
    "▄": 0.5,
    "▌": 0.5,
    "▐": 0.5,
    "▔": 1 / 8,
    "▕": 1 / 8,
    **{chr(0x2581 + k): (k + 1) / 8 for k in range(7)},  # ▁▂▃▄▅▆▇: lower eighths
    **{chr(0x2589 + k): (7 - k) / 8 for k in range(7)},  # ▉▊▋▌▍▎▏: left eighths
    **{chr(0x2596 + k): share for k, share in enumerate((1, 1, 1, 3, 2, 3, 3, 1, 2, 3))},
}
"""How much of its cell each block element fills with its colour (quadrants in quarters,
rescaled below)."""
QUADRANTS: Final = frozenset(chr(0x2596 + k) for k in range(10))

BRAILLE_BASE: Final = 0x2800
BRAILLE_ROWS: Final = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""The bits of the two dots of each of a Braille character's four rows."""


def braille_text(character: str) -> str:
    """A Braille character as the ASCII mark nearest its dots: a tall line (dots over three
    rows or more) ``|``, else by the height of its dots ``'`` top, ``-`` middle, ``.`` bottom,
    no dots a space."""
    code = ord(character) - BRAILLE_BASE
    rows = [row for row, bits in enumerate(BRAILLE_ROWS) if code & (bits[0] | bits[1])]
    if not rows:
        return " "
    if rows[-1] - rows[0] >= 2:
        return "|"
    middle = (rows[0] + rows[-1]) / 2
    return "'" if middle < 1 else "-" if middle <= 2 else "."


def box_text(name: str) -> str:
    """A box-drawing character, from its Unicode name, as ``-`` ``=`` ``|`` ``+`` ``/`` ``\\``.

    Lines across: double or heavy ``=``, dashed in two ``-``, dashed in three or four ``.``
    (so the chart's legend tells its solid, dashed and dotted lines apart), else ``-``.
    """
    if "DIAGONAL" in name:
        return "X" if "CROSS" in name else "/" if "UPPER RIGHT TO LOWER LEFT" in name else "\\"
    words = name.split()
    across = any(word in ("HORIZONTAL", "LEFT", "RIGHT") for word in words)
    down = any(word in ("VERTICAL", "UP", "DOWN") for word in words)
    if (across and down) or "ARC" in words:
        return "+"
    if across and ("TRIPLE DASH" in name or "QUADRUPLE DASH" in name):
        return "."
    if across and "DASH" not in name and ("DOUBLE HORIZONTAL" in name or "HEAVY" in name):
        return "="
    if across:
        return "-"
    return "|"


@lru_cache(maxsize=4096)
def ascii_character(character: str) -> tuple[str, float | None]:
    """One character as ASCII: its text (as wide as the character) and, for a block element,
    the share of the cell it fills with its colour (``None`` for anything else).

    Unknown characters come back as ``?`` marks.
    """
    if character.isascii():
        return character, None
    width = max(0, cell_len(character))
    if character in BLOCK_SHARES:
        share = BLOCK_SHARES[character] / (4 if character in QUADRANTS else 1)
        return " " * width, share
    if character in SHADES:
        return SHADES[character], None
    if character in SYMBOLS:
        return SYMBOLS[character].ljust(width), None
    if BRAILLE_BASE <= ord(character) <= BRAILLE_BASE + 0xFF:
        return braille_text(character), None
    name = unicodedata.name(character, "")
    if name.startswith("BOX DRAWINGS"):
        return box_text(name), None
    if width == 0:  # a combining mark or a zero-width character: nothing to draw
        return "", None
    return "?" * width, None


class _Translation(dict[int, str]):
    """``str.translate``'s table: each character's ASCII text, worked out on first sight."""

    def __init__(self, unmapped: set[str]) -> None:
        super().__init__()
        self.unmapped = unmapped

    def __missing__(self, code: int) -> str:
        character = chr(code)
        text, _share = ascii_character(character)
        if text.startswith("?"):
            self.unmapped.add(character)
        self[code] = text
        return text


SOLID_BLOCKS: Final = re.compile(
    "[" + "".join(block for block, share in BLOCK_SHARES.items() if share >= 0.5) + "]+"
)
"""Runs of block elements that fill half their cell or more (quadrants: ▙▛▜▟ and ▚▞)."""


TRANSLATIONS_KEPT: Final = 4096
"""Translated segments kept for reuse (a bound on the filter's memory)."""


@lru_cache(maxsize=1024)
def reversed_style(style: Style | None) -> Style:
    """``style`` with foreground and background swapped once more."""
    return (style or Style()) + Style(reverse=not (style and style.reverse))


class AsciiFilter(LineFilter):
    """Turns every segment's text into ASCII of the same width (see the module)."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__(enabled)
        self.unmapped: set[str] = set()
        """Characters drawn as ``?`` so far: none, once every glyph has its translation."""
        self._translation = _Translation(self.unmapped)
        self._done: dict[tuple[str, Style | None], list[Segment]] = {}
        """Segments already translated: a board or a chart repeats a few, line after line."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """The segments with ASCII text, block elements as reversed spaces where they fill
        half their cell or more."""
        filtered: list[Segment] = []
        done = self._done
        for segment in segments:
            text, style, control = segment
            if control or text.isascii():
                filtered.append(segment)
                continue
            pieces = done.get((text, style))
            if pieces is None:
                if len(done) >= TRANSLATIONS_KEPT:
                    done.clear()
                pieces = done[text, style] = self._translate(text, style)
            filtered.extend(pieces)
        return filtered

    def _translate(self, text: str, style: Style | None) -> list[Segment]:
        if SOLID_BLOCKS.search(text) is None:
            return [Segment(text.translate(self._translation), style)]
        return self._split(text, style)

    def _split(self, text: str, style: Style | None) -> list[Segment]:
        """A segment with solid blocks: the blocks as reversed spaces, the rest translated."""
        pieces: list[Segment] = []
        done = 0
        for run in SOLID_BLOCKS.finditer(text):
            if run.start() > done:
                pieces.append(Segment(text[done : run.start()].translate(self._translation), style))
            pieces.append(Segment(" " * (run.end() - run.start()), reversed_style(style)))
            done = run.end()
        if done < len(text):
            pieces.append(Segment(text[done:].translate(self._translation), style))
        return pieces
