"""A plan file read into a :class:`~tui.lab.sweep.plan.PlanSpec`: each key checked, and each
value's source (the file and its line) kept for the messages that name it."""

from __future__ import annotations

from pathlib import Path

from tui.lab.sweep.plan import PLAN_KEYS, PlanSpec, Source, known_field
from tui.lab.sweep.plan_error import PlanError
from tui.lab.sweep.plan_file import line_of, parse_plan_text, read_plan_text


def spec_from_file(path: Path) -> PlanSpec:
    """The plan a TOML file describes.

    Raises:
        PlanError: If the file is not a small regular file (see
            :func:`~tui.lab.sweep.plan_file.read_plan_text`), cannot be parsed, sets nothing
            (empty, or comments only), or has an unknown key, naming the file and line.
    """
    text = read_plan_text(path)
    document = parse_plan_text(path, text)
    if not any(value != {} for value in document.values()):
        # An empty file (or one of comments) is a slip, not a wish for twenty default runs.
        raise PlanError(
            "plan",
            str(path),
            "nothing to sweep: the file sets no key (only comments or blank lines); a plan "
            "names presets, n, seeds, fixed fields or a [grid] of FIELD = [values]",
        )
    lines = text.splitlines()

    def source(key: str, table: str | None = None) -> Source:
        line = line_of(lines, key, table)
        return Source(f"in {path}, line {line}" if line else f"in {path}")

    spec = PlanSpec()
    for key, value in document.items():
        here = source(key)
        if key in ("preset", "presets"):
            names = value if isinstance(value, list) else [value]
            if not names or not all(isinstance(name, str) for name in names):
                raise PlanError(key, value, "a preset name or a list of them" + here.note())
            spec.presets = list(names)
            spec.sources["preset"] = here
        elif key == "seeds":
            spec.seeds = value
            spec.sources["seeds"] = here
        elif key == "grid":
            if not isinstance(value, dict):
                raise PlanError("grid", value, "a table of FIELD = [values]" + here.note())
            for grid_key, values in value.items():
                where = source(grid_key, "grid")
                name = known_field(grid_key, values, where, extra=("preset",))
                if not isinstance(values, list) or not values:
                    raise PlanError(name, values, "a non-empty list of values" + where.note())
                if name == "preset":
                    spec.presets = list(values)
                else:
                    spec.grid[name] = list(values)
                spec.sources[name] = where
        else:
            name = known_field(key, value, here, extra=PLAN_KEYS)
            if isinstance(value, dict):
                raise PlanError(key, value, "a value or a list of values" + here.note())
            if isinstance(value, list):
                if not value:
                    raise PlanError(name, value, "a non-empty list of values" + here.note())
                spec.grid[name] = list(value)
            else:
                spec.fixed[name] = value
            spec.sources[name] = here
    return spec
