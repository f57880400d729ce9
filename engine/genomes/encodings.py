"""Genome encodings: how a row of integers places N queens on an N x N board.

Every encoding stores a population as a ``(P, N)`` integer array and decodes it to two
``(P, N)`` arrays of board rows and columns, so that one conflict counter serves them all.

- ``permutation``: gene ``c`` is the row of the queen in column ``c``; the rows are distinct
  (CodeProject 2011, queens_AI, DEAP). Only diagonals can clash.
- ``integer``: gene ``c`` is the row of the queen in column ``c``; rows may repeat (Towards AI).
- ``squares``: N genes, each a square ``0..N*N-1`` numbered row by row (square ``s`` is row
  ``s // N``, column ``s % N``); queens may share rows, columns, even squares (Sheppard).
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes

GENE_DTYPE: Final = np.int64

LARGE_BOARD: Final = 1 << 16
"""Boards from this many queens are large: there a run holds as few copies of the genes as it
can, since they, not the counts or the scratch, fill its memory. A greedy start builds them with
int32 genes, the cycle crossover is made in compiled code, in place, and the survivors are
written over the children's rows. The memory budget (engine.config.memory_budget) counts them
so; each of those places names the threshold after what it does there."""


class Encoding(NamedTuple):
    """What a gene means, and which lines can hold more than one queen.

    Attributes:
        name: The name used in configs and on the command line.
        description: One line for help texts.
        is_permutation: Each row of the population is a permutation of ``0..N-1``.
        rows_can_clash: Two queens may share a board row.
        columns_can_clash: Two queens may share a board column.
    """

    name: str
    description: str
    is_permutation: bool
    rows_can_clash: bool
    columns_can_clash: bool

    def gene_values(self, n: int) -> int:
        """How many distinct values a gene can take on an ``n`` x ``n`` board."""
        return n * n if self.name == "squares" else n

    def decode(self, genomes: Genomes, n: int) -> tuple[Genomes, Genomes]:
        """Board rows and columns of every queen.

        Args:
            genomes: A ``(P, N)`` population in this encoding.
            n: The board size.

        Returns:
            ``(rows, columns)``, two ``(P, N)`` arrays.
        """
        if self.name == "squares":
            return genomes // n, genomes % n
        columns = np.broadcast_to(np.arange(n, dtype=GENE_DTYPE), genomes.shape)
        return genomes, columns

    def random_population(self, size: int, n: int, rng: np.random.Generator) -> Genomes:
        """A uniformly random population of ``size`` genomes.

        Args:
            size: Number of individuals ``P``.
            n: The board size ``N``.
            rng: The run's random generator.

        Returns:
            A new ``(P, N)`` array.
        """
        if self.is_permutation:
            return rng.permuted(np.tile(np.arange(n, dtype=GENE_DTYPE), (size, 1)), axis=1)
        return random_integers(rng, 0, self.gene_values(n), (size, n))


PERMUTATION: Final = Encoding(
    "permutation",
    "gene c = row of the queen in column c, rows distinct (CodeProject, queens_AI, DEAP)",
    is_permutation=True,
    rows_can_clash=False,
    columns_can_clash=False,
)
INTEGER: Final = Encoding(
    "integer",
    "gene c = row of the queen in column c, rows may repeat (Towards AI)",
    is_permutation=False,
    rows_can_clash=True,
    columns_can_clash=False,
)
SQUARES: Final = Encoding(
    "squares",
    "N genes, each a square 0..N*N-1; queens may share anything (Sheppard)",
    is_permutation=False,
    rows_can_clash=True,
    columns_can_clash=True,
)

ENCODINGS: Final[dict[str, Encoding]] = {e.name: e for e in (PERMUTATION, INTEGER, SQUARES)}


def random_integers(
    rng: np.random.Generator, low: int, high: int | Genomes, size: int | tuple[int, ...]
) -> Genomes:
    """``rng.integers(low, high, size)`` as an int64 array: one typed door to numpy's overloads."""
    return np.asarray(rng.integers(low, high, size=size), dtype=GENE_DTYPE)


def queens_of(genome: npt.ArrayLike, encoding: Encoding, n: int) -> list[tuple[int, int]]:
    """The (row, column) pairs, 0-based, of one genome's queens, in gene order."""
    rows, columns = encoding.decode(np.asarray(genome, dtype=GENE_DTYPE)[None, :], n)
    return [(int(r), int(c)) for r, c in zip(rows[0], columns[0], strict=True)]
