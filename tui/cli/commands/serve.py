"""``queens serve``: the dashboard in a browser, one process per tab (textual-serve).

Safe by default: it listens on 127.0.0.1, accepts websockets only from its own page, and runs
at most ``--max-sessions`` dashboards. Listening anywhere else (``--host 0.0.0.0``) needs a
token in the URL, printed at start, and prints a warning.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from engine import restrict_plugins
from tui.cli.config_flags import add_config_flags, config_from_args
from tui.cli.exit_codes import EXIT_USAGE
from tui.lab.rerun_line import config_flags
from tui.serve.access import origin_argument, token_argument
from tui.serve.address import port_number

DEFAULT_MAX_SESSIONS: Final = 4
"""Each tab runs its own dashboard and GA: a handful keeps a small machine responsive."""

MOST_SESSIONS: Final = 256


def plugin_directory(text: str) -> str:
    """Argparse type of ``--allow-plugins``: an existing directory, as its resolved path."""
    path = Path(text).expanduser().resolve()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a directory")
    return str(path)


def session_count(text: str) -> int:
    """Argparse type of ``--max-sessions``: an integer from 1 to :data:`MOST_SESSIONS`."""
    try:
        count = int(text, 10)
    except ValueError:
        count = 0
    if not 1 <= count <= MOST_SESSIONS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a session count (allowed: 1-{MOST_SESSIONS})"
        )
    return count


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``serve`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "serve",
        help="serve the dashboard to a browser (textual-serve)",
        description="Serve the dashboard to web browsers: each tab runs its own dashboard. "
        "Listens on this machine only unless --host says otherwise; then a token is required.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0: every "
        "interface, which requires the printed token and is reachable from other machines)",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=8000,
        help="port to listen on, 1-65535, or 0 for any free port (default: 8000)",
    )
    parser.add_argument(
        "--max-sessions",
        type=session_count,
        default=DEFAULT_MAX_SESSIONS,
        metavar="COUNT",
        help=f"most browser tabs served at once (default: {DEFAULT_MAX_SESSIONS})",
    )
    parser.add_argument(
        "--token",
        type=token_argument,
        default=None,
        help="require this token in the URL, even on 127.0.0.1 (default: a random token when "
        "not on loopback, none on loopback)",
    )
    parser.add_argument(
        "--allow-origin",
        type=origin_argument,
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept websockets from this origin, e.g. a reverse proxy's "
        "https://lab.example.org (repeatable)",
    )
    parser.add_argument(
        "--ascii", action="store_true", help="draw ASCII only (browsers draw Unicode well)"
    )
    parser.add_argument(
        "--allow-plugins",
        type=plugin_directory,
        default=None,
        metavar="DIR",
        help="let the dashboards load plug-in operators (file.py:function) from files inside "
        "DIR, symbolic links resolved (default: none at all: a browser never makes the "
        "server run code)",
    )
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens serve``: check everything, then serve until Ctrl+C or SIGTERM.

    Returns:
        2 for a bad flag or an address that cannot be bound; else 128 + the stopping signal.
    """
    from tui.serve.access import policy_for
    from tui.serve.address import BindError, resolve_bind_address

    # First: the server's own flags, and every dashboard it starts (which inherits the
    # environment), load plug-ins only from the directory allowed, if any.
    restrict_plugins(args.allow_plugins)
    config = config_from_args(args)
    try:
        bind = resolve_bind_address(args.host)
    except BindError as error:
        print(f"queens serve: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    policy = policy_for(bind.loopback, args.token, args.allow_origin)
    command = [sys.executable, "-m", "tui", "tui", *config_flags(config)]
    if args.stagnation is not None and config.stagnation is None:
        command += ["--stagnation", "none"]  # no stop rule asked: not the dashboard's either
    # A browser draws Unicode whatever the server's locale is.
    command.append("--ascii" if args.ascii else "--unicode")

    from tui.serve.server import DashboardServer

    server = DashboardServer(
        command, bind=bind, port=args.port, policy=policy, max_sessions=args.max_sessions
    )
    try:
        stopped_by = server.serve()
    except BindError as error:
        print(f"queens serve: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    # Like every queens command stopped by a signal: 130 after Ctrl+C, 143 after SIGTERM.
    print("queens serve: stopped", file=sys.stderr)
    return 128 + stopped_by
