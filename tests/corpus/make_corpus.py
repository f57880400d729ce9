"""Write this engine version's corpus: small run files and the fingerprints of their generations.

Run once per engine version (``.venv/bin/python tests/corpus/make_corpus.py``). It records
each run of :data:`RUNS` with ``queens solve --record`` (and ``queens resume`` for the resumed
one) into a scratch store, exports it with ``queens export RUN --format run``, and writes
``tests/corpus/<version>/`` with the run files and ``manifest.json``: every generation's
fingerprint (:mod:`corpus_fingerprints`). A folder that exists already is never rewritten:
the files an older version wrote are what later versions must keep reading the same.

Before a fingerprint is written it is made twice, by re-running the recorded config and seed
from generation 0 and by reading the run file back through the lab's timeline (keyframe
restored and re-stepped, every generation checked against the record's statistics); the two
must agree, or nothing is written.
"""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
from corpus_fingerprints import CORPUS, MANIFEST, fingerprint

from engine import Config, GeneticAlgorithm
from tui.lab.record_version import engine_version
from tui.lab.recorder import stats_row
from tui.lab.store import STAT_FIELDS, RunStore
from tui.lab.timeline import COMPARED, Timeline


class CorpusRun(NamedTuple):
    """One run of the corpus.

    Attributes:
        name: The run file's name, without ``.queens``.
        what: What it covers, for people reading the manifest.
        solve: ``queens solve`` flags (``--record`` and the store are added).
        resume: ``queens resume`` flags, for a run that is resumed once it has stopped.
        lineage: Fingerprint each generation's parents too, and check the kept families.
    """

    name: str
    what: str
    solve: tuple[str, ...]
    resume: tuple[str, ...] | None = None
    lineage: bool = False


SMALL: Final = ("--no-stop-when-solved", "--generations", "30")

