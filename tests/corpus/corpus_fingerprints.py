"""What the corpus keeps of a generation: its fingerprint, and where the corpus lives.

A generation's fingerprint is a SHA-256 of its population (the genes as little-endian int64,
row by row, after the array's shape, so the engine's own integer type does not enter it) and
its best and mean fitness as the floats they are (JSON writes a float so that it reads back
exactly). A run whose lineage is checked adds a SHA-256 of its ``(P, 2)`` parents the same way.

Shared by ``make_corpus.py``, which writes the corpus, and the test that replays it: one
spelling of what "the same generation" means.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine import Snapshot

CORPUS: Final = Path(__file__).resolve().parent
"""``tests/corpus``: one folder per engine version that wrote run files into it."""
MANIFEST: Final = "manifest.json"
"""The file beside a version's run files that lists them with their fingerprints."""
VERSION_FOLDER: Final = re.compile(r"^\d+(\.\d+)*$")
"""A version folder's name: a release number such as ``0.1.0``."""


def array_sha256(array: npt.NDArray[Any]) -> str:
    """A SHA-256 of an integer array's shape and values, whatever its integer type."""
    values = np.ascontiguousarray(array, dtype="<i8")
    digest = hashlib.sha256(json.dumps(list(values.shape)).encode())
    digest.update(values.tobytes())
    return digest.hexdigest()


def fingerprint(snapshot: Snapshot, *, parents: bool = False) -> dict[str, Any]:
    """A generation's fingerprint (see the module); with ``parents``, its lineage's too."""
    stats = snapshot.stats
    fields = {
        "population_sha256": array_sha256(snapshot.population),
        "best_fitness": float(stats.best_fitness),
        "mean_fitness": float(stats.mean_fitness),
    }
    if parents:
        lineage = snapshot.lineage
        fields["parents_sha256"] = None if lineage is None else array_sha256(lineage.parents)
    return fields


def first_difference(recorded: dict[str, Any], now: dict[str, Any]) -> str | None:
    """The first entry of a recorded fingerprint that differs now, said for people."""
    for name, value in recorded.items():
        if now.get(name) != value:
            return f"{name}: recorded {value!r}, now {now.get(name)!r}"
    return None


def version_folders() -> list[Path]:
    """The corpus's version folders, oldest version first."""
    folders = [p for p in CORPUS.iterdir() if p.is_dir() and VERSION_FOLDER.match(p.name)]
    return sorted(folders, key=lambda p: tuple(int(part) for part in p.name.split(".")))


def manifest_of(folder: Path) -> dict[str, Any]:
    """A version folder's manifest."""
    document: dict[str, Any] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return document
