"""The ``queens solve`` command line that reruns a dashboard run, bit for bit."""

from __future__ import annotations

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
