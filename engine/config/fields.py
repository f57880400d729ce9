"""The fields of a run's config, and how a value becomes a field's value.

Each field carries its help text (and its choices, for names) in its metadata, so the command
line and the dashboard's form are generated from this one place. A value of the wrong type
raises :class:`ConfigError`, which names the field, the value and what is allowed; the rules
between values are :mod:`engine.config.rules`, and :class:`engine.config.config.Config` applies
both.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from engine.errors import ConfigError
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES
from engine.operators.crossover import CROSSOVERS
from engine.operators.mutation import MUTATIONS
from engine.operators.plugins import PluginError, is_plugin_name, pinned_name
from engine.operators.selection import SELECTIONS
from engine.operators.survivors import SURVIVOR_NAMES


def _meta(help_text: str, choices: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"help": help_text, "choices": choices}


@dataclass(frozen=True)
class ConfigFields:
    """The fields of a run's config as declared: types, defaults, help and choices.

    Building one turns each value into its field's Python type and refuses a value of the
    wrong type, nothing more: :class:`engine.config.config.Config`, the config every run takes, also
    applies the rules. The rules (:mod:`engine.config.rules`) and the memory estimate
    (:mod:`engine.config.memory_budget`) read this class rather than that one, so that the config
    can call them with every import pointing one way.
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
    survivor: str = field(default="plus", metadata=_meta("survivor selection", SURVIVOR_NAMES))
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
    one_best: bool = field(
        default=False,
        metadata=_meta(
            "takeover start: one board better than all the others, which are copies of the "
            "worst board (every queen on one diagonal); permutation or integer, N >= 3"
        ),
    )
    headless_chicken: bool = field(
        default=False,
        metadata=_meta(
            "Jones 1995: each crossover's second parent is a fresh random genome (crossover "
            "as a macromutation)"
        ),
    )
    seed: int | None = field(
        default=None, metadata=_meta("random seed (none: drawn at random, and recorded)")
    )

    def __post_init__(self) -> None:
        # numpy scalars become Python values (so the arithmetic of the checks cannot
        # overflow), and a value of the wrong type is refused before anything compares it.
        for name, value in _typed_values(self).items():
            object.__setattr__(self, name, _pinned(name, value))

    @property
    def children_per_generation(self) -> int:
        """How many children a generation makes."""
        if self.offspring is not None:
            return self.offspring
        return 2 if self.survivor in ("steady-state", "genitor") else self.population

    @property
    def shuffle_gene_rate(self) -> float:
        """The per-gene chance of ``shuffle-indexes``."""
        return self.gene_rate if self.gene_rate is not None else min(1.0, 2.0 / self.n)


FIELDS: Final = {f.name: f for f in dataclasses.fields(ConfigFields)}
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
    "one_best",
    "headless_chicken",
}
WHOLE_NUMBER_FIELDS: Final = _INTEGER_FIELDS | _OPTIONAL_INTEGER_FIELDS
"""The fields that hold a whole number (or none)."""

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


def typed_value(name: str, value: Any) -> Any:
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


OPERATOR_NAME_FIELDS: Final = ("selection", "crossover", "mutation", "survivor", "fitness")
"""The fields that name an operator: a built-in's name, or a plug-in's ``file.py:function``."""


def _pinned(name: str, value: Any) -> Any:
    """A plug-in's name with its source's digest (see :mod:`engine.operators.plugins`); any
    other value as it is.

    Raises:
        ConfigError: If the plug-in's file cannot be read, or no longer holds the source the
            name pins.
    """
    if name not in OPERATOR_NAME_FIELDS or not is_plugin_name(value):
        return value
    try:
        return pinned_name(value)
    except PluginError as error:
        allowed = f"check {error.check!r} failed: {error.problem}"
        raise ConfigError(name, error.name, allowed) from None


def _typed_values(config: ConfigFields) -> dict[str, Any]:
    """The config's values as Python types.

    Raises:
        ConfigError: For the first field whose value has the wrong type.
    """
    typed: dict[str, Any] = {}
    for name in FIELDS:
        value = typed_value(name, getattr(config, name))
        if isinstance(value, ConfigError):
            raise value
        typed[name] = value
    return typed
