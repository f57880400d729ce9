"""``make bench``: what recording costs, how fast time travel is, how big a record grows.

Prints figures; asserts nothing. Sections:

1. Recording overhead on a headless run (N = 64, P = 100, default config otherwise):
   unrecorded and recorded runs of the same seed, timed in alternation (target: <= 10%).
2. A recorded run of 100,000 generations (N = 64, P = 100): jumps to random generations
   through the store (target: median < 300 ms), and the run's size in the store.
3. Memory of a long recorded run of N = 8: RSS sampled along the run, its slope per
   generation, and the projection to 10^7 generations (target: < 200 MB).

``--quick`` shrinks every section (for a smoke test); ``--generations G`` sets section 2's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Final

from engine import Config, GeneticAlgorithm
from tui.lab.engine_state import new_algorithm
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

OVERHEAD_CONFIG: Final = Config(n=64, population=100, seed=1, stop_when_solved=False)
JUMPS: Final = 40


def rss_bytes() -> int:
    """The process's resident memory now (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return 0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


def timed_run(config: Config, store: RunStore | None) -> float:
    """Seconds to run ``config`` to its stop, recorded into ``store`` when given."""
    started = time.perf_counter()
    if store is None:
        GeneticAlgorithm(config).run()
    else:
        algorithm = new_algorithm(config)
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()
    return time.perf_counter() - started


def overhead(folder: Path, generations: int, rounds: int) -> None:
    config = OVERHEAD_CONFIG.replace(generations=generations)
    plain: list[float] = []
    recorded: list[float] = []
    with RunStore.open(folder / "overhead.sqlite3") as store:
        timed_run(config.replace(generations=50), None)  # warm up
        for _ in range(rounds):
            plain.append(timed_run(config, None))
            recorded.append(timed_run(config, store))
    best_plain, best_recorded = min(plain), min(recorded)
    median_plain, median_recorded = statistics.median(plain), statistics.median(recorded)
    print(
        f"1. recording overhead, N = 64, P = 100, {generations:,} generations, "
        f"{rounds} rounds in alternation:"
    )
    print(
        f"   headless best {best_plain:.3f} s, recorded best {best_recorded:.3f} s: "
        f"{100 * (best_recorded / best_plain - 1):+.1f}%"
    )
    print(
        f"   headless median {median_plain:.3f} s, recorded median {median_recorded:.3f} s: "
        f"{100 * (median_recorded / median_plain - 1):+.1f}%   (target <= +10%)"
    )


def jumps(folder: Path, generations: int) -> None:
    path = folder / "long.sqlite3"
    config = OVERHEAD_CONFIG.replace(generations=generations, seed=2)
    with RunStore.open(path) as store:
        started = time.perf_counter()
        timed_run(config, store)
        took = time.perf_counter() - started
        run_id = store.runs()[-1].id
        info = store.run(run_id)
        keyframes = store.keyframe_generations(run_id)
        keyframe_bytes = store.keyframe_bytes(run_id)
    with sqlite_checkpoint(path):
        pass
    file_bytes = path.stat().st_size
    print(
        f"2. a recorded run of {generations:,} generations (N = 64, P = 100), "
        f"recorded in {took:.1f} s:"
    )
    print(
        f"   store file {file_bytes / 2**20:.1f} MiB; keyframes {len(keyframes)} every "
        f"{info.keyframe_spacing} generations, {keyframe_bytes / 2**20:.1f} MiB"
    )
    chooser = random.Random(3)
    with RunStore.open(path) as store:
        times = []
        for _ in range(JUMPS):
            target = chooser.randrange(generations + 1)
            started = time.perf_counter()
            Timeline(store, run_id).snapshot_at(target)  # a fresh timeline: no cache
            times.append(time.perf_counter() - started)
    times.sort()
    print(
        f"   jump to a random generation ({JUMPS} jumps, each from a cold timeline): median "
        f"{1000 * statistics.median(times):.0f} ms, p90 {1000 * times[int(0.9 * JUMPS)]:.0f} ms, "
        f"max {1000 * times[-1]:.0f} ms   (target: median < 300 ms)"
    )


class sqlite_checkpoint:
    """Fold the WAL into the database file, so its size is the store's size."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def __enter__(self) -> None:
        import sqlite3

        with sqlite3.connect(self._path) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def __exit__(self, *exc: object) -> None:
        return None


def memory(folder: Path, generations: int) -> None:
    config = Config(n=8, population=40, seed=4, generations=generations, stop_when_solved=False)
    samples: list[tuple[int, int]] = []
    every = max(1, generations // 10)
    with RunStore.open(folder / "memory.sqlite3") as store:
        algorithm = new_algorithm(config)
        recorder = Recorder(store, algorithm)
        started = time.perf_counter()
        while algorithm.has_next():
            snapshot = algorithm.step()
            recorder.record(snapshot)
            if snapshot.generation % every == 0:
                samples.append((snapshot.generation, rss_bytes()))
        recorder.close()
        took = time.perf_counter() - started
    # The slope over the second half: start-up allocations are behind us by then.
    half = samples[len(samples) // 2 :]
    (g0, r0), (g1, r1) = half[0], half[-1]
    slope = (r1 - r0) / (g1 - g0) if g1 > g0 else 0.0
    projected = r1 + slope * (10**7 - g1)
    print(
        f"3. memory of a recorded N = 8 run of {generations:,} generations ({took:.1f} s, "
        f"{generations / took:,.0f} gen/s):"
    )
    print(
        "   RSS " + ", ".join(f"{g:,}: {r / 2**20:.0f} MiB" for g, r in samples[::2] + samples[-1:])
    )
    print(
        f"   slope over the second half {slope:.2f} bytes/generation; projected at 10^7 "
        f"generations: {projected / 2**20:.0f} MiB   (target < 200 MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--generations", type=int, default=None, help="section 2's run length")
    args = parser.parse_args()
    quick = args.quick
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder_name:
        folder = Path(folder_name)
        overhead(folder, generations=200 if quick else 2000, rounds=3 if quick else 5)
        jumps(folder, args.generations or (2000 if quick else 100_000))
        memory(folder, generations=20_000 if quick else 300_000)


if __name__ == "__main__":
    main()
