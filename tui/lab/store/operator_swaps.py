"""A run's operator swaps, as its record keeps them: which operator, from which generation.

A paused run may continue with another operator (:meth:`engine.GeneticAlgorithm.swap_operator`).
The run's record keeps its starting config as it always did, and beside it, under the key
:data:`SWAPS_KEY` of the same JSON column, each swap in the order made: the first generation
made with the new operator, the field, the operator's pinned name and, for a plug-in, its
source and SHA-256 (the shape of a config's ``plugins``). A record made without a swap has no
such key and reads as before; no table or column was added, so every store opens as it did.

:func:`swaps_of` reads the key back, checked: a damaged entry is a
:class:`~tui.lab.store.errors.StoreError`, never passed on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from tui.lab.store.errors import StoreError

SWAPS_KEY: Final = "swaps"
"""The key of a run's stored config that holds its swaps (absent when there are none)."""

SWAPPED_FIELDS: Final = ("selection", "crossover", "mutation", "survivor")
"""The fields a swap may name: the engine's
:data:`~engine.config.operator_swap.SWAPPABLE_FIELDS`."""


@dataclasses.dataclass(frozen=True)
class OperatorSwap:
    """One swap of a run's operator.

    Attributes:
        generation: The first generation made with the new operator (the run was paused at the
            one before).
        field: The config field swapped (``mutation``, ...).
        value: The operator's config name, pinned (``ops.py:mutate@<digest>``) for a plug-in.
        plugins: The plug-in's source by digest (``{digest: {"path", "sha256", "source"}}``),
            as a config's mapping carries it; empty for a built-in.
    """

    generation: int
    field: str
    value: str
    plugins: Mapping[str, Mapping[str, str]] = dataclasses.field(default_factory=dict)

    def document(self) -> dict[str, Any]:
        """The swap as the record keeps it (plain JSON values)."""
        return {
            "generation": self.generation,
            "field": self.field,
            "value": self.value,
            "plugins": {key: dict(entry) for key, entry in self.plugins.items()},
        }


def swaps_of(path: Path, run_id: int, stored: object) -> tuple[OperatorSwap, ...]:
    """The swaps a run's stored config holds under :data:`SWAPS_KEY` (``None``: none), checked.

    Raises:
        StoreError: When they are not a list of swaps in the order of their generations.
    """
    if stored is None:
        return ()
    damaged = StoreError(f"{path}: run {run_id} is damaged (its operator swaps)")
    if not isinstance(stored, list):
        raise damaged
    swaps: list[OperatorSwap] = []
    for entry in stored:
        if not isinstance(entry, Mapping):
            raise damaged
        generation, name, value = entry.get("generation"), entry.get("field"), entry.get("value")
        plugins = entry.get("plugins", {})
        if (
            type(generation) is not int
            or generation < 1
            or name not in SWAPPED_FIELDS
            or not isinstance(value, str)
            or not _plugin_sources(plugins)
            or (swaps and generation < swaps[-1].generation)
        ):
            raise damaged
        swaps.append(OperatorSwap(generation, str(name), value, plugins))
    return tuple(swaps)


def _plugin_sources(plugins: object) -> bool:
    """Whether ``plugins`` has the shape of a config's sources (their digests are checked
    when a run uses them: :func:`engine.remember_recorded`)."""
    return isinstance(plugins, Mapping) and all(
        isinstance(key, str)
        and isinstance(entry, Mapping)
        and all(isinstance(entry.get(part), str) for part in ("path", "sha256", "source"))
        for key, entry in plugins.items()
    )


def stored_config(config: Mapping[str, Any], swaps: tuple[OperatorSwap, ...]) -> dict[str, Any]:
    """A run's config as the ``config`` column keeps it: the starting config, and its swaps
    under :data:`SWAPS_KEY` when it has any."""
    stored = {key: value for key, value in config.items() if key != SWAPS_KEY}
    if swaps:
        stored[SWAPS_KEY] = [swap.document() for swap in swaps]
    return stored
