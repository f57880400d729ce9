"""The exact search: counts against OEIS, listings against brute force and the symmetry code."""

from __future__ import annotations

import itertools
from typing import Final

import numpy as np
import pytest

from engine import ConfigError
from engine.solutions.archive import KNOWN_TOTALS, canonical_boards, symmetry_images
from engine.solutions.backtracking import (
    FRONTIER_BUDGET,
    LAST_ROWS,
    Frontier,
    columns_of,
    count_completions,
    depth_first,
    extend,
    frontier_of,
    piece_size,
    placements_of,
)
from engine.solutions.exact import (
    COUNTING_LIMIT,
    LISTING_LIMIT,
    CountProgress,
    canonical_flags,
    check_board_size,
    count_solutions,
    count_steps,
    list_solutions,
    listing_steps,
    solution_list,
)
from engine.solutions.symmetry import fundamental_count, half_turn_symmetric, quarter_turn_symmetric

ALL_SOLUTIONS: Final = (1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596)
"""OEIS A000170, N = 1, 2, ...: every solution."""

FUNDAMENTAL: Final = (1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752)
"""OEIS A002562: solutions distinct under rotations and reflections."""

TESTED: Final = range(1, 13)
"""Board sizes listed and counted here (N = 12 lists in hundredths of a second)."""


def brute_force(n: int) -> list[tuple[int, ...]]:
    """Every solution of ``n``, by trying every permutation, in lexicographic order."""
    return [
        board
        for board in itertools.permutations(range(n))
        if len({r + c for r, c in enumerate(board)}) == n
        and len({r - c for r, c in enumerate(board)}) == n
    ]


def assert_valid_distinct_sorted(boards: np.ndarray, n: int) -> None:
    """Every row a solution (one queen per column, no shared diagonal), strictly increasing."""
    assert boards.shape[1] == n
    assert boards.dtype == np.uint8
    rows = np.arange(n)
    assert np.array_equal(np.sort(boards, axis=1), np.broadcast_to(rows, boards.shape))
    sums, differences = boards + rows, boards.astype(np.int64) - rows
    assert np.all(np.diff(np.sort(sums, axis=1), axis=1) > 0)
    assert np.all(np.diff(np.sort(differences, axis=1), axis=1) > 0)
    keys = placements_of(boards)  # they sort as the boards do
    assert np.all(keys[1:] > keys[:-1])


@pytest.mark.parametrize("n", TESTED)
def test_counts_match_oeis(n: int) -> None:
    count = count_solutions(n)
    assert (count.n, count.total, count.fundamental) == (
        n,
        ALL_SOLUTIONS[n - 1],
        FUNDAMENTAL[n - 1],
    )


def test_the_counts_the_harvest_stops_at_are_the_oeis_ones() -> None:
    for n, total, fundamental in zip(range(1, 15), ALL_SOLUTIONS, FUNDAMENTAL, strict=True):
        assert KNOWN_TOTALS[n] == (total, fundamental)


@pytest.mark.parametrize("n", TESTED)
def test_listing_is_every_solution_once_in_lexicographic_order(n: int) -> None:
    listing = list_solutions(n)
    assert listing.complete
    assert (listing.total, listing.fundamental) == (ALL_SOLUTIONS[n - 1], FUNDAMENTAL[n - 1])
    if listing.total:
        assert_valid_distinct_sorted(listing.boards, n)
    assert not listing.searched.flags.writeable
    assert not listing.searched_canonical.flags.writeable
    blocks = list(listing.blocks(7))
    assert all(len(boards) == len(marks) <= 7 for boards, marks in blocks)
    if blocks:
        assert np.array_equal(np.concatenate([b for b, _ in blocks]), listing.boards)
        assert np.array_equal(np.concatenate([m for _, m in blocks]), listing.canonical)


@pytest.mark.parametrize("n", range(1, 10))
def test_listing_equals_brute_force(n: int) -> None:
    assert [tuple(board) for board in list_solutions(n).boards.tolist()] == brute_force(n)


