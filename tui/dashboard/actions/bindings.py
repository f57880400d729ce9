"""The main screen's keys as data: one table that the footer, the help screen and the palette read.

Each binding carries an id, its keys, a description and (for help and the palette) a tooltip.
The footer shows those with ``show`` on; help lists every binding with an id
(:func:`help_sections`); the palette offers each as a command
(:func:`tui.dashboard.palette.palette_commands`). Single letters, digits, arrows and named keys
only: chords are lost over SSH.
"""

from __future__ import annotations

from typing import Final

from textual.binding import Binding, BindingType

from tui.dashboard.screens import RaceScreen, SolutionsScreen
from tui.dashboard.screens.ancestry import AncestryScreen
from tui.dashboard.screens.help import described
from tui.dashboard.screens.lessons import LessonsScreen
from tui.dashboard.widgets import ParamForm, PopulationTable

QUIT: Final = Binding("q", "app.quit", "Quit", id="quit")
"""Quits from the main screen, and from the screens where no other dashboard key acts."""

MAIN_BINDINGS: Final[list[BindingType]] = [
    # The footer's word for space: "Run" while paused, "Pause" while running (shorter than
    # both, so that 80 columns keep ^p palette); see footer_says. Not in help nor the palette.
    # The footer shows the first binding of a key that acts: these two come first.
    Binding("space", "toggle_run('run')", "Run"),
    Binding("space", "toggle_run('pause')", "Pause"),
    Binding(
        "space",
        "toggle_run",
        "Run/Pause",
        id="toggle-run",
        show=False,  # the footer says the half that applies now, above
        tooltip="in the past (REPLAY): play the record back from the generation shown",
    ),
    Binding(
        "n",
        "step",
        "Step",
        id="step",
        tooltip="exactly one generation (in the past: the next recorded one)",
    ),
    Binding("r", "new_run", "New", id="new-run", tooltip="start a new run from the form"),
    Binding("f", "focus_form", "Form", id="focus-form", tooltip="edit the parameters"),
    Binding("t", "focus_table", "Table", id="focus-table", tooltip="enter inspects a row"),
    # Out of the footer: it matters while an individual is inspected, and the inspected
    # individual's panel says it then.
    Binding(
        "b", "back_to_best", "Best", id="back-to-best", show=False, tooltip="board shows the best"
    ),
    Binding(
        "plus,equals_sign",
        "faster",
        "Fast",
        key_display="+",
        id="faster",
        # Out of the footer (still in help) so that 80 columns keep `? Help` and `q Quit`.
        show=False,
        tooltip="raise the speed limit",
    ),
    Binding(
        "minus",
        "slower",
        "Slow",
        key_display="-",
        id="slower",
        show=False,
        tooltip="lower the speed limit",
    ),
    Binding(
        "z",
        "zoom",
        "Zoom",
        id="zoom",
        show=False,
        tooltip="large board: overview / full size (arrows scroll)",
    ),
    Binding(
        "s",
        "solutions",
        "All",
        id="solutions",
        tooltip="every solution for the form's N, exactly; space: the GA hunts them too",
    ),
    Binding("x", "race", "Race", id="race", tooltip="the form's GA against a preset"),
    Binding(
        "v",
        "population_view",
        "View",
        id="population-view",
        # Out of the footer, as the other view keys, so that 80 columns keep `? Help`.
        show=False,
        tooltip="board panel: the board / placement map / conflict histogram",
    ),
    Binding("a", "toggle_x_axis", "X axis", id="x-axis", show=False, tooltip="gens / evaluations"),
    Binding(
        "left_square_bracket",
        "back_one",
        "Back",
        key_display="[",
        id="back-one",
        show=False,
        tooltip="one generation back (pauses; the run must be recorded)",
    ),
    Binding(
        "right_square_bracket",
        "forward_one",
        "Fwd",
        key_display="]",
        id="forward-one",
        show=False,
        tooltip="one generation forward",
    ),
    Binding(
        "left_curly_bracket",
        "back_ten",
        "Back 10",
        key_display="{",
        id="back-ten",
        show=False,
        tooltip="ten generations back",
    ),
    Binding(
        "right_curly_bracket",
        "forward_ten",
        "Fwd 10",
        key_display="}",
        id="forward-ten",
        show=False,
        tooltip="ten generations forward",
    ),
    Binding("g", "go_to", "Go to", id="go-to", show=False, tooltip="jump to a generation"),
    Binding(
        "end",
        "go_live",
        "Live",
        id="go-live",
        show=False,
        priority=True,  # the population table would take `end` for itself
        tooltip="back to the live run (in a replay from l: the run that waits behind it)",
    ),
    Binding(
        "p",
        "parent",
        "Parent",
        id="parent",
        show=False,
        tooltip="inspect the board's individual's main parent, in generation g-1 (again: its own)",
    ),
    Binding(
        "P",
        "other_parent",
        "Other parent",
        key_display="P",
        id="other-parent",
        show=False,
        tooltip="inspect the other parent of a crossed child",
    ),
    Binding("d", "child", "Child", id="child", show=False, tooltip="back down to the child"),
    Binding(
        "w",
        "ancestry",
        "Ancestry",
        id="ancestry",
        show=False,
        tooltip="the board's individual's line back to generation 0; best-from-best share",
    ),
    Binding("l", "load_runs", "Runs", id="load-runs", show=False, tooltip="recorded runs"),
    Binding(
        "L",
        "app.lessons",
        "Lessons",
        key_display="L",
        id="lessons",
        show=False,
        tooltip="classic GA results measured beside their formulas, as a slideshow",
    ),
    Binding("e", "export", "Export", id="export", show=False, tooltip="history CSV + screen SVG"),
    Binding(
        "c",
        "toggle_y_axis",
        "Chart",
        id="y-axis",
        show=False,
        tooltip="fitness / conflicts / diversity explained",
    ),
    Binding(
        "i",
        "toggle_pressure",
        "Pressure",
        id="selection-pressure",
        show=False,
        tooltip="chart: selection intensity and the share picked by no one, beside theory",
    ),
    Binding("question_mark", "help", "Help", key_display="?", id="help"),
    QUIT,
    Binding("escape", "leave_form", "Leave form", id="leave-form"),
]
"""Every key of the main screen, in the order the footer and help show them."""

