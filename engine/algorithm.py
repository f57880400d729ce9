"""The genetic algorithm, one generation per :meth:`GeneticAlgorithm.step`.

A generation: select couples, cross the couples that draw a crossover (the others pass on
copies of themselves), mutate the children, drop already-seen children when ``unique``,
evaluate them, and let the survivor selection form the next population. All of it works on
whole ``(P, N)`` arrays; the only randomness is the run's one ``numpy.random.Generator``, used
in the same order however the run is driven, so a seed fixes the run bit for bit.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from engine.arrays import BoolArray, FloatArray, Genomes, IntArray
from engine.config.config import Config
from engine.genomes.conflicts import BoardLines
from engine.genomes.diversity import unique_fraction
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import (
    FITNESS_SHAPES,
    SHAPES_READING_COUNTS,
    Scored,
    evaluate,
    score_lines,
)
from engine.genomes.uniqueness import HashSet, row_hashes
from engine.large_n.paths import compiled_paths
from engine.large_n.survivor_rows import gathered_over_children
from engine.large_n.tracked_generation import tracked_generation, tracks
from engine.large_n.tracked_population import TrackedPopulation
from engine.lineage.births import UNNOTED, Births
from engine.lineage.lineage import Operators
from engine.operators.crossover import COMPILED_CYCLE_FROM
from engine.operators.greedy_start import greedy_population
from engine.operators.local_search import LocalSearchSettings, improve_children
from engine.operators.mutation import COUNTED_MUTATIONS, MUTATIONS, MutationSettings
from engine.operators.selection import SELECTIONS
from engine.operators.survivors import SURVIVORS, threshold_acceptance
from engine.operators.takeover_start import one_best_population
from engine.run_state import RunState, as_lists, saved_values
from engine.snapshot import GenerationStats, History, Snapshot, read_only
from engine.solutions.archive import SolutionArchive, rows_by_column
from engine.termination import RunProgress, first_reason, stop_rules

KEPT_SCRATCH_BYTES: Final = 32 * 2**20
"""Scratch arrays (the union of parents and children, the line counts) up to this size are kept
from one generation to the next, to be overwritten; larger ones are let go after use."""


LARGE_BOARD: Final = 1 << 16
"""Boards from this many queens have their survivors gathered row by row (see _survivors)."""


def _size_in_bytes(lines: BoardLines) -> int:
    """Memory held by the arrays of some line counts."""
    return sum(array.nbytes for array in (*lines.cells, *lines.occupancy))


class FinishedError(RuntimeError):
    """Raised by :meth:`GeneticAlgorithm.step` once a stop rule has fired."""


class GeneticAlgorithm:
    """A steppable N-Queens GA.

    Args:
        config: The run's configuration. Without a seed, one is drawn and recorded in
            :attr:`config`, so that every run can be replayed.
        history_limit: Keep only the statistics of the last this many generations in
            :attr:`history` (``None``: all of them), so a very long run's memory stays flat.
        lineage: Give each snapshot the :class:`~engine.lineage.lineage.Lineage` of its generation
            (the run itself is the same either way, bit for bit).
    """

    def __init__(
        self, config: Config, *, history_limit: int | None = None, lineage: bool = True
    ) -> None:
        if config.seed is None:
            config = config.replace(seed=secrets.randbits(32))
        self._bind(config, lineage)
        rng = np.random.default_rng(self.seed)
        history = History(limit=history_limit)
        started = time.perf_counter()
        if config.greedy_start:
            population = greedy_population(config.population, config.n, rng)
        elif config.one_best:
            population = one_best_population(config.population, config.n)
        else:
            population = self.encoding.random_population(config.population, config.n, rng)
        scored = self._evaluate(population, config.n, self.encoding, self.shape)
        self._run_state = RunState(
            generation=0,
            evaluations=config.population,
            elapsed=0.0,
            stagnant=0,
            best_ever=float(scored.fitness.max()),
            rng=rng,
            population=population,
            fitness=scored.fitness,
            conflicts=scored.conflicts,
            seen=HashSet(row_hashes(population) if config.unique else None),
            threshold=float(scored.fitness.min()),
            mutating=False,
            solutions=SolutionArchive(config.n),
            history=history,
        )
        population, scored = self._harvest(population, scored)
        self._snapshot = self._publish(population, scored.fitness, scored.conflicts, started)

    def _bind(self, config: Config, lineage: bool) -> None:
        """Resolve the config's names into the objects a generation uses."""
        self.config = config
        self._lineage = lineage
        self._operators = Operators(config.crossover, config.mutation, config.local_search > 0)
        # What the generation being published decided about its children, for its lineage.
        self._births: Births = Births(self._operators, first=True) if lineage else UNNOTED
        self.seed: int = int(config.seed)  # type: ignore[arg-type]
        self.encoding = ENCODINGS[config.encoding]
        self.shape = FITNESS_SHAPES[config.fitness]
        self.rules = stop_rules(config)
        # Scratch for [parents; children], from which the survivors are gathered, kept from
        # one generation to the next: a fresh one each time costs more in page faults than in
        # copying. The children are gathered straight into its lower part.
        self._union: Genomes = np.empty((0, config.n), dtype=np.int64)
        # The last generation's line counts from the mutation, overwritten by the next one.
        self._spare_lines: BoardLines | None = None
        self._mutation_settings = MutationSettings(
            rate=config.mutation_rate,
            n=config.n,
            encoding=self.encoding,
            gene_rate=config.shuffle_gene_rate,
            candidates=config.candidates,
        )
        self._local_search = LocalSearchSettings(
            moves=config.local_search, candidates=config.local_search_candidates
        )
        # The population's kept counts, made at the first generation that reads them.
        self._tracks = tracks(config)
        self._tracked: TrackedPopulation | None = None
        # Runs with compiled kernels take compiled paths through the same generation.
        paths = compiled_paths(config)
        self._column_entropy, self._evaluate, self._children_compiled = paths

    @property
    def snapshot(self) -> Snapshot:
        """The latest snapshot (generation 0 before the first step)."""
        return self._snapshot

    @property
    def rng(self) -> np.random.Generator:
        """The run's one random generator."""
        return self._run_state.rng

    @property
    def history(self) -> History:
        """One row of statistics per generation (the last ones only, with a history limit)."""
        return self._run_state.history

    @property
    def solutions(self) -> SolutionArchive:
        """Every distinct solution met so far."""
        return self._run_state.solutions

    def has_next(self) -> bool:
        """Whether another generation may be stepped (no stop rule has fired)."""
        return self._snapshot.stop_reason is None

    def step(self) -> Snapshot:
        """Run exactly one generation and publish its snapshot.

        Raises:
            FinishedError: If a stop rule has already fired.
        """
        if not self.has_next():
            raise FinishedError(f"the run has stopped: {self._snapshot.stop_reason}")
        started = time.perf_counter()
        state = self._run_state
        births = Births(self._operators, self._snapshot.best_index) if self._lineage else UNNOTED
        self._births = births
        if self._tracks:
            self._snapshot = self._tracked_step(started)
            return self._snapshot
        children, scored = self._offspring(state.population, state.fitness, state.conflicts)
        self._births.note_evaluated(scored.fitness)
        state.evaluations += children.shape[0]
        improved = children.shape[0] > 0
        if self.config.survivor == "threshold":
            passed, state.threshold = threshold_acceptance(scored.fitness, state.threshold)
            self._births.note_passed(passed)
            children = children[passed]
            scored = Scored(scored.fitness[passed], scored.conflicts[passed])
            improved = bool(passed.any())
        survivors = SURVIVORS[self.config.survivor](
            state.fitness, scored.fitness, self.config.elitism
        )
        self._births.note_survivors(survivors)
        population = self._survivors(state.population, children, survivors)
        # The children are a view of the union: let go of both, or a large union outlives the
        # generation's harvest and statistics (N = 10^7: 640 MB at the run's peak).
        del children
        if self._union.nbytes > KEPT_SCRATCH_BYTES:  # as the line counts (see _offspring)
            self._union = np.empty((0, self.config.n), dtype=np.int64)
        scored = Scored(
            np.concatenate([state.fitness, scored.fitness]).take(survivors),
            np.concatenate([state.conflicts, scored.conflicts]).take(survivors),
        )
        from_children = survivors >= state.population.shape[0]
        if self.config.survivor != "threshold":
            improved = bool(from_children.any())
        # Sheppard's fallback: mutate only after a generation in which no child got in.
        state.mutating = self.config.fallback and not improved
        population, scored = self._harvest(population, scored, from_children)
        return self._close_generation(population, scored, started)

    def _close_generation(
        self,
        population: Genomes,
        scored: Scored,
        started: float,
        statistics: tuple[float, float] | None = None,
    ) -> Snapshot:
        """Count the generation, follow the best fitness, and publish the snapshot."""
        state = self._run_state
        fitness, conflicts = scored.fitness, scored.conflicts
        state.generation += 1
        best = float(fitness.max())
        if best > state.best_ever:
            state.best_ever, state.stagnant = best, 0
        else:
            state.stagnant += 1
        self._snapshot = self._publish(population, fitness, conflicts, started, statistics)
        return self._snapshot

    def _tracked_step(self, started: float) -> Snapshot:
        """:meth:`step` from the kept counts (see :func:`tracks`): the same generation."""
        state, config = self._run_state, self.config
        if self._tracked is None:
            self._tracked = TrackedPopulation(state.population, config.n)
        population, scored, from_children, self._tracked = tracked_generation(
            config, state, self._tracked, self._births, self.shape
        )
        population, scored = self._harvest(population, scored, from_children)
        entropy = self._tracked.entropy()
        if entropy is None:
            entropy = self._column_entropy(population, config.n, self.encoding)
        statistics = (self._tracked.unique_fraction(), entropy)
        return self._close_generation(population, scored, started, statistics)

    def _children_slot(self, parents: Genomes, children: int) -> Genomes:
        """Rows ``P .. P + children`` of the scratch union, for the children of ``parents``
        (in their dtype: large boards' genes are int32, see engine.operators.greedy_start). Large
        boards' children get an array of their own, never kept: the survivors are written
        over it (:meth:`_survivors`), and it becomes the next population."""
        size, n = parents.shape
        if n >= LARGE_BOARD:
            return np.empty((children, n), dtype=parents.dtype)
        if self._union.shape[0] < size + children or self._union.dtype != parents.dtype:
            self._union = np.empty((size + children, self.config.n), dtype=parents.dtype)
        return self._union[size : size + children]

    def _survivors(self, parents: Genomes, children: Genomes, survivors: IntArray) -> Genomes:
        """Rows ``survivors`` of ``[parents; children]``, as an array of their own.

        Boards of :data:`LARGE_BOARD` queens or more are gathered from where they are, over
        the children's rows when there are as many (:mod:`engine.large_n.survivor_rows`), else into
        a new array: copying the parents into the union first held a fourth copy of the genes
        at the run's peak (N = 10^7, P = 4: 160 MB), a new array a third. Smaller ones are
        gathered from the union at once.
        """
        size, n = parents.shape
        if n < LARGE_BOARD:
            return self._joined(parents, children).take(survivors, axis=0)
        if children.shape[0] == survivors.shape[0]:
            return gathered_over_children(parents, children, survivors)
        population = np.empty((survivors.shape[0], n), dtype=parents.dtype)
        for row, survivor in enumerate(survivors.tolist()):
            population[row] = parents[survivor] if survivor < size else children[survivor - size]
        return population

    def _joined(self, parents: Genomes, children: Genomes) -> Genomes:
        """``[parents; children]`` in the scratch union (valid until the next generation).

        Children that share memory with the union were gathered into their slot by
        :meth:`_cross` (and mutated there); any others (filtered, or made elsewhere) are copied.
        """
        size, rows = parents.shape[0], parents.shape[0] + children.shape[0]
        if np.may_share_memory(children, self._union):
            self._union[:size] = parents
            return self._union[:rows]
        if self._union.shape[0] < rows or self._union.dtype != parents.dtype:
            self._union = np.empty((rows, self.config.n), dtype=parents.dtype)
        return np.concatenate([parents, children], out=self._union[:rows])

    def step_many(self, limit: int) -> list[Snapshot]:
        """Step up to ``limit`` generations, stopping early when the run stops."""
        done: list[Snapshot] = []
        while len(done) < limit and self.has_next():
            done.append(self.step())
        return done

    def run(self) -> Snapshot:
        """Step until a stop rule fires; the final snapshot says which."""
        while self.has_next():
            self.step()
        return self._snapshot

    def _offspring(
        self, population: Genomes, fitness: FloatArray, conflicts: IntArray
    ) -> tuple[Genomes, Scored]:
        """This generation's children, mutated, filtered for uniqueness and evaluated."""
        config = self.config
        children, known = self._cross(population, fitness, conflicts)
        if self._children_compiled:
            from engine.large_n.memetic_children import (
                improve_children_compiled,
                scored_from_conflicts,
            )

            improved = improve_children_compiled(
                children, self.rng, self._mutation_settings, self._local_search
            )
            return children, scored_from_conflicts(
                children, improved, config.n, self.encoding, self.shape
            )
        lines: BoardLines | None = None
        if config.fallback and not self._run_state.mutating:
            pass  # a crossover generation of Sheppard's: no mutation
        elif (counted := COUNTED_MUTATIONS.get(config.mutation)) and not config.unique:
            # The children are this generation's own array: mutate them where they are. The
            # counts are only read within this generation (the conflicts are a new array), so
            # the next generation may overwrite them; they are kept up to date with the moves
            # only when something reads more than the conflicts.
            children, lines = counted(
                children,
                self.rng,
                self._mutation_settings,
                in_place=True,
                reuse=self._spare_lines,
                known=known,
                recount=bool(config.local_search) or config.fitness in SHAPES_READING_COUNTS,
            )
            # Kept for the next generation only while small: a few MB of fresh counts every
            # generation cost more in page faults than in counting, but at N = 10^6 they are
            # 128 MB that would sit beside the statistics' temporaries and raise the run's
            # peak, for a gain of a few per cent of such a generation.
            self._spare_lines = lines if _size_in_bytes(lines) <= KEPT_SCRATCH_BYTES else None
        else:
            children = MUTATIONS[config.mutation](children, self.rng, self._mutation_settings)
        if config.local_search:
            children, lines = improve_children(children, self.rng, self._local_search, lines)
        if config.unique:
            unseen = self._run_state.seen.remember(row_hashes(children))
            self._births.note_unique(unseen)
            children, lines = children[unseen], None
        if lines is None:
            return children, evaluate(children, config.n, self.encoding, self.shape)
        return children, score_lines(children, lines, config.n, self.encoding, self.shape)

    def _cross(
        self, population: Genomes, fitness: FloatArray, conflicts: IntArray
    ) -> tuple[Genomes, IntArray]:
        """Selection and crossover: this generation's children, before mutation.

        Couples are consecutive picks. A couple crosses with the crossover rate (never in a
        mutation generation of Sheppard's fallback); one that does not passes on copies of
        itself, or nothing when ``clone_uncrossed`` is off (queens_AI).

        Returns:
            The children, and their conflicts where they are known: a copy of a parent has
            its parent's; a crossed child has ``-1``.
        """
        config = self.config
        wanted = config.children_per_generation
        per_couple = config.children_per_couple
        couples = -(-wanted // per_couple)
        picks = SELECTIONS[config.selection](fitness, 2 * couples, self.rng, config.tournament_size)
        rate = 0.0 if self._run_state.mutating else config.crossover_rate
        crossed = self.rng.random(couples) < rate
        crossing = crossed.nonzero()[0]
        # One row per pick, couple k in rows 2k and 2k + 1: the children in their final order,
        # gathered once (fancy indexing already copies; no stacking of two halves afterwards).
        pairs = picks.reshape(couples, 2)
        if not config.clone_uncrossed:
            pairs, crossing = pairs[crossing], np.arange(crossing.size)
        births = self._births
        births.note_couples(pairs, crossing, per_couple, wanted)
        if per_couple == 1:
            children, known = population[pairs[:, 0]], conflicts[pairs[:, 0]]
            if crossing.size:
                mates = population[pairs[crossing, 1]]
                if config.headless_chicken:
                    mates = self._random_mates(crossing.size)
                crossed_one, _ = births.cross(config.crossover, children[crossing], mates, self.rng)
                children[crossing], known[crossing] = crossed_one, -1
            return children[:wanted], known[:wanted]
        rows = pairs.reshape(-1)
        slot = self._children_slot(population, rows.shape[0])
        # mode="clip" (the picks are in range anyway): with the default mode, numpy gathers
        # into a hidden temporary and copies that into ``out``.
        children = np.take(population, rows, axis=0, out=slot, mode="clip")
        known = conflicts.take(rows)
        if crossing.size and config.headless_chicken:
            # Jones's headless chicken: the second parent's copy gives way to a random genome.
            children.reshape(-1, 2, children.shape[1])[crossing, 1] = self._random_mates(
                crossing.size
            )
        if crossing.size and config.crossover == "cycle" and config.n >= COMPILED_CYCLE_FROM:
            # Large boards: the couples' copies become their children where they are.
            from engine.compiled.cycle_kernel import cycle_crossover_in_place

            births.note_crossed_in_place(self.rng)
            cycle_crossover_in_place(children.reshape(-1, 2, children.shape[1]), crossing)
            known.reshape(-1, 2)[crossing] = -1
        elif crossing.size:
            # Couple k's two children are rows 2k and 2k + 1: as (couple, child, gene) views.
            couple_children = children.reshape(-1, 2, children.shape[1])
            crossed_one, crossed_two = births.cross(
                config.crossover,
                couple_children[crossing, 0],
                couple_children[crossing, 1],
                self.rng,
            )
            couple_children[crossing, 0], couple_children[crossing, 1] = crossed_one, crossed_two
            known.reshape(-1, 2)[crossing] = -1
        return children[:wanted], known[:wanted]

    def _random_mates(self, count: int) -> Genomes:
        """``count`` fresh uniformly random genomes, the second parents of a headless chicken's
        crossovers (Jones 1995): what is left of crossover when the population has no say."""
        return self.encoding.random_population(count, self.config.n, self.rng)

    def _harvest(
        self, population: Genomes, scored: Scored, new: BoolArray | None = None
    ) -> tuple[Genomes, Scored]:
        """Record the population's solutions; with ``harvest``, replace them by newcomers.

        ``new`` marks the rows that may hold a solution not recorded yet (``None``: any row).
        Without ``harvest``, only children can: every parent was recorded when it joined.
        """
        unrecorded = scored.conflicts == 0
        if new is not None and not self.config.harvest:
            unrecorded &= new
        solved = unrecorded.nonzero()[0]
        if solved.size == 0:
            return population, scored
        if not self.config.harvest:
            # Published as it is, never written again: the archive may keep large solved rows
            # where they are (see SolutionArchive).
            read_only(population)
        self.solutions.record(
            rows_by_column(population, self.config.n, self.encoding),
            rows=solved,
            with_images=self.config.harvest,
        )
        if not self.config.harvest:
            return population, scored
        newcomers = self.encoding.random_population(solved.size, self.config.n, self.rng)
        self._births.note_newcomers(solved)
        fresh = evaluate(newcomers, self.config.n, self.encoding, self.shape)
        self._run_state.evaluations += solved.size
        population = population.copy()
        fitness, conflicts = scored.fitness.copy(), scored.conflicts.copy()
        population[solved], fitness[solved], conflicts[solved] = (
            newcomers,
            fresh.fitness,
            fresh.conflicts,
        )
        return population, Scored(fitness, conflicts)

    def _publish(
        self,
        population: Genomes,
        fitness: FloatArray,
        conflicts: IntArray,
        started: float | None = None,
        statistics: tuple[float, float] | None = None,
    ) -> Snapshot:
        """Record the generation in the history and freeze it into a snapshot.

        ``started`` is when this generation's work began: the time up to now, statistics
        included, is added to the run's computing time. ``statistics``: the population's
        unique fraction and entropy where they are known already (kept counts).
        """
        state = self._run_state
        previous = (state.population, state.fitness, state.conflicts)
        if statistics is None:
            diversity = unique_fraction(population)
            entropy = self._column_entropy(population, self.config.n, self.encoding)
        else:
            diversity, entropy = statistics
        if started is not None:
            state.elapsed += time.perf_counter() - started
        state.population = read_only(population)
        state.fitness = read_only(fitness)
        state.conflicts = read_only(conflicts)
        stats = GenerationStats(
            generation=state.generation,
            evaluations=state.evaluations,
            elapsed=state.elapsed,
            best_fitness=float(fitness.max()),
            mean_fitness=float(fitness.mean()),
            worst_fitness=float(fitness.min()),
            best_conflicts=int(conflicts.min()),
            mean_conflicts=float(conflicts.mean()),
            unique_fraction=diversity,
            entropy=entropy,
        )
        state.history.append(stats)
        progress = RunProgress(
            generation=state.generation,
            evaluations=state.evaluations,
            elapsed=state.elapsed,
            best_conflicts=stats.best_conflicts,
            stagnant=state.stagnant,
            solutions=state.solutions.count,
        )
        # Highest fitness first, fewest conflicts breaking ties, then the first such row (what
        # a stable sort by both would put first, without sorting everything).
        ties = (fitness == stats.best_fitness).nonzero()[0]
        best_index = int(ties[conflicts[ties].argmin()])
        lineage = self._births.lineage(state.generation, state.population, best_index, *previous)
        return Snapshot(
            stats=stats,
            n=self.config.n,
            encoding=self.encoding.name,
            seed=self.seed,
            max_fitness=self.shape.best(self.config.n),
            population=state.population,
            fitness=state.fitness,
            conflicts=state.conflicts,
            best_index=best_index,
            stop_reason=first_reason(self.rules, progress),
            solutions=state.solutions.boards,
            fundamental_solutions=state.solutions.fundamental_count,
            lineage=lineage,
        )

    def state(self, *, arrays: bool = False, history: bool = True) -> dict[str, Any]:
        """Everything needed to resume the run exactly (read back by :meth:`from_state`).

        Args:
            arrays: Give ``population``, ``seen``, ``solutions`` (and the history's columns)
                as new numpy arrays instead of lists, for a store that writes ``.npy`` bytes.
            history: Include the history held in memory. Without it, a resumed run's
                history starts at the checkpoint's generation.

        Returns:
            Plain values (JSON-able when ``arrays`` is false), with a ``digest`` of them that
            :meth:`from_state` checks.
        """
        # Loaded here, not at import: most runs are never saved (json, hashlib: ~3 ms of start-up).
        from engine.checkpoint.checkpoint import state_digest

        saved = saved_values(self._run_state, leave_out=() if history else ("history",))
        state: dict[str, Any] = {"config": self.config.to_dict()}
        state.update(saved if arrays else as_lists(saved))
        # The digest of what was just written, from the run's own (trusted) values.
        state["digest"] = state_digest(self.config, saved)
        return state

    @classmethod
    def from_state(
        cls, state: Mapping[str, Any], *, history_limit: int | None = None, lineage: bool = True
    ) -> GeneticAlgorithm:
        """Resume a run saved with :meth:`state`; it continues exactly as the original would.

        Nothing in ``state`` is trusted: it is checked completely (see
        :func:`engine.checkpoint.checkpoint.read_checkpoint`) before anything is allocated for it.
        Arrays may be nested lists (JSON) or numpy arrays.

        Args:
            state: What :meth:`state` returned, possibly through JSON or ``.npy`` files.
            history_limit: As for the constructor.
            lineage: As for the constructor (the checkpoint's generation has none, but 0).

        Raises:
            CheckpointError: If anything in ``state`` is missing, mistyped, out of range or
                inconsistent; its ``field`` names the first such field.
        """
        from engine.checkpoint.checkpoint import read_checkpoint

        checkpoint = read_checkpoint(state, history_limit=history_limit)
        algorithm = cls.__new__(cls)
        algorithm._bind(checkpoint.config, lineage)
        algorithm._run_state = run_state = checkpoint.run_state
        if run_state.generation:  # the generation before the checkpoint's is not kept
            algorithm._births = UNNOTED
        # The history holds the generations before this one: publishing records this one.
        algorithm._snapshot = algorithm._publish(
            run_state.population, run_state.fitness, run_state.conflicts
        )
        return algorithm