RUNS: Final = (
    CorpusRun(
        "preset-codeproject-2011",
        "preset: roulette, order-uniform, swap-gene, generational, collisions",
        ("--preset", "codeproject-2011", "--seed", "3"),
    ),
    CorpusRun(
        "preset-sheppard",
        "preset: squares, attacked, uniform, one-gene, reset-one, threshold, unique, fallback",
        ("--preset", "sheppard", "--n", "5", "--seed", "3", "--generations", "30"),
    ),
    CorpusRun(
        "preset-towardsai-5queens",
        "preset: integer, pairs, roulette, single-point, reset-one, generational",
        ("--preset", "towardsai-5queens", "--seed", "3", "--generations", "30"),
    ),
    CorpusRun(
        "preset-queens-ai",
        "preset: exponential, best-2-of-5, cut-crossfill, swap, steady-state",
        ("--preset", "queens-ai", "--seed", "3", "--max-evals", "160"),
    ),
    CorpusRun(
        "preset-deap-nqueens",
        "preset: excess, tournament of 3, pmx, shuffle-indexes, generational",
        ("--preset", "deap-nqueens", "--seed", "3", "--generations", "12"),
    ),
    CorpusRun(
        "preset-default",
        "preset: pairs, tournament, ox, conflict, plus",
        ("--preset", "default", "--seed", "3", *SMALL),
    ),
    CorpusRun(
        "preset-showcase",
        "preset: N = 28, ox at 0.9, swap, plus",
        ("--preset", "showcase", "--seed", "3", "--generations", "20"),
    ),
    CorpusRun(
        "preset-memetic",
        "preset (at N = 256): greedy start, cycle, conflict mutation, "
        "local search in compiled code",
        ("--preset", "memetic", "--n", "256", "--seed", "3", *SMALL),
    ),
    CorpusRun(
        "operators-rank-cycle-inversion",
        "permutation: linear, rank, cycle, inversion, generational with elitism",
        (
            "--n",
            "10",
            "--population",
            "16",
            "--fitness",
            "linear",
            "--selection",
            "rank",
            "--crossover",
            "cycle",
            "--crossover-rate",
            "0.7",
            "--mutation",
            "inversion",
            "--mutation-rate",
            "0.5",
            "--survivor",
            "generational",
            "--elitism",
            "2",
            "--seed",
            "5",
            *SMALL,
        ),
    ),
    CorpusRun(
        "operators-truncation-pmx-scramble",
        "permutation: parabolic, truncation, pmx, scramble, plus, unique",
        (
            "--n",
            "10",
            "--population",
            "16",
            "--fitness",
            "parabolic",
            "--selection",
            "truncation",
            "--crossover",
            "pmx",
            "--crossover-rate",
            "0.6",
            "--mutation",
            "scramble",
            "--mutation-rate",
            "0.5",
            "--survivor",
            "plus",
            "--unique",
            "--seed",
            "5",
            *SMALL,
        ),
    ),
    CorpusRun(
        "operators-integer-random-reset",
        "integer: attacked, tournament of 3, "
        "one-gene, random-reset, steady-state, 1 child a couple",
        (
            "--n",
            "8",
            "--population",
            "16",
            "--encoding",
            "integer",
            "--fitness",
            "attacked",
            "--selection",
            "tournament",
            "--tournament-size",
            "3",
            "--crossover",
            "one-gene",
            "--crossover-rate",
            "0.8",
            "--mutation",
            "random-reset",
            "--mutation-rate",
            "0.1",
            "--survivor",
            "steady-state",
            "--children-per-couple",
            "1",
            "--seed",
            "5",
            *SMALL,
        ),
    ),
    CorpusRun(
        "operators-squares-uniform-threshold",
        "squares: excess, uniform, single-point, random-reset, threshold",
        (
            "--n",
            "6",
            "--population",
            "16",
            "--encoding",
            "squares",
            "--fitness",
            "excess",
            "--selection",
            "uniform",
            "--crossover",
            "single-point",
            "--crossover-rate",
            "0.9",
            "--mutation",
            "random-reset",
            "--mutation-rate",
            "0.2",
            "--survivor",
            "threshold",
            "--seed",
            "5",
            *SMALL,
        ),
    ),
    CorpusRun(
        "find-all",
        "find-all mode at N = 6: each solution and its images kept, replaced",
        ("--n", "6", "--population", "12", "--harvest", "--seed", "5", *SMALL),
    ),
    CorpusRun(
        "memetic-mode",
        "memetic mode in numpy: local search after the swap mutation",
        (
            "--n",
            "24",
            "--population",
            "8",
            "--mutation",
            "swap",
            "--local-search",
            "3",
            "--local-search-candidates",
            "4",
            "--seed",
            "5",
            *SMALL,
        ),
    ),
    CorpusRun(
        "lineage-kept",
        "the default GA crossing often: its families kept in the record",
        (
            "--n",
            "10",
            "--population",
            "20",
            "--crossover-rate",
            "0.9",
            "--seed",
            "7",
            "--no-stop-when-solved",
            "--generations",
            "40",
        ),
        lineage=True,
    ),
    CorpusRun(
        "resumed",
        "recorded to generation 20 by queens solve, then to 40 by queens resume",
        (
            "--n",
            "10",
            "--population",
            "16",
            "--crossover-rate",
            "0.5",
            "--seed",
            "9",
            "--no-stop-when-solved",
            "--generations",
            "20",
        ),
        resume=("--generations", "40"),
    ),
)
"""The corpus: every encoding, every operator of each kind, each published system's preset,
the memetic mode (compiled and not), the find-all mode, a kept lineage, a resumed run."""


