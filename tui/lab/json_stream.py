"""JSON documents whose large arrays are written as a stream: :func:`write_json`.

A result at N = 10^7 holds a genome of ten million genes and as many ``[row, column]`` pairs.
Built as Python lists for ``json.dumps``, they took 2.2 GB and five seconds more than the run
itself. Here a document may hold numpy arrays (and :class:`Rows`, a list of rows given as
columns) where it would hold lists: the rest is written by ``json.dumps``, and each array a
chunk at a time straight from numpy, integers turned into digits by numpy itself, so no Python
list of N numbers is ever made. The text is byte for byte what ``json.dumps`` gives for the
same document with lists in it (its default separators, ``", "`` and ``": "``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TextIO

import numpy as np
import numpy.typing as npt

CHUNK: Final = 1 << 17
"""Numbers formatted at once: a few megabytes of work arrays whatever N is."""

SEPARATOR_BYTES: Final = 4
"""Room after each number for what follows it: ``", "``, ``"], ["`` or ``"]"``."""

DIGITS: Final = 20
"""Most decimal digits of a 64-bit integer."""

POWERS_OF_TEN: Final = np.array([10**power for power in range(DIGITS)], dtype=np.uint64)


@dataclass(frozen=True)
class Rows:
    """A list of equal-length rows, given column by column: ``[[a0, b0], [a1, b1], ...]``
    from ``columns = (a, b)`` (1-D arrays, broadcast ones welcome: nothing is copied whole)."""

    columns: tuple[npt.NDArray[Any], ...]


def write_json(document: Any, stream: TextIO) -> None:
    """Write ``document`` to ``stream`` as ``json.dumps`` writes it with lists for arrays.

    Args:
        document: JSON values, numpy arrays (1-D or 2-D) and :class:`Rows` at any depth, and
            iterators (written as a list of what they yield, each item as ``json.dumps``
            writes it: rows read from a store a chunk at a time).
        stream: A text stream.
    """
    if isinstance(document, Rows):
        _write_rows(document.columns, stream)
    elif isinstance(document, np.ndarray):
        _write_array(document, stream)
    elif isinstance(document, Iterator):
        stream.write("[")
        for index, item in enumerate(document):
            stream.write((", " if index else "") + json.dumps(item, check_circular=False))
        stream.write("]")
    elif isinstance(document, Mapping) and _streams(document):
        stream.write("{")
        for index, (key, value) in enumerate(document.items()):
            # The key exactly as json.dumps writes it (it turns ints, floats, None into text).
            stream.write((", " if index else "") + json.dumps({key: None})[1:-7] + ": ")
            write_json(value, stream)
        stream.write("}")
    elif isinstance(document, list | tuple) and _streams(document):
        stream.write("[")
        for index, value in enumerate(document):
            if index:
                stream.write(", ")
            write_json(value, stream)
        stream.write("]")
    else:
        stream.write(json.dumps(document, check_circular=False))


def _streams(value: Any) -> bool:
    """Whether ``value`` holds an array, :class:`Rows` or an iterator anywhere."""
    if isinstance(value, np.ndarray | Rows | Iterator):
        return True
    if isinstance(value, Mapping):
        return any(_streams(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_streams(item) for item in value)
    return False


def _write_array(array: npt.NDArray[Any], stream: TextIO) -> None:
    if array.ndim == 1:
        if np.issubdtype(array.dtype, np.integer):
            _write_integers((array,), nested=False, stream=stream)
        else:
            _write_listed(array, stream)
    elif array.ndim == 2:
        if np.issubdtype(array.dtype, np.integer) and array.shape[1] > 0:
            _write_integers(tuple(array.T), nested=True, stream=stream)
        else:
            stream.write("[")
            for index, row in enumerate(array):
                stream.write(", " if index else "")
                _write_array(row, stream)
            stream.write("]")
    else:
        stream.write(json.dumps(array.tolist()))


def _write_rows(columns: Sequence[npt.NDArray[Any]], stream: TextIO) -> None:
    if columns and all(np.issubdtype(column.dtype, np.integer) for column in columns):
        _write_integers(tuple(columns), nested=True, stream=stream)
    else:
        stream.write(json.dumps(np.stack(columns, axis=1).tolist()))


def _write_listed(array: npt.NDArray[Any], stream: TextIO) -> None:
    """A 1-D array of anything but integers, a chunk of Python values at a time."""
    stream.write("[")
    for start in range(0, array.shape[0], CHUNK):
        text = json.dumps(array[start : start + CHUNK].tolist())
        stream.write((", " if start else "") + text[1:-1])
    stream.write("]")


def _write_integers(columns: tuple[npt.NDArray[Any], ...], *, nested: bool, stream: TextIO) -> None:
    """Integer columns as a flat list (one column) or a list of rows (``nested``)."""
    length = columns[0].shape[0]
    if length == 0:
        stream.write("[]")
        return
    stream.write("[[" if nested else "[")
    rows_per_chunk = max(1, CHUNK // len(columns))
    for start in range(0, length, rows_per_chunk):
        stop = min(length, start + rows_per_chunk)
        values = np.stack([column[start:stop] for column in columns], axis=1).reshape(-1)
        stream.write(_integer_text(values, len(columns), nested, last=stop == length))


def _integer_text(values: npt.NDArray[Any], width: int, nested: bool, *, last: bool) -> str:
    """``values`` (rows of ``width`` in order) as JSON text, each followed by what follows it.

    Each number gets a fixed slot: a sign, its digits right-aligned, then the separator after
    it; unused bytes stay 0 and are dropped at the end.
    """
    negative = values < 0
    magnitudes = values.astype(np.uint64)
    if negative.any():
        # Two's complement in uint64: right for every int64, the smallest included.
        magnitudes[negative] = ~magnitudes[negative] + np.uint64(1)
    largest = int(magnitudes.max())
    # A number has as many digits as the powers of ten it reaches (0 has one).
    digit_count = max(1, int(np.searchsorted(POWERS_OF_TEN, largest, side="right")))
    # Digits are cut one place at a time, a row per place (rows are contiguous: fast).
    remaining = magnitudes
    ten = np.uint64(10)
    digits = np.empty((digit_count, values.shape[0]), dtype=np.uint8)
    for place in range(digit_count - 1, -1, -1):
        quotient = remaining // ten
        digits[place] = remaining - quotient * ten
        remaining = quotient
    # Leading zeros are not written: a place is blank while every place before it is 0.
    blank = np.ones(values.shape[0], dtype=bool)
    for place in range(digit_count - 1):
        blank &= digits[place] == 0
        digits[place] += np.uint8(ord("0"))
        digits[place][blank] = 0
    digits[digit_count - 1] += np.uint8(ord("0"))
    slot = 1 + digit_count + SEPARATOR_BYTES
    text = np.zeros((values.shape[0], slot), dtype=np.uint8)
    text[negative, 0] = ord("-")
    text[:, 1 : digit_count + 1] = digits.T
    separators = np.zeros((width, SEPARATOR_BYTES), dtype=np.uint8)
    separators[: width - 1, :2] = np.frombuffer(b", ", dtype=np.uint8)
    separators[width - 1] = np.frombuffer(b"], [" if nested else b", \0\0", dtype=np.uint8)
    text[:, -SEPARATOR_BYTES:] = np.tile(separators, (values.shape[0] // width, 1))
    if last:
        text[-1, -SEPARATOR_BYTES:] = np.frombuffer(b"]]\0\0" if nested else b"]\0\0\0", np.uint8)
    flat = text.reshape(-1)
    written: bytes = flat[flat != 0].tobytes()
    return written.decode("ascii")
