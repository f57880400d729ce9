"""Another operator for the dashboard's paused run: checked, loaded, and kept in its record.

No Textual here. Two ways in, both from the palette: ``Reload plug-ins`` reads each plug-in
file the run names again and swaps in those that changed; ``Plug-in X from a file`` swaps in
the function it is given (and chooses it in the form) when the run is paused. Either way the
new operator goes through the checks of a run's start
(:meth:`engine.GeneticAlgorithm.swap_operator`); a refusal is said in one line and leaves the
run as it was. Under ``queens serve`` a plug-in file is read only as the server allows
(``--allow-plugins``), so the same refusal comes from there.

The swap is made between two of the engine thread's turns, and kept in the run's record from
the next generation on (:meth:`~tui.dashboard.runs.recording.DashboardRecording.note_swap`).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Final, Protocol

from engine import (
    ConfigError,
    GeneticAlgorithm,
    PluginError,
    is_plugin_name,
    pinned_name,
    plugin_label,
)
from tui.dashboard.runs.current_run import CurrentRun
from tui.dashboard.runs.recording import DashboardRecording
from tui.dashboard.runs.time_travel import TimeTravel

NOT_PAUSED: Final = "Pause the run first (space): its operators are swapped while it is paused."
IN_THE_PAST: Final = "Back to the live run first (end): its operators are swapped there."
NOTHING_CHANGED: Final = "No plug-in file of this run has changed since it was loaded."


class SteppedRuns(Protocol):
    """The engine runner, as a swap sees it."""

    @property
    def algorithm(self) -> GeneticAlgorithm | None:
        """The current run."""

    def between_turns(self) -> AbstractContextManager[tuple[GeneticAlgorithm, ...]]:
        """The runs, held between two of the engine thread's turns."""


@dataclass(frozen=True)
class SwapResult:
    """What a swap did, as the notice says it.

    Attributes:
        words: One line for the notice.
        refused: Whether the run was left as it was.
        seconds: The check, the load and the recording, measured.
    """

    words: str
    refused: bool
    seconds: float = 0.0


class OperatorSwaps:
    """Swaps the operators of the main screen's paused run.

    Args:
        run: The run shown (its state).
        runner: Steps the run in a thread.
        recording: Records the run.
        travel: The past generation shown, if any.
    """

    def __init__(
        self,
        run: CurrentRun,
        runner: SteppedRuns,
        recording: DashboardRecording,
        travel: TimeTravel,
    ) -> None:
        self.run = run
        self.runner = runner
        self.recording = recording
        self.travel = travel

    def refusal(self) -> str | None:
        """Why the run cannot take another operator now, or ``None`` when it can."""
        if self.travel.active:
            return IN_THE_PAST
        if self.run.state != "paused" or self.runner.algorithm is None:
            return NOT_PAUSED
        return None

    def swap(self, field: str, value: str) -> SwapResult:
        """Give the paused run ``value`` as its ``field`` operator from its next generation on.

        Args:
            field: ``selection``, ``crossover``, ``mutation`` or ``survivor``.
            value: A built-in's name or ``file.py:function`` (read now).
        """
        refusal = self.refusal()
        if refusal is not None:
            return SwapResult(refusal, refused=True)
        with self.runner.between_turns() as algorithms:
            algorithm = algorithms[0]
            started = time.perf_counter()
            try:
                algorithm.swap_operator(field, value)
            except ConfigError as error:
                return SwapResult(str(error), refused=True)
            run_id = self.recording.note_swap(algorithm, field)
            if run_id is not None and self.travel.timeline is not None:
                self.travel.timeline.refresh()  # time travel re-steps across the swap
            seconds = time.perf_counter() - started
            coming = algorithm.snapshot.generation + 1
            if self.run.first_swap is None:
                self.run.first_swap = coming  # its rerun line is its record's (or stops here)
            now = getattr(algorithm.config, field)
        shown = plugin_label(now) if is_plugin_name(now) else now
        kept = f", kept in run {run_id}'s record" if run_id is not None else ""
        words = f"{field}: {shown} from generation {coming:,} on{kept}"
        return SwapResult(words, refused=False, seconds=seconds)

    def reload(self) -> list[SwapResult]:
        """Read every plug-in file the paused run names again, and swap in each that changed.

        Returns:
            One result per plug-in file changed (or gone, or refused), or a single one saying
            that nothing changed.
        """
        refusal = self.refusal()
        algorithm = self.runner.algorithm
        if refusal is not None or algorithm is None:
            return [SwapResult(refusal or NOT_PAUSED, refused=True)]
        results: list[SwapResult] = []
        for field, value in _plugin_fields(algorithm).items():
            shown = value.rpartition("@")[0]
            try:
                changed = pinned_name(shown) != value
            except PluginError as error:
                # Gone, unreadable, or not allowed here: the run keeps the source it has.
                words = f"{field}: {error}; the run keeps the source it was loaded with"
                results.append(SwapResult(words, refused=True))
                continue
            if changed:
                results.append(self.swap(field, shown))
        return results or [SwapResult(NOTHING_CHANGED, refused=False)]


def _plugin_fields(algorithm: GeneticAlgorithm) -> dict[str, str]:
    """The run's operator fields that name a plug-in, with their (pinned) names."""
    config = algorithm.config
    fields = ("selection", "crossover", "mutation", "survivor", "fitness")
    return {
        field: value
        for field in fields
        if isinstance(value := getattr(config, field), str) and is_plugin_name(value)
    }
