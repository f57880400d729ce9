"""Greedy initialisation: permutations that leave few queens under attack.

The known trick of the local-search solvers (Sosic and Gu, 1994): place most queens where no
placed queen attacks them, so that only a few conflicts remain for the local search. Their
program places the queens column by column, each on a random unused row whose two diagonals
are still empty, with a few random tries per column; the columns that find none take the
rows left over.

Here every open column of an individual tries at once, in rounds. In a round each open
column draws a few random unused rows and keeps the first whose two diagonals are empty; when
two columns of the round want the same row or diagonal, the leftmost wins, so the result is
one that column-by-column placement could have produced. Early rounds, when most rows fit,
draw one row per column; later rounds draw more (doubling up to :data:`MOST_TRIES`), while
the columns left get few. After :data:`ROUNDS` rounds the open columns take the unused rows in
a random order. A round is a handful of numpy calls over the open columns, so a board of a
million queens takes a few seconds, not a million Python steps, and leaves a handful of
conflicts (about 10 attacked queens at N = 10^6, measured).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from engine.encodings import GENE_DTYPE, Genomes

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

ROUNDS: Final = 24
"""Rounds of tries before the open columns take the rows that are left."""

MOST_TRIES: Final = 32
"""The most random rows one column draws in a round."""

TRIES_PER_ROUND: Final = 4_000_000
"""A round draws at most this many rows in all (or one per open column): it bounds memory."""

BYTES_PER_COLUMN: Final = 64
"""Memory the greedy start needs per column of the board (one individual at a time): the
diagonal flags and the scratch arrays that say which column claimed each row and diagonal."""

ROUND_BYTES: Final = 10 * 8 * TRIES_PER_ROUND
"""Memory of one round's temporaries at most: about 10 arrays of TRIES_PER_ROUND tries."""

_NOBODY: Final = np.iinfo(np.int64).max


def greedy_population(size: int, n: int, rng: np.random.Generator) -> Genomes:
    """``size`` permutations of ``0..n-1`` built greedily (see the module's docstring).

    Args:
        size: Number of individuals.
        n: The board size.
        rng: The run's random generator (the only source of randomness).

    Returns:
        A new ``(size, n)`` array, each row a permutation.
    """
    genomes = np.empty((size, n), dtype=GENE_DTYPE)
    if size == 0 or n == 0:
        return genomes
    # One individual after the other: the scratch arrays are O(N), reused, whatever P is.
    scratch = (unclaimed(n), unclaimed(2 * n - 1), unclaimed(2 * n - 1))
    for individual in range(size):
        genomes[individual] = greedy_permutation(n, rng, scratch)
    return genomes


def greedy_permutation(
    n: int, rng: np.random.Generator, scratch: tuple[IntArray, IntArray, IntArray] | None = None
) -> Genomes:
    """One greedy permutation of ``0..n-1`` (see the module's docstring).

    Args:
        n: The board size.
        rng: The run's random generator.
        scratch: Owner arrays for rows and both diagonals (from :func:`unclaimed`), reused
            across calls; made here when not given.
    """
    row_owner, down_owner, up_owner = scratch or (
        unclaimed(n),
        unclaimed(2 * n - 1),
        unclaimed(2 * n - 1),
    )
    genome = np.empty(n, dtype=GENE_DTYPE)
    down = np.zeros(2 * n - 1, dtype=bool)
    up = np.zeros(2 * n - 1, dtype=bool)
    columns = np.arange(n, dtype=np.int64)  # the open columns, in order
    rows = columns.copy()  # the unused rows
    for round_number in range(ROUNDS):
        tries = int(min(MOST_TRIES, 2**round_number, max(1, TRIES_PER_ROUND // columns.size)))
        draw = (rng.random((columns.size, tries)) * rows.size).astype(np.int64)
        candidate = rows[draw]
        column = columns[:, None]
        down_line = candidate - column + (n - 1)
        up_line = candidate + column
        free = ~down[down_line] & ~up[up_line]
        fits = np.flatnonzero(free.any(axis=1))
        first_free = np.argmax(free[fits], axis=1)
        row = candidate[fits, first_free]
        down_key, up_key = down_line[fits, first_free], up_line[fits, first_free]
        won = first_claims((row, row_owner), (down_key, down_owner), (up_key, up_owner))
        down[down_key[won]] = True
        up[up_key[won]] = True
        placed = fits[won]
        genome[columns[placed]] = row[won]
        used = np.zeros(n, dtype=bool)
        used[row[won]] = True
        rows = rows[~used[rows]]
        still_open = np.ones(columns.size, dtype=bool)
        still_open[placed] = False
        columns = columns[still_open]
        if columns.size == 0:
            return genome
    genome[columns] = rng.permutation(rows)
    return genome


def unclaimed(domain: int) -> IntArray:
    """A scratch array for :func:`first_claims` over keys ``0..domain-1``, nothing claimed."""
    return np.full(domain, _NOBODY, dtype=np.int64)


def first_claims(*claims: tuple[IntArray, IntArray]) -> IntArray:
    """Indices of the claimants that come first on every key they claim.

    Deterministic (``numpy.minimum.at`` has a defined result for repeated keys, a fancy
    assignment has not), and O(claims): the scratch arrays are reset where they were used.

    Args:
        claims: Per kind of resource, ``(keys, owner)``: ``keys`` is ``(count,)`` or
            ``(count, w)``, claimant ``i`` claiming ``keys[i]`` (a claimant may name a key
            twice); ``owner`` is a scratch array from :func:`unclaimed` covering every key.
            Claimants are numbered in priority order.

    Returns:
        The claimants that are the lowest-numbered claimant of each of their keys, in order.
    """
    count = claims[0][0].shape[0]
    order = np.arange(count, dtype=np.int64)
    wins = np.ones(count, dtype=bool)
    for keys, owner in claims:
        width = 1 if keys.ndim == 1 else keys.shape[1]
        flat = keys.ravel()
        claimant = np.repeat(order, width) if width > 1 else order
        # One-dimensional, contiguous operands: numpy's fast path for ufunc.at.
        np.minimum.at(owner, flat, claimant)
        wins &= (owner[flat] == claimant).reshape(count, width).all(axis=1)
        owner[flat] = _NOBODY
    return np.flatnonzero(wins)
