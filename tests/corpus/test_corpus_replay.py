"""Run files recorded by every earlier version replay bit for bit in this one.

``tests/corpus/<version>/`` holds small run files as ``queens export --format run`` wrote them
in that version, and ``manifest.json`` the fingerprint of each of their generations
(:mod:`corpus_fingerprints`). Each file is replayed two ways: re-run from its recorded config
and seed, generation by generation from 0 (every generation's fingerprint and statistics
compared), and read back as time travel and ``queens show RUN --generation G`` read it (the
nearest keyframe restored and re-stepped, newest generation first). A change to the engine that
alters any recorded run fails here, naming the file and the first generation that differs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from corpus_fingerprints import (
    array_sha256,
    fingerprint,
    first_difference,
    manifest_of,
    version_folders,
)

from engine import Config, GeneticAlgorithm
from tui.cli.command_line import main as queens
from tui.lab.lineage import ArrayFamily
from tui.lab.recorded_lineage import snapshot_with_lineage
from tui.lab.recorder import stats_row
from tui.lab.resume import resume
from tui.lab.store import STAT_FIELDS, RunInfo, RunStore, StoreError
from tui.lab.timeline import COMPARED, Timeline

CASES = [
    pytest.param(folder / entry["file"], entry, id=f"{folder.name}/{entry['file']}")
    for folder in version_folders()
    for entry in manifest_of(folder)["runs"]
]


def named(path: Path) -> str:
    """A corpus file as a failure names it: relative to the repository."""
    return str(path.relative_to(path.parents[3]))


@pytest.fixture
def copy_of(tmp_path: Path) -> Any:
    """A copy of a corpus file, so that nothing a test does can touch the recorded one."""

    def copied(path: Path) -> Path:
        return Path(shutil.copyfile(path, tmp_path / path.name))

    return copied


def recorded(path: Path) -> tuple[RunInfo, list[tuple[Any, ...]]]:
    """A run file's record and every generation's recorded statistics."""
    with RunStore.open(path, create=False, wal=False) as store:
        info = store.run(store.single_run_id())
        stats = store.stats(info.id, 0, info.generations + 1)
    return info, list(zip(*(stats[name].tolist() for name in STAT_FIELDS), strict=True))


def test_each_version_folder_is_listed_whole_and_stays_small() -> None:
    folders = version_folders()
    assert folders, "no corpus found under tests/corpus"
    for folder in folders:
        size = sum(p.stat().st_size for p in folder.iterdir())
        assert size < 2 * 2**20, f"{folder.name}'s corpus is {size:,} bytes; keep it under 2 MiB"
        listed = {entry["file"] for entry in manifest_of(folder)["runs"]}
        on_disk = {p.name for p in folder.glob("*.queens")}
        assert listed == on_disk, f"{folder}: the manifest and the run files disagree"


@pytest.mark.parametrize(("path", "entry"), CASES)
def test_a_file_says_the_engine_version_of_its_corpus(path: Path, entry: dict[str, Any]) -> None:
    info, _ = recorded(path)
    assert info.engine_version == path.parent.name, (
        f"{named(path)}: recorded by engine version {info.engine_version}, kept under "
        f"{path.parent.name}"
    )


@pytest.mark.parametrize(("path", "entry"), CASES)
def test_a_rerun_from_the_recorded_config_and_seed_is_the_recorded_run(
    path: Path, entry: dict[str, Any], copy_of: Any
) -> None:
    info, stats = recorded(copy_of(path))
    assert info.generations == entry["generations"]
    algorithm = GeneticAlgorithm(Config.from_mapping(info.config))
    for generation in range(info.generations + 1):
        snapshot = algorithm.snapshot if generation == 0 else algorithm.step()
        now = fingerprint(snapshot, parents=entry["lineage"])
        problem = first_difference(entry["fingerprints"][str(generation)], now)
        if problem is None:
            row, then = stats_row(snapshot), stats[generation]
            changed = [
                f"{STAT_FIELDS[i]}: recorded {then[i]!r}, now {row[i]!r}"
                for i in COMPARED
                if row[i] != then[i]
            ]
            problem = "; ".join(changed) or None
        if problem is not None:
            pytest.fail(
                f"{named(path)}: re-run from its recorded config and seed, generation "
                f"{generation} is not the recorded one ({problem})",
                pytrace=False,
            )


@pytest.mark.parametrize(("path", "entry"), CASES)
def test_every_generation_read_back_from_the_keyframes_is_the_recorded_one(
    path: Path, entry: dict[str, Any], copy_of: Any
) -> None:
    differing: dict[int, str] = {}
    with RunStore.open(copy_of(path), create=False, wal=False) as store:
        timeline = Timeline(store, store.single_run_id())
        for generation in range(timeline.last_generation, -1, -1):  # back in time, as [ does
            try:
                snapshot = (
                    snapshot_with_lineage(timeline, generation)
                    if entry["lineage"] and generation
                    else timeline.snapshot_at(generation)
                )
            except StoreError as error:  # RecordMismatch: a re-stepped generation differs
                where = getattr(error, "generation", generation)
                differing.setdefault(where, str(error))
                continue
            now = fingerprint(snapshot, parents=entry["lineage"])
            problem = first_difference(entry["fingerprints"][str(generation)], now)
            if problem is not None:
                differing.setdefault(generation, problem)
    if differing:
        first = min(differing)
        pytest.fail(
            f"{named(path)}: read back from its keyframes, generation {first} is not the "
            f"recorded one ({differing[first]})",
            pytrace=False,
        )


@pytest.mark.parametrize(("path", "entry"), CASES)
def test_queens_show_prints_the_recorded_generation(
    path: Path, entry: dict[str, Any], copy_of: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    generation = entry["generations"] // 2 + 1  # between two keyframes: restored and stepped
    capsys.readouterr()
    code = queens(["show", str(copy_of(path)), "--generation", str(generation), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, f"{named(path)}: queens show failed: {err}"
    shown = json.loads(out)
    now = {
        "population_sha256": array_sha256(np.array(shown["population"])),
        "best_fitness": shown["stats"]["best_fitness"],
        "mean_fitness": shown["stats"]["mean_fitness"],
    }
    recorded_print = dict(entry["fingerprints"][str(generation)])
    recorded_print.pop("parents_sha256", None)
    problem = first_difference(recorded_print, now)
    assert problem is None, f"{named(path)}: queens show, generation {generation}: {problem}"


LINEAGE_CASES = [case for case in CASES if case.values[1]["lineage"]]


@pytest.mark.parametrize(("path", "entry"), LINEAGE_CASES)
def test_the_families_a_file_kept_are_the_rerun_lineage(
    path: Path, entry: dict[str, Any], copy_of: Any
) -> None:
    info, _ = recorded(path)
    algorithm = GeneticAlgorithm(Config.from_mapping(info.config))
    live = {}
    for generation in range(1, info.generations + 1):
        lineage = algorithm.step().lineage
        assert lineage is not None
        live[generation] = ArrayFamily.of(lineage)
    kept = in_place = 0
    with RunStore.open(copy_of(path), create=False, wal=False) as store:
        for piece in store.lineage_pieces(info.id, info.generations):
            if isinstance(piece, tuple):
                generation, family = piece
                kept += 1
                rows = [family.row(i) for i in range(info.config["population"])]
            else:
                in_place += piece.high - piece.low + 1
                continue  # everyone in place: nothing kept to compare
            expected = [live[generation].row(i) for i in range(len(rows))]
            if rows != expected:
                pytest.fail(
                    f"{named(path)}: the family kept for generation {generation} is not the "
                    "re-run's",
                    pytrace=False,
                )
    assert kept + in_place == info.generations, (
        f"{named(path)}: the file keeps the families of {kept + in_place} of its "
        f"{info.generations} generations"
    )


MORE = 5
"""Generations a resumed corpus run is taken past its record."""
RESUMABLE = [case for case in CASES if case.values[1]["stop_reason"] == "max-generations"]


@pytest.mark.parametrize(("path", "entry"), RESUMABLE)
def test_resuming_a_file_goes_on_as_the_longer_run_would(
    path: Path, entry: dict[str, Any], copy_of: Any
) -> None:
    copy = copy_of(path)
    info, _ = recorded(copy)
    longer = GeneticAlgorithm(
        Config.from_mapping({**info.config, "generations": info.generations + MORE})
    )
    expected = [longer.step() for _ in range(info.generations + MORE)][info.generations :]
    with RunStore.open(copy, create=False, wal=False) as store:
        resumed = resume(store, info.id, {"generations": info.generations + MORE})
        assert resumed.mismatch is None, f"{named(path)}: {resumed.mismatch}"
        continued = []
        while resumed.algorithm.has_next():
            continued.append(resumed.algorithm.step())
            resumed.recorder.record(continued[-1])
        resumed.recorder.close()
        stats = store.stats(info.id, info.generations + 1, info.generations + MORE + 1)
    assert [s.generation for s in continued] == [s.generation for s in expected]
    for now, then in zip(continued, expected, strict=True):
        problem = first_difference(fingerprint(then), fingerprint(now))
        if problem is not None:
            pytest.fail(
                f"{named(path)}: resumed, generation {now.generation} is not the longer run's "
                f"({problem})",
                pytrace=False,
            )
    assert stats["best_fitness"].tolist() == [s.stats.best_fitness for s in expected]
