"""``--speed`` on ``queens``, ``queens tui`` and ``queens replay``; a preset's own speed; the
replay's watchable default; limits between the ``+``/``-`` steps; the rate shown while a record
plays back."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import tui.cli.dashboard_session
from engine import Config
from tests.dashboard.screens.test_replay_plays import record_run, status_text
from tui.cli.command_line import main
from tui.dashboard.app import QueensApp
from tui.dashboard.runs.showcase import SHOWCASE_SPEED
from tui.dashboard.runs.speed import REPLAY_SPEED

WaitFor = Callable[..., Awaitable[None]]


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[QueensApp]:
    """The apps the command line would open, captured instead of run."""
    apps: list[QueensApp] = []

    def capture(app: QueensApp) -> int:
        apps.append(app)
        return 0

    monkeypatch.setattr(tui.cli.dashboard_session, "run_dashboard", capture)
    return apps


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    path = tmp_path / "runs.sqlite"
    record_run(path, Config(n=10, population=16, seed=3, generations=40, stop_when_solved=False))
    return path


@pytest.mark.parametrize(
    ("argv", "speed"),
    [
        ([], SHOWCASE_SPEED),
        (["--speed", "2"], 2.0),
        (["--speed", "unlimited"], None),
        (["tui"], SHOWCASE_SPEED),
        (["tui", "--preset", "showcase"], SHOWCASE_SPEED),
        (["tui", "--preset", "showcase", "--seed", "4"], SHOWCASE_SPEED),
        (["tui", "--preset", "default"], None),
        (["tui", "--n", "12"], None),
        (["tui", "--preset", "showcase", "--speed", "0.5"], 0.5),
        (["--speed", "7", "tui", "--n", "12"], 7.0),
    ],
)
def test_the_dashboard_opens_at_the_speed_asked_or_the_preset_s(
    argv: list[str], speed: float | None, opened: list[QueensApp]
) -> None:
    assert main(argv) == 0
    assert [app.opening_speed for app in opened] == [speed]


def test_queens_tui_preset_showcase_is_the_opening_screen_s_demonstration(
    opened: list[QueensApp],
) -> None:
    main([])
    main(["tui", "--preset", "showcase"])
    plain, prepared = opened
    assert plain.opening_speed == prepared.opening_speed == SHOWCASE_SPEED
    assert prepared.initial_config.replace(seed=None) == plain.initial_config.replace(seed=None)


def test_a_replay_plays_at_a_watchable_speed_unless_told(
    recorded: Path, opened: list[QueensApp]
) -> None:
    assert main(["replay", "1", "--store", str(recorded)]) == 0
    assert main(["replay", "1", "--store", str(recorded), "--speed", "unlimited"]) == 0
    assert main(["replay", "1", "--store", str(recorded), "--speed", "3"]) == 0
    assert [app.opening_speed for app in opened] == [REPLAY_SPEED, None, 3.0]


@pytest.mark.parametrize("value", ["0", "-5", "fast", "nan", "inf", ""])
@pytest.mark.parametrize("command", [[], ["tui"], ["replay", "1"]])
def test_a_bad_speed_is_refused_naming_the_flag_the_value_and_what_is_allowed(
    value: str,
    command: list[str],
    opened: list[QueensApp],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The store does not exist: the speed is refused before anything is opened.
    store = ["--store", str(tmp_path / "absent.sqlite")] if command else []
    assert main([*command, *store, "--speed", value]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert f"queens: error: --speed: {value!r} is not allowed" in error
    assert "positive number of generations per second" in error and "unlimited" in error
    assert not opened
    assert not (tmp_path / "absent.sqlite").exists()


async def test_the_keys_go_on_from_a_limit_given_between_their_steps() -> None:
    app = QueensApp(Config(n=10, seed=1), speed=10.0, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        runner = app.main_screen.runner
        assert runner.speed_limit == 10.0
        await pilot.press("minus")
        assert runner.speed_limit == 5.0
        await pilot.press("plus", "plus")
        assert runner.speed_limit == 100.0


async def test_the_status_line_shows_the_measured_rate_while_a_record_plays(
    recorded: Path, wait_for: WaitFor
) -> None:
    app = QueensApp(Config(n=10), store=str(recorded), replay=1, speed=REPLAY_SPEED, record=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: screen.run.latest is not None, "the record")
        await pilot.press("g", "0", "enter")
        await wait_for(pilot, lambda: screen.run.latest.generation == 0, "generation 0")
        assert shown_rate(app) == 0
        await pilot.press("space")
        # Generations shown per second, measured as for a live run, at most the limit.
        await wait_for(pilot, lambda: shown_rate(app) > 0, "a rate on the status line")
        assert "REPLAY ▶" in status_text(app)
        assert shown_rate(app) <= REPLAY_SPEED


def shown_rate(app: QueensApp) -> int:
    """The generations per second the status line says (-1: it says none)."""
    found = re.search(r"(\d+) gen/s \(limit 10/s\)", status_text(app))
    return -1 if found is None else int(found.group(1))
