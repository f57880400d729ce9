"""The main screen's keys that walk the run's past and an individual's family, handed on.

The screen's actions must be its own methods (its bindings name them), but what they do lives
in its named parts: the travel keys (:class:`~tui.dashboard.actions.travel_keys.TravelKeys`)
and the origin keys (:class:`~tui.dashboard.actions.origin_keys.OriginKeys`). This mixin holds
the actions that only hand a key on to them, so the screen's own module keeps to its layout,
its run and its views.
"""

from __future__ import annotations

from tui.dashboard.actions.origin_keys import OriginKeys
from tui.dashboard.actions.travel_keys import BIG_STEP, TravelKeys


class PastAndFamilyKeys:
    """The main screen's travel keys (a generation back or on, ten back or on, go to) and
    origin keys (parent, other parent, child, ancestry)."""

    travel_keys: TravelKeys
    """Time travel: set by the screen when it is mounted."""
    origin_keys: OriginKeys
    """Where an individual came from: set by the screen when it is mounted."""

    def action_back_one(self) -> None:
        """One generation back (pauses the run)."""
        self.travel_keys.move(-1)

    def action_back_ten(self) -> None:
        """Ten generations back (pauses the run)."""
        self.travel_keys.move(-BIG_STEP)

    def action_forward_one(self) -> None:
        """One generation forward (past the record's end: the live run)."""
        self.travel_keys.move(1)

    def action_forward_ten(self) -> None:
        """Ten generations forward (past the record's end: the live run)."""
        self.travel_keys.move(BIG_STEP)

    def action_go_to(self) -> None:
        """Ask for a generation and jump to it."""
        self.travel_keys.go_to()

    def action_parent(self) -> None:
        """Inspect the main parent of the individual on the board (generation g - 1)."""
        self.origin_keys.parent()

    def action_other_parent(self) -> None:
        """Inspect the other parent of the individual on the board."""
        self.origin_keys.parent(other=True)

    def action_child(self) -> None:
        """Back down to the child the parent key stepped up from."""
        self.origin_keys.child()

    def action_ancestry(self) -> None:
        """The line of the individual on the board back to generation 0."""
        self.origin_keys.ancestry()
