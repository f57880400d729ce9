"""Solutions: symmetry classes against brute force, the archive, and find-all (harvest) runs."""

from __future__ import annotations

import functools
import itertools
import json
import tracemalloc

import numpy as np
import pytest
from engine_reference import brute_conflicts

from engine import Config, ConfigError, GeneticAlgorithm, Snapshot
from engine.config.presets import preset_named
from engine.genomes.uniqueness import row_hashes
from engine.solutions.archive import (
    KNOWN_TOTALS,
    SolutionArchive,
    canonical,
    canonical_boards,
    class_keys,
    symmetry_images,
)

Board = tuple[int, ...]


def symmetries(board: Board | np.ndarray) -> list[Board]:
    """The engine's 8 images of one board, as tuples."""
    images = symmetry_images(np.asarray(board, dtype=np.int64)[None, :])
    assert images.shape == (8, 1, len(board))
    return [tuple(int(v) for v in image[0]) for image in images]


def is_solution(board: Board) -> bool:
    n = len(board)
    return (
        len({r - c for c, r in enumerate(board)}) == n == len({r + c for c, r in enumerate(board)})
    )


@functools.cache
def brute_solutions(n: int) -> frozenset[Board]:
    """Every solution, rows by column, by trying every permutation (N <= 8)."""
    return frozenset(p for p in itertools.permutations(range(n)) if is_solution(p))


@functools.cache
def backtracked_solutions(n: int) -> frozenset[Board]:
    """Every solution by placing one queen per column, column by column."""
    found: list[Board] = []

    def place(rows: list[int], used: set[int], down: set[int], up: set[int]) -> None:
        column = len(rows)
        if column == n:
            found.append(tuple(rows))
            return
        for row in range(n):
            if row in used or row - column in down or row + column in up:
                continue
            rows.append(row)
            place(rows, used | {row}, down | {row - column}, up | {row + column})
            rows.pop()

    place([], set(), set(), set())
    return frozenset(found)


def dihedral_images(board: Board) -> list[Board]:
    """The 8 images by moving each queen's square, written independently of the engine."""
    n = len(board)
    last = n - 1
    moves = [
        lambda r, c: (r, c),
        lambda r, c: (c, last - r),
        lambda r, c: (last - r, last - c),
        lambda r, c: (last - c, r),
        lambda r, c: (r, last - c),
        lambda r, c: (last - r, c),
        lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    ]
    images = []
    for move in moves:
        rows = [0] * n
        for column, row in enumerate(board):
            new_row, new_column = move(row, column)
            rows[new_column] = new_row
        images.append(tuple(rows))
    return images


def as_set(array: np.ndarray) -> set[Board]:
    return {tuple(int(v) for v in row) for row in array}


# --- The brute-force references agree with each other and with the published counts. ---


@pytest.mark.parametrize("n", range(1, 9))
def test_the_two_references_agree(n):
    assert brute_solutions(n) == backtracked_solutions(n)


@pytest.mark.parametrize("n", range(1, 10))
def test_known_totals_match_brute_force(n):
    assert len(backtracked_solutions(n)) == KNOWN_TOTALS[n][0]


# --- Symmetries. ---


@pytest.mark.parametrize("n", [6, 7, 8])
def test_symmetries_are_8_solutions_and_the_square_group(n):
    for board in brute_solutions(n):
        images = symmetries(np.array(board, dtype=np.int64))
        assert len(images) == 8
        assert all(isinstance(image, tuple) for image in images)
        assert board in images
        assert all(image in brute_solutions(n) for image in images)
        assert sorted(images) == sorted(dihedral_images(board))


def test_symmetries_of_a_hand_board():
    # N = 4: the solution 1,3,0,2 is its own quarter turn; its mirror is 2,0,3,1.
    images = symmetries(np.array([1, 3, 0, 2], dtype=np.int64))
    assert set(images) == {(1, 3, 0, 2), (2, 0, 3, 1)}
    assert images.count((1, 3, 0, 2)) == 4


@pytest.mark.parametrize("n", range(1, 10))
def test_canonical_classes_are_the_fundamental_solutions(n):
    boards = backtracked_solutions(n)
    classes = {canonical(np.array(board, dtype=np.int64)) for board in boards}
    assert len(classes) == KNOWN_TOTALS[n][1]
    for board in list(boards)[:50]:
        key = canonical(np.array(board, dtype=np.int64))
        assert key == min(dihedral_images(board))
        assert all(canonical(np.array(image)) == key for image in dihedral_images(board))


