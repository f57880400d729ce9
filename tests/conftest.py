"""Fixtures every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tui.dashboard.settings import CONFIG_DIR_VARIABLE


@pytest.fixture(autouse=True, scope="session")
def private_settings_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test, nor a dashboard it starts in a child process, keeps settings (the theme) in the
    user's real config. Session-scoped so hypothesis tests may use it; the dashboard's tests
    override it with a fresh directory per test."""
    before = os.environ.get(CONFIG_DIR_VARIABLE)
    os.environ[CONFIG_DIR_VARIABLE] = str(tmp_path_factory.mktemp("queens-ga-settings"))
    yield
    if before is None:
        del os.environ[CONFIG_DIR_VARIABLE]
    else:
        os.environ[CONFIG_DIR_VARIABLE] = before
