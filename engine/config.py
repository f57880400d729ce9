"""The run configuration: one frozen object, validated where it is built.

Each field carries its help text (and its choices, for names) in its metadata, so the command
line and the dashboard's form are generated from this one place. A bad value raises
:class:`ConfigError`, which names the field, the value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from engine.crossover import CROSSOVERS, PERMUTATION_CROSSOVERS
from engine.encodings import ENCODINGS
from engine.errors import ConfigError
from engine.fitness import FITNESS_SHAPES
from engine.memory_budget import memory_error
from engine.mutation import FREE_MUTATIONS, MUTATIONS
from engine.selection import SELECTIONS
from engine.solutions import KNOWN_TOTALS
from engine.survivors import SURVIVORS


def _meta(help_text: str, choices: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"help": help_text, "choices": choices}


@dataclass(frozen=True)
class Config:
    """Everything that defines a run. Same config and seed, same run, bit for bit.

    The defaults are the team's best general-purpose GA: permutations, tournaments of 2,
    order crossover, the conflict-directed mutation and (mu + lambda) survivors.
    """

    n: int = field(default=8, metadata=_meta("board size N (N queens on an N x N board)"))
    population: int = field(default=40, metadata=_meta("number of individuals P"))
    generations: int | None = field(
        default=None, metadata=_meta("stop after this many generations (none: no limit)")
    )
    max_evals: int | None = field(
        default=None, metadata=_meta("stop after this many fitness evaluations (none: no limit)")
    )
    time_limit: float | None = field(
        default=None, metadata=_meta("stop after this many seconds of computing (none: no limit)")
    )
    stagnation: int | None = field(
        default=None,
        metadata=_meta("stop when the best fitness has not improved for this many generations"),
    )
    encoding: str = field(
        default="permutation", metadata=_meta("genome encoding", tuple(ENCODINGS))
    )
    fitness: str = field(default="pairs", metadata=_meta("fitness shape", tuple(FITNESS_SHAPES)))
    selection: str = field(
        default="tournament", metadata=_meta("parent selection", tuple(SELECTIONS))
    )
    tournament_size: int = field(
        default=2, metadata=_meta("entrants per tournament (tournament selection)")
    )
    crossover: str = field(default="ox", metadata=_meta("crossover operator", tuple(CROSSOVERS)))
    crossover_rate: float = field(
        default=0.1, metadata=_meta("chance that a couple crosses over (else children = parents)")
    )
    mutation: str = field(default="conflict", metadata=_meta("mutation operator", tuple(MUTATIONS)))
    mutation_rate: float = field(
        default=1.0,
        metadata=_meta("mutation chance: per gene for swap-gene/random-reset, else per child"),
    )
    gene_rate: float | None = field(
        default=None, metadata=_meta("shuffle-indexes: chance per gene (none: 2/N, as DEAP)")
    )
    candidates: int = field(
        default=8, metadata=_meta("conflict mutation: candidate moves tried, best one kept")
    )
    survivor: str = field(default="plus", metadata=_meta("survivor selection", tuple(SURVIVORS)))
    elitism: int = field(
        default=0, metadata=_meta("generational: best parents carried over unchanged")
    )
    offspring: int | None = field(
        default=None,
        metadata=_meta("children per generation (none: P, or 2 for steady-state)"),
    )
    children_per_couple: int = field(
        default=2, metadata=_meta("children a couple makes: 2, or 1 (CodeProject, Sheppard)")
    )
    clone_uncrossed: bool = field(
        default=True,
        metadata=_meta("a couple that does not cross passes on copies (else: no children)"),
    )
    fallback: bool = field(
        default=False,
        metadata=_meta(
            "Sheppard: crossover only, until a generation improves nothing; then mutation only"
        ),
    )
    unique: bool = field(
        default=False, metadata=_meta("drop every child identical to one seen before (Sheppard)")
    )
    stop_when_solved: bool = field(default=True, metadata=_meta("stop at the first solution"))
    harvest: bool = field(
        default=False,
        metadata=_meta(
            "find all: record each solution and its 8 symmetric images, replace it by a "
            "newcomer, stop when all are found"
        ),
    )
    local_search: int = field(
        default=0,
        metadata=_meta(
            "memetic: min-conflicts swaps per child, the improved child kept (0: off; "
            "permutation only)"
        ),
    )
    local_search_candidates: int = field(
        default=16,
        metadata=_meta("memetic: partners tried per attacked queen, the best swap kept"),
    )
    greedy_start: bool = field(
        default=False,
        metadata=_meta(
            "start from greedy permutations: queens on free diagonals, a few tries per column "
            "(permutation only)"
        ),
    )
    seed: int | None = field(
        default=None, metadata=_meta("random seed (none: drawn at random, and recorded)")
    )

    def __post_init__(self) -> None:
        # Types first: numpy scalars become Python values (so the arithmetic of the checks
        # cannot overflow), and a value of the wrong type is refused before it is compared.
        for name, value in _typed_values(self).items():
            object.__setattr__(self, name, value)
        errors = config_errors(self)
        if errors:
            raise errors[0]

    @property
    def children_per_generation(self) -> int:
        """How many children a generation makes."""
        if self.offspring is not None:
            return self.offspring
        return 2 if self.survivor == "steady-state" else self.population

    @property
    def shuffle_gene_rate(self) -> float:
        """The per-gene chance of ``shuffle-indexes``."""
        return self.gene_rate if self.gene_rate is not None else min(1.0, 2.0 / self.n)

    def replace(self, **changes: Any) -> Config:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain JSON-able values, keyed by field name."""
        return dataclasses.asdict(self)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Config:
        """A config from a mapping (a JSON document, a preset), field names with ``_`` or ``-``.

        Raises:
            ConfigError: On an unknown field, a value of the wrong type or a bad value.
        """
        if not isinstance(values, Mapping):
            raise ConfigError(
                "config", values, "a mapping of field names to values (a JSON object) is expected"
            )
        known = {f.name: f for f in dataclasses.fields(cls)}
        converted: dict[str, Any] = {}
        for key, value in values.items():
            if not isinstance(key, str):
                raise ConfigError(str(key), value, "field names are text, e.g. 'population'")
            name = key.replace("-", "_")
            if name not in known:
                raise ConfigError(key, value, f"known fields are {', '.join(sorted(known))}")
            converted[name] = parse_field(name, value)
        return cls(**converted)

    @classmethod
    def check(cls, values: Mapping[str, Any]) -> list[ConfigError]:
        """Every problem with a set of values typed by a person, without raising.

        Unparseable fields are reported, and the rest is checked with defaults standing in for
        them, so a form can show all its errors at once.
        """
        errors: list[ConfigError] = []
        fields: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(cls)}
        for key, value in values.items():
            if not isinstance(key, str):
                errors.append(ConfigError(str(key), value, "field names are text"))
                continue
            name = key.replace("-", "_")
            if name not in fields:
                errors.append(ConfigError(key, value, "not a config field"))
                continue
            try:
                fields[name] = parse_field(name, value)
            except ConfigError as error:
                errors.append(error)
        unchecked = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(unchecked, name, value)
        seen = {error.field for error in errors}
        return errors + [e for e in config_errors(unchecked) if e.field not in seen]


