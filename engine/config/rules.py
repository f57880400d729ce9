"""The rules a run's config must follow, beyond each field's type.

:func:`config_errors` lists every problem with a config: a value out of range, a count past
what it can mean on the board (tries beyond every possible move), a name that is not known, an
operator that does not fit the encoding, a run that could never make a child or never end, or
one that would need more memory than this machine allows (the estimate is
:mod:`engine.config.memory_budget`). Each problem is a :class:`ConfigError` naming the field, the
value and what is allowed. :class:`engine.config.config.Config` refuses a config with any.
"""

from __future__ import annotations

from typing import Final

from engine.config.fields import FIELDS, WHOLE_NUMBER_FIELDS, ConfigFields, typed_value
from engine.config.memory_budget import memory_error
from engine.config.plugin_checks import plugin_errors
from engine.errors import ConfigError
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES
from engine.operators.crossover import CROSSOVERS, PERMUTATION_CROSSOVERS
from engine.operators.mutation import FREE_MUTATIONS, MUTATIONS
from engine.operators.plugins import is_plugin_name
from engine.operators.takeover_start import SMALLEST_N as TAKEOVER_SMALLEST_N
from engine.solutions.archive import KNOWN_TOTALS

LARGEST_WHOLE_NUMBER: Final = 2**62
"""No count, budget or seed above this is real; every one fits a signed 64-bit integer."""


TRIES_PER_MOVE: Final = 64
"""Random tries per possible move, at most (``candidates``, ``local_search_candidates``): with
64 tries for each of m equally likely moves, every one is tried but for a chance below e^-64
(about 10^-28), so more tries find no better move; they only cost time."""


def _type_errors(config: ConfigFields) -> list[ConfigError]:
    """A :class:`ConfigError` for each field whose value has the wrong type."""
    found = (typed_value(name, getattr(config, name)) for name in FIELDS)
    return [error for error in found if isinstance(error, ConfigError)]


def _check_names(config: ConfigFields, errors: list[ConfigError]) -> None:
    for name in ("encoding", "fitness", "selection", "crossover", "mutation", "survivor"):
        choices = FIELDS[name].metadata["choices"]
        value = getattr(config, name)
        if name != "encoding" and is_plugin_name(value):
            continue  # checked by calling it (engine.config.plugin_checks)
        if value not in choices:
            errors.append(ConfigError(name, value, f"choose one of {', '.join(choices)}"))


def _check_fit(config: ConfigFields, errors: list[ConfigError]) -> None:
    """Operators and shapes that do not fit the encoding are config errors, not crashes."""
    permutation = config.encoding == "permutation"
    if config.crossover in CROSSOVERS:
        if permutation and config.crossover not in PERMUTATION_CROSSOVERS:
            errors.append(
                ConfigError(
                    "crossover",
                    config.crossover,
                    f"the permutation encoding needs one of {', '.join(PERMUTATION_CROSSOVERS)}",
                )
            )
        if not permutation and config.crossover in PERMUTATION_CROSSOVERS:
            free = sorted(set(CROSSOVERS) - set(PERMUTATION_CROSSOVERS))
            errors.append(
                ConfigError(
                    "crossover",
                    config.crossover,
                    f"the {config.encoding} encoding needs one of {', '.join(free)}",
                )
            )
    if permutation and config.mutation in FREE_MUTATIONS:
        allowed = sorted(set(MUTATIONS) - set(FREE_MUTATIONS))
        errors.append(
            ConfigError(
                "mutation",
                config.mutation,
                f"the permutation encoding needs one of {', '.join(allowed)}",
            )
        )
    shape = FITNESS_SHAPES.get(config.fitness)
    if shape is not None:
        if shape.permutation_only and not permutation:
            errors.append(
                ConfigError(
                    "fitness",
                    config.fitness,
                    "it counts diagonal pairs only, so it needs the permutation encoding",
                )
            )
        if config.selection in ("roulette",) and not shape.nonnegative:
            fitting = ", ".join(s for s, f in FITNESS_SHAPES.items() if f.nonnegative)
            errors.append(
                ConfigError(
                    "selection",
                    config.selection,
                    f"a roulette wheel needs a non-negative fitness: {fitting}",
                )
            )


