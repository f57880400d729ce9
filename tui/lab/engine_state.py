"""The engine's checkpoint, as the store keeps it: plain values and numpy arrays, no history.

A keyframe holds what :meth:`engine.GeneticAlgorithm.state` returns, without the history
(the store keeps every generation's statistics itself) and with its arrays as numpy arrays
(saved as ``.npy`` bytes). Coming back, it goes through
:meth:`engine.GeneticAlgorithm.from_state`, which validates everything.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any, Final

import numpy as np

from engine import GeneticAlgorithm

HISTORY_LIMIT: Final = 4096
"""Generations of statistics a recorded run keeps in RAM (the rest are in the store)."""
ARRAY_KEYS: Final = ("population", "seen", "solutions")
"""The state's list-valued entries that are arrays."""


class StateError(ValueError):
    """A keyframe the engine refuses (damaged or from an incompatible engine)."""


@cache
def _engine_has(method: str, parameter: str) -> bool:
    """Whether this engine's ``GeneticAlgorithm.method`` takes ``parameter``."""
    return parameter in inspect.signature(getattr(GeneticAlgorithm, method)).parameters


def new_algorithm(config: Any) -> GeneticAlgorithm:
    """A new run whose in-memory history is bounded (when the engine can bound it)."""
    if _engine_has("__init__", "history_limit"):
        return GeneticAlgorithm(config, history_limit=HISTORY_LIMIT)  # type: ignore[call-arg]
    return GeneticAlgorithm(config)


def capture(algorithm: GeneticAlgorithm) -> dict[str, Any]:
    """The run's state now, without history, arrays as numpy arrays (copies)."""
    if _engine_has("state", "arrays"):
        state: dict[str, Any] = algorithm.state(arrays=True, history=False)  # type: ignore[call-arg]
    else:
        state = algorithm.state()
        state.pop("history", None)
    for key in ARRAY_KEYS:
        if key in state and not isinstance(state[key], np.ndarray):
            dtype = np.uint64 if key == "seen" else np.int64
            state[key] = np.asarray(state[key], dtype=dtype)
    if "solutions" in state and state["solutions"].size == 0:
        state["solutions"] = state["solutions"].reshape(0, algorithm.config.n)
    return state


def restore(
    state: dict[str, Any], *, history_limit: int | None = HISTORY_LIMIT
) -> GeneticAlgorithm:
    """The run a keyframe describes, validated by the engine.

    Args:
        state: The keyframe's state.
        history_limit: Generations of statistics the restored run keeps in RAM (``None``: all).

    Raises:
        StateError: When the engine refuses the state (naming the field when it can).
    """
    state = dict(state)
    try:
        if _engine_has("from_state", "history_limit"):
            return GeneticAlgorithm.from_state(  # type: ignore[call-arg]
                state, history_limit=history_limit
            )
        # This engine wants a history: one row, which it drops to republish the generation.
        from engine.snapshot import STAT_COLUMNS

        state.setdefault("history", {name: [0.0] for name in STAT_COLUMNS})
        return GeneticAlgorithm.from_state(state)
    except Exception as error:  # the engine's own checkpoint error, or older engines' raw ones
        field = getattr(error, "field", None)
        where = f" ({field})" if field else ""
        raise StateError(f"the keyframe is not a valid engine state{where}: {error}") from None
