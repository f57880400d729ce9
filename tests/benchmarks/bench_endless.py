"""A run that never ends stays bounded: prints its record's size and the process's resident
memory as a stalled run goes on.

The run is driven as the dashboard drives it, headless (no Textual): each generation goes to
the same objects the engine thread hands it to (the ring of recent generations, the recording,
diversity explained when asked), and every ``--frame`` generations the chart's series reads the
history as a repaint does. The run stalls at once (N = 8, mutation off) and has no stop rule,
so it goes on at full speed: the dashboard's stop rule is what ends such a run, and this is
what happens when the user turns it off.

Run with ``python tests/benchmarks/bench_endless.py [--generations 300000] [--every 10000]``.
Figures depend on the machine and on what else it runs (``uptime`` says).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from engine import Config, GeneticAlgorithm
from tui.dashboard.runs.history_series import SERIES_DIVERSITY, HistorySeries, thinned
from tui.dashboard.runs.lineage_ring import LineageRing
from tui.dashboard.runs.recording import DashboardRecording
from tui.dashboard.runs.variation_series import VariationSeries
from tui.dashboard.widgets.engine_runner import DASHBOARD_HISTORY

PLOT_POINTS = 240
"""Points the chart thins each series to (as the painter)."""


def resident_mb() -> float:
    """This process's resident memory (VmRSS), MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def record_mb(path: Path) -> float:
    """The store's file and its write-ahead log, MB."""
    wal = Path(f"{path}-wal")
    return (path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=300_000)
    parser.add_argument("--every", type=int, default=10_000, help="generations between lines")
    parser.add_argument("--frame", type=int, default=500, help="generations between repaints")
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--budget", default="64MB", help="the record budget (--record-budget)")
    parser.add_argument(
        "--explained", action="store_true", help="measure diversity explained too (slower)"
    )
    args = parser.parse_args()
    from tui.lab.record_budget import parse_budget

    budget = parse_budget(args.budget)
    config = Config(n=args.n, mutation_rate=0.0, seed=1, stop_when_solved=False)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.sqlite3"
        recording = DashboardRecording(path, enabled=True, budget=budget)
        ring = LineageRing()
        series = HistorySeries()
        variation = VariationSeries()
        variation.enabled = args.explained
        algorithm = GeneticAlgorithm(config, history_limit=DASHBOARD_HISTORY)
        run_id = recording.begin(algorithm)
        variation.reset(algorithm)
        print(
            f"stalled run N = {args.n}, P = {config.population}, mutation off, no stop rule; "
            f"record budget {args.budget}; run {run_id} in {path.name}"
        )
        print(f"{'generation':>10}  {'record MB':>9}  {'counted MB':>10}  {'RSS MB':>7}  gen/s")
        started = time.perf_counter()
        last = (started, 0)
        reference: float | None = None
        for generation in range(1, args.generations + 1):
            snapshot = algorithm.step()
            ring.observe(algorithm, snapshot)
            recording.observe(algorithm, snapshot)
            variation.observe(algorithm, snapshot)
            if generation % args.frame == 0:
                series.update(algorithm.history, snapshot)
                columns = series.columns
                for name in ("best_fitness", "mean_fitness", SERIES_DIVERSITY):
                    thinned(columns[name], PLOT_POINTS)
            if generation % args.every == 0:
                now = time.perf_counter()
                rate = (generation - last[1]) / (now - last[0])
                last = (now, generation)
                rss = resident_mb()
                counted = recording.store().run_size(run_id).bytes / 2**20 if run_id else 0.0
                print(
                    f"{generation:>10,}  {record_mb(path):>9.1f}  {counted:>10.1f}  "
                    f"{rss:>7.1f}  {rate:,.0f}",
                    flush=True,
                )
                if generation == 10_000:
                    reference = rss
        rss = resident_mb()
        print(
            f"record {record_mb(path):.1f} MB (budget {args.budget}); RSS {rss:.1f} MB"
            + (
                ""
                if reference is None
                else f", {100 * (rss / reference - 1):+.1f}% of its {reference:.1f} MB at 10,000"
            )
            + f"; ring {len(ring)} generations, series {len(series)} rows (stride "
            f"{series.stride}), history {len(algorithm.history)} rows; "
            f"{time.perf_counter() - started:.0f} s"
        )
        if recording.failure:
            print(f"recording: {recording.failure}")
        recording.close()


if __name__ == "__main__":
    main()
