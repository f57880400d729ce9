"""A vectorized, seedable, steppable genetic algorithm for the N-Queens puzzle.

numpy and the standard library only: this package never imports a UI toolkit.

Typical use::

    from engine import Config, GeneticAlgorithm

    algorithm = GeneticAlgorithm(Config(n=16, seed=1))
    final = algorithm.run()
    print(final.stop_reason, final.queens())
"""

from __future__ import annotations

from engine.algorithm import FinishedError, GeneticAlgorithm
from engine.config.added_fields import without_added_defaults
from engine.config.config import FIELDS, Config, fitting_operators
from engine.errors import CheckpointError, ConfigError
from engine.genomes.encodings import ENCODINGS, queens_of
from engine.operators.plugins import (
    PluginError,
    file_changes,
    is_plugin_name,
    pinned_name,
    plugin_label,
    remember_recorded,
    restrict_plugins,
    source_of,
)
from engine.operators.registry import fitness_shape_of
from engine.operators.selection_pressure import SelectionPressure, pressure_words
from engine.snapshot import GenerationStats, History, Snapshot
from engine.stream import snapshots
from engine.termination import stop_rules

__all__ = [
    "ENCODINGS",
    "FIELDS",
    "CheckpointError",
    "Config",
    "ConfigError",
    "FinishedError",
    "GenerationStats",
    "GeneticAlgorithm",
    "History",
    "PluginError",
    "SelectionPressure",
    "Snapshot",
    "file_changes",
    "fitness_shape_of",
    "fitting_operators",
    "is_plugin_name",
    "pinned_name",
    "plugin_label",
    "pressure_words",
    "queens_of",
    "remember_recorded",
    "restrict_plugins",
    "snapshots",
    "source_of",
    "stop_rules",
    "without_added_defaults",
]
