"""``queens solutions --by-ga``: the experiment of letting the GA harvest every solution.

The GA runs in find-all mode: it records each solution (and its rotations and reflections),
replaces it by a newcomer, and stops when the known total is reached or its budget ends. Its
haul is then set beside the exact set: how many of its solutions it found, and by when.
"""

from __future__ import annotations

from typing import Any, Final

from engine import Config, Snapshot
from engine.solutions.archive import KNOWN_TOTALS
from tui.cli.exit_codes import EXIT_SOLVED, EXIT_UNSOLVED
from tui.cli.headless_run import INTERRUPTED, run_headless
from tui.cli.result_printing import collector_paused, json_text

COUNTED_HERE: Final = 14
"""Up to this N the exact totals are counted for the report (N = 14 in about 0.2 s); beyond,
the published counts (OEIS A000170, A002562) stand in for them."""


def solutions_document(snapshot: Snapshot | None, config: Config) -> dict[str, Any]:
    """The JSON document ``queens solutions --by-ga --json`` prints (``snapshot`` ``None``:
    interrupted before the first population)."""
    known_total, known_fundamental = KNOWN_TOTALS.get(config.n, (None, None))
    stop_reason: str | None
    if snapshot is None:
        boards: list[list[int]] = []
        found = fundamental = generations = evaluations = 0
        elapsed, stop_reason = 0.0, INTERRUPTED
    else:
        boards = snapshot.solutions.tolist()
        found, fundamental = len(boards), snapshot.fundamental_solutions
        generations, evaluations = snapshot.generation, snapshot.evaluations
        elapsed, stop_reason = snapshot.elapsed, snapshot.stop_reason
    return {
        "n": config.n,
        "seed": config.seed,
        "found": found,
        "fundamental_found": fundamental,
        "known_total": known_total,
        "known_fundamental": known_fundamental,
        "all_found": stop_reason == "all-found",
        "generations": generations,
        "evaluations": evaluations,
        "elapsed_s": round(elapsed, 6),
        "stop_reason": stop_reason,
        "solutions": boards,
        "config": config.to_dict(),
    }


def exact_totals(n: int) -> tuple[int, int] | None:
    """All and fundamental solutions of ``n``: counted up to :data:`COUNTED_HERE`, published
    beyond, ``None`` where nobody knows."""
    if n <= COUNTED_HERE:
        from engine.solutions.exact import count_solutions

        count = count_solutions(n)
        return count.total, count.fundamental
    return KNOWN_TOTALS.get(n)


def exact_set_text(snapshot: Snapshot) -> str:
    """The haul beside the exact set, and by when: ``exact set (92 solutions, 12 fundamental):
    the GA found all 92 by generation 340, 0.52 s``."""
    found, fundamental = snapshot.solutions.shape[0], snapshot.fundamental_solutions
    when = f"by generation {snapshot.generation:,}, {snapshot.elapsed:.2f} s"
    totals = exact_totals(snapshot.n)
    if totals is None:
        return (
            f"exact set: not known for N = {snapshot.n}; the GA found {found:,} solutions "
            f"({fundamental:,} fundamental) {when}"
        )
    total, fundamental_total = totals
    text = f"exact set ({total:,} solutions, {fundamental_total:,} fundamental): the GA found "
    if found == total:
        return text + f"all {total:,} {when}"
    share = f" ({100 * found / total:.0f}%)" if total else ""
    return (
        text + f"{found:,}{share} and {fundamental:,} fundamental {when}, when the run "
        f"stopped ({snapshot.stop_reason})"
    )


def print_solutions(snapshot: Snapshot | None, config: Config, as_json: bool) -> None:
    """Print what a find-all run found: one JSON document, or a summary, the haul beside the
    exact set, and one board a line (the row of the queen in each column)."""
    if as_json:
        with collector_paused():
            text = json_text(solutions_document(snapshot, config))
        print(text)
        return
    if snapshot is None:
        print(f"N = {config.n}: interrupted before the first population (seed {config.seed})")
        return
    print(
        f"N = {snapshot.n}: {snapshot.solutions_text} in {snapshot.generation:,} generations, "
        f"{snapshot.evaluations:,} evaluations, {snapshot.elapsed:.2f} s "
        f"(stop: {snapshot.stop_reason}, seed {snapshot.seed})"
    )
    print(exact_set_text(snapshot))
    for board in snapshot.solutions.tolist():
        print(" ".join(map(str, board)))


def find_solutions_by_ga(config: Config, as_json: bool) -> int:
    """Find-all mode: exit 0 when every known solution was found, 1 when the budget ended.

    Interrupted (Ctrl+C, SIGTERM), it prints what was found so far, then exits 130 or 143.
    """
    config = config.replace(harvest=True, stop_when_solved=False)
    final = run_headless(config, lambda last, seeded: print_solutions(last, seeded, as_json))
    if isinstance(final, int):
        return final
    print_solutions(final, config.replace(seed=final.seed), as_json)
    return EXIT_SOLVED if final.stop_reason == "all-found" else EXIT_UNSOLVED