@pytest.mark.parametrize("n", TESTED)
def test_marked_solutions_are_the_class_representatives(n: int) -> None:
    """Against engine.solutions.archive: a board is marked exactly when it is the smallest of its 8
    images; every class (all images of a representative) is among the solutions, has 2, 4 or
    8 members (1 for N = 1), and one marked member."""
    listing = list_solutions(n)
    boards = listing.boards.astype(np.int64)
    if listing.total == 0:
        return
    smallest = canonical_boards(boards)
    assert np.array_equal(listing.canonical, np.all(smallest == boards, axis=1))
    solutions = {tuple(board) for board in boards.tolist()}
    classes: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for board, representative in zip(boards.tolist(), smallest.tolist(), strict=True):
        classes.setdefault(tuple(representative), set()).add(tuple(board))
    assert len(classes) == listing.fundamental
    marked = {tuple(board) for board in boards[listing.canonical].tolist()}
    assert marked == set(classes)
    for representative, members in classes.items():
        images = symmetry_images(np.array([representative]))[:, 0]
        assert members == {tuple(image) for image in images.tolist()} <= solutions
        assert len(members) in ({1} if n == 1 else {2, 4, 8})


def test_canonical_flags_on_boards_that_are_not_solutions() -> None:
    """The mark is the symmetry code's, for any permutation: random ones of N = 16."""
    rng = np.random.default_rng(7)
    boards = np.argsort(rng.random((5000, 16)), axis=1).astype(np.uint8)
    boards[:8] = symmetry_images(boards[:1].astype(np.int64))[:, 0]  # one class, whole
    expected = np.all(canonical_boards(boards.astype(np.int64)) == boards, axis=1)
    assert np.array_equal(canonical_flags(boards), expected)
    assert canonical_flags(boards[:8]).sum() == 1


def test_steps_report_progress_and_end_complete() -> None:
    steps = list(count_steps(12))
    prefixes = steps[0].prefixes
    assert steps[0] == CountProgress(12, 0, prefixes, 0)
    assert len(steps) > 2 and steps[-1].searched == prefixes
    assert all(a.searched < b.searched for a, b in itertools.pairwise(steps))
    assert all(s.prefixes == prefixes for s in steps)
    assert all(a.solutions <= b.solutions for a, b in itertools.pairwise(steps))
    assert [s.complete for s in steps] == [False] * (len(steps) - 1) + [True]
    assert steps[-1].solutions == 14200
    calls: list[tuple[int, int]] = []
    count_solutions(12, progress=lambda searched, of: calls.append((searched, of)))
    assert calls == [(s.searched, s.prefixes) for s in steps]


def test_a_listing_stopped_early_holds_what_was_found_sorted() -> None:
    steps = listing_steps(11)
    first = [next(steps), next(steps)]
    partial = solution_list(11, first, complete=False)
    everything = {tuple(board) for board in list_solutions(11).boards.tolist()}
    assert not partial.complete
    assert 0 < partial.total < 2680
    assert_valid_distinct_sorted(partial.boards, 11)
    assert {tuple(board) for board in partial.boards.tolist()} <= everything
    assert partial.fundamental == int(first[1].canonical.sum())


def test_batches_come_in_lexicographic_order() -> None:
    batches = [batch.boards for batch in listing_steps(12) if batch.boards.shape[0]]
    assert len(batches) > 1
    half = np.concatenate(batches)
    assert np.all(placements_of(half)[1:] > placements_of(half)[:-1])
    assert half.shape[0] == 14200 // 2


@pytest.mark.parametrize(
    ("n", "listing", "words"),
    [
        (0, False, "at least 1"),
        (-3, True, "at least 1"),
        (COUNTING_LIMIT + 1, False, f"N <= {COUNTING_LIMIT}"),
        (LISTING_LIMIT + 1, True, "count them instead"),
    ],
)
def test_board_sizes_out_of_reach_are_refused_by_name(n: int, listing: bool, words: str) -> None:
    with pytest.raises(ConfigError) as refused:
        check_board_size(n, listing=listing)
    assert refused.value.field == "n" and words in str(refused.value)
    with pytest.raises(ConfigError):
        next(listing_steps(n) if listing else count_steps(n))


