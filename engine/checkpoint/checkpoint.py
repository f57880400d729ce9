"""Reading a saved run back: a checkpoint is untrusted input, checked completely first.

:meth:`engine.GeneticAlgorithm.state` writes a checkpoint (plain values, arrays as lists or
numpy arrays); :func:`read_checkpoint` reads one back. It checks the keys, every type, every
shape against the checkpoint's own config, genes in range, permutations, counts, the history
and the random generator's state, and cross-checks them (the last history row must be the
statistics of the population, the stagnation count must follow from the history, ...).
Sizes are checked against the config before anything is allocated for them, so a small,
damaged file can never make the engine allocate gigabytes. Any problem raises one error type,
:class:`CheckpointError`, naming the field.

A checkpoint also carries a ``digest`` (SHA-256 of its validated content): a file damaged in a
way that still looks valid (a changed count, a dropped hash) is refused too, instead of
resuming into a different run. The digest leaves out the config's budget fields
(:data:`BUDGET_FIELDS`): they only say when the run stops, and resuming with a larger budget
is how a finished run is continued; and fields added later at their defaults
(:mod:`engine.config.added_fields`), so that older checkpoints keep their digest. The digest is
optional: a checkpoint without one is resumed when it passes every other check.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes, HashArray
from engine.checkpoint.values import (
    LARGEST_COUNT,
    check_genes,
    kind_of,
    read_array,
    read_count,
    read_flag,
    read_hashes,
    read_matrix,
    read_number,
    read_rng_state,
)
from engine.config.added_fields import without_added_defaults
from engine.config.config import Config
from engine.errors import CheckpointError, ConfigError
from engine.genomes.diversity import column_entropy, unique_fraction
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES, evaluate
from engine.genomes.uniqueness import HashSet, row_hashes
from engine.operators.registry import fitness_shape_of
from engine.run_state import OPTIONAL_FIELDS, SAVED_FIELDS, RunState, is_table, saved_values
from engine.snapshot import INTEGER_COLUMNS, STAT_COLUMNS, History
from engine.solutions.archive import KNOWN_TOTALS, SolutionArchive, rows_by_column

REQUIRED_KEYS: Final = ("config", *(name for name in SAVED_FIELDS if name not in OPTIONAL_FIELDS))
OPTIONAL_KEYS: Final = (*OPTIONAL_FIELDS, "digest")
BUDGET_FIELDS: Final = ("generations", "max_evals", "time_limit", "stagnation")
"""Config fields that only say when a run stops: a resumed run may change them."""


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint checked completely: the run's config and its state, ready to resume.

    ``run_state.fitness`` and ``run_state.conflicts`` are the population's, computed while
    checking it. ``run_state.history`` holds the rows before the current generation's (or
    none, when the checkpoint had no history): resuming records the current one, as a step
    records its own. ``digest`` is the one the checkpoint carried, if any.
    """

    config: Config
    run_state: RunState
    digest: str | None

    @property
    def generation(self) -> int:
        """The generation the run was saved at."""
        return self.run_state.generation


