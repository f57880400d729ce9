"""Fixtures of the lab tests: a real store file per test, and live runs to compare with."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.lab.store import RunStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    """A new store in a temporary file."""
    with RunStore.open(tmp_path / "runs.sqlite3") as opened:
        yield opened
