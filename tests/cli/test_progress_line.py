"""The progress line of work done in this process: rewritten in place on a terminal, a line
at each tenth elsewhere."""

from __future__ import annotations

import io

from tui.cli.progress_line import ProgressLine


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_a_line_is_printed_at_each_tenth() -> None:
    stream = io.StringIO()
    line = ProgressLine("landscape N = 10", "boards walked", stream)
    for done in range(0, 1001, 7):
        line.update(done, 1000)
    line.update(1000, 1000)
    line.close()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "queens: landscape N = 10: 0% of 1,000 boards walked"
    assert lines[-1] == "queens: landscape N = 10: 100% of 1,000 boards walked"
    assert len(lines) == 11


def test_on_a_terminal_the_line_is_rewritten_and_ended() -> None:
    stream = Terminal()
    line = ProgressLine("landscape N = 10", "boards walked", stream)
    line.update(1, 4)
    line.update(1, 4)  # the same percent: nothing written
    line.update(4, 4)
    line.close()
    text = stream.getvalue()
    assert text.count("\r") == 2
    assert text.endswith("100% of 4 boards walked\033[K\n")
