"""Plug-in operators checked before a run uses them.

Each plug-in a config names is called on a sample of the run's own kind (its encoding, its N,
up to :data:`CHECKED_ROWS` individuals, its rates) before anything runs, and refused with one
line naming the file, the function and the check that failed:

- ``raises``: it raised an exception;
- ``returns``: it did not return an array (two, for a crossover);
- ``shape`` and ``dtype``: the array's shape and kind of number;
- ``range``: genes within the encoding's values, indices within the population;
- ``permutation``: every row still a permutation, when the encoding is one;
- ``finite``: no NaN or infinity in a fitness;
- ``unchanged``: its inputs left as they were given;
- ``deterministic``: called twice from copies of one generator state, it returns the same
  arrays, however numpy's (and Python's) global generator is seeded in between: an operator
  drawing from those instead of the run's ``rng`` would break replay silently.

The results are kept per plug-in and run shape, so a sweep's many cells check each once.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, NamedTuple

import numpy as np

from engine.config.fields import ConfigFields
from engine.errors import ConfigError
from engine.genomes.encodings import ENCODINGS, Encoding
from engine.genomes.fitness import FITNESS_SHAPES, evaluate
from engine.operators.plugins import PluginError, is_plugin_name, parse_name, plugin_function

CHECKED_ROWS: Final = 1000
"""A plug-in is checked on at most this many individuals (the run's population, if fewer)."""

CHECKED_GENES: Final = 1 << 22
"""...and on at most this many genes in all (at least two individuals): a check on a large
board costs what a generation costs, not more."""

CHECK_SEED: Final = 20_260_528
"""The sample population's and the checked generator's seed: every check is the same."""

GLOBAL_SEEDS: Final = (11, 97)
"""numpy's and Python's global generators are seeded so before the first and second call."""

PLUGIN_FIELDS: Final = ("selection", "crossover", "mutation", "survivor", "fitness")
"""The config fields that may name a plug-in."""


class Sample(NamedTuple):
    """What a check calls a plug-in with: the run's kind of population, and its fitness."""

    encoding: Encoding
    n: int
    genomes: np.ndarray[Any, np.dtype[np.int64]]
    fitness: np.ndarray[Any, np.dtype[np.float64]]
    conflicts: np.ndarray[Any, np.dtype[np.int64]]


def plugin_errors(config: ConfigFields) -> list[ConfigError]:
    """A :class:`ConfigError` for each plug-in the config names that fails its check."""
    errors: list[ConfigError] = []
    for field in PLUGIN_FIELDS:
        value = getattr(config, field)
        if not isinstance(value, str) or not is_plugin_name(value):
            continue
        problem = _checked(field, value, _settings(field, config))
        if problem is not None:
            errors.append(
                ConfigError(
                    field, problem.name, f"check {problem.check!r} failed: {problem.problem}"
                )
            )
    return errors


def _settings(field: str, config: ConfigFields) -> tuple[Any, ...]:
    """What a check of ``field``'s plug-in depends on, beyond the plug-in itself."""
    base = (config.encoding, config.n, config.population)
    if field == "selection":
        return (*base, config.fitness, config.tournament_size, config.children_per_generation)
    if field == "mutation":
        return (*base, config.mutation_rate)
    if field == "survivor":
        return (*base, config.fitness, config.elitism, config.children_per_generation)
    return base


@lru_cache(maxsize=256)
def _checked(field: str, value: str, settings: tuple[Any, ...]) -> PluginError | None:
    """The first problem of a plug-in in a run of these settings, or ``None``."""
    encoding_name, n, population = settings[:3]
    if encoding_name not in ENCODINGS:
        return None  # the config reports the encoding itself
    shown = parse_name(value).shown
    try:
        function = plugin_function(value)
        sample = _sample(ENCODINGS[encoding_name], n, population, settings, field in _SCORED)
        _CHECKS[field](shown, function, sample, settings)
    except PluginError as error:
        return error
    return None


_SCORED: Final = frozenset({"selection", "survivor", "fitness"})
"""The kinds whose check needs the sample's fitness and conflicts (the others: its genomes)."""


def _sample(
    encoding: Encoding, n: int, population: int, settings: tuple[Any, ...], scored: bool
) -> Sample:
    rows = max(2, min(population, CHECKED_ROWS, CHECKED_GENES // max(n, 1)))
    rng = np.random.default_rng(CHECK_SEED)
    genomes = encoding.random_population(rows, n, rng)
    if not scored:
        return Sample(encoding, n, genomes, np.zeros(0), np.zeros(0, dtype=np.int64))
    shape_name = settings[3] if len(settings) > 3 and settings[3] in FITNESS_SHAPES else "pairs"
    score = evaluate(genomes, n, encoding, FITNESS_SHAPES[shape_name])
    return Sample(encoding, n, genomes, score.fitness, score.conflicts)


def _twice(
    shown: str, function: Callable[..., Any], inputs: tuple[Any, ...], rng_at: int | None
) -> Any:
    """Call ``function`` on ``inputs`` (``rng`` inserted at ``rng_at``) twice from one
    generator state, numpy's and Python's global generators seeded differently before each
    call; return the first result.

    Raises:
        PluginError: If it raises, changes an input, or returns something different.
    """
    kept = (np.random.get_state(), random.getstate())
    try:
        results = [
            _one_call(shown, function, inputs, rng_at, global_seed) for global_seed in GLOBAL_SEEDS
        ]
        if not _same(results[0], results[1]):
            again = _one_call(shown, function, inputs, rng_at, GLOBAL_SEEDS[0])
            why = (
                "it draws from numpy's or Python's global generator: draw from the rng given"
                if _same(results[0], again)
                else "two calls from one generator state return different arrays"
            )
            raise PluginError(shown, "deterministic", why)
    finally:
        np.random.set_state(kept[0])
        random.setstate(kept[1])
    return results[0]


def _one_call(
    shown: str, function: Callable[..., Any], inputs: tuple[Any, ...], rng_at: int | None, seed: int
) -> Any:
    np.random.seed(seed)
    random.seed(seed)
    before = [_copy(item) for item in inputs]
    arguments = list(inputs)
    if rng_at is not None:
        arguments.insert(rng_at, np.random.default_rng(CHECK_SEED))
    try:
        result = function(*arguments)
    except Exception as error:
        raise PluginError(shown, "raises", f"{type(error).__name__}: {error}") from None
    for position, (given, was) in enumerate(zip(inputs, before, strict=True)):
        if isinstance(was, np.ndarray) and not np.array_equal(given, was):
            raise PluginError(shown, "unchanged", f"it modified argument {position + 1}")
    return _copy(result)


def _copy(value: Any) -> Any:
    """A copy of an argument or a result that the plug-in cannot change afterwards."""
    if isinstance(value, np.ndarray):
        return value.copy()
    return copy.deepcopy(value)


def _same(first: Any, second: Any) -> bool:
    if isinstance(first, (tuple, list)) and isinstance(second, (tuple, list)):
        return len(first) == len(second) and all(
            _same(a, b) for a, b in zip(first, second, strict=True)
        )
    try:
        return bool(np.array_equal(np.asarray(first), np.asarray(second), equal_nan=True))
    except TypeError:
        return bool(np.array_equal(np.asarray(first), np.asarray(second)))


def _array(shown: str, result: Any, what: str) -> np.ndarray[Any, Any]:
    if not isinstance(result, np.ndarray):
        raise PluginError(shown, "returns", f"{what} is {type(result).__name__}, not an array")
    return result


def _integers(
    shown: str, array: np.ndarray[Any, Any], shape: tuple[int, ...], high: int, what: str
) -> None:
    if array.shape != shape:
        raise PluginError(shown, "shape", f"{what} has shape {array.shape}, {shape} is expected")
    if not np.issubdtype(array.dtype, np.integer):
        raise PluginError(shown, "dtype", f"{what} is {array.dtype}, integers are expected")
    if array.size and (array.min() < 0 or array.max() >= high):
        raise PluginError(
            shown, "range", f"{what} holds {array.min()}..{array.max()}, 0..{high - 1} is expected"
        )


def _genomes(shown: str, array: np.ndarray[Any, Any], sample: Sample, rows: int, what: str) -> None:
    _integers(shown, array, (rows, sample.n), sample.encoding.gene_values(sample.n), what)
    if sample.encoding.is_permutation:
        broken = (np.sort(array, axis=1) != np.arange(sample.n)).any(axis=1).nonzero()[0]
        if broken.size:
            raise PluginError(
                shown,
                "permutation",
                f"{what} row {broken[0]} is not a permutation of 0..{sample.n - 1} "
                f"(the {sample.encoding.name} encoding)",
            )


def _check_mutation(
    shown: str, function: Callable[..., Any], sample: Sample, settings: tuple[Any, ...]
) -> None:
    rate = float(settings[3])
    children = sample.genomes
    result = _array(shown, _twice(shown, function, (children, rate), 1), "the result")
    _genomes(shown, result, sample, children.shape[0], "the result")


def _check_crossover(
    shown: str, function: Callable[..., Any], sample: Sample, settings: tuple[Any, ...]
) -> None:
    couples = sample.genomes.shape[0] // 2
    first, second = sample.genomes[:couples], sample.genomes[couples : 2 * couples]
    result = _twice(shown, function, (first, second), 2)
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise PluginError(shown, "returns", "a pair (child_one, child_two) of arrays is expected")
    for which, children in zip(("first", "second"), result, strict=True):
        _genomes(
            shown,
            _array(shown, children, f"the {which} children"),
            sample,
            couples,
            f"the {which} children",
        )


def _check_selection(
    shown: str, function: Callable[..., Any], sample: Sample, settings: tuple[Any, ...]
) -> None:
    size, wanted = int(settings[4]), int(settings[5])
    count = 2 * -(-min(wanted, sample.genomes.shape[0]) // 2)
    result = _twice(shown, _with_size(function, size), (sample.fitness, count), 2)
    picks = _array(shown, result, "the picks")
    _integers(shown, picks, (count,), sample.fitness.shape[0], "the picks")


def _with_size(function: Callable[..., Any], size: int) -> Callable[..., Any]:
    def call(fitness: Any, count: int, rng: np.random.Generator) -> Any:
        return function(fitness, count, rng, size)

    return call


def _check_survivors(
    shown: str, function: Callable[..., Any], sample: Sample, settings: tuple[Any, ...]
) -> None:
    elitism, wanted = int(settings[4]), int(settings[5])
    half = max(1, sample.fitness.shape[0] // 2)
    parents = sample.fitness[:half]
    children = np.resize(sample.fitness[half:], min(wanted, sample.fitness.shape[0]) or 1)
    result = _twice(shown, function, (parents, children, min(elitism, half - 1)), None)
    kept = _array(shown, result, "the survivors")
    _integers(shown, kept, (half,), half + children.shape[0], "the survivors")


def _check_fitness(
    shown: str, function: Callable[..., Any], sample: Sample, settings: tuple[Any, ...]
) -> None:
    result = _twice(shown, function, (sample.genomes, sample.conflicts, sample.n), None)
    fitness = _array(shown, result, "the fitness")
    rows = (sample.genomes.shape[0],)
    if fitness.shape != rows:
        raise PluginError(shown, "shape", f"the fitness has shape {fitness.shape}, not {rows}")
    if not (np.issubdtype(fitness.dtype, np.floating) or np.issubdtype(fitness.dtype, np.integer)):
        raise PluginError(shown, "dtype", f"the fitness is {fitness.dtype}, numbers are expected")
    if not np.isfinite(fitness).all():
        raise PluginError(shown, "finite", "the fitness holds NaN or infinity")


_CHECKS: Final[dict[str, Callable[[str, Callable[..., Any], Sample, tuple[Any, ...]], None]]] = {
    "selection": _check_selection,
    "crossover": _check_crossover,
    "mutation": _check_mutation,
    "survivor": _check_survivors,
    "fitness": _check_fitness,
}
