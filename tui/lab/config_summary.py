"""A recorded run's config in a few words: the preset it is nearest to, and what differs.

``queens runs`` lists runs by what they ran: ``showcase, mutation-rate=0.3`` says more than a
preset's name (which a form or flags may have changed) or a list of operators. The preset is
the one from which the config differs in the fewest fields at its board size (the board size
and the seed are the run's own, never a difference); on a tie, the one listed first in
:data:`engine.config.presets.PRESETS` (or the one an older record names as its label). So the words
always describe the config exactly, whether the run started from that preset, from another, or
from the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine import FIELDS
from engine.config.presets import PRESETS
from engine.errors import ConfigError
from tui.lab.rerun_line import value_word

OWN_FIELDS: Final = frozenset({"n", "seed"})
"""Fields every run sets for itself: never counted as a difference from a preset."""


@dataclass(frozen=True)
class ConfigSummary:
    """A config as its nearest preset and the fields that differ from it.

    Attributes:
        preset: The nearest preset's name (``None`` when no preset supports the board size).
        changes: ``(field, value)`` of each field that differs, in the config's field order.
    """

    preset: str | None
    changes: tuple[tuple[str, Any], ...]

    @property
    def change_words(self) -> list[str]:
        """Each change as ``mutation-rate=0.3`` (a bool as ``unique`` or ``no-unique``)."""
        words = []
        for name, value in self.changes:
            flag = name.replace("_", "-")
            if isinstance(value, bool):
                words.append(flag if value else f"no-{flag}")
            else:
                words.append(f"{flag}={value_word(value)}")
        return words

    def text(self) -> str:
        """``showcase, mutation-rate=0.3``; ``showcase`` alone when nothing differs."""
        return ", ".join([self.preset or "custom", *self.change_words])


def _differences(
    config: Mapping[str, Any], under: Mapping[str, Any]
) -> tuple[tuple[str, Any], ...]:
    return tuple(
        (name, config[name])
        for name in FIELDS
        if name not in OWN_FIELDS and name in config and config[name] != under.get(name)
    )


def summarize(config: Mapping[str, Any], prefer: str | None = None) -> ConfigSummary:
    """The preset ``config`` is nearest to, and what differs from it.

    Args:
        config: A run's config as recorded (``Config.to_dict()``); a field missing from it is
            not compared.
        prefer: A preset to take among those equally near (the one an older record names).
    """
    defaults = {name: field.default for name, field in FIELDS.items()}
    n = config.get("n")
    best: ConfigSummary | None = None
    for name, preset in PRESETS.items():
        try:
            under = defaults | preset.values(n if isinstance(n, int) else None)
        except ConfigError:  # the preset does not support this board size
            continue
        changes = _differences(config, under)
        if (
            best is None
            or len(changes) < len(best.changes)
            or (name == prefer and len(changes) == len(best.changes))
        ):
            best = ConfigSummary(name, changes)
    return best if best is not None else ConfigSummary(None, _differences(config, defaults))


def run_description(label: str | None, config: Mapping[str, Any]) -> str:
    """A recorded run as a list names it: ``baseline (showcase, mutation-rate=0.3)``, or the
    config's words alone when it has no label.

    A record written before labels existed holds its preset's name as its label: when that is
    the preset its config is nearest to, it is not said twice.
    """
    words = summarize(config, prefer=label)
    if label is None or label == words.preset:
        return words.text()
    return f"{label} ({words.text()})"
