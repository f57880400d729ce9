"""Malformed HTTP requests against a real ``queens serve``, over raw sockets on 127.0.0.1.

Each is answered 400, and the server's log says so in one line naming the peer and what was
wrong: no traceback, no second line for the request aiohttp stands in for it.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

GONE_WITHIN = 10.0

MALFORMED = {
    "no Host header": (b"GET / HTTP/1.1\r\nUser-Agent: raw\r\n\r\n", "Missing 'Host' header"),
    "an 8 KB header line": (
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 8200 + b"\r\n\r\n",
        "Got more than 8190 bytes",
    ),
    "an 8 KB request line": (
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "Got more than 8190 bytes",
    ),
    "bytes that are not HTTP": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", ""),
}
"""Each request, and what its log line says was wrong."""


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[str], int]]:
    process = subprocess.Popen(
        [str(sys.executable), "-m", "tui", "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        assert first.startswith("Serving the dashboard on http://127.0.0.1:"), first
        process.stderr.readline()  # the tab limit
        yield process, int(first.split(":")[2].split("/")[0])
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def answer_to(port: int, request: bytes) -> bytes:
    """What the server sends back to ``request`` on a fresh connection, until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=GONE_WITHIN) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_each_malformed_request_is_answered_400_and_logged_in_one_line(
    server: tuple[subprocess.Popen[str], int],
) -> None:
    process, port = server
    for name, (request, _) in MALFORMED.items():
        status = answer_to(port, request).split(b"\r\n", 1)[0]
        assert status.endswith(b" 400 Bad Request"), (name, status)
    good = answer_to(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert good.startswith(b"HTTP/1.1 200 OK")
    process.send_signal(signal.SIGTERM)
    log = process.communicate(timeout=GONE_WITHIN)[1]
    assert "Traceback" not in log
    lines = log.splitlines()
    bad = [line for line in lines if line.startswith("bad request from 127.0.0.1, answered 400")]
    assert len(bad) == len(MALFORMED), log
    for line, (_, reason) in zip(bad, MALFORMED.values(), strict=True):
        assert reason in line and len(line) < 200
    assert not [line for line in lines if "UNKNOWN" in line], log
    # Apart from them: the page's access line and the server stopping, nothing.
    others = [line for line in lines if line not in bad]
    assert len(others) == 2 and '"GET / HTTP/1.1" 200' in others[0], log
