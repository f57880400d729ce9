"""A run's mutable state as one record: everything a generation changes and a checkpoint saves.

evosax's ``State``, typed. :class:`engine.GeneticAlgorithm` holds one :class:`RunState` and
each step changes it in place; :meth:`engine.GeneticAlgorithm.state` writes it out with
:func:`saved_values`, and :func:`engine.checkpoint.checkpoint.read_checkpoint` builds one back. A
field is declared here once, with how a checkpoint holds it: the checkpoint's keys, what it writes
and what its digest covers all follow from the declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

import numpy as np

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.uniqueness import HashSet
from engine.operators.selection_pressure import SelectionPressure
from engine.snapshot import History
from engine.solutions.archive import SolutionArchive


def _saved_as(save: Callable[[Any], Any], *, optional: bool = False) -> dict[str, Any]:
    """Field metadata: a checkpoint holds ``save(value)``; an optional field may be missing."""
    return {"saved_as": save, "optional": optional}


_NOT_SAVED: Final = {"saved_as": None}
"""Field metadata: the value follows from other fields, and a checkpoint recomputes it."""


def _generator_state(rng: np.random.Generator) -> dict[str, Any]:
    return dict(rng.bit_generator.state)


def _genomes(genomes: Genomes) -> Genomes:
    return np.array(genomes, dtype=np.int64)


def _boards(archive: SolutionArchive) -> Genomes:
    return np.array(archive.boards, dtype=np.int64)


@dataclass(eq=False)
class RunState:
    """Everything a run changes as it goes; with the config, everything needed to resume it.

    Attributes:
        generation: Generations done (0: the initial population).
        evaluations: Fitness evaluations so far, the initial population and newcomers included.
        elapsed: Seconds spent computing the run (pauses do not count).
        stagnant: Generations since the best fitness last improved.
        best_ever: The best fitness any population has had.
        rng: The run's one random generator; a checkpoint holds its bit generator's state.
        population: ``(P, N)`` the current genomes (read-only once published).
        fitness: ``(P,)`` their fitness; follows from the population, so it is not saved.
        conflicts: ``(P,)`` their attacking pairs; not saved either.
        seen: Hashes of every genome met, with ``unique`` (empty otherwise).
        threshold: Sheppard's acceptance threshold (rises only with ``survivor="threshold"``).
        mutating: Whether the next generation mutates only (Sheppard's fallback).
        solutions: Every distinct solution met, rows by column, in the order found.
        history: One row of statistics per generation (the last ones only, with a limit);
            optional in a checkpoint.
        selection: The last generation's parent selection, measured (``None`` before the
            first step after a start or a restore); not saved.
    """

    generation: int
    evaluations: int
    elapsed: float
    stagnant: int
    best_ever: float
    rng: np.random.Generator = field(metadata=_saved_as(_generator_state))
    population: Genomes = field(metadata=_saved_as(_genomes))
    fitness: FloatArray = field(metadata=_NOT_SAVED)
    conflicts: IntArray = field(metadata=_NOT_SAVED)
    seen: HashSet = field(metadata=_saved_as(HashSet.sorted))
    threshold: float
    mutating: bool
    solutions: SolutionArchive = field(metadata=_saved_as(_boards))
    history: History = field(metadata=_saved_as(History.arrays, optional=True))
    selection: SelectionPressure | None = field(default=None, metadata=_NOT_SAVED)


def _as_is(value: Any) -> Any:
    return value


def _how_saved() -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """``(name, how it is saved)`` of each field a checkpoint holds, in the checkpoint's order."""
    held = []
    for declared in fields(RunState):
        save = declared.metadata.get("saved_as", _as_is)
        if save is not None:
            held.append((declared.name, save))
    return tuple(held)


_SAVED: Final = _how_saved()

SAVED_FIELDS: Final = tuple(name for name, _ in _SAVED)
"""The fields a checkpoint holds, in its order."""

OPTIONAL_FIELDS: Final = tuple(f.name for f in fields(RunState) if f.metadata.get("optional"))
"""The fields a checkpoint may leave out."""


def saved_values(state: RunState, *, leave_out: Collection[str] = ()) -> dict[str, Any]:
    """The state as a checkpoint holds it: plain values and new numpy arrays, in field order.

    Args:
        state: The run's state.
        leave_out: Optional fields (:data:`OPTIONAL_FIELDS`) to leave out.

    Returns:
        ``{field: value}``: the random generator's state as a mapping, genomes and hashes as
        arrays, the history as ``{column: array}``, numbers as they are.
    """
    return {name: save(getattr(state, name)) for name, save in _SAVED if name not in leave_out}


def is_table(value: object) -> bool:
    """Whether a saved value is a table, ``{column: array}`` (the history)."""
    return (
        isinstance(value, Mapping)
        and bool(value)
        and all(isinstance(column, np.ndarray) for column in value.values())
    )


def as_lists(saved: Mapping[str, Any]) -> dict[str, Any]:
    """Saved values with every array as (nested) lists, ready for JSON."""
    plain: dict[str, Any] = {}
    for name, value in saved.items():
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif is_table(value):
            value = {column: array.tolist() for column, array in value.items()}
        plain[name] = value
    return plain
