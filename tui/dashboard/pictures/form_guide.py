"""How the parameter form is laid out and what applies: groups, conditions, fitting operators.

Plain data, no Textual: :class:`~tui.dashboard.widgets.ParamForm` reads it. Fields are grouped
as a GA is taught (problem, population, selection, variation, survivors, stop rules, seed). A
field the engine gains later lands in "More" until it is placed here, so it still shows up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine import FIELDS
from engine.config.field_uses import APPLIES_WHEN as APPLIES_WHEN  # the form reads it from here
from engine.genomes.fitness import FITNESS_SHAPES
from engine.operators.crossover import PERMUTATION_CROSSOVERS
from engine.operators.mutation import FREE_MUTATIONS

GROUPS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("Problem", ("n", "encoding", "fitness")),
    ("Population", ("population", "one_best")),
    ("Selection", ("selection", "tournament_size")),
    (
        "Variation",
        (
            "crossover",
            "crossover_rate",
            "children_per_couple",
            "clone_uncrossed",
            "mutation",
            "mutation_rate",
            "gene_rate",
            "candidates",
            "fallback",
            "headless_chicken",
        ),
    ),
    ("Survivors", ("survivor", "elitism", "offspring", "unique")),
    (
        "Stop rules",
        ("stop_when_solved", "generations", "max_evals", "time_limit", "stagnation", "harvest"),
    ),
    ("Seed", ("seed",)),
)
"""Section titles and their fields, in the order a GA is taught."""

MORE: Final = "More"
"""The section of fields not placed in :data:`GROUPS` (new engine settings)."""

OPERATOR_FIELDS: Final = ("crossover", "mutation", "fitness")
"""Selects whose choices depend on the encoding."""


def grouped_fields() -> list[tuple[str, list[str]]]:
    """Every config field in its section, in order; unplaced fields in a last "More" section."""
    placed: set[str] = set()
    sections: list[tuple[str, list[str]]] = []
    for title, names in GROUPS:
        present = [name for name in names if name in FIELDS]
        placed.update(present)
        if present:
            sections.append((title, present))
    rest = [name for name in FIELDS if name not in placed]
    if rest:
        sections.append((MORE, rest))
    return sections


def applies(name: str, values: Mapping[str, str]) -> bool:
    """Whether a field means anything with the form's other values."""
    rule = APPLIES_WHEN.get(name)
    if rule is None:
        return True
    other, wanted = rule
    return values.get(other) in wanted


def not_applying_note(name: str) -> str:
    """Why a field is dimmed: ``only with tournament selection``."""
    other, wanted = APPLIES_WHEN[name]
    return f"only with {' or '.join(sorted(wanted))} {other.replace('_', '-')}"


def fitting_choices(name: str, encoding: str) -> tuple[str, ...]:
    """The choices of an operator select that fit an encoding (all choices of other fields)."""
    choices: tuple[str, ...] = FIELDS[name].metadata["choices"]
    permutation = encoding == "permutation"
    if name == "crossover":
        return tuple(c for c in choices if (c in PERMUTATION_CROSSOVERS) == permutation)
    if name == "mutation":
        return tuple(c for c in choices if permutation is False or c not in FREE_MUTATIONS)
    if name == "fitness":
        return tuple(
            c
            for c in choices
            if permutation or c not in FITNESS_SHAPES or not FITNESS_SHAPES[c].permutation_only
        )
    return choices


def default_operators(encoding: str) -> dict[str, str]:
    """The operators an encoding switches to when the current ones do not fit it.

    The engine's own choice (``engine.config.config.fitting_operators``) where it has one, else the
    field's default when it fits, else the first fitting choice.
    """
    try:
        from engine.config.config import fitting_operators

        chosen: dict[str, str] = dict(fitting_operators(encoding))
    except (ImportError, ValueError):
        chosen = {}
    operators: dict[str, str] = {}
    for name in OPERATOR_FIELDS:
        fitting = fitting_choices(name, encoding)
        default = str(FIELDS[name].default)
        if chosen.get(name) in fitting:
            operators[name] = chosen[name]
        else:
            operators[name] = default if default in fitting else fitting[0]
    return operators
