"""The one job of a split count: ``(n, part, prefixes) -> that part's count``, plain data both ways.

A local worker process or a Dask worker imports this module by name and calls
:func:`count_task` with the board size, the part's place in the split and its prefixes as
lists of columns; it returns a mapping of plain numbers. Only numpy and the engine are loaded.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from engine.solutions.exact import count_part
from tui.lab.sweep.errors import TaskFailed


def count_task(n: int, part: int, prefixes: list[list[int]]) -> dict[str, Any]:
    """Count the solutions that begin with one part's prefixes.

    Args:
        n: The board size.
        part: The part's place in the split (said back, and named in an error).
        prefixes: Each prefix as the columns of the queens on the first rows (for N below 4,
            the one empty prefix).

    Returns:
        ``part``; ``prefixes``, how many were counted; ``solutions``, the solutions that begin
        with them, with their mirror images (:func:`engine.solutions.exact.count_part`);
        ``seconds``, the time it took, and ``cpu_seconds``, the processor time it had (less
        than ``seconds`` on a machine busy with other work).

    Raises:
        TaskFailed: If the prefixes are not of the half searched, or the count raised any
            error (only its message crosses processes).
    """
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        columns = np.array(prefixes, dtype=np.int64)
        if columns.ndim != 2:
            raise ValueError(f"prefixes come as a list of lists of columns; got {columns.ndim}-D")
        if columns.size and (int(columns.min()) < 0 or int(columns.max()) >= n):
            raise ValueError(f"a prefix of N = {n} has a column outside 0 to {n - 1}")
        solutions = count_part(n, columns.astype(np.uint8))
    except Exception as error:  # sent back as a message: see tui.lab.sweep.errors
        failure = f"the count of part {part} of N = {n} failed: {type(error).__name__}: {error}"
        raise TaskFailed(failure) from None
    return {
        "part": part,
        "prefixes": int(columns.shape[0]),
        "solutions": int(solutions),
        "seconds": round(time.perf_counter() - started, 6),
        "cpu_seconds": round(time.process_time() - cpu_started, 6),
    }