def read_checkpoint(
    state: object, *, check_digest: bool = True, history_limit: int | None = None
) -> Checkpoint:
    """Check a checkpoint completely and return its typed content.

    Args:
        state: What :meth:`engine.GeneticAlgorithm.state` returned, possibly through JSON
            (arrays as nested lists) or ``.npy`` files (arrays as numpy arrays).
        check_digest: Compare the ``digest``, when there is one, with the content.
        history_limit: Hold only the last this many rows of the history (``None``: all).

    Raises:
        CheckpointError: On the first problem found, naming its field.
    """
    if not isinstance(state, Mapping):
        raise CheckpointError("state", f"a mapping of fields is expected, not {kind_of(state)}")
    for key in state:
        if key not in REQUIRED_KEYS and key not in OPTIONAL_KEYS:
            raise CheckpointError(str(key), "not a checkpoint field")
    for key in REQUIRED_KEYS:
        if key not in state:
            raise CheckpointError(key, "missing")
    config = _config(state["config"])
    n, size = config.n, config.population
    generation = read_count(state["generation"], "generation")
    evaluations = read_count(state["evaluations"], "evaluations", low=size)
    elapsed = read_number(state["elapsed"], "elapsed", low=0.0)
    stagnant = read_count(state["stagnant"], "stagnant", high=generation)
    best_ever = read_number(state["best_ever"], "best_ever")
    threshold = read_number(state["threshold"], "threshold")
    mutating = read_flag(state["mutating"], "mutating")
    if mutating and not config.fallback:
        raise CheckpointError("mutating", "only Sheppard's fallback (config.fallback) mutates")
    rng = read_rng_state(state["rng"])
    encoding = ENCODINGS[config.encoding]
    population = read_matrix(state["population"], "population", n, rows=size)
    check_genes(population, "population", encoding.gene_values(n), encoding.is_permutation)
    population = np.array(population, dtype=np.int64)  # a copy: the caller keeps its array
    shape = fitness_shape_of(config.fitness)
    scored = evaluate(population, n, encoding, shape)
    seen = read_hashes(state["seen"], "seen", evaluations)
    _check_seen(seen, population, config, evaluations)
    solutions = _solutions(state["solutions"], config, evaluations)
    if not config.harvest:
        solved = population[scored.conflicts == 0]
        found = row_hashes(rows_by_column(solved, n, encoding))
        if not np.isin(found, row_hashes(solutions)).all():
            raise CheckpointError("solutions", "a solution in the population is missing")
    history = None
    if "history" in state:
        history = _history(state["history"], generation)
    run_state = RunState(
        generation=generation,
        evaluations=evaluations,
        elapsed=elapsed,
        stagnant=stagnant,
        best_ever=best_ever,
        rng=_generator(rng, config),
        population=population,
        fitness=scored.fitness,
        conflicts=scored.conflicts,
        seen=HashSet(seen),
        threshold=threshold,
        mutating=mutating,
        solutions=_archive(solutions, n),
        history=_held_history(history, generation, history_limit),
    )
    _check_threshold(config, run_state)
    if history is not None:
        _check_history_matches(config, run_state, history)
    elif generation == 0:
        _check_first_best(config, run_state)
    digest = state.get("digest")
    if digest is not None:
        if not isinstance(digest, str) or len(digest) != 64:
            raise CheckpointError("digest", "64 hexadecimal digits (SHA-256) are expected")
        if check_digest and digest != state_digest(config, _as_saved(run_state, history)):
            raise CheckpointError(
                "digest", "it does not match the content: the checkpoint was changed or damaged"
            )
    return Checkpoint(config=config, run_state=run_state, digest=digest)


def state_digest(config: Config, saved: Mapping[str, Any]) -> str:
    """SHA-256 of a run's saved state (budget fields aside).

    Args:
        config: The run's config.
        saved: The state's fields as :func:`engine.run_state.saved_values` gives them:
            numbers and mappings go into the digest as JSON, arrays (and a table's columns)
            as their type, shape and bytes.
    """
    values = config.to_dict()
    scalars: dict[str, Any] = {
        "config": without_added_defaults(
            {name: value for name, value in values.items() if name not in BUDGET_FIELDS}
        )
    }
    arrays: list[tuple[str, npt.NDArray[Any]]] = []
    for name, value in saved.items():
        if isinstance(value, np.ndarray):
            arrays.append((name, value))
        elif is_table(value):
            arrays += [(f"{name}.{column}", array) for column, array in value.items()]
        else:
            scalars[name] = value
    digest = hashlib.sha256(json.dumps(scalars, sort_keys=True).encode())
    for name, array in arrays:
        digest.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


# --- values checked against the config and each other -------------------------------------


def _config(value: object) -> Config:
    if not isinstance(value, Mapping):
        raise CheckpointError(
            "config", f"a mapping of config fields is expected, not {kind_of(value)}"
        )
    try:
        config = Config.from_mapping(value)
    except ConfigError as error:
        raise CheckpointError(f"config.{error.field}", str(error)) from None
    if config.seed is None:
        raise CheckpointError("config.seed", "a resumed run needs the seed it was started with")
    return config


