"""A progress line on stderr for work done in this process (the landscape of N = 10).

On a terminal the line is rewritten in place as the work goes; elsewhere (a log, a pipe) a
line is printed at each tenth, so a log shows the work was under way without a flood.
"""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressLine:
    """``queens: LABEL: 37% of 10,886,400 UNIT``, kept up to date on ``stream``."""

    def __init__(self, label: str, unit: str, stream: TextIO | None = None) -> None:
        self._label, self._unit = label, unit
        self._stream = stream if stream is not None else sys.stderr
        self._terminal = self._stream.isatty()
        self._shown = -1

    def update(self, done: int, total: int) -> None:
        """``done`` of ``total`` are done."""
        share = done / total if total else 1.0
        percent = int(share * 100)
        if percent == self._shown or (not self._terminal and percent // 10 == self._shown // 10):
            return
        self._shown = percent
        text = f"queens: {self._label}: {percent}% of {total:,} {self._unit}"
        if self._terminal:
            self._stream.write(f"\r{text}\033[K")
        else:
            self._stream.write(text + "\n")
        self._stream.flush()

    def close(self) -> None:
        """End the line on a terminal (the next message starts on a line of its own)."""
        if self._terminal and self._shown >= 0:
            self._stream.write("\n")
            self._stream.flush()
