"""The ASCII translation: every glyph keeps its width, Braille reads as its dots' height, blocks
become the colour covering most of the cell."""

from __future__ import annotations

from tui.dashboard.ascii_filter import AsciiFilter, ascii_character, braille_text


def test_every_translation_keeps_the_width() -> None:
    from rich.cells import cell_len

    for character in "…·×⇄≤▼▾✓✗♛♕─│╭╮╰╯┤├━╍┄═║╔▀▄█▊▏▁▔░▒▓🔎⣿⠉⣀":
        text, _ = ascii_character(character)
        assert text.isascii() and len(text) == cell_len(character), character


def test_braille_reads_as_the_height_of_its_dots() -> None:
    assert braille_text("\u2800") == " "
    assert braille_text("\u2809") == "'"  # both top dots
    assert braille_text("\u2812") == "-"  # second row
    assert braille_text("\u28c0") == "."  # both bottom dots
    assert braille_text("\u2847") == "|"  # the left column


def test_blocks_become_the_colour_covering_most_of_the_cell() -> None:
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color as TextualColor

    red = Style(color="red", bgcolor="blue")
    out = AsciiFilter().apply([Segment("▇▁█", red)], TextualColor(0, 0, 0))
    assert [(s.text, bool(s.style and s.style.reverse)) for s in out] == [
        (" ", True),
        (" ", False),
        (" ", True),
    ]
