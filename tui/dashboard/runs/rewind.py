"""Any generation of the recorded run, fast when it is near one already reached.

No Textual here; called from the time-travel thread only. Re-stepping dominates a jump in a
large run (at P = 200,000, N = 28 a generation takes 0.3 to 0.5 s on a quiet machine, and the
store keeps few keyframes of a run that large: each is tens of megabytes), so the generations
passed on the way are kept in memory as engine states, within :data:`CHECKPOINT_BUDGET`: the
ones ten generations apart back from the target (where ``{`` goes next), the decades (where
``}`` and ``g`` go), and the one just before the target (where ``[`` goes). A state keeps its
genes in the narrowest integer type that holds them (one byte each up to N = 256, where the
engine holds eight), so a state of P = 200,000, N = 28 takes about 10 MB; restoring one costs
about as much as a keyframe (the engine checks it, and its solutions: a run that found 100,000
takes seconds), without reading the store, so a state is restored only where that is measured to
be quicker than stepping the run in memory on. The states farthest from the generation asked
for go first when the budget is reached.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from engine import GeneticAlgorithm, Snapshot
from tui.lab.engine_state import capture, restore
from tui.lab.timeline import RESTORE_STEPS, Timeline

CHECKPOINT_BUDGET: Final = 512 * 2**20
"""Bytes of engine states kept in memory (one of P = 200,000, N = 28: about 10 MB)."""
CHECKPOINT_EVERY: Final = 10
"""States are kept every this many generations (the ``{`` and ``}`` stride)."""
GENE_ARRAYS: Final = ("population", "solutions")
"""The state's arrays of genes (values 0 to N - 1), kept in the narrowest type."""
MEASURE_WEIGHT: Final = 0.5
"""Weight of the newest measure in the running estimates of a step's and a restore's time."""


class Abandoned(Exception):
    """A newer request replaced the one being computed."""


def compact_state(algorithm: GeneticAlgorithm) -> dict[str, Any]:
    """The run's state (a copy) with its genes in the narrowest integer type that holds them;
    :func:`tui.lab.engine_state.restore` takes it back as it is."""
    state = capture(algorithm)
    n = algorithm.snapshot.n
    gene_type = np.min_scalar_type(max(n - 1, 0))
    for name in GENE_ARRAYS:
        array = state.get(name)
        if isinstance(array, np.ndarray) and array.dtype.kind in "iu":
            state[name] = array.astype(gene_type)
    return state


def state_size(state: dict[str, Any]) -> int:
    """The bytes of a state's arrays (the rest is a few hundred bytes)."""
    return sum(value.nbytes for value in state.values() if isinstance(value, np.ndarray))


class Rewinder:
    """Reaches generations of one recorded run, keeping engine states on the way.

    Args:
        timeline: The run's timeline (checks every re-stepped generation against the record).
        budget: Bytes of states kept.
    """

    def __init__(self, timeline: Timeline, *, budget: int = CHECKPOINT_BUDGET) -> None:
        self.timeline = timeline
        self.budget = budget
        self.checkpoints: dict[int, tuple[dict[str, Any], int]] = {}
        """Engine states of the run by generation, with their size in bytes."""
        self.step_seconds: float | None = None
        """A generation's re-stepping time, as measured lately (``None``: not yet)."""
        self.restore_seconds: float | None = None
        """A state's restoring time, as measured lately (``None``: not yet)."""

    def snapshot_at(self, generation: int, abandon: Callable[[], bool] = lambda: False) -> Snapshot:
        """Generation ``generation``, exactly.

        Args:
            generation: The generation wanted.
            abandon: Asked after each generation re-stepped: ``True`` stops the walk (the
                run reached so far is kept as a start for the next request).

        Raises:
            Abandoned: ``abandon()`` said so.
            StoreError: No such generation, a damaged record, or a re-step that differs.
        """
        start = self._start_for(generation)
        last_step = time.perf_counter()

        def stepped(algorithm: GeneticAlgorithm) -> None:
            nonlocal last_step
            now = time.perf_counter()
            self.step_seconds = _running(self.step_seconds, now - last_step)
            at = algorithm.snapshot.generation
            if self._worth_keeping(at, generation):
                self._keep(at, algorithm, generation)
            if abandon():
                raise Abandoned
            last_step = time.perf_counter()  # keeping a state is not stepping

        return self.timeline.snapshot_at(generation, start=start, after_step=stepped)

    def _start_for(self, generation: int) -> GeneticAlgorithm | None:
        """The nearest state kept at or before ``generation``, restored, if it is nearer than
        the run the timeline holds by more generations than a restore costs, as measured
        (``None``: let the timeline choose between the run it holds and the keyframes)."""
        kept = [at for at in self.checkpoints if at <= generation]
        if not kept:
            return None
        at = max(kept)
        cached = self.timeline.cached_generation
        if cached is not None and cached <= generation and at - self._restore_steps() <= cached:
            return None
        started = time.perf_counter()
        algorithm = restore(self.checkpoints[at][0])
        self.restore_seconds = _running(self.restore_seconds, time.perf_counter() - started)
        return algorithm

    def _restore_steps(self) -> float:
        """How many generations restoring a state costs, as measured lately."""
        if self.step_seconds is None or self.restore_seconds is None or self.step_seconds <= 0:
            return RESTORE_STEPS
        return max(RESTORE_STEPS, self.restore_seconds / self.step_seconds)

    @staticmethod
    def _worth_keeping(at: int, target: int) -> bool:
        """Decades, the generations ten by ten back from the target, and the one before it."""
        return (
            at % CHECKPOINT_EVERY == 0 or (target - at) % CHECKPOINT_EVERY == 0 or at == target - 1
        )

    def _keep(self, at: int, algorithm: GeneticAlgorithm, target: int) -> None:
        """Keep the run's state at ``at``; drop the states farthest from ``target`` when over
        the budget (a state larger than the whole budget is not kept)."""
        if at in self.checkpoints:
            return
        state = compact_state(algorithm)
        size = state_size(state)
        if size > self.budget:
            return
        self.checkpoints[at] = (state, size)
        while self.used() > self.budget and len(self.checkpoints) > 1:
            farthest = max(self.checkpoints, key=lambda g: (abs(g - target), -g))
            del self.checkpoints[farthest]

    def used(self) -> int:
        """Bytes of states kept."""
        return sum(size for _, size in self.checkpoints.values())


def _running(estimate: float | None, measured: float) -> float:
    """A running estimate updated with a new measure."""
    if estimate is None:
        return measured
    return (1 - MEASURE_WEIGHT) * estimate + MEASURE_WEIGHT * measured
