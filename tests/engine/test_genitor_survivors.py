"""GENITOR's steady state: the children replace the worst members, ties broken at random.

Beside ``steady-state`` (the best of parents and children, parents kept on ties), under which
no child of an equally fit population ever gets in, GENITOR lets every child in: with every
board equally fit the members it replaces are drawn uniformly, Moran's model.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import Config, ConfigError, GeneticAlgorithm
from engine.large_n.tracked_generation import tracks
from engine.operators.survivors import genitor_survivors


def test_the_children_replace_the_worst_in_their_places() -> None:
    parents = np.array([5.0, 1.0, 4.0, 0.0, 3.0])
    children = np.array([0.5, 9.0])
    survivors = genitor_survivors(parents, children, np.random.default_rng(0))
    # The worst two are rows 3 (0.0) and 1 (1.0): the first child takes the lower row.
    assert survivors.tolist() == [0, 5, 2, 6, 4]


def test_ties_among_the_worst_are_drawn_uniformly() -> None:
    rng = np.random.default_rng(7)
    parents = np.array([2.0, 1.0, 1.0, 1.0, 1.0, 3.0])
    replaced = np.zeros(6, dtype=np.int64)
    for _ in range(8000):
        survivors = genitor_survivors(parents, np.zeros(2), rng)
        replaced += survivors >= 6
    # Only the four tied at 1.0 are ever replaced, each half of the time (two of four).
    assert replaced[[0, 5]].tolist() == [0, 0]
    assert replaced[1:5] / 8000 == pytest.approx([0.5] * 4, abs=0.03)


def neutral_steady_state(**fields: object) -> Config:
    values = {
        "n": 8,
        "population": 20,
        "crossover_rate": 0.0,
        "mutation": "swap",
        "mutation_rate": 0.0,
        "fitness": "neutral",
        "stop_when_solved": False,
        "seed": 11,
        **fields,
    }
    return Config.from_mapping(values)


def test_with_every_board_equal_genitor_lets_children_in_and_steady_state_does_not() -> None:
    kept = GeneticAlgorithm(neutral_steady_state(survivor="steady-state"))
    moran = GeneticAlgorithm(neutral_steady_state(survivor="genitor"))
    start = moran.snapshot.population.copy()
    assert (kept.snapshot.population == start).all()
    for _ in range(30):
        kept.step()
        snapshot = moran.step()
        lineage = snapshot.lineage
        assert lineage is not None
        # Two rows change a generation; each is a copy of the parent its lineage names.
        changed = (lineage.first_parents != np.arange(20)).sum()
        assert changed <= 2
    assert (kept.snapshot.population == start).all()
    assert not (moran.snapshot.population == start).all()
    assert moran.config.children_per_generation == 2


def test_a_genitor_run_is_the_same_run_when_stepped_again() -> None:
    first = GeneticAlgorithm(neutral_steady_state(survivor="genitor"))
    second = GeneticAlgorithm(neutral_steady_state(survivor="genitor"))
    for _ in range(25):
        assert (first.step().population == second.step().population).all()


def test_a_genitor_run_resumes_bit_for_bit() -> None:
    config = neutral_steady_state(survivor="genitor", fitness="pairs", mutation_rate=0.8)
    whole = GeneticAlgorithm(config)
    whole.step_many(10)
    saved = whole.state()
    resumed = GeneticAlgorithm.from_state(saved)
    for _ in range(10):
        assert (whole.step().population == resumed.step().population).all()


def test_genitor_refuses_more_children_than_members_and_keeps_off_the_kept_counts_road() -> None:
    with pytest.raises(ConfigError, match="offspring"):
        neutral_steady_state(survivor="genitor", offspring=21)
    big = Config(n=4096, population=16, survivor="genitor", mutation="conflict")
    assert not tracks(big)
    assert tracks(big.replace(survivor="steady-state"))