def queens(*arguments: str) -> str:
    """Run the ``queens`` beside this Python and return its stdout (it must succeed)."""
    command = [str(Path(sys.executable).with_name("queens")), *arguments]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 1: not solved within the budget, still recorded
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def rerun_fingerprints(
    config: dict[str, Any], last: int, recorded: list[tuple[Any, ...]], lineage: bool
) -> dict[str, dict[str, Any]]:
    """Every generation's fingerprint, re-running ``config`` from generation 0, checked
    against the recorded statistics."""
    algorithm = GeneticAlgorithm(Config.from_mapping(config))
    prints = {}
    for generation in range(last + 1):
        snapshot = algorithm.snapshot if generation == 0 else algorithm.step()
        now = stats_row(snapshot)
        if any(now[i] != recorded[generation][i] for i in COMPARED):
            raise SystemExit(f"generation {generation}: the re-run differs from the record")
        prints[str(generation)] = fingerprint(snapshot, parents=lineage)
    return prints


def timeline_fingerprints(path: Path, last: int, lineage: bool) -> dict[str, dict[str, Any]]:
    """Every generation's fingerprint, read back from the run file, newest first."""
    from tui.lab.recorded_lineage import snapshot_with_lineage

    prints = {}
    with RunStore.open(path, create=False, wal=False) as store:
        timeline = Timeline(store, store.single_run_id())
        for generation in range(last, -1, -1):
            snapshot = (
                snapshot_with_lineage(timeline, generation)
                if lineage and generation
                else timeline.snapshot_at(generation)
            )
            prints[str(generation)] = fingerprint(snapshot, parents=lineage)
    return dict(sorted(prints.items(), key=lambda item: int(item[0])))


def make_run(run: CorpusRun, store: Path, folder: Path) -> dict[str, Any]:
    """Record, export and fingerprint one run; its manifest entry."""
    solved = json.loads(queens("solve", "--record", "--store", str(store), "--json", *run.solve))
    run_id = str(solved["run_id"])
    if run.resume is not None:
        queens("resume", run_id, "--store", str(store), "--json", *run.resume)
    path = folder / f"{run.name}.queens"
    queens("export", run_id, "--format", "run", "--output", str(path), "--store", str(store))
    with RunStore.open(path, create=False, wal=False) as opened:
        info = opened.run(opened.single_run_id())
        stats = opened.stats(info.id, 0, info.generations + 1)
    recorded = list(zip(*(stats[name].tolist() for name in STAT_FIELDS), strict=True))
    again = rerun_fingerprints(info.config, info.generations, recorded, run.lineage)
    read = timeline_fingerprints(path, info.generations, run.lineage)
    if read != again:
        raise SystemExit(f"{path}: the timeline and the re-run disagree")
    if run.lineage and again["1"]["parents_sha256"] is None:
        raise SystemExit(f"{path}: no lineage to fingerprint")
    return {
        "file": path.name,
        "what": run.what,
        "solve": ["queens", "solve", *run.solve],
        "resume": None if run.resume is None else ["queens", "resume", "RUN", *run.resume],
        "lineage": run.lineage,
        "run_id": info.id,
        "seed": info.seed,
        "generations": info.generations,
        "status": info.status,
        "stop_reason": info.stop_reason,
        "bytes": path.stat().st_size,
        "fingerprints": again,
    }


def main() -> int:
    """Write ``tests/corpus/<this engine version>/``; refuse when it exists."""
    version = engine_version()
    folder = CORPUS / version
    if folder.exists():
        print(f"{folder} exists: a version's corpus is written once, never again", file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="queens-corpus-"))
    partial = CORPUS / f".{version}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    try:
        entries = [make_run(run, scratch / "store.sqlite3", partial) for run in RUNS]
        manifest = {
            "engine_version": version,
            "written_with": {"python": platform.python_version(), "numpy": np.__version__},
            "fingerprint": "population_sha256: SHA-256 of the population's shape (JSON) then "
            "its genes as little-endian int64 in C order; best_fitness, mean_fitness: the "
            "generation's statistics; parents_sha256: the same hash of the lineage's (P, 2) "
            "parents",
            "runs": entries,
        }
        text = json.dumps(manifest, indent=1) + "\n"
        (partial / MANIFEST).write_text(text, encoding="utf-8")
        partial.rename(folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    total = sum(p.stat().st_size for p in folder.iterdir())
    print(f"{folder}: {len(RUNS)} run files, {total:,} bytes with the manifest")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
