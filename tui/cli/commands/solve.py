"""``queens solve``: run the GA headless and print the result (``--json``: one JSON document)."""

from __future__ import annotations

import argparse

from engine import Config
from tui.cli.config_flags import add_config_flags, config_from_args
from tui.cli.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.cli.headless_run import run_headless
from tui.cli.result_printing import print_result
from tui.cli.store_flags import add_record_flags, record_budget_of, refuse_label_unrecorded
from tui.cli.usage_error import UsageError


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``solve`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "solve",
        help="run the GA headless and print the result",
        description="Run the GA without a UI and print the result (--json: one JSON document "
        "on stdout). Progress goes to stderr, only when stderr is a terminal. "
        "--time-limit is kept strictly: a generation still running when it passes is "
        "abandoned and the last whole generation is the result; the first population is "
        "always evaluated in full, and a note on stderr says so up front when that alone is "
        "estimated to take longer than the limit. Ctrl+C or SIGTERM still prints the result "
        "so far (stop_reason 'interrupted', with the seed that replays the run). Exit codes: "
        "0 solved, 1 not solved within the budget, 2 usage or config error, 130 interrupted "
        "(Ctrl+C), 143 terminated (SIGTERM), 141 when the reader of stdout goes away early.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_record_flags(parser)
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens solve``."""
    refuse_label_unrecorded(args.label, args.record, "--record")
    if args.record_budget is not None and not args.record:
        raise UsageError(
            "--record-budget", args.record_budget, "only with --record (it bounds the run's record)"
        )
    if args.record:
        from tui.cli.recorded_run import solve_recorded

        budget = record_budget_of(args)
        return solve_recorded(config_from_args(args), args, budget)
    return solve(config_from_args(args), args.json)


def solve(config: Config, as_json: bool) -> int:
    """Run to a stop rule; print the result. Returns the exit code.

    Interrupted (Ctrl+C, SIGTERM), it prints the result so far, then exits 130 or 143.
    """
    final = run_headless(config, lambda last, seeded: print_result(last, seeded, as_json))
    if isinstance(final, int):
        return final
    print_result(final, config.replace(seed=final.seed), as_json)
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED
