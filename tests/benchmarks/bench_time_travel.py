"""Where the seconds of a jump in time go at a large population, and the jumps before and after.

Prints figures; asserts nothing. A run of N = 28, P = 200,000 (``--population``,
``--generations``) is recorded as ``queens solve --record`` records it (or read from
``--store``), then:

1. What one jump is made of: reading a keyframe, restoring it (the engine checks it and
   evaluates its population), re-stepping one generation (checked against the record), keeping
   a state in memory (its size) and restoring it, and painting the generation on the dashboard
   (board, table, chart).
2. The keys a user presses from the record's end (``{ { { } [ ]``), each timed, under two
   conditions run in alternation: ``before``, the timeline as it was (it steps from the run it
   holds only within the record's keyframe spacing, else from the latest keyframe, and keeps
   nothing else), and ``after``, the dashboard's rewinder (the nearest of the run in memory,
   the states kept and the keyframes, and states kept where the next keys go).

Run it on a quiet machine and say how loaded it was (``uptime`` is printed before and after).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Final

from engine import Config, GeneticAlgorithm
from tui.dashboard.runs.rewind import Rewinder, compact_state, state_size
from tui.lab.engine_state import new_algorithm, restore
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline, without_time_limit

KEYS: Final = (("{", -10), ("{", -10), ("{", -10), ("}", +10), ("[", -1), ("]", +1))
"""The jumps timed, from the record's end."""


class TimelineBefore(Timeline):
    """The timeline's choice of a start as it was: the run it holds, if no further than the
    keyframe spacing behind, else the latest keyframe."""

    def _nearest_start(self, generation: int, start: GeneticAlgorithm | None) -> GeneticAlgorithm:
        algorithm = self._algorithm
        if algorithm is not None:
            at = algorithm.snapshot.generation
            spacing = max(self.info.keyframe_spacing, 1)
            reaches = at == generation or (at < generation and algorithm.has_next())
            if reaches and generation - at <= spacing:
                return algorithm
        return self._from_keyframe(generation)


def uptime() -> str:
    return os.popen("uptime").read().strip()


def record(path: Path, config: Config) -> None:
    with RunStore.open(path) as store:
        algorithm = new_algorithm(config)
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def parts(path: Path) -> None:
    """Section 1: the parts of a jump."""
    with RunStore.open(path, create=False, wal=False) as store:
        info = store.run(1)
        kept = store.keyframe_generations(1)
        print(f"keyframes at {kept} (spacing {info.keyframe_spacing})")
        read = [timed(lambda: store.keyframe_before(1, 0)) for _ in range(3)]
        keyframe = store.keyframe_before(1, 0)
        assert keyframe is not None
        state = without_time_limit(keyframe.state, info.config)
        restores = [timed(lambda: restore(state)) for _ in range(3)]
        algorithm = restore(state)
        steps = [timed(algorithm.step) for _ in range(5)]
        keeps = [timed(lambda: compact_state(algorithm)) for _ in range(3)]
        state = compact_state(algorithm)
        restores_kept = [timed(lambda: restore(state)) for _ in range(3)]
        timeline = Timeline(store, 1)
        snapshot = timeline.snapshot_at(5)
        checked = [timed(partial(timeline.snapshot_at, g)) for g in range(6, 9)]
    paint = asyncio.run(paint_time(path, snapshot))
    print(f"read a keyframe        {statistics.median(read):7.3f} s (median of 3)")
    print(f"restore it             {statistics.median(restores):7.3f} s")
    print(f"step a generation      {statistics.median(steps):7.3f} s (median of 5)")
    print(f"  checked, via timeline {statistics.median(checked):6.3f} s")
    print(f"keep a state in memory {statistics.median(keeps):7.3f} s ({state_size(state):,} bytes)")
    print(f"restore a state kept   {statistics.median(restores_kept):7.3f} s")
    print(f"paint the generation   {paint:7.3f} s (board, table of every row, chart)")


async def paint_time(path: Path, snapshot: object) -> float:
    """Seconds the dashboard takes to show one computed generation, drawing included
    (median of 3)."""
    from tui.dashboard.actions.travel_keys import TravelKeys
    from tui.dashboard.app import QueensApp

    app = QueensApp(Config(n=28, population=20, seed=1), frozen_clock=True, store=str(path))
    times = []
    async with app.run_test(size=(120, 40)) as pilot:
        keys = app.main_screen.travel_keys
        app.main_screen.travel.attach(app.main_screen.recording.store(), 1, replay_only=True)
        for _ in range(3):
            request = app.main_screen.travel.ask(5)
            message = TravelKeys.Travelled(request, 5, snapshot, None)  # type: ignore[arg-type]
            app.main_screen.painter.table_snapshot = None
            started = time.perf_counter()
            keys.show_travelled(message)
            await pilot.pause()  # the screen drawn: Textual renders after the handler
            times.append(time.perf_counter() - started)
            await pilot.pause(0.05)
    return statistics.median(times)


def walk(path: Path, condition: str) -> list[float]:
    """Section 2: the keys of :data:`KEYS` from the record's end, each timed."""
    with RunStore.open(path, create=False, wal=False) as store:
        last = store.run(1).generations
        if condition == "before":
            timeline = TimelineBefore(store, 1)
            reach: Callable[[int], object] = timeline.snapshot_at
        else:
            rewinder = Rewinder(Timeline(store, 1))
            reach = rewinder.snapshot_at
        reach(last)  # the replay opens there
        at, times = last, []
        for _, delta in KEYS:
            at += delta
            times.append(timed(partial(reach, at)))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=None, help="a store holding run 1")
    parser.add_argument("--n", type=int, default=28)
    parser.add_argument("--population", type=int, default=200_000)
    parser.add_argument("--generations", type=int, default=60)
    parser.add_argument(
        "--rounds", type=int, default=2, help="before/after pairs (0: the parts of a jump only)"
    )
    args = parser.parse_args()
    print("load before:", uptime())
    with tempfile.TemporaryDirectory() as folder:
        path = args.store or Path(folder) / "runs.sqlite3"
        if args.store is None:
            config = Config(
                n=args.n,
                population=args.population,
                seed=1,
                generations=args.generations,
                stop_when_solved=False,
            )
            print(f"recording N = {args.n}, P = {args.population:,}, {args.generations} gens")
            print(f"  {timed(lambda: record(path, config)):.1f} s")
        parts(path)
        results: dict[str, list[list[float]]] = {"before": [], "after": []}
        for round_ in range(args.rounds):
            order = ("before", "after") if round_ % 2 == 0 else ("after", "before")
            for condition in order:
                results[condition].append(walk(path, condition))
    if args.rounds < 1:
        print("load after:", uptime())
        return
    print("key   " + "".join(f"{c:>10}" for c in ("before s", "after s", "ratio")))
    for index, (key, delta) in enumerate(KEYS):
        before = statistics.median(times[index] for times in results["before"])
        after = statistics.median(times[index] for times in results["after"])
        ratio = before / after if after > 0 else float("inf")
        print(f"{key} {delta:+3d}" + f"{before:10.2f}{after:10.2f}{ratio:10.1f}")
    total_before = statistics.median(sum(times) for times in results["before"])
    total_after = statistics.median(sum(times) for times in results["after"])
    print(f"all   {total_before:10.2f}{total_after:10.2f}{total_before / total_after:10.1f}")
    print("load after:", uptime())


if __name__ == "__main__":
    main()
