"""Fingerprints: stable names for a config (without its seed) and for a whole sweep.

A result is keyed by (config fingerprint, seed). The fingerprint is the SHA-256 of the config's
canonical JSON (every field, defaults included, keys sorted, the seed left out), so the same
config written two ways (a preset, or its fields given one by one) has one fingerprint. Fields
added to the config later are left out while they hold their defaults
(:mod:`engine.config.added_fields`), so a sweep kept by an earlier version resumes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from engine import Config, without_added_defaults


def canonical_config(values: Mapping[str, Any]) -> dict[str, Any]:
    """The config's fields as plain values, defaults filled in, without the seed.

    Raises:
        ConfigError: If ``values`` is not a valid config.
    """
    document = without_added_defaults(Config.from_mapping(values).to_dict())
    document.pop("seed", None)
    return document


def digest(document: object) -> str:
    """The SHA-256 (hex) of a JSON-able value, written canonically."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def config_fingerprint(values: Mapping[str, Any]) -> str:
    """The fingerprint of a config, whatever its seed."""
    return digest(canonical_config(values))
