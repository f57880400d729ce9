"""Reading a TOML plan file as untrusted input: what it is and how large, before any byte.

``queens sweep PLAN`` takes a path from the user, and the path may name anything: a device
that never ends (``/dev/zero``), a named pipe that blocks until someone writes, a directory,
a file of gigabytes, or a TOML document nested so deeply that the parser runs out of stack.
Each is refused with one line naming the file and what is allowed; a document the parser
rejects is named with the line and column the parser gives.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from tui.lab.sweep.plan_error import PlanError

MAX_PLAN_BYTES: Final = 1_000_000
"""The largest plan file read (a plan of the largest sweep allowed takes a few kilobytes)."""

_TOKENS: Final = re.compile(
    r'"""(?:\\.|[^\\])*?"""'  # multi-line basic string
    r"|'''.*?'''"  # multi-line literal string
    r'|"(?:\\.|[^"\\\n])*"'  # basic string
    r"|'[^'\n]*'"  # literal string
    r"|#[^\n]*"  # comment
    r"|[\[\]{}\n]",  # what nests, and the line ends
    re.DOTALL,
)
"""What :func:`deepest_nesting` reads: brackets and line ends outside strings and comments."""


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for people."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def read_plan_text(path: Path) -> str:
    """The text of a plan file, read only once it is known to be a small regular file.

    The file is opened without blocking (a named pipe with no writer would block ``open``)
    and checked through its open descriptor, so it cannot be swapped between the check and the
    read; at most :data:`MAX_PLAN_BYTES` + 1 bytes are ever read.

    Raises:
        PlanError: (field ``plan``) If the file cannot be opened, is not a regular file, is
            larger than :data:`MAX_PLAN_BYTES`, or is not UTF-8.
    """
    allowed = f"a readable UTF-8 TOML file of at most {MAX_PLAN_BYTES:,} bytes"
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise PlanError("plan", str(path), f"{allowed} ({error.strerror or error})") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise PlanError(
                "plan", str(path), f"a regular file ({_kind(status.st_mode)} is not one)"
            )
        if status.st_size > MAX_PLAN_BYTES:
            raise PlanError("plan", str(path), f"{allowed} (it has {status.st_size:,})")
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            data = file.read(MAX_PLAN_BYTES + 1)
    except OSError as error:
        raise PlanError("plan", str(path), f"{allowed} ({error.strerror or error})") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_PLAN_BYTES:  # it grew after the check
        raise PlanError("plan", str(path), f"{allowed} (it has more)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PlanError("plan", str(path), f"{allowed} ({error})") from None


def deepest_nesting(text: str) -> tuple[int, int]:
    """The deepest nesting of ``[ ]`` and ``{ }`` in a TOML text, and the line it is first
    reached on (1-based); brackets inside strings and comments do not count."""
    depth = deepest = 0
    line = deepest_line = 1
    for match in _TOKENS.finditer(text):
        token = match[0]
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif token in "]}":
            depth = max(0, depth - 1)
        line += token.count("\n")
    return deepest, deepest_line


def parse_plan_text(path: Path, text: str) -> dict[str, Any]:
    """The TOML document of a plan file's text.

    Raises:
        PlanError: (field ``plan``) naming the file, and the line the parser stopped on.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # The parser gives a line and column, except at the end: its line is the last one.
        where = str(error).replace(
            "(at end of document)", f"(at end of document, line {len(text.splitlines())})"
        )
        raise PlanError("plan", str(path), f"valid TOML ({where})") from None
    except RecursionError:
        # The parser recurses once per level of nesting: found where, as the parser would say.
        depth, line = deepest_nesting(text)
        raise PlanError(
            "plan",
            str(path),
            f"valid TOML (lists or tables nested {depth:,} deep, at line {line}; "
            "a plan needs two or three levels)",
        ) from None


def line_of(lines: Sequence[str], key: str, table: str | None) -> int | None:
    """The 1-based line where ``key = ...`` is written (under ``[table]`` when given)."""
    pattern = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*=""")
    inline = re.compile(rf"""[{{,]\s*["']?{re.escape(key)}["']?\s*=""")
    current: str | None = None
    for number, line in enumerate(lines, 1):
        header = re.match(r"^\s*\[\s*([^\]]+?)\s*\]", line)
        if header:
            current = header[1].strip("\"'")
            continue
        if current == table and pattern.match(line):
            return number
        if (
            table is not None
            and re.match(rf"^\s*{re.escape(table)}\s*=", line)
            and inline.search(line)
        ):
            return number
    return None