@pytest.mark.parametrize("n", [5, 8, 9])
def test_batched_images_and_classes_match_board_by_board(n):
    boards = np.array(sorted(backtracked_solutions(n)), dtype=np.int64)
    images = symmetry_images(boards)
    assert images.shape == (8, boards.shape[0], n)
    for k, board in enumerate(boards.tolist()):
        assert sorted(tuple(image) for image in images[:, k].tolist()) == sorted(
            dihedral_images(tuple(board))
        )
    keys = canonical_boards(boards)
    assert keys.shape == boards.shape
    assert [tuple(key) for key in keys.tolist()] == [
        min(dihedral_images(tuple(board))) for board in boards.tolist()
    ]


def test_canonical_boards_on_non_solutions_is_still_the_smallest_image():
    rng = np.random.default_rng(0)
    boards = np.argsort(rng.random((300, 7)), axis=1)
    keys = canonical_boards(boards)
    expected = [min(dihedral_images(tuple(board))) for board in boards.tolist()]
    assert [tuple(key) for key in keys.tolist()] == expected


@pytest.mark.parametrize("n", [1, 4, 8, 9])
def test_class_keys_are_the_smallest_hash_of_the_eight_images(n):
    boards = np.array(sorted(backtracked_solutions(n)), dtype=np.int64)
    expected = np.stack([row_hashes(image) for image in symmetry_images(boards)]).min(axis=0)
    assert np.array_equal(class_keys(boards), expected)
    # Every image of a board has its key, and the classes have distinct keys.
    for image in symmetry_images(boards):
        assert np.array_equal(class_keys(image), expected)
        assert np.array_equal(class_keys(image.astype(np.int32)), expected)
    assert len(set(expected.tolist())) == KNOWN_TOTALS[n][1]


def test_class_keys_of_large_boards_without_their_images():
    # Random permutations (the formula holds for any): blocks of columns sum to the whole.
    rng = np.random.default_rng(3)
    boards = np.stack([rng.permutation(700_001) for _ in range(2)])
    images = symmetry_images(boards)
    expected = np.stack([row_hashes(image) for image in images]).min(axis=0)
    assert np.array_equal(class_keys(boards), expected)
    assert np.array_equal(class_keys(images[3]), expected)
    tracemalloc.start()
    try:
        class_keys(boards[:1])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Blocks of columns and the board's int32 inverse; the 8 images took 8 times a board (45 MB).
    assert peak < 4 * 2**20 + 4 * 700_001


# --- The archive. ---


def test_record_dedupes_across_and_within_calls():
    archive = SolutionArchive(8)
    first, second = sorted(brute_solutions(8))[:2]
    assert archive.record(np.array([first, first, second], dtype=np.int64)) == 2
    assert archive.record(np.array([second, first], dtype=np.int64)) == 0
    assert archive.count == 2
    assert archive.boards.tolist() == [list(first), list(second)]
    assert archive.record(np.empty((0, 8), dtype=np.int64)) == 0


def test_record_with_images_adds_every_image():
    archive = SolutionArchive(8)
    board = sorted(brute_solutions(8))[0]
    added = archive.record(np.array([board], dtype=np.int64), with_images=True)
    assert added == len(set(dihedral_images(board)))
    assert as_set(archive.boards) == set(dihedral_images(board))
    assert archive.fundamental_count == 1
    # An image of a class already recorded adds nothing.
    image = dihedral_images(board)[3]
    assert archive.record(np.array([image], dtype=np.int64), with_images=True) == 0


def test_one_board_per_class_with_images_gives_all_92():
    archive = SolutionArchive(8)
    representatives = {canonical(np.array(board)): board for board in brute_solutions(8)}
    assert len(representatives) == 12
    for board in representatives.values():
        archive.record(np.array([board], dtype=np.int64), with_images=True)
    assert archive.count == 92
    assert archive.fundamental_count == 12
    assert as_set(archive.boards) == brute_solutions(8)
    assert archive.boards.shape == (92, 8)


def test_archive_boards_are_read_only_and_a_new_array_per_change():
    archive = SolutionArchive(5)
    empty = archive.boards
    assert empty.shape == (0, 5)
    assert not empty.flags.writeable
    first, second = sorted(brute_solutions(5))[:2]
    archive.record(np.array([first], dtype=np.int64))
    one = archive.boards
    with pytest.raises(ValueError, match="read-only"):
        one[0, 0] = 9
    archive.record(np.array([first], dtype=np.int64))
    assert archive.boards is one  # nothing new, same array
    archive.record(np.array([second], dtype=np.int64))
    assert archive.boards is not one
    assert one.shape == (1, 5)  # the old array was not changed


