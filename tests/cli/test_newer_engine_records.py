"""A run recorded by a newer engine version is refused by every command that reads it.

The file is a run of the test corpus (``tests/corpus/``) whose recorded engine version is
bumped past this one: ``show``, ``replay``, ``resume``, ``export`` and ``lineage`` say which
versions and what to do, exit 2, and leave the file as it was. The same file with this
version's number, or an older one, reads as usual.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tui.cli.command_line import main as queens
from tui.lab.record_version import NewerRecordError, engine_version, newer_than, release
from tui.lab.resume import resume
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
THIS = engine_version()
MAJOR, *_ = release(THIS) or (0,)
NEWER = (f"{MAJOR + 1}.0.0", f"{THIS}.1")
"""A later major release, and a later release by its last number."""
COMMANDS = {
    "show": ["show", "{file}"],
    "show --generation": ["show", "{file}", "--generation", "3"],
    "replay": ["replay", "{file}"],
    "resume": ["resume", "{file}", "--generations", "60"],
    "export": ["export", "{file}", "--format", "csv"],
    "export run file": ["export", "{file}", "--format", "run", "--output", "{copy}"],
    "lineage": ["lineage", "{file}"],
}


def corpus_file() -> Path:
    """A run file of this version's corpus (the newest corpus folder)."""
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir() and release(p.name))
    return folders[-1] / "preset-default.queens"


def recorded_by(tmp_path: Path, version: str) -> Path:
    """A copy of a corpus file whose record says ``version`` recorded it."""
    path = Path(shutil.copyfile(corpus_file(), tmp_path / "run.queens"))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE runs SET engine_version = ?", (version,))
    connection.close()
    return path


def command(name: str, file: Path) -> list[str]:
    return [part.format(file=file, copy=file.with_name("copy.queens")) for part in COMMANDS[name]]


def test_the_installed_version_is_a_release_number() -> None:
    assert release(THIS) is not None, f"queens-ga reports version {THIS!r}"


@pytest.mark.parametrize("newer", NEWER)
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_file_from_a_newer_engine_is_refused_with_the_versions(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    newer: str,
) -> None:
    # A replay that got through would open the dashboard here: say so instead of waiting.
    monkeypatch.setattr("tui.cli.dashboard_session.run_dashboard", lambda app: 0)
    path = recorded_by(tmp_path, newer)
    before = path.read_bytes()
    capsys.readouterr()
    code = queens(command(name, path))
    out, err = capsys.readouterr()
    assert code == 2
    assert err == (
        f"queens: error: {path}: recorded by engine version {newer}, newer than this one "
        f"({THIS}); upgrade queens-ga to read it\n"
    )
    assert out == ""
    assert path.read_bytes() == before
    assert not path.with_name("copy.queens").exists()


def test_a_run_in_a_store_from_a_newer_engine_is_refused_naming_the_store_and_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = recorded_by(tmp_path, NEWER[0])
    with RunStore.open(path, create=False, wal=False) as store:
        run_id = store.single_run_id()
    capsys.readouterr()
    assert queens(["show", str(run_id), "--store", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"queens: error: {path}: run {run_id}: recorded by engine version {NEWER[0]}, newer "
        f"than this one ({THIS}); upgrade queens-ga to read it\n"
    )


@pytest.mark.parametrize("version", [THIS, "0.0.1", "unknown"])
@pytest.mark.parametrize("name", ["show", "show --generation", "export", "lineage"])
def test_a_file_from_this_engine_or_an_older_one_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, version: str
) -> None:
    path = recorded_by(tmp_path, version)
    assert queens(command(name, path)) == 0, capsys.readouterr().err


def test_time_travel_and_resume_refuse_it_before_touching_the_record(tmp_path: Path) -> None:
    path = recorded_by(tmp_path, NEWER[0])
    before = path.read_bytes()
    with RunStore.open(path, create=False, wal=False) as store:
        run_id = store.single_run_id()
        with pytest.raises(NewerRecordError, match="upgrade queens-ga"):
            Timeline(store, run_id)
        with pytest.raises(NewerRecordError) as refused:
            resume(store, run_id, {"generations": 60})
        assert (refused.value.recorded, refused.value.this) == (NEWER[0], THIS)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("recorded", "this", "newer"),
    [
        ("0.2.0", "0.1.9", True),
        ("0.10.0", "0.9.0", True),
        ("1.0.0rc1", "0.9", True),
        ("0.1.1", "0.1.0", True),
        ("0.1", "0.1.0", False),
        ("0.1.0", "0.1.0", False),
        ("0.1.0+local", "0.1.0", False),
        ("0.0.9", "0.1.0", False),
        ("unknown", "0.1.0", False),
        ("9.0.0", "unknown", False),
        ("test", "0.1.0", False),
    ],
)
def test_versions_compare_by_their_release_numbers(recorded: str, this: str, newer: bool) -> None:
    assert newer_than(recorded, this) is newer
