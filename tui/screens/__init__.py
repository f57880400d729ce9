"""Screens of the dashboard besides the main one."""

from __future__ import annotations

from tui.screens.help import HelpScreen

__all__ = ["HelpScreen"]
