"""``queens resume RUN [budget flags] [--json]``, and recording for ``queens solve --record``.

Resume re-steps the run from its last keyframe to its last recorded generation, checks that
every re-stepped generation equals the record (and says so when one does not), then continues,
recorded in the same run. The result prints as ``queens solve`` prints it, with the run id.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tui.cli.store_flags import (
    add_record_budget_flag,
    add_run_argument,
    add_store_flag,
    open_run,
    record_budget_of,
    reporting_store_errors,
    warn_of_damaged_keyframes,
)

if TYPE_CHECKING:
    from tui.lab.resume import RunSolved

BUDGET_FLAGS = {
    "generations": "stop after this many generations in all",
    "max_evals": "stop after this many fitness evaluations in all",
    "time_limit": "stop after this many seconds of computing in all",
    "stagnation": "stop when the best fitness has not improved for this many generations",
}


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``resume`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "resume",
        help="continue a stopped or interrupted recorded run",
        description="Continue a recorded run where it stopped (or was killed), recorded in "
        "the same run: the result is the run that was never interrupted, bit for bit. Budget "
        "flags replace the run's budget (counted from the run's start). Exit codes as "
        "queens solve; 2 on an unknown run, a damaged record, or a budget already spent. A "
        "solved run (that stops when solved) has nothing to continue: one line says so, "
        "exit code 0, as for any solved run.",
    )
    add_run_argument(parser)
    for name, help_text in BUDGET_FLAGS.items():
        parser.add_argument(
            "--" + name.replace("_", "-"), dest=name, metavar=name.upper(), help=help_text
        )
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_record_budget_flag(parser)
    add_store_flag(parser)
    parser.set_defaults(handler=run)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens resume``."""
    from tui.cli.plugin_notes import note_changed_plugins
    from tui.cli.recorded_run import interrupted_snapshot, record_to_stop
    from tui.cli.result_printing import print_recorded_result, report
    from tui.cli.signals import report_interruption
    from tui.lab.resume import RunSolved, resume

    budget = {name: getattr(args, name) for name in BUDGET_FLAGS if getattr(args, name)}
    record_budget = record_budget_of(args)
    store, run_id = open_run(args.run, args.store)
    with store:
        try:
            resumed = resume(store, run_id, budget, record_budget=record_budget)
        except RunSolved as solved:
            return _say_solved(solved, args.json)
        warn_of_damaged_keyframes(resumed.damaged_keyframes)
        note_changed_plugins(store.run(run_id))
        if resumed.mismatch is not None:
            print(
                f"queens: warning: {resumed.mismatch}; the record from generation "
                f"{resumed.mismatch.generation} on is replaced by the re-stepped run",
                file=sys.stderr,
            )
        elif resumed.restepped:
            print(
                f"queens: re-stepped {resumed.restepped} generations from the last keyframe: "
                "all equal the record",
                file=sys.stderr,
            )
        extra = {
            "resumed": True,
            "restepped": resumed.restepped,
            "record_matched": resumed.mismatch is None,
            "damaged_keyframes": sorted(resumed.damaged_keyframes),
        }
        try:
            final = record_to_stop(resumed.algorithm, resumed.recorder)
        except KeyboardInterrupt as interruption:
            print_recorded_result(
                interrupted_snapshot(resumed.algorithm),
                resumed.algorithm.config,
                run_id,
                args.json,
                extra,
            )
            return report_interruption(interruption)
        return report(final, resumed.algorithm.config, run_id, args.json, extra)


def _say_solved(solved: RunSolved, as_json: bool) -> int:
    """A solved run: nothing to resume. Exit 0, the code of a solved run: a script that resumes
    a run until it is solved is done, not failed."""
    from tui.cli.exit_codes import EXIT_SOLVED

    if as_json:
        import json

        document = {
            "run_id": solved.run_id,
            "solved": True,
            "resumed": False,
            "generations": solved.generation,
        }
        print(json.dumps(document))
    else:
        print(str(solved))
    return EXIT_SOLVED
