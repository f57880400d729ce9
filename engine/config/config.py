"""The run configuration: one frozen object, checked where it is built.

A :class:`Config` holds the fields declared in :mod:`engine.config.fields` (each with its
type, default and help) and follows the rules of :mod:`engine.config.rules`: a bad value
raises :class:`ConfigError`, which names the field, the value and what is allowed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from engine.config.fields import FIELDS, ConfigFields, parse_field
from engine.config.rules import LARGEST_WHOLE_NUMBER, config_errors
from engine.errors import ConfigError
from engine.genomes.encodings import ENCODINGS
from engine.operators.plugins import PluginError, recorded_sources, remember_recorded

__all__ = [
    "FIELDS",
    "LARGEST_WHOLE_NUMBER",
    "Config",
    "config_errors",
    "fitting_operators",
    "parse_field",
]


class Config(ConfigFields):
    """Everything that defines a run. Same config and seed, same run, bit for bit.

    The defaults are the team's best general-purpose GA: permutations, tournaments of 2,
    order crossover, the conflict-directed mutation and (mu + lambda) survivors. The fields
    are declared in :class:`engine.config.fields.ConfigFields`.

    Raises:
        ConfigError: For the first value of the wrong type or against a rule.
    """

    def __post_init__(self) -> None:
        # Types first (so a value of the wrong type is refused before it is compared), then
        # the rules.
        super().__post_init__()
        errors = config_errors(self)
        if errors:
            raise errors[0]

    def replace(self, **changes: Any) -> Config:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain JSON-able values, keyed by field name.

        A config naming plug-ins also carries their sources under ``plugins`` (by digest, see
        :mod:`engine.operators.plugins`), so that the mapping alone runs the same; a config of
        built-ins has no such key.
        """
        values = dataclasses.asdict(self)
        sources = recorded_sources(values)
        if sources:
            values[PLUGINS_KEY] = sources
        return values

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Config:
        """A config from a mapping (a JSON document, a preset), field names with ``_`` or ``-``.

        Raises:
            ConfigError: On an unknown field, a value of the wrong type or a bad value.
        """
        if not isinstance(values, Mapping):
            raise ConfigError(
                "config", values, "a mapping of field names to values (a JSON object) is expected"
            )
        known = {f.name: f for f in dataclasses.fields(cls)}
        converted: dict[str, Any] = {}
        values = _with_sources_kept(values)
        for key, value in values.items():
            if not isinstance(key, str):
                raise ConfigError(str(key), value, "field names are text, e.g. 'population'")
            name = key.replace("-", "_")
            if name not in known:
                raise ConfigError(key, value, f"known fields are {', '.join(sorted(known))}")
            converted[name] = parse_field(name, value)
        return cls(**converted)

    @classmethod
    def check(cls, values: Mapping[str, Any]) -> list[ConfigError]:
        """Every problem with a set of values typed by a person, without raising.

        Unparseable fields are reported, and the rest is checked with defaults standing in for
        them, so a form can show all its errors at once.
        """
        errors: list[ConfigError] = []
        fields: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(cls)}
        try:
            values = _with_sources_kept(values)
        except ConfigError as error:
            return [error]
        for key, value in values.items():
            if not isinstance(key, str):
                errors.append(ConfigError(str(key), value, "field names are text"))
                continue
            name = key.replace("-", "_")
            if name not in fields:
                errors.append(ConfigError(key, value, "not a config field"))
                continue
            try:
                fields[name] = parse_field(name, value)
            except ConfigError as error:
                errors.append(error)
        unchecked = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(unchecked, name, value)
        seen = {error.field for error in errors}
        return errors + [e for e in config_errors(unchecked) if e.field not in seen]


PLUGINS_KEY: Final = "plugins"
"""The key of a config's mapping that carries its plug-ins' sources."""


def _with_sources_kept(values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The mapping's fields, once the plug-in sources it carries (if any) are kept.

    Raises:
        ConfigError: If the sources are malformed or do not have their digests.
    """
    if PLUGINS_KEY not in values:
        return values
    try:
        remember_recorded(values[PLUGINS_KEY])
    except PluginError as error:
        raise ConfigError(PLUGINS_KEY, error.name, f"{error.check}: {error.problem}") from None
    return {key: value for key, value in values.items() if key != PLUGINS_KEY}


_FITTING_CROSSOVERS: Final = {"integer": "single-point", "squares": "one-gene"}
"""The crossover each non-permutation encoding gets unless one is named."""


def fitting_operators(encoding: str) -> dict[str, str]:
    """The default crossover, mutation and fitness that fit an encoding.

    The command line and the dashboard's form use them for the operators the user did not
    name, so that choosing ``--encoding integer`` alone gives a valid run.

    Args:
        encoding: An encoding's name.

    Returns:
        ``{"crossover": ..., "mutation": ..., "fitness": ...}``, names valid for the encoding.

    Raises:
        ConfigError: If the encoding is not known.
    """
    if encoding not in ENCODINGS:
        raise ConfigError("encoding", encoding, f"choose one of {', '.join(ENCODINGS)}")
    defaults = {name: str(FIELDS[name].default) for name in ("crossover", "mutation", "fitness")}
    if encoding == "permutation":
        return defaults
    # The conflict mutation and the pairs fitness serve every encoding; the crossover must not
    # assume a permutation.
    return {**defaults, "crossover": _FITTING_CROSSOVERS[encoding]}