def _check_numbers(config: ConfigFields, errors: list[ConfigError]) -> None:
    def at_least(name: str, low: int, why: str = "") -> None:
        value = getattr(config, name)
        if value is not None and value < low:
            errors.append(ConfigError(name, value, f"a whole number >= {low}{why}"))

    at_least("n", 1)
    if config.n in (2, 3):
        errors.append(
            ConfigError("n", config.n, "N = 2 and N = 3 have no solution; use N = 1 or N >= 4")
        )
    at_least("population", 2)
    at_least("generations", 1)
    at_least("max_evals", 1)
    at_least("stagnation", 1)
    at_least("candidates", 1)
    at_least("offspring", 1)
    at_least("seed", 0)
    if config.time_limit is not None and not 0 < config.time_limit < float("inf"):
        errors.append(
            ConfigError("time_limit", config.time_limit, "a finite number of seconds > 0")
        )
    for name in ("crossover_rate", "mutation_rate", "gene_rate"):
        value = getattr(config, name)
        if value is not None and not 0.0 <= value <= 1.0:
            errors.append(ConfigError(name, value, "a probability between 0 and 1"))
    if config.selection == "tournament" and not 1 <= config.tournament_size <= config.population:
        errors.append(
            ConfigError(
                "tournament_size",
                config.tournament_size,
                f"between 1 and the population ({config.population})",
            )
        )
    if not 0 <= config.elitism < config.population:
        errors.append(
            ConfigError(
                "elitism", config.elitism, f"between 0 and population - 1 ({config.population - 1})"
            )
        )
    if config.children_per_couple not in (1, 2):
        errors.append(ConfigError("children_per_couple", config.children_per_couple, "1 or 2"))
    if config.harvest and config.stop_when_solved:
        errors.append(
            ConfigError("harvest", True, "finding all solutions needs stop-when-solved off")
        )
    if config.survivor == "generational" and not config.clone_uncrossed:
        errors.append(
            ConfigError(
                "clone_uncrossed", False, "generational survivors need a full set of children"
            )
        )
    if config.survivor == "genitor" and (config.offspring or 0) > config.population:
        errors.append(
            ConfigError(
                "offspring",
                config.offspring,
                f"at most the population ({config.population}): a genitor child replaces a member",
            )
        )
    if config.survivor == "generational":
        needed = config.population - config.elitism
        if config.offspring is not None and config.offspring < needed:
            errors.append(
                ConfigError(
                    "offspring",
                    config.offspring,
                    f"generational survivors need population - elitism = {needed} children or more",
                )
            )
        if config.unique:
            errors.append(
                ConfigError("unique", True, "unique children need plus or steady-state survivors")
            )


def _check_memetic(config: ConfigFields, errors: list[ConfigError]) -> None:
    """The memetic fields: a budget of swaps, candidates, and the encoding they need."""
    if config.local_search < 0:
        errors.append(
            ConfigError("local_search", config.local_search, "a whole number >= 0 (0: off)")
        )
    if config.local_search_candidates < 1:
        errors.append(
            ConfigError(
                "local_search_candidates", config.local_search_candidates, "a whole number >= 1"
            )
        )
    if config.encoding in ENCODINGS and config.encoding != "permutation":
        if config.local_search > 0:
            errors.append(
                ConfigError(
                    "local_search",
                    config.local_search,
                    f"the local search swaps queens of permutations; the {config.encoding} "
                    "encoding needs 0",
                )
            )
        if config.greedy_start:
            errors.append(
                ConfigError(
                    "greedy_start",
                    True,
                    f"greedy starts are permutations; the {config.encoding} encoding needs it off",
                )
            )


def _check_takeover_start(config: ConfigFields, errors: list[ConfigError]) -> None:
    """The takeover start (:mod:`engine.operators.takeover_start`) lays queens one per column."""
    if not config.one_best:
        return
    if config.encoding not in ("permutation", "integer"):
        errors.append(
            ConfigError(
                "one_best",
                True,
                f"the takeover start puts one queen per column; the {config.encoding} "
                "encoding needs it off (use permutation or integer)",
            )
        )
    elif config.n < TAKEOVER_SMALLEST_N:
        errors.append(
            ConfigError(
                "one_best",
                True,
                f"on N = {config.n} no board beats every queen on one diagonal; "
                f"N >= {TAKEOVER_SMALLEST_N} is needed",
            )
        )
    elif config.greedy_start:
        errors.append(ConfigError("one_best", True, "one start at a time: turn greedy_start off"))


