"""The ``queens serve`` web server: textual-serve's, with access rules and sessions that end.

:class:`DashboardServer` keeps textual-serve's page, static files and protocol, and changes:

- every request passes :class:`~tui.serve.access.AccessPolicy` (Host, token, websocket Origin);
- at most ``max_sessions`` dashboards run at once; one more tab gets a page saying so;
- each websocket runs a :class:`~tui.serve.session.DashboardSession`, ended when the socket
  goes, and all of them when the server stops;
- the page points its websocket at the host the browser used (textual-serve builds it from the
  bind address, which a browser cannot reach when that is ``0.0.0.0``);
- the page saves every file a dashboard delivers as a download (:mod:`.page_downloads`: the
  page's own way opens a window per file, and a browser blocks all but the first);
- malformed messages from a browser are ignored with a warning, and terminal sizes are capped;
- each request is logged on one short line, a malformed one too (:mod:`.request_log`);
- binding is done here, so a port in use is a :class:`~tui.serve.address.BindError`, and
  ``--port 0`` reports the port it got.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import html
import json
import logging
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Final

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from textual_serve.server import Server

from tui.serve.access import AccessPolicy
from tui.serve.address import BindAddress, BindError
from tui.serve.page_downloads import with_download_script
from tui.serve.request_log import request_logging
from tui.serve.session import DashboardSession

MAX_TERMINAL_SIDE: Final = 1000
"""Largest terminal width or height a browser may ask for (a bigger one costs the server)."""

HEARTBEAT: Final = 15.0
"""Seconds between websocket pings: a browser that vanished without closing is noticed."""

log = logging.getLogger("queens-serve")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _terminal_side(value: object, default: int) -> int:
    """A terminal width or height from a browser: an int in 1..MAX_TERMINAL_SIDE."""
    try:
        side = int(str(value))
    except ValueError:
        return default
    return max(1, min(MAX_TERMINAL_SIDE, side))


def _refusal(status: int, reason: str) -> web.Response:
    """A short HTML page a person can read, with the reason (also logged)."""
    log.warning("refused (%s): %s", status, reason)
    body = (
        "<!DOCTYPE html><title>queens serve</title>"
        f"<body style='font-family:monospace'><p>{html.escape(reason)}</p></body>"
    )
    return web.Response(status=status, text=body, content_type="text/html")


class DashboardServer(Server):
    """Serve one dashboard process per browser tab, to the tabs the access policy lets in."""

    def __init__(
        self,
        argv: list[str],
        *,
        bind: BindAddress,
        port: int,
        policy: AccessPolicy,
        max_sessions: int,
        title: str = "Queens GA lab",
    ) -> None:
        """Prepare (nothing is bound until :meth:`start`).

        Args:
            argv: The dashboard command each session runs.
            bind: The resolved ``--host``.
            port: The ``--port`` (0: any free port; :attr:`port` is the real one once started).
            policy: Who may open a page or a websocket.
            max_sessions: Most dashboards running at once.
            title: Shown on the page while the dashboard starts.
        """
        super().__init__(" ".join(argv), host=bind.host, port=port, title=title)
        self.argv = argv
        self.bind = bind
        self.policy = policy
        self.max_sessions = max_sessions
        self.sessions: set[DashboardSession] = set()
        """The sessions running now."""
        self._runner: web.AppRunner | None = None

    # -- the web application ------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._check_host])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket-token"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        return app

    @web.middleware
    async def _check_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if reason := self.policy.refuse_host(request.headers.get("Host")):
            return _refusal(403, reason)
        return await handler(request)

    def _full(self) -> str | None:
        if len(self.sessions) < self.max_sessions:
            return None
        return (
            f"Too many sessions: {len(self.sessions)} of {self.max_sessions} dashboards are "
            "open. Close a tab and reload, or restart the server with a larger --max-sessions."
        )

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page: a terminal whose websocket goes back to the host the browser used."""
        token = request.query.get("token")
        if reason := self.policy.refuse_token(token):
            return _refusal(403, reason)
        if reason := self._full():
            return _refusal(503, reason)
        websocket_scheme = "wss" if request.scheme == "https" else "ws"
        websocket_path = "/ws" if self.policy.token is None else f"/ws/{self.policy.token}"
        context = {
            "font_size": _terminal_side(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{websocket_scheme}://{request.host}{websocket_path}",
            "config": {"static": {"url": f"{request.scheme}://{request.host}/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        if response.text is not None:
            response.text = with_download_script(response.text)
        # The URL carries the token: never send it on to the fonts the page loads.
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    async def handle_websocket(  # type: ignore[override]
        self, request: web.Request
    ) -> web.StreamResponse:
        """One browser tab: check it, run its dashboard, end the dashboard when it goes."""
        reason = self.policy.refuse_token(request.match_info.get("token"))
        if reason is None:
            reason = self.policy.refuse_origin(
                request.headers.get("Origin"), request.headers.get("Host"), request.scheme
            )
        if reason:
            return _refusal(403, reason)
        if reason := self._full():
            return _refusal(503, reason)

        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT)
        session = DashboardSession(
            self.argv,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.sessions.add(session)  # before any await: the cap holds under concurrent tabs
        try:
            await websocket.prepare(request)
            await session.start(
                _terminal_side(request.query.get("width", "80"), 80),
                _terminal_side(request.query.get("height", "24"), 24),
            )
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(websocket.close())
            raise
        except Exception as error:
            log.warning("session ended by an error: %s: %s", type(error).__name__, error)
        finally:
            try:
                await session.stop()
            finally:
                self.sessions.discard(session)
        return websocket

    async def _process_messages(  # type: ignore[override]
        self, websocket: web.WebSocketResponse, app_service: DashboardSession
    ) -> None:
        """Relay the browser's messages; a malformed one is skipped with a warning."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
                kind = envelope[0]
                if kind == "stdin":
                    data = envelope[1]
                    if not isinstance(data, str):
                        raise TypeError("stdin data must be a string")
                    await app_service.send_bytes(data.encode("utf-8"))
                elif kind == "resize":
                    size = envelope[1]
                    await app_service.set_terminal_size(
                        _terminal_side(size["width"], 80), _terminal_side(size["height"], 24)
                    )
                elif kind == "ping":
                    await websocket.send_json(["pong", str(envelope[1])])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()
            except (ValueError, TypeError, KeyError, IndexError) as error:
                log.warning("ignored a malformed message (%s): %.80r", error, message.data)

    # -- running ------------------------------------------------------------------------------

    async def start(self) -> int:
        """Bind and start serving; returns the port (the one chosen, when ``--port 0``).

        Raises:
            BindError: When the address cannot be bound, naming the flag and value.
        """
        runner = web.AppRunner(
            await self._make_app(),
            handle_signals=False,
            shutdown_timeout=5,
            **request_logging(logging.getLogger("aiohttp.server")),
        )
        await runner.setup()
        # With --port 0, one address only: each address would get a different free port.
        host = self.bind.addresses[0] if self.port == 0 else self.bind.host
        site = web.TCPSite(runner, host, self.port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise BindError(self._bind_failure(error)) from None
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        return self.port

    def _bind_failure(self, error: OSError) -> str:
        if error.errno == errno.EADDRINUSE:
            return (
                f"--port {self.port}: already in use on {self.bind.host} (another server "
                "listens there); choose another port, or --port 0 for any free one"
            )
        if error.errno == errno.EACCES:
            return f"--port {self.port}: permission denied (below 1024 needs root); use 1024-65535"
        if error.errno == errno.EADDRNOTAVAIL:
            return (
                f"--host {self.bind.host!r}: {', '.join(self.bind.addresses)} is not an address "
                "of this machine"
            )
        return f"--host {self.bind.host!r} --port {self.port}: cannot listen ({error.strerror})"

    async def close(self) -> None:
        """End every session's dashboard, then stop serving."""
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def url(self) -> str:
        """The address to open in a browser, with the token when there is one."""
        host = socket.gethostname() if self.bind.wildcard else self.bind.host
        if ":" in host:
            host = f"[{host}]"
        url = f"http://{host}:{self.port}/"
        return url if self.policy.token is None else f"{url}?token={self.policy.token}"

    def announce(self) -> None:
        """Tell the user where the dashboard is, and warn when other machines can reach it."""
        lines = [f"Serving the dashboard on {self.url()}"]
        if not self.policy.loopback:
            lines.insert(
                0,
                f"WARNING: {self.bind.host} ({', '.join(self.bind.addresses)}) is reachable from "
                "other machines. Anyone who has the URL below, token included, can drive the "
                "dashboard: share it only with people you trust.",
            )
        lines.append(
            f"At most {self.max_sessions} browser tabs at once (--max-sessions). Ctrl+C to stop."
        )
        print("\n".join(lines), file=sys.stderr, flush=True)

    def initialize_logging(self) -> None:
        """Plain lines on stderr, one per event: textual-serve's Rich handler wraps them at
        the terminal's width and pads them to it."""
        logging.basicConfig(
            level=logging.DEBUG if self.debug else logging.INFO,
            format="%(message)s",
            handlers=[logging.StreamHandler(sys.stderr)],
            force=True,
        )

    def serve(self, debug: bool = False) -> int:  # type: ignore[override]
        """Serve until SIGINT or SIGTERM, then end every dashboard.

        Returns:
            The number of the signal that stopped the server.

        Raises:
            BindError: When the address cannot be bound.
        """
        self.debug = debug
        self.initialize_logging()
        return asyncio.run(self._serve_until_stopped())

    async def _serve_until_stopped(self) -> int:
        loop = asyncio.get_running_loop()
        stopped_by: asyncio.Future[int] = loop.create_future()

        def stop(signum: int) -> None:
            if not stopped_by.done():
                stopped_by.set_result(signum)

        # Before binding: a SIGTERM right after the URL is printed must still end the sessions.
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop, signum)
        try:
            await self.start()
            self.announce()
            return await stopped_by
        finally:
            if self.sessions:
                print(f"Ending {len(self.sessions)} dashboard(s)...", file=sys.stderr, flush=True)
            await self.close()
