"""The frames of a write-ahead log, read as SQLite recovers them: :func:`wal_frames_problem`.

After its 32-byte header, a log is a run of frames: a 24-byte header (page number, the
database's size in pages when the frame commits a transaction, else 0, the two salts, two
checksums) and one page. Each frame's checksum carries on from the one before (the first
frame's from the header's), over the frame header's first 8 bytes and the page
(https://www.sqlite.org/fileformat2.html#walformat). SQLite reads frames until the first one
whose salts are not the header's or whose checksum does not match, and keeps the transactions
committed before it; everything from there on is dropped, and written over by the next commit.

A crash leaves such a frame only where writing stopped: the last frame cut short or half
written, followed at most by frames of the transaction it was writing, none of which
commits (a transaction that spilled pages into the log before committing rewrites some of
them in place, and their checksums only at commit). So a frame SQLite would stop at, followed
by a frame of the same log that commits a transaction, is damage, not a crash: opening the
store would drop that committed work quietly. Frames of an older log (other salts) behind the
current ones are what a restarted log leaves, and no damage.

Whether a later frame belongs to the log is judged by its salts and its checksum, carried on
from the *stored* checksum of the frame before it (or, when that field is what was damaged,
from the checksum its content gives). The sums are computed with numpy over whole frames: the
running pair ``(s0, s1)`` goes through a linear map per pair of words, so a frame's effect is
a fixed matrix on the incoming pair plus a weighted sum of its words (weights: Fibonacci
numbers modulo 2**32).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

FRAME_HEADER_BYTES: Final = 24
"""A frame's header: page number, commit size, salt-1, salt-2, checksum-1, checksum-2."""
FRAMES_PER_READ: Final = 512
"""Frames read and summed at once: a few megabytes at the usual page sizes."""
MASK: Final = np.uint64(2**32 - 1)

U64 = npt.NDArray[np.uint64]


@dataclass(frozen=True)
class _Weights:
    """What one frame does to the running checksum, for one page size (see the docstring)."""

    seed: tuple[int, int, int]
    """``F(2n-1), F(2n), F(2n+1)`` mod 2**32, ``n`` pairs of words a frame: the matrix that
    carries the incoming pair through the frame."""
    first: tuple[U64, U64]
    """Weights of the even and the odd words in the first sum."""
    second: tuple[U64, U64]
    """Weights of the even and the odd words in the second sum."""


@cache
def _weights(page_size: int) -> _Weights:
    pairs = (8 + page_size) // 8
    fibonacci = [0, 1]
    while len(fibonacci) < 2 * pairs + 3:
        fibonacci.append((fibonacci[-1] + fibonacci[-2]) % 2**32)
    table = np.array(fibonacci, dtype=np.uint64)
    remaining = np.arange(pairs - 1, -1, -1)  # pairs after each one: k = n - 1 - i
    return _Weights(
        seed=(fibonacci[2 * pairs - 1], fibonacci[2 * pairs], fibonacci[2 * pairs + 1]),
        first=(table[2 * remaining + 1], table[2 * remaining]),
        second=(table[2 * remaining + 2], table[2 * remaining + 1]),
    )


def _carry(weights: _Weights, seeds: U64, sums: U64) -> U64:
    """The checksums frames end with, from their incoming pairs ``seeds`` (rows of 2) and
    their own word sums ``sums`` (rows of 2)."""
    odd, even, next_odd = (np.uint64(value) for value in weights.seed)
    first = odd * seeds[:, 0] + even * seeds[:, 1] + sums[:, 0]
    second = even * seeds[:, 0] + next_odd * seeds[:, 1] + sums[:, 1]
    return np.stack([first & MASK, second & MASK], axis=1)


@dataclass
class _Scan:
    """What has been read of the log so far."""

    stored: U64
    """The stored checksum of the last frame read (the header's before any)."""
    computed: U64
    """The checksum the last frame's content gives, from the stored one before it."""
    frames: int = 0
    first_unread: int | None = None
    """The first frame SQLite would not read, and why."""
    why: str = ""


