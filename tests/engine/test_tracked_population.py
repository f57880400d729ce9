"""Kept counts (engine.large_n.tracked_population): the same run, bit for bit, as counting afresh.

Every generation of many seeded configs is fingerprinted (population, fitness, conflicts, the
generator's state, the best index and the statistics) with the counts kept and with them
counted afresh; the kept state is checked against a fresh count of the population it follows.
Boards below the size where keeping pays are run through it too, by lowering that size.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine.algorithm as algorithm_module
import engine.large_n.tracked_generation as tracked_generation
import engine.large_n.tracked_population as tracked_population
from engine import Config, GeneticAlgorithm
from engine.errors import ConfigError
from engine.genomes.conflicts import board_lines
from engine.genomes.diversity import column_entropy, unique_fraction
from engine.genomes.encodings import ENCODINGS
from engine.genomes.uniqueness import hash_weights
from engine.large_n.roads import KEPT_COUNTS, PLAIN, road_for
from engine.large_n.row_lines import HASH_BLOCK, count_rows
from engine.large_n.tracked_population import TrackedPopulation
from engine.operators.crossover import PERMUTATION_CROSSOVERS

PERMUTATION = ENCODINGS["permutation"]


def fingerprints(config: Config, kept: bool, generations: int, lineage: bool) -> list[str]:
    """One digest per generation of a run, with or without kept counts."""
    real = algorithm_module.road_for
    if not kept:
        algorithm_module.road_for = lambda config: PLAIN  # type: ignore[assignment]
    try:
        algorithm = GeneticAlgorithm(config, lineage=lineage)
    finally:
        algorithm_module.road_for = real  # type: ignore[assignment]
    assert algorithm._road.keeps_counts == kept
    digests = []
    while algorithm.has_next() and algorithm.snapshot.generation < generations:
        snapshot = algorithm.step()
        digest = hashlib.sha256(snapshot.population.tobytes())
        digest.update(snapshot.fitness.tobytes())
        digest.update(snapshot.conflicts.tobytes())
        digest.update(str(algorithm.rng.bit_generator.state).encode())
        stats = snapshot.stats
        digest.update(repr((stats.unique_fraction, stats.entropy, snapshot.best_index)).encode())
        digests.append(digest.hexdigest())
        if kept:
            check_kept(algorithm)
    return digests


def check_kept(algorithm: GeneticAlgorithm) -> None:
    """The kept state is a fresh count of the population, slot by slot."""
    tracked = algorithm._tracked
    assert tracked is not None
    population, n = algorithm.snapshot.population, algorithm.config.n
    fresh = TrackedPopulation(population, n)
    slots = tracked.slot_of
    assert sorted(slots.tolist()) == list(range(population.shape[0]))
    assert np.array_equal(tracked.lines.counts[slots], fresh.lines.counts)
    assert np.array_equal(tracked.lines.sums[slots], fresh.lines.sums)
    assert np.array_equal(tracked.lines.attacked[slots], fresh.lines.attacked)
    assert np.array_equal(tracked.attacked_blocks[slots], fresh.attacked_blocks)
    assert np.array_equal(tracked.blocks, fresh.blocks)
    assert tracked.entropy() == fresh.entropy()
    assert tracked.unique_fraction() == unique_fraction(population)


CASES = {
    "default": dict(n=600, population=40),
    "crossing": dict(n=520, population=30, crossover_rate=0.8, selection="roulette"),
    "one child": dict(
        n=530,
        population=12,
        children_per_couple=1,
        crossover="pmx",
        crossover_rate=0.5,
        mutation_rate=0.5,
        survivor="generational",
        elitism=2,
    ),
    "no clones": dict(n=515, population=9, clone_uncrossed=False, crossover_rate=0.3),
    "steady": dict(n=512, population=16, survivor="steady-state", candidates=3),
    "odd children": dict(n=540, population=10, offspring=7, fitness="exponential"),
    # More than 64 rows replaced a generation: the dead and incoming rows paired in order.
    "many replaced": dict(n=1200, population=160, crossover_rate=0.5),
}


@pytest.fixture
def kept_from_512(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep counts from N = 512 (below the size where it pays, to keep the tests quick)."""
    monkeypatch.setattr(tracked_generation, "SMALLEST_N", 512)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.usefixtures("kept_from_512")
def test_kept_counts_make_the_same_run(name: str) -> None:
    config = Config(**CASES[name], seed=11, stop_when_solved=False)
    assert tracked_generation.tracks(config)
    kept = fingerprints(config, True, 25, lineage=True)
    assert kept == fingerprints(config, False, 25, lineage=False)


@st.composite
def small_configs(draw: st.DrawFn) -> Config:
    values: dict[str, Any] = dict(
        n=draw(st.sampled_from([4, 5, 6, 8, 12, 30])),
        population=draw(st.integers(2, 14)),
        selection=draw(st.sampled_from(["tournament", "roulette", "rank", "uniform"])),
        crossover=draw(st.sampled_from(sorted(PERMUTATION_CROSSOVERS))),
        crossover_rate=draw(st.sampled_from([0.0, 0.3, 1.0])),
        mutation="conflict",
        mutation_rate=draw(st.sampled_from([0.0, 0.5, 1.0])),
        candidates=draw(st.integers(1, 9)),
        survivor=draw(st.sampled_from(["plus", "generational", "steady-state"])),
        children_per_couple=draw(st.sampled_from([1, 2])),
        clone_uncrossed=draw(st.booleans()),
        fitness=draw(st.sampled_from(["pairs", "linear", "parabolic", "exponential"])),
        stop_when_solved=draw(st.booleans()),
        seed=draw(st.integers(0, 2**32 - 1)),
    )
    if values["survivor"] == "generational":
        values["elitism"] = draw(st.integers(0, values["population"] - 1))
    else:
        values["offspring"] = draw(st.one_of(st.none(), st.integers(1, 20)))
    try:
        return Config(**values)
    except ConfigError:
        assume(False)
        raise


