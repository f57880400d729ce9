"""The engine's checkpoint, as the store keeps it: plain values and numpy arrays, no history.

A keyframe holds what :meth:`engine.GeneticAlgorithm.state` returns, without the history
(the store keeps every generation's statistics itself) and with its arrays as numpy arrays
(saved as ``.npy`` bytes). The genes of the population and of the solutions found are kept in
the narrowest unsigned type that holds them (one byte a gene up to N = 256, two up to 65,536):
the engine restores them as its own integers, so the run is the same, and a run's keyframe
budget holds up to eight times as many keyframes, which is what a jump in time travel re-steps
from (a run that finds many solutions, as N = 28 does, filled the budget with them). Coming
back, a keyframe goes through :meth:`engine.GeneticAlgorithm.from_state`, which validates
everything.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine import CheckpointError, Config, GeneticAlgorithm

HISTORY_LIMIT: Final = 4096
"""Generations of statistics a recorded run keeps in RAM (the rest are in the store)."""


class StateError(ValueError):
    """A keyframe the engine refuses (damaged or from an incompatible engine)."""


def new_algorithm(config: Config) -> GeneticAlgorithm:
    """A new run whose in-memory history is bounded (the store keeps the rest)."""
    return GeneticAlgorithm(config, history_limit=HISTORY_LIMIT)


def capture(algorithm: GeneticAlgorithm) -> dict[str, Any]:
    """The run's state now, without history, arrays as numpy arrays (copies)."""
    state: dict[str, Any] = algorithm.state(arrays=True, history=False)
    for name in ("population", "solutions"):  # genomes both: the run's and the ones found
        state[name] = narrowest_genes(state[name])
    return state


def narrowest_genes(genes: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``genes`` in ``uint8`` or ``uint16`` when every value fits and that is narrower, else as
    they are (the same values: the engine reads any integer type back as its own)."""
    if genes.size == 0 or genes.dtype.itemsize <= 1:
        return genes
    low, high = int(genes.min()), int(genes.max())
    for narrow in (np.uint8, np.uint16):
        if (
            low >= 0
            and high <= np.iinfo(narrow).max
            and np.dtype(narrow).itemsize < genes.dtype.itemsize
        ):
            return genes.astype(narrow)
    return genes


def restore(
    state: dict[str, Any], *, history_limit: int | None = HISTORY_LIMIT
) -> GeneticAlgorithm:
    """The run a keyframe describes, validated by the engine.

    Args:
        state: The keyframe's state.
        history_limit: Generations of statistics the restored run keeps in RAM (``None``: all).

    Raises:
        StateError: When the engine refuses the state (naming the field).
    """
    try:
        return GeneticAlgorithm.from_state(state, history_limit=history_limit)
    except CheckpointError as error:
        raise StateError(
            f"the keyframe is not a valid engine state ({error.field}): {error}"
        ) from None