def _check_seen(seen: HashArray, population: Genomes, config: Config, evaluations: int) -> None:
    if not config.unique:
        if seen.shape[0]:
            raise CheckpointError("seen", "only a run with config.unique remembers hashes")
        return
    if config.harvest:
        return  # harvest newcomers are evaluated without being remembered
    # Every evaluated child but the initial repeats is remembered, and so is the population.
    if not evaluations - config.population < seen.shape[0] <= evaluations:
        raise CheckpointError(
            "seen", f"{seen.shape[0]:,} hashes do not fit {evaluations:,} evaluations"
        )
    if not np.isin(row_hashes(population), seen).all():
        raise CheckpointError("seen", "the population's own hashes are missing")


def _solutions(value: object, config: Config, evaluations: int) -> Genomes:
    n = config.n
    possible = 8 * evaluations if config.harvest else evaluations
    known = KNOWN_TOTALS.get(n)
    if known is not None:
        possible = min(possible, known[0])
    solutions = read_matrix(value, "solutions", n, max_rows=possible)
    check_genes(solutions, "solutions", n, permutation=True)
    solutions = np.array(solutions, dtype=np.int64)
    if solutions.shape[0]:
        permutation = ENCODINGS["permutation"]
        conflicts = evaluate(solutions, n, permutation, FITNESS_SHAPES["pairs"]).conflicts
        wrong = np.flatnonzero(conflicts)
        if wrong.size:
            raise CheckpointError(f"solutions[{int(wrong[0])}]", "not a solution")
        if np.unique(row_hashes(solutions)).shape[0] != solutions.shape[0]:
            raise CheckpointError("solutions", "a solution is repeated")
    return solutions


def _history(value: object, generation: int) -> dict[str, npt.NDArray[Any]]:
    if not isinstance(value, Mapping) or set(value) != set(STAT_COLUMNS):
        raise CheckpointError("history", f"a mapping of the columns {', '.join(STAT_COLUMNS)}")
    lengths = set()
    for name in STAT_COLUMNS:
        column = value[name]
        if isinstance(column, np.ndarray):
            if column.ndim != 1:
                raise CheckpointError(f"history.{name}", "a 1-D column is expected")
            lengths.add(column.shape[0])
        elif isinstance(column, (list, tuple)):
            lengths.add(len(column))
        else:
            raise CheckpointError(f"history.{name}", f"a list or an array, not {kind_of(column)}")
    if len(lengths) != 1:
        raise CheckpointError("history", f"columns of different lengths: {sorted(lengths)}")
    rows = lengths.pop()
    if not 1 <= rows <= generation + 1:
        raise CheckpointError("history", f"1 to {generation + 1} rows are possible, not {rows}")
    columns: dict[str, npt.NDArray[Any]] = {}
    for name in STAT_COLUMNS:
        field = f"history.{name}"
        array = read_array(value[name], field)
        if array.ndim != 1:
            raise CheckpointError(field, "a column of numbers is expected")
        if name in INTEGER_COLUMNS:
            if array.dtype.kind not in "iu":
                raise CheckpointError(field, f"whole numbers are expected, not {array.dtype}")
            if array.min() < 0 or array.max() > LARGEST_COUNT:
                raise CheckpointError(field, "counts are between 0 and 2**62")
            columns[name] = np.asarray(array, dtype=np.int64)
        else:
            if array.dtype.kind not in "iuf":
                raise CheckpointError(field, f"numbers are expected, not {array.dtype}")
            floats = np.asarray(array, dtype=np.float64)
            if not np.isfinite(floats).all():
                raise CheckpointError(field, "numbers must be finite")
            columns[name] = floats
    expected = np.arange(generation + 1 - rows, generation + 1)
    if not np.array_equal(columns["generation"], expected):
        raise CheckpointError("history.generation", f"generations {expected[0]}..{generation}")
    for name in ("evaluations", "elapsed"):
        if (np.diff(columns[name]) < 0).any() or columns[name][0] < 0:
            raise CheckpointError(f"history.{name}", "never negative, never decreasing")
    return columns


