"""Which config fields only some operators read: one table for the form, the flags and plans.

A field such as ``tournament_size`` means something only with tournament selection; with any
other selection its value is never read. The dashboard's form dims such a field, the command
line refuses it when it is given explicitly (``--tournament-size 1000 --selection
best-2-of-5``), and a sweep plan refuses one that no configuration of the plan reads: all of
them from :data:`APPLIES_WHEN` and :data:`APPLIES_WHEN_ON` here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.errors import ConfigError
from engine.operators.plugins import is_plugin_name

APPLIES_WHEN: Final[dict[str, tuple[str, frozenset[str]]]] = {
    "tournament_size": ("selection", frozenset({"tournament"})),
    "gene_rate": ("mutation", frozenset({"shuffle-indexes"})),
    "candidates": ("mutation", frozenset({"conflict"})),
    "elitism": ("survivor", frozenset({"generational"})),
}
"""A field that only means something for some values of another: ``field: (other, values)``."""

READ_BY_PLUGINS: Final = frozenset({"tournament_size", "elitism"})
"""Fields a plug-in receives (its selection's ``size``, its survivors' ``elitism``): read
whenever a plug-in stands in for the operator."""

APPLIES_WHEN_ON: Final[dict[str, str]] = {"local_search_candidates": "local_search"}
"""A field that only means something while another count is above 0: ``field: other``."""


def _dashed(name: str) -> str:
    return name.replace("_", "-")


def unread_fields(values: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields whose values a run of ``values`` (a config's fields by name) never reads."""
    unread = [
        name
        for name, (other, wanted) in APPLIES_WHEN.items()
        if name in values
        and values.get(other) not in wanted
        and not (name in READ_BY_PLUGINS and is_plugin_name(values.get(other)))
    ]
    unread += [
        name
        for name, other in APPLIES_WHEN_ON.items()
        if name in values and not (values.get(other) or 0) > 0
    ]
    return tuple(unread)


def reader_of(name: str) -> str:
    """What reads a field of the tables: ``tournament selection``, ``local-search above 0``."""
    if name in APPLIES_WHEN_ON:
        return f"{_dashed(APPLIES_WHEN_ON[name])} above 0"
    other, wanted = APPLIES_WHEN[name]
    return f"{' or '.join(sorted(wanted))} {_dashed(other)}"


def unread_error(name: str, values: Mapping[str, Any], whose: str = "") -> ConfigError:
    """The refusal of a field given explicitly that a run of ``values`` never reads.

    Args:
        name: The field (one of :func:`unread_fields`).
        values: The run's fields by name.
        whose: Where the operator that ignores it came from (`` (the deap preset's)``), if
            not from what was given.
    """
    other = APPLIES_WHEN_ON.get(name) or APPLIES_WHEN[name][0]
    return ConfigError(
        name,
        values[name],
        f"only {reader_of(name)} reads it, and the {_dashed(other)} is "
        f"{values.get(other)}{whose}: choose {reader_of(name)}, or leave {_dashed(name)} out",
    )


def unread_by_all(name: str, configs: Sequence[Mapping[str, Any]]) -> ConfigError | None:
    """The refusal of a field that none of ``configs`` (a sweep's, say) reads, else ``None``.

    A field that some of them read passes: an axis of operators may take it for those.
    """
    if not configs or not all(name in unread_fields(values) for values in configs):
        return None
    other = APPLIES_WHEN_ON.get(name) or APPLIES_WHEN[name][0]
    seen = ", ".join(dict.fromkeys(str(values.get(other)) for values in configs))
    return ConfigError(
        name,
        configs[0][name],
        f"only {reader_of(name)} reads it, and no config has it ({_dashed(other)}: {seen}): "
        f"choose {reader_of(name)}, or leave {_dashed(name)} out",
    )
