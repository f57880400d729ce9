"""Which themes the dashboard offers: those in which its labels, borders and chart are legible.

Textual's themes were made for its own widgets. The dashboard draws more in their colours: the
board's row and column numbers and the border captions in ``$text-muted``, the panels' borders
and their titles, the chart's axes in ``$foreground`` and its lines and legend in colours of its
own (:data:`~tui.dashboard.widgets.fitness_plot.STYLES`, made for a dark background). Each must
stand out from the theme's ``$background`` by :data:`~tui.dashboard.pictures.contrast.LEGIBLE` (3:1,
as WCAG asks of large text and of what must be seen).

The app's own variable ``$frame`` (:func:`frame_colour`) draws the borders: Textual's
``$panel-lighten-2`` where it stands out enough, else the same colour moved toward
``$foreground`` until it does (``textual-dark``'s borders stood at 2.3:1). What no variable of
the app can mend leaves the theme out (:func:`offered_themes`): the light themes, on which the
chart's lines are pale (1.1 to 2.9:1), and the ANSI themes, whose colours are the terminal's
and cannot be measured.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from textual.color import Color, ColorParseError
from textual.theme import Theme

from tui.dashboard.pictures.contrast import FRAME, LEGIBLE, contrast_ratio
from tui.dashboard.widgets.fitness_plot import STYLES

FRAME_BASE: Final = "panel-lighten-2"
"""Textual's variable the borders took, kept where it is legible."""
FRAME_TARGET: Final = LEGIBLE + 0.1
"""The contrast ``$frame`` is moved to, a little above :data:`LEGIBLE` so that rounding to
whole channel values never takes it below."""
CHECKED: Final = {
    "text-muted": "the board's row and column numbers, the border captions",
    "foreground": "the chart's axes and text",
    FRAME: "the borders and their titles",
    "accent": "the border of the panel that has the focus",
    "success": "the border of a solved board",
}
"""The theme's variables the dashboard draws labels and borders in, and what they draw."""


def _resolve(value: str, background: Color) -> Color:
    """A CSS colour value as drawn on ``background`` (``auto 60%``: the contrasting text colour
    at 60%, as Textual draws it; a colour with alpha: blended over the background)."""
    words = value.split()
    if words and words[0] == "auto":
        alpha = float(words[1].rstrip("%")) / 100 if len(words) > 1 else 1.0
        colour = background.get_contrast_text(alpha)
    else:
        colour = Color.parse(value)
    return background + colour if colour.a < 1 else colour


def _ratio(first: Color, second: Color) -> float:
    return contrast_ratio(first.rgb, second.rgb)


def theme_variables(theme: Theme) -> dict[str, str]:
    """The CSS variables a theme gives (Textual's colour system and the theme's own)."""
    return {**theme.to_color_system().generate(), **theme.variables}


def frame_colour(variables: Mapping[str, str]) -> str:
    """``$frame``: ``$panel-lighten-2``, moved toward ``$foreground`` just enough to stand out
    from ``$background`` by :data:`FRAME_TARGET` (unchanged where it does already, or where the
    colours are the terminal's own and cannot be measured)."""
    base = variables[FRAME_BASE]
    try:
        background = Color.parse(variables["background"])
        frame = _resolve(base, background)
        foreground = _resolve(variables["foreground"], background)
    except ColorParseError:
        return base
    if _ratio(frame, background) >= FRAME_TARGET:
        return base
    for step in range(1, 21):
        moved = frame.blend(foreground, step / 20)
        if _ratio(moved, background) >= FRAME_TARGET:
            return moved.hex
    return foreground.hex


def legibility_problems(variables: Mapping[str, str]) -> list[str]:
    """What a theme's variables (with ``$frame``) would draw below :data:`LEGIBLE`, one line
    each (``chart line best: 1.4:1``); empty where everything is legible."""
    try:
        background = Color.parse(variables["background"])
        colours = {name: _resolve(variables[name], background) for name in CHECKED}
        lines = {name: Color.parse(style.colour) for name, style in STYLES.items()}
    except (ColorParseError, KeyError) as error:
        return [f"colours that cannot be measured: {error}"]
    problems = []
    for name, colour in colours.items():
        ratio = _ratio(colour, background)
        if ratio < LEGIBLE:
            problems.append(f"${name} ({CHECKED[name]}): {ratio:.2f}:1")
    for name, colour in lines.items():
        ratio = _ratio(colour, background)
        if ratio < LEGIBLE:
            problems.append(f"chart line {name}: {ratio:.2f}:1")
    return problems


def dashboard_variables(theme: Theme) -> dict[str, str]:
    """A theme's variables with the app's own (``$frame``)."""
    variables = theme_variables(theme)
    return {**variables, FRAME: frame_colour(variables)}


def is_legible(theme: Theme) -> bool:
    """Whether the dashboard's labels, borders and chart are legible in ``theme``."""
    return not legibility_problems(dashboard_variables(theme))


def offered_themes(themes: Mapping[str, Theme]) -> list[str]:
    """The names of the themes the palette offers and a saved choice may restore, sorted."""
    return sorted(name for name, theme in themes.items() if is_legible(theme))


def left_out(themes: Mapping[str, Theme]) -> Iterable[tuple[str, list[str]]]:
    """The themes not offered, each with what would be illegible in it."""
    for name, theme in sorted(themes.items()):
        problems = legibility_problems(dashboard_variables(theme))
        if problems:
            yield name, problems