def wal_frames_problem(log: Path, header: bytes, *, big_endian: bool) -> str | None:
    """Damage among the frames of ``log`` that SQLite's recovery would drop silently, or ``None``.

    Args:
        log: The write-ahead log.
        header: Its header, a valid one (:func:`.wal_header.wal_header_problem`).
        big_endian: Whether its checksums read words big-endian (its magic number says).

    Returns:
        The damaged frame and the committing frame after it, in words; ``None`` when the log
        reads whole or ends as only a crash leaves it.

    Raises:
        OSError: The log cannot be read.
    """
    page_size = struct.unpack(">I", header[8:12])[0]
    frame_bytes = FRAME_HEADER_BYTES + page_size
    salts = np.frombuffer(header[16:24], dtype=np.uint8)
    start = np.array([struct.unpack(">2I", header[24:32])], dtype=np.uint64)
    scan = _Scan(stored=start, computed=start)
    weights = _weights(page_size)
    word = np.dtype(">u4" if big_endian else "<u4")
    with open(log, "rb") as stream:
        stream.seek(len(header))
        while chunk := stream.read(frame_bytes * FRAMES_PER_READ):
            count = len(chunk) // frame_bytes  # a frame cut short at the end is never read
            if count == 0:
                break
            frames = np.frombuffer(chunk, dtype=np.uint8, count=count * frame_bytes)
            rows = frames.reshape(count, frame_bytes)
            problem = _read_frames(scan, rows, salts, weights, word, len(header))
            if problem is not None:
                return problem
            if count * frame_bytes < len(chunk):
                break
    return None


def _read_frames(
    scan: _Scan,
    frames: npt.NDArray[np.uint8],
    salts: npt.NDArray[np.uint8],
    weights: _Weights,
    word: np.dtype[np.uint32],
    header_bytes: int,
) -> str | None:
    """Carry ``scan`` through ``frames`` (one row each); the damage found, if any."""
    fields = frames[:, :16].copy().view(">u4").astype(np.uint64)
    page_numbers, commits = fields[:, 0], fields[:, 1]
    stored = frames[:, 16:24].copy().view(">u4").astype(np.uint64)
    summed = np.concatenate([frames[:, :8], frames[:, FRAME_HEADER_BYTES:]], axis=1)
    words = summed.view(word).astype(np.uint64)
    even, odd = words[:, 0::2], words[:, 1::2]
    sums = np.stack(
        [
            (even @ weights.first[0] + odd @ weights.first[1]) & MASK,
            (even @ weights.second[0] + odd @ weights.second[1]) & MASK,
        ],
        axis=1,
    )
    incoming = np.concatenate([scan.stored, stored[:-1]])
    computed = _carry(weights, incoming, sums)
    # The field holding the checksum before may be what was damaged: carry on from the sum
    # that frame's content gives instead.
    recomputed = _carry(weights, np.concatenate([scan.computed, computed[:-1]]), sums)
    ours = np.all(frames[:, 8:16] == salts, axis=1) & (page_numbers != 0)
    chained = np.all(computed == stored, axis=1)
    readable = ours & chained
    belongs = ours & (chained | np.all(recomputed == stored, axis=1))
    first = scan.frames
    scan.frames += len(frames)
    scan.stored, scan.computed = stored[-1:], computed[-1:]
    if scan.first_unread is None:
        unread = np.flatnonzero(~readable)
        if len(unread) == 0:
            return None
        index = int(unread[0])
        scan.first_unread = first + index
        scan.why = (
            "its page number is 0"
            if page_numbers[index] == 0
            else "its salts are not the log's"
            if not ours[index]
            else "it does not match its checksum"
        )
        after = np.arange(len(frames)) > index
    else:
        after = np.ones(len(frames), dtype=bool)
    committing = np.flatnonzero(after & belongs & (commits != 0))
    if len(committing) == 0:
        return None
    damaged = scan.first_unread
    return (
        f"frame {damaged + 1} (at byte {header_bytes + damaged * frames.shape[1]}) "
        f"{scan.why}, yet frame {first + int(committing[0]) + 1} after it commits a "
        "transaction of the same log; a crash cuts a log short only at its end"
    )
