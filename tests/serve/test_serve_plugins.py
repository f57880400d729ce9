"""``queens serve`` runs no plug-in unless started with ``--allow-plugins DIR``, and then only
files inside DIR: a browser user never makes the server run code."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import engine.operators.plugins as plugins
from tui.cli.command_line import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "plugin_ops.py"
GONE_WITHIN = 30.0


@pytest.fixture(autouse=True)
def unrestricted_afterwards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command restricts its own process: undo that after each test."""
    for variable in (plugins.RESTRICTED_VARIABLE, plugins.ALLOWED_VARIABLE):
        monkeypatch.setenv(variable, "")
        monkeypatch.delenv(variable)
    monkeypatch.setattr(plugins, "_RESTRICTION", [])
    monkeypatch.setattr(plugins, "_SOURCES", {})


@pytest.fixture
def ops(tmp_path: Path) -> Path:
    folder = tmp_path / "allowed"
    folder.mkdir()
    shutil.copyfile(EXAMPLES, folder / "ops.py")
    return folder / "ops.py"


def test_serve_refuses_a_plug_in_without_allow_plugins(
    ops: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["serve", "--port", "0", "--mutation", f"{ops}:swap_two_queens"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"{ops}:swap_two_queens" in err
    assert "check 'allowed' failed" in err and "--allow-plugins" in err


def test_serve_refuses_a_plug_in_outside_the_allowed_directory(
    ops: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "link.py").symlink_to(ops)  # a link out of the allowed directory is refused
    flags = ["serve", "--port", "0", "--allow-plugins", str(other)]
    assert main([*flags, "--mutation", f"{ops}:swap_two_queens"]) == 2
    assert "only files inside" in capsys.readouterr().err
    assert main([*flags, "--mutation", f"{other / 'link.py'}:swap_two_queens"]) == 2
    assert "only files inside" in capsys.readouterr().err


def test_a_dashboard_of_a_server_inherits_the_restriction(ops: Path) -> None:
    """What each browser tab runs: a process started from the server's environment."""
    plugins.restrict_plugins(None)
    check = [
        sys.executable,
        "-c",
        "import sys; from engine import Config, ConfigError\n"
        f"try: Config(mutation={str(ops) + ':swap_two_queens'!r})\n"
        "except ConfigError as error: sys.exit(str(error))\n",
    ]
    refused = subprocess.run(check, capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 1 and "check 'allowed' failed" in refused.stderr
    plugins.restrict_plugins(str(ops.parent))
    allowed = subprocess.run(check, capture_output=True, text=True, timeout=60, check=False)
    assert allowed.returncode == 0, allowed.stderr


def test_serve_with_allow_plugins_serves_a_plug_in_from_inside(ops: Path) -> None:
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "tui", "serve", "--port", "0"),
            *("--allow-plugins", str(ops.parent), "--mutation", f"{ops}:swap_two_queens"),
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stderr is not None
        assert server.stderr.readline().startswith("Serving the dashboard on http://127.0.0.1:")
        server.send_signal(signal.SIGTERM)
        assert server.wait(GONE_WITHIN) == 128 + signal.SIGTERM
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
