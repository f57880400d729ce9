"""The exact-count tables: made when first needed (an older store opens as before), a part kept
once, a count found again by its split, --fresh forgets, damaged rows refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tui.lab.exact_count.ledgers import StoreCountLedger
from tui.lab.exact_count.plan import count_plan
from tui.lab.store import RunStore, StoreError
from tui.lab.store.count_store import CountStore
from tui.lab.store.count_tables import KeptPart


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    connection.close()
    return names


def test_a_store_without_the_tables_opens_and_gets_them_when_a_count_is_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "runs.sqlite3"
    RunStore.open(path).close()  # a store as every earlier version made it
    assert "exact_counts" not in tables(path)
    with CountStore.open(path) as store:
        assert store.counts() == []
        assert store.parts(1) == []
        assert "exact_counts" not in tables(path)  # reading makes nothing
        count_id = store.count_for("f" * 64, 12, 4, 55)
        assert store.add_part(count_id, KeptPart(0, 14, 3000, 0.5))
    assert {"exact_counts", "exact_count_parts"} <= tables(path)
    with RunStore.open(path) as runs:  # the run store still takes the file as its own
        assert runs.runs() == []
        assert runs.sweeps() == []


def test_a_part_is_kept_once_and_a_count_is_found_by_its_split(tmp_path: Path) -> None:
    with CountStore.open(tmp_path / "runs.sqlite3") as store:
        count_id = store.count_for("a" * 64, 12, 4, 55)
        assert store.count_for("a" * 64, 12, 4, 55) == count_id
        assert store.count_for("b" * 64, 12, 4, 55) != count_id
        assert store.add_part(count_id, KeptPart(2, 14, 3000, 0.5))
        assert not store.add_part(count_id, KeptPart(2, 14, 9999, 0.7))  # came back twice
        assert store.parts(count_id) == [KeptPart(2, 14, 3000, 0.5)]
        (kept,) = [count for count in store.counts() if count.id == count_id]
        assert (kept.n, kept.parts, kept.prefixes, kept.parts_kept) == (12, 4, 55, 1)
        assert kept.finished is None and kept.total is None
        store.finish_count(count_id, 14200, 1787)
        (kept,) = [count for count in store.counts() if count.id == count_id]
        assert (kept.total, kept.fundamental) == (14200, 1787) and kept.finished is not None
        store.clear_count(count_id)
        assert store.parts(count_id) == []
        (kept,) = [count for count in store.counts() if count.id == count_id]
        assert (kept.total, kept.finished, kept.parts_kept) == (None, None, 0)


def test_the_store_ledger_finds_its_count_again_and_fresh_forgets_it(tmp_path: Path) -> None:
    plan = count_plan(12)
    with CountStore.open(tmp_path / "runs.sqlite3") as store:
        ledger = StoreCountLedger.for_plan(store, plan)
        prefixes = plan.parts[1].shape[0]
        assert ledger.add(KeptPart(1, prefixes, 4000, 0.1))
        again = StoreCountLedger.for_plan(store, plan)
        assert again.count_id == ledger.count_id
        assert again.done() == {1: KeptPart(1, prefixes, 4000, 0.1)}
        assert plan.progress(again.done()).searched == prefixes
        other = StoreCountLedger.for_plan(store, count_plan(11))
        assert other.count_id != ledger.count_id and other.done() == {}
        fresh = StoreCountLedger.for_plan(store, plan, fresh=True)
        assert fresh.count_id == ledger.count_id and fresh.done() == {}


def test_a_kept_part_that_does_not_fit_the_split_is_refused(tmp_path: Path) -> None:
    plan = count_plan(12)
    with CountStore.open(tmp_path / "runs.sqlite3") as store:
        ledger = StoreCountLedger.for_plan(store, plan)
        store.add_part(ledger.count_id, KeptPart(1, plan.parts[1].shape[0] + 1, 4000, 0.1))
        with pytest.raises(StoreError, match=r"part 1 of count .* is damaged"):
            ledger.done()
        store.clear_count(ledger.count_id)
        store.add_part(ledger.count_id, KeptPart(len(plan.parts), 3, 4000, 0.1))
        with pytest.raises(StoreError, match="does not fit the split of N = 12"):
            ledger.done()


@pytest.mark.parametrize(
    ("column", "value"),
    [("solutions", "'many'"), ("solutions", "-1"), ("seconds", "'soon'"), ("part", "1.5")],
)
def test_a_damaged_part_row_is_a_store_error(tmp_path: Path, column: str, value: str) -> None:
    path = tmp_path / "runs.sqlite3"
    with CountStore.open(path) as store:
        count_id = store.count_for("c" * 64, 12, 4, 55)
        store.add_part(count_id, KeptPart(0, 14, 3000, 0.5))
    with sqlite3.connect(path) as connection:
        connection.execute(f"UPDATE exact_count_parts SET {column} = {value}")
    connection.close()
    with CountStore.open(path) as store, pytest.raises(StoreError, match="is damaged"):
        store.parts(count_id)


def test_a_count_kept_with_another_size_under_its_fingerprint_is_refused(tmp_path: Path) -> None:
    with CountStore.open(tmp_path / "runs.sqlite3") as store:
        store.count_for("d" * 64, 12, 4, 55)
        with pytest.raises(StoreError, match="is damaged"):
            store.count_for("d" * 64, 13, 8, 66)
