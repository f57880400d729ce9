"""``queens lineage RUN [--generation G] [--individual I] [--json]``: where an individual came
from, generation by generation, back to generation 0.

The line follows, at each generation, the parent that gave the individual most of its queens
(the first on a tie), and lists the other parent beside it; a stretch of generations in which
it stayed in one place, a survivor of itself, is one row (:mod:`tui.lab.line_rows`). Families
come from the run's record when it kept them, else from re-stepping the run from its
keyframes; genomes from re-stepping the few generations where the line was made by crossing or
copying.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Final

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.store_flags import (
    add_run_argument,
    add_store_flag,
    open_run,
    reporting_store_errors,
    shown,
    warn_of_damaged_keyframes,
)

if TYPE_CHECKING:
    from tui.lab.lineage import Ancestor, Trace

GENES_SHOWN: Final = 24
"""Genes printed per ancestor by the human view (``--json`` has them all)."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``lineage`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "lineage",
        help="where an individual of a recorded run came from, back to generation 0",
        description="Print the ancestry of an individual of a recorded run (by default the "
        "best of the last generation): one line per generation back to generation 0, each "
        "ancestor with its index, fitness, conflicts, how it was made and its parents (the "
        "line follows the parent that gave it most of its queens). Exit code 2 on an unknown "
        "run, generation or individual, or a damaged record.",
    )
    add_run_argument(parser)
    parser.add_argument(
        "--generation", metavar="G", default=None, help="a recorded generation (default: the last)"
    )
    parser.add_argument(
        "--individual",
        metavar="I",
        default=None,
        help="an index in that generation's population (default: its best)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_store_flag(parser)
    parser.set_defaults(handler=run)


def whole_number(name: str, text: str | None) -> int | None:
    """``text`` as a whole number, ``None`` when not given.

    Raises:
        ValueError: Naming the flag and the value, when it is not a whole number.
    """
    if text is None:
        return None
    if not (text.isascii() and text.lstrip("-").isdigit() and text.count("-") <= 1):
        raise ValueError(f"{name}: {shown(text)} is not allowed; a whole number")
    return int(text)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens lineage``."""
    try:
        generation = whole_number("generation", args.generation)
        individual = whole_number("individual", args.individual)
    except ValueError as error:
        return _refuse(str(error))
    from tui.lab.lineage import trace
    from tui.lab.recorded_lineage import RecordedSource
    from tui.lab.timeline import Timeline

    store, run_id = open_run(args.run, args.store)
    with store:
        timeline = Timeline(store, run_id)
        last = timeline.last_generation
        if generation is None:
            generation = last
        elif not -(last + 1) <= generation <= last:
            return _refuse(
                f"generation: {shown(args.generation)} is not allowed; run {run_id} recorded "
                f"generations 0 to {last} (or -{last + 1} to -1 from the end)"
            )
        elif generation < 0:
            generation += last + 1
        snapshot = timeline.snapshot_at(generation)  # its lineage only if the line needs it
        size = snapshot.population.shape[0]
        if individual is None:
            individual = snapshot.best_index
        elif not 0 <= individual < size:
            return _refuse(
                f"individual: {shown(args.individual)} is not allowed; generation {generation} "
                f"has individuals 0 to {size - 1}"
            )
        traced = trace(RecordedSource(timeline), generation, individual)
        warn_of_damaged_keyframes(timeline.damaged)
    if args.json:
        print(json.dumps(lineage_document(run_id, generation, individual, traced)))
    else:
        _print(run_id, generation, individual, traced)
    return 0


def _refuse(message: str) -> int:
    print(f"queens: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def lineage_document(
    run_id: int, generation: int, individual: int, traced: Trace
) -> dict[str, Any]:
    """``queens lineage RUN --json``."""
    descent = traced.descent
    return {
        "run_id": run_id,
        "generation": generation,
        "individual": individual,
        "ancestors": [ancestor.to_dict() for ancestor in traced.ancestors],
        "best_descent": {
            "generations": descent.generations,
            "from_best": descent.from_best,
            "bred": descent.bred,
            "share": descent.share,
            "bred_share": descent.bred_share,
        },
    }


def _genes(ancestor: Ancestor) -> str:
    genes = " ".join(str(gene) for gene in ancestor.genome[:GENES_SHOWN])
    more = len(ancestor.genome) - GENES_SHOWN
    return genes + (f" ... (+{more:,} genes)" if more > 0 else "")


def _parents(ancestor: Ancestor) -> str:
    if ancestor.followed is None:
        return "-"
    if ancestor.other is None:
        return str(ancestor.followed)
    return f"{ancestor.followed} (other {ancestor.other})"


def _print(run_id: int, generation: int, individual: int, traced: Trace) -> None:
    """One row per generation, but a stretch in which the line stayed in one place (a survivor
    of itself) is one row, ``gen first-last``, as the dashboard's ancestry shows it."""
    from tui.lab.line_rows import generations_text, line_rows

    ancestors = traced.ancestors
    rows = [
        (generations_text(ancestors, first, last), ancestors[first], ancestors[last])
        for first, last in line_rows(ancestors)
    ]
    print(f"run {run_id}: individual {individual} of generation {generation:,}, back to 0")
    width = max([3, *(len(text) for text, _, _ in rows)])
    print(f"  {'gen':>{width}}  {'index':>5}  {'fitness':>10}  {'conf':>5}  operator / parent")
    for text, ancestor, oldest in rows:
        fitness = f"{ancestor.fitness:.6g}"
        print(
            f"  {text:>{width}}  {ancestor.individual:>5}  {fitness:>10}  "
            f"{ancestor.conflicts:>5}  {ancestor.operator} / {_parents(oldest)}  "
            f"[{_genes(ancestor)}]"
        )
    descent = traced.descent
    if descent.generations:
        print(
            f"the best descends from the best of the generation before in "
            f"{descent.from_best:,} of {descent.generations:,} generations "
            f"({descent.share:.1%}; bred, not carried over: {descent.bred_share:.1%})"
        )
