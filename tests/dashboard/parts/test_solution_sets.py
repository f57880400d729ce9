"""The solutions screen's pieces without an app: the sets the gallery reads, its layout, its
sentences."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from engine.solutions.archive import symmetry_images
from engine.solutions.exact import canonical_flags, list_solutions, listing_steps, solution_list
from tui.dashboard.pictures.gallery_layout import gallery_layout, pictures_that_fit
from tui.dashboard.pictures.solution_sets import (
    NOT_FOUND,
    ExactSolutionSet,
    FoundSolutionSet,
    columns_by_row,
)
from tui.dashboard.pictures.solution_texts import (
    AUTO_COUNT_LIMIT,
    exact_note,
    fitting,
    ga_text,
    known_text,
    listed_text,
)


def as_ga_boards(boards: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Boards written as the GA stores them: the row of the queen in each column."""
    return np.argsort(boards, axis=1).astype(np.int64)


def n64_solution() -> npt.NDArray[np.int64]:
    """A solution of N = 64 (N mod 6 = 4): the odd columns of the rows in order, then the even."""
    return np.array([*range(1, 64, 2), *range(0, 64, 2)], dtype=np.int64)


# The exact set --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 6, 8, 9])
def test_the_exact_set_reads_as_the_listing_in_any_stretch(n: int) -> None:
    listing = list_solutions(n)
    solutions = ExactSolutionSet(listing)
    assert solutions.count == listing.total
    assert np.array_equal(solutions.boards(0, solutions.count), listing.boards)
    assert np.array_equal(solutions.fundamental(0, solutions.count), listing.canonical)
    # Stretches across the searched half and its mirror images, and past the end.
    half = listing.searched.shape[0]
    for start, stop in [(half - 3, half + 4), (0, 1), (solutions.count - 2, solutions.count + 5)]:
        start = max(0, start)
        expected = listing.boards[start:stop]
        assert np.array_equal(solutions.boards(start, stop), expected)
        assert np.array_equal(solutions.fundamental(start, stop), listing.canonical[start:stop])


def test_the_exact_set_marks_the_12_fundamental_solutions_the_command_line_marks() -> None:
    solutions = ExactSolutionSet(list_solutions(8))
    flags = solutions.fundamental(0, 92)
    assert int(flags.sum()) == 12
    assert np.array_equal(flags, canonical_flags(solutions.boards(0, 92)))


def test_the_ga_s_finds_are_marked_where_they_are_listed() -> None:
    listing = list_solutions(8)
    solutions = ExactSolutionSet(listing)
    chosen = np.array([0, 3, 45, 46, 90])  # both halves
    assert solutions.mark_found(as_ga_boards(listing.boards[chosen]), 140) == 5
    generations = solutions.found_generations(0, 92)
    assert np.flatnonzero(generations != NOT_FOUND).tolist() == chosen.tolist()
    assert set(generations[chosen].tolist()) == {140}
    assert solutions.found == 5 and solutions.unmatched == 0
    assert solutions.found_fundamental == int(listing.canonical[chosen].sum())
    # Later finds keep their own generation; a stretch reads its part.
    assert solutions.mark_found(as_ga_boards(listing.boards[[7]]), 150) == 1
    assert solutions.found_generations(6, 9).tolist() == [NOT_FOUND, 150, NOT_FOUND]
    assert solutions.mark_found(as_ga_boards(listing.boards[chosen]), 160) == 0


def test_every_solution_the_ga_can_find_is_in_the_exact_set() -> None:
    listing = list_solutions(10)
    solutions = ExactSolutionSet(listing)
    shuffled = np.random.default_rng(3).permutation(listing.boards)
    assert solutions.mark_found(as_ga_boards(shuffled), 9) == 724
    assert solutions.found == 724 and solutions.found_fundamental == 92


def test_a_stopped_listing_counts_the_finds_it_lacks_as_unmatched() -> None:
    batches = list(listing_steps(12))
    partial = solution_list(12, batches[:2], complete=False)
    solutions = ExactSolutionSet(partial)
    every = list_solutions(12).boards
    solutions.mark_found(as_ga_boards(every), 1)
    assert solutions.found == solutions.count < every.shape[0]
    assert solutions.unmatched == every.shape[0] - solutions.count


