"""The configs the lessons run, built from the engine's own fields.

Selection alone: no crossover (rate 0), no mutation (swap at rate 0), children copies of their
parents, no stop at a solution. Drift: the same with the ``neutral`` fitness, under which every
board is as good as any other, so selection picks uniformly (a tournament's first entrant wins a
tie) and each child is a copy of a uniformly chosen parent: the Wright-Fisher model.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from engine import Config, GeneticAlgorithm, Snapshot
from engine.arrays import FloatArray, Genomes

LESSON_N = 8
"""The board the GA lessons run on."""


def selection_only(population: int, **fields: Any) -> dict[str, Any]:
    """A config's fields for selection alone: copies of the picks, nothing else changes them."""
    return {
        "n": LESSON_N,
        "population": population,
        "crossover_rate": 0.0,
        "mutation": "swap",
        "mutation_rate": 0.0,
        "survivor": "generational",
        "elitism": 0,
        "stop_when_solved": False,
        **fields,
    }


def neutral(population: int, **fields: Any) -> dict[str, Any]:
    """A config's fields for drift: selection alone, every board equally fit."""
    return selection_only(population, fitness="neutral", **fields)


def checked(fields: dict[str, Any], seed: int) -> Config:
    """The engine's config of a lesson's run (checked by its rules)."""
    return Config.from_mapping({**fields, "seed": seed})


class Recording(NamedTuple):
    """Where a lesson's runs are recorded: a run store's path, and the runs' label."""

    store: str
    label: str


class LessonRun:
    """One seeded run of a lesson, stepped by the lesson, recorded when asked."""

    def __init__(self, algorithm: GeneticAlgorithm, recorder: Any = None) -> None:
        self.algorithm = algorithm
        self._recorder = recorder

    @property
    def snapshot(self) -> Snapshot:
        """The latest snapshot."""
        return self.algorithm.snapshot

    def step(self) -> Snapshot:
        """One generation, recorded when the run is."""
        snapshot = self.algorithm.step()
        if self._recorder is not None:
            self._recorder.record(snapshot)
        return snapshot


@contextmanager
def lesson_run(
    fields: Mapping[str, Any], seed: int, recording: Recording | None, lineage: bool = False
) -> Iterator[LessonRun]:
    """A lesson's run of ``fields`` on ``seed``; with ``recording``, every generation it steps
    is recorded in that store (``queens runs`` lists it, ``queens replay`` plays it back)."""
    algorithm = GeneticAlgorithm(checked(dict(fields), seed), lineage=lineage or bool(recording))
    if recording is None:
        yield LessonRun(algorithm)
        return
    from tui.lab.recorder import Recorder
    from tui.lab.store import RunStore

    with RunStore.open(recording.store) as store:
        recorder = Recorder(store, algorithm, label=recording.label)
        try:
            yield LessonRun(algorithm, recorder)
        finally:
            # The lesson, not a stop rule, ends the run: its record is whole to there.
            recorder.close("finished", keyframe=True)


def column_diversity(population: Genomes, n: int) -> float:
    """The Gini-Simpson diversity ``1 - sum of squared row shares``, averaged over columns."""
    size = population.shape[0]
    cells = population + np.arange(n, dtype=population.dtype) * n
    counts = np.bincount(cells.reshape(-1), minlength=n * n).reshape(n, n)
    shares: FloatArray = counts / size
    return float(1.0 - (shares * shares).sum(axis=1).mean())
