"""The one task of a sweep: ``(config mapping, seed) -> result mapping``, plain data both ways.

A worker process or a Dask worker imports this module by name and calls :func:`run_task`; the
arguments and the result are plain JSON-able values, so nothing but data crosses processes or
machines. Everything in a result except ``seconds`` depends only on the config and the seed
(unless the config has a time limit, which the result flags with ``time_cut``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine import Config, GeneticAlgorithm

RESULT_FIELDS: Final = (
    "solved",
    "generations",
    "evaluations",
    "seconds",
    "stop_reason",
    "conflicts",
    "time_cut",
)
"""The keys of a result mapping."""

DETERMINISTIC_FIELDS: Final = tuple(name for name in RESULT_FIELDS if name != "seconds")
"""The keys that depend only on the config and the seed (when no time limit cut the run)."""


@dataclass(frozen=True)
class Task:
    """One run to do: a cell's config fingerprint, its config mapping, and a seed."""

    fingerprint: str
    config: Mapping[str, Any]
    seed: int

    @property
    def key(self) -> tuple[str, int]:
        """What the result is kept under: (config fingerprint, seed)."""
        return (self.fingerprint, self.seed)


def run_task(config: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """Run one config on one seed to its stop rule.

    A run counts as solved when any generation had a solution, even when the config goes on
    (DEAP's example runs its 100 generations); generations, evaluations and seconds are then
    those of the first solved generation, else those at the stop.

    Args:
        config: The config's fields (a seed in it is ignored).
        seed: The run's seed.

    Returns:
        ``solved``, ``generations``, ``evaluations``, ``seconds``, ``stop_reason``,
        ``conflicts`` (the fewest any generation's best had: 0 when solved) and ``time_cut``
        (whether the time limit, not a deterministic rule, ended the run).
    """
    algorithm = GeneticAlgorithm(Config.from_mapping({**config, "seed": seed}))
    snapshot = algorithm.snapshot
    first_solved = snapshot if snapshot.solved else None
    fewest = snapshot.best_conflicts
    while algorithm.has_next():
        snapshot = algorithm.step()
        fewest = min(fewest, snapshot.best_conflicts)
        if first_solved is None and snapshot.solved:
            first_solved = snapshot
    counted = first_solved if first_solved is not None else snapshot
    return {
        "solved": first_solved is not None,
        "generations": int(counted.generation),
        "evaluations": int(counted.evaluations),
        "seconds": round(float(counted.elapsed), 6),
        "stop_reason": snapshot.stop_reason,
        "conflicts": int(fewest),
        "time_cut": snapshot.stop_reason == "time-limit",
    }
