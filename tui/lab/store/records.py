"""What the store hands out and takes in, and how rows become values: checked on the way out.

:class:`RunInfo` (a ``runs`` row), :class:`Keyframe` (an engine state), :class:`Batch` (what a
recorder commits at once); the compact JSON the store writes; and the conversions of rows read
back, which refuse a damaged value with a :class:`~tui.lab.store.errors.StoreError` instead of
passing it on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from tui.lab.store.errors import StoreError
from tui.lab.store.operator_swaps import SWAPS_KEY, OperatorSwap, swaps_of
from tui.lab.store.schema import INTEGER_STATS, STAT_FIELDS, STATUSES
from tui.lab.writer_process import Writer

if TYPE_CHECKING:
    from tui.lab.store.lineage_table import LineageRow


@dataclass(frozen=True)
class RunInfo:
    """A run's record, without its generations.

    Attributes:
        label: What a person calls the run (``--label``); a record written before labels
            existed holds its preset's name here.
        status: ``running``, ``finished`` or ``interrupted``; a run recorded as ``running``
            whose writer is gone reads as ``interrupted``.
        generations: The last generation recorded.
        writer_alive: Whether a live process is recording this run now.
        config: The config the run started with (the stored config without its swaps).
        swaps: The operators the run was given from a generation on, in the order given
            (:mod:`tui.lab.store.operator_swaps`); empty for most runs.
    """

    id: int
    config: dict[str, Any]
    seed: int
    n: int
    label: str | None
    engine_version: str
    started: float
    ended: float | None
    status: str
    stop_reason: str | None
    generations: int
    evaluations: int
    best_conflicts: int | None
    solutions: int
    keyframe_spacing: int
    writer_alive: bool
    swaps: tuple[OperatorSwap, ...] = ()

    @property
    def solved(self) -> bool:
        """Whether some generation had a solution."""
        return self.best_conflicts == 0 or self.solutions > 0


@dataclass(frozen=True)
class Keyframe:
    """A full engine state at one generation: plain values and numpy arrays.

    ``state`` is what :meth:`engine.GeneticAlgorithm.state` returns, with its arrays as numpy
    arrays (``population``, ``seen``, ``solutions``, ...). Nothing in it has been validated by
    the engine yet: :meth:`engine.GeneticAlgorithm.from_state` does that.
    """

    generation: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Batch:
    """What a recorder commits at once.

    Attributes:
        stats: Rows of :data:`STAT_FIELDS` values, generations in increasing order.
        solutions: ``(generation, board)`` of each new solution, in the order found.
        keyframes: New keyframes.
        drop_keyframes_off: When set, ``(spacing, keep)``: delete the keyframes whose generation
            is not a multiple of ``spacing``, but for generation ``keep`` (thinning).
        keyframe_spacing: The run's keyframe spacing now, when it changed.
        lineage: The generations' lineage (:mod:`tui.lab.store.lineage_table`).
        drop_lineage_off: When set, delete the lineage rows whose generation is not a multiple
            of it (thinning: a missing family is recomputed from the keyframes).
    """

    stats: Sequence[Sequence[float]] = ()
    solutions: Sequence[tuple[int, Sequence[int]]] = ()
    keyframes: Sequence[Keyframe] = ()
    drop_keyframes_off: tuple[int, int] | None = None
    keyframe_spacing: int | None = None
    lineage: Sequence[LineageRow] = ()
    drop_lineage_off: int | None = None


NPY_HEADER: Final = 128
"""Bytes a ``.npy`` header takes (numpy pads it to 128 for small shapes)."""


def keyframe_size(state: Mapping[str, Any]) -> int:
    """The bytes a keyframe counts against its run's budget: its JSON and its arrays."""
    plain = {name: value for name, value in state.items() if not isinstance(value, np.ndarray)}
    arrays = sum(
        value.nbytes + NPY_HEADER for value in state.values() if isinstance(value, np.ndarray)
    )
    return len(compact_json(plain)) + arrays


def python_value(value: Any) -> Any:
    """numpy scalars as Python numbers, for sqlite3 and JSON."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def compact_json(value: Any) -> str:
    """``value`` as JSON without spaces or NaN, numpy scalars as Python numbers."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False, default=python_value)


RUN_COLUMNS: Final = (
    "id, config, seed, n, label, engine_version, started, ended, status, stop_reason, "
    "generations, evaluations, best_conflicts, solutions, keyframe_spacing, "
    "writer_host, writer_pid, writer_start, heartbeat"
)
"""The ``runs`` columns :func:`run_info` reads, in its order."""


def run_info(path: Path, row: Sequence[Any]) -> RunInfo:
    """A :class:`RunInfo` from a ``runs`` row (:data:`RUN_COLUMNS`), checked.

    Raises:
        StoreError: When its config is not a JSON object or its status is unknown.
    """
    (run_id, config, seed, n, label, version, started, ended, status, reason) = row[:10]
    (generations, evaluations, best, solutions, spacing) = row[10:15]
    (host, pid, start, heartbeat) = row[15:]
    try:
        config = json.loads(config)
    except (TypeError, ValueError):
        config = None
    if not isinstance(config, dict) or status not in STATUSES:
        raise StoreError(f"{path}: run {run_id} is damaged (config or status)")
    if label is not None and not isinstance(label, str):
        raise StoreError(f"{path}: run {run_id} is damaged (label)")
    swaps = swaps_of(path, run_id, config.pop(SWAPS_KEY, None))
    alive = False
    if status == "running" and host is not None and pid is not None:
        alive = Writer(str(host), int(pid), start).alive(heartbeat)
        if not alive:
            status = "interrupted"
    elif status == "running":
        status = "interrupted"
    return RunInfo(
        id=int(run_id),
        config=config,
        seed=int(seed),
        n=int(n),
        label=label,
        engine_version=str(version),
        started=float(started),
        ended=None if ended is None else float(ended),
        status=status,
        stop_reason=reason,
        generations=int(generations),
        evaluations=int(evaluations),
        best_conflicts=None if best is None else int(best),
        solutions=int(solutions),
        keyframe_spacing=int(spacing),
        writer_alive=alive,
        swaps=swaps,
    )


def stat_columns(path: Path, run_id: int, rows: list[Any]) -> dict[str, npt.NDArray[Any]]:
    """Stats rows (:data:`STAT_FIELDS`) as typed numpy columns, refusing damaged values.

    Raises:
        StoreError: When a value is not a number of its column's type, or generations are
            missing between the first row and the last.
    """
    columns: dict[str, npt.NDArray[Any]] = {}
    for index, name in enumerate(STAT_FIELDS):
        values = [row[index] for row in rows]
        dtype = np.int64 if name in INTEGER_STATS else np.float64
        try:
            columns[name] = np.asarray(values, dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            raise StoreError(f"{path}: run {run_id}: damaged stats ({name})") from None
    generations = columns["generation"]
    if generations.size > 1 and not bool(np.all(np.diff(generations) == 1)):
        raise StoreError(f"{path}: run {run_id}: generations missing from the stats")
    return columns
