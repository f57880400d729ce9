"""The dashboard's widgets, one per module."""

from __future__ import annotations

from tui.dashboard.widgets.board import Board
from tui.dashboard.widgets.conflict_list import ConflictList
from tui.dashboard.widgets.engine_runner import SPEED_LIMITS, EngineRunner
from tui.dashboard.widgets.fitness_plot import FitnessPlot
from tui.dashboard.widgets.fitness_sparks import FitnessSparks
from tui.dashboard.widgets.param_form import ParamForm
from tui.dashboard.widgets.population_table import PopulationTable
from tui.dashboard.widgets.population_view import PopulationView
from tui.dashboard.widgets.preset_select import PresetSelect
from tui.dashboard.widgets.solution_gallery import SolutionGallery
from tui.dashboard.widgets.status_line import StatusLine

__all__ = [
    "SPEED_LIMITS",
    "Board",
    "ConflictList",
    "EngineRunner",
    "FitnessPlot",
    "FitnessSparks",
    "ParamForm",
    "PopulationTable",
    "PopulationView",
    "PresetSelect",
    "SolutionGallery",
    "StatusLine",
]
