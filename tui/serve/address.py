"""The address ``queens serve`` binds: checked, resolved and classified before anything starts.

A bad ``--port`` or ``--host`` must be a usage error naming the flag, never a traceback from
deep inside aiohttp; and whether every resolved address is loopback decides whether the server
needs a token (see :mod:`tui.serve.access`).
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
from dataclasses import dataclass
from typing import Final

HIGHEST_PORT: Final = 65535


class BindError(ValueError):
    """The server cannot bind the address it was given (message names the flag and value)."""


def port_number(text: str) -> int:
    """Argparse type of ``--port``: an integer from 0 (any free port) to 65535.

    Raises:
        argparse.ArgumentTypeError: Naming the value and what is allowed.
    """
    try:
        port = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a port number (allowed: 1-{HIGHEST_PORT}, or 0 for any free port)"
        ) from None
    if not 0 <= port <= HIGHEST_PORT:
        raise argparse.ArgumentTypeError(
            f"{port} is out of range (allowed: 1-{HIGHEST_PORT}, or 0 for any free port)"
        )
    return port


@dataclass(frozen=True)
class BindAddress:
    """A host the server can bind, with every address it resolves to."""

    host: str
    """The host as the user gave it."""
    addresses: tuple[str, ...]
    """Every IP address ``host`` resolves to (one socket is bound per address)."""

    @property
    def loopback(self) -> bool:
        """Whether only this machine can reach the server (every address is loopback)."""
        return all(ipaddress.ip_address(address).is_loopback for address in self.addresses)

    @property
    def wildcard(self) -> bool:
        """Whether the host means every interface (``0.0.0.0``, ``::`` or empty)."""
        return any(ipaddress.ip_address(address).is_unspecified for address in self.addresses)


def resolve_bind_address(host: str) -> BindAddress:
    """Resolve ``--host`` to the addresses the server would bind.

    Raises:
        BindError: When the name does not resolve, naming ``--host`` and the value.
    """
    if not host.strip():
        raise BindError(f"--host {host!r}: give a host name or address (e.g. 127.0.0.1)")
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise BindError(
            f"--host {host!r}: cannot be resolved ({error}); give a name of this machine or "
            "an address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
        ) from None
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = str(sockaddr[0]).split("%", 1)[0]  # drop an IPv6 zone (fe80::1%eth0)
        if address not in addresses:
            addresses.append(address)
    return BindAddress(host=host, addresses=tuple(addresses))
