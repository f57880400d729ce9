"""Reading one saved value back: each value of a checkpoint is untrusted, and checked alone.

Whole numbers, numbers, flags, a PCG64 state, integer matrices, genes, sorted hash arrays:
each reader takes a value as JSON gives it (lists) or as ``.npy`` files do (numpy arrays),
checks its type, its size before anything is allocated for it, and its range, and raises a
:class:`CheckpointError` naming the field. :mod:`engine.checkpoint.checkpoint` puts them together
and checks the values against each other.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes, HashArray
from engine.errors import CheckpointError

LARGEST_COUNT: Final = 2**62
"""Counts above this cannot be real (and would not fit the history's int64 columns)."""


def kind_of(value: object) -> str:
    """The name of a value's type, for messages."""
    return type(value).__name__


def _is_integer(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _whole_number(value: object) -> int | None:
    """``value`` as a Python int if it is a whole number (not a bool), else ``None``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    return None


def read_count(value: object, field: str, *, low: int = 0, high: int = LARGEST_COUNT) -> int:
    """A whole number (not a bool) from ``low`` to ``high``."""
    number = _whole_number(value)
    if number is None:
        raise CheckpointError(field, f"a whole number is expected, not {value!r}")
    if not low <= number <= high:
        raise CheckpointError(field, f"{number} is not between {low} and {high}")
    return number


def read_number(value: object, field: str, *, low: float = -math.inf) -> float:
    """A finite number (not a bool), ``low`` or more, as a float."""
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise CheckpointError(field, f"a number is expected, not {value!r}")
    try:
        number = float(value)
    except OverflowError:
        raise CheckpointError(field, f"{value!r} does not fit a float") from None
    if not math.isfinite(number) or number < low:
        raise CheckpointError(field, f"a finite number >= {low} is expected, not {number!r}")
    return number


def read_flag(value: object, field: str) -> bool:
    """True or false (Python's or numpy's), nothing else."""
    if not isinstance(value, (bool, np.bool_)):
        raise CheckpointError(field, f"true or false is expected, not {value!r}")
    return bool(value)


def read_rng_state(value: object) -> dict[str, Any]:
    """A PCG64 state, checked field by field, then tried on a scratch generator."""
    if not isinstance(value, Mapping) or set(value) != {
        "bit_generator",
        "state",
        "has_uint32",
        "uinteger",
    }:
        raise CheckpointError(
            "rng", "a PCG64 state {bit_generator, state, has_uint32, uinteger} is expected"
        )
    if value["bit_generator"] != "PCG64":
        raise CheckpointError(
            "rng.bit_generator", f"'PCG64' is expected, not {value['bit_generator']!r}"
        )
    inner = value["state"]
    if not isinstance(inner, Mapping) or set(inner) != {"state", "inc"}:
        raise CheckpointError("rng.state", "a mapping {state, inc} is expected")
    state = _count_below(inner["state"], "rng.state.state", 2**128)
    inc = _count_below(inner["inc"], "rng.state.inc", 2**128)
    if inc % 2 == 0:
        raise CheckpointError("rng.state.inc", "PCG64's increment is always odd")
    has_uint32 = _count_below(value["has_uint32"], "rng.has_uint32", 2)
    uinteger = _count_below(value["uinteger"], "rng.uinteger", 2**32)
    checked: dict[str, Any] = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": has_uint32,
        "uinteger": uinteger,
    }
    try:
        scratch: Any = np.random.PCG64(0)
        scratch.state = checked
    except (TypeError, ValueError, OverflowError) as error:
        raise CheckpointError("rng", f"numpy refuses it: {error}") from None
    return checked


def _count_below(value: object, field: str, limit: int) -> int:
    number = _whole_number(value)
    if number is None or not 0 <= number < limit:
        raise CheckpointError(field, f"a whole number from 0 to {limit - 1} is expected")
    return number


def read_matrix(
    value: object, field: str, columns: int, *, rows: int | None = None, max_rows: int | None = None
) -> Genomes:
    """A ``(rows, columns)`` integer array from a nested list or an array, sizes checked first."""
    if isinstance(value, np.ndarray):
        shape = value.shape
        if value.ndim != 2 or shape[1] != columns:
            raise CheckpointError(field, f"shape (rows, {columns}) is expected, not {shape}")
        count = shape[0]
    elif isinstance(value, (list, tuple)):
        count = len(value)
    else:
        raise CheckpointError(
            field, f"a list of rows or an array is expected, not {kind_of(value)}"
        )
    if rows is not None and count != rows:
        raise CheckpointError(field, f"{rows} rows are expected (the config's), not {count}")
    if max_rows is not None and count > max_rows:
        raise CheckpointError(field, f"at most {max_rows:,} rows are possible, not {count:,}")
    if isinstance(value, (list, tuple)):
        if count == 0:
            return np.empty((0, columns), dtype=np.int64)
        for index, row in enumerate(value):
            if not isinstance(row, (list, tuple)) or len(row) != columns:
                raise CheckpointError(f"{field}[{index}]", f"a list of {columns} genes is expected")
    array = read_array(value, field)
    if array.ndim != 2 or array.dtype.kind not in "iu":
        raise CheckpointError(field, f"whole numbers are expected, not {array.dtype}")
    return array


def read_array(value: object, field: str) -> npt.NDArray[Any]:
    """``value`` as a numpy array, once its size is known to be sound."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError, OverflowError) as error:
        raise CheckpointError(field, f"not an array of numbers ({error})") from None


def check_genes(genomes: npt.NDArray[Any], field: str, values: int, permutation: bool) -> None:
    """Genes in ``0..values-1``, and each row a permutation when ``permutation`` is set."""
    if genomes.size and (genomes.min() < 0 or genomes.max() >= values):
        raise CheckpointError(field, f"genes must be between 0 and {values - 1}")
    if permutation and genomes.size:
        ordered = np.sort(genomes, axis=1)
        bad = np.flatnonzero((ordered != np.arange(genomes.shape[1])).any(axis=1))
        if bad.size:
            raise CheckpointError(f"{field}[{int(bad[0])}]", "not a permutation of 0..N-1")


def read_hashes(value: object, field: str, most: int) -> HashArray:
    """A sorted, repeat-free array of 64-bit hashes, at most ``most`` of them."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iu":
            raise CheckpointError(
                field, f"a 1-D array of whole numbers is expected ({value.dtype})"
            )
        if value.shape[0] > most:
            raise CheckpointError(field, f"at most {most:,} hashes are possible")
        if value.size and value.dtype.kind == "i" and value.min() < 0:
            raise CheckpointError(field, "hashes are never negative")
        hashes = np.array(value, dtype=np.uint64)
    elif isinstance(value, (list, tuple)):
        if len(value) > most:
            raise CheckpointError(field, f"at most {most:,} hashes are possible")
        if not all(type(h) is int or _is_integer(h) for h in value):
            raise CheckpointError(field, "whole numbers are expected")
        if value and not (min(value) >= 0 and max(value) < 2**64):
            raise CheckpointError(field, "hashes are between 0 and 2**64 - 1")
        hashes = np.array([int(h) for h in value] if value else [], dtype=np.uint64)
    else:
        raise CheckpointError(field, f"a list or an array is expected, not {kind_of(value)}")
    if hashes.shape[0] > 1 and not (hashes[1:] > hashes[:-1]).all():
        raise CheckpointError(field, "hashes are stored sorted, without repeats")
    return hashes
