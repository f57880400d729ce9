"""Runs recorded as they go, headless: ``queens solve --record`` and the tail of ``queens resume``.

Every generation goes to the run store through the lab's :class:`~tui.lab.recorder.Recorder`;
the result prints as ``queens solve`` prints it, with the run id.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tui.cli.result_printing import print_recorded_result, print_result, report
from tui.cli.store_flags import open_store, reporting_store_errors

if TYPE_CHECKING:
    from engine import Config, GeneticAlgorithm, Snapshot
    from tui.lab.recorder import Recorder


def record_to_stop(algorithm: GeneticAlgorithm, recorder: Recorder) -> Snapshot:
    """Step to a stop rule, recording every generation, and close the record.

    Stopped by a stop rule, the record is ``finished`` with the last state as a keyframe. Cut
    short (Ctrl+C, SIGTERM, an error: the step in progress may be half done) it is
    ``interrupted``, without that keyframe: resuming re-steps from the last whole one. A time
    limit passing inside a generation abandons it, as ``queens solve`` does.

    A generation is recorded whole or not at all (the signals wait for the recorder), and a
    generation the engine finished just before the signal is recorded before the record
    closes: the record ends where ``algorithm.snapshot`` does, which is what the caller prints.
    """
    from engine.termination import TIME_LIMIT
    from tui.cli.headless_run import GenerationDeadline, LiveStatusLine, time_limit_passed
    from tui.lab.sweep.held_signals import signals_held

    def record(snapshot: Snapshot) -> None:
        with signals_held():
            recorder.record(snapshot)

    completed = False
    try:
        with GenerationDeadline(algorithm) as deadline:
            if sys.stderr.isatty():
                with LiveStatusLine() as progress:
                    while algorithm.has_next():
                        snapshot = algorithm.step()
                        record(snapshot)
                        progress.update(snapshot)
            else:
                while algorithm.has_next():
                    record(algorithm.step())
        completed = True
    finally:
        if not completed:
            with signals_held():
                recorder.record(algorithm.snapshot)  # ignored when already recorded
                recorder.close("interrupted", keyframe=False)
    if deadline.passed:
        last = time_limit_passed(algorithm.snapshot)
        recorder.close("finished", keyframe=False, stop_reason=TIME_LIMIT)
        return last
    recorder.close()
    return algorithm.snapshot


def record_and_report(
    config: Config,
    as_json: bool,
    store_flag: str | None,
    label: str | None,
    budget: int | None = None,
) -> int:
    """``queens solve --record``: run to a stop rule, recording it; print as solve does.

    Interrupted (Ctrl+C, SIGTERM), it prints the result so far, with the run id, and exits
    130 or 143, as ``queens solve`` does.
    """
    from tui.cli.headless_run import warn_when_first_population_overruns, with_seed
    from tui.cli.signals import report_interruption
    from tui.lab.engine_state import new_algorithm
    from tui.lab.record_budget import RECORD_BUDGET
    from tui.lab.recorder import Recorder

    config = with_seed(config)
    warn_when_first_population_overruns(config)
    with open_store(store_flag, create=True) as store:
        recorder: Recorder | None = None
        try:
            algorithm = new_algorithm(config)
            recorder = Recorder(
                store, algorithm, label=label, record_budget=budget or RECORD_BUDGET
            )
            final = record_to_stop(algorithm, recorder)
        except KeyboardInterrupt as interruption:
            if recorder is None:  # before the first population was recorded
                print_result(None, config, as_json)
                sys.stdout.flush()
            else:
                print_recorded_result(
                    interrupted_snapshot(algorithm), algorithm.config, recorder.run_id, as_json, {}
                )
            return report_interruption(interruption)
        return report(final, algorithm.config, recorder.run_id, as_json, {})


def interrupted_snapshot(algorithm: GeneticAlgorithm) -> Snapshot:
    from tui.cli.headless_run import interrupted

    return interrupted(algorithm.snapshot)


def solve_recorded(config: Config, args: argparse.Namespace, budget: int | None = None) -> int:
    """``queens solve --record``: the run, recorded (its record within ``budget`` bytes); a
    store error prints one line, exit 2."""
    label = getattr(args, "label", None)
    recording = reporting_store_errors(
        lambda _: record_and_report(config, args.json, args.store, label, budget)
    )
    return recording(args)
