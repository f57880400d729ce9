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
from typing import Any

import numpy as np

from engine.arrays import BoolArray, FloatArray, Genomes, IntArray
from engine.config.config import Config
from engine.config.operator_swap import swapped_config
from engine.genomes.conflicts import BoardLines
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import SHAPES_READING_COUNTS, Scored, evaluate, score_lines
from engine.genomes.uniqueness import HashSet, row_hashes
from engine.harvest import harvest
from engine.large_n.generation_rows import rows_for, small_enough_to_keep
from engine.large_n.roads import column_entropy_for, evaluate_for, road_for
from engine.large_n.tracked_generation import tracked_generation
from engine.large_n.tracked_population import TrackedPopulation
from engine.lineage.births import UNNOTED, Births
from engine.lineage.lineage import Operators
from engine.operators.crossover import COMPILED_CYCLE_FROM
from engine.operators.first_population import first_population
from engine.operators.local_search import LocalSearchSettings, improve_children
from engine.operators.mutation import COUNTED_MUTATIONS, MutationSettings
from engine.operators.registry import fitness_shape_of, mutation_of, run_survivors_of, selection_of
from engine.operators.selection_pressure import measure_selection
from engine.operators.survivors import threshold_acceptance
from engine.run_state import RunState, as_lists, saved_values
from engine.run_statistics import generation_record, population_diversity
from engine.snapshot import History, Snapshot, read_only
from engine.solutions.archive import SolutionArchive
from engine.termination import first_reason, stop_rules


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
        population = first_population(config, self.encoding, rng)
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
        # Each operator resolved once, built-in or plug-in: the generation calls what it holds.
        self.shape = fitness_shape_of(config.fitness)
        self._select = selection_of(config.selection)
        self._mutate = mutation_of(config.mutation)
        self._survive = run_survivors_of(config.survivor)
        self.rules = stop_rules(config)
        # Where the children are made and the survivors gathered from.
        self._rows = rows_for(config.n)
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
        # The road the run's generations take (engine.large_n.roads), asked once. The methods
        # that walk it are held unbound: bound ones would hold the run in a reference cycle.
        self._road = road = road_for(config)
        cls = type(self)
        self._generation = cls._kept_counts_step if road.keeps_counts else cls._children_step
        self._mutated = cls._compiled_children if road.compiled_children else cls._numpy_children
        self._column_entropy = column_entropy_for(config)
        self._evaluate = evaluate_for(road)
        # The population's kept counts, made at the first generation that reads them.
        self._tracked: TrackedPopulation | None = None

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
        births = Births(self._operators, self._snapshot.best_index) if self._lineage else UNNOTED
        self._births = births
        self._snapshot = self._generation(self, started)
        return self._snapshot

    def _children_step(self, started: float) -> Snapshot:
        """:meth:`step` with the children made as a ``(K, N)`` array (the plain and compiled
        roads)."""
        state = self._run_state
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
        survivors = self._survive(state.fitness, scored.fitness, self.config.elitism, self.rng)
        self._births.note_survivors(survivors)
        population = self._rows.survivors(state.population, children, survivors)
        # The children are a view of the union: let go of both, or a large union outlives the
        # generation's harvest and statistics (N = 10^7: 640 MB at the run's peak).
        del children
        self._rows.let_go()  # as the line counts (see _numpy_children)
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

    def _kept_counts_step(self, started: float) -> Snapshot:
        """:meth:`step` from the kept counts (the kept counts road): the same generation."""
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

    def swap_operator(self, field: str, value: str) -> None:
        """Make the next generations with another operator, checked as at a run's start
        (:func:`~engine.config.operator_swap.swapped_config`, which raises ConfigError, the run
        unchanged, when refused); the population, the generator and the history stay."""
        self._bind(swapped_config(self.config, field, value), self._lineage)

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
        children, known = self._cross(population, fitness, conflicts)
        return self._mutated(self, children, known)

    def _compiled_children(self, children: Genomes, known: IntArray) -> tuple[Genomes, Scored]:
        """The children mutated, searched and scored in compiled code, one at a time (the
        compiled children road)."""
        from engine.large_n.memetic_children import scored_children

        mutation, search = self._mutation_settings, self._local_search
        return children, scored_children(children, self.rng, mutation, search, self.shape)

    def _numpy_children(self, children: Genomes, known: IntArray) -> tuple[Genomes, Scored]:
        """The children mutated, searched, filtered for uniqueness and scored by the numpy
        operators (the plain road)."""
        config = self.config
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
            self._spare_lines = lines if small_enough_to_keep(lines) else None
        else:
            children = self._mutate(children, self.rng, self._mutation_settings)
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
        picks = self._select(fitness, 2 * couples, self.rng, config.tournament_size)
        self._run_state.selection = measure_selection(
            fitness, picks, config.selection, config.tournament_size
        )
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
                if config.headless_chicken:  # Jones 1995: fresh random mates
                    mates = self.encoding.random_population(crossing.size, config.n, self.rng)
                crossed_one, _ = births.cross(config.crossover, children[crossing], mates, self.rng)
                children[crossing], known[crossing] = crossed_one, -1
            return children[:wanted], known[:wanted]
        rows = pairs.reshape(-1)
        slot = self._rows.children_slot(population, rows.shape[0])
        # mode="clip" (the picks are in range anyway): with the default mode, numpy gathers
        # into a hidden temporary and copies that into ``out``.
        children = np.take(population, rows, axis=0, out=slot, mode="clip")
        known = conflicts.take(rows)
        if crossing.size and config.headless_chicken:
            # Jones's headless chicken: the second parent's copy gives way to a random genome.
            mates = self.encoding.random_population(crossing.size, config.n, self.rng)
            children.reshape(-1, 2, children.shape[1])[crossing, 1] = mates
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

    def _harvest(
        self, population: Genomes, scored: Scored, new: BoolArray | None = None
    ) -> tuple[Genomes, Scored]:
        """Record the population's solutions; with ``harvest``, replace them by newcomers
        (see :func:`engine.harvest.harvest`)."""
        population, scored, newcomers = harvest(
            population,
            scored,
            new,
            replace=self.config.harvest,
            archive=self.solutions,
            births=self._births,
            rng=self.rng,
            shape=self.shape,
            encoding=self.encoding,
        )
        self._run_state.evaluations += newcomers
        return population, scored

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
            n, encoding = self.config.n, self.encoding
            statistics = population_diversity(population, n, encoding, self._column_entropy)
        if started is not None:
            state.elapsed += time.perf_counter() - started
        state.population = read_only(population)
        state.fitness = read_only(fitness)
        state.conflicts = read_only(conflicts)
        record = generation_record(state, fitness, conflicts, *statistics)
        state.history.append(record.stats)
        best_index = record.best_index
        lineage = self._births.lineage(state.generation, state.population, best_index, *previous)
        return Snapshot(
            stats=record.stats,
            n=self.config.n,
            encoding=self.encoding.name,
            seed=self.seed,
            max_fitness=self.shape.best(self.config.n),
            population=state.population,
            fitness=state.fitness,
            conflicts=state.conflicts,
            best_index=best_index,
            stop_reason=first_reason(self.rules, record.progress),
            solutions=state.solutions.boards,
            fundamental_solutions=state.solutions.fundamental_count,
            lineage=lineage,
            selection=state.selection,
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