def test_the_archive_keeps_its_own_copy():
    archive = SolutionArchive(5)
    board = np.array([sorted(brute_solutions(5))[0]], dtype=np.int64)
    archive.record(board)
    board[0, 0] = 4
    assert archive.boards[0, 0] != 4


# --- Solutions in runs. ---


def harvest(n: int, seed: int = 0, **overrides: object) -> Config:
    return Config(n=n, harvest=True, stop_when_solved=False, seed=seed, **overrides)


def test_harvest_needs_stop_when_solved_off():
    with pytest.raises(ConfigError) as caught:
        Config(n=8, harvest=True)
    assert caught.value.field == "harvest"


@pytest.mark.parametrize("seed", [0, 1])
def test_harvest_at_6_finds_the_4_solutions(seed):
    final = GeneticAlgorithm(harvest(6, seed)).run()
    assert final.stop_reason == "all-found"
    assert final.solutions.shape == (4, 6)
    assert as_set(final.solutions) == brute_solutions(6)
    assert final.fundamental_solutions == 1
    assert final.solutions_text == "found 4 / 4 (1 / 1 fundamental)"


def test_harvest_at_8_finds_all_92():
    algorithm = GeneticAlgorithm(harvest(8, time_limit=30.0))
    counts = [algorithm.snapshot.solutions.shape[0]]
    while algorithm.has_next():
        found = as_set(algorithm.step().solutions)
        counts.append(len(found))
        # Each solution comes with its 8 images: what was found is closed under symmetry.
        assert all(set(dihedral_images(board)) <= found for board in found)
    final = algorithm.snapshot
    assert final.stop_reason == "all-found"
    assert final.solutions.shape == (92, 8)
    assert as_set(final.solutions) == brute_solutions(8)
    assert final.fundamental_solutions == 12
    assert final.solutions_text == "found 92 / 92 (12 / 12 fundamental)"
    # The count only grows, and the run stopped the generation it reached 92.
    assert counts == sorted(counts)
    assert counts[-1] == 92
    assert max(counts[:-1]) < 92


def test_harvest_replaces_each_solution_by_a_newcomer():
    algorithm = GeneticAlgorithm(harvest(8, seed=2, population=40))
    snapshot = algorithm.snapshot
    newcomers = [snapshot.evaluations - 40]
    solved_in_population = [int((snapshot.conflicts == 0).sum())]
    while algorithm.has_next():
        evaluations = snapshot.evaluations
        snapshot = algorithm.step()
        # Each newcomer costs an evaluation beyond the generation's 40 children.
        newcomers.append(snapshot.evaluations - evaluations - 40)
        solved_in_population.append(int((snapshot.conflicts == 0).sum()))
    assert min(newcomers) >= 0
    assert sum(newcomers) >= 12  # at least one solution per class was met and replaced
    # A solution left in a published population can only be a newcomer that is one by chance.
    assert all(s <= c for s, c in zip(solved_in_population, newcomers, strict=True))


def test_without_harvest_solutions_are_recorded_without_images():
    algorithm = GeneticAlgorithm(Config(n=8, seed=0, stop_when_solved=False, generations=30))
    previous = algorithm.snapshot.solutions
    for snapshot in algorithm.step_many(30):
        assert as_set(snapshot.solutions) <= brute_solutions(8)
        assert len(as_set(snapshot.solutions)) == snapshot.solutions.shape[0]
        # The same array until something new is found.
        if snapshot.solutions.shape == previous.shape:
            assert snapshot.solutions is previous
        previous = snapshot.solutions
    final = algorithm.snapshot
    assert final.solutions.shape[0] > 0
    # Every solution left in the population is in the archive.
    solved = final.population[final.conflicts == 0]
    assert as_set(solved) <= as_set(final.solutions)
    # Only what was met: the images of a solution are not added without harvest.
    found = as_set(final.solutions)
    assert not all(set(dihedral_images(board)) <= found for board in found)
    classes = {canonical(np.array(board)) for board in as_set(final.solutions)}
    assert final.fundamental_solutions == len(classes)


