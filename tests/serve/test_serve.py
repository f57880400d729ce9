"""``queens serve`` with real websocket clients, on 127.0.0.1 only.

Sessions end when their socket goes (even a dashboard that ignores quit and SIGTERM), the
access rules hold (Origin, Host, token, session cap), and a bad address is a usage error.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from tests.waiting import wait_until_async
from tui.cli.command_line import main
from tui.serve.access import AccessPolicy, policy_for
from tui.serve.address import BindAddress, resolve_bind_address
from tui.serve.server import DashboardServer
from tui.serve.session_driver import DRIVER_PATH, EXIT_FORCED

GONE_WITHIN = 10.0
"""Seconds a session's processes may take to end once their socket has gone."""

START_LIMIT = 60.0
"""Seconds a dashboard may take to draw its first screen (CI machines are slow and shared)."""

TOKEN = "test-token-1234"

# A stand-in dashboard that speaks the protocol, says hello, and ends when its input ends.
POLITE_APP = textwrap.dedent(
    """
    import os
    os.write(1, b"__GANGLION__\\n")
    hello = b"hello from a stand-in dashboard"
    os.write(1, b"D" + len(hello).to_bytes(4, "big") + hello)
    while os.read(0, 65536):
        pass
    """
)

# A stand-in for a dashboard stuck in its event loop: it never reads the quit packet, ignores
# SIGTERM, and has a child of its own (which inherits the ignored SIGTERM). Its first screen
# is that child's pid.
STUBBORN_APP = textwrap.dedent(
    """
    import os, signal, subprocess, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    os.write(1, b"__GANGLION__\\n")
    pid = f"grandchild {child.pid}".encode()
    os.write(1, b"D" + len(pid).to_bytes(4, "big") + pid)
    while True:
        time.sleep(0.1)
    """
)

# A real Textual app whose event loop is blocked as soon as it has started.
BLOCKED_TEXTUAL_APP = textwrap.dedent(
    """
    import time
    from textual.app import App

    class Blocked(App[None]):
        def on_mount(self) -> None:
            time.sleep(600)

    Blocked().run()
    """
)

# A browser tab: connects, waits for the first screen, reports it, then waits to be killed.
BROWSER_TAB = textwrap.dedent(
    """
    import asyncio, sys
    import aiohttp

    async def main(url, origin):
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(url, origin=origin) as ws:
                await ws.send_json(["resize", {"width": 80, "height": 24}])
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 10:
                        print("drawn", message.data[:40].decode("utf-8", "replace"), flush=True)
                        await asyncio.sleep(3600)

    asyncio.run(main(sys.argv[1], sys.argv[2]))
    """
)


def python_command(script: str) -> list[str]:
    return [sys.executable, "-c", script]


def dashboard_command(*flags: str) -> list[str]:
    return [sys.executable, "-m", "tui", "tui", *flags]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@asynccontextmanager
async def serving(
    argv: list[str],
    *,
    token: str | None = None,
    max_sessions: int = 4,
    allowed_origins: tuple[str, ...] = (),
) -> AsyncIterator[DashboardServer]:
    """A server on 127.0.0.1 and a free port, closed (every session ended) afterwards."""
    server = DashboardServer(
        argv,
        bind=resolve_bind_address("127.0.0.1"),
        port=0,
        policy=AccessPolicy(loopback=True, token=token, allowed_origins=frozenset(allowed_origins)),
        max_sessions=max_sessions,
    )
    await server.start()
    try:
        yield server
    finally:
        await server.close()


def base_url(server: DashboardServer) -> str:
    return f"http://127.0.0.1:{server.port}"


def own_origin(server: DashboardServer) -> str:
    return base_url(server)


async def first_screen(websocket: aiohttp.ClientWebSocketResponse) -> bytes:
    """The first terminal output the dashboard sends."""
    async with asyncio.timeout(START_LIMIT):
        async for message in websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                data: bytes = message.data
                return data
    raise AssertionError("the websocket closed before the dashboard drew anything")


def session_pids(server: DashboardServer) -> list[int]:
    return [session.process.pid for session in server.sessions if session.process is not None]


