"""The landscape lesson against OEIS's solution counts and a slow reference, board by board."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tui.lab.lessons import landscape, landscape_boards, landscape_walk


def cost_of(board: tuple[int, ...]) -> int:
    return sum(
        abs(board[i] - board[j]) == j - i for i, j in itertools.combinations(range(len(board)), 2)
    )


def swapped(board: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    moved = list(board)
    moved[i], moved[j] = moved[j], moved[i]
    return tuple(moved)


def slow_row(n: int) -> dict[str, object]:
    """The row by plain loops over every board and every swap."""
    boards = list(itertools.permutations(range(n)))
    cost = {board: cost_of(board) for board in boards}
    pairs = list(itertools.combinations(range(n), 2))
    solutions = [board for board in boards if cost[board] == 0]
    strict = weak = 0
    for board in boards:
        around = [cost[swapped(board, i, j)] for i, j in pairs]
        if cost[board] > 0 and all(c > cost[board] for c in around):
            strict += 1
        if cost[board] > 0 and all(c >= cost[board] for c in around):
            weak += 1
    solved = 0
    for board in boards:
        here = board
        while True:
            around = [(cost[swapped(here, i, j)], swapped(here, i, j)) for i, j in pairs]
            best = min(around, key=lambda pair: pair[0])  # the first best in (i, j) order
            if best[0] >= cost[here]:
                break
            here = best[1]
        solved += cost[here] == 0
    # Distances by brute force: Hamming to each solution; swaps by a breadth-first search.
    hamming = [
        min(sum(a != b for a, b in zip(board, s, strict=True)) for s in solutions)
        for board in boards
    ]
    distance = {s: 0 for s in solutions}
    frontier = list(solutions)
    while frontier:
        following = []
        for board in frontier:
            for i, j in pairs:
                near = swapped(board, i, j)
                if near not in distance:
                    distance[near] = distance[board] + 1
                    following.append(near)
        frontier = following
    costs = np.array([cost[board] for board in boards], dtype=float)
    return {
        "solutions": len(solutions),
        "mean_cost": float(costs.mean()),
        "strict_minima": strict,
        "weak_minima": weak,
        "descent_solved": solved / len(boards),
        "fdc_hamming": float(np.corrcoef(costs, hamming)[0, 1]),
        "fdc_swap": float(np.corrcoef(costs, [distance[board] for board in boards])[0, 1]),
    }


@pytest.mark.parametrize(("n", "solutions"), [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)])
def test_solutions_are_oeis_a000170(n: int, solutions: int) -> None:
    assert landscape.measure_landscape(n)["solutions"] == solutions


@pytest.mark.slow
def test_nine_queens_have_352_solutions() -> None:
    row = landscape.measure_landscape(9)
    assert row["solutions"] == 352
    assert row["boards"] == 362_880


@pytest.mark.parametrize("n", [5, 6])
def test_every_measure_matches_the_slow_reference(n: int) -> None:
    measured = landscape.measure_landscape(n)
    for key, value in slow_row(n).items():
        assert measured[key] == pytest.approx(value), key


def test_the_boards_are_every_permutation_in_order_and_each_swap_finds_its_board() -> None:
    for n in range(1, 8):
        land = landscape.landscape(n)
        assert land.boards.tolist() == [list(b) for b in itertools.permutations(range(n))]
        for index, (i, j) in enumerate(landscape.swaps(n)):
            moved = land.boards.copy()
            moved[:, [i, j]] = moved[:, [j, i]]
            assert (land.boards[land.neighbours[:, index]] == moved).all()


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_mean_cost_is_two_n_minus_one_over_three(n: int) -> None:
    # Two queens d columns apart attack with chance 2 (N - d) / (N (N - 1)); the N - d pairs at
    # each distance add up to (2N - 1) / 3 attacking pairs on average.
    assert landscape.measure_landscape(n)["mean_cost"] == pytest.approx((2 * n - 1) / 3)


def test_sizes_past_the_largest_are_refused() -> None:
    with pytest.raises(ValueError, match=r"N = 1\.\.9"):
        landscape.landscape(10)
    with pytest.raises(ValueError, match=r"N = 1\.\.10"):
        landscape.measure_landscape(11)


def test_walking_a_few_boards_at_a_time_measures_what_walking_them_at_once_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = landscape.measure_landscape(7)
    heard: list[tuple[int, int]] = []
    for module in (landscape_boards, landscape_walk):
        monkeypatch.setattr(module, "RANK_CHUNK", 97)
    monkeypatch.setattr(landscape_walk, "HAMMING_CHUNK", 89)
    chunked = landscape.measure_landscape(7, lambda done, total: heard.append((done, total)))
    assert chunked == whole
    # Three passes over the 5,040 boards, told chunk by chunk, up to the whole.
    assert len(heard) > 3 * 5040 // 97
    assert {total for _, total in heard} == {3 * 5040}
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)
    assert heard[-1][0] == 3 * 5040


def test_a_progress_callback_that_raises_stops_the_walk() -> None:
    class Stop(Exception):
        pass

    heard: list[int] = []

    def stop_at_a_third(done: int, total: int) -> None:
        heard.append(done)
        if done * 3 >= total:
            raise Stop

    with pytest.raises(Stop):
        landscape.measure_landscape(8, stop_at_a_third)
    assert heard[-1] < 2 * 40320


def test_a_population_is_placed_on_its_landscape() -> None:
    land = landscape.landscape(6)
    boards = [tuple(b) for b in land.boards.tolist()]
    pairs = list(itertools.combinations(range(6), 2))
    solution = next(k for k, b in enumerate(boards) if cost_of(b) == 0)
    trap = next(
        k
        for k, b in enumerate(boards)
        if cost_of(b) > 0 and all(cost_of(swapped(b, i, j)) >= cost_of(b) for i, j in pairs)
    )
    rows = np.array([0, solution, trap, 719, trap])
    placed = landscape.population_on_landscape(land.boards[rows])
    assert (landscape.ranks_of(land.boards) == np.arange(720)).all()
    costs = [cost_of(tuple(board)) for board in land.boards[rows].tolist()]
    assert placed["size"] == 5
    assert placed["solved"] == sum(c == 0 for c in costs) / 5
    trapped = [
        c > 0 and all(cost_of(swapped(tuple(b), i, j)) >= c for i, j in pairs)
        for b, c in zip(land.boards[rows].tolist(), costs, strict=True)
    ]
    assert placed["weak_minima"] == sum(trapped) / 5 == 2 / 5
    assert placed["solved"] == 1 / 5