def _check_history_matches(
    config: Config, run_state: RunState, history: dict[str, npt.NDArray[Any]]
) -> None:
    """The last row is the current generation, and the counters follow from the rows."""
    population, fitness, conflicts = run_state.population, run_state.fitness, run_state.conflicts
    current = {
        "evaluations": run_state.evaluations,
        "elapsed": run_state.elapsed,
        "best_fitness": float(fitness.max()),
        "mean_fitness": float(fitness.mean()),
        "worst_fitness": float(fitness.min()),
        "best_conflicts": int(conflicts.min()),
        "mean_conflicts": float(conflicts.mean()),
        "unique_fraction": unique_fraction(population),
        "entropy": column_entropy(population, config.n, ENCODINGS[config.encoding]),
    }
    for name, value in current.items():
        last = history[name][-1].item()
        if last != value:
            raise CheckpointError(
                f"history.{name}", f"the last row says {last!r}, the state {value!r}"
            )
    if history["generation"][0] != 0:
        return  # a partial history: the counters cannot be replayed
    best = history["best_fitness"]
    solution = fitness_shape_of(config.fitness).best(config.n)
    if config.harvest and run_state.best_ever == solution and run_state.best_ever > best.max():
        # Generation 0 held a solution, harvested before its row was written: never beaten.
        expected_best, expected_stagnant = solution, run_state.generation
    else:
        running = np.maximum.accumulate(best)
        improved = np.flatnonzero(best[1:] > running[:-1]) + 1
        last = int(improved[-1]) if improved.size else 0
        expected_best, expected_stagnant = float(running[-1]), run_state.generation - last
    if run_state.best_ever != expected_best:
        raise CheckpointError("best_ever", f"the history gives {expected_best!r}")
    if run_state.stagnant != expected_stagnant:
        raise CheckpointError("stagnant", f"the history gives {expected_stagnant}")
    first_worst = float(history["worst_fitness"][0])
    unchanged = config.survivor != "threshold" and not config.harvest
    if unchanged and run_state.threshold != first_worst:
        raise CheckpointError("threshold", f"the history gives {first_worst!r}")


def _check_threshold(config: Config, run_state: RunState) -> None:
    solution = fitness_shape_of(config.fitness).best(config.n)
    if run_state.threshold > solution:
        raise CheckpointError("threshold", f"no fitness is above a solution's, {solution!r}")


# --- the run state, once checked --------------------------------------------------------------


def _generator(rng: dict[str, Any], config: Config) -> np.random.Generator:
    """The run's generator, seeded as a fresh run's and set to the checked state."""
    generator = np.random.default_rng(config.seed)
    generator.bit_generator.state = rng
    return generator


def _archive(solutions: Genomes, n: int) -> SolutionArchive:
    archive = SolutionArchive(n)
    archive.record(solutions)
    return archive


def _check_first_best(config: Config, run_state: RunState) -> None:
    """At generation 0 with no history, resuming writes the history from its first row: the
    best so far must be that generation's (or, harvested, a solution it held)."""
    best = float(run_state.fitness.max())
    solution = fitness_shape_of(config.fitness).best(config.n)
    harvested = config.harvest and run_state.best_ever == solution
    if run_state.best_ever != best and not harvested:
        raise CheckpointError("best_ever", f"generation 0's best fitness is {best!r}")


def _held_history(
    history: dict[str, npt.NDArray[Any]] | None, generation: int, limit: int | None
) -> History:
    """The history's rows before the current generation's, which resuming records again."""
    if history is not None and len(history["generation"]) > 1:
        return History({name: column[:-1] for name, column in history.items()}, limit=limit)
    return History(limit=limit, first_generation=generation)


def _as_saved(run_state: RunState, history: dict[str, npt.NDArray[Any]] | None) -> dict[str, Any]:
    """What the checkpoint held, as :meth:`engine.GeneticAlgorithm.state` saved it: the
    history as read (the run state holds one row less, and with a limit fewer)."""
    saved = saved_values(run_state, leave_out=("history",))
    if history is not None:
        saved["history"] = history
    return saved