# -- a session ends when its socket goes --------------------------------------------------------


async def open_tab_then_kill_it(server: DashboardServer) -> str:
    """Run a browser tab in its own process, wait for the first screen, then SIGKILL the tab
    (as headless Chromium exits after a screenshot): its socket drops without a close frame.
    Returns what the tab saw first."""
    tab = await asyncio.create_subprocess_exec(
        *python_command(BROWSER_TAB),
        f"{base_url(server)}/ws",
        own_origin(server),
        stdout=asyncio.subprocess.PIPE,
    )
    assert tab.stdout is not None
    try:
        async with asyncio.timeout(START_LIMIT):
            line = (await tab.stdout.readline()).decode()
        assert line.startswith("drawn"), line
    finally:
        tab.kill()
        await tab.wait()
    return line


async def test_the_dashboard_ends_when_its_tab_is_killed() -> None:
    async with serving(dashboard_command("--n", "8", "--seed", "1")) as server:
        await open_tab_then_kill_it(server)
        pids = session_pids(server)
        assert len(pids) <= 1
        if pids:  # it may already have ended
            await wait_until_async(
                lambda: not alive(pids[0]), GONE_WITHIN, "the dashboard to be gone"
            )
        await wait_until_async(
            lambda: not server.sessions, GONE_WITHIN, "the session to be forgotten"
        )


async def test_a_dashboard_that_ignores_quit_and_sigterm_is_killed_with_its_children() -> None:
    async with serving(python_command(STUBBORN_APP)) as server:
        seen = await open_tab_then_kill_it(server)
        grandchild = int(seen.split()[2])
        pids = session_pids(server)
        assert len(pids) == 1 and alive(pids[0]) and alive(grandchild)
        await wait_until_async(
            lambda: not alive(pids[0]) and not alive(grandchild),
            GONE_WITHIN,
            "the stubborn dashboard and its child to be gone",
        )


async def test_stopping_the_server_ends_every_dashboard() -> None:
    async with serving(python_command(STUBBORN_APP)) as server, aiohttp.ClientSession() as client:
        tabs = [
            await client.ws_connect(f"{base_url(server)}/ws", origin=own_origin(server))
            for _ in range(2)
        ]
        for tab in tabs:
            await first_screen(tab)
        pids = session_pids(server)
        assert len(pids) == 2
        started = time.monotonic()
        await server.close()
        assert time.monotonic() - started < GONE_WITHIN
        assert not any(alive(pid) for pid in pids)


# -- the dashboard process ends itself when its server cannot ------------------------------------


def start_with_session_driver(argv: list[str]) -> subprocess.Popen[bytes]:
    """Start a Textual app as textual-serve would, with our driver; wait until it runs."""
    environment = dict(os.environ, TEXTUAL_DRIVER=DRIVER_PATH, COLUMNS="80", ROWS="24")
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment)
    assert process.stdout is not None
    assert process.stdout.readline() == b"__GANGLION__\n"
    return process


def ends_within(process: subprocess.Popen[bytes], seconds: float) -> int | None:
    try:
        return process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


def test_a_blocked_dashboard_ends_on_sigterm() -> None:
    """Textual's WebDriver only posts ExitApp on SIGTERM: a blocked loop never sees it."""
    process = start_with_session_driver(python_command(BLOCKED_TEXTUAL_APP))
    time.sleep(0.5)  # let on_mount block the loop
    process.send_signal(signal.SIGTERM)
    assert ends_within(process, GONE_WITHIN) == EXIT_FORCED


def test_the_dashboard_ends_when_its_server_is_gone() -> None:
    """The server killed outright: stdin ends, and the dashboard must not run on unseen."""
    process = start_with_session_driver(dashboard_command("--n", "8", "--seed", "1"))
    assert process.stdin is not None
    process.stdin.close()
    assert ends_within(process, GONE_WITHIN) is not None


# -- who may connect ----------------------------------------------------------------------------


