"""Which engine version recorded a run, and refusing a record from a newer one.

Every record keeps the version of queens-ga that wrote it (``runs.engine_version``). A run
recorded by a newer version may hold what this one does not know (a config field, an operator,
a new way to step the same seed), so re-stepping it here could reproduce something else while
looking right: it is refused, with the versions and what to do, rather than read. A record of
this version or an older one is read as usual; the test corpus (``tests/corpus/<version>/``)
checks that every older version's records still replay bit for bit.

Versions are compared by their release numbers (``0.2.0`` after ``0.1.9``; ``0.2`` is
``0.2.0``); a version that is no release number (``unknown`` when the package is not installed,
a test's label) says nothing, and is never refused.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Final

from tui.lab.store import StoreError

if TYPE_CHECKING:
    from tui.lab.store import RunInfo

RELEASE: Final = re.compile(r"^v?(\d+(?:\.\d+)*)")
"""The release numbers at the start of a version (``1.2.3`` of ``1.2.3rc1+local``)."""


@cache
def engine_version() -> str:
    """The installed queens-ga version (the engine's), for the record."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("queens-ga")
    except PackageNotFoundError:
        return "unknown"


def release(version: str) -> tuple[int, ...] | None:
    """A version's release numbers without trailing zeros, or ``None`` when it has none."""
    found = RELEASE.match(version.strip())
    if found is None:
        return None
    numbers = [int(part) for part in found.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def newer_than(recorded: str, this: str) -> bool:
    """Whether version ``recorded`` is a later release than ``this``."""
    recorded_release, this_release = release(recorded), release(this)
    if recorded_release is None or this_release is None:
        return False
    return recorded_release > this_release


class NewerRecordError(StoreError):
    """A run recorded by a newer engine version than this one.

    Attributes:
        recorded: The version that recorded the run.
        this: This engine's version.
    """

    def __init__(self, where: str, recorded: str, this: str) -> None:
        self.recorded = recorded
        self.this = this
        super().__init__(
            f"{where}: recorded by engine version {recorded}, newer than this one ({this}); "
            "upgrade queens-ga to read it"
        )


def refuse_newer(info: RunInfo, where: str, this: str | None = None) -> None:
    """Refuse a run recorded by a newer engine version.

    Args:
        info: The run's record.
        where: The run as a message names it: a run file's path, or the store and the run.
        this: This engine's version (by default the installed one).

    Raises:
        NewerRecordError: When the run's version is a later release than this one.
    """
    current = engine_version() if this is None else this
    if newer_than(info.engine_version, current):
        raise NewerRecordError(where, info.engine_version, current)
