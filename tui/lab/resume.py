"""Continuing a recorded run, in the same record, exactly as if it had never stopped.

The run is re-stepped from its last keyframe to its last recorded generation, and each
re-stepped generation is checked against the record (after a SIGKILL the record runs past the
last keyframe). Then a new budget, if any, is applied and recording goes on in the same run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Config, GeneticAlgorithm
from tui.lab.engine_state import HISTORY_LIMIT, StateError, capture, restore
from tui.lab.record_budget import RECORD_BUDGET
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore, StoreError
from tui.lab.swapped_operators import config_making
from tui.lab.timeline import BUDGET_FIELDS, RecordMismatch, Timeline
from tui.lab.writer_process import Writer


class RunSolved(StoreError):
    """The run was solved and stops when solved: there is nothing to continue.

    Attributes:
        run_id: The run.
        generation: The generation it was solved in (its last recorded one).
    """

    def __init__(self, run_id: int, generation: int) -> None:
        super().__init__(
            f"run {run_id} is solved (at generation {generation:,}): there is nothing to "
            f"resume; queens show {run_id} prints it"
        )
        self.run_id = run_id
        self.generation = generation


@dataclass
class Resumed:
    """A run ready to continue.

    Attributes:
        algorithm: The run, at its last good recorded generation, with its (new) budget.
        recorder: Records what comes next into the same run.
        restepped: Generations re-stepped from the keyframe to reach the record's end.
        mismatch: The first re-stepped generation that differed from the record (the record
            from there on was replaced), or ``None`` when all matched.
        damaged_keyframes: Keyframes set aside as unusable, by generation, with why (the run
            was re-stepped from an earlier one).
    """

    algorithm: GeneticAlgorithm
    recorder: Recorder
    restepped: int
    mismatch: RecordMismatch | None
    damaged_keyframes: dict[int, str] = field(default_factory=dict)


def resume(
    store: RunStore,
    run_id: int,
    budget: dict[str, Any] | None = None,
    *,
    whole_history: bool = False,
    record_budget: int = RECORD_BUDGET,
) -> Resumed:
    """Prepare a stopped or interrupted run to continue, recorded in the same run.

    Args:
        store: The store holding the run.
        run_id: The run.
        budget: New values of the budget fields (``generations``, ``max_evals``,
            ``time_limit``, ``stagnation``) given on the command line.
        whole_history: Give the resumed run every recorded generation's statistics in RAM
            (the dashboard charts them; the run then keeps as many as there were, the oldest
            let go as it goes on); else only the latest ones, the rest being in the store.
        record_budget: Bytes the record may take (see :mod:`tui.lab.record_budget`).

    Raises:
        RunSolved: The run is solved and stops when solved (a :class:`StoreError`).
        StoreError: No such run, recorded by a live process right now, a damaged record, or
            a budget that stops the run at once.
        ConfigError: A bad budget value.
    """
    budget = dict(budget or {})
    unknown = set(budget) - set(BUDGET_FIELDS)
    if unknown:
        raise ValueError(f"budget: {sorted(unknown)} are not budget fields")
    info = store.run(run_id)
    if info.solved and info.config.get("stop_when_solved", True) and not info.writer_alive:
        raise RunSolved(run_id, info.generations)
    timeline = Timeline(store, run_id)
    info = timeline.info
    if info.writer_alive:
        raise StoreError(f"run {run_id} is being recorded by another process right now")
    started = Config.from_mapping({**info.config, **budget})  # the budget checked
    last = info.generations
    mismatch: RecordMismatch | None = None
    try:
        algorithm = timeline.algorithm_at(last)
    except RecordMismatch as error:
        mismatch = error
        algorithm = timeline.algorithm_at(error.generation - 1)
    at = algorithm.snapshot.generation
    keyframes = store.keyframe_generations(run_id)
    used = (g for g in keyframes if g <= at and g not in timeline.damaged)
    restepped = at - max(used, default=at)
    state = capture(algorithm)
    # The operators that make the next generation: the starting ones, or those swapped in.
    config = Config.from_mapping({**config_making(info.config, info.swaps, at + 1), **budget})
    state["config"] = config.to_dict()
    # Just captured from a checked run, so its digest may go: the computing time goes on from
    # the record's (re-stepping took its own), and the dashboard gets the recorded history.
    state.pop("digest", None)
    recorded = store.stats(run_id, 0 if whole_history else at, at + 1)
    if len(recorded["elapsed"]):
        state["elapsed"] = float(recorded["elapsed"][-1])
    limit: int | None = HISTORY_LIMIT
    if whole_history:
        state["history"] = recorded
        limit = max(HISTORY_LIMIT, len(recorded["generation"]))
    try:
        algorithm = restore(state, history_limit=limit)
    except StateError as error:
        raise StoreError(f"run {run_id}: {error}") from None
    if not algorithm.has_next():
        raise StoreError(
            f"run {run_id} stopped at generation {at} ({algorithm.snapshot.stop_reason}) and "
            "would stop again at once: give it a larger budget (--generations, --max-evals, "
            "--stagnation, --time-limit)"
        )
    store.claim_run(run_id, Writer.this_process(), config=started.to_dict())
    if mismatch is not None:
        store.truncate_run(run_id, at)
    recorder = Recorder(store, algorithm, run_id=run_id, record_budget=record_budget)
    return Resumed(algorithm, recorder, restepped, mismatch, dict(timeline.damaged))
