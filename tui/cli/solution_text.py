"""Exact solutions as ``queens solutions`` prints them: a summary line, then one solution a line,
or one JSON document; and a progress line on a terminal.

N = 16 has 14,772,512 solutions: written one Python string at a time they took longer than
finding them, so rows are rendered by numpy, a block at a time (:func:`rows_text`).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any, Final, TextIO

import numpy as np
import numpy.typing as npt

from engine.solutions.exact import CountProgress, SolutionList

MARK: Final = "*"
"""Follows a solution that is the representative of its fundamental class."""

BLOCK_ROWS: Final = 1 << 16
"""Solutions rendered at once (a block of N = 16 takes about 3 MB)."""

PROGRESS_INTERVAL: Final = 0.1
"""Seconds between two updates of the progress line."""

PREFIXES: Final = "prefixes (the first rows of half the boards; the rest are mirror images)"
"""What the progress of a search is counted in."""

LINE_MEANING: Final = (
    f"one line per solution, the column of the queen in each row (0-based); {MARK} marks the "
    "representative of each fundamental class (the lexicographically smallest of its 8 "
    "rotations and reflections)"
)


def rows_text(
    boards: npt.NDArray[np.uint8],
    marked: npt.NDArray[np.bool_],
    *,
    opening: str,
    separator: str,
    closing: str,
    marked_closing: str,
) -> str:
    """``boards`` as text: per row ``opening``, its columns joined by ``separator``, then
    ``marked_closing`` where ``marked`` else ``closing``.

    Each row becomes cells of a fixed width (the opening, each column with its separator, the
    closing), padded with zero bytes, which are dropped at the end: every step is one numpy
    operation over the block.
    """
    rows, n = boards.shape
    if rows == 0:
        return ""
    texts = [opening, *(f"{c}{separator}" for c in range(n)), *map(str, range(n))]
    texts += [closing, marked_closing]
    width = max(len(text) for text in texts)
    cells = np.zeros((len(texts), width), dtype=np.uint8)
    for index, text in enumerate(texts):
        cells[index, : len(text)] = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    # Indices into cells: the opening, the columns (the last without its separator), the close.
    chosen = np.empty((rows, n + 2), dtype=np.intp)
    chosen[:, 0] = 0
    chosen[:, 1:n] = 1 + boards[:, :-1]
    chosen[:, n] = 1 + n + boards[:, -1]
    chosen[:, n + 1] = np.where(marked, 2 * n + 2, 2 * n + 1)
    flat = cells[chosen].ravel()
    rendered: bytes = flat[flat != 0].tobytes()
    return rendered.decode("ascii")


def solution_lines(listing: SolutionList) -> Iterator[str]:
    """The solutions, a block of lines at a time, representatives marked."""
    for boards, marked in listing.blocks(BLOCK_ROWS):
        yield rows_text(
            boards, marked, opening="", separator=" ", closing="\n", marked_closing=f" {MARK}\n"
        )


def solutions(count: int) -> str:
    """``1 solution``, ``14,200 solutions``."""
    return f"{count:,} solution" + ("" if count == 1 else "s")


def count_summary(n: int, total: int, fundamental: int, elapsed: float) -> str:
    """``N = 8: 92 solutions, 12 fundamental (0.004 s)``."""
    return f"N = {n}: {solutions(total)}, {fundamental:,} fundamental ({elapsed:.3f} s)"


def partial_count_summary(progress: CountProgress, elapsed: float) -> str:
    """The count so far, said to be partial."""
    return (
        f"N = {progress.n}: PARTIAL count, interrupted after {progress.searched:,} of "
        f"{progress.prefixes:,} {PREFIXES}: {solutions(progress.solutions)} so far "
        f"(fundamental: not counted) ({elapsed:.3f} s)"
    )


def listing_summary(
    listing: SolutionList, elapsed: float, searched: int, prefixes: int | None
) -> str:
    """The summary line above the solutions, partial when the listing was interrupted."""
    counts = f"{solutions(listing.total)}, {listing.fundamental:,} fundamental"
    if listing.complete:
        return f"N = {listing.n}: {counts} ({elapsed:.3f} s); {LINE_MEANING}"
    of = "?" if prefixes is None else f"{prefixes:,}"
    return (
        f"N = {listing.n}: PARTIAL listing, interrupted after {searched:,} of {of} "
        f"{PREFIXES}: {counts} so far ({elapsed:.3f} s); {LINE_MEANING}"
    )


def count_document(
    progress: CountProgress, fundamental: int | None, elapsed: float
) -> dict[str, Any]:
    """The JSON document of ``queens solutions --count --json`` (``fundamental`` ``None``: not
    counted, the count being partial)."""
    return {
        "n": progress.n,
        "total": progress.solutions,
        "fundamental": fundamental,
        "elapsed_s": round(elapsed, 6),
        "complete": progress.complete and fundamental is not None,
        "prefixes_searched": progress.searched,
        "prefixes": progress.prefixes,
    }


def write_listing_document(
    listing: SolutionList, elapsed: float, searched: int, prefixes: int | None, out: TextIO
) -> None:
    """Write the JSON document of ``queens solutions --json``: the counts, the indices of the
    representatives, then the solutions as lists, written a block at a time."""
    document: dict[str, Any] = {
        "n": listing.n,
        "total": listing.total,
        "fundamental": listing.fundamental,
        "elapsed_s": round(elapsed, 6),
        "complete": listing.complete,
        "prefixes_searched": searched,
        "prefixes": prefixes,
    }
    # The representatives are all in the searched half, which comes first.
    document["fundamental_indices"] = np.flatnonzero(listing.searched_canonical).tolist()
    out.write(json.dumps(document)[:-1] + ', "solutions": [')
    separator = ""
    for boards, marked in listing.blocks(BLOCK_ROWS):
        text = rows_text(
            boards, marked, opening="[", separator=", ", closing="], ", marked_closing="], "
        )
        out.write(separator + text[:-2])
        separator = ", "
    out.write("]}\n")


class ProgressLine:
    """``counting N = 16: 412 of 1,118 prefixes (36%), 1.2 s`` on stderr, rewritten in
    place; only when stderr is a terminal (a script reading stderr gets nothing)."""

    def __init__(self, n: int, verb: str) -> None:
        self._n = n
        self._verb = verb
        self._shown = sys.stderr.isatty()
        self._started = time.monotonic()
        self._last = 0.0

    def __call__(self, searched: int, prefixes: int) -> None:
        now = time.monotonic()
        if not self._shown or now - self._last < PROGRESS_INTERVAL:
            return
        self._last = now
        sys.stderr.write(
            f"\r{self._verb} N = {self._n}: {searched:,} of {prefixes:,} prefixes "
            f"({100 * searched // prefixes}%), {now - self._started:.1f} s\x1b[K"
        )
        sys.stderr.flush()

    def clear(self) -> None:
        """Take the line away (before the result is printed)."""
        if self._shown and self._last:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
