"""``--scheduler`` at an address where no Dask scheduler answers, on every command that takes it.

``queens compare``, ``queens sweep`` and ``queens solutions --count`` connect through one path
(:func:`tui.lab.sweep.dask_cluster.connect`): an address with a scheme Dask does not speak, a
port where nothing listens, a loopback server that answers but is not Dask (an HTTP server),
or one that accepts and never says a word, each ends with one line on stderr and exit 2, in
real processes, with no traceback (not even from a half-made client's finalizer at exit).
"""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
"""The repository, where ``python -m tui`` finds the package."""

CONNECT_TIMEOUT = "2"
"""Seconds each command may wait for the scheduler."""

WAIT_LIMIT = 90.0
"""Seconds a process may take (generous: the machine is shared; a hang fails the test)."""

COMMANDS = {
    "compare": ["compare", "--preset", "default", "--seeds", "1"],
    "sweep": ["sweep", "--n", "8", "--seeds", "1", "--max-evals", "100"],
    "count": ["solutions", "--n", "8", "--count"],
}
"""The commands that take ``--scheduler``, each with a small piece of work."""


@pytest.fixture(scope="module")
def http_port() -> Iterator[int]:
    """A real HTTP server on loopback: it answers, but it is not Dask."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def silent_port() -> Iterator[int]:
    """A loopback listener that accepts connections and never sends a byte."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            accepted.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def addresses(http_port: int, silent_port: int) -> dict[str, str]:
    """Every kind of address that is not a Dask scheduler, by what it is."""
    return {
        "http scheme, nothing listening": "http://127.0.0.1:1",
        "tcp, nothing listening": "tcp://127.0.0.1:1",
        "unknown scheme": "foo://x",
        "tcp to an HTTP server": f"tcp://127.0.0.1:{http_port}",
        "http to an HTTP server": f"http://127.0.0.1:{http_port}",
        "tcp to a silent listener": f"tcp://127.0.0.1:{silent_port}",
    }


KINDS = (
    "http scheme, nothing listening",
    "tcp, nothing listening",
    "unknown scheme",
    "tcp to an HTTP server",
    "http to an HTTP server",
    "tcp to a silent listener",
)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_address_that_is_not_a_dask_scheduler_ends_in_one_line(
    command: str, kind: str, http_port: int, silent_port: int, tmp_path: Path
) -> None:
    address = addresses(http_port, silent_port)[kind]
    done = subprocess.run(
        [
            sys.executable, "-m", "tui", *COMMANDS[command], "--store", str(tmp_path / "s.db"),
            "--scheduler", address, "--connect-timeout", CONNECT_TIMEOUT,
        ],
        capture_output=True, text=True, timeout=WAIT_LIMIT, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"queens: error: --scheduler: {address!r} is not allowed; ")
    assert done.stdout == ""