FIELDS: Final = {f.name: f for f in dataclasses.fields(Config)}
"""The config's fields by name, with their metadata (``help``, ``choices``)."""

_INTEGER_FIELDS: Final = {
    "n",
    "population",
    "tournament_size",
    "candidates",
    "elitism",
    "children_per_couple",
    "local_search",
    "local_search_candidates",
}
_OPTIONAL_INTEGER_FIELDS: Final = {"generations", "max_evals", "stagnation", "offspring", "seed"}
_FLOAT_FIELDS: Final = {"crossover_rate", "mutation_rate"}
_OPTIONAL_FLOAT_FIELDS: Final = {"time_limit", "gene_rate"}
_BOOL_FIELDS: Final = {
    "unique",
    "stop_when_solved",
    "clone_uncrossed",
    "fallback",
    "harvest",
    "greedy_start",
}
_WHOLE_NUMBER_FIELDS: Final = _INTEGER_FIELDS | _OPTIONAL_INTEGER_FIELDS

LARGEST_WHOLE_NUMBER: Final = 2**62
"""No count, budget or seed above this is real; every one fits a signed 64-bit integer."""

_NONE_WORDS: Final = {"", "none", "null", "off"}


def parse_field(name: str, value: Any) -> Any:
    """Convert a value typed by a person (or read from a file) to the field's type.

    Strings are parsed; ``"none"`` or an empty string mean "no value" for optional fields.

    Raises:
        ConfigError: If the value cannot be read as the field's type.
    """
    text = value.strip().lower() if isinstance(value, str) else None
    optional = name in _OPTIONAL_INTEGER_FIELDS | _OPTIONAL_FLOAT_FIELDS | {"seed"}
    if optional and (value is None or text in _NONE_WORDS):
        return None
    if name in _INTEGER_FIELDS | _OPTIONAL_INTEGER_FIELDS:
        if isinstance(value, bool):
            raise ConfigError(name, value, "a whole number is expected")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        try:
            return int(str(value).strip().replace("_", ""))
        except ValueError:
            hint = " or none" if optional else ""
            raise ConfigError(name, value, f"a whole number{hint} is expected") from None
    if name in _FLOAT_FIELDS | _OPTIONAL_FLOAT_FIELDS:
        if isinstance(value, bool):
            raise ConfigError(name, value, "a number is expected")
        try:
            return float(value)
        except (TypeError, ValueError):
            hint = " or none" if optional else ""
            raise ConfigError(name, value, f"a number{hint} is expected") from None
    if name in _BOOL_FIELDS:
        if isinstance(value, bool):
            return value
        if text in {"true", "yes", "on", "1"}:
            return True
        if text in {"false", "no", "off", "0"}:
            return False
        raise ConfigError(name, value, "true or false is expected")
    if not isinstance(value, str):
        raise ConfigError(name, value, "a name is expected")
    return value.strip()


