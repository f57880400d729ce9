"""A generation's children described rather than made, from the kept counts.

:class:`engine.algorithm.GeneticAlgorithm` makes each generation's children as a ``(P, N)``
array, counts their lines, mutates them and gathers the survivors from ``[parents; children]``.
Where the population's counts are kept (:mod:`engine.large_n.tracked_population`), the same
generation needs none of that: a copy is its parent's row plus one swap, so the conflict
mutation reads the parent's counts and attacked queens, and only the children that get in are
written, straight into the next population. Only the crossed children are made and counted.

The draws are the same ones, in the same order and of the same sizes, as
:meth:`GeneticAlgorithm._cross` makes, then the conflict mutation's, which every road takes from
:func:`engine.operators.conflict_draws.draw_conflict_moves`; every number they are compared with
is the same: the run is the same, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.arrays import BoolArray, FloatArray, Genomes, IntArray
from engine.config.config import Config
from engine.config.fields import ConfigFields
from engine.genomes.fitness import SHAPES_READING_CONFLICTS, FitnessShape, Scored, score_conflicts
from engine.large_n.row_lines import (
    HASH_BLOCK,
    Moves,
    RowLines,
    block_cells,
    count_children,
    swap_changes,
)
from engine.large_n.tracked_population import (
    SMALLEST_N,
    TRACKED_BYTES,
    TrackedPopulation,
    tracked_bytes,
)
from engine.lineage.births import Births
from engine.operators.conflict_draws import attacked_queens, draw_conflict_moves
from engine.operators.registry import selection_of, survivors_of
from engine.operators.selection_pressure import SelectionPressure, measure_selection
from engine.run_state import RunState


class Offspring(NamedTuple):
    """A generation's children, each a parent's row or a crossed child, and its swap.

    Attributes:
        sources: Per child, its parent's row for a copy, else ``-1 - k`` for crossed row ``k``.
        crossed: The crossed children as the crossover made them (not to be changed).
        crossed_lines: Their lines.
        moves: Per child, the swap the mutation picked (made where ``moved``).
        moved: Per child, whether it mutated.
        scored: Per child, fitness and conflicts after its move.
        selection: The parent selection, measured.
    """

    sources: IntArray
    crossed: Genomes
    crossed_lines: RowLines
    moves: Moves
    moved: BoolArray
    scored: Scored
    selection: SelectionPressure | None


def tracks(config: ConfigFields) -> bool:
    """Whether a run keeps its population's counts from one generation to the next
    (:mod:`engine.large_n.tracked_population`): permutations moved by the conflict mutation, nothing
    that drops, replaces or improves children on the way, a board large enough for it to pay
    and counts that fit :data:`~engine.large_n.tracked_population.TRACKED_BYTES`. The run is the
    same either way."""
    return (
        config.encoding == "permutation"
        and config.mutation == "conflict"
        and not config.unique
        and not config.local_search
        and not config.harvest
        and not config.fallback
        and not config.headless_chicken
        and config.survivor not in ("threshold", "genitor")
        and config.fitness in SHAPES_READING_CONFLICTS
        and config.n >= SMALLEST_N
        and tracked_bytes(config.population, config.n) <= TRACKED_BYTES
    )


def tracked_generation(
    config: Config,
    state: RunState,
    tracked: TrackedPopulation,
    births: Births,
    shape: FitnessShape,
) -> tuple[Genomes, Scored, BoolArray, TrackedPopulation]:
    """One generation of :meth:`engine.algorithm.GeneticAlgorithm.step` from the kept counts.

    Returns:
        The next population (before the harvest records its solutions), its fitness and
        conflicts, which of its rows are children, and the kept counts that follow it (counted
        afresh when the survivors cannot be followed).
    """
    before = state.population
    children = offspring(
        config, before, state.fitness, state.conflicts, tracked, state.rng, births, shape
    )
    state.selection = children.selection
    state.evaluations += children.sources.shape[0]
    survive = survivors_of(config.survivor)
    survivors = survive(state.fitness, children.scored.fitness, config.elitism)
    births.note_survivors(survivors)
    population = next_population(before, children, survivors)
    scored = Scored(
        np.concatenate([state.fitness, children.scored.fitness]).take(survivors),
        np.concatenate([state.conflicts, children.scored.conflicts]).take(survivors),
    )
    state.mutating = False  # no fallback on this path
    followed = tracked.advance(
        before,
        population,
        survivors,
        children.sources,
        children.crossed_lines,
        children.crossed,
        children.moves,
        children.moved,
    )
    if not followed:
        tracked = TrackedPopulation(population, config.n)
    return population, scored, survivors >= before.shape[0], tracked


def offspring(
    config: Config,
    population: Genomes,
    fitness: FloatArray,
    conflicts: IntArray,
    tracked: TrackedPopulation,
    rng: np.random.Generator,
    births: Births,
    shape: FitnessShape,
) -> Offspring:
    """Select, cross and mutate one generation's children (the default operators' path).

    For a permutation population whose mutation is ``conflict``, with no uniqueness filter,
    local search, harvest, fallback or threshold (see :func:`tracks`).
    """
    n = config.n
    wanted = config.children_per_generation
    per_couple = config.children_per_couple
    couples = -(-wanted // per_couple)
    picks = selection_of(config.selection)(fitness, 2 * couples, rng, config.tournament_size)
    selection = measure_selection(fitness, picks, config.selection, config.tournament_size)
    crossed_couples = rng.random(couples) < config.crossover_rate
    crossing = crossed_couples.nonzero()[0]
    pairs = picks.reshape(couples, 2)
    if not config.clone_uncrossed:
        pairs, crossing = pairs[crossing], np.arange(crossing.size)
    births.note_couples(pairs, crossing, per_couple, wanted)
    # Child c is row c of the heads: couple c // 2's child c % 2 (couple c's only child).
    sources = (pairs[:, 0] if per_couple == 1 else pairs.reshape(-1)).copy()
    crossed = population[:0]
    if crossing.size:
        made = births.cross(
            config.crossover, population[pairs[crossing, 0]], population[pairs[crossing, 1]], rng
        )
        if per_couple == 1:
            crossed = made[0]
            sources[crossing] = -1 - np.arange(crossing.size)
        else:
            crossed = np.concatenate(made)
            sources[2 * crossing] = -1 - np.arange(crossing.size)
            sources[2 * crossing + 1] = -1 - (crossing.size + np.arange(crossing.size))
    sources = sources[:wanted]
    crossed_lines, crossed_conflicts = count_children(crossed, n)
    moves, moved, known = _mutation(
        config,
        population,
        conflicts,
        tracked,
        rng,
        sources,
        crossed,
        crossed_lines,
        crossed_conflicts,
    )
    return Offspring(
        sources, crossed, crossed_lines, moves, moved, score_conflicts(known, n, shape), selection
    )


def _mutation(
    config: Config,
    population: Genomes,
    conflicts: IntArray,
    tracked: TrackedPopulation,
    rng: np.random.Generator,
    sources: IntArray,
    crossed: Genomes,
    crossed_lines: RowLines,
    crossed_conflicts: IntArray,
) -> tuple[Moves, BoolArray, IntArray]:
    """The conflict mutation of every child, from the draws every road makes
    (:func:`engine.operators.conflict_draws.draw_conflict_moves`).

    Returns:
        Each child's best swap, whether it mutated, and its conflicts after the move.
    """
    n, count, tries = config.n, sources.shape[0], config.candidates
    copies = np.flatnonzero(sources >= 0)
    made = np.flatnonzero(sources < 0)
    parent, crossed_row = sources.take(copies), -1 - sources.take(made)
    parent_slot = tracked.slot_of.take(parent)
    known = np.empty(count, dtype=np.int64)
    known[copies] = conflicts.take(parent)
    known[made] = crossed_conflicts.take(crossed_row)
    if count == 0:
        nothing = np.zeros(0, dtype=np.int64)
        return Moves(nothing, nothing, nothing, nothing), np.zeros(0, dtype=bool), known
    draws = draw_conflict_moves(rng, count, n, config.mutation_rate, tries)
    draw = draws.queen
    queen: IntArray = (draw * n).astype(np.int64)  # any queen, where none is attacked
    queen[copies] = _kept_attacked_queens(tracked, parent_slot, draw.take(copies), queen[copies])
    queen[made] = attacked_queens(crossed_lines.attacked, draw.take(made), crossed_row)
    partner = draws.past(queen)
    queen_gene = np.empty(count, dtype=np.int64)
    partner_gene = np.empty((count, tries), dtype=np.int64)
    change = np.empty((count, tries), dtype=np.int64)
    for rows, genomes, board, counts in (
        (copies, population, parent, tracked.lines.counts),
        (made, crossed, crossed_row, crossed_lines.counts),
    ):
        if not rows.shape[0]:
            continue
        slot = parent_slot if genomes is population else board
        genes, starts = genomes.reshape(-1), board * n
        queen_here, partner_here = queen.take(rows), partner.take(rows, axis=0)
        queen_gene[rows] = here_queen = genes.take(starts + queen_here)
        partner_gene[rows] = here_partner = genes.take(starts[:, None] + partner_here)
        change[rows] = swap_changes(
            counts,
            slot[:, None],
            queen_here[:, None],
            here_queen[:, None],
            partner_here,
            here_partner,
        )
    best = change.argmin(axis=1)
    everyone = np.arange(count)
    targets = draws.mutates.nonzero()[0]
    known[targets] += change[targets, best[targets]]
    moves = Moves(queen, partner[everyone, best], queen_gene, partner_gene[everyone, best])
    return moves, draws.mutates, known


def _kept_attacked_queens(
    tracked: TrackedPopulation, slots: IntArray, draw: FloatArray, anywhere: IntArray
) -> IntArray:
    """:func:`~engine.operators.conflict_draws.attacked_queens` in the kept rows ``slots``, from
    their attacked queens per block of 64 columns: the block holding the wanted queen, then the
    queen in the block."""
    if not slots.shape[0]:
        return anywhere
    running = np.cumsum(tracked.attacked_blocks.take(slots, axis=0), axis=1)
    per_row = running[:, -1]
    wanted = (draw * per_row).astype(np.int64)
    block = np.minimum(np.count_nonzero(running <= wanted[:, None], axis=1), running.shape[1] - 1)
    everyone = np.arange(slots.shape[0])
    before = np.where(block > 0, running[everyone, block - 1], 0)
    flags, inside = block_cells(tracked.lines.attacked, slots, block)
    flags &= inside
    position = np.count_nonzero(np.cumsum(flags, axis=1) <= (wanted - before)[:, None], axis=1)
    return np.asarray(np.where(per_row > 0, block * HASH_BLOCK + position, anywhere), np.int64)


def next_population(population: Genomes, children: Offspring, survivors: IntArray) -> Genomes:
    """The survivors of ``[population; children]`` as a new ``(P, N)`` array: one gather of
    rows, the crossed children written in, then each child's swap."""
    size, n = population.shape
    is_child = survivors >= size
    child_rows = np.flatnonzero(is_child)
    which = survivors.take(child_rows) - size
    source = children.sources.take(which)
    rows = survivors.copy()
    rows[child_rows] = source.clip(0)
    after = population.take(rows, axis=0)
    made = np.flatnonzero(source < 0)
    if made.shape[0]:
        after[child_rows.take(made)] = children.crossed.take(-1 - source.take(made), axis=0)
    moving = np.flatnonzero(children.moved.take(which))
    if moving.shape[0]:
        queen, other, queen_gene, other_gene = (
            part.take(which.take(moving)) for part in children.moves
        )
        starts = child_rows.take(moving) * n
        genes = after.reshape(-1)
        genes[starts + queen] = other_gene
        genes[starts + other] = queen_gene
    return after
