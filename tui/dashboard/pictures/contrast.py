"""Contrast between two colours, as WCAG 2 measures it: no Textual here.

The ratio of the lighter colour's relative luminance plus 0.05 to the darker one's, from 1 (the
same) to 21 (black on white). WCAG asks 4.5 of body text, 3 of large text and of the parts of
an interface that must be seen (borders, a chart's lines): the dashboard asks 3 of its labels,
borders and chart in every theme it offers (:mod:`tui.dashboard.theme_legibility`).
"""

from __future__ import annotations

from typing import Final

RGB = tuple[int, int, int]
"""A colour as red, green and blue, 0 to 255."""

LEGIBLE: Final = 3.0
"""The contrast the dashboard asks of labels, borders and the chart's lines against their
background."""
FRAME: Final = "frame"
"""The app's CSS variable for the panels' borders (and so their titles)."""


def _linear(channel: int) -> float:
    """An sRGB channel (0-255) as linear light (0-1)."""
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: RGB) -> float:
    """WCAG's relative luminance: 0 for black, 1 for white."""
    red, green, blue = colour
    return 0.2126 * _linear(red) + 0.7152 * _linear(green) + 0.0722 * _linear(blue)


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG's contrast ratio between two colours, in either order: 1 to 21."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)))[::-1]
    return (lighter + 0.05) / (darker + 0.05)
