"""Compiled kernels of the memetic mode: the greedy start and the min-conflicts local search.

Both are sequential by nature (each queen placed or moved sees the boards its predecessors
left), so they are plain loops compiled by numba (:mod:`engine.compiled.jit`), over one board at a
time, in place, with 32-bit scratch arrays: a board of a million queens takes tens of
milliseconds and a few bytes per queen besides its genome and line counts.

Random numbers: each call takes a 64-bit ``key`` drawn from the run's
``numpy.random.Generator`` and draws from the SplitMix64 sequence that starts there (Steele,
Lea and Flood, 2014): integer arithmetic modulo 2^64 only, so the same key gives the same draws
on every machine, whatever numba's own generator or the processor. A draw below ``bound`` is
the high 32 bits of a draw scaled by ``bound`` (Lemire's multiply-shift), which needs
``bound <= 2^32``; with the 32-bit scratch arrays, boards are limited to
:data:`engine.operators.greedy_start.MOST_QUEENS`.

These are the same algorithms as the plain-Python references in the tests, draw for draw.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.compiled.jit import compiled, prefetch

_GOLDEN: Final = np.uint64(0x9E3779B97F4A7C15)
_MIX_1: Final = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2: Final = np.uint64(0x94D049BB133111EB)
_SHIFTS: Final = (np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32))

Rows = npt.NDArray[np.int64]
Scratch = npt.NDArray[np.int32]
Counts = npt.NDArray[np.signedinteger[Any]]
Bits = npt.NDArray[np.uint64]


@compiled
def next_random(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """SplitMix64: the state after ``state``, and the draw it gives."""
    state = state + _GOLDEN
    mixed = state
    mixed = (mixed ^ (mixed >> _SHIFTS[0])) * _MIX_1
    mixed = (mixed ^ (mixed >> _SHIFTS[1])) * _MIX_2
    return state, mixed ^ (mixed >> _SHIFTS[2])


@compiled
def below(draw: np.uint64, bound: int) -> int:
    """A number in ``0 .. bound - 1`` from a 64-bit draw (``bound <= 2^32``)."""
    # int of an int64: numba's int() of a uint64 stays unsigned, and would make floats of
    # the arithmetic it meets.
    return int(np.int64(((draw >> _SHIFTS[3]) * np.uint64(bound)) >> _SHIFTS[3]))


@compiled
def _is_set(bits: Bits, index: int) -> bool:
    """Whether bit ``index`` of a bit set is on."""
    return bool((bits[index >> 6] >> np.uint64(index & 63)) & np.uint64(1))


@compiled
def _set(bits: Bits, index: int) -> None:
    """Turn bit ``index`` of a bit set on."""
    bits[index >> 6] |= np.uint64(1) << np.uint64(index & 63)


@compiled
def _clear(bits: Bits, index: int) -> None:
    """Turn bit ``index`` of a bit set off."""
    bits[index >> 6] &= ~(np.uint64(1) << np.uint64(index & 63))


@compiled
def _bit_set(size: int) -> Bits:
    """A bit set of ``size`` bits, all off."""
    return np.zeros((size + 63) >> 6, dtype=np.uint64)


@compiled
def _unused_rows(used: Bits, n: int, count: int) -> Scratch:
    """The ``count`` rows whose bit is off in ``used``, in order."""
    pool = np.empty(count, dtype=np.int32)
    size = 0
    for row in range(n):
        if not _is_set(used, row):
            pool[size] = row
            size += 1
    return pool


LOOKAHEAD: Final = 16
"""Draws the greedy start makes ahead of the one it uses (a power of two): their rows' bits
are asked for early (:func:`engine.compiled.jit.prefetch`), so that the cache misses of a large
board overlap instead of coming one after the other."""


@compiled
def _next_draw(ahead: Bits, head: int, state: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The sequence's next draw, from slot ``head`` of the draws made ahead; the draw that
    refills the slot (:data:`LOOKAHEAD` draws later in the sequence), and the state after it."""
    draw = ahead[head]
    state, fresh = next_random(state)
    ahead[head] = fresh
    return draw, fresh, state


