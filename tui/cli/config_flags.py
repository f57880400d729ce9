"""Config fields as command-line flags, and back: one flag per field, generated from the config.

Every subcommand that takes a run configuration (``solve``, ``tui``, ``serve``, ``solutions``)
uses these, so a flag reads and fails the same way everywhere. The other way, a config written
as flags, is :mod:`tui.lab.rerun_line` (re-exported here as :func:`config_flags`), so the flags
a rerun line prints are the ones these parse.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, Final

from engine import FIELDS, Config, ConfigError
from engine.config.config import fitting_operators, parse_field
from engine.config.field_uses import APPLIES_WHEN, APPLIES_WHEN_ON, unread_error, unread_fields
from engine.config.presets import PRESETS, preset_named
from tui.lab.rerun_line import config_flags, flag_of

__all__ = [
    "OPERATOR_FIELDS",
    "add_config_flags",
    "choose_fitting_operators",
    "config_flags",
    "config_from_args",
    "flag_of",
    "preset_values",
    "refuse_unread_flags",
    "run_flags_given",
]


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    """``--preset`` and one flag per config field, with the field's help and choices."""
    group = parser.add_argument_group("run configuration (defaults: the team's best GA)")
    group.add_argument(
        "--preset",
        metavar="NAME",
        default=None,
        help=f"start from a published GA (flags given override it) [{', '.join(PRESETS)}]",
    )
    for name, field in FIELDS.items():
        help_text = field.metadata["help"]
        choices = field.metadata["choices"]
        if choices:
            help_text += f" [{', '.join(choices)}]"
        if isinstance(field.default, bool):
            group.add_argument(
                flag_of(name),
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"{help_text} (default: {field.default})",
            )
            continue
        # Values are parsed by the config itself, so every error reads the same way.
        group.add_argument(
            flag_of(name),
            dest=name,
            metavar=name.upper() if not choices else "NAME",
            default=None,
            help=f"{help_text} (default: {field.default})",
        )


OPERATOR_FIELDS: Final = ("crossover", "mutation", "fitness")
"""The fields that must fit the encoding; chosen for it when the user names only the encoding."""


def run_flags_given(args: argparse.Namespace) -> bool:
    """Whether the command line names a preset or any config field."""
    if getattr(args, "preset", None) is not None:
        return True
    return any(getattr(args, name, None) is not None for name in FIELDS)


def config_from_args(args: argparse.Namespace) -> Config:
    """The config the flags describe, validated once as a whole.

    The flags given are laid over the preset's values for the board size (``--preset``), or
    over the defaults, and the result is checked as one config: a flag is judged against the
    preset it modifies. When ``--encoding`` is given, each operator the user did not name and
    that does not fit the encoding is replaced by one that does (:func:`fitting_operators`); an
    operator named on the command line is kept, and refused if it does not fit.

    Raises:
        ConfigError: On a bad value, naming the flag, the value and what is allowed.
    """
    given = {name: getattr(args, name) for name in FIELDS if getattr(args, name) is not None}
    preset_name = getattr(args, "preset", None)
    values: dict[str, Any] = {**preset_values(preset_name, given), **given}
    if "encoding" in given:
        choose_fitting_operators(values, given)
    try:
        config = Config.from_mapping(values)
    except ConfigError as error:
        if preset_name is None or error.field in given:
            raise
        # The value at fault is the preset's, not a flag's: say so.
        preset = preset_named(preset_name)
        raise ConfigError(
            error.field,
            error.value,
            f"{error.allowed} (the {preset.name} preset's own value at N = "
            f"{values.get('n', preset.native_n)})",
        ) from None
    refuse_unread_flags(config, given, preset_name)
    return config


def refuse_unread_flags(config: Config, given: Mapping[str, Any], preset: str | None) -> None:
    """Refuse a flag given explicitly that the chosen operators never read (a default, or a
    preset's value, that they do not read is no one's choice, and passes).

    Raises:
        ConfigError: Naming the first such flag and what reads it.
    """
    values = config.to_dict()
    for name in unread_fields(values):
        if name in given:
            other = APPLIES_WHEN_ON.get(name) or APPLIES_WHEN[name][0]
            whose = f" (the {preset} preset's)" if preset and other not in given else ""
            raise unread_error(name, values, whose)


def preset_values(name: str | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The values of preset ``name`` at the board size given (its own N without ``--n``),
    unchecked: the flags are laid over them and the whole is checked as one config, so a flag
    can bring a preset within limits (``--preset sheppard --n 1000 --population 100``).

    Empty without a preset: the config's defaults then stand under the flags.

    Raises:
        ConfigError: If the preset does not support the board size.
    """
    if name is None:
        return {}
    size = parse_field("n", given["n"]) if "n" in given else None
    return preset_named(name).values(size)


def choose_fitting_operators(values: dict[str, Any], given: Mapping[str, Any]) -> None:
    """Replace, in place, the operators the user did not name that do not fit the encoding."""
    fitting = fitting_operators(parse_field("encoding", values["encoding"]))
    misfits = {error.field for error in Config.check(values)}
    for name in OPERATOR_FIELDS:
        if name in misfits and name not in given:
            values[name] = fitting[name]
