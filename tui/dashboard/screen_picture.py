"""A picture of the screen as the dashboard shows it, without the notifications over it.

Textual's ``export_screenshot`` renders whatever the screen's compositor holds, the toasts of
the moment included: an exported SVG would keep "Solved at generation 126" or the export's own
last message over the board for good. The notifications' rack is hidden, the screen laid out
once without it, the picture taken, and the rack shown again: the toasts still on show come
back as they were (their timers run on).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from textual.app import App
from textual.css.query import NoMatches

TOAST_RACK: Final = "textual-toastrack"
"""The id of a screen's container of notifications (Textual's ``ToastRack``)."""
HIDING_TRIES: Final = 60
"""Refreshes to wait at most for one laid out without the notifications (a screen closing and
a notice posted as the export ends each show the rack again; on a loaded machine ten refreshes
were seen not to be enough)."""


def take_screen_picture(app: App[Any], then: Callable[[str], None]) -> None:
    """Take an SVG of the screen without its notifications, then call ``then`` with it.

    With notifications on show, the rack is hidden and the picture taken once the screen has
    been laid out without it (after a refresh), so ``then`` runs later; else at once. Textual
    shows the rack again whenever the notifications change (one expires, one is posted, a
    screen closes: the rack's ``show`` sets its ``display``); if that happened before the
    picture, it is hidden again and the picture waits for another refresh.
    """
    screen = app.screen
    try:
        rack = screen.get_child_by_id(TOAST_RACK)
    except NoMatches:
        then(app.export_screenshot())
        return
    if not rack.children:
        then(app.export_screenshot())
        return

    def hide(tries: int) -> None:
        rack.display = False
        screen.refresh(layout=True)  # laid out before the callback, not after
        screen.call_after_refresh(take, tries)

    def take(tries: int) -> None:
        if rack.display and tries < HIDING_TRIES:  # shown again meanwhile
            hide(tries + 1)
            return
        try:
            picture = app.export_screenshot()
        finally:
            rack.display = bool(rack.children)  # those that timed out meanwhile are gone
        then(picture)

    hide(1)
