"""``queens runs``: the recorded runs, one line each (``--json``: a list)."""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any

from tui.cli.store_flags import add_store_flag, open_store, reporting_store_errors

if TYPE_CHECKING:
    from tui.lab.store import RunInfo


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``runs`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "runs",
        help="list the recorded runs",
        description="List the runs in the store: id, started, N, generations, solved, "
        "status, and last, whole, the run's label and its config (the nearest preset and what "
        "differs from it, e.g. 'showcase, mutation-rate=0.3'). Exit code 2 when the store "
        "cannot be read.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list on stdout")
    add_store_flag(parser)
    parser.set_defaults(handler=run)


def summary(info: RunInfo) -> str:
    """The run's label, and its config as the nearest preset and what differs from it."""
    from tui.lab.config_summary import run_description

    return run_description(info.label, info.config)


def run_line(info: RunInfo) -> dict[str, Any]:
    """One run's line of ``queens runs --json``."""
    from tui.lab.config_summary import summarize

    words = summarize(info.config)
    return {
        "id": info.id,
        "started": info.started,
        "n": info.n,
        "label": info.label,
        "preset": words.preset,
        "changes": words.change_words,
        "summary": summary(info),
        "generations": info.generations,
        "solved": info.solved,
        "status": info.status,
        "stop_reason": info.stop_reason,
        "seed": info.seed,
    }


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens runs``."""
    from tui.lab.store import store_path

    if not store_path(args.store).exists():
        infos: list[RunInfo] = []
    else:
        with open_store(args.store, create=False) as store:
            infos = store.runs()
    if args.json:
        print(json.dumps([run_line(info) for info in infos]))
        return 0
    if not infos:
        print(f"no recorded runs in {store_path(args.store)} (queens solve --record makes one)")
        return 0
    statuses = [
        info.status + (f" ({info.stop_reason})" if info.stop_reason else "") for info in infos
    ]
    wide = max(len("status"), *(len(status) for status in statuses))
    print(
        f"{'id':>5}  {'started':<16}  {'N':>5}  {'generations':>11}  {'solved':<6}  "
        f"{'status':<{wide}}  label (config)"
    )
    for info, status in zip(infos, statuses, strict=True):
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.started))
        print(
            f"{info.id:>5}  {started:<16}  {info.n:>5}  {info.generations:>11,}  "
            f"{'yes' if info.solved else 'no':<6}  {status:<{wide}}  {summary(info)}"
        )
    return 0