def _typed_value(name: str, value: Any) -> Any:
    """``value`` as the field's Python type (read from its annotation), or a ConfigError.

    Unlike :func:`parse_field`, nothing is parsed: a bool is not a number, ``8.5`` is not a
    whole number, ``"no"`` is not a bool. numpy scalars are read as the Python value.
    """
    annotation = str(FIELDS[name].type)
    optional = annotation.endswith(" | None")
    kind = annotation.removesuffix(" | None")
    hint = " or None" if optional else ""
    if optional and value is None:
        return None
    if kind == "int":
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value)
        return ConfigError(name, value, f"a whole number{hint} is expected")
    if kind == "float":
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:
                return ConfigError(name, value, "a number that fits a float is expected")
        return ConfigError(name, value, f"a number{hint} is expected")
    if kind == "bool":
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        return ConfigError(name, value, "True or False is expected")
    if kind == "str" and not isinstance(value, str):
        return ConfigError(name, value, "a name (text) is expected")
    return value


def _typed_values(config: Config) -> dict[str, Any]:
    """The config's values as Python types.

    Raises:
        ConfigError: For the first field whose value has the wrong type.
    """
    typed: dict[str, Any] = {}
    for name in FIELDS:
        value = _typed_value(name, getattr(config, name))
        if isinstance(value, ConfigError):
            raise value
        typed[name] = value
    return typed


def _type_errors(config: Config) -> list[ConfigError]:
    """A :class:`ConfigError` for each field whose value has the wrong type."""
    found = (_typed_value(name, getattr(config, name)) for name in FIELDS)
    return [error for error in found if isinstance(error, ConfigError)]


def _check_names(config: Config, errors: list[ConfigError]) -> None:
    for name in ("encoding", "fitness", "selection", "crossover", "mutation", "survivor"):
        choices = FIELDS[name].metadata["choices"]
        value = getattr(config, name)
        if value not in choices:
            errors.append(ConfigError(name, value, f"choose one of {', '.join(choices)}"))


def _check_fit(config: Config, errors: list[ConfigError]) -> None:
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


def _check_numbers(config: Config, errors: list[ConfigError]) -> None:
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


def _check_memetic(config: Config, errors: list[ConfigError]) -> None:
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


def _check_progress(config: Config, errors: list[ConfigError]) -> None:
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


def _size_errors(config: Config) -> list[ConfigError]:
    """Whole numbers too large to be real: each must fit the 64-bit integers of numpy, the
    history and the run store (a seed of 10^23 used to crash the store with a traceback)."""
    errors = []
    for name in FIELDS:
        value = getattr(config, name)
        if name in _WHOLE_NUMBER_FIELDS and value is not None and value > LARGEST_WHOLE_NUMBER:
            errors.append(
                ConfigError(name, value, f"a whole number <= 2**62 ({LARGEST_WHOLE_NUMBER:,})")
            )
    return errors


def config_errors(config: Config) -> list[ConfigError]:
    """Every problem with a config, in field order (empty when it is valid)."""
    errors = _type_errors(config) or _size_errors(config)
    if errors:
        return errors
    _check_numbers(config, errors)
    _check_names(config, errors)
    _check_fit(config, errors)
    _check_progress(config, errors)
    _check_memetic(config, errors)
    memory = memory_error(config)
    if memory is not None:
        errors.append(memory)
    return errors


_FITTING_CROSSOVERS: Final = {"integer": "single-point", "squares": "one-gene"}
"""The crossover each non-permutation encoding gets unless one is named."""


def fitting_operators(encoding: str) -> dict[str, str]:
    """The default crossover, mutation and fitness that fit an encoding.

    The command line and the dashboard's form use them for the operators the user did not
    name, so that choosing ``--encoding integer`` alone gives a valid run.

    Args:
        encoding: An encoding's name.

    Returns:
        ``{"crossover": ..., "mutation": ..., "fitness": ...}``, names valid for the encoding.

    Raises:
        ConfigError: If the encoding is not known.
    """
    if encoding not in ENCODINGS:
        raise ConfigError("encoding", encoding, f"choose one of {', '.join(ENCODINGS)}")
    defaults = {name: str(FIELDS[name].default) for name in ("crossover", "mutation", "fitness")}
    if encoding == "permutation":
        return defaults
    # The conflict mutation and the pairs fitness serve every encoding; the crossover must not
    # assume a permutation.
    return {**defaults, "crossover": _FITTING_CROSSOVERS[encoding]}
