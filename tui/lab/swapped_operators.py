"""A recorded run's operators at any generation, across the swaps it was given while paused.

A record keeps the config a run started with and each swap after it
(:mod:`tui.lab.store.operator_swaps`): generation ``G`` is made by the operators of the last
swap of each field from a generation at or before ``G``, the starting config's elsewhere. So
re-stepping a record (time travel, replay, the lineage, resume) gives a run at generation ``k``
the operators that make ``k + 1`` before each step (:func:`follow_swaps`), whatever the
keyframe or copy it came from was holding: the generations before a swap are re-made with the
old operator, the ones after with the new, and each is checked against the record as always.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import (
    ConfigError,
    GeneticAlgorithm,
    PluginError,
    file_changes,
    is_plugin_name,
    remember_recorded,
    source_of,
)
from engine.config.config import PLUGINS_KEY
from tui.lab.store import OperatorSwap, RunInfo, StoreError


def operators_making(
    config: Mapping[str, Any], swaps: tuple[OperatorSwap, ...], generation: int
) -> dict[str, str]:
    """The swapped fields' operators that make ``generation``: each swap's from its generation
    on, the starting config's before (only the fields some swap names)."""
    operators = {swap.field: str(config.get(swap.field)) for swap in swaps}
    for swap in swaps:
        if swap.generation <= generation:
            operators[swap.field] = swap.value
    return operators


def config_making(
    config: Mapping[str, Any], swaps: tuple[OperatorSwap, ...], generation: int
) -> dict[str, Any]:
    """The config mapping that makes ``generation``: the starting one with the swaps made
    before it, carrying the sources of every plug-in the record holds."""
    making = {**config, **operators_making(config, swaps, generation)}
    sources = _sources(config, swaps)
    if sources:
        making[PLUGINS_KEY] = sources
    return making


def _sources(
    config: Mapping[str, Any], swaps: tuple[OperatorSwap, ...]
) -> dict[str, Mapping[str, str]]:
    sources: dict[str, Mapping[str, str]] = dict(config.get(PLUGINS_KEY) or {})
    for swap in swaps:
        sources.update(swap.plugins)
    return sources


def follow_swaps(
    algorithm: GeneticAlgorithm,
    config: Mapping[str, Any],
    swaps: tuple[OperatorSwap, ...],
    where: str,
) -> None:
    """Give a re-stepped run the operators that make its next generation (nothing to do for a
    record without swaps).

    Args:
        algorithm: The run, at the generation before the one it is about to step.
        config: The record's starting config.
        swaps: The record's swaps.
        where: The store and run, for the message.

    Raises:
        StoreError: When a swapped operator cannot be used here (its recorded source damaged,
            or plug-ins refused in this process).
    """
    if not swaps:
        return
    coming = algorithm.snapshot.generation + 1
    for field, value in operators_making(config, swaps, coming).items():
        if getattr(algorithm.config, field) == value:
            continue
        try:
            remember_recorded(_sources(config, swaps))
            algorithm.swap_operator(field, value)
        except (ConfigError, PluginError) as error:
            raise StoreError(
                f"{where}: the {field} that makes generation {coming:,} cannot be used: {error}"
            ) from None


def recorded_swap(algorithm: GeneticAlgorithm, field: str) -> OperatorSwap:
    """The swap a paused run was just given (:meth:`engine.GeneticAlgorithm.swap_operator`),
    as its record keeps it: from its next generation on, with the plug-in's source."""
    value = getattr(algorithm.config, field)
    plugins: dict[str, Mapping[str, str]] = {}
    if is_plugin_name(value):
        source = source_of(value)  # pinned: ``file.py:function@<short digest>``
        plugins[value.rpartition("@")[2]] = {
            "path": source.path,
            "sha256": source.sha256,
            "source": source.source,
        }
    return OperatorSwap(algorithm.snapshot.generation + 1, field, value, plugins)


def recorded_plugin_notes(info: RunInfo) -> list[str]:
    """For each plug-in a record names (its starting config's and its swaps'), a note when its
    file has changed or gone since: the recorded source is what runs. The words are
    :func:`engine.file_changes`'s, which the command line's replay and resume print too.

    A record whose sources cannot be used here gets no note: replaying it says why.
    """
    named = [value for value in info.config.values() if is_plugin_name(value)]
    named += [swap.value for swap in info.swaps if is_plugin_name(swap.value)]
    try:
        remember_recorded(_sources(info.config, info.swaps))
        notes = file_changes(
            {str(place): value for place, value in enumerate(dict.fromkeys(named))}
        )
    except PluginError:
        return []
    return list(dict.fromkeys(notes))  # two versions of one file: said once
