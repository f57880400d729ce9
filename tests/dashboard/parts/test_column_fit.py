"""Columns fitted to a narrow screen: words wrap, numbers keep their width."""

from __future__ import annotations

from tui.dashboard.pictures.column_fit import fitted_widths, longest_words, natural_widths, wrapped


def test_narrow_columns_wrap_their_words_and_the_numbers_keep_their_width() -> None:
    header = ("gen", "#", "fitness", "conf", "operator", "parent")
    rows = [
        ("1,204-1,230", "12", "0.993421", "3", "survivor", "#12"),
        ("1,203", "12", "0.991", "4", "order-uniform + shuffle-indexes", "#40 (+#7)"),
    ]
    natural = natural_widths(header, rows)
    shortest = [None] * 4 + [longest_words(4, header, rows), longest_words(5, header, rows)]
    assert shortest[4:] == [len("shuffle-indexes"), len("parent")]
    widths = fitted_widths(natural, shortest, 48)
    assert sum(widths) <= 48 and widths[:4] == natural[:4]
    assert all(len(line) <= widths[4] for line in wrapped(rows[1][4], widths[4]))
    assert wrapped(rows[1][4], widths[4])[0] == "order-uniform +"
    # Too narrow for the longest words: the room is shared, words broken, nothing past it.
    tight = fitted_widths(natural, shortest, 40)
    assert sum(tight) <= 40 and tight[:4] == natural[:4]
    assert all(len(line) <= tight[4] for line in wrapped(rows[1][4], tight[4]))
