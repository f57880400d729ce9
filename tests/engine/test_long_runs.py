"""Long runs stay flat: the seen set's cost does not grow with the run, the history is small
and can be bounded."""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest
from engine_reference import sheppard_operators
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.algorithm as algorithm_module
import engine.genomes.uniqueness as uniqueness_module
from engine import Config, GeneticAlgorithm
from engine.arrays import HashArray
from engine.genomes.uniqueness import HashSet, remember, unseen
from engine.snapshot import STAT_COLUMNS, GenerationStats, History

# --- The seen set. ---


class SortedSeen:
    """The seen set as it was: a sorted array rebuilt with np.union1d for every batch."""

    def __init__(self, hashes: HashArray | None = None) -> None:
        self.hashes: HashArray = np.empty(0, dtype=np.uint64)
        if hashes is not None:
            self.hashes = remember(self.hashes, hashes)

    def __len__(self) -> int:
        return int(self.hashes.shape[0])

    def remember(self, hashes: HashArray) -> Any:
        fresh = unseen(hashes, self.hashes)
        self.hashes = remember(self.hashes, hashes[fresh])
        return fresh

    def sorted(self) -> HashArray:
        return self.hashes.copy()


hash_batches = st.lists(
    st.lists(st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 40), st.just(0)), max_size=60),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(hash_batches)
def test_the_hash_set_agrees_with_the_sorted_array(batches):
    table, reference = HashSet(), SortedSeen()
    for batch in batches:
        hashes = np.array(batch, dtype=np.uint64)
        assert table.remember(hashes).tolist() == reference.remember(hashes).tolist()
        assert len(table) == len(reference)
    assert table.sorted().tobytes() == reference.sorted().tobytes()
    probe = np.array([h for batch in batches for h in batch] + [7, 2**63], dtype=np.uint64)
    assert table.contains(probe).tolist() == np.isin(probe, reference.hashes).tolist()


def test_the_hash_set_stays_at_most_half_full_as_it_grows():
    table = HashSet()
    rng = np.random.default_rng(0)
    for _ in range(50):
        table.remember(rng.integers(0, 2**64, size=4000, dtype=np.uint64))
        assert 2 * len(table) <= table.nbytes() // 8
    assert len(table) == 200_000


@pytest.mark.parametrize(
    "config",
    [
        Config(n=10, population=20, generations=150, stop_when_solved=False, unique=True, seed=2),
        Config(
            n=8,
            population=16,
            generations=120,
            stop_when_solved=False,
            seed=3,
            **sheppard_operators(),
        ),
    ],
)
def test_a_unique_run_is_the_same_as_with_the_sorted_array(config, monkeypatch):
    new = GeneticAlgorithm(config).run()
    monkeypatch.setattr(algorithm_module, "HashSet", SortedSeen)
    old = GeneticAlgorithm(config).run()
    assert new.population.tobytes() == old.population.tobytes()
    assert (new.evaluations, new.generation) == (old.evaluations, old.generation)


def test_a_generation_never_rebuilds_the_whole_seen_set(monkeypatch):
    # np.union1d copies everything seen so far: its cost grows with the run's length.
    algorithm = GeneticAlgorithm(
        Config(n=12, population=20, generations=30, stop_when_solved=False, unique=True, seed=1)
    )

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("np.union1d called during a generation")

    monkeypatch.setattr(uniqueness_module.np, "union1d", forbidden)
    algorithm.run()
    assert algorithm.snapshot.generation == 30


# --- The history. ---


def stats(generation: int) -> GenerationStats:
    return GenerationStats(
        generation=generation,
        evaluations=40 + 40 * generation,
        elapsed=generation / 1000,
        best_fitness=float(generation % 7),
        mean_fitness=1.5,
        worst_fitness=-2.0,
        best_conflicts=generation % 5,
        mean_conflicts=3.25,
        unique_fraction=0.5,
        entropy=0.75,
    )


def test_the_history_costs_under_a_hundred_bytes_a_generation():
    tracemalloc.start()
    history = History()
    for generation in range(20_000):
        history.append(stats(generation))
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # Python lists of floats cost about 370 bytes a generation; 72-byte rows in chunks.
    assert held / 20_000 < 100, f"{held / 20_000:.0f} bytes a generation"
    assert history.row(12_345) == stats(12_345)


def test_a_limited_history_keeps_the_last_rows_and_its_memory_flat():
    history = History(limit=1000)
    sizes = []
    for generation in range(60_000):
        history.append(stats(generation))
        if generation % 10_000 == 9_999:
            sizes.append(history.nbytes())
    assert len(history) == 1000
    assert history.first_generation == 59_000
    assert history.column("generation").tolist() == list(range(59_000, 60_000))
    assert history.row(0) == stats(59_000)
    assert history.row(-1) == stats(59_999)
    assert history.column("best_conflicts", -3).tolist() == [
        g % 5 for g in (59_997, 59_998, 59_999)
    ]
    assert max(sizes) <= 3 * 1000 * 72
    with pytest.raises(IndexError):
        history.row(1000)


def test_history_columns_are_typed_and_round_trip():
    history = History()
    for generation in range(50):
        history.append(stats(generation))
    columns = history.arrays()
    assert columns["evaluations"].dtype == np.int64
    assert columns["elapsed"].dtype == np.float64
    again = History(history.to_dict())
    assert all(
        again.column(name).tobytes() == history.column(name).tobytes() for name in STAT_COLUMNS
    )
    assert again.row(-1) == stats(49)
    limited = History(columns, limit=10)
    assert (limited.first_generation, len(limited)) == (40, 10)
    limited.append(stats(50))
    assert limited.column("generation").tolist() == list(range(41, 51))


def test_the_history_refuses_a_gap():
    history = History()
    history.append(stats(0))
    with pytest.raises(ValueError, match="generation 2"):
        history.append(stats(2))


def test_a_run_with_a_history_limit_is_the_same_run():
    config = Config(n=16, population=20, generations=300, stop_when_solved=False, seed=5)
    whole, limited = GeneticAlgorithm(config), GeneticAlgorithm(config, history_limit=25)
    assert whole.run().population.tobytes() == limited.run().population.tobytes()
    assert limited.history.first_generation == 276
    for name in STAT_COLUMNS:
        if name != "elapsed":
            assert whole.history.column(name, -25).tolist() == limited.history.column(name).tolist()
