"""``queens tui`` (and ``queens`` alone): open the dashboard."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from engine import Config
from tui.cli.config_flags import add_config_flags, config_from_args, run_flags_given
from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.glyph_flags import add_glyph_flags, dashboard_draws_ascii, glyphs_asked
from tui.cli.speed_flag import add_speed_flag, chosen_speed
from tui.cli.store_flags import (
    add_dashboard_record_flags,
    record_budget_of,
    refuse_label_unrecorded,
)

if TYPE_CHECKING:
    from tui.dashboard.terminal import Glyphs


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``tui`` to the ``queens`` subcommands."""
    parser = commands.add_parser("tui", help="open the dashboard with the form prefilled")
    add_glyph_flags(parser)
    add_speed_flag(parser, "the preset's: 5 for the showcase, else unlimited")
    add_dashboard_record_flags(parser)
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens tui``."""
    from tui.dashboard.runs.speed import OPENING_SPEED, preset_speed

    refuse_label_unrecorded(args.label, args.record, "--record (not --no-record)")
    budget = record_budget_of(args)
    given = run_flags_given(args)
    # A preset carries its speed: ``--preset showcase`` is the opening screen's demonstration.
    speed = chosen_speed(args, preset_speed(args.preset) if given else OPENING_SPEED)
    return dashboard(
        dashboard_config(args),
        glyphs_asked(args),
        record=args.record,
        store=args.store,
        label=args.label,
        speed=speed,
        record_budget=budget,
    )


def dashboard_config(args: argparse.Namespace) -> Config | None:
    """The config the flags give the form, with the dashboard's stop rule unless
    ``--stagnation`` says otherwise (``none``: without); ``None`` without a run flag: the
    showcase run (``tui/showcase.py``), not the bare defaults, which the app gives the rule."""
    if not run_flags_given(args):
        return None
    config = config_from_args(args)
    if args.stagnation is not None:
        return config
    from tui.dashboard.runs.stop_rule import with_stop_rule

    return with_stop_rule(config)


def dashboard(
    config: Config | None,
    glyphs: Glyphs | None = None,
    *,
    record: bool = True,
    store: str | None = None,
    label: str | None = None,
    speed: float | None = None,
    record_budget: int | None = None,
) -> int:
    """Open the dashboard (``config`` prefills the form; ``None``: the showcase).

    ``glyphs`` is what ``--ascii`` or ``--unicode`` asked for; ``None`` leaves it to
    ``$QUEENS_GLYPHS`` and then the locale (:func:`tui.dashboard.terminal.choose_glyphs`).
    ``speed`` is the speed limit to open with, in generations per second (``None``: unlimited).

    Runs are recorded in the run store unless ``record`` is false (the form can switch it),
    each from its first step, labelled ``label``, each within ``record_budget`` bytes
    (``None``: the default; the form can change it).
    Signals and a terminal that goes away are handled by
    :func:`tui.cli.dashboard_session.run_dashboard`.
    """
    from tui.cli.dashboard_session import run_dashboard
    from tui.dashboard.app import QueensApp
    from tui.dashboard.terminal import colour_count

    ascii = dashboard_draws_ascii(glyphs)
    if ascii is None:
        return EXIT_USAGE
    app = QueensApp(
        config=config,
        ascii=ascii,
        colours=colour_count(),
        record=record,
        store=store,
        label=label,
        speed=speed,
        record_budget=record_budget,
    )
    return run_dashboard(app)
