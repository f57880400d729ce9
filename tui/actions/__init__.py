"""The dashboard's key actions, grouped by what they act on, one mixin per module."""

from __future__ import annotations

from tui.actions.palette_keys import PaletteActions
from tui.actions.run_keys import RunKeys
from tui.actions.screen_keys import ScreenKeys
from tui.actions.view_keys import ViewKeys

__all__ = ["PaletteActions", "RunKeys", "ScreenKeys", "ViewKeys"]
