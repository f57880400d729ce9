"""The dashboard: a Textual app over the engine's snapshot stream.

The app holds what concerns the whole app: the theme kept between sessions, the command palette,
the stack of screens (over the solutions and race screens only quitting acts) and the screen
that says the terminal is too small. The run and its views are the main screen's
(:class:`~tui.dashboard.main_screen.MainScreen`): the engine steps in a thread worker, the
screen keeps the latest snapshot and repaints from it on a timer, so it stays calm however fast
the engine goes. Everything is reachable with single keys.

The app also fits the terminal: in ASCII mode (``--ascii``, or a locale that is not UTF-8:
:mod:`tui.dashboard.terminal`) every character it sends goes through
:class:`~tui.dashboard.ascii_filter.AsciiFilter`, and the app carries the ``-ascii`` class for
the widgets' own ASCII wording; where Textual draws in 16 colours it carries
``-sixteen-colours``, whose rules in ``app.tcss`` keep headers and keys readable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, ClassVar, Final, Literal, cast

from textual.app import App
from textual.binding import BindingType
from textual.command import Provider
from textual.events import Event, Key, Resize
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import AwaitMount
from textual.widgets import Input

from engine import Config
from tui.dashboard.actions.bindings import QUIT
from tui.dashboard.ascii_filter import AsciiFilter
from tui.dashboard.files.settings import load_settings, save_setting
from tui.dashboard.main_screen import MainScreen
from tui.dashboard.palette import DashboardCommands, DashboardPalette
from tui.dashboard.pictures.contrast import FRAME
from tui.dashboard.repeated_notices import RepeatedNotices
from tui.dashboard.runs.showcase import SHOWCASE, SHOWCASE_SPEED
from tui.dashboard.runs.stop_rule import with_stop_rule
from tui.dashboard.screens import RaceScreen, SolutionsScreen
from tui.dashboard.screens.lessons import LessonsScreen
from tui.dashboard.screens.race_choice import RaceChoice
from tui.dashboard.screens.too_small import TooSmallScreen
from tui.dashboard.terminal import ASCII_CLASS, SIXTEEN_COLOURS_CLASS
from tui.dashboard.theme_legibility import frame_colour, offered_themes
from tui.lab.lessons.landscape import LARGEST_N as LANDSCAPE_LARGEST_N

PRESET_SPEED: Final = "preset"
"""Open at the speed of the run's preset: the showcase's when no config is given, else
unlimited (the command line knows the preset a config came from and passes its speed)."""

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
"""The smallest terminal that shows board, fitness and table together."""


class QueensApp(App[None]):
    """Watch, steer and compare genetic algorithms on the N-Queens puzzle.

    Args:
        config: Prefills the form (``None``: the showcase run, :mod:`tui.dashboard.runs.showcase`,
            at its opening speed limit, with the dashboard's stop rule,
            :mod:`tui.dashboard.runs.stop_rule`).
        ascii: Draw ASCII only: borders, charts, marks and the board.
        colours: The colours the terminal is drawn in, as
            :func:`~tui.dashboard.terminal.colour_count` finds them (the command line passes
            them); 16 or fewer restyle what would be unreadable. ``None``: full colour, the
            same look in every environment (tests, screenshots).
        frozen_clock: Hide wall-clock figures, for reproducible screenshots and tests.
        record: Record runs in the run store (the form's toggle starts so).
        store: The run store's path (``None``: ``$QUEENS_STORE`` or the user data folder).
        replay: Open on this recorded run (an id, or a run file's path) in time travel.
        label: The label of the runs it records (``queens tui --label``), or ``None``.
        speed: The speed limit to open with, in generations per second (``None``:
            unlimited; :data:`PRESET_SPEED`: the showcase's without a config, else unlimited).
        record_budget: Bytes each run's record may take (``None``: the default, 64 MB).
    """

    CSS_PATH = "app.tcss"
    TITLE = "Queens GA lab"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {DashboardCommands}
    """Ctrl+p (a plain control character, so it works over SSH): every action, the presets,
    themes, a screenshot."""

    BINDINGS: ClassVar[list[BindingType]] = [QUIT]
    """The main screen has every other key; over the other screens only quitting stays."""

    main_screen: MainScreen
    """The screen of the run (the first on the stack, set when the app starts)."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        ascii: bool = False,
        colours: int | None = None,
        frozen_clock: bool = False,
        record: bool = False,
        store: str | None = None,
        replay: int | str | None = None,
        label: str | None = None,
        speed: float | Literal["preset"] | None = PRESET_SPEED,
        record_budget: int | None = None,
    ) -> None:
        super().__init__()
        self.ascii = ascii
        """Every character drawn is ASCII."""
        self.colours = colours
        """The colours the terminal is drawn in (``None``: full colour)."""
        self._ascii_filter = AsciiFilter()
        self.set_class(ascii, ASCII_CLASS, update=False)
        self.set_class(colours is not None and colours <= 16, SIXTEEN_COLOURS_CLASS, update=False)
        self.initial_config = config if config is not None else with_stop_rule(SHOWCASE)
        """The config the form starts with."""
        if isinstance(speed, str):  # PRESET_SPEED
            speed = None if config is not None else SHOWCASE_SPEED
        self.opening_speed: float | None = speed
        """The speed limit the run opens with (``None``: unlimited)."""
        self._main_screen = partial(
            MainScreen,
            self.initial_config,
            opening_speed=self.opening_speed,
            ascii=ascii,
            frozen_clock=frozen_clock,
            record=record,
            store=store,
            replay=replay,
            label=label,
            record_budget=record_budget,
        )
        self._mounted = False
        self._notices = RepeatedNotices()

    @property
    def unmapped_characters(self) -> set[str]:
        """Characters drawn as ``?`` in ASCII mode: none while every glyph has a translation."""
        return self._ascii_filter.unmapped

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A notice, unless the same one is on show already (:mod:`.repeated_notices`)."""
        shown_for = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        if self._notices.on_show((message, title, severity), shown_for):
            return
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    async def on_event(self, event: Event) -> None:
        """A character typed ahead of the field it was meant for goes into that field.

        A key that opens a field (``g``'s generation prompt, ``f``'s form, ``e``'s folder)
        acts once its event has come back up to the app; the keys typed right after it had
        gone by then to what had the focus before, and come back up here, past the field
        that now has it, to be looked up among the keys (``q`` would quit). A character is
        sent to the field instead, in order, behind its focus (which selects what the field
        holds, as for keys typed later; a field stops every character, so none comes back).
        An Enter among them acts on the field through its binding: what it asks for reads
        the field when it is handled, after them."""
        if isinstance(event, Key) and event.is_forwarded and event.is_printable:
            field = self.screen.focused
            if isinstance(field, Input):
                field.post_message(Key(event.key, event.character))
                return
        await super().on_event(event)

    def end_record(self) -> None:
        """End the run's record now, from any thread (the process is about to end without
        the app closing: its terminal hung up and the app did not close in time)."""
        if self._mounted:
            self.main_screen.recording.end()

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, and in ASCII mode the one that makes every character ASCII."""
        filters = super().get_line_filters()
        return [*filters, self._ascii_filter] if self.ascii else filters

    def action_lessons(self) -> None:
        """Open the lessons (``L``): classic GA results measured beside their formulas, the
        live run's population placed on the landscape when it fits there."""
        self.push_screen(LessonsScreen(live=self._landscape_population))

    def _landscape_population(self) -> Any:
        """The live run's latest population, if it is permutations of at most 9 queens."""
        latest = self.main_screen.run.latest
        if latest is None or latest.encoding != "permutation" or latest.n > LANDSCAPE_LARGEST_N:
            return None
        return latest.population

    def action_command_palette(self) -> None:
        """Open the palette, with a prompt every terminal and browser can draw."""
        if self.use_command_palette and not DashboardPalette.is_open(cast(App[object], self)):
            self.push_screen(DashboardPalette(id="--command-palette"))

    def get_default_screen(self) -> Screen[None]:
        """The main screen, on the initial config."""
        self.main_screen = self._main_screen()
        return self.main_screen

    async def on_mount(self) -> None:
        """Restore the theme; say so at once if the terminal is too small."""
        # The main screen mounts in a task of its own: it is set up before anything covers it.
        await AwaitMount(self.main_screen, [self.main_screen])
        self._mounted = True
        self._restore_theme()
        self._fit_terminal(self.size.width, self.size.height)

    def on_resize(self, event: Resize) -> None:
        """Fit the main screen to the terminal; say so when it is too small."""
        if self._mounted:
            self.main_screen.fit_layout(event.size.width, event.size.height)
            self._fit_terminal(event.size.width, event.size.height)

    def _fit_terminal(self, width: int, height: int) -> None:
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        screen = self.screen
        if too_small and isinstance(screen, TooSmallScreen):
            screen.show_size(width, height)
        elif too_small:
            self.push_screen(TooSmallScreen(width, height, MIN_WIDTH, MIN_HEIGHT))
        elif isinstance(screen, TooSmallScreen):
            self.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """On the solutions and race screens, and while the terminal is too small, the app's
        keys (the palette, for one) would act on a run out of sight, so only quitting stays."""
        if isinstance(self.screen, (SolutionsScreen, RaceScreen, RaceChoice, TooSmallScreen)):
            return action == "quit"
        return True

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables and the app's own: ``$frame``, the panels' borders, legible in
        every theme offered (:mod:`~tui.dashboard.theme_legibility`)."""
        variables = super().get_css_variables()
        variables[FRAME] = frame_colour(variables)
        self.theme_variables = variables
        return variables

    @property
    def offered_themes(self) -> list[str]:
        """The themes the palette offers: those in which the board's labels, the borders and
        the chart are legible (:func:`~tui.dashboard.theme_legibility.offered_themes`)."""
        return offered_themes(self.available_themes)

    def _restore_theme(self) -> None:
        """The theme of the last session (if it is still offered), then keep each change for
        the next."""
        theme = load_settings().get("theme")
        if theme in self.offered_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._keep_theme)

    def _keep_theme(self, theme: Theme) -> None:
        problem = save_setting("theme", theme.name)
        if problem is not None:
            self.notify(f"The theme is not kept: {problem}", severity="warning", timeout=5)
