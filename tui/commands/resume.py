"""``queens resume RUN [budget flags] [--json]``, and recording for ``queens solve --record``.

Resume re-steps the run from its last keyframe to its last recorded generation, checks that
every re-stepped generation equals the record (and says so when one does not), then continues,
recorded in the same run. The result prints as ``queens solve`` prints it, with the run id.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from tui.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.store_access import (
    add_run_argument,
    add_store_flag,
    open_run,
    open_store,
    reporting_store_errors,
    warn_of_damaged_keyframes,
)

if TYPE_CHECKING:
    from engine import Config, GeneticAlgorithm, Snapshot
    from tui.lab.recorder import Recorder

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
        "queens solve; 2 on an unknown run, a damaged record, or a budget already spent.",
    )
    add_run_argument(parser)
    for name, help_text in BUDGET_FLAGS.items():
        parser.add_argument(
            "--" + name.replace("_", "-"), dest=name, metavar=name.upper(), help=help_text
        )
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_store_flag(parser)
    parser.set_defaults(handler=run)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens resume``."""
    from tui.entry import report_interruption
    from tui.lab.resume import resume

    budget = {name: getattr(args, name) for name in BUDGET_FLAGS if getattr(args, name)}
    store, run_id = open_run(args.run, args.store)
    with store:
        resumed = resume(store, run_id, budget)
        warn_of_damaged_keyframes(resumed.damaged_keyframes)
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
            _print(
                _interrupted(resumed.algorithm), resumed.algorithm.config, run_id, args.json, extra
            )
            return report_interruption(interruption)
        return report(final, resumed.algorithm.config, run_id, args.json, extra)


def record_to_stop(algorithm: GeneticAlgorithm, recorder: Recorder) -> Snapshot:
    """Step to a stop rule, recording every generation, and close the record.

    Stopped by a stop rule, the record is ``finished`` with the last state as a keyframe. Cut
    short (Ctrl+C, SIGTERM, an error: the step in progress may be half done) it is
    ``interrupted``, without that keyframe: resuming re-steps from the last whole one. A time
    limit passing inside a generation abandons it, as ``queens solve`` does.
    """
    from engine.termination import TIME_LIMIT
    from tui.progress import GenerationDeadline, Progress, time_limit_passed

    completed = False
    try:
        with GenerationDeadline(algorithm) as deadline:
            if sys.stderr.isatty():
                with Progress() as progress:
                    while algorithm.has_next():
                        snapshot = algorithm.step()
                        recorder.record(snapshot)
                        progress.update(snapshot)
            else:
                while algorithm.has_next():
                    recorder.record(algorithm.step())
        completed = True
    finally:
        if not completed:
            recorder.close("interrupted", keyframe=False)
    if deadline.passed:
        last = time_limit_passed(algorithm.snapshot)
        recorder.close("finished", keyframe=False, stop_reason=TIME_LIMIT)
        return last
    recorder.close()
    return algorithm.snapshot


def solve_recorded(config: Config, as_json: bool, store_flag: str | None, label: str | None) -> int:
    """``queens solve --record``: run to a stop rule, recording it; print as solve does.

    Interrupted (Ctrl+C, SIGTERM), it prints the result so far, with the run id, and exits
    130 or 143, as ``queens solve`` does.
    """
    from tui.entry import report_interruption
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder
    from tui.progress import warn_when_first_population_overruns, with_seed

    config = with_seed(config)
    warn_when_first_population_overruns(config)
    with open_store(store_flag, create=True) as store:
        recorder: Recorder | None = None
        try:
            algorithm = new_algorithm(config)
            recorder = Recorder(store, algorithm, label=label)
            final = record_to_stop(algorithm, recorder)
        except KeyboardInterrupt as interruption:
            if recorder is None:  # before the first population was recorded
                from tui.commands.solve import print_result

                print_result(None, config, as_json)
                sys.stdout.flush()
            else:
                _print(_interrupted(algorithm), algorithm.config, recorder.run_id, as_json, {})
            return report_interruption(interruption)
        return report(final, algorithm.config, recorder.run_id, as_json, {})


def _interrupted(algorithm: GeneticAlgorithm) -> Snapshot:
    from tui.progress import interrupted

    return interrupted(algorithm.snapshot)


def report(
    final: Snapshot, config: Config, run_id: int, as_json: bool, extra: dict[str, Any]
) -> int:
    """Print the result as ``queens solve`` does, with the run id; returns the exit code."""
    _print(final, config, run_id, as_json, extra)
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED


def _print(
    final: Snapshot, config: Config, run_id: int, as_json: bool, extra: dict[str, Any]
) -> None:
    from tui.commands.solve import print_result, result_document

    if as_json:
        document = result_document(final, config)
        document["run_id"] = run_id
        document.update(extra)
        print(json.dumps(document))
    else:
        print_result(final, config, False)
        print(f"recorded as run {run_id} (queens show {run_id})")
    sys.stdout.flush()
