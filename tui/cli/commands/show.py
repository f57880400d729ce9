"""``queens show RUN [--generation G] [--json]``: a recorded run, or one of its generations.

Generation G is recomputed exactly from the nearest keyframe (and checked against the record),
so it shows what the live run published at G: statistics, best genome, population.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any, Final

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.run_plot import draw_run_plot
from tui.cli.store_flags import (
    add_run_argument,
    add_store_flag,
    open_run,
    reporting_store_errors,
    warn_of_damaged_keyframes,
)
from tui.cli.sweep_outputs import add_output_flags

if TYPE_CHECKING:
    from engine import Snapshot

POPULATION_PRINT_LIMIT: Final = 20
"""Individuals printed by the human view (``--json`` has them all)."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``show`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "show",
        help="a recorded run, or one generation of it",
        description="Show a run's record; with --generation G, generation G exactly as the "
        "live run published it (statistics, best genome, population), recomputed from the "
        "nearest keyframe and checked against the record. Exit code 2 on an unknown run or "
        "generation, or a damaged record.",
    )
    add_run_argument(parser)
    parser.add_argument("--generation", metavar="G", default=None, help="a recorded generation")
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_output_flags(
        parser, curves=False, drawn="the run's conflicts and diversity against evaluations"
    )
    add_store_flag(parser)
    parser.set_defaults(handler=run)


def generation_document(run_id: int, snapshot: Snapshot) -> dict[str, Any]:
    """``queens show RUN --generation G --json``: with each individual's parents in the
    generation before (``-1``: none) and how it was made, when the snapshot has its lineage.
    Its arrays stay arrays: :func:`tui.cli.result_printing.print_json` writes them."""
    from tui.cli.result_printing import queens_rows

    stats = snapshot.stats._asdict()
    lineage = snapshot.lineage
    return {
        "run_id": run_id,
        "generation": snapshot.generation,
        "stats": stats,
        "stop_reason": snapshot.stop_reason,
        "best_index": snapshot.best_index,
        "best": snapshot.best,
        "best_conflicts": snapshot.best_conflicts,
        "queens": queens_rows(snapshot),
        "population": snapshot.population,
        "fitness": snapshot.fitness,
        "conflicts": snapshot.conflicts,
        "solutions": int(snapshot.solutions.shape[0]),
        "parents": None if lineage is None else lineage.parents,
        "operators": None
        if lineage is None
        else [lineage.operator(index) for index in range(lineage.size)],
    }


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens show``."""
    generation: int | None = None
    if args.generation is not None:
        text = str(args.generation)
        if not (text.isascii() and text.lstrip("-").isdigit()):
            print(
                f"queens: error: generation: {text!r} is not allowed; a whole number",
                file=sys.stderr,
            )
            return EXIT_USAGE
        generation = int(text)
    plot_path = None
    if args.plot is not None and generation is not None:
        print(
            f"queens: error: plot: {args.plot!r} is not allowed with --generation; "
            "a figure draws the whole run",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.plot is not None:
        from tui.lab.figures.plot_target import check_plot_target

        plot_path = check_plot_target(args.plot)
    from tui.lab.export import run_document
    from tui.lab.recorded_lineage import snapshot_with_lineage
    from tui.lab.timeline import Timeline

    store, run_id = open_run(args.run, args.store)
    with store:
        if generation is None:
            info = store.run(run_id)
            document = run_document(info)
            document["keyframes"] = len(store.keyframe_generations(run_id))
            if args.json:
                print(json.dumps(document))
            else:
                _print_run(document)
            if plot_path is not None:
                sys.stdout.flush()
                draw_run_plot(plot_path, store, info)
            return 0
        if generation < 0:
            generation += store.run(run_id).generations + 1
        timeline = Timeline(store, run_id)
        snapshot = (
            snapshot_with_lineage(timeline, generation)
            if args.json
            else timeline.snapshot_at(generation)
        )
        warn_of_damaged_keyframes(timeline.damaged)
    if args.json:
        from tui.cli.result_printing import print_json

        print_json(generation_document(run_id, snapshot))
    else:
        _print_generation(run_id, snapshot)
    return 0


def _print_run(document: dict[str, Any]) -> None:
    started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(document["started"]))
    status = document["status"]
    if document["stop_reason"]:
        status += f" ({document['stop_reason']})"
    print(f"run {document['run_id']}: N = {document['n']}, seed {document['seed']}, {status}")
    print(f"  started      {started} (engine {document['engine_version']})")
    print(f"  generations  {document['generations']:,}")
    print(f"  evaluations  {document['evaluations']:,}")
    pairs = document["best_conflicts"]
    print(f"  best         {pairs} conflicts (pairs of queens attacking each other)")
    print(f"  solutions    {document['solutions']:,}")
    print(f"  keyframes    {document['keyframes']} (every {document['keyframe_spacing']})")
    from tui.lab.config_summary import summarize

    if document["label"]:
        print(f"  label        {document['label']}")
    print(f"  config       {summarize(document['config']).text()}")
    from engine import Config
    from tui.lab.rerun_line import config_flags, solve_line

    rerun = solve_line(config_flags(Config.from_mapping(document["config"])))
    for swap in document.get("swaps", ()):
        print(f"  swapped      {_swapped_words(swap)}")
    if "swaps" in document:
        rerun += "  (its starting config: the swaps are the record's)"
    print("  rerun        " + rerun)


def _swapped_words(swap: dict[str, Any]) -> str:
    """A swap as ``show`` lists it: the field, the operator, the generation it applies from."""
    from engine import is_plugin_name, plugin_label

    value = swap["value"]
    shown = plugin_label(value) if is_plugin_name(value) else value
    return f"{swap['field']} {shown} from generation {swap['generation']:,} on"


STAT_FORMATS: Final = {
    "elapsed": "{:.3f} s",
    "unique_fraction": "{:.3f}",
    "entropy": "{:.3f}",
    "mean_conflicts": "{:.3f}",
}
"""How a generation's figures read for people (``--json`` keeps them exact); whole numbers get
thousands separators, other figures the shortest spelling that reads back exactly."""


def stat_text(name: str, value: object) -> str:
    """One figure of a generation, for people."""
    if name in STAT_FORMATS and isinstance(value, float):
        return STAT_FORMATS[name].format(value)
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _print_generation(run_id: int, snapshot: Snapshot) -> None:
    from tui.cli.result_printing import BOARD_LEGEND, board_text, conflict_words

    stats = snapshot.stats
    print(f"run {run_id}, generation {snapshot.generation:,}")
    for name, value in stats._asdict().items():
        print(f"  {name:<16} {stat_text(name, value)}")
    print(f"best (individual {snapshot.best_index}: {conflict_words(snapshot)}):")
    print("  " + " ".join(str(int(gene)) for gene in snapshot.best))
    if snapshot.n <= 40:
        print(board_text(snapshot))
        print(BOARD_LEGEND)
    shown = min(POPULATION_PRINT_LIMIT, snapshot.population.shape[0])
    print(f"population ({shown} of {snapshot.population.shape[0]}; --json has all):")
    for index in range(shown):
        genome = " ".join(str(int(gene)) for gene in snapshot.population[index])
        print(f"  {index:>4}  conflicts {int(snapshot.conflicts[index]):>4}  {genome}")
