"""The themes offered: the light and the ANSI ones left out, the default among them."""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES

from tui.dashboard.theme_legibility import (
    dashboard_variables,
    is_legible,
    legibility_problems,
    offered_themes,
    theme_variables,
)


def test_the_light_and_the_ansi_themes_are_left_out_and_the_default_is_offered() -> None:
    offered = offered_themes(BUILTIN_THEMES)
    assert "textual-dark" in offered
    for name, theme in BUILTIN_THEMES.items():
        if name.startswith("ansi") or not theme.dark:
            assert name not in offered, name
            assert legibility_problems(dashboard_variables(theme)), name
    # The borders are mended by the app's $frame, not left out: textual-dark's stood at 2.3:1.
    assert legibility_problems({**theme_variables(BUILTIN_THEMES["textual-dark"]), "frame": ""})
    assert is_legible(BUILTIN_THEMES["textual-dark"])
