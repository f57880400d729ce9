"""Who may open the dashboard: same-origin websockets, a token off loopback, the Host header.

The served dashboard drives a real process (and, once runs can be exported, writes files), so a
web page on another site must not be able to drive it through the user's browser:

- A websocket upgrade must carry an ``Origin`` equal to the page's own origin (the scheme and
  the ``Host`` the browser asked for), or one the user allowed with ``--allow-origin`` (a
  reverse proxy). Browsers always send ``Origin`` on websockets and scripts cannot forge it.
- Bound to loopback only, the ``Host`` header must name a loopback host (``localhost``,
  ``127.x.x.x``, ``::1``): a page whose own name was re-pointed at 127.0.0.1 (DNS rebinding)
  is same-origin with itself, and this is what stops it.
- Off loopback, or when asked with ``--token``, the page and the websocket require a token in
  the URL, printed when the server starts (as Jupyter does); compared in constant time.

Plain functions of strings: no aiohttp here, so each rule is tested on its own.
"""

from __future__ import annotations

import argparse
import hmac
import ipaddress
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def new_token() -> str:
    """A random URL-safe token (256 bits), for a server reachable from other machines."""
    return secrets.token_urlsafe(32)


def _host_and_port(authority: str, scheme: str) -> tuple[str, int] | None:
    """``("localhost", 8000)`` from ``"LocalHost:8000"``; ``None`` when it does not parse."""
    try:
        parts = urlsplit(f"//{authority}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    if port is None:
        port = DEFAULT_PORTS.get(scheme)
        if port is None:
            return None
    return parts.hostname.lower(), port


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """``("http", "localhost", 8000)`` from an Origin; ``None`` for ``null`` or garbage."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or parts.path not in ("", "/"):
        return None
    host_port = _host_and_port(parts.netloc, parts.scheme)
    return None if host_port is None else (parts.scheme, *host_port)


def is_loopback_name(hostname: str) -> bool:
    """Whether a host name or address can only mean this machine."""
    if hostname == "localhost" or hostname.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(hostname.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class AccessPolicy:
    """The rules one server applies to every page request and websocket upgrade."""

    loopback: bool
    """Whether the server listens on loopback addresses only."""
    token: str | None = None
    """The token every URL must carry, or ``None`` (allowed on loopback only)."""
    allowed_origins: frozenset[str] = field(default_factory=frozenset)
    """Extra origins allowed to open websockets (``--allow-origin``), e.g. a reverse proxy's."""

    def __post_init__(self) -> None:
        if self.token is None and not self.loopback:
            raise ValueError("a server reachable from other machines needs a token")
        for origin in self.allowed_origins:
            if _origin_key(origin) is None:
                raise ValueError(
                    f"--allow-origin {origin!r}: give an origin such as https://example.org:8443"
                )

    def refuse_host(self, host_header: str | None) -> str | None:
        """Why a request with this ``Host`` header is refused, or ``None`` to go on."""
        if not self.loopback:
            return None  # any of the machine's names; the token guards the door
        parsed = _host_and_port(host_header or "", "http")
        if parsed is None or not is_loopback_name(parsed[0]):
            return (
                f"Host {host_header!r} refused: this server listens on loopback only, so it "
                "must be reached as localhost or 127.0.0.1"
            )
        return None

    def refuse_origin(self, origin: str | None, host_header: str | None, scheme: str) -> str | None:
        """Why a websocket upgrade from ``origin`` is refused, or ``None`` to go on.

        Args:
            origin: The request's ``Origin`` header (``None`` when absent).
            host_header: The request's ``Host`` header: the page's own origin is built from it.
            scheme: ``http`` or ``https``, as the server sees the request.
        """
        if not origin:
            return "websocket refused: no Origin header (only the dashboard's own page may connect)"
        key = _origin_key(origin)
        own = _host_and_port(host_header or "", scheme)
        if key is not None and own is not None and key == (scheme, *own):
            return None
        if key is not None and key in {_origin_key(allowed) for allowed in self.allowed_origins}:
            return None
        return (
            f"websocket refused: Origin {origin!r} is not this server's own "
            f"({scheme}://{host_header}); allow a proxy's origin with --allow-origin"
        )

    def refuse_token(self, given: str | None) -> str | None:
        """Why a request carrying ``given`` as its token is refused, or ``None`` to go on."""
        if self.token is None:
            return None
        if given is None:
            return "token required: open the URL printed when the server started (?token=...)"
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "wrong token: open the URL printed when the server started (?token=...)"
        return None


def origin_argument(text: str) -> str:
    """Argparse type of ``--allow-origin``: ``scheme://host[:port]``.

    Raises:
        argparse.ArgumentTypeError: Naming the value and what is allowed.
    """
    if _origin_key(text) is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an origin (allowed: http:// or https:// with a host and an "
            "optional port, no path, e.g. https://lab.example.org)"
        )
    return text.strip()


def token_argument(text: str) -> str:
    """Argparse type of ``--token``: at least 8 URL-safe characters.

    Raises:
        argparse.ArgumentTypeError: Naming what is allowed.
    """
    if not re.fullmatch(r"[A-Za-z0-9_.~-]{8,}", text):
        raise argparse.ArgumentTypeError(
            "a token needs at least 8 characters from A-Z a-z 0-9 _ . ~ - "
            "(leave --token out for a random one)"
        )
    return text


def policy_for(loopback: bool, token: str | None, allowed_origins: Iterable[str]) -> AccessPolicy:
    """The policy of a server: a random token when off loopback and none was given."""
    if token is None and not loopback:
        token = new_token()
    return AccessPolicy(loopback=loopback, token=token, allowed_origins=frozenset(allowed_origins))
