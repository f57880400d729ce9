"""The dashboard: a Textual app over the engine's snapshot stream.

The app holds what concerns the whole app: the theme kept between sessions, the command palette,
the stack of screens (over the solutions and race screens only quitting acts) and the screen
that says the terminal is too small. The run and its views are the main screen's
(:class:`~tui.dashboard.main_screen.MainScreen`): the engine steps in a thread worker, the
screen keeps the latest snapshot and repaints from it on a timer, so it stays calm however fast
the engine goes. Everything is reachable with single keys.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import ClassVar, Final

from textual.app import App
from textual.binding import BindingType
from textual.command import Provider
from textual.events import Resize
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import AwaitMount

from engine import Config
from tui.dashboard.actions.bindings import QUIT
from tui.dashboard.main_screen import MainScreen
from tui.dashboard.palette import DashboardCommands
from tui.dashboard.screens import RaceScreen, SolutionsScreen
from tui.dashboard.screens.too_small import TooSmallScreen
from tui.dashboard.settings import load_settings, save_setting
from tui.dashboard.showcase import SHOWCASE, SHOWCASE_SPEED

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
"""The smallest terminal that shows board, fitness and table together."""


class QueensApp(App[None]):
    """Watch, steer and compare genetic algorithms on the N-Queens puzzle.

    Args:
        config: Prefills the form (``None``: the showcase run, :mod:`tui.dashboard.showcase`,
            at its opening speed limit).
        ascii: Draw queens as ``Q``/``X`` instead of chess symbols.
        frozen_clock: Hide wall-clock figures, for reproducible screenshots and tests.
        record: Record runs in the run store (the form's toggle starts so).
        store: The run store's path (``None``: ``$QUEENS_STORE`` or the user data folder).
        replay: Open on this recorded run (an id, or a run file's path) in time travel.
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
        frozen_clock: bool = False,
        record: bool = False,
        store: str | None = None,
        replay: int | str | None = None,
    ) -> None:
        super().__init__()
        self.initial_config = config if config is not None else SHOWCASE
        """The config the form starts with."""
        self.opening_speed = None if config is not None else SHOWCASE_SPEED
        """The showcase's speed limit, or ``None`` (unlimited) for a config given."""
        self._main_screen = partial(
            MainScreen,
            self.initial_config,
            opening_speed=self.opening_speed,
            ascii=ascii,
            frozen_clock=frozen_clock,
            record=record,
            store=store,
            replay=replay,
        )
        self._mounted = False

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
        if isinstance(self.screen, (SolutionsScreen, RaceScreen, TooSmallScreen)):
            return action == "quit"
        return True

    def _restore_theme(self) -> None:
        """The theme of the last session, then keep each change for the next."""
        theme = load_settings().get("theme")
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._keep_theme)

    def _keep_theme(self, theme: Theme) -> None:
        problem = save_setting("theme", theme.name)
        if problem is not None:
            self.notify(f"The theme is not kept: {problem}", severity="warning", timeout=5)