async def handshake_status(url: str, origin: str | None, **headers: str) -> int:
    """The HTTP status of a websocket upgrade (101 when accepted)."""
    async with aiohttp.ClientSession() as client:
        try:
            websocket = await client.ws_connect(url, origin=origin, headers=headers)
        except aiohttp.WSServerHandshakeError as error:
            return error.status
        await first_screen(websocket)
        await websocket.close()
        return 101


async def test_a_websocket_from_another_origin_is_refused() -> None:
    async with serving(python_command(POLITE_APP)) as server:
        url = f"{base_url(server)}/ws"
        assert await handshake_status(url, "http://evil.example") == 403
        assert await handshake_status(url, f"http://localhost:{server.port + 1}") == 403
        assert await handshake_status(url, "null") == 403
        assert await handshake_status(url, None) == 403
        assert not server.sessions
        assert await handshake_status(url, own_origin(server)) == 101


async def test_an_allowed_origin_is_accepted() -> None:
    proxy = "https://lab.example.org"
    async with serving(python_command(POLITE_APP), allowed_origins=(proxy,)) as server:
        assert await handshake_status(f"{base_url(server)}/ws", proxy) == 101


async def test_a_page_reached_by_another_name_is_refused_on_loopback() -> None:
    """DNS rebinding: evil.example re-pointed at 127.0.0.1 is same-origin with itself."""
    async with serving(python_command(POLITE_APP)) as server, aiohttp.ClientSession() as client:
        rebound = f"evil.example:{server.port}"
        async with client.get(f"{base_url(server)}/", headers={"Host": rebound}) as response:
            assert response.status == 403
        status = await handshake_status(f"{base_url(server)}/ws", f"http://{rebound}", Host=rebound)
        assert status == 403
        async with client.get(f"http://localhost:{server.port}/") as response:
            assert response.status == 200


async def test_the_page_points_its_websocket_at_the_host_the_browser_used() -> None:
    async with serving(python_command(POLITE_APP)) as server, aiohttp.ClientSession() as client:
        async with client.get(f"{base_url(server)}/") as response:
            page = await response.text()
        assert f'data-session-websocket-url="ws://127.0.0.1:{server.port}/ws"' in page


async def test_a_token_is_required_when_the_server_has_one() -> None:
    async with (
        serving(python_command(POLITE_APP), token=TOKEN) as server,
        aiohttp.ClientSession() as client,
    ):
        for query in ("", "?token=", "?token=wrong-token-1234", f"?token={TOKEN}x"):
            async with client.get(f"{base_url(server)}/{query}") as response:
                assert response.status == 403, query
                assert "token" in await response.text()
        async with client.get(f"{base_url(server)}/?token={TOKEN}") as response:
            assert response.status == 200
            assert f"/ws/{TOKEN}" in await response.text()
            assert response.headers["Referrer-Policy"] == "no-referrer"
        origin = own_origin(server)
        assert await handshake_status(f"{base_url(server)}/ws", origin) == 403
        assert await handshake_status(f"{base_url(server)}/ws/wrong-token-1234", origin) == 403
        assert not server.sessions
        assert await handshake_status(f"{base_url(server)}/ws/{TOKEN}", origin) == 101


def test_off_loopback_a_token_is_always_required() -> None:
    with pytest.raises(ValueError, match="token"):
        AccessPolicy(loopback=False)
    policy = policy_for(loopback=False, token=None, allowed_origins=())
    assert policy.token is not None and len(policy.token) >= 32
    assert policy_for(loopback=False, token=None, allowed_origins=()).token != policy.token
    assert policy_for(loopback=True, token=None, allowed_origins=()).token is None
    # Off loopback the machine has many names: the Host header is not the gate, the token is.
    assert policy.refuse_host("lab-machine.local:8000") is None
    assert policy.refuse_token(None) is not None


def test_off_loopback_the_start_message_warns_and_shows_the_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = DashboardServer(
        dashboard_command(),
        bind=BindAddress("0.0.0.0", ("0.0.0.0",)),
        port=8000,
        policy=AccessPolicy(loopback=False, token=TOKEN),
        max_sessions=3,
    )
    server.announce()
    printed = capsys.readouterr().err
    assert "WARNING" in printed and "other machines" in printed
    assert f"http://{socket.gethostname()}:8000/?token={TOKEN}" in printed
    assert "At most 3" in printed


