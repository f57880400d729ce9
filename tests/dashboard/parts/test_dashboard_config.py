"""The dashboard's run from its flags: the stop rule unless a flag sets it."""

from __future__ import annotations

from engine import Config
from tui.cli.command_line import build_parser
from tui.cli.commands.dashboard import dashboard_config
from tui.dashboard.runs.stop_rule import DEFAULT_STAGNATION


def test_queens_tui_gives_the_stop_rule_unless_a_flag_sets_it() -> None:
    def config(*flags: str) -> Config | None:
        return dashboard_config(build_parser(["tui", *flags]).parse_args(["tui", *flags]))

    assert config() is None  # the showcase, which the app gives the stop rule
    given = config("--n", "12")
    assert given is not None and given.stagnation == DEFAULT_STAGNATION
    changed = config("--n", "12", "--stagnation", "500")
    assert changed is not None and changed.stagnation == 500
    off = config("--n", "12", "--stagnation", "none")
    assert off is not None and off.stagnation is None
