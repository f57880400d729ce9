"""The ``queens solve`` command line that reruns a dashboard run, bit for bit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import Config
from tui.lab.rerun_line import config_flags, solve_line


def reproduce_command(config: Config) -> str:
    """``queens solve`` with the flags of every field off its default, the seed included.

    Args:
        config: The run's config as the engine ran it (a random seed already drawn).

    Returns:
        A command a shell runs as is.
    """
    return solve_line(config_flags(config))


def recorded_run_command(config: Mapping[str, Any]) -> str:
    """The command that reruns a recorded run, from the config its record keeps (the line
    ``queens show RUN`` prints).

    Raises:
        ConfigError: When the record's config is not a valid one (a damaged record).
    """
    return reproduce_command(Config.from_mapping(config))
