"""The subcommands of ``queens``, one module each.

Each module has ``add_parser(commands)``, which adds its subparser and sets ``handler`` to a
function ``(args) -> exit code``. Heavy imports (Textual, Rich, the run store, Dask) happen
inside the handlers, so that ``queens solve`` starts fast.
"""

from __future__ import annotations

from tui.commands import (
    compare,
    dashboard,
    export,
    presets,
    replay,
    resume,
    rm,
    runs,
    serve,
    show,
    solutions,
    solve,
    sweep,
    sweeps,
)

COMMANDS: tuple = (  # type: ignore[type-arg]
    solve,
    dashboard,
    presets,
    solutions,
    compare,
    sweep,
    sweeps,
    serve,
    runs,
    show,
    resume,
    export,
    replay,
    rm,
)
"""Modules in the order ``queens --help`` lists them."""
