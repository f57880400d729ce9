"""Config fields added after records were first written, and how a config is written so that
the records, checkpoints and sweeps made before them keep their names.

A field added later holds its default in every run made before it. Left out of a config's
digest while it holds that default, an older checkpoint keeps its digest and an older sweep's
configs keep their fingerprints (so a kept sweep resumes); set, it counts as any field does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

ADDED_FIELDS: Final[Mapping[str, object]] = {"one_best": False, "headless_chicken": False}
"""Each field added since the first records, with its default."""

_NOT_ADDED: Final = object()
"""Stands for "not an added field" (no value equals it)."""


def without_added_defaults(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` without the added fields that hold their defaults."""
    return {
        name: value for name, value in values.items() if ADDED_FIELDS.get(name, _NOT_ADDED) != value
    }
