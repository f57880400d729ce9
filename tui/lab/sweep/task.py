"""The one task of a sweep: ``(config mapping, seed) -> result mapping``, plain data both ways.

A worker process or a Dask worker imports this module by name and calls :func:`run_task`; the
arguments and the result are plain JSON-able values, so nothing but data crosses processes or
machines. Everything in a result except ``seconds`` depends only on the config and the seed
(unless the config has a time limit, which the result flags with ``time_cut``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine import Config, GeneticAlgorithm, Snapshot
from tui.lab.sweep.errors import TaskFailed

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

CURVE_COLUMNS: Final = (
    "generation",
    "evaluations",
    "best_fitness",
    "mean_fitness",
    "worst_fitness",
    "best_conflicts",
    "mean_conflicts",
    "entropy",
    "unique_fraction",
)
"""The per-generation series a task sends back when asked (``curves``): one list per column,
one entry per generation from 0 to the run's last."""

DETERMINISTIC_FIELDS: Final = tuple(name for name in RESULT_FIELDS if name != "seconds")
"""The keys that depend only on the config and the seed (when no time limit cut the run)."""


@dataclass(frozen=True)
class Task:
    """One run to do: a cell's config fingerprint, its config mapping, and a seed."""

    fingerprint: str
    config: Mapping[str, Any]
    seed: int
    curves: bool = False
    """Whether the result should carry the run's per-generation series (``curve``)."""

    @property
    def key(self) -> tuple[str, int]:
        """What the result is kept under: (config fingerprint, seed)."""
        return (self.fingerprint, self.seed)


def task_config(config: Mapping[str, Any], seed: int) -> Config:
    """The engine's config of one run: a cell's fields and a seed, checked by the engine's rules.

    Raises:
        ConfigError: If the engine does not allow them (a plan checks every cell with this
            before any run starts).
    """
    return Config.from_mapping({**config, "seed": seed})


def run_task(
    config: Mapping[str, Any],
    seed: int,
    record_to: str | None = None,
    label: str | None = None,
    curves: bool = False,
) -> dict[str, Any]:
    """Run one config on one seed to its stop rule.

    A run counts as solved when any generation had a solution, even when the config goes on
    (DEAP's example runs its 100 generations); generations, evaluations and seconds are then
    those of the first solved generation, else those at the stop.

    Args:
        config: The config's fields (a seed in it is ignored).
        seed: The run's seed.
        record_to: The path of a run store to record the whole run in (``--record-runs``;
            a store this process can write), or ``None``.
        label: The recorded run's label (``queens sweep --label``), or ``None``.
        curves: Also send back the run's per-generation series (``queens sweep --curves`` and
            ``--plot``).

    Returns:
        ``solved``, ``generations``, ``evaluations``, ``seconds``, ``stop_reason``,
        ``conflicts`` (the fewest any generation's best had: 0 when solved) and ``time_cut``
        (whether the time limit, not a deterministic rule, ended the run); with
        ``record_to``, also ``run_id``, the recorded run's id in that store; with ``curves``,
        also ``curve``: a list per :data:`CURVE_COLUMNS`, generation 0 to the last.

    Raises:
        TaskFailed: If the run raised any error (only its message crosses processes).
    """
    try:
        algorithm = GeneticAlgorithm(task_config(config, seed))
        if not curves:
            if record_to is not None:
                return _run_recorded(algorithm, record_to, label)
            return _run(algorithm, lambda snapshot: None)
        series = CurveSeries(algorithm.snapshot)
        if record_to is not None:
            result = _run_recorded(algorithm, record_to, label, series.add)
        else:
            result = _run(algorithm, series.add)
        return {**result, "curve": series.columns}
    except Exception as error:  # sent back as a message: see tui.lab.sweep.errors
        failure = f"the run of seed {seed} failed: {type(error).__name__}: {error}"
        raise TaskFailed(failure) from None


class CurveSeries:
    """A run's per-generation series, gathered as it steps: plain lists per column."""

    def __init__(self, first: Snapshot) -> None:
        self.columns: dict[str, list[float]] = {name: [] for name in CURVE_COLUMNS}
        self.add(first)

    def add(self, snapshot: Snapshot) -> None:
        """Append one generation's figures."""
        stats = snapshot.stats
        for name, values in self.columns.items():
            values.append(getattr(stats, name))


def _run_recorded(
    algorithm: GeneticAlgorithm,
    record_to: str,
    label: str | None,
    also: Callable[[Snapshot], None] | None = None,
) -> dict[str, Any]:
    """:func:`_run`, with every generation recorded in the store at ``record_to`` (and handed
    to ``also``, if given)."""
    from tui.lab.recorder import Recorder
    from tui.lab.store import RunStore

    with RunStore.open(record_to) as store:
        recorder = Recorder(store, algorithm, label=label)

        def each(snapshot: Snapshot) -> None:
            recorder.record(snapshot)
            if also is not None:
                also(snapshot)

        try:
            result = _run(algorithm, each)
        finally:
            recorder.close()
    return {**result, "run_id": recorder.run_id}


def _run(algorithm: GeneticAlgorithm, on_step: Callable[[Snapshot], None]) -> dict[str, Any]:
    """Step to the stop rule, calling ``on_step`` with each new snapshot; the result."""
    snapshot = algorithm.snapshot
    first_solved = snapshot if snapshot.solved else None
    fewest = snapshot.best_conflicts
    while algorithm.has_next():
        snapshot = algorithm.step()
        on_step(snapshot)
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
