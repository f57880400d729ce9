"""Screens of the dashboard besides the main one."""

from __future__ import annotations

from tui.screens.help import HelpScreen
from tui.screens.race import RaceScreen
from tui.screens.solutions import SolutionsScreen

__all__ = ["HelpScreen", "RaceScreen", "SolutionsScreen"]
