"""``queens tui`` (and ``queens`` alone): open the dashboard."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Final

from engine import Config
from tui.cli.config_flags import add_config_flags, config_from_args, run_flags_given
from tui.cli.exit_codes import EXIT_SOLVED, EXIT_USAGE
from tui.cli.glyph_flags import add_glyph_flags, dashboard_draws_ascii, glyphs_asked
from tui.cli.store_flags import add_dashboard_record_flags

if TYPE_CHECKING:
    from tui.dashboard.terminal import Glyphs


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``tui`` to the ``queens`` subcommands."""
    parser = commands.add_parser("tui", help="open the dashboard with the form prefilled")
    add_glyph_flags(parser)
    add_dashboard_record_flags(parser)
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens tui``."""
    # No run flag at all: the showcase run (``tui/showcase.py``), not the bare defaults.
    config = config_from_args(args) if run_flags_given(args) else None
    return dashboard(config, glyphs_asked(args), record=args.record, store=args.store)


CLOSING_SIGNALS: Final = {"SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129}
"""Signals that close the dashboard as ``q`` does, and the exit code each leaves (128 + its
number): Ctrl+C sent by ``kill``, a termination, and an SSH connection that drops."""


def dashboard(
    config: Config | None,
    glyphs: Glyphs | None = None,
    *,
    record: bool = True,
    store: str | None = None,
) -> int:
    """Open the dashboard (``config`` prefills the form; ``None``: the defaults).

    ``glyphs`` is what ``--ascii`` or ``--unicode`` asked for; ``None`` leaves it to
    ``$QUEENS_GLYPHS`` and then the locale (:func:`tui.dashboard.terminal.choose_glyphs`).

    Runs are recorded in the run store unless ``record`` is false (the form can switch it).
    SIGINT, SIGTERM and SIGHUP close the dashboard the way ``q`` does, so the terminal is given
    back as it was and the run's record is closed, and the command exits 130, 143 or 129; a
    second signal while it closes raises at once.
    """
    import asyncio
    import signal
    from types import FrameType

    from tui.cli.signals import Terminated, report_interruption
    from tui.dashboard.app import QueensApp
    from tui.dashboard.terminal import colour_count

    ascii = dashboard_draws_ascii(glyphs)
    if ascii is None:
        return EXIT_USAGE
    app = QueensApp(config=config, ascii=ascii, colours=colour_count(), record=record, store=store)
    received: list[int] = []

    def close(signum: int, frame: FrameType | None) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the app's loop is not running (yet, or any more)
            loop = None
        if loop is None or received:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated
        received.append(signum)
        # Not app.exit() here: a signal handler may run in the middle of the app's own code.
        loop.call_soon_threadsafe(app.exit)

    handled = [getattr(signal, name) for name in CLOSING_SIGNALS if hasattr(signal, name)]
    previous = {signum: signal.signal(signum, close) for signum in handled}
    try:
        app.run()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if not received:
        return EXIT_SOLVED
    if received[0] == signal.SIGINT:
        return report_interruption(KeyboardInterrupt())
    code = report_interruption(Terminated())
    return CLOSING_SIGNALS["SIGHUP"] if received[0] == getattr(signal, "SIGHUP", None) else code