# The GA's finds above the listing limit -------------------------------------------------------


def test_the_found_set_marks_one_fundamental_board_per_class() -> None:
    # This solution is its own half-turn, so its 8 images are 4 distinct boards.
    images = symmetry_images(as_ga_boards(n64_solution()[None, :])).reshape(-1, 64)
    distinct = np.unique(images, axis=0)
    assert distinct.shape[0] == 4
    found = FoundSolutionSet(64)
    assert found.update(distinct[:2], 10)
    assert not found.update(distinct[:2], 11)
    assert found.update(distinct, 12)
    assert found.count == 4
    assert int(found.fundamental(0, 4).sum()) == 1
    assert found.found_generations(0, 4).tolist() == [10, 10, 12, 12]
    assert found.found_generations(3, 9).tolist() == [12]
    assert np.array_equal(found.boards(0, 1)[0], columns_by_row(distinct[:1])[0])


def test_the_found_set_marks_as_the_command_line_does() -> None:
    listing = list_solutions(8)
    found = FoundSolutionSet(8)
    found.update(as_ga_boards(listing.boards), 1)
    assert np.array_equal(found.boards(0, 92), listing.boards)
    assert np.array_equal(found.fundamental(0, 92), listing.canonical)


# Layout ---------------------------------------------------------------------------------------


def test_the_largest_picture_that_fits_is_chosen_and_genomes_always_fit() -> None:
    assert pictures_that_fit(12, 96, 25) == ["squares", "halves", "braille", "genomes"]
    assert pictures_that_fit(64, 78, 17) == ["braille", "genomes"]
    assert pictures_that_fit(64, 78, 16) == ["genomes"]
    assert pictures_that_fit(12, 96, 25, unicode=False) == ["squares", "genomes"]


@pytest.mark.parametrize(("picture", "n", "width"), [("squares", 12, 96), ("braille", 64, 78)])
def test_a_row_of_boards_fits_the_width(picture: str, n: int, width: int) -> None:
    layout = gallery_layout(picture, n, width)
    assert layout.per_row >= 2
    assert layout.per_row * layout.cell_width + (layout.per_row - 1) * 2 <= width
    assert layout.boards_between(0, layout.row_height, 1000) == (0, layout.per_row)
    assert layout.boards_between(layout.row_height - 1, layout.row_height + 1, 1000) == (
        0,
        2 * layout.per_row,
    )


def test_genomes_wrap_to_the_width() -> None:
    layout = gallery_layout("genomes", 64, 78, count=100_000)
    assert layout.per_row == 1 and layout.row_height == layout.picture_height > 1
    per_line = -(-64 // layout.picture_height)
    assert layout.label_width + per_line * 3 <= 78 + 1


# Sentences ------------------------------------------------------------------------------------


def test_counts_have_thousands_separators() -> None:
    wordings = listed_text(12, 14_200, 1_787, 0.02, complete=True, searched=4, prefixes=4)
    assert wordings[0].startswith("N = 12: 14,200 solutions, 1,787 fundamental")
    assert "14,772,512 solutions, 1,846,955 fundamental" in known_text(16)[0]
    assert "39,029,188,884 solutions" in known_text(20)[-1]


def test_the_ga_line_says_how_many_of_the_exact_set_it_found_and_when() -> None:
    wordings = ga_text(57, 11, 140, 0.4, "running", (92, 12))
    assert wordings[0].startswith("GA: 57 of 92 found (11 of 12 fundamental), generation 140")
    assert fitting(wordings, 40) == wordings[-1] and len(wordings[-1]) <= 40
    assert fitting(wordings, 200) == wordings[0]


@pytest.mark.parametrize("n", range(AUTO_COUNT_LIMIT - 1, 70))
def test_the_note_above_the_listing_limit_is_one_line_at_80_columns(n: int) -> None:
    assert len(exact_note(n)) <= 78
