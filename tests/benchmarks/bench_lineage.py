"""What lineage costs: time per generation, bytes on disk, and an ancestry's speed.

Prints figures; asserts nothing. Sections:

1. Lineage's share of a generation at P = 1000, N = 64, the default config otherwise,
   recording on: the same seeded run twice in one process, one with lineage (the engine notes
   its births, the recorder keeps each generation's family) and one without, stepped in
   alternation, generation by generation, several rounds (target: <= 5%). Timed in the
   stepping thread's CPU time (a shared machine's other work does not count) and in wall-clock
   time. The first generations (children still get in) and the later ones (every individual
   survives in place) are shown apart, with the machine's load average before and after.
2. Bytes of lineage per individual per generation on disk for that run (target: <= 4): the
   lineage table's payload, and the store's growth against the same run without lineage.
3. The ancestry of the final best of a recorded run of ``--generations`` generations at
   P = 1000 (default 100,000; target: < 1 s), with the time recording it took.

``--quick`` shrinks every section (a smoke test).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Final

from engine import Config, GeneticAlgorithm
from tui.lab.engine_state import HISTORY_LIMIT
from tui.lab.lineage import trace
from tui.lab.recorded_lineage import RecordedSource
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

SEED: Final = 1
CONFIG: Final = Config(n=64, population=1000, stop_when_solved=False, seed=SEED)
BLOCK: Final = 1
"""Generations stepped by one run before the other takes its turn (they go in lockstep, so a
burst of load falls on both alike)."""
EARLY: Final = 40
"""Generations counted as the run's first (children still getting in, at this seed)."""


def load() -> str:
    """The load averages, and how many cores share them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} on {os.cpu_count()} cores"


class Contender:
    """One recorded run, stepped a block at a time, its times per generation kept."""

    def __init__(self, store: RunStore, config: Config, lineage: bool) -> None:
        self.algorithm = GeneticAlgorithm(config, history_limit=HISTORY_LIMIT, lineage=lineage)
        self.recorder = Recorder(store, self.algorithm)
        self.cpu: dict[int, float] = {}
        self.wall: dict[int, float] = {}

    def block(self, count: int) -> None:
        algorithm, recorder = self.algorithm, self.recorder
        for _ in range(count):
            cpu, wall = time.thread_time(), time.perf_counter()
            snapshot = algorithm.step()
            recorder.record(snapshot)
            self.cpu[snapshot.generation] = time.thread_time() - cpu
            self.wall[snapshot.generation] = time.perf_counter() - wall

    def close(self) -> None:
        self.recorder.close()


def lineage_bytes(path: Path) -> tuple[int, int, int]:
    """The lineage table's pages on disk (SQLite's dbstat), its families' bytes, its rows."""
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (pages,) = connection.execute(
            "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = 'lineage'"
        ).fetchone()
        families, rows = connection.execute(
            "SELECT COALESCE(SUM(LENGTH(family)), 0), COUNT(*) FROM lineage"
        ).fetchone()
    return int(pages), int(families), int(rows)


def file_bytes(path: Path) -> int:
    """The store's size once its write-ahead log is folded in."""
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    return int(pages) * int(size)


def print_bytes(path: Path, population: int) -> None:
    """Bytes of lineage per individual per generation in a store holding one run."""
    pages, families, rows = lineage_bytes(path)
    individuals = population * rows
    print(
        f"   bytes per individual per generation ({rows:,} generations): "
        f"{pages / individuals:.3f} on disk (the table's pages), "
        f"{families / individuals:.4f} of families, stored or compressed ({families:,} bytes)"
    )


