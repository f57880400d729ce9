"""The store's side of runs a person manages: ids never given twice (in an old store file too),
labels, deleting several runs at once, and a config told as its nearest preset."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine import Config
from engine.config.presets import preset_named
from tui.lab.config_summary import run_description, summarize
from tui.lab.run_label import MAX_LABEL, check_label
from tui.lab.store import RunStore, StoreError
from tui.lab.store.schema import APPLICATION, SCHEMA
from tui.lab.writer_process import Writer


def _begin(store: RunStore, label: str | None = None) -> int:
    return store.begin_run(
        {"n": 8, "seed": 1},
        seed=1,
        engine_version="test",
        label=label,
        keyframe_spacing=4,
        writer=Writer.this_process(),
    )


def _end(store: RunStore, run_id: int) -> int:
    store.end_run(run_id, "finished", "solved")
    return run_id


def _old_store(path: Path) -> None:
    """A store as the first schema's queens wrote it: no id mark; runs 1 to 3 added with the
    table's own ids, then run 3 deleted, as that queens did."""
    connection = sqlite3.connect(path)
    for statement in SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute("INSERT INTO schema_version VALUES (?, 1)", (APPLICATION,))
    config = json.dumps(preset_named("showcase").config(8, seed=1).to_dict())
    for label in ("showcase", None, "deap-nqueens"):
        connection.execute(
            "INSERT INTO runs (config, seed, n, label, engine_version, started, status, "
            "keyframe_spacing) VALUES (?, 1, 8, ?, 'old', 0, 'finished', 4)",
            (config, label),
        )
    connection.execute("DELETE FROM runs WHERE id = 3")
    connection.commit()
    connection.close()


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}


def test_ids_are_never_given_twice(store: RunStore) -> None:
    first, second = _end(store, _begin(store)), _end(store, _begin(store))
    store.delete_run(second)
    third = _begin(store)
    assert (first, second, third) == (1, 2, 3)
    _end(store, third)
    store.delete_runs([first, third])
    assert store.runs() == []
    assert _begin(store) == 4


def test_an_old_store_without_the_mark_opens_reads_and_then_keeps_its_ids(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _old_store(path)
    with RunStore.open(path) as store:
        runs = store.runs()
        assert [run.id for run in runs] == [1, 2]
        assert run_description(runs[0].label, runs[0].config) == "showcase"  # not said twice
    assert "run_id_mark" not in _tables(path)  # reading it changed nothing
    with RunStore.open(path) as store:
        # Run 3 was deleted before the store had a mark: that id cannot be known any more.
        newest = _end(store, _begin(store))
        assert newest == 3
        store.delete_run(newest)
        assert _begin(store) == 4
    assert "run_id_mark" in _tables(path)
    with RunStore.open(path) as store:  # still a store of the first schema for every reader
        assert [run.id for run in store.runs()] == [1, 2, 4]


def test_deleting_several_runs_is_all_or_none(store: RunStore) -> None:
    done = _end(store, _begin(store))
    live = _begin(store)  # recorded by this live process right now
    with pytest.raises(StoreError, match="being recorded right now"):
        store.delete_runs([done, live])
    with pytest.raises(StoreError, match="no run 99"):
        store.delete_runs([done, 99])
    assert [run.id for run in store.runs()] == [done, live]


def test_a_label_is_kept_changed_and_checked(store: RunStore) -> None:
    run_id = _end(store, _begin(store, label="first try"))
    assert store.run(run_id).label == "first try"
    store.set_label(run_id, "  second try ")
    assert store.run(run_id).label == "second try"
    with pytest.raises(ValueError, match="label: 'a\\\\nb' is not allowed"):
        store.set_label(run_id, "a\nb")
    with pytest.raises(StoreError, match="no run 9"):
        store.set_label(9, "x")
    assert store.run(run_id).label == "second try"


@pytest.mark.parametrize("text", ["", " ", "tab\there", "x" * (MAX_LABEL + 1), "\x1b[31mred"])
def test_a_label_must_be_one_short_printable_line(text: str) -> None:
    with pytest.raises(ValueError, match=r"^label: .* is not allowed"):
        check_label(text)


def test_a_config_is_told_as_its_nearest_preset_and_what_differs() -> None:
    showcase = preset_named("showcase").config(28, seed=5, mutation_rate=0.3)
    assert summarize(showcase.to_dict()).text() == "showcase, mutation-rate=0.3"
    assert summarize(Config(n=12, seed=1).to_dict()).text() == "default"
    words = summarize(Config(n=12, population=80, unique=True).to_dict())
    assert (words.preset, words.change_words) == ("default", ["population=80", "unique"])
    assert run_description("baseline", showcase.to_dict()) == (
        "baseline (showcase, mutation-rate=0.3)"
    )


def test_an_older_record_s_preset_label_wins_a_tie_and_is_not_said_twice() -> None:
    partial = {"n": 8, "population": 100, "mutation": "swap", "crossover_rate": 0.9}
    assert run_description("showcase", partial) == "showcase"
    assert run_description("deap-nqueens", partial).startswith("deap-nqueens (")
