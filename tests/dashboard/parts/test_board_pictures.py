"""The board's pictures (Braille dots, half blocks, density), checked against plain numpy."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dashboard.boards import permutation_position
from tui.dashboard.pictures.board_pictures import (
    BRAILLE_BASE,
    Position,
    braille_codes,
    decode_braille,
    density_counts,
    density_scale,
    square_kinds,
)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 240).flatmap(lambda n: st.permutations(list(range(n)))))
def test_braille_dots_decode_back_to_exactly_the_queens(rows: list[int]) -> None:
    position = permutation_position(rows)
    codes, attacked = braille_codes(position)
    n = len(rows)
    assert codes.shape == ((n + 3) // 4, (n + 1) // 2)
    lines = ["".join(chr(BRAILLE_BASE + int(code)) for code in line) for line in codes]
    assert decode_braille(lines) == {(row, column) for column, row in enumerate(rows)}
    # A character is marked attacked exactly when it holds an attacked queen.
    marked = {
        (row // 4, column // 2) for column, row in enumerate(rows) if position.attacked[column]
    }
    assert {tuple(cell) for cell in np.argwhere(attacked)} == marked


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 120).flatmap(lambda n: st.permutations(list(range(n)))))
def test_half_block_squares_are_exactly_the_queens_and_the_attacked_are_marked(
    rows: list[int],
) -> None:
    position = permutation_position(rows)
    kinds = square_kinds(position)
    n = len(rows)
    assert kinds.shape == (n + n % 2, n)
    queens = {(int(r), int(c)) for r, c in np.argwhere(kinds >= 2)}
    assert queens == {(row, column) for column, row in enumerate(rows)}
    attacked = {(int(r), int(c)) for r, c in np.argwhere(kinds == 3)}
    assert attacked == {
        (row, column) for column, row in enumerate(rows) if position.attacked[column]
    }


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 3000), st.integers(4, 120), st.integers(2, 60), st.integers(0, 2**32))
def test_the_density_picture_fits_and_counts_every_queen(
    n: int, width: int, height: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    position = permutation_position(rng.permutation(n).tolist())
    scale = density_scale(n, width, height)
    queens, attacked = density_counts(position, scale)
    assert queens.shape[1] <= width and queens.shape[0] <= height
    assert queens.sum() == n and attacked.sum() == position.attacked_count
    assert (attacked <= queens).all()


def test_a_million_queens_make_a_density_picture() -> None:
    rng = np.random.default_rng(1)
    n = 1_000_000
    rows = rng.permutation(n)
    position = Position(n, rows, np.arange(n), np.zeros(n, dtype=np.bool_))
    scale = density_scale(n, 80, 40)
    queens, _ = density_counts(position, scale)
    assert scale == 12_500 and queens.shape == (40, 80) and queens.sum() == n
