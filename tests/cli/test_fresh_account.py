"""A new account records its first run: an empty home, no ``QUEENS_STORE``, no ``XDG_*``.

Every other test names its store; these name none, as a new user does, so the store's folder
(``~/.local/share/queens-ga``) and the settings' (``~/.config/queens-ga``) must be made by the
program itself, private to the user.
"""

from __future__ import annotations

import os
import stat
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli.test_signals import queens_script
from tests.pseudo_terminal import TerminalOutput
from tui.lab.store import RunStore

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="starts processes on a pseudo-terminal (Linux)"
)

WHAT_A_NEW_ACCOUNT_LACKS = (
    "QUEENS_STORE",
    "QUEENS_GA_CONFIG_DIR",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
)


def new_account(home: Path) -> dict[str, str]:
    """This process's environment as a new account has it: ``home`` empty, nothing of ours."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in WHAT_A_NEW_ACCOUNT_LACKS and not name.startswith("XDG_")
    }
    environment["HOME"] = str(home)
    return environment


def user_store(home: Path) -> Path:
    return home / ".local" / "share" / "queens-ga" / "runs.sqlite3"


def assert_private_folder(folder: Path) -> None:
    mode = stat.S_IMODE(folder.stat().st_mode)
    assert mode == 0o700, f"{folder} is {oct(mode)}, not private to its user"


def test_the_first_solve_of_a_new_account_is_recorded(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    environment = new_account(home)
    solved = subprocess.run(
        [*queens_script(), "solve", "--n", "8", "--seed", "1", "--record"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert solved.returncode == 0, solved.stderr
    assert "recorded as run 1" in solved.stdout
    assert_private_folder(user_store(home).parent)
    listed = subprocess.run(
        [*queens_script(), "runs"], env=environment, capture_output=True, text=True, check=False
    )
    assert listed.returncode == 0, listed.stderr
    assert "finished (solved)" in listed.stdout
    shown = subprocess.run(
        [*queens_script(), "show", "1"], env=environment, capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr


def test_the_first_dashboard_run_of_a_new_account_is_recorded(tmp_path: Path) -> None:
    """The dashboard in a pseudo-terminal: space runs the showcase, q quits; the run is in the
    store the new account never made by hand."""
    import pty

    home = tmp_path / "home"
    home.mkdir()
    environment = new_account(home)
    environment["TERM"] = "xterm-256color"
    pid, terminal = pty.fork()
    if pid == 0:
        command = queens_script()
        os.execve(command[0], command, environment)
    output = TerminalOutput(terminal)
    output.wait_for(b"Quit", 60.0, "the dashboard's footer")
    os.write(terminal, b" ")
    time.sleep(1.5)
    os.write(terminal, b"q")
    output.read_for(20.0)  # to the end: the child closes the terminal when it exits
    _, status = os.waitpid(pid, 0)
    os.close(terminal)
    screen = output.written
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"not recorded" not in screen
    assert b"cannot create" not in screen
    with RunStore.open(user_store(home), create=False) as store:
        runs = store.runs()
    assert len(runs) == 1 and runs[0].generations > 0
    assert_private_folder(user_store(home).parent)


def test_a_store_in_a_missing_folder_named_by_the_user_says_which_folder(tmp_path: Path) -> None:
    """A folder named by --store is not made (a typing mistake would leave folders about): the
    message names the missing folder, and nothing is run."""
    missing = tmp_path / "no-such-folder" / "runs.sqlite3"
    result = subprocess.run(
        [*queens_script(), "solve", "--n", "8", "--record", "--store", str(missing)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert f"the folder {missing.parent} does not exist" in result.stderr
    assert "Traceback" not in result.stderr
    assert not missing.parent.exists()


def test_the_settings_folder_is_made_private_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.dashboard.files.settings import CONFIG_DIR_VARIABLE, load_settings, save_setting

    monkeypatch.delenv(CONFIG_DIR_VARIABLE)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert save_setting("theme", "nord") is None
    folder = tmp_path / ".config" / "queens-ga"
    assert_private_folder(folder)
    assert load_settings() == {"theme": "nord"}
