"""The next population's genes, gathered from ``[parents; children]`` without a third copy.

The survivor selection (:mod:`engine.operators.survivors`) names rows of ``[parents; children]``.
For large boards the union is never built: the parents are the published population (read-only,
and kept by the snapshot's lineage), but the children are this generation's own array, which
nobody else holds once they are scored. So the survivors are written over the children's first
rows, a block of columns at a time: every survivor's block is read into a small buffer before
any of them is written, so a child that moves to another row, or a parent that lands on a
child's row, never reads a block already overwritten. The memory is that of parents and
children, where gathering into a new array held a third population at the generation's end
(N = 10^7, P = 4 with int32 genes: 160 MB).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from engine.arrays import Genomes, IntArray

BLOCK_COLUMNS: Final = 1 << 16
"""Columns gathered at once: the buffer holds this many genes of each survivor."""


def gathered_over_children(parents: Genomes, children: Genomes, survivors: IntArray) -> Genomes:
    """Rows ``survivors`` of ``[parents; children]``, written into ``children``'s first rows.

    Args:
        parents: ``(P, N)``, only read.
        children: ``(K, N)`` with ``K >= len(survivors)``, an array no one else holds: its
            rows are overwritten.
        survivors: Indices in ``[parents; children]``.

    Returns:
        ``children[:len(survivors)]``: the survivors, in order.
    """
    size = parents.shape[0]
    count, n = survivors.shape[0], children.shape[1]
    if count > children.shape[0]:
        raise ValueError(f"{count} survivors do not fit in {children.shape[0]} children's rows")
    sources = [
        (parents, survivor) if survivor < size else (children, survivor - size)
        for survivor in survivors.tolist()
    ]
    # A child already in its own row needs no copy.
    moving = [
        (row, genes, at)
        for row, (genes, at) in enumerate(sources)
        if genes is not children or at != row
    ]
    if moving:
        buffer = np.empty((len(moving), min(n, BLOCK_COLUMNS)), dtype=children.dtype)
        for start in range(0, n, BLOCK_COLUMNS):
            stop = min(n, start + BLOCK_COLUMNS)
            for slot, (_, genes, at) in enumerate(moving):
                buffer[slot, : stop - start] = genes[at, start:stop]
            for slot, (row, _, _) in enumerate(moving):
                children[row, start:stop] = buffer[slot, : stop - start]
    return children[:count]
