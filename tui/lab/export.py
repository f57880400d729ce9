"""A recorded run as files: history CSV, JSON lines, one JSON document, or a portable run file.

CSV and JSON lines stream the history a chunk at a time, so a run of 10^7 generations exports
in bounded memory. The JSON document holds everything but the keyframes' arrays: the run's
record, every generation's statistics, the solutions, and the last generation's population,
written straight from its array.
"""

from __future__ import annotations

import csv
import errno
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TextIO

from tui.lab import json_stream
from tui.lab.store import STAT_FIELDS, RunInfo, RunStore
from tui.lab.timeline import Timeline

FORMATS: Final = ("csv", "jsonl", "json", "run")


def run_document(info: RunInfo) -> dict[str, Any]:
    """A run's record as plain JSON values (with ``swaps``, the operators it was given while
    paused, when it has any: :mod:`tui.lab.store.operator_swaps`)."""
    document: dict[str, Any] = {
        "run_id": info.id,
        "label": info.label,
        "status": info.status,
        "stop_reason": info.stop_reason,
        "started": info.started,
        "ended": info.ended,
        "n": info.n,
        "seed": info.seed,
        "engine_version": info.engine_version,
        "generations": info.generations,
        "evaluations": info.evaluations,
        "best_conflicts": info.best_conflicts,
        "solved": info.solved,
        "solutions": info.solutions,
        "keyframe_spacing": info.keyframe_spacing,
        "config": info.config,
    }
    if info.swaps:
        document["swaps"] = [swap.document() for swap in info.swaps]
    return document


def write_csv(store: RunStore, run_id: int, stream: TextIO) -> None:
    """The history as CSV: a header, then one line per generation."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(STAT_FIELDS)
    for row in store.iter_stats(run_id):
        writer.writerow([row[name] for name in STAT_FIELDS])


def write_jsonl(store: RunStore, run_id: int, stream: TextIO) -> None:
    """The history as JSON lines: one object per generation."""
    for row in store.iter_stats(run_id):
        stream.write(json.dumps(row) + "\n")


def write_json(store: RunStore, run_id: int, stream: TextIO) -> None:
    """Everything as one JSON document, streamed: the history is never all in memory, and
    the final population is written from its array (:mod:`tui.lab.json_stream`)."""
    info = store.run(run_id)
    head = run_document(info)
    final = Timeline(store, run_id).snapshot_at(info.generations)
    head["final_population"] = final.population
    head["solutions_found"] = [
        {"generation": generation, "board": board} for generation, board in store.solutions(run_id)
    ]
    head["keyframes"] = store.keyframe_generations(run_id)
    head["history"] = store.iter_stats(run_id)
    json_stream.write_json(head, stream)
    stream.write("\n")


WRITERS: Final[dict[str, Callable[[RunStore, int, TextIO], None]]] = {
    "csv": write_csv,
    "jsonl": write_jsonl,
    "json": write_json,
}


def export_to_file(
    store: RunStore, run_id: int, format: str, output: str | os.PathLike[str]
) -> Path:
    """Write one export to ``output``, atomically (a partial file never takes its name).

    Raises:
        StoreError: From the store (no such run, damaged record, a run file that exists).
        OSError: When the file cannot be written.
    """
    target = Path(output)
    if not str(output) or not target.name or target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "a directory, not a file", str(output))
    if format == "run":
        store.export_run(run_id, target)
        return target
    partial = target.with_name(target.name + ".partial")
    try:
        with open(partial, "w", encoding="utf-8", newline="") as stream:
            WRITERS[format](store, run_id, stream)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return target
