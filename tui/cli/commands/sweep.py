"""``queens sweep``: grids of configs x seeds on local workers or a Dask cluster, kept, resumable.

Axes come from ``--grid FIELD=V1,V2``, ``--preset`` (repeat), ``--n 8,16`` or a TOML plan file;
config flags (``--max-evals 100000``) fix a field for every config. Each result is kept in the
run store as it arrives, under (config fingerprint, seed): stop the sweep (Ctrl+C, SIGTERM, a
crash) and run the same command again, and only the missing runs run. ``--fresh`` starts over;
``--show ID`` prints a kept sweep again; ``queens sweeps`` lists them. A cell that has no budget
(no evaluations, generations, stagnation or time limit) gets
:data:`~tui.cli.sweep_running.DEFAULT_MAX_EVALS` evaluations, as in ``compare``; the report says
so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from engine import FIELDS
from engine.config.presets import PRESETS
from tui.cli.store_flags import MAX_RUN_ID, add_label_flag, refuse_label_unrecorded, unusable_store
from tui.cli.sweep_outputs import SweepOutputs, draw_sweep_plot
from tui.cli.sweep_running import DEFAULT_MAX_EVALS, add_runner_flags, output_of, run_plan
from tui.cli.usage_error import UsageError
from tui.lab.sweep.held_signals import signals_held

DEFAULT_SEEDS: Final = "20"
"""Seeds when neither the flags nor the plan give any."""

FIXED_FIELDS: Final = tuple(name for name in FIELDS if name not in ("n", "seed"))
"""Config fields that a flag fixes for every config of a sweep."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``sweep`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "sweep",
        help="run a grid of configs x seeds (local workers or a Dask cluster); kept, resumable",
        description="Run every config of a grid on every seed, on local worker processes or "
        "an existing Dask cluster, and report success rates (95% Wilson interval), medians "
        "with bootstrap intervals, each row tested against the best, and run-length "
        "distributions. "
        "Results are kept in the run store as they come: run the same command again to "
        "continue an interrupted sweep. Exit codes: 0 done, 2 bad input, 130 interrupted, "
        "143 terminated.",
    )
    parser.add_argument("plan", nargs="?", default=None, help="a TOML plan file (optional)")
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="FIELD=V1,V2",
        help="an axis: a config field and its values (repeat for more axes)",
    )
    parser.add_argument(
        "--preset",
        dest="presets",
        action="append",
        default=[],
        metavar="NAME",
        help=f"an axis of presets (repeat) [{', '.join(PRESETS)}]",
    )
    parser.add_argument("--n", default=None, metavar="N1,N2", help="board sizes (an axis)")
    parser.add_argument(
        "--seeds", default=None, help=f"K (seeds 0..K-1) or A-B (default {DEFAULT_SEEDS})"
    )
    add_runner_flags(parser, workers_flag="--workers")
    add_label_flag(parser, "--record-runs")
    parser.add_argument(
        "--show", default=None, metavar="ID", help="print a kept sweep's report again"
    )
    group = parser.add_argument_group("fixed fields (the same for every config)")
    for name in FIXED_FIELDS:
        flag = "--" + name.replace("_", "-")
        group.add_argument(flag, dest=f"fixed_{name}", default=None, metavar="VALUE")
    parser.set_defaults(handler=run)


def show(args: argparse.Namespace) -> int:
    """Print a kept sweep's report again (``--show ID``)."""
    with signals_held():  # an import cut by a signal may swallow it: import whole
        from tui.cli import sweep_report
        from tui.lab.store import RunStore, StoreError
        from tui.lab.sweep.plan_error import PlanError
        from tui.lab.sweep.store_ledger import StoreLedger, stored_plan

    text = str(args.show)
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_RUN_ID):
        raise UsageError(
            "--show",
            text,
            f"a sweep id, a whole number from 1 to {MAX_RUN_ID} (queens sweeps lists them)",
        )
    sweep_id = int(text)
    if args.curves is not None:
        raise UsageError(
            "--curves",
            args.curves,
            "only while runs run: a kept sweep has no per-generation series (run the sweep "
            "with --curves, and --fresh to run its kept runs again)",
        )
    outputs = SweepOutputs.from_args(args)
    try:
        with RunStore.open(args.store) as store:
            plan = stored_plan(store, sweep_id)
            results = StoreLedger(store, sweep_id).results()
    except StoreError as error:  # unreadable store, or a damaged plan or result in it
        raise unusable_store(args.store, error) from None
    except PlanError as error:  # no such sweep, or its plan no longer gives the same configs
        if error.entry != "show":
            raise
        raise UsageError("--show", error.value, error.allowed) from None
    sys.stdout.write(
        sweep_report.report_text(
            plan, results, sweep_id, output_of(args), chart=sys.stdout.isatty()
        )
    )
    if outputs.plot_path is not None:
        sys.stdout.flush()
        draw_sweep_plot(outputs.plot_path, plan, results, None, sweep_id)
    return 0


def run(args: argparse.Namespace) -> int:
    """Handle ``queens sweep``."""
    if args.show is not None:
        return show(args)
    refuse_label_unrecorded(args.label, args.record_runs, "--record-runs")
    with signals_held():
        from tui.lab.sweep.plan import build_plan, spec_from_flags
        from tui.lab.sweep.plan_document import spec_from_file
        from tui.lab.sweep.plan_error import PlanError

    spec = spec_from_file(Path(args.plan)) if args.plan is not None else None
    fixed = {
        name: getattr(args, f"fixed_{name}")
        for name in FIXED_FIELDS
        if getattr(args, f"fixed_{name}") is not None
    }
    spec = spec_from_flags(args.grid, args.presets, args.n, args.seeds, fixed, spec)
    if spec.seeds is None:
        spec.seeds = DEFAULT_SEEDS
    try:
        plan = build_plan(spec)
    except PlanError as error:
        if error.entry != "budget" or spec.fallback_max_evals is not None:
            raise
        # As compare does: a cell with no budget of its own gets one, said in the report. Only
        # then, so that a plan with budgets keeps its fingerprint (and its kept results).
        spec.fallback_max_evals = DEFAULT_MAX_EVALS
        plan = build_plan(spec)
    return run_plan(plan, args, "sweep")
