"""The ``queens solve`` command line that reruns a dashboard run, bit for bit.

A run that took another operator while paused (a swap) is in no command line: a recorded one is
re-made exactly by ``queens replay``, and that is the line given; an unrecorded one gets its
starting config's line, which says it stops at the swap.
"""

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


def swapped_run_command(run_id: int | None, first_swap: int, start_line: str) -> str:
    """The line given for a run that swapped an operator from generation ``first_swap`` on.

    Args:
        run_id: The run's record, if it has one.
        first_swap: The first generation made with a swapped operator.
        start_line: The command of its starting config.
    """
    if run_id is not None:
        return (
            f"queens replay {run_id}  # it swapped an operator from generation {first_swap:,}"
            " on, which no queens solve line repeats: its record re-makes it exactly"
        )
    return (
        f"{start_line}  # its starting config: the same run up to generation {first_swap - 1:,};"
        " the operator it swapped in then is in no command line (record a run to keep it)"
    )
