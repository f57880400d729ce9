"""``--store`` is one flag: every command that uses the run store declares it the same way."""

from __future__ import annotations

import argparse

from tui.cli.command_line import build_parser
from tui.cli.store_flags import STORE_HELP


def test_every_command_with_a_store_declares_it_alike() -> None:
    parser = build_parser()
    commands = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    declared = {}
    for name, command in commands.choices.items():
        action = command._option_string_actions.get("--store")
        if action is not None:
            declared[name] = (action.help, action.metavar, action.default)
    assert {"sweep", "sweeps", "compare", "solutions", "solve", "runs", "show"} <= set(declared)
    assert set(declared.values()) == {(STORE_HELP, "PATH", None)}