async def test_sessions_are_capped() -> None:
    async with (
        serving(python_command(POLITE_APP), max_sessions=2) as server,
        aiohttp.ClientSession() as client,
    ):
        url, origin = f"{base_url(server)}/ws", own_origin(server)
        tabs = [await client.ws_connect(url, origin=origin) for _ in range(2)]
        for tab in tabs:
            await first_screen(tab)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(url, origin=origin)
        assert refused.value.status == 503
        async with client.get(f"{base_url(server)}/") as response:
            assert response.status == 503
            assert "--max-sessions" in await response.text()
        await tabs[0].close()
        await wait_until_async(lambda: len(server.sessions) == 1, GONE_WITHIN, "a free slot")
        third = await client.ws_connect(url, origin=origin)
        await first_screen(third)


async def test_malformed_messages_are_ignored() -> None:
    async with serving(python_command(POLITE_APP)) as server, aiohttp.ClientSession() as client:
        tab = await client.ws_connect(f"{base_url(server)}/ws", origin=own_origin(server))
        await first_screen(tab)
        for bad in ("not json", "[]", '["stdin", 5]', '["resize", {"width": 80}]', "{}"):
            await tab.send_str(bad)
        await tab.send_json(["ping", "still here"])
        async with asyncio.timeout(GONE_WITHIN):
            reply = await tab.receive_json()
        assert reply == ["pong", "still here"]
        assert len(server.sessions) == 1


# -- a bad address is a usage error ---------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "-1", "abc", "65536", "8.5"])
def test_a_bad_port_is_a_usage_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", port])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "--port" in error and port in error and "65535" in error


def test_an_unresolvable_host_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "no-such-host.invalid", "--port", "0"]) == 2
    error = capsys.readouterr().err
    assert "--host 'no-such-host.invalid'" in error and "cannot be resolved" in error
    assert "Traceback" not in error


def test_a_port_in_use_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--host", "127.0.0.1", "--port", str(port)]) == 2
    error = capsys.readouterr().err
    assert f"--port {port}: already in use" in error
    assert "Traceback" not in error


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--max-sessions", "0"], "--max-sessions"),
        (["--token", "short"], "--token"),
        (["--allow-origin", "lab.example.org"], "--allow-origin"),
    ],
)
def test_bad_serve_flags_are_usage_errors(
    flags: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", *flags])
    assert exit_.value.code == 2
    assert named in capsys.readouterr().err


def test_the_command_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    """The whole command, as a user runs it: prints the URL, serves the page, ends on SIGTERM."""
    server = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", "0", "--token", TOKEN],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stderr is not None
        first = server.stderr.readline()
        assert first.startswith("Serving the dashboard on http://127.0.0.1:")
        assert first.rstrip().endswith(f"/?token={TOKEN}")
        url = first.split()[-1]
        with socket.create_connection(("127.0.0.1", int(url.split(":")[2].split("/")[0]))):
            pass
        server.send_signal(signal.SIGTERM)
        assert server.wait(GONE_WITHIN) == 128 + signal.SIGTERM
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_each_request_is_logged_on_one_short_line() -> None:
    """aiohttp's default access log, through textual-serve's Rich handler, took two wrapped
    lines per request with the browser's user agent; a log of a session is read by people."""
    import urllib.request

    server = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "COLUMNS": "60"},
    )
    try:
        assert server.stderr is not None
        url = server.stderr.readline().split()[-1]
        server.stderr.readline()  # the tab limit
        agent = "Mozilla/5.0 (X11; Linux x86_64) a-long-user-agent-string"
        request = urllib.request.Request(url, headers={"User-Agent": agent})
        with urllib.request.urlopen(request, timeout=GONE_WITHIN) as page:
            assert page.status == 200
        line = server.stderr.readline()
        server.send_signal(signal.SIGTERM)
        rest = server.communicate(timeout=GONE_WITHIN)[1]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert '"GET / HTTP/1.1" 200' in line
    assert agent not in line + rest
    assert "GET /" not in rest
