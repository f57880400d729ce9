"""Screens of the dashboard besides the main one."""

from __future__ import annotations

from tui.dashboard.screens.help import HelpScreen
from tui.dashboard.screens.race import RaceScreen
from tui.dashboard.screens.solutions import SolutionsScreen

__all__ = ["HelpScreen", "RaceScreen", "SolutionsScreen"]
