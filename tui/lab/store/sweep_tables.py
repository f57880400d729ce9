"""The sweep tables: a sweep found by its plan's fingerprint, and its results, one per task.

Every function takes the open :class:`~tui.lab.store.connection.StoreConnection`. A result is
kept under (sweep, config fingerprint, seed); a second one for the same key is ignored.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from tui.lab.store.connection import StoreConnection
from tui.lab.store.errors import StoreError
from tui.lab.store.records import compact_json

SWEEP_SELECT: Final = (
    "SELECT s.id, s.fingerprint, s.plan, s.created, s.finished, COUNT(r.seed) "
    "FROM sweeps s LEFT JOIN sweep_results r ON r.sweep_id = s.id"
)
"""A sweep's row and how many results it holds; callers add the WHERE and GROUP BY."""


def sweep_for(store: StoreConnection, fingerprint: str, plan: Mapping[str, Any]) -> int:
    """The id of the sweep with this fingerprint, created (with its plan) if new."""
    with store.writing() as connection:
        row = connection.execute(
            "SELECT id FROM sweeps WHERE fingerprint = ?", (fingerprint,)
        ).fetchone()
        if row is not None:
            return int(row[0])
        cursor = connection.execute(
            "INSERT INTO sweeps (fingerprint, plan, created) VALUES (?, ?, ?)",
            (fingerprint, compact_json(dict(plan)), time.time()),
        )
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)


def add_sweep_result(
    store: StoreConnection,
    sweep_id: int,
    config_fingerprint: str,
    seed: int,
    result: Mapping[str, Any],
    run_id: int | None = None,
) -> bool:
    """Keep one run's result; ``False`` (and nothing changed) when it was kept already."""
    with store.writing() as connection:
        cursor = connection.execute(
            "INSERT OR IGNORE INTO sweep_results "
            "(sweep_id, config_fingerprint, seed, result, run_id) VALUES (?, ?, ?, ?, ?)",
            (sweep_id, config_fingerprint, int(seed), compact_json(dict(result)), run_id),
        )
        return cursor.rowcount == 1


def sweep_results(store: StoreConnection, sweep_id: int) -> list[dict[str, Any]]:
    """Every result of a sweep: ``config_fingerprint``, ``seed``, ``result``, ``run_id``."""
    with store.reading() as connection:
        rows = connection.execute(
            "SELECT config_fingerprint, seed, result, run_id FROM sweep_results "
            "WHERE sweep_id = ? ORDER BY config_fingerprint, seed",
            (sweep_id,),
        ).fetchall()
    return [
        {
            "config_fingerprint": fingerprint,
            "seed": int(seed),
            "result": _loads(store.path, result, f"sweep {sweep_id} result"),
            "run_id": run_id,
        }
        for fingerprint, seed, result, run_id in rows
    ]


def sweeps(store: StoreConnection) -> list[dict[str, Any]]:
    """Every sweep, oldest first, with how many results it holds (``results``)."""
    with store.reading() as connection:
        rows = connection.execute(SWEEP_SELECT + " GROUP BY s.id ORDER BY s.id").fetchall()
    return [_sweep(store.path, row) for row in rows]


def sweep(store: StoreConnection, sweep_id: int) -> dict[str, Any] | None:
    """One sweep (as in :func:`sweeps`), or ``None``."""
    with store.reading() as connection:
        row = connection.execute(
            SWEEP_SELECT + " WHERE s.id = ? GROUP BY s.id", (int(sweep_id),)
        ).fetchone()
    return None if row is None else _sweep(store.path, row)


def finish_sweep(store: StoreConnection, sweep_id: int) -> None:
    """Mark a sweep finished (now)."""
    with store.writing() as connection:
        connection.execute("UPDATE sweeps SET finished = ? WHERE id = ?", (time.time(), sweep_id))


def clear_sweep_results(store: StoreConnection, sweep_id: int) -> None:
    """Forget a sweep's results (``--fresh``), and that it finished."""
    with store.writing() as connection:
        connection.execute("DELETE FROM sweep_results WHERE sweep_id = ?", (sweep_id,))
        connection.execute("UPDATE sweeps SET finished = NULL WHERE id = ?", (sweep_id,))


def _sweep(path: Path, row: Sequence[Any]) -> dict[str, Any]:
    """A sweep as a dict, from a :data:`SWEEP_SELECT` row."""
    sweep_id, fingerprint, plan, created, finished, results = row
    return {
        "id": int(sweep_id),
        "fingerprint": fingerprint,
        "plan": _loads(path, plan, f"sweep {sweep_id} plan"),
        "created": created,
        "finished": finished,
        "results": int(results),
    }


def _loads(path: Path, text: Any, what: str) -> Any:
    """JSON read back, or :class:`StoreError` naming ``what`` is damaged."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        raise StoreError(f"{path}: {what} is damaged (not JSON)") from None
