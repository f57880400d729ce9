"""Another operator for a run under way: the config it continues with, checked as at its start.

A paused run may be given another selection, crossover, mutation or survivor selection (a
plug-in file that has changed since, another ``file.py:function``, or a built-in) from its
next generation on (:meth:`engine.GeneticAlgorithm.swap_operator`). The new config is built
the way every config is, so the swap goes through the same checks as a run's start: a plug-in
is read, pinned to its source's digest and called on a sample of the run's kind; the rules
between fields hold. A swap that fails them raises :class:`~engine.errors.ConfigError`, and the
run is left as it was.

The fitness is not swapped: it has scored the population, the best so far and the stop rules'
progress, and a run continuing under another would compare numbers of two scales.
"""

from __future__ import annotations

from typing import Final

from engine.config.config import Config
from engine.errors import ConfigError

SWAPPABLE_FIELDS: Final = ("selection", "crossover", "mutation", "survivor")
"""The operator fields a run under way may change."""


def swapped_config(config: Config, field: str, value: str) -> Config:
    """``config`` with ``field``'s operator changed to ``value`` (pinned, checked).

    Args:
        config: The run's config now.
        field: One of :data:`SWAPPABLE_FIELDS`.
        value: A built-in's name, or a plug-in's ``file.py:function`` (read now) or
            ``file.py:function@digest`` (a source already known in this process).

    Returns:
        The config the run continues with.

    Raises:
        ConfigError: A field that cannot change, a value the run already uses, or a value
            that fails the checks a run's start makes (naming the field, the value and why).
    """
    if field not in SWAPPABLE_FIELDS:
        allowed = ", ".join(SWAPPABLE_FIELDS)
        why = (
            " (the fitness scored the population: start a new run for another)"
            if field == "fitness"
            else ""
        )
        raise ConfigError(field, value, f"a run under way may change its {allowed}{why}")
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(field, value, "a built-in's name or file.py:function is expected")
    changed = config.replace(**{field: value.strip()})
    if getattr(changed, field) == getattr(config, field):
        raise ConfigError(field, value, "the run uses it already")
    return changed
