"""A count split into parts: the engine's batches of prefixes, named by a fingerprint.

The split depends only on N (:func:`engine.solutions.exact.count_parts`), never on the workers,
so a count stopped on two local workers can be finished on a cluster: the parts, and what is
kept of them, are the same. The fingerprint covers N and every prefix of every part: if a
later version splits N otherwise, its parts are another count's, and nothing kept under the
old split is added to the new.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.solutions.backtracking import Columns
from engine.solutions.exact import CountProgress, count_parts
from tui.lab.exact_count.task import count_task
from tui.lab.store.count_tables import KeptPart
from tui.lab.sweep.errors import TaskFailed
from tui.lab.sweep.job import Job

SPLIT_VERSION: Final = "queens exact count 1"
"""Begins every fingerprint: changed if a part's count ever came to mean something else."""

TASK_MODULE: Final = count_task.__module__
"""What a local worker imports before its first part (a local pool's ``preload``)."""


@dataclass(frozen=True)
class CountPlan:
    """The parts of a count of N's solutions.

    Attributes:
        n: The board size.
        parts: Each part's prefixes, ``(K, rows)`` columns, read-only.
        fingerprint: The split's name: N and every prefix of every part.
    """

    n: int
    parts: tuple[Columns, ...]
    fingerprint: str

    @property
    def prefixes(self) -> int:
        """Prefixes in all."""
        return sum(int(part.shape[0]) for part in self.parts)

    def job(self, part: int) -> Job:
        """The job that counts one part: :func:`~tui.lab.exact_count.task.count_task`."""
        prefixes = self.parts[part].tolist()
        key = f"queens-count-{self.n}-{self.fingerprint[:16]}-{part}"
        return Job(key, count_task, (self.n, part, prefixes))

    def kept_part(self, part: int, result: Mapping[str, Any]) -> KeptPart:
        """A part's result from a worker, checked against the part, as it is kept.

        Raises:
            TaskFailed: If the result is not this part's count (another part, another number
                of prefixes, a count that is no whole number): kept, it would make the total
                wrong.
        """
        try:
            kept = KeptPart(
                _whole(result["part"]),
                _whole(result["prefixes"]),
                _whole(result["solutions"]),
                float(result["seconds"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise TaskFailed(f"part {part} of N = {self.n} came back malformed ({error})") from None
        if (kept.part, kept.prefixes) != (part, int(self.parts[part].shape[0])):
            raise TaskFailed(
                f"part {part} of N = {self.n} came back as part {kept.part} of "
                f"{kept.prefixes} prefixes; it has {self.parts[part].shape[0]}"
            )
        return kept

    def progress(self, kept: Mapping[int, KeptPart]) -> CountProgress:
        """The count so far, from the parts kept: complete once every part is."""
        return CountProgress(
            self.n,
            sum(piece.prefixes for piece in kept.values()),
            self.prefixes,
            sum(piece.solutions for piece in kept.values()),
        )


def count_plan(n: int) -> CountPlan:
    """The parts of a count of ``n``'s solutions.

    Raises:
        ConfigError: If the board size cannot be counted.
    """
    parts = count_parts(n)
    digest = hashlib.sha256(f"{SPLIT_VERSION}; n={n}".encode())
    for part in parts:
        part.flags.writeable = False
        digest.update(f"; {part.shape[0]}x{part.shape[1]}:".encode())
        digest.update(part.tobytes())
    return CountPlan(n, tuple(parts), digest.hexdigest())


def _whole(value: Any) -> int:
    """A whole number >= 0 from a worker's result (a bool or a float is not one)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{value!r} is not a whole number >= 0")
    return value