@compiled
def greedy_fill(genome: Rows, key: np.uint64, tries: int) -> int:
    """Fill ``genome`` with a greedy permutation (see :mod:`engine.operators.greedy_start`).

    Column by column, up to ``tries`` random unused rows are tried, and the first whose two
    diagonals hold no queen is taken; a column that finds none is left open, and at the end
    the open columns take the rows left over, in a random order.

    A random unused row is drawn by rejection (a random row, again while it is used) while at
    least a quarter of the rows are unused; then from a pool of the unused rows, where taking
    a row is one swap (Sosic and Gu's trick). Either way it is uniform over the unused rows.
    Rows and diagonals in use are bit sets: 5 bits per queen, which stay in the processor's
    cache where arrays of counts would not, and the cache misses are the cost here. On boards
    whose bit sets do not fit the cache either, each draw is made :data:`LOOKAHEAD` draws
    before it is used, and the bits (or the pool's entry) it will be checked in are prefetched
    then: the same draws in the same order, the same board.

    Args:
        genome: ``(N,)``, overwritten.
        key: Where the random sequence starts.
        tries: Unused rows tried per column.

    Returns:
        How many columns were left open (each likely one conflict or more).
    """
    n = genome.shape[0]
    used, down, up = _bit_set(n), _bit_set(2 * n - 1), _bit_set(2 * n - 1)
    pool = np.empty(0, dtype=np.int32)
    pooled = False
    taken = 0  # rows in use
    ahead = np.empty(LOOKAHEAD, dtype=np.uint64)
    state = key
    for slot in range(LOOKAHEAD):
        state, ahead[slot] = next_random(state)
    head = 0
    half = LOOKAHEAD // 2
    for column in range(n):
        genome[column] = -1
        if not pooled and 4 * (n - taken) < n:
            pool, pooled = _unused_rows(used, n, n - taken), True
        for _ in range(tries):
            if pooled:
                first = taken - (n - pool.shape[0])
                draw, fresh, state = _next_draw(ahead, head, state)
                head = (head + 1) & (LOOKAHEAD - 1)
                pick = first + below(draw, pool.shape[0] - first)
                row = int(pool[pick])
                # The pool's entry of a draw to come, and the bits of one half as far ahead,
                # whose entry was asked for then.
                prefetch(pool, first + below(fresh, pool.shape[0] - first))
                soon_draw = ahead[(head + half) & (LOOKAHEAD - 1)]
                soon = int(pool[first + below(soon_draw, pool.shape[0] - first)])
                prefetch(down, (soon - column + n - 1) >> 6)
                prefetch(up, (soon + column) >> 6)
            else:
                row = -1
                while row < 0 or _is_set(used, row):
                    draw, fresh, state = _next_draw(ahead, head, state)
                    head = (head + 1) & (LOOKAHEAD - 1)
                    row = below(draw, n)
                    coming = below(fresh, n)
                    prefetch(used, coming >> 6)
                    prefetch(down, (coming - column + n - 1) >> 6)
                    prefetch(up, (coming + column) >> 6)
            if _is_set(down, row - column + n - 1) or _is_set(up, row + column):
                continue
            _set(down, row - column + n - 1)
            _set(up, row + column)
            if pooled:
                first = taken - (n - pool.shape[0])
                pool[pick] = pool[first]
                pool[first] = row
            else:
                _set(used, row)
            taken += 1
            genome[column] = row
            break
    left_open = n - taken
    if not pooled:
        pool = _unused_rows(used, n, n - taken)
    first = pool.shape[0] - left_open
    for column in range(n):
        if genome[column] < 0:
            draw, fresh, state = _next_draw(ahead, head, state)
            head = (head + 1) & (LOOKAHEAD - 1)
            pick = first + below(draw, pool.shape[0] - first)
            row = pool[pick]
            pool[pick] = pool[first]
            pool[first] = row
            first += 1
            genome[column] = row
    return int(left_open)


SCAN_AHEAD: Final = 16
"""Columns a scan over a board looks ahead: the line counts of the queen that many columns on
are prefetched (:func:`ask_for_lines`), so that a large board's scans (10^8 queens: 400 MB of
int16 counts, read at the queens' random rows) do not wait for one miss after another."""


@compiled
def ask_for_lines(genome: Rows, down: Counts, up: Counts, column: int) -> None:
    """Prefetch the two line counts of the queen in ``column`` (none past the board's end)."""
    n = genome.shape[0]
    if column < n:
        row = genome[column]
        prefetch(down, row - column + n - 1)
        prefetch(up, row + column)


@compiled
def _attacked(genome: Rows, down: Counts, up: Counts, column: int) -> bool:
    """Whether the queen in ``column`` shares a diagonal with another queen."""
    n = genome.shape[0]
    row = genome[column]
    return bool(down[row - column + n - 1] > 1 or up[row + column] > 1)


@compiled
def _swap_change(genome: Rows, down: Counts, up: Counts, i: int, j: int) -> int:
    """Exact change in attacking pairs if the queens of columns ``i`` and ``j`` swap rows.

    The formula of :func:`engine.genomes.conflicts.swap_change`: lifting a queen off a line of ``k``
    loses ``k - 1`` pairs, putting it on a line of ``k`` gains ``k``, plus 2 when the two
    queens share a diagonal (one pair lost less, one gained more).
    """
    offset = genome.shape[0] - 1
    a, b = genome[i], genome[j]
    gained = down[b - i + offset] + down[a - j + offset] + up[b + i] + up[a + j]
    lost = down[b - j + offset] + up[b + j] + down[a - i + offset] + up[a + i] - 4
    same_diagonal = b + i == a + j or b - i == a - j
    return int(gained) - int(lost) + (2 if same_diagonal else 0)


