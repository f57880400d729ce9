"""Config fields as command-line flags, and back: one flag per field, generated from the config.

Every subcommand that takes a run configuration (``solve``, ``tui``, ``serve``, ``solutions``)
uses these, so a flag reads and fails the same way everywhere.
"""

from __future__ import annotations

import argparse

from engine import FIELDS, Config
from engine.presets import PRESETS, preset_named


def flag_of(field_name: str) -> str:
    """The command-line flag of a config field: ``max_evals`` -> ``--max-evals``."""
    return "--" + field_name.replace("_", "-")


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


def config_from_args(args: argparse.Namespace) -> Config:
    """The config the flags describe (defaults for the flags not given).

    Raises:
        ConfigError: On a bad value, naming the flag, the value and what is allowed.
    """
    given = {name: getattr(args, name) for name in FIELDS if getattr(args, name) is not None}
    if getattr(args, "preset", None) is None:
        return Config.from_mapping(given)
    preset = preset_named(args.preset)
    size = Config.from_mapping({"n": given.pop("n")}).n if "n" in given else None
    overrides = Config.from_mapping(given).to_dict() if given else {}
    return preset.config(size, **{name: overrides[name] for name in given})


def config_flags(config: Config) -> list[str]:
    """Flags that rebuild ``config`` on the command line (only the fields off their default)."""
    flags: list[str] = []
    for name, field in FIELDS.items():
        value = getattr(config, name)
        if value == field.default:
            continue
        if isinstance(value, bool):
            flags.append(flag_of(name) if value else "--no-" + name.replace("_", "-"))
        else:
            flags += [flag_of(name), str(value)]
    return flags
