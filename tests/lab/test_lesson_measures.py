"""The lessons' measurements against slow references computed from the engine's own arrays,
and each lesson's document in the shape the JSON promises."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from engine import GeneticAlgorithm
from tui.lab.lessons import hill_climbing
from tui.lab.lessons.catalog import LESSONS
from tui.lab.lessons.drift import measure_drift
from tui.lab.lessons.founders import measure_founders
from tui.lab.lessons.runner import InProcess, lesson_document
from tui.lab.lessons.runs import checked, column_diversity, neutral
from tui.lab.lessons.takeover import measure_takeover, takeover_fields


def slow_column_diversity(population: np.ndarray) -> float:
    size, n = population.shape
    values = []
    for column in range(n):
        counts = Counter(population[:, column].tolist())
        values.append(1.0 - sum((c / size) ** 2 for c in counts.values()))
    return sum(values) / n


def test_column_diversity_is_the_mean_gini_simpson_index_of_the_columns() -> None:
    rng = np.random.default_rng(5)
    for size, n in ((1, 4), (7, 8), (40, 8), (33, 13)):
        population = np.array([rng.permutation(n) for _ in range(size)])
        assert column_diversity(population, n) == pytest.approx(slow_column_diversity(population))
    same = np.tile(np.arange(8), (10, 1))
    assert column_diversity(same, 8) == 0.0


def test_drift_measures_each_generation_of_the_run() -> None:
    fields = neutral(30)
    measured = measure_drift(fields, 4, 12)["diversity"]
    algorithm = GeneticAlgorithm(checked(fields, 4), lineage=False)
    reference = [slow_column_diversity(algorithm.snapshot.population)]
    reference += [slow_column_diversity(algorithm.step().population) for _ in range(12)]
    assert measured == pytest.approx(reference)


def test_takeover_counts_the_copies_of_the_best_board() -> None:
    fields = takeover_fields(50, {"selection": "tournament", "tournament_size": 2}, 1)
    measured = measure_takeover(fields, 9)
    algorithm = GeneticAlgorithm(checked(fields, 9), lineage=False)
    best = tuple(algorithm.snapshot.population[0].tolist())
    reference = [sum(tuple(row) == best for row in algorithm.snapshot.population.tolist())]
    while 0 < reference[-1] < 50:
        rows = algorithm.step().population.tolist()
        reference.append(sum(tuple(row) == best for row in rows))
    assert measured["copies"] == reference
    assert measured["generations"] == len(reference) - 1
    assert not measured["lost"]


def test_founders_follow_every_line_back_to_generation_zero() -> None:
    fields = neutral(12)
    measured = measure_founders(fields, 2)
    # By hand: each individual's founder, one parent at a time, from the lineage's parents;
    # and each child is a copy of the parent its lineage names.
    algorithm = GeneticAlgorithm(checked(fields, 2), lineage=True)
    founder = list(range(12))
    left = [12]
    previous = algorithm.snapshot.population
    while left[-1] > 1:
        snapshot = algorithm.step()
        parents = snapshot.lineage.parents
        for child in range(12):
            assert (snapshot.population[child] == previous[parents[child, 0]]).all()
        founder = [founder[int(parents[child, 0])] for child in range(12)]
        left.append(len(set(founder)))
        previous = snapshot.population
    assert measured["founders"] == left
    assert measured["generations"] == len(left) - 1


def test_steady_state_founders_count_generations_of_p_births() -> None:
    fields = neutral(10, survivor="genitor")
    measured = measure_founders(fields, 5)
    # By hand: a member not replaced keeps its founder; a child takes its parent's.
    algorithm = GeneticAlgorithm(checked(fields, 5), lineage=True)
    founder = list(range(10))
    steps = 0
    while len(set(founder)) > 1:
        lineage = algorithm.step().lineage
        founder = [founder[int(lineage.parents[row, 0])] for row in range(10)]
        steps += 1
    assert measured["steps"] == steps
    assert measured["generations"] == steps * 2 / 10  # two births a generation, of 10


def test_the_founders_lesson_runs_one_seed_in_fifty_in_a_steady_state() -> None:
    document = lesson_document(LESSONS["founders"], 8, 51, InProcess())
    generational, steady = document["rows"]
    assert (generational["label"], generational["runs"]) == ("generational", 51)
    assert (steady["label"], steady["runs"]) == ("steady state", 2)
    assert steady["theory"] == 7.0
    assert steady["measured"] is not None and steady["measured"] > 0


def test_hill_climbing_move_costs_are_the_costs_of_the_moved_boards() -> None:
    rng = np.random.default_rng(0)
    boards = rng.integers(0, 8, size=(20, 8))
    costs = hill_climbing.move_costs(boards)
    for board in range(20):
        for column in range(8):
            for row in range(8):
                moved = boards[board].copy()
                moved[column] = row
                assert costs[board, column, row] == hill_climbing.attacks(moved[None])[0]


def test_hill_climbing_attacks_count_rows_and_diagonals() -> None:
    assert hill_climbing.attacks(np.array([[0] * 8]))[0] == 28
    assert hill_climbing.attacks(np.array([[0, 4, 7, 5, 2, 6, 1, 3]]))[0] == 0


def test_hill_climbing_is_seeded_and_sideways_moves_help() -> None:
    first = hill_climbing.measure_hill_climbing(3, 300, 0)
    assert first == hill_climbing.measure_hill_climbing(3, 300, 0)
    assert hill_climbing.measure_hill_climbing(3, 300, 100)["solved"] > first["solved"]


SMALL = {
    "takeover": (40, 2),
    "drift": (20, 2),
    "founders": (8, 3),
    "headless-chicken": (20, 2),
    "landscape": (None, None),
    "hill-climbing": (None, 200),
}


@pytest.mark.parametrize("name", sorted(set(LESSONS) - {"landscape"}))
def test_each_document_has_the_promised_shape(name: str) -> None:
    population, seeds = SMALL[name]
    document = lesson_document(LESSONS[name], population, seeds, InProcess())
    assert list(document) == ["lesson", "population", "seeds", "rows"]
    assert document["lesson"] == name
    assert document["population"] == population
    assert document["seeds"] == seeds
    json.dumps(document, allow_nan=False)
    assert document["rows"]
    for row in document["rows"]:
        assert isinstance(row["label"], str)
        if "measured" in row and row["measured"] is not None:
            assert isinstance(row["measured"], float)
        if "theory" in row:
            assert isinstance(row["theory"], float)
    if name == "hill-climbing":
        assert [row["sideways"] for row in document["rows"]] == [0, 100]
        assert all(0.0 <= row["solved"] <= 1.0 for row in document["rows"])
    if name == "takeover":
        labels = [row["label"] for row in document["rows"]]
        assert labels == ["tournament 2", "tournament 4", "tournament 8", "rank", "truncation 1/2"]
    if name == "headless-chicken":
        assert document["rows"][-1]["label"] == "verdict"
        assert document["rows"][-1]["text"].startswith("Crossover")


def test_a_lesson_is_the_same_in_any_order_of_results() -> None:
    class Reversed(InProcess):
        def run_jobs(self, jobs, on_result):  # type: ignore[no-untyped-def]
            super().run_jobs(list(jobs)[::-1], on_result)

    forward = lesson_document(LESSONS["drift"], 20, 3, InProcess())
    backward = lesson_document(LESSONS["drift"], 20, 3, Reversed())
    assert forward == backward


def test_recorded_lesson_runs_are_ordinary_records_that_replay(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from tui.cli.command_line import main
    from tui.lab.lessons.runs import Recording
    from tui.lab.store import RunStore

    path = str(tmp_path / "runs.sqlite3")
    recorded = lesson_document(LESSONS["drift"], 12, 2, InProcess(), recording=Recording(path, ""))
    assert recorded == lesson_document(LESSONS["drift"], 12, 2, InProcess())
    with RunStore.open(path) as store:
        runs = store.runs()
    assert sorted(run.label or "" for run in runs) == [
        "lesson drift: no crossover",
        "lesson drift: no crossover",
        "lesson drift: ox",
        "lesson drift: ox",
    ]
    horizon = recorded["rows"][7]["generation"]
    assert {run.status for run in runs} == {"finished"}
    assert {run.generations for run in runs} == {horizon}
    # The record replays: its last generation re-stepped from a keyframe, checked against the
    # recorded statistics, and its diversity is the one the lesson measured.
    first = min(runs, key=lambda run: run.id)
    capsys.readouterr()
    assert main(["show", str(first.id), "--generation", "5", "--json", "--store", path]) == 0
    shown = json.loads(capsys.readouterr().out)
    population = np.array(shown["population"])
    measured = measure_drift(neutral(12), first.seed, 5)["diversity"][5]
    assert column_diversity(population, 8) == pytest.approx(measured)
