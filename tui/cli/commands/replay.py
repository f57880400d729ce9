"""``queens replay RUN``: the dashboard on a recorded run, in time-travel mode."""

from __future__ import annotations

import argparse

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.glyph_flags import add_glyph_flags, dashboard_draws_ascii, glyphs_asked
from tui.cli.speed_flag import add_speed_flag, chosen_speed
from tui.cli.store_flags import (
    add_record_budget_flag,
    add_run_argument,
    add_store_flag,
    open_run,
    record_budget_of,
    reporting_store_errors,
    run_id_of,
)


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``replay`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "replay",
        help="the dashboard on a recorded run, in time-travel mode",
        description="Open the dashboard on a recorded run at its last generation: [ and ] "
        "step one generation back and forward, { and } ten, g jumps to a generation, end "
        "returns to the last; space plays it back (at 10 generations a second unless --speed "
        "says otherwise). Exit code 2 on an unknown run or a damaged file.",
    )
    add_run_argument(parser)
    add_glyph_flags(parser)
    add_speed_flag(parser, "10, watchable")
    add_record_budget_flag(parser)
    add_store_flag(parser)
    parser.set_defaults(handler=run)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens replay``."""
    from tui.dashboard.app import QueensApp
    from tui.dashboard.runs.speed import REPLAY_SPEED

    speed = chosen_speed(args, REPLAY_SPEED)  # a bad flag is refused before the store opens
    budget = record_budget_of(args)  # for the runs continued (c) or started (r) from it
    store, run_id = open_run(args.run, args.store)  # refuse a bad RUN before the screen opens
    info = store.run(run_id)
    store.close()
    from engine import Config
    from tui.cli.plugin_notes import note_changed_plugins

    config = Config.from_mapping(info.config)
    note_changed_plugins(info)
    replay: int | str = run_id if run_id_of(args.run) is not None else args.run
    ascii = dashboard_draws_ascii(glyphs_asked(args))
    if ascii is None:
        return EXIT_USAGE
    from tui.cli.dashboard_session import run_dashboard
    from tui.dashboard.terminal import colour_count

    app = QueensApp(
        config=config,
        ascii=ascii,
        colours=colour_count(),
        record=True,
        store=args.store,
        replay=replay,
        speed=speed,
        record_budget=budget,
    )
    return run_dashboard(app)
