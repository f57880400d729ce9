"""The write-ahead log beside a store, checked before SQLite sees it: :func:`refuse_damaged_wal`.

A store in WAL mode keeps its latest commits in ``<store>-wal`` until a checkpoint copies them
into the store. When SQLite opens a store whose log nobody has open, it reads the log's
32-byte header; if the header is not a valid one (magic number, format version, page size,
checksum), SQLite takes the log for empty, quietly: the commits in it are dropped, and the
next checkpoint writes over them. So the header is read here first, as SQLite's file format
document describes it (https://www.sqlite.org/fileformat2.html#walformat), then its frames
(:mod:`.wal_frames`: damage before a committed frame is what SQLite would drop quietly, a torn
last frame what a crash leaves), and a store whose log is damaged is refused with every file
left as it was.
"""

from __future__ import annotations

import struct
import time
from pathlib import Path
from typing import Final

from tui.lab.store.errors import StoreError
from tui.lab.store.wal_frames import wal_frames_problem

WAL_SUFFIX: Final = "-wal"
"""What SQLite appends to a database's name to name its log."""
SHM_SUFFIX: Final = "-shm"
"""What SQLite appends to a database's name to name the log's shared-memory index."""
WAL_HEADER_BYTES: Final = 32
"""The log's header: eight big-endian 32-bit words."""
WAL_MAGIC_LITTLE_ENDIAN: Final = 0x377F0682
"""Magic number of a log whose checksums read the data as little-endian words."""
WAL_MAGIC_BIG_ENDIAN: Final = 0x377F0683
"""Magic number of a log whose checksums read the data as big-endian words."""
WAL_FORMAT_VERSION: Final = 3007000
"""The one log format SQLite writes and reads."""
PAGE_SIZES: Final = frozenset(2**power for power in range(9, 17))
"""The page sizes SQLite allows: 512 to 65536 bytes, powers of two."""
RECHECK_PAUSE: Final = 0.05
"""Seconds to wait before reading a header that looked damaged again: a process restarting
the log writes a new header, and a read in the middle of that write sees half of each."""
CHECKS: Final = 3
"""Reads of a header that keeps changing before it is judged on the last one."""
WORD: Final = 2**32


def wal_checksum(data: bytes, big_endian: bool) -> tuple[int, int]:
    """SQLite's log checksum of ``data`` (a multiple of 8 bytes), from zero.

    Args:
        data: The bytes summed, read as pairs of 32-bit words.
        big_endian: Read the words big-endian (magic ``0x377f0683``), else little-endian.

    Returns:
        The two 32-bit sums, as the log stores them after what they cover.
    """
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    first = second = 0
    for index in range(0, len(words), 2):
        first = (first + words[index] + second) % WORD
        second = (second + words[index + 1] + first) % WORD
    return first, second


def wal_header_problem(header: bytes) -> str | None:
    """What is wrong with a log's header, or ``None`` when SQLite would read the log.

    Args:
        header: The first :data:`WAL_HEADER_BYTES` bytes of the log (fewer: it is cut short).
    """
    if len(header) < WAL_HEADER_BYTES:
        return f"its header is cut short ({len(header)} of {WAL_HEADER_BYTES} bytes)"
    magic, version, page_size, _, _, _, *stored = struct.unpack(">8I", header)
    if magic not in (WAL_MAGIC_LITTLE_ENDIAN, WAL_MAGIC_BIG_ENDIAN):
        return (
            f"its magic number is {magic:#010x}, not {WAL_MAGIC_LITTLE_ENDIAN:#010x} or "
            f"{WAL_MAGIC_BIG_ENDIAN:#010x}"
        )
    if version != WAL_FORMAT_VERSION:
        return f"its format version is {version}, not {WAL_FORMAT_VERSION}"
    if page_size not in PAGE_SIZES:
        return f"its page size is {page_size}, not a power of two from 512 to 65536"
    computed = wal_checksum(header[:24], big_endian=magic == WAL_MAGIC_BIG_ENDIAN)
    if tuple(stored) != computed:
        return "its header checksum does not match its header"
    return None


def refuse_damaged_wal(store: Path) -> None:
    """Refuse ``store`` when SQLite, opening it, would drop commits from the log beside it.

    Refused: frames behind a damaged header, and a damaged frame followed by a frame of the
    same log that commits a transaction (:mod:`.wal_frames`). A log that ends as a crash
    leaves it (its last frame cut short or not matching its checksum) is SQLite's to recover,
    as is a log no longer than its header (it holds no commit); a missing log is fine. A log
    that looks damaged is read again after :data:`RECHECK_PAUSE` (another process may be in
    the middle of writing it) and refused when it looks the same. Nothing is written: the
    store, its log and the log's index stay as they are.

    Raises:
        StoreError: Naming the log, what is wrong with it, and how to open the store without
            it (as of its last checkpoint).
    """
    log = store.with_name(store.name + WAL_SUFFIX)
    problem: str | None = None
    previous: str | None = None
    for attempt in range(CHECKS):
        try:
            problem = _log_problem(log)
        except FileNotFoundError:
            return
        except OSError as error:
            raise StoreError(
                f"{log}: cannot read the store's write-ahead log ({error.strerror or error}); "
                f"the store {store} was left as it was"
            ) from None
        if problem is None or problem == previous:
            break
        previous = problem
        if attempt + 1 < CHECKS:
            time.sleep(RECHECK_PAUSE)
    if problem is None:
        return
    index = store.with_name(store.name + SHM_SUFFIX)
    raise StoreError(
        f"{log}: the store's write-ahead log is damaged ({problem}); opening the store would "
        f"drop the commits in it, so {store} and its log were left as they were. To open the "
        f"store as of its last checkpoint, without those commits, move {log.name} and "
        f"{index.name} aside (keep them)"
    )


def _log_problem(log: Path) -> str | None:
    """What is wrong with ``log`` (its header, else its frames), or ``None``.

    Raises:
        OSError: It cannot be read (FileNotFoundError: there is none).
    """
    with open(log, "rb") as stream:
        header = stream.read(WAL_HEADER_BYTES)
        has_frames = bool(stream.read(1))
    if not has_frames:
        return None
    problem = wal_header_problem(header)
    if problem is not None:
        return problem
    big_endian = struct.unpack(">I", header[:4])[0] == WAL_MAGIC_BIG_ENDIAN
    return wal_frames_problem(log, header, big_endian=big_endian)