@settings(max_examples=60, deadline=None)
@given(config=small_configs())
def test_kept_counts_make_the_same_run_on_small_boards(config: Config) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tracked_generation, "SMALLEST_N", 1)
        assert tracked_generation.tracks(config)
        kept = fingerprints(config, True, 12, lineage=True)
    assert kept == fingerprints(config, False, 12, lineage=False)


@pytest.mark.usefixtures("kept_from_512")
def test_a_run_resumed_from_a_checkpoint_keeps_counting_the_same() -> None:
    config = Config(n=600, population=20, seed=4, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    assert algorithm._road.keeps_counts
    algorithm.step_many(5)
    resumed = GeneticAlgorithm.from_state(algorithm.state())
    for _ in range(8):
        assert np.array_equal(algorithm.step().population, resumed.step().population)
    mine, theirs = algorithm.history.row(-1), resumed.history.row(-1)
    assert mine._replace(elapsed=0.0) == theirs._replace(elapsed=0.0)


def test_the_default_config_keeps_counts_from_n_2048() -> None:
    assert road_for(Config(n=2047)) is PLAIN
    assert road_for(Config(n=2048)) is KEPT_COUNTS
    assert road_for(Config(n=16_384)) is KEPT_COUNTS


@pytest.mark.parametrize("n", [512, 700])
def test_fresh_counts_match_the_engine_counts(n: int) -> None:
    population = PERMUTATION.random_population(7, n, np.random.default_rng(n))
    rows = count_rows(population, n)
    lines = board_lines(population, n, PERMUTATION)
    down, up = (flat.reshape(7, -1) for flat in lines.occupancy)
    assert np.array_equal(rows.counts, np.concatenate([down, up], axis=1))
    assert np.array_equal(rows.attacked, lines.attacked())
    tracked = TrackedPopulation(population, n)
    assert tracked.entropy() == column_entropy(population, n, PERMUTATION)


@pytest.fixture
def written_whole(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Per generation, how many incoming rows had their kept lines written whole."""
    counts: list[int] = []
    real_advance, real_copy_rows = TrackedPopulation.advance, TrackedPopulation._copy_rows

    def advance(self: TrackedPopulation, *arguments: Any) -> bool:
        counts.append(0)
        return real_advance(self, *arguments)

    def copy_rows(self: TrackedPopulation, copied: np.ndarray, *rest: Any) -> Any:
        counts[-1] += copied.shape[0]
        return real_copy_rows(self, copied, *rest)

    monkeypatch.setattr(TrackedPopulation, "advance", advance)
    monkeypatch.setattr(TrackedPopulation, "_copy_rows", copy_rows)
    return counts


@pytest.mark.usefixtures("kept_from_512")
def test_rows_close_to_the_ones_they_replace_are_followed_by_their_changes(
    written_whole: list[int],
) -> None:
    # A small population soon descends from few ancestors: an incoming row then differs from
    # the one whose kept row it takes in few genes, and only those queens are moved there.
    config = Config(n=1024, population=6, crossover_rate=0.3, seed=3, stop_when_solved=False)
    kept = fingerprints(config, True, 160, lineage=True)
    assert kept == fingerprints(config, False, 160, lineage=False)
    # Random boards at first: far apart, written whole. Later a crossed child now and then.
    assert sum(written_whole[:20]) >= 20
    assert written_whole[-60:].count(0) >= 50


@pytest.mark.parametrize("name", ["crossing", "many replaced", "one child"])
@pytest.mark.usefixtures("kept_from_512")
def test_rows_followed_however_far_apart_make_the_same_run(
    name: str, written_whole: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tracked_population, "FOLLOWED_SHARE", 1.0)
    config = Config(**CASES[name], seed=12, stop_when_solved=False)
    kept = fingerprints(config, True, 15, lineage=True)
    assert kept == fingerprints(config, False, 15, lineage=False)
    assert sum(written_whole) == 0


@pytest.mark.parametrize("n", [2048, 16_384, 65_536])
def test_a_swap_inside_a_block_always_changes_its_hash(n: int) -> None:
    # Rows are compared block by block, gene by gene only where a block's hash moved: a swap
    # of genes a and b at positions i and j of one block adds (b - a) * (w_i - w_j) to it,
    # never a multiple of 2**64 while the two factors hold fewer than 64 factors of 2.
    weights = hash_weights(n).reshape(-1, HASH_BLOCK)
    apart = weights[:, :, None] - weights[:, None, :]
    lowest_bit = apart & (np.uint64(0) - apart)  # 2 ** (factors of 2 in w_i - w_j)
    gene_bits = int(n - 1).bit_length()
    off_diagonal = ~np.eye(HASH_BLOCK, dtype=bool)
    assert (lowest_bit[:, off_diagonal] < np.uint64(2 ** (64 - gene_bits))).all()
