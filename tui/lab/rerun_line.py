"""A config as ``queens solve`` flags, and the shell line that reruns it.

The one spelling of a config on the command line: the dashboard's reproduce line, ``queens
show``, a sweep's rerun lines and ``queens serve`` (which starts each dashboard with these flags)
all write it here, so what one prints every other reads the same way.

What is written is what :func:`engine.config.config.parse_field` reads back, exactly: a float as its
shortest round-trip text (``repr``: ``0.123456789``, ``1234567.5``, ``0.9``), never rounded for
the eye; a whole number in full; a bool as ``--x`` or ``--no-x``; no value as ``none``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from engine import FIELDS, Config
from engine.config.field_uses import unread_fields
from engine.config.presets import preset_named

SOLVE_COMMAND: Final = ("queens", "solve")
"""The words a rerun line starts with."""

NO_VALUE: Final = "none"
"""How a field with no value is written (an optional field set off a preset's value)."""


def flag_of(field_name: str) -> str:
    """The command-line flag of a config field: ``max_evals`` -> ``--max-evals``."""
    return "--" + field_name.replace("_", "-")


def _negated_flag_of(field_name: str) -> str:
    """The flag that turns a bool field off: ``unique`` -> ``--no-unique``."""
    return "--no-" + field_name.replace("_", "-")


def value_word(value: Any) -> str:
    """A field's value as the one command-line word that parses back to it.

    A float is written with ``repr`` of the Python float, its shortest text that reads back as
    the same float (``f"{x:g}"`` keeps six digits, so ``0.123456789`` would come back as
    ``0.123457``). Anything else that is not ``None`` is written with ``str``: whole numbers in
    full, names as they are, and a placeholder seed such as ``"S"`` as given.

    Args:
        value: A field's value (not a bool: a bool is a flag of its own, see :func:`field_flags`).

    Returns:
        The word, ``none`` for ``None``.
    """
    if value is None:
        return NO_VALUE
    if isinstance(value, float):
        # float() first: a numpy float is a float whose repr names its type.
        return repr(float(value))
    return str(value)


def field_flags(name: str, value: Any) -> list[str]:
    """The flags that set one field: ``["--unique"]``, ``["--no-unique"]``, ``["--n", "12"]``."""
    if isinstance(value, bool):
        return [flag_of(name) if value else _negated_flag_of(name)]
    return [flag_of(name), value_word(value)]


def _values_under(preset: str | None, n: Any) -> dict[str, Any]:
    """What stands under the flags: the preset's values at board size ``n``, or the defaults.

    The preset's values are taken unchecked, as ``queens solve --preset`` lays the flags over
    them unchecked, so a config that only its overrides make valid still gets a line.

    Raises:
        ConfigError: If the preset is not known or does not support ``n``.
    """
    defaults = {name: field.default for name, field in FIELDS.items()}
    if preset is None:
        return defaults
    return defaults | preset_named(preset).values(n)


def solve_flags(
    values: Mapping[str, Any], *, preset: str | None = None, always: Collection[str] = ()
) -> list[str]:
    """The ``queens solve`` flags that rebuild a config, in the config's field order.

    A field is written when its value differs from what the command line would put under it
    (the preset's value at the config's board size, or the field's default), or when it is
    named in ``always``. A field missing from ``values`` is left out, and so is one the
    config's operators never read (:func:`engine.config.field_uses.unread_fields`): the command line
    refuses such a flag, and the run is the same without it.

    Args:
        values: Config field values by name (a config's ``to_dict()``, a sweep cell's config
            with its seed); a field may be ``None``, written ``none``.
        preset: The preset the line starts from (``--preset NAME``, written first), or ``None``.
        always: Fields written even at the value under them (a sweep line names ``n`` and the
            seed always, so the line says what it runs).

    Returns:
        The flags, one word per list item, ready for :func:`solve_line` or a process's argv.

    Raises:
        ConfigError: If ``preset`` is not known or does not support the config's board size.
    """
    under = _values_under(preset, values.get("n"))
    flags = [] if preset is None else ["--preset", preset]
    unread = unread_fields(values)
    for name in FIELDS:
        if name not in values or name in unread:
            continue
        value = values[name]
        if name in always or value != under[name]:
            flags += field_flags(name, value)
    return flags


def config_flags(config: Config) -> list[str]:
    """Flags that rebuild ``config`` on the command line (only the fields off their default)."""
    return solve_flags(config.to_dict())


def solve_line(flags: Sequence[str]) -> str:
    """``queens solve`` and ``flags`` as one line a shell runs as is (quoted where needed)."""
    # Imported here: every command's parser loads this module for flag_of, and a headless
    # solve, which prints no rerun line, should not pay for shlex at start-up.
    import shlex

    return shlex.join([*SOLVE_COMMAND, *flags])
