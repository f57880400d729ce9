"""Reading a pseudo-terminal: a wait for a text ends once it is written, and fails, showing
what was written instead, when the limit passes or the child closes the terminal first."""

from __future__ import annotations

import contextlib
import os
import pty
from collections.abc import Iterator

import pytest

from tests.pseudo_terminal import TerminalOutput


@pytest.fixture
def terminal() -> Iterator[tuple[int, int]]:
    """A pseudo-terminal's master side (read) and the child's side (written)."""
    master, child = pty.openpty()
    yield master, child
    for end in (master, child):
        with contextlib.suppress(OSError):  # closed by the test
            os.close(end)


def test_a_wait_for_a_text_ends_once_it_is_written(terminal: tuple[int, int]) -> None:
    master, child = terminal
    os.write(child, b"Population ... Quit")
    output = TerminalOutput(master, look=0.01)
    assert output.wait_for(b"Quit", 5.0, "the footer") < 5.0
    assert output.written.endswith(b"Quit")


def test_a_text_never_written_fails_showing_what_was(terminal: tuple[int, int]) -> None:
    master, child = terminal
    os.write(child, b"Loading")
    with pytest.raises(AssertionError, match=r"waiting for the footer.*instead: b'Loading'"):
        TerminalOutput(master, look=0.01).wait_for(b"Quit", 0.1, "the footer")


def test_a_terminal_closed_first_fails_at_once(terminal: tuple[int, int]) -> None:
    master, child = terminal
    os.write(child, b"Traceback")
    os.close(child)
    output = TerminalOutput(master, look=0.01)
    with pytest.raises(AssertionError, match=r"closed before the footer: b'Traceback"):
        output.wait_for(b"Quit", 60.0, "the footer")
    assert output.closed
    output.read_for(60.0)  # returns at once: nothing more will come
