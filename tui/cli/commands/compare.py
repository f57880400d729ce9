"""``queens compare``: presets over the same seeds, side by side. A sweep over presets.

``compare`` builds a sweep plan with one axis, the presets, and runs it as ``queens sweep``
does (the same tasks, workers, run store, resumption and report). What it adds: each preset
runs at its own N unless ``--n`` is given, and a preset that stops only when solved gets a
deterministic budget of :data:`DEFAULT_MAX_EVALS` evaluations (``--max-evals`` to change it),
so the results do not depend on the machine's load. ``--time-limit`` is still accepted; the
report flags every run it cut.
"""

from __future__ import annotations

import argparse
from typing import Final

from engine.config.presets import PRESETS
from tui.cli.sweep_running import DEFAULT_MAX_EVALS, add_runner_flags, run_plan
from tui.cli.usage_error import UsageError
from tui.lab.sweep.held_signals import signals_held

OPERATOR_FLAGS: Final = ("selection", "crossover", "mutation", "survivor", "fitness")
"""Operators that may be laid over every preset compared (each one an axis)."""


def compare_plan(args: argparse.Namespace) -> object:
    """Validate the ``compare`` flags into a sweep plan, before any run starts.

    Raises:
        UsageError: On an unknown preset, a preset that does not fit ``--n``, no preset at
            all, or a bad ``--seeds``, ``--time-limit`` or ``--max-evals``; naming the flag.
    """
    with signals_held():  # an import cut by a signal may swallow it: import whole
        from engine.config.config import parse_field
        from tui.lab.sweep.plan import PlanSpec, build_plan, parse_seeds

    if not args.presets:
        raise UsageError(
            "--preset", [], f"give at least one --preset NAME (repeat it): {', '.join(PRESETS)}"
        )
    parse_seeds(args.seeds)  # the flag's own message before anything else
    spec = PlanSpec(presets=list(args.presets), seeds=args.seeds)
    if args.n is not None:
        spec.fixed["n"] = args.n
    for field in OPERATOR_FLAGS:
        given = getattr(args, field, None)
        if given is not None:
            spec.grid[field] = [part.strip() for part in given.split(",")]
    if args.time_limit is not None:
        spec.fixed["time_limit"] = args.time_limit
    if args.max_evals is not None:
        value = parse_field("max_evals", args.max_evals)
        if value is None or value < 1:
            raise UsageError("--max-evals", args.max_evals, "a whole number >= 1")
        spec.fallback_max_evals = value
    else:
        spec.fallback_max_evals = DEFAULT_MAX_EVALS
    return build_plan(spec)


def compare_command(args: argparse.Namespace) -> int:
    """Run ``queens compare`` and print its report. Returns the exit code.

    Raises:
        UsageError: On bad input (the command line prints it and exits 2).
    """
    args.workers_flag = "jobs"
    return run_plan(compare_plan(args), args, "compare")


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``compare`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "compare",
        help="run presets over the same seeds in parallel and compare them",
        description="Run each preset on the same seeds (a sweep over presets: results are "
        "kept in the run store, and the same command continues an interrupted compare). A "
        "preset that stops only when solved gets a budget of evaluations. Exit codes: 0 done, "
        "2 bad input, 130 interrupted, 143 terminated.",
    )
    parser.add_argument(
        "--preset",
        dest="presets",
        action="append",
        default=[],
        metavar="NAME",
        help=f"a preset to compare (repeat) [{', '.join(PRESETS)}]",
    )
    parser.add_argument("--n", default=None, help="board size (default: each preset's own)")
    parser.add_argument(
        "--seeds", default="20", help="runs per preset: K (seeds 0..K-1) or A-B (default 20)"
    )
    parser.add_argument(
        "--max-evals",
        default=None,
        help="evaluations per run for presets with no budget of their own (default 200000)",
    )
    parser.add_argument(
        "--time-limit", default=None, help="seconds allowed per run (flagged in the report)"
    )
    for field in OPERATOR_FLAGS:
        parser.add_argument(
            f"--{field}",
            default=None,
            metavar="NAME[,NAME]",
            help=f"run each preset with this {field} instead of its own, or with each of "
            "several (an axis): built-ins or plug-ins, path/to/ops.py:function",
        )
    add_runner_flags(parser, workers_flag="--jobs")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens compare``."""
    return compare_command(args)
