"""Plain-Python references of the memetic kernels, draw for draw, for the tests.

Written from the kernels' docstrings with Python integers, lists and sets: the compiled
kernels (:mod:`engine.compiled.memetic_kernels`) must make exactly the same boards and moves.
"""

from __future__ import annotations

from typing import Final

MASK: Final = 2**64 - 1


def next_random(state: int) -> tuple[int, int]:
    """SplitMix64 (Steele, Lea and Flood, 2014): the next state and its draw."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    mixed = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & MASK
    return state, mixed ^ (mixed >> 31)


def below(draw: int, bound: int) -> int:
    """Lemire's multiply-shift: the high 32 bits of the draw, scaled to ``0 .. bound - 1``."""
    return ((draw >> 32) * bound) >> 32


def greedy_permutation(n: int, key: int, tries: int) -> list[int]:
    """Column by column, up to ``tries`` random unused rows; the first on two free diagonals
    is taken. While a quarter of the rows or more are unused, a random unused row is a random
    row drawn again while used; after that, a pick in the pool of unused rows, where taking a
    row swaps it to the pool's front. Open columns take the rows left, at random, at the end."""
    genome = [-1] * n
    used: set[int] = set()
    down: set[int] = set()
    up: set[int] = set()
    pool: list[int] | None = None
    first = 0  # the pool's rows before this are taken
    state = key
    for column in range(n):
        if pool is None and 4 * (n - len(used)) < n:
            pool = [row for row in range(n) if row not in used]
        for _ in range(tries):
            state, draw = next_random(state)
            if pool is not None:
                pick = first + below(draw, len(pool) - first)
                row = pool[pick]
            else:
                row = below(draw, n)
                while row in used:
                    state, draw = next_random(state)
                    row = below(draw, n)
            if row - column in down or row + column in up:
                continue
            down.add(row - column)
            up.add(row + column)
            if pool is not None:
                pool[pick], pool[first] = pool[first], row
                first += 1
            used.add(row)
            genome[column] = row
            break
    if pool is None:
        pool = [row for row in range(n) if row not in used]
    for column in range(n):
        if genome[column] < 0:
            state, draw = next_random(state)
            pick = first + below(draw, len(pool) - first)
            row = pool[pick]
            pool[pick], pool[first] = pool[first], row
            first += 1
            genome[column] = row
    return genome


def _pairs(genome: list[int]) -> int:
    """Attacking pairs of a permutation, pair by pair."""
    n = len(genome)
    return sum(abs(genome[i] - genome[j]) == j - i for i in range(n) for j in range(i + 1, n))


def min_conflicts(
    genome: list[int], budget: int, candidates: int, stall_passes: int, key: int
) -> tuple[list[int], int, int]:
    """The min-conflicts passes of :func:`engine.compiled.memetic_kernels.min_conflicts`, with every
    swap's change found by counting the pairs before and after (no formula).

    Returns:
        The board, its attacking pairs, and the swaps made.
    """
    board = list(genome)
    n = len(board)

    def attacked(column: int) -> bool:
        return any(
            abs(board[column] - board[other]) == abs(column - other)
            for other in range(n)
            if other != column
        )

    conflicts = _pairs(board)
    state, made, stalled = key, 0, 0
    queue: list[int] = []
    while conflicts > 0 and made < budget and stalled < stall_passes:
        queue = [column for column in queue if attacked(column)]
        if not queue:
            queue = [column for column in range(n) if attacked(column)]
        moved = False
        for i in list(queue):
            if not attacked(i):
                continue
            best_change, best_partner = 1, -1
            for _ in range(candidates):
                state, draw = next_random(state)
                j = below(draw, n - 1)
                j += j >= i
                board[i], board[j] = board[j], board[i]
                change = _pairs(board) - conflicts
                board[i], board[j] = board[j], board[i]
                if change < best_change:
                    best_change, best_partner = change, j
            if best_change < 0:
                board[i], board[best_partner] = board[best_partner], board[i]
                conflicts += best_change
                made += 1
                moved = True
                if best_partner not in queue:
                    queue.append(best_partner)
                if made == budget or conflicts == 0:
                    break
        stalled = 0 if moved else stalled + 1
    return board, conflicts, made
