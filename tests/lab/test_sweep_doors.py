"""What comes into a sweep from outside, starting with plan files that are not plans: a device,
a named pipe, a directory, a file too large, a document nested too deep, a parser error.

Each refusal is one line naming the field, the value and what is allowed, exit 2, before the
file is read and before any worker starts.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import ConfigError
from tui.lab.sweep.plan import spec_from_file
from tui.lab.sweep.plan_file import MAX_PLAN_BYTES, deepest_nesting, read_plan_text

ROOT = Path(__file__).resolve().parents[2]
"""The repository, where ``python -m tui`` finds the package."""

WAIT_LIMIT = 60.0
"""Seconds a subprocess may take (generous: the machine is shared)."""


def queens(*args: str, timeout: float = WAIT_LIMIT) -> subprocess.CompletedProcess[str]:
    """``queens ARGS`` in a process of its own, with 1 GB of memory at most (a plan read
    without a limit would otherwise take the machine's)."""

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        preexec_fn=limit_memory,
        check=False,
    )


def assert_refused(done: subprocess.CompletedProcess[str], start: str) -> None:
    """Exit 2 with one line on stderr that starts with ``start``, nothing on stdout."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(start), lines[0]


# Plan files -----------------------------------------------------------------------------------


def deep_plan(tmp_path: Path) -> Path:
    path = tmp_path / "deep.toml"
    path.write_text("seeds = 2\n\nmax_evals = " + "[" * 5000 + "]" * 5000 + "\n")
    return path


def pipe(tmp_path: Path) -> Path:
    path = tmp_path / "plan.fifo"
    os.mkfifo(path)
    return path


def oversized(tmp_path: Path) -> Path:
    path = tmp_path / "large.toml"
    path.write_text("seeds = 2\n" + "# padding\n" * (MAX_PLAN_BYTES // 10 + 1))
    return path


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero and named pipes")
@pytest.mark.parametrize(
    ("make", "allowed"),
    [
        (lambda tmp: Path("/dev/zero"), "a regular file (a character device is not one)"),
        (pipe, "a regular file (a named pipe is not one)"),
        (lambda tmp: tmp, "a regular file (a directory is not one)"),
        (oversized, f"a readable UTF-8 TOML file of at most {MAX_PLAN_BYTES:,} bytes (it has"),
        (deep_plan, "valid TOML (lists or tables nested 5,000 deep, at line 3;"),
    ],
    ids=["device", "named-pipe", "directory", "oversized", "nested"],
)
def test_a_plan_that_is_no_small_toml_file_is_refused_before_it_is_read(
    tmp_path: Path, make: Callable[[Path], Path], allowed: str
) -> None:
    path = make(tmp_path)
    done = queens("sweep", str(path), "--store", str(tmp_path / "runs.sqlite3"))
    assert_refused(done, f"queens: error: plan: '{path}' is not allowed; {allowed}")
    assert not (tmp_path / "runs.sqlite3").exists()


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("seeds = 3\nmax_evals = = 10\n", "(at line 2, column 13)"),
        ("seeds = 3\n\nmax_evals = [[1], [2]\n", "(at end of document, line 3)"),
    ],
)
def test_a_parser_error_names_the_file_and_line(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "plan.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        spec_from_file(path)
    assert str(refused.value).startswith(f"plan: '{path}' is not allowed; valid TOML (")
    assert str(refused.value).endswith(f"{where})")


def test_a_plan_that_grows_past_the_limit_is_not_read_past_it(tmp_path: Path) -> None:
    path = tmp_path / "plan.toml"
    path.write_bytes(b"#" * MAX_PLAN_BYTES)
    assert len(read_plan_text(path)) == MAX_PLAN_BYTES
    path.write_bytes(b"#" * (MAX_PLAN_BYTES + 1))
    with pytest.raises(ConfigError, match="at most 1,000,000 bytes"):
        read_plan_text(path)


def test_brackets_in_strings_and_comments_are_no_nesting() -> None:
    text = 'a = "[[[{"\nb = \'[[\'\n# [[[[\nc = """\n[[[\n"""\nd = [[1], {e = [2]}]\n'
    assert deepest_nesting(text) == (3, 7)
