"""The dashboard's widgets, one per module."""

from __future__ import annotations

from tui.widgets.board import Board, Position
from tui.widgets.conflict_list import ConflictList
from tui.widgets.engine_runner import SPEED_LIMITS, EngineRunner
from tui.widgets.fitness_plot import FitnessPlot
from tui.widgets.fitness_sparks import FitnessSparks
from tui.widgets.param_form import ParamForm
from tui.widgets.population_table import PopulationTable
from tui.widgets.preset_select import PresetSelect
from tui.widgets.solution_gallery import SolutionGallery
from tui.widgets.status_line import StatusLine

__all__ = [
    "SPEED_LIMITS",
    "Board",
    "ConflictList",
    "EngineRunner",
    "FitnessPlot",
    "FitnessSparks",
    "ParamForm",
    "PopulationTable",
    "Position",
    "PresetSelect",
    "SolutionGallery",
    "StatusLine",
]
