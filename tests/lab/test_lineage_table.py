"""The lineage table: what a recorder keeps is the live lineage, row for row, in a few bytes;
a store without the table still opens and gets it; truncating, deleting and damage."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm, Snapshot
from tui.lab.engine_state import HISTORY_LIMIT
from tui.lab.lineage import ArrayFamily
from tui.lab.recorder import STORED_LINEAGE, Recorder
from tui.lab.store import RunStore, StoreError
from tui.lab.store.lineage_table import (
    BEST,
    FAMILY_VERSION,
    FROM_BEST,
    InPlaceStretch,
    pack_family,
    width_for,
)
from tui.lab.writer_process import Writer

CONFIGS = {
    "default": Config(n=10, population=24, seed=5, generations=60, stop_when_solved=False),
    "wide": Config(
        n=8, population=300, crossover_rate=0.5, seed=2, generations=6, stop_when_solved=False
    ),
    "one-child": Config(
        n=8,
        population=40,
        crossover="order-uniform",
        children_per_couple=1,
        crossover_rate=0.7,
        survivor="generational",
        mutation="swap-gene",
        mutation_rate=0.05,
        seed=8,
        generations=12,
        stop_when_solved=False,
    ),
    "sheppard": Config.from_mapping(
        {
            "n": 5,
            "population": 75,
            "offspring": 75,
            "encoding": "squares",
            "fitness": "attacked",
            "selection": "uniform",
            "crossover": "one-gene",
            "crossover_rate": 1.0,
            "children_per_couple": 1,
            "mutation": "reset-one",
            "fallback": True,
            "unique": True,
            "survivor": "threshold",
            "seed": 3,
            "generations": 15,
            "stop_when_solved": False,
        }
    ),
}


def recorded(
    store: RunStore, config: Config, stored_lineage: int = STORED_LINEAGE
) -> tuple[int, list[Snapshot]]:
    """Record a whole run; its id and every snapshot it published."""
    algorithm = GeneticAlgorithm(config, history_limit=HISTORY_LIMIT)
    recorder = Recorder(store, algorithm, keyframe_share=None, stored_lineage=stored_lineage)
    published = [algorithm.snapshot]
    while algorithm.has_next():
        published.append(algorithm.step())
        recorder.record(published[-1])
    recorder.close()
    return recorder.run_id, published


def kept_rows(store: RunStore, run_id: int, top: int, size: int) -> dict[int, Any]:
    """Each kept generation's family rows and best; a stretch in place (its bounds and how
    many of its bests were carried over) under its newest generation."""
    kept: dict[int, Any] = {}
    for piece in store.lineage_pieces(run_id, top):
        if isinstance(piece, tuple):
            generation, family = piece
            kept[generation] = ([family.row(i) for i in range(size)], family.best)
        else:
            assert piece.high >= piece.low
            kept[piece.high] = piece
    return kept


def generations(piece: Any) -> int:
    """How many generations a kept piece covers."""
    return piece.high - piece.low + 1 if isinstance(piece, InPlaceStretch) else 1


@pytest.mark.parametrize("stored", [STORED_LINEAGE, 0], ids=["stored", "compressed"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_kept_lineage_is_the_live_one(store: RunStore, name: str, stored: int) -> None:
    run_id, published = recorded(store, CONFIGS[name], stored)
    size = published[0].population.shape[0]
    kept = kept_rows(store, run_id, published[-1].generation, size)
    covered: list[int] = []
    for generation, piece in kept.items():
        if isinstance(piece, InPlaceStretch):
            stretch = range(piece.low, piece.high + 1)
            for g in stretch:
                lineage = published[g].lineage
                assert lineage is not None and lineage.all_in_place
            carried = [published[g].best_index == published[g - 1].best_index for g in stretch]
            assert piece.carried == sum(carried)
            covered += stretch
            continue
        lineage = published[generation].lineage
        assert lineage is not None and not lineage.all_in_place
        live = ArrayFamily.of(lineage)
        assert piece == ([live.row(i) for i in range(size)], published[generation].best_index)
        covered.append(generation)
    assert sorted(covered) == list(range(1, len(published)))


def test_a_generation_all_in_place_keeps_no_family(store: RunStore) -> None:
    run_id, published = recorded(store, CONFIGS["default"])
    in_place = [s.generation for s in published if s.lineage and s.lineage.all_in_place]
    assert in_place, "the run should have generations in which no child got in"
    with sqlite3.connect(store.path) as connection:
        empty = [
            row[0]
            for row in connection.execute(
                "SELECT generation FROM lineage WHERE run_id = ? AND family IS NULL", (run_id,)
            )
        ]
        (size,) = connection.execute(
            "SELECT SUM(LENGTH(family)) + 40 * COUNT(*) FROM lineage WHERE run_id = ?", (run_id,)
        ).fetchone()
    assert empty == in_place
    individuals = 24 * len(published)
    assert size / individuals <= 4, "bytes per individual and generation"


def test_a_family_of_the_first_format_reads_the_same(store: RunStore) -> None:
    # The first format: no version byte, and BEST and FROM_BEST in the flags (as written then).
    run_id, published = recorded(store, CONFIGS["wide"])
    size = published[0].population.shape[0]
    width = width_for(size)
    with sqlite3.connect(store.path) as connection:
        for snapshot in published[1:]:
            lineage = snapshot.lineage
            assert lineage is not None
            (family,) = connection.execute(
                "SELECT family FROM lineage WHERE run_id = ? AND generation = ?",
                (run_id, snapshot.generation),
            ).fetchone()
            raw = bytearray(zlib.decompress(family))
            assert raw[-1] == FAMILY_VERSION
            flags = lineage.origin_flags
            assert (flags & (BEST | FROM_BEST)).any()
            raw[size * width : size * (width + 1)] = flags.tobytes()
            connection.execute(
                "UPDATE lineage SET family = ? WHERE run_id = ? AND generation = ?",
                (zlib.compress(bytes(raw[:-1]), 1), run_id, snapshot.generation),
            )
    kept = kept_rows(store, run_id, published[-1].generation, size)
    for snapshot in published[1:]:
        assert snapshot.lineage is not None
        live = ArrayFamily.of(snapshot.lineage)
        rows = [live.row(i) for i in range(size)]
        assert kept[snapshot.generation] == (rows, snapshot.best_index)


def test_a_recording_stores_its_first_families_then_compresses_the_rest(store: RunStore) -> None:
    # Stored: the family's bytes as they are, inside a zlib stream; compressed: fewer bytes.
    budget = 1_500  # the wide run keeps a family of 900 to 1,000 bytes a generation
    run_id, published = recorded(store, CONFIGS["wide"], budget)
    with sqlite3.connect(store.path) as connection:
        families = [
            row[0]
            for row in connection.execute(
                "SELECT family FROM lineage WHERE run_id = ? AND family IS NOT NULL "
                "ORDER BY generation",
                (run_id,),
            )
        ]
    assert len(families) == len(published) >= 5  # generation 0 keeps one too
    stored, before = [], 0
    for family in families:
        stored.append(before < budget)
        if stored[-1]:
            before += len(family)
    assert stored[:2] == [True, True] and not stored[-1]
    for family, was_stored in zip(families, stored, strict=True):
        raw = zlib.decompress(family)
        assert (raw in family) == was_stored
        assert was_stored or len(family) < len(raw)


def test_widths_fit_the_population() -> None:
    assert [width_for(p) for p in (2, 255, 256, 65535, 65536)] == [1, 1, 2, 2, 4]
    parents = np.array([[-1, -1], [254, -1], [0, 254]])
    row = pack_family(3, parents, np.array([0, 1, 3], dtype=np.uint8), 1, 0)
    assert row.width == 1 and row.family is not None


@pytest.mark.parametrize("size", [3, 256, 1000, 70_000])
def test_a_family_holds_offsets_flags_second_parents_and_its_version_in_that_order(
    size: int,
) -> None:
    # The bytes the readers expect, written out plainly: each first parent as
    # ``parent + 1 - index`` modulo the width's range, the flags, the crossed second parents,
    # the format's version.
    rng = np.random.default_rng(size)
    first = rng.integers(-1, size, size)
    crossed = rng.random(size) < 0.3
    second = np.where(crossed, rng.integers(0, size, size), -1)
    flags = np.where(crossed, 3, rng.integers(0, 3, size)).astype(np.uint8)
    row = pack_family(4, np.stack([first, second], axis=1), flags, 0, -1)
    width = width_for(size)
    offsets = b"".join(
        ((parent + 1 - index) % (1 << (8 * width))).to_bytes(width, "little")
        for index, parent in enumerate(first.tolist())
    )
    seconds = b"".join(parent.to_bytes(width, "little") for parent in second[crossed].tolist())
    assert row.family is not None and row.width == width
    version = bytes([FAMILY_VERSION])
    assert zlib.decompress(row.family) == offsets + flags.tobytes() + seconds + version


def test_a_store_without_the_table_opens_and_gets_it(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    RunStore.open(path).close()
    with sqlite3.connect(path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "lineage" not in tables  # a store is made as before: the table comes with a run
    with RunStore.open(path) as store:
        assert list(store.lineage_pieces(1, 10)) == []
        run_id, published = recorded(store, CONFIGS["wide"])
        kept = kept_rows(store, run_id, 100, 300).values()
    assert sum(generations(piece) for piece in kept) == len(published) - 1


def test_truncating_and_deleting_a_run_take_its_lineage(store: RunStore) -> None:
    run_id, _ = recorded(store, CONFIGS["default"])
    other, published = recorded(store, CONFIGS["wide"])
    store.truncate_run(run_id, 20)
    kept = kept_rows(store, run_id, 100, 24)
    assert sum(generations(piece) for piece in kept.values()) == 20 and max(kept) == 20
    store.delete_run(run_id)
    assert list(store.lineage_pieces(run_id, 100)) == []
    kept = kept_rows(store, other, 100, 300).values()
    assert sum(generations(piece) for piece in kept) == len(published) - 1


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("family", b"not zlib at all"),
        ("family", zlib.compress(b"\x00" * 5)),
        ("width", 3),
        ("best", 10_000),
    ],
)
def test_a_damaged_row_is_refused(store: RunStore, column: str, value: object) -> None:
    run_id, _ = recorded(store, CONFIGS["wide"])
    with sqlite3.connect(store.path) as connection:
        connection.execute(
            f"UPDATE lineage SET {column} = ? WHERE run_id = ? AND generation = 2",
            (value, run_id),
        )
    with pytest.raises(StoreError, match=r"lineage of generations? 2"):
        kept_rows(store, run_id, 6, 300)


def test_a_run_file_keeps_the_lineage_its_run_kept(store: RunStore, tmp_path: Path) -> None:
    run_id, published = recorded(store, CONFIGS["default"])
    other, _ = recorded(store, CONFIGS["wide"])
    top, size = published[-1].generation, published[0].population.shape[0]
    store.export_run(run_id, tmp_path / "run.queens")
    with RunStore.open(tmp_path / "run.queens", create=False, wal=False) as exported:
        assert exported.single_run_id() == run_id
        assert kept_rows(exported, run_id, top, size) == kept_rows(store, run_id, top, size)
        assert list(exported.lineage_pieces(other, 6)) == []  # only this run's


def test_a_run_file_from_a_store_without_lineage_has_none(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.sqlite3") as store:
        run_id = store.begin_run(
            {"n": 8},
            seed=1,
            engine_version="test",
            label=None,
            keyframe_spacing=4,
            writer=Writer.this_process(),
        )
        store.end_run(run_id, "finished", "solved")
        store.export_run(run_id, tmp_path / "run.queens")
    with sqlite3.connect(tmp_path / "run.queens") as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "lineage" not in tables
