"""A lesson's rows as text: a table too wide for the lessons screen at 80x24 puts its two-word
column names on two header lines, so the landscape's ten columns fit without wrapping; a narrow
table keeps its one header line."""

from __future__ import annotations

from tui.lab.lessons.table import FITS, table_lines

LANDSCAPE_ROWS = [
    {
        "label": f"n={n}",
        "n": n,
        "boards": boards,
        "solutions": solutions,
        "mean_cost": (2 * n - 1) / 3,
        "strict_minima": strict,
        "weak_minima": weak,
        "descent_solved": solved,
        "fdc_hamming": 0.6595,
        "fdc_swap": 0.7703,
    }
    for n, boards, solutions, strict, weak, solved in (
        (4, 24, 2, 0, 0, 1.0),
        (9, 362_880, 352, 48, 3_660, 0.4214),
        (10, 3_628_800, 724, 0, 12_345, 0.4321),
    )
]


def test_the_landscape_fits_80_columns_under_a_two_line_header() -> None:
    lines = table_lines(LANDSCAPE_ROWS)
    assert all(len(line) <= FITS for line in lines), [len(line) for line in lines]
    first, second, *rows = lines
    assert first.split() == ["mean", "strict", "weak", "descent", "fdc", "fdc"]
    assert second.split()[:4] == ["label", "n", "boards", "solutions"]
    assert second.split()[4:] == ["cost", "minima", "minima", "solved", "hamming", "swap"]
    nine = "n=9 9 362,880 352 5.667 48 3,660 0.4214 0.6595 0.7703"
    assert rows[1].split() == nine.split()
    # Each value starts under its column's name.
    assert rows[1].index("3,660") == second.index("minima", second.index("minima") + 1)


def test_a_narrow_table_keeps_one_header_line_and_two_spaces() -> None:
    lines = table_lines([{"label": "t=1", "measured": 0.5, "gave_up": 0}])
    assert lines == ["label  measured  gave_up", "t=1    0.5       0"]