@compiled
def _move(
    genome: Rows,
    down: Counts,
    up: Counts,
    down_cells: Rows,
    up_cells: Rows,
    base: int,
    column: int,
    row: int,
) -> None:
    """Move the queen of ``column`` to ``row``, keeping the counts and its cells exact.

    Empty ``down_cells`` and ``up_cells``: a caller that keeps no cells (the counts suffice).
    """
    offset = genome.shape[0] - 1
    old = genome[column]
    down[old - column + offset] -= 1
    up[old + column] -= 1
    down[row - column + offset] += 1
    up[row + column] += 1
    if down_cells.shape[0]:
        down_cells[column] = base + row - column + offset
        up_cells[column] = base + row + column
    genome[column] = row


@compiled
def _pushed(queue: Scratch, size: int, column: int) -> Scratch:
    """``queue`` with ``column`` at ``size``, grown by doubling when full."""
    if size == queue.shape[0]:
        grown = np.empty(2 * size + 16, dtype=np.int32)
        for k in range(size):  # a loop compiles in a fraction of a slice copy's time
            grown[k] = queue[k]
        queue = grown
    queue[size] = column
    return queue


@compiled
def min_conflicts(
    genome: Rows,
    down: Counts,
    up: Counts,
    down_cells: Rows,
    up_cells: Rows,
    base: int,
    conflicts: int,
    budget: int,
    candidates: int,
    stall_passes: int,
    key: np.uint64,
) -> tuple[int, int]:
    """Min-conflicts swaps on one board, in place (see :mod:`engine.operators.local_search`).

    In passes over a queue of attacked queens (at first the board's, in board order, then
    the partners of the swaps as they come, each column queued once): each queen still attacked
    tries ``candidates`` random partner columns and swaps with the best when that lowers the
    conflicts (the first best on ties); its partner joins the next pass's queue. A queen a
    swap made attacked without being moved is found by scanning the whole board again when
    the queue runs dry. Stops when the board is solved, ``budget`` swaps are made, or
    ``stall_passes`` passes in a row made none.

    Args:
        genome: ``(N,)`` the board's rows, changed in place.
        down: ``(2N - 1,)`` queens per diagonal ``row - column + N - 1``, kept exact.
        up: ``(2N - 1,)`` queens per anti-diagonal ``row + column``, kept exact.
        down_cells: ``(N,)`` each queen's cell ``base + diagonal``, kept exact (or empty).
        up_cells: ``(N,)`` each queen's cell ``base + anti-diagonal``, kept exact (or empty).
        base: The board's first cell (its index in the population times ``2N - 1``).
        conflicts: The board's attacking pairs.
        budget: The most swaps to make.
        candidates: Partners tried per attacked queen.
        stall_passes: Passes in a row without a swap before giving up.
        key: Where the random sequence starts.

    Returns:
        The attacking pairs left, and the swaps made.
    """
    n = genome.shape[0]
    state = key
    made = 0
    stalled = 0
    queue = np.empty(16, dtype=np.int32)
    queued = _bit_set(n)  # which columns are in the queue, so none is queued twice
    size = 0
    while conflicts > 0 and made < budget and stalled < stall_passes:
        # The queued queens still attacked, in the order they were queued.
        kept = 0
        for k in range(size):
            column = queue[k]
            if _attacked(genome, down, up, column):
                queue[kept] = column
                kept += 1
            else:
                _clear(queued, column)
        size = kept
        if size == 0:
            for column in range(n):
                ask_for_lines(genome, down, up, column + SCAN_AHEAD)
                if _attacked(genome, down, up, column):
                    queue = _pushed(queue, size, column)
                    _set(queued, column)
                    size += 1
        moved = False
        tail = size
        for k in range(size):
            i = queue[k]
            if not _attacked(genome, down, up, i):
                continue  # an earlier swap of this pass freed it
            best_change, best_partner = 1, -1
            for _ in range(candidates):
                state, draw = next_random(state)
                j = below(draw, n - 1)
                j += j >= i
                change = _swap_change(genome, down, up, i, j)
                if change < best_change:
                    best_change, best_partner = change, j
            if best_change < 0:
                row, partner_row = genome[i], genome[best_partner]
                _move(genome, down, up, down_cells, up_cells, base, i, partner_row)
                _move(genome, down, up, down_cells, up_cells, base, best_partner, row)
                conflicts += best_change
                made += 1
                moved = True
                if not _is_set(queued, best_partner):
                    queue = _pushed(queue, tail, best_partner)
                    _set(queued, best_partner)
                    tail += 1
                if made == budget or conflicts == 0:
                    break
        size = tail
        stalled = 0 if moved else stalled + 1
    return conflicts, made