def move_choices(config: ConfigFields) -> tuple[int, str]:
    """The moves one try of the conflict mutation draws from, and what they are."""
    if config.encoding == "permutation":
        return config.n - 1, "partner columns a queen can swap with"
    if config.encoding == "squares":
        return config.n * config.n, "squares a queen can move to"
    return config.n, "rows a queen can move to"


def _check_counts(config: ConfigFields, errors: list[ConfigError]) -> None:
    """Counts past what they can mean on this board, refused before any work: tries beyond
    every possible move, a swap budget beyond every conflict a board can have."""
    if config.encoding in ENCODINGS:
        choices, what = move_choices(config)
        most = TRIES_PER_MOVE * max(1, choices)
        if config.candidates > most:
            errors.append(
                ConfigError(
                    "candidates",
                    config.candidates,
                    f"a whole number between 1 and {most:,}: {TRIES_PER_MOVE} tries for each "
                    f"of the {choices:,} {what} at N = {config.n} (more find no better move)",
                )
            )
    partners = config.n - 1
    most = TRIES_PER_MOVE * max(1, partners)
    if config.local_search_candidates > most:
        errors.append(
            ConfigError(
                "local_search_candidates",
                config.local_search_candidates,
                f"a whole number between 1 and {most:,}: {TRIES_PER_MOVE} tries for each of "
                f"the {partners:,} partner columns at N = {config.n} (more find no better swap)",
            )
        )
    pairs = config.n * (config.n - 1) // 2
    most = max(1, pairs)
    if config.local_search > most:
        errors.append(
            ConfigError(
                "local_search",
                config.local_search,
                f"a whole number between 0 (off) and {most:,}: each swap of the search removes "
                f"at least one attacking pair, and a board of N = {config.n} has at most "
                f"N(N-1)/2 = {pairs:,}",
            )
        )


def _check_progress(config: ConfigFields, errors: list[ConfigError]) -> None:
    """Refuse a run that can never make a child, or never end."""
    if not config.clone_uncrossed and config.crossover_rate == 0.0:
        errors.append(
            ConfigError(
                "crossover_rate",
                config.crossover_rate,
                "with clone-uncrossed off, no couple would ever have a child: use a crossover "
                "rate above 0 or turn clone-uncrossed on",
            )
        )
    elif not config.clone_uncrossed and config.fallback:
        errors.append(
            ConfigError(
                "fallback",
                True,
                "its mutation generations make no crossover, and with clone-uncrossed off no "
                "child at all: turn clone-uncrossed on",
            )
        )
    budgets = (config.generations, config.max_evals, config.time_limit, config.stagnation)
    if config.harvest and config.n not in KNOWN_TOTALS and all(b is None for b in budgets):
        errors.append(
            ConfigError(
                "harvest",
                True,
                f"N = {config.n} has no known number of solutions, so finding all of them "
                "never ends: add a budget (--generations, --max-evals, --time-limit or "
                "--stagnation)",
            )
        )


def _size_errors(config: ConfigFields) -> list[ConfigError]:
    """Whole numbers too large to be real: each must fit the 64-bit integers of numpy, the
    history and the run store (a seed of 10^23 used to crash the store with a traceback)."""
    errors = []
    for name in FIELDS:
        value = getattr(config, name)
        if name in WHOLE_NUMBER_FIELDS and value is not None and value > LARGEST_WHOLE_NUMBER:
            errors.append(
                ConfigError(name, value, f"a whole number <= 2**62 ({LARGEST_WHOLE_NUMBER:,})")
            )
    return errors


def config_errors(config: ConfigFields) -> list[ConfigError]:
    """Every problem with a config, in field order (empty when it is valid)."""
    errors = _type_errors(config) or _size_errors(config)
    if errors:
        return errors
    _check_numbers(config, errors)
    _check_names(config, errors)
    _check_fit(config, errors)
    _check_progress(config, errors)
    _check_memetic(config, errors)
    _check_takeover_start(config, errors)
    _check_counts(config, errors)
    memory = memory_error(config)
    if memory is not None:
        errors.append(memory)
    if not errors:  # a plug-in is called on a sample of the run: only a valid one
        errors.extend(plugin_errors(config))
    return errors
