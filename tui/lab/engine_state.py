"""The engine's checkpoint, as the store keeps it: plain values and numpy arrays, no history.

A keyframe holds what :meth:`engine.GeneticAlgorithm.state` returns, without the history
(the store keeps every generation's statistics itself) and with its arrays as numpy arrays
(saved as ``.npy`` bytes). Coming back, it goes through
:meth:`engine.GeneticAlgorithm.from_state`, which validates everything.
"""

from __future__ import annotations

from typing import Any, Final

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
    return state


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
