"""The dashboard's key actions, grouped by what they act on, one mixin per module."""

from __future__ import annotations

from tui.dashboard.actions.palette_keys import PaletteActions
from tui.dashboard.actions.run_keys import RunKeys
from tui.dashboard.actions.screen_keys import ScreenKeys
from tui.dashboard.actions.view_keys import ViewKeys

__all__ = ["PaletteActions", "RunKeys", "ScreenKeys", "ViewKeys"]
