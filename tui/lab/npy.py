"""Arrays as ``.npy`` bytes, and back, trusting nothing on the way back.

A saved record is untrusted input: before numpy allocates anything, the header is read and the
declared shape and dtype are checked against the bytes actually there, so a 4 KB blob cannot
ask for gigabytes. Object arrays (which would need pickle) are refused.
"""

from __future__ import annotations

import io
import math
from typing import Any, Final

import numpy as np
import numpy.typing as npt

ALLOWED_KINDS: Final = frozenset("iuf")
"""Signed and unsigned integers, floats: everything a run state holds."""


class ArrayError(ValueError):
    """A blob that is not a plain ``.npy`` array of numbers matching its own header."""


def to_npy(array: npt.NDArray[Any]) -> bytes:
    """The ``.npy`` bytes of an array (no pickle)."""
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
    return buffer.getvalue()


def from_npy(blob: bytes, *, name: str) -> npt.NDArray[Any]:
    """Read ``.npy`` bytes written by :func:`to_npy`.

    Args:
        blob: The bytes.
        name: What the array is, for the error message.

    Raises:
        ArrayError: On anything but a well-formed numeric array whose data fills the blob
            exactly.
    """
    if not isinstance(blob, bytes | bytearray | memoryview):
        raise ArrayError(f"{name}: expected .npy bytes, found {type(blob).__name__}")
    stream = io.BytesIO(bytes(blob))
    try:
        major, _minor = np.lib.format.read_magic(stream)
        if major == 1:
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
        elif major in (2, 3):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
        else:
            raise ArrayError(f"{name}: unknown .npy version {major}")
    except ArrayError:
        raise
    except Exception as error:  # numpy raises ValueError, EOFError, SyntaxError...
        raise ArrayError(f"{name}: not a .npy array ({error})") from None
    if dtype.kind not in ALLOWED_KINDS or dtype.hasobject:
        raise ArrayError(f"{name}: dtype {dtype} is not allowed; integers or floats only")
    if any(not isinstance(side, int) or side < 0 for side in shape):
        raise ArrayError(f"{name}: shape {shape} is not allowed")
    declared = math.prod(shape) * dtype.itemsize
    left = len(blob) - stream.tell()
    if declared != left:
        raise ArrayError(f"{name}: header says {declared} bytes of data, the blob has {left}")
    data = np.frombuffer(bytes(blob), dtype=dtype, offset=stream.tell(), count=math.prod(shape))
    return np.array(data.reshape(shape, order="F" if fortran else "C"))
