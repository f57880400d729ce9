"""The export's files: any typed folder gives a message, a full disk leaves no half-written
file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.dashboard.files.export_files import ExportError, ExportFile, check_folder, write_files


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("~no-such-user-here/runs", "no such home folder"),
        ("x" * 5000, "File name too long"),
        ("a\0b", "does not exist"),
    ],
)
def test_any_typed_folder_gives_a_message_not_a_traceback(
    tmp_path: Path, typed: str, said: str
) -> None:
    with pytest.raises(ExportError) as refused:
        check_folder(typed, current=tmp_path)
    message = str(refused.value)
    assert message.startswith("Folder ") and said in message and len(message) < 300


def test_a_full_disk_leaves_no_half_written_file(small_disk: Path) -> None:
    filler = small_disk / "filler"
    with filler.open("wb") as stream:  # fill the disk, then free room for the small file only
        try:
            while True:
                stream.write(b"\0" * 65536)
                stream.flush()
        except OSError:
            pass
    with filler.open("r+b") as stream:
        stream.truncate(filler.stat().st_size - 16 * 1024)
    files = [
        ExportFile("small.csv", "history", "generation,best\n0,1\n"),
        ExportFile("large.svg", "screen", "<svg>" + "x" * 400_000 + "</svg>"),
    ]
    with pytest.raises(ExportError, match=r"Folder .*cannot write"):
        write_files(check_folder(str(small_disk)), files)
    assert sorted(path.name for path in small_disk.iterdir()) == ["filler"]