def cost(folder: Path, rounds: int, generations: int) -> None:
    """Sections 1 and 2."""
    print(f"1. lineage's share of a generation, P = 1000, N = 64, recording on ({load()})")
    shares: dict[str, list[float]] = {}
    for round_number in range(rounds):
        config = CONFIG.replace(seed=SEED + round_number)
        with_path, without_path = folder / f"on{round_number}.db", folder / f"off{round_number}.db"
        with RunStore.open(with_path) as on_store, RunStore.open(without_path) as off_store:
            on = Contender(on_store, config, lineage=True)
            off = Contender(off_store, config, lineage=False)
            done = 0
            while done < generations:
                first, second = (on, off) if (done // BLOCK) % 2 else (off, on)
                first.block(BLOCK)
                second.block(BLOCK)
                done += BLOCK
            on.close()
            off.close()
            for clock in ("cpu", "wall"):
                for name, span in (
                    ("early", range(1, EARLY + 1)),
                    ("later", range(EARLY + 1, generations + 1)),
                    ("all", range(1, generations + 1)),
                ):
                    on_time = sum(getattr(on, clock)[g] for g in span)
                    off_time = sum(getattr(off, clock)[g] for g in span)
                    shares.setdefault(f"{clock} {name}", []).append(on_time / off_time - 1)
            mean_off = statistics.mean(off.cpu.values())
        print(
            f"   round {round_number + 1}: {mean_off * 1e3:.2f} ms of CPU a generation without; "
            f"with lineage {shares['cpu early'][-1]:+.1%} (generations 1-{EARLY}), "
            f"{shares['cpu later'][-1]:+.1%} (later), {shares['cpu all'][-1]:+.1%} overall "
            f"(wall-clock: {shares['wall all'][-1]:+.1%})"
        )
        if round_number == 0:
            print("2. that run's lineage on disk")
            print_bytes(with_path, config.population)
    for name, values in shares.items():
        print(
            f"   {name:>10}: median {statistics.median(values):+.1%}, "
            f"min {min(values):+.1%}, max {max(values):+.1%} over {rounds} rounds"
        )
    print(f"   ({load()})")


def ancestry_speed(path: Path, generations: int) -> None:
    """Section 3 (a store at ``path`` already holding the run is reused)."""
    config = CONFIG.replace(generations=generations, seed=7)
    print(f"3. a recorded run of {generations:,} generations at P = 1000, N = 64 ({load()})")
    if not path.exists():
        started = time.perf_counter()
        with RunStore.open(path) as store:
            algorithm = GeneticAlgorithm(config, history_limit=HISTORY_LIMIT)
            recorder = Recorder(store, algorithm)
            while algorithm.has_next():
                recorder.record(algorithm.step())
            recorder.close()
        recorded = time.perf_counter() - started
        print(
            f"   recording it took {recorded:.0f} s "
            f"({recorded / generations * 1e3:.2f} ms a generation)"
        )
    print(f"   the store holds {file_bytes(path):,} bytes")
    print_bytes(path, config.population)
    with RunStore.open(path) as store:
        run_id = store.runs()[-1].id
        for attempt in range(3):
            started = time.perf_counter()
            timeline = Timeline(store, run_id)
            source = RecordedSource(timeline)
            last = timeline.last_generation
            best = timeline.snapshot_at(last).best_index
            traced = trace(source, last, best)
            seconds = time.perf_counter() - started
            made = sum(a.operator not in ("survivor", "new") for a in traced.ancestors)
            print(
                f"   ancestry of the final best, attempt {attempt + 1}: {seconds:.3f} s "
                f"({len(traced.ancestors):,} ancestors, {made} made by crossing or copying; "
                f"{source.kept:,} families read from the record, {source.recomputed} re-stepped)"
            )
    print(f"   ({load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke test")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--cost-generations", type=int, default=300)
    parser.add_argument("--generations", type=int, default=100_000)
    parser.add_argument("--skip-long", action="store_true", help="sections 1 and 2 only")
    parser.add_argument("--skip-cost", action="store_true", help="section 3 only")
    parser.add_argument(
        "--long-store", type=Path, default=None, help="keep (or reuse) section 3's run here"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.cost_generations, args.generations = 1, 2 * EARLY, 2_000
    with tempfile.TemporaryDirectory() as folder:
        if not args.skip_cost:
            cost(Path(folder), args.rounds, args.cost_generations)
        if not args.skip_long:
            ancestry_speed(args.long_store or Path(folder) / "long.db", args.generations)


if __name__ == "__main__":
    main()
