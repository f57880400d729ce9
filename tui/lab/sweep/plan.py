"""A sweep's plan: axes (presets, N, any config field), fixed fields, seeds, and the cells.

A plan comes from flags (``--grid FIELD=V1,V2``, ``--preset``, ``--n 8,16``, ``--seeds 50`` or
``--seeds 100-149``, config flags for fixed fields) or from a TOML file with the same keys::

    preset = ["default", "queens-ai"]
    n = [8, 16]
    seeds = 20            # or "100-149"
    max_evals = 100000    # a fixed field; a list would make it an axis

    [grid]
    mutation_rate = [0.2, 0.5, 1.0]

Everything is checked before anything runs or is allocated: names, values, each cell's
config, its budget, and the number of tasks. A bad entry raises a
:class:`~tui.lab.sweep.plan_error.PlanError` naming the entry, the value and where it came from
(the flag, or the file and line).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine import (
    FIELDS,
    Config,
    ConfigError,
    PluginError,
    is_plugin_name,
    pinned_name,
    remember_recorded,
)
from engine.config.config import LARGEST_WHOLE_NUMBER, PLUGINS_KEY, parse_field
from engine.config.field_uses import unread_by_all
from engine.config.presets import PRESETS, preset_named
from tui.lab.sweep.fingerprint import canonical_config, config_fingerprint, digest
from tui.lab.sweep.plan_error import PlanError
from tui.lab.sweep.task import task_config

MAX_CELLS: Final = 10_000
"""Configurations a sweep may have at most (the product of its axes' lengths)."""

MAX_TASKS: Final = 1_000_000
"""Runs (cells x seeds) a sweep may have at most."""

MAX_SEED: Final = LARGEST_WHOLE_NUMBER
"""The largest seed accepted: the engine's own limit (2**62), so no worker refuses a run."""

PLAN_KEYS: Final = ("preset", "presets", "n", "seeds", "grid")
"""The keys of a plan file besides config fields."""

AXIS_ORDER: Final = ("preset", "n")
"""Axes that come first, in this order; config-field axes follow in the order given."""

DETERMINISTIC_BUDGETS: Final = ("generations", "max_evals", "stagnation")
"""Stop rules that end every run after the same work whatever the machine."""


@dataclass(frozen=True)
class Source:
    """Where a plan entry came from, for error messages: a flag, or a file and line."""

    where: str

    def note(self) -> str:
        """`` (from --grid)`` or `` (in plan.toml, line 7)``."""
        return f" ({self.where})"


FLAG_SOURCE: Final = Source("from the command line")


@dataclass(frozen=True)
class Axis:
    """One swept dimension: a name (``preset``, ``n`` or a config field) and its values."""

    name: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Cell:
    """One configuration of the sweep.

    Attributes:
        values: The swept axes' values for this cell, by axis name.
        preset: The preset it starts from, or ``None``.
        config: Every config field, without the seed (see :func:`canonical_config`).
        fingerprint: The config's fingerprint.
    """

    values: dict[str, Any]
    preset: str | None
    config: dict[str, Any]
    fingerprint: str

    @property
    def time_limited(self) -> bool:
        """Whether a wall-clock limit may end its runs (their results then depend on load)."""
        return self.config["time_limit"] is not None


@dataclass(frozen=True)
class SeedRange:
    """Seeds ``first .. first + count - 1``."""

    first: int
    count: int

    def __iter__(self) -> Any:
        return iter(range(self.first, self.first + self.count))

    @property
    def last(self) -> int:
        """The last seed."""
        return self.first + self.count - 1

    def text(self) -> str:
        """``seed 0`` or ``seeds 100–149``."""
        return f"seed {self.first}" if self.count == 1 else f"seeds {self.first}–{self.last}"


@dataclass
class PlanSpec:
    """A plan as given, before checking: raw values, each with where it came from."""

    presets: list[str] = field(default_factory=list)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    fixed: dict[str, Any] = field(default_factory=dict)
    seeds: Any = None
    fallback_max_evals: int | None = None
    sources: dict[str, Source] = field(default_factory=dict)

    def source(self, key: str) -> Source:
        """Where ``key`` was given."""
        return self.sources.get(key, FLAG_SOURCE)


@dataclass(frozen=True)
class SweepPlan:
    """A checked sweep: its axes, fixed fields, seeds and cells.

    Attributes:
        axes: The swept dimensions (a value given as a list is an axis, even of one value).
        fixed: Config fields set for every cell (as given, parsed).
        seeds: The seeds every cell runs.
        cells: Every configuration, in axis order (the first axis varies slowest).
        fallback_max_evals: The evaluation budget given to a cell that has none of its own
            (``queens compare`` gives one to presets that stop only when solved), or ``None``.
    """

    axes: tuple[Axis, ...]
    fixed: dict[str, Any]
    seeds: SeedRange
    cells: tuple[Cell, ...]
    fallback_max_evals: int | None = None

    @property
    def tasks(self) -> int:
        """Runs in all."""
        return len(self.cells) * self.seeds.count

    @property
    def fingerprint(self) -> str:
        """The sweep's fingerprint: its cells' fingerprints and axis values, and its seeds."""
        return digest(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain values (kept in the run store; :func:`plan_from_dict` reads it),
        with the sources of the plug-ins its cells name, if any."""
        sources: dict[str, Any] = {}
        for cell in self.cells:
            sources.update(cell.config.get(PLUGINS_KEY, {}))
        document = {
            "axes": [{"name": a.name, "values": list(a.values)} for a in self.axes],
            "fixed": dict(self.fixed),
            "seeds": {"first": self.seeds.first, "count": self.seeds.count},
            "fallback_max_evals": self.fallback_max_evals,
            "cells": [
                {"values": c.values, "preset": c.preset, "fingerprint": c.fingerprint}
                for c in self.cells
            ],
        }
        if sources:
            document[PLUGINS_KEY] = sources
        return document


def field_name(key: str) -> str:
    """A config field's name from a key typed with dashes or underscores."""
    return key.strip().replace("-", "_")


def _parse_value(name: str, value: Any, source: Source) -> Any:
    """One value of a config field, parsed and, for names, checked against the choices."""
    try:
        parsed = parse_field(name, value)
    except ConfigError as error:
        raise PlanError(name, value, error.allowed + source.note()) from None
    choices = FIELDS[name].metadata["choices"]
    if choices and is_plugin_name(parsed):
        # Pinned to its source here: the plan, kept with the sources, reads back without
        # the file (queens sweep --show), and names the version it ran.
        try:
            return pinned_name(parsed)
        except PluginError as error:
            allowed = f"check {error.check!r} failed: {error.problem}{source.note()}"
            raise PlanError(name, value, allowed) from None
    if choices and parsed not in choices:
        raise PlanError(name, value, f"choose one of {', '.join(choices)}{source.note()}")
    return parsed


def known_field(key: str, value: Any, source: Source, *, extra: Sequence[str] = ()) -> str:
    name = field_name(key)
    if name == "seed":
        raise PlanError(key, value, f"give the seeds with seeds (a count, or A-B){source.note()}")
    if name not in FIELDS and name not in extra:
        known = ", ".join([*extra, *sorted(n for n in FIELDS if n != "seed")])
        raise PlanError(key, value, f"known fields are {known}{source.note()}")
    return name


def parse_seeds(value: Any, source: Source = FLAG_SOURCE) -> SeedRange:
    """``K`` (seeds 0..K-1) or ``A-B`` (seeds A..B, both included).

    Raises:
        PlanError: On anything else, 0 seeds, more than :data:`MAX_TASKS`, or a seed above
            :data:`MAX_SEED`.
    """
    allowed = f"a count K >= 1 (seeds 0..K-1) or a range A-B{source.note()}"
    if isinstance(value, bool):
        raise PlanError("seeds", value, allowed)
    if isinstance(value, int):
        first, count = 0, value
    elif isinstance(value, str):
        text = value.strip().replace("_", "")
        match = re.fullmatch(r"(\d+)\s*(?:-|–|\.\.)\s*(\d+)", text)
        try:
            if match:
                first, last = int(match[1]), int(match[2])
                if last < first:
                    raise PlanError("seeds", value, f"a range A-B with A <= B{source.note()}")
                count = last - first + 1
            else:
                first, count = 0, int(text)
        except ValueError:
            raise PlanError("seeds", value, allowed) from None
    else:
        raise PlanError("seeds", value, allowed)
    if count < 1:
        raise PlanError("seeds", value, allowed)
    if count > MAX_TASKS:
        raise PlanError("seeds", value, f"at most {MAX_TASKS:,} seeds{source.note()}")
    if first + count - 1 > MAX_SEED:
        raise PlanError(
            "seeds",
            value,
            f"seeds from 0 to 2**62 ({MAX_SEED:,}); seed {first + count - 1:,} is above it"
            + source.note(),
        )
    return SeedRange(first, count)


def parse_grid_flag(text: str) -> tuple[str, list[str]]:
    """``FIELD=V1,V2,...`` -> (field, [values]).

    Raises:
        PlanError: On a missing ``=``, an unknown field or an empty value.
    """
    key, equals, values = text.partition("=")
    if not equals or not key.strip():
        raise PlanError("grid", text, "FIELD=V1,V2,... is expected" + FLAG_SOURCE.note())
    name = known_field(key, text, FLAG_SOURCE, extra=("preset",))
    parts = [part.strip() for part in values.split(",")]
    if not any(parts) or not all(parts):
        raise PlanError(name, values, "a comma-separated list of values" + FLAG_SOURCE.note())
    return name, parts


def spec_from_flags(
    grid: Sequence[str],
    presets: Sequence[str],
    n: str | None,
    seeds: str | None,
    fixed: Mapping[str, Any],
    spec: PlanSpec | None = None,
) -> PlanSpec:
    """The plan the flags describe, on top of a plan file's (flags win on the same key).

    Raises:
        PlanError: On a malformed ``--grid``.
    """
    spec = spec if spec is not None else PlanSpec()
    if presets:
        spec.presets = list(presets)
        spec.sources["preset"] = FLAG_SOURCE
    if n is not None:
        spec.grid["n"] = [part.strip() for part in n.split(",")]
        spec.fixed.pop("n", None)
        spec.sources["n"] = FLAG_SOURCE
    for text in grid:
        name, values = parse_grid_flag(text)
        if name == "preset":
            spec.presets = values
        else:
            spec.grid[name] = values
            spec.fixed.pop(name, None)
        spec.sources[name] = FLAG_SOURCE
    for name, value in fixed.items():
        spec.fixed[name] = value
        spec.grid.pop(name, None)
        spec.sources[name] = FLAG_SOURCE
    if seeds is not None:
        spec.seeds = seeds
        spec.sources["seeds"] = FLAG_SOURCE
    return spec


def _axes(spec: PlanSpec) -> tuple[Axis, ...]:
    """The axes, each value parsed and checked, duplicates dropped (first kept)."""
    axes: list[Axis] = []
    if spec.presets:
        for name in spec.presets:
            if name not in PRESETS:
                allowed = f"choose one of {', '.join(PRESETS)}{spec.source('preset').note()}"
                raise PlanError("preset", name, allowed)
        axes.append(Axis("preset", tuple(dict.fromkeys(spec.presets))))
    for name in sorted(spec.grid, key=lambda key: (key != "n",)):
        source = spec.source(name)
        parsed = [_parse_value(name, value, source) for value in spec.grid[name]]
        if not parsed:
            raise PlanError(name, [], "a non-empty list of values" + source.note())
        axes.append(Axis(name, tuple(dict.fromkeys(parsed))))
    return tuple(axes)


def has_budget(config: Config) -> bool:
    """Whether every run of ``config`` stops, solved or not (a time limit counts)."""
    return any(getattr(config, name) is not None for name in (*DETERMINISTIC_BUDGETS, "time_limit"))


def _seeds_error(error: ConfigError, spec: PlanSpec) -> PlanError:
    """The engine's refusal of a seed, said of the plan's ``seeds``."""
    return PlanError(
        "seeds", spec.seeds, f"every seed must be allowed: {error}{spec.source('seeds').note()}"
    )


def _cell(values: dict[str, Any], fixed: dict[str, Any], spec: PlanSpec, seed: int) -> Cell:
    """One cell's config, checked with ``seed`` (the plan's last) as a worker will, with a
    budget."""
    preset = values.get("preset")
    fields = {k: v for k, v in values.items() if k != "preset"} | fixed | {"seed": seed}
    where = ", ".join(f"{k}={v}" for k, v in values.items())
    in_cell = f" in the cell {where}" if where else ""
    try:
        if preset is not None:
            size = fields.pop("n", None)
            config = preset_named(preset).config(size, **fields)
        else:
            config = Config(**fields)
    except ConfigError as error:
        if error.field == "seed":
            raise _seeds_error(error, spec) from None
        source = spec.sources.get(error.field)
        note = source.note() if source is not None else ""
        raise PlanError(error.field, error.value, f"{error.allowed}{in_cell}{note}") from None
    if not has_budget(config) and spec.fallback_max_evals is not None:
        config = config.replace(max_evals=spec.fallback_max_evals)
    if not has_budget(config):
        raise PlanError(
            "budget",
            None,
            f"a run{in_cell} may never stop: give max_evals, generations or stagnation "
            "(deterministic), or time_limit (the report flags the runs it cuts)",
        )
    document = canonical_config(config.to_dict())
    return Cell(values, preset, document, config_fingerprint(document))


def build_plan(spec: PlanSpec, *, check_unread: bool = True) -> SweepPlan:
    """Check a plan and enumerate its cells.

    Args:
        spec: The plan as given.
        check_unread: Refuse a field that no configuration of the plan reads (a plan kept
            from before is read back without it: it ran as it was).

    Raises:
        PlanError: On an unknown field or value, an empty axis, no seeds, a cell whose config
            is not allowed or has no budget, a field no config reads, or too many cells or
            tasks; naming the field, the value and where it was given.
    """
    if spec.seeds is None:
        raise PlanError("seeds", None, "give seeds: a count K (0..K-1) or a range A-B")
    seeds = parse_seeds(spec.seeds, spec.source("seeds"))
    fixed = {
        name: _parse_value(name, value, spec.source(name)) for name, value in spec.fixed.items()
    }
    axes = _axes(spec)
    cells_count = math.prod(len(axis.values) for axis in axes)
    if cells_count > MAX_CELLS:
        raise PlanError("grid", cells_count, f"at most {MAX_CELLS:,} configurations")
    if cells_count * seeds.count > MAX_TASKS:
        raise PlanError(
            "seeds", seeds.count, f"at most {MAX_TASKS:,} runs in all ({cells_count} configs)"
        )
    cells = []
    for combination in itertools.product(*(axis.values for axis in axes)):
        values = {axis.name: value for axis, value in zip(axes, combination, strict=True)}
        cells.append(_cell(values, fixed, spec, seeds.last))
    try:  # every cell was checked with the last seed; the first, as a worker will run it
        task_config(cells[0].config, seeds.first)
    except ConfigError as error:
        raise _seeds_error(error, spec) from None
    if check_unread:
        _refuse_unread(spec, cells)
    return SweepPlan(axes, fixed, seeds, tuple(cells), spec.fallback_max_evals)


def _refuse_unread(spec: PlanSpec, cells: Sequence[Cell]) -> None:
    """Refuse a field the plan sets that no configuration of it reads (``tournament_size``
    with roulette selection in every cell); one that some cells read is a fair axis."""
    for name in [*spec.fixed, *spec.grid]:
        error = unread_by_all(name, [cell.config for cell in cells])
        if error is not None:
            raise PlanError(name, error.value, error.allowed + spec.source(name).note())


def plan_from_dict(document: Mapping[str, Any]) -> SweepPlan:
    """A plan from :meth:`SweepPlan.to_dict` (as kept in the run store), checked again.

    Raises:
        PlanError: If the document does not describe a valid plan.
    """
    try:
        if PLUGINS_KEY in document:
            remember_recorded(document[PLUGINS_KEY])
        spec = PlanSpec(
            presets=[],
            grid={},
            fixed=dict(document["fixed"]),
            seeds=f"{document['seeds']['first']}-"
            f"{document['seeds']['first'] + document['seeds']['count'] - 1}",
            fallback_max_evals=document.get("fallback_max_evals"),
        )
        for axis in document["axes"]:
            if axis["name"] == "preset":
                spec.presets = list(axis["values"])
            else:
                spec.grid[axis["name"]] = list(axis["values"])
    except (KeyError, TypeError, PluginError) as error:
        raise PlanError("plan", "stored plan", f"a plan as sweeps store it ({error!r})") from None
    return build_plan(spec, check_unread=False)