def test_counting_beyond_the_listing_limit_is_allowed() -> None:
    check_board_size(LISTING_LIMIT + 1, listing=False)
    first = next(count_steps(LISTING_LIMIT + 1))
    assert (first.searched, first.solutions) == (0, 0) and first.prefixes > 1


@pytest.mark.parametrize("n", range(1, 13))
def test_half_and_quarter_turn_symmetric_solutions_against_the_listing(n: int) -> None:
    boards = list_solutions(n).boards
    rows = np.arange(n)
    half_turned = (n - 1 - boards)[:, ::-1]
    expected = {
        tuple(b) for b, h in zip(boards.tolist(), half_turned.tolist(), strict=True) if b == h
    }
    found = half_turn_symmetric(n)
    assert {tuple(board) for board in found.tolist()} == expected
    assert found.shape[0] == len(expected)  # each once
    # A quarter turn moves (r, c) to (c, n - 1 - r): built queen by queen here.
    quarter = np.empty_like(boards)
    for index, board in enumerate(boards.tolist()):
        for r, c in zip(rows.tolist(), board, strict=True):
            quarter[index, c] = n - 1 - r
    assert np.array_equal(quarter_turn_symmetric(boards), np.all(quarter == boards, axis=1))


def test_a_wrong_total_does_not_make_whole_classes() -> None:
    assert fundamental_count(8, 92) == 12
    with pytest.raises(ArithmeticError):
        fundamental_count(8, 93)


def test_placements_round_trip_and_sort_like_boards() -> None:
    rng = np.random.default_rng(3)
    boards = rng.integers(0, 16, size=(1000, 16)).astype(np.uint8)
    assert np.array_equal(columns_of(placements_of(boards), 16), boards)
    order = np.lexsort(boards.T[::-1])
    assert np.array_equal(np.argsort(placements_of(boards), kind="stable"), order)


def test_extend_places_every_fitting_queen_once() -> None:
    """One row deeper, the frontier is every valid extension of every board, whatever order."""
    n = 9
    prefixes = np.array([p[:3] for p in brute_force_prefixes(n, 3)], dtype=np.uint8)
    frontier = frontier_of(prefixes, n, keep_placements=True)
    deeper = extend(frontier, n)
    assert deeper.placements is not None
    expected = placements_of(np.array(brute_force_prefixes(n, 4), dtype=np.uint8))
    assert np.array_equal(np.sort(deeper.placements), np.sort(expected))
    # The masks are those of the boards the placements describe.
    again = frontier_of(columns_of(deeper.placements, n)[:, :4], n, keep_placements=False)
    assert np.array_equal(deeper.masks, again.masks)


def brute_force_prefixes(n: int, rows: int) -> list[tuple[int, ...]]:
    """Every placement of ``rows`` queens on the first rows of an ``n`` board, none attacked."""
    return [
        prefix
        for prefix in itertools.permutations(range(n), rows)
        if len({r + c for r, c in enumerate(prefix)}) == rows
        and len({r - c for r, c in enumerate(prefix)}) == rows
    ]


def test_depth_first_in_small_pieces_counts_the_same() -> None:
    """Pieces change the order of work, never the result: N = 11 in pieces of 7 boards."""
    prefixes = np.array([(c,) for c in range(11)], dtype=np.uint8)
    start = frontier_of(prefixes, 11, keep_placements=False)
    pieces = list(depth_first(start, 11, piece=7))
    assert all(
        isinstance(p, Frontier) and p.depth == 11 - LAST_ROWS and len(p) <= 7 * 11 for p in pieces
    )
    assert sum(map(count_completions, pieces)) == 2680


def test_piece_size_keeps_the_frontier_within_its_budget() -> None:
    for n in range(4, COUNTING_LIMIT + 1):
        for keep in (False, True) if n <= LISTING_LIMIT else (False,):
            per_board = 3 * (2 if n <= 16 else 4) + (8 if keep else 0)
            worst = piece_size(n, keep) * per_board * n * (n + 1) // 2
            assert worst <= FRONTIER_BUDGET or piece_size(n, keep) == 1024
