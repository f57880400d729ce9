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
    from tui.lab.resume import resume

    budget = {name: getattr(args, name) for name in BUDGET_FLAGS if getattr(args, name)}
    store, run_id = open_run(args.run, args.store)
    with store:
        resumed = resume(store, run_id, budget)
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
        final = record_to_stop(resumed.algorithm, resumed.recorder)
        extra = {
            "resumed": True,
            "restepped": resumed.restepped,
            "record_matched": resumed.mismatch is None,
        }
        return report(final, resumed.algorithm.config, run_id, args.json, extra)


def record_to_stop(algorithm: GeneticAlgorithm, recorder: Recorder) -> Snapshot:
    """Step to a stop rule, recording every generation; the record is closed however it ends
    (``interrupted`` on Ctrl-C or an error, ``finished`` when a stop rule fired)."""
    try:
        if sys.stderr.isatty():
            from tui.progress import Progress

            with Progress() as progress:
                while algorithm.has_next():
                    snapshot = algorithm.step()
                    recorder.record(snapshot)
                    progress.update(snapshot)
        while algorithm.has_next():
            recorder.record(algorithm.step())
    finally:
        recorder.close()
    return algorithm.snapshot


def solve_recorded(config: Config, as_json: bool, store_flag: str | None, label: str | None) -> int:
    """``queens solve --record``: run to a stop rule, recording it; print as solve does."""
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder

    algorithm = new_algorithm(config)
    with open_store(store_flag, create=True) as store:
        recorder = Recorder(store, algorithm, label=label)
        final = record_to_stop(algorithm, recorder)
        return report(final, algorithm.config, recorder.run_id, as_json, {})


def report(
    final: Snapshot, config: Config, run_id: int, as_json: bool, extra: dict[str, Any]
) -> int:
    """Print the result as ``queens solve`` does, with the run id; returns the exit code."""
    from tui.commands.solve import BOARD_PRINT_LIMIT, board_text, result_document

    if as_json:
        document = result_document(final, config)
        document["run_id"] = run_id
        document.update(extra)
        print(json.dumps(document))
    else:
        verdict = "solved" if final.solved else f"not solved ({final.best_conflicts} conflicts)"
        print(
            f"N = {final.n}: {verdict} after {final.generation:,} generations, "
            f"{final.evaluations:,} evaluations, {final.elapsed:.3f} s "
            f"(stop: {final.stop_reason}, seed {final.seed}, recorded as run {run_id})"
        )
        if final.n <= BOARD_PRINT_LIMIT:
            print(board_text(final))
        print("genome:", " ".join(str(int(gene)) for gene in final.best))
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED
