"""The live run, kept behind a replay: ``l`` never ends it, ``end`` comes back to it.

A teacher replays an old run from the list (``l``, ``enter``) to compare it with the one on
screen, and wants the one on screen back afterwards. So replaying while a run is live does not
end it: its engine is taken off the runner as it stands (paused), its record stays open, and
what the screen showed of it (chart series, state, status line, the form's config) is kept
here. ``end`` in the replay brings it back at the generation it had reached, its record
attached again for time travel; ``space`` goes on. A new run (``r``) or a continued one
(``l``, ``c``) replaces it, as it replaces any run.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import GeneticAlgorithm
from tui.dashboard.run_control import RunControl
from tui.dashboard.runs.current_run import RunState
from tui.dashboard.runs.history_series import HistorySeries
from tui.dashboard.widgets import ParamForm, StatusLine
from tui.lab.store import RunStore


@dataclass
class ParkedRun:
    """A live run set aside while a record is replayed.

    Attributes:
        algorithms: The runner's runs, as they stood (paused).
        state: The run's state (``paused``, ``solved``...).
        series: The chart's history of it.
        stop_reason: What the status line said of how it stopped.
        run_label: The status line's ``run 12``.
        record: The store and id of its record, if it is recorded.
        speed_limit: The runner's speed limit (a replay may change it).
    """

    algorithms: tuple[GeneticAlgorithm, ...]
    state: RunState
    series: HistorySeries
    stop_reason: str | None
    run_label: str | None
    record: tuple[RunStore, int] | None
    speed_limit: float | None

    @property
    def generation(self) -> int:
        """The generation the run had reached."""
        return self.algorithms[0].snapshot.generation

    @classmethod
    def park(cls, run_control: RunControl, status: StatusLine) -> ParkedRun | None:
        """Take the live run off the runner, paused, keeping its record open; ``None`` when
        there is no live run (none yet, or a replay is shown)."""
        runner = run_control.runner
        travel = run_control.travel
        if not runner.algorithms or travel.replay_only:
            return None
        run_control.pause()
        run = run_control.run
        timeline = travel.timeline
        parked = cls(
            algorithms=runner.algorithms,
            state="paused" if run.state == "running" else run.state,
            series=run.series,
            stop_reason=status.stop_reason,
            run_label=status.run_label,
            record=None if timeline is None else (timeline.store, timeline.run_id),
            speed_limit=runner.speed_limit,
        )
        runner.stop()
        runner.algorithms = ()
        return parked

    def restore(self, run_control: RunControl, status: StatusLine, form: ParamForm) -> None:
        """Show the run again where it was, paused, its record attached for time travel."""
        runner = run_control.runner
        travel = run_control.travel
        if self.record is None:
            travel.detach()
        else:
            travel.attach(*self.record, replay_only=False)
        algorithm = self.algorithms[0]
        runner.set_speed(self.speed_limit)
        runner.start_all(
            [run.config for run in self.algorithms], run=False, algorithms=self.algorithms
        )
        form.fill(algorithm.config)
        run = run_control.run
        run.latest = algorithm.snapshot
        run.inspected = None
        run.series = self.series
        run.move_to(self.state)
        status.stop_reason = self.stop_reason
        status.run_label = self.run_label
        status.note = None
        painter = run_control.painter
        painter.reset()
        painter.repaint(force=True)
