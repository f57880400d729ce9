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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TextIO, cast

import numpy as np
import numpy.typing as npt

CHUNK: Final = 1 << 17
"""Numbers formatted at once: a few megabytes of work arrays whatever N is."""

SEPARATOR_BYTES: Final = 4
"""Room after each number for what follows it: ``", "``, ``"], ["`` or ``"]"``."""

DIGITS: Final = 20
"""Most decimal digits of a 64-bit integer."""

POWERS_OF_TEN: Final = np.array([10**power for power in range(DIGITS)], dtype=np.uint64)


def _pair_table(zero: bytes) -> npt.NDArray[np.uint16]:
    """Two digits' bytes as one 16-bit word (in memory order): 0-99 with both digits, then
    100 + d for what is left under 10 (one digit; ``zero``'s bytes for nothing left)."""
    pairs = [f"{value:02d}".encode() for value in range(100)]
    pairs += [zero] + [b"\0" + str(value).encode() for value in range(1, 10)]
    return np.frombuffer(b"".join(pairs), dtype=np.uint16).copy()


LEADING_PAIR: Final = _pair_table(b"\0\0")
"""Digit pairs left of the last two: where nothing is left of the number, nothing is written."""
UNITS_PAIR: Final = _pair_table(b"\0" + b"0")
"""The last two digits: a number that is 0 is written ``0``."""


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
    write = _bytes_writer(stream)
    rows_per_chunk = max(1, CHUNK // len(columns))
    for start in range(0, length, rows_per_chunk):
        stop = min(length, start + rows_per_chunk)
        values = np.stack([column[start:stop] for column in columns], axis=1).reshape(-1)
        write(_integer_text(values, len(columns), nested, last=stop == length))


def _bytes_writer(stream: TextIO) -> Callable[[bytes], object]:
    """Write ASCII bytes to ``stream``: straight to its binary buffer when it has one (what
    it holds in text is flushed first), else decoded."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        return lambda data: stream.write(data.decode("ascii"))
    stream.flush()
    return cast(Callable[[bytes], object], buffer.write)


def _integer_text(values: npt.NDArray[Any], width: int, nested: bool, *, last: bool) -> bytes:
    """``values`` (rows of ``width`` in order) as JSON text, each followed by what follows it.

    Each number gets a fixed slot of bytes: a sign (when any is negative), its digits
    right-aligned, then a 4-byte word for the separator after it; unused bytes stay 0 and are
    dropped at the end. Digits are cut two at a time (a table gives their two bytes), in
    32-bit integers where the numbers fit (dividing them is twice as fast as dividing 64-bit
    ones), in place, into the slots directly.
    """
    count = values.shape[0]
    signed = bool(values.min() < 0)
    negative = values < 0 if signed else None
    if negative is None:
        magnitudes = values
    else:
        # Two's complement in uint64: right for every int64, the smallest included.
        magnitudes = values.astype(np.uint64)
        magnitudes[negative] = ~magnitudes[negative] + np.uint64(1)
    largest = int(magnitudes.max())
    # A number has as many digits as the powers of ten it reaches (0 has one).
    digit_count = max(1, int(np.searchsorted(POWERS_OF_TEN, largest, side="right")))
    remaining = magnitudes.astype(np.uint32 if largest < 2**32 else np.uint64)  # a copy
    kind = remaining.dtype.type
    pairs = (digit_count + 1) // 2
    # The separator's word starts on a multiple of 4: it is stored as one 32-bit word; the
    # digits, two at a time, as 16-bit words right before it.
    words = -(-(int(signed) + 2 * pairs) // SEPARATOR_BYTES) + 1
    text = np.zeros((count, words * SEPARATOR_BYTES), dtype=np.uint8)
    first = words * SEPARATOR_BYTES - SEPARATOR_BYTES - 2 * pairs
    if negative is not None:
        text[negative, first - 1] = ord("-")
    quotient = np.empty_like(remaining)
    hundreds = np.empty_like(remaining)
    index = np.empty(count, dtype=np.intp)
    short = np.empty(count, dtype=bool)
    digit_pairs = text.view(np.uint16)
    for pair in range(pairs - 1, -1, -1):
        np.floor_divide(remaining, kind(100), out=quotient)
        np.multiply(quotient, kind(100), out=hundreds)
        np.subtract(remaining, hundreds, out=index, casting="unsafe")
        # What is left of the number: 10 or more, both digits; under 10, one; 0, none.
        np.less(remaining, kind(10), out=short)
        np.add(index, 100, out=index, where=short)
        table = UNITS_PAIR if pair == pairs - 1 else LEADING_PAIR
        digit_pairs[:, first // 2 + pair] = table.take(index)
        remaining, quotient = quotient, remaining
    pattern = np.zeros((width, SEPARATOR_BYTES), dtype=np.uint8)
    pattern[: width - 1, :2] = np.frombuffer(b", ", dtype=np.uint8)
    pattern[width - 1] = np.frombuffer(b"], [" if nested else b", \0\0", dtype=np.uint8)
    separators = text.view(np.uint32)[:, -1].reshape(count // width, width)
    separators[:] = pattern.reshape(-1).view(np.uint32)
    if last:
        text[-1, -SEPARATOR_BYTES:] = np.frombuffer(b"]]\0\0" if nested else b"]\0\0\0", np.uint8)
    written: bytes = text.tobytes().translate(None, b"\0")
    return written