def test_squares_solutions_are_stored_rows_by_column():
    config = preset_named("sheppard").config(seed=0, time_limit=5.0)
    final = GeneticAlgorithm(config).run()
    assert final.stop_reason == "solved"
    assert as_set(final.solutions) <= brute_solutions(8)
    # The best genome is 8 squares in any order; decoded by hand, read column by column.
    squares = [(int(g) // 8, int(g) % 8) for g in final.best]
    assert brute_conflicts(squares) == 0
    rows = tuple(row for row, _ in sorted(squares, key=lambda square: square[1]))
    assert rows in as_set(final.solutions)


def test_snapshot_solutions_are_read_only():
    algorithm = GeneticAlgorithm(harvest(6))
    final = algorithm.run()
    with pytest.raises(ValueError, match="read-only"):
        final.solutions[0, 0] = 0
    assert not GeneticAlgorithm(Config(n=30, seed=0)).snapshot.solutions.flags.writeable


def test_solutions_text_without_known_totals():
    algorithm = GeneticAlgorithm(Config(n=30, seed=1))
    assert algorithm.snapshot.solutions_text == "found 0"
    final = algorithm.run()
    assert final.stop_reason == "solved"
    count = final.solutions.shape[0]
    assert count >= 1
    assert final.solutions_text == f"found {count}"
    for board in as_set(final.solutions):
        assert is_solution(board)


def test_solutions_text_counts_found_so_far():
    algorithm = GeneticAlgorithm(harvest(8, seed=0))
    texts = set()
    for snapshot in [algorithm.snapshot, *algorithm.step_many(60)]:
        found = snapshot.solutions.shape[0]
        assert snapshot.solutions_text == (
            f"found {found} / 92 ({snapshot.fundamental_solutions} / 12 fundamental)"
        )
        texts.add(snapshot.solutions_text)
    assert len(texts) > 3  # the text followed the count as it grew


@pytest.fixture(scope="module")
def uninterrupted_harvest() -> tuple[Config, Snapshot]:
    config = harvest(8, seed=2)
    final = GeneticAlgorithm(config).run()
    assert final.stop_reason == "all-found"
    return config, final


@pytest.mark.parametrize("pause", [0, 1, 40])
def test_a_harvest_checkpoint_continues_identically(uninterrupted_harvest, pause):
    config, final = uninterrupted_harvest
    paused = GeneticAlgorithm(config)
    paused.step_many(pause)
    assert paused.has_next()
    saved = json.loads(json.dumps(paused.state()))
    resumed = GeneticAlgorithm.from_state(saved)
    assert resumed.snapshot.solutions.tobytes() == paused.snapshot.solutions.tobytes()
    assert resumed.snapshot.fundamental_solutions == paused.snapshot.fundamental_solutions
    again = resumed.run()
    assert again.stop_reason == final.stop_reason
    assert again.generation == final.generation
    assert again.evaluations == final.evaluations
    assert again.solutions.tobytes() == final.solutions.tobytes()
    assert again.population.tobytes() == final.population.tobytes()


def test_recording_some_rows_is_recording_those_boards():
    boards = np.array(sorted(brute_solutions(8)), dtype=np.int64)
    rows = np.array([5, 0, 5, 17, 3, 0])
    by_rows, gathered = SolutionArchive(8), SolutionArchive(8)
    assert by_rows.record(boards, rows=rows) == gathered.record(boards[rows]) == 4
    assert np.array_equal(by_rows.boards, gathered.boards)
    assert by_rows.fundamental_count == gathered.fundamental_count
    assert by_rows.record(boards, rows=np.array([], dtype=np.intp)) == 0
    images = SolutionArchive(8)
    images.record(boards[rows])
    added = images.record(boards[[3]], with_images=True)
    assert by_rows.record(boards, rows=np.array([3]), with_images=True) == added > 0
    assert np.array_equal(by_rows.boards, images.boards)


def test_recording_the_solved_rows_of_a_large_population_copies_them_once():
    # Rows 1 and 3 of a population of 4 boards of 400,000 queens (3.2 MB each).
    population = np.stack([np.random.default_rng(k).permutation(400_000) for k in range(4)])
    archive = SolutionArchive(400_000)
    row_hashes(population)  # the hash weights, drawn once per N and kept, drawn before
    tracemalloc.start()
    try:
        archive.record(population, rows=np.array([1, 3]))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert np.array_equal(archive.boards, population[[1, 3]])
    # The archive's room for 4 boards and the class keys' blocks; a gathered copy of the two
    # solved rows would add 6.4 MB.
    assert peak < 4 * population[0].nbytes + 4 * 2**20
