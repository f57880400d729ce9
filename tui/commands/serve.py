"""``queens serve``: serve the dashboard to browsers with textual-serve."""

from __future__ import annotations

import argparse
import shlex
import sys

from engine import Config
from tui.config_flags import add_config_flags, config_flags, config_from_args
from tui.exit_codes import EXIT_SOLVED


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``serve`` to the ``queens`` subcommands."""
    parser = commands.add_parser("serve", help="serve the dashboard to a browser (textual-serve)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to bind (default: 8000)")
    parser.add_argument("--ascii", action="store_true", help="draw queens as Q, not ♛")
    add_config_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens serve``."""
    return serve(config_from_args(args), args.host, args.port, args.ascii)


def serve(config: Config, host: str, port: int, ascii_board: bool) -> int:
    """Serve the dashboard to browsers with textual-serve."""
    from textual_serve.server import Server

    command = [sys.executable, "-m", "tui", "tui", *config_flags(config)]
    if ascii_board:
        command.append("--ascii")
    print(f"Serving the dashboard on http://{host}:{port} (Ctrl+C to stop)", file=sys.stderr)
    Server(shlex.join(command), host=host, port=port, title="Queens GA lab").serve()
    return EXIT_SOLVED