TRAVEL_ACTIONS: Final = frozenset(
    {"back_one", "back_ten", "forward_one", "forward_ten", "go_to", "go_live"}
)
"""The time-travel keys' actions: in the form, their keys are the form's."""


def footer_says(parameters: tuple[object, ...], state: str) -> bool:
    """Whether the footer's space binding with these parameters (``'run'`` or ``'pause'``)
    is the one to show in run state ``state``."""
    return (parameters[0] == "pause") == (state == "running")


def help_sections() -> list[tuple[str, list[Binding]]]:
    """The help screen's sections: a title and the documented bindings of each part."""
    return [
        ("Everywhere", described(MAIN_BINDINGS)),
        ("Population table", described(PopulationTable.BINDINGS)),
        ("Form (f)", described(ParamForm.BINDINGS)),
        ("Solutions screen (s)", described(SolutionsScreen.BINDINGS)),
        ("Race screen (x)", described(RaceScreen.BINDINGS)),
        ("Ancestry screen (w)", described(AncestryScreen.BINDINGS)),
        ("Lessons screen (L)", described(LessonsScreen.BINDINGS)),
    ]


def help_notes(run_command: str | None) -> list[tuple[str, str]]:
    """The lines help shows before the keys: the command that reruns the run (if there is a
    run), and the palette."""
    notes = [("ctrl+p", "command palette: every action, presets, themes, screenshot")]
    if run_command is not None:
        notes.insert(0, ("This run", f"reruns bit for bit: {run_command}"))
    return notes
