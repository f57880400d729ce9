"""The ``queens`` command: the dashboard, and a headless solver for scripts and benchmarks.

``queens`` alone opens the dashboard. ``queens solve`` runs the engine without a UI and prints
the result (``--json`` for one JSON document on stdout); progress goes to stderr, only when
stderr is a terminal. Exit codes: 0 solved, 1 not solved within the budget, 2 usage or config
error, 130 interrupted (141 when the reader of stdout goes away early).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Final

from engine import FIELDS, Config, ConfigError, GeneticAlgorithm, Snapshot
from engine.presets import PRESETS, preset_named
from engine.solutions import KNOWN_TOTALS

EXIT_SOLVED: Final = 0
EXIT_UNSOLVED: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130
EXIT_BROKEN_PIPE: Final = 141
"""The reader of stdout went away (``queens solve | head``): stop quietly, as ``cat`` does."""

PROGRESS_INTERVAL: Final = 0.1
"""Seconds between two progress lines on stderr."""

BOARD_PRINT_LIMIT: Final = 40
"""Boards up to this N are drawn in the human summary."""


def _version() -> str:
    try:
        return version("queens-ga")
    except PackageNotFoundError:
        return "unknown"


def flag_of(field_name: str) -> str:
    """The command-line flag of a config field: ``max_evals`` -> ``--max-evals``."""
    return "--" + field_name.replace("_", "-")


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    """``--preset`` and one flag per config field, with the field's help and choices."""
    group = parser.add_argument_group("run configuration (defaults: the team's best GA)")
    group.add_argument(
        "--preset",
        metavar="NAME",
        default=None,
        help=f"start from a published GA (flags given override it) [{', '.join(PRESETS)}]",
    )
    for name, field in FIELDS.items():
        help_text = field.metadata["help"]
        choices = field.metadata["choices"]
        if choices:
            help_text += f" [{', '.join(choices)}]"
        if isinstance(field.default, bool):
            group.add_argument(
                flag_of(name),
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"{help_text} (default: {field.default})",
            )
            continue
        # Values are parsed by the config itself, so every error reads the same way.
        group.add_argument(
            flag_of(name),
            dest=name,
            metavar=name.upper() if not choices else "NAME",
            default=None,
            help=f"{help_text} (default: {field.default})",
        )


def config_from_args(args: argparse.Namespace) -> Config:
    """The config the flags describe (defaults for the flags not given).

    Raises:
        ConfigError: On a bad value, naming the flag, the value and what is allowed.
    """
    given = {name: getattr(args, name) for name in FIELDS if getattr(args, name) is not None}
    if getattr(args, "preset", None) is None:
        return Config.from_mapping(given)
    preset = preset_named(args.preset)
    size = Config.from_mapping({"n": given.pop("n")}).n if "n" in given else None
    overrides = Config.from_mapping(given).to_dict() if given else {}
    return preset.config(size, **{name: overrides[name] for name in given})


def config_flags(config: Config) -> list[str]:
    """Flags that rebuild ``config`` on the command line (only the fields off their default)."""
    flags: list[str] = []
    for name, field in FIELDS.items():
        value = getattr(config, name)
        if value == field.default:
            continue
        if isinstance(value, bool):
            flags.append(flag_of(name) if value else "--no-" + name.replace("_", "-"))
        else:
            flags += [flag_of(name), str(value)]
    return flags


def build_parser() -> argparse.ArgumentParser:
    """The ``queens`` argument parser and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="queens",
        description="Watch, steer and compare genetic algorithms on the N-Queens puzzle. "
        "With no command, opens the dashboard.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    solve = commands.add_parser(
        "solve",
        help="run the GA headless and print the result",
        description="Run the GA without a UI and print the result (--json: one JSON document "
        "on stdout). Progress goes to stderr, only when stderr is a terminal. Exit codes: 0 "
        "solved, 1 not solved within the budget, 2 usage or config error, 130 interrupted, "
        "141 when the reader of stdout goes away early.",
    )
    solve.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_config_flags(solve)

    dashboard = commands.add_parser("tui", help="open the dashboard with the form prefilled")
    dashboard.add_argument("--ascii", action="store_true", help="draw queens as Q, not ♛")
    add_config_flags(dashboard)

    commands.add_parser("presets", help="list the presets: the published GAs, reproduced")

    solutions = commands.add_parser(
        "solutions",
        help="find every solution for N (harvest mode) and print them",
        description="Run the GA in find-all mode: record each solution (and its rotations and "
        "reflections), replace it by a newcomer, stop when the known total is reached or the "
        "budget ends.",
    )
    solutions.add_argument("--json", action="store_true", help="print one JSON document")
    add_config_flags(solutions)

    compare = commands.add_parser(
        "compare",
        help="run presets over the same seeds in parallel and compare them",
    )
    compare.add_argument(
        "--preset",
        dest="presets",
        action="append",
        default=[],
        metavar="NAME",
        help=f"a preset to compare (repeat) [{', '.join(PRESETS)}]",
    )
    compare.add_argument("--n", default=None, help="board size (default: each preset's own)")
    compare.add_argument("--seeds", default="20", help="runs per preset, seeds 0.. (default 20)")
    compare.add_argument(
        "--time-limit", default=None, help="seconds allowed per run (default: the preset's)"
    )
    compare.add_argument("--jobs", default=None, help="worker processes (default: CPU count)")
    output = compare.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON document")
    output.add_argument("--csv", action="store_true", help="print one CSV row per run")

    serve = commands.add_parser("serve", help="serve the dashboard to a browser (textual-serve)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to bind (default: 8000)")
    serve.add_argument("--ascii", action="store_true", help="draw queens as Q, not ♛")
    add_config_flags(serve)
    return parser


def result_document(snapshot: Snapshot, config: Config) -> dict[str, Any]:
    """The JSON document ``queens solve --json`` prints."""
    return {
        "solved": snapshot.solved,
        "n": snapshot.n,
        "seed": snapshot.seed,
        "generations": snapshot.generation,
        "evaluations": snapshot.evaluations,
        "elapsed_s": round(snapshot.elapsed, 6),
        "conflicts": snapshot.best_conflicts,
        "fitness": float(snapshot.fitness[snapshot.best_index]),
        "max_fitness": snapshot.max_fitness,
        "queens": [list(pair) for pair in snapshot.queens()],
        "genome": [int(gene) for gene in snapshot.best],
        "stop_reason": snapshot.stop_reason,
        "config": config.to_dict(),
    }


def board_text(snapshot: Snapshot) -> str:
    """The best individual as a plain board: ``Q`` queens, ``.`` squares."""
    n = snapshot.n
    cells = [["."] * n for _ in range(n)]
    for row, column in snapshot.queens():
        cells[row][column] = "Q"
    return "\n".join(" ".join(line) for line in cells)


class Progress:
    """A one-line live status on stderr (Rich), shown only when stderr is a terminal."""

    def __init__(self) -> None:
        from rich.console import Console

        self._console = Console(stderr=True)
        self._status = self._console.status("starting")
        self._last = 0.0

    def __enter__(self) -> Progress:
        self._status.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._status.stop()

    def update(self, snapshot: Snapshot) -> None:
        now = time.monotonic()
        if now - self._last < PROGRESS_INTERVAL:
            return
        self._last = now
        rate = snapshot.generation / snapshot.elapsed if snapshot.elapsed > 0 else 0.0
        self._status.update(
            f"Gen {snapshot.generation:,}  evals {snapshot.evaluations:,}  "
            f"conflicts {snapshot.best_conflicts}  mean {snapshot.stats.mean_conflicts:.1f}  "
            f"{rate:,.0f} gen/s"
        )


def run_to_stop(algorithm: GeneticAlgorithm) -> Snapshot:
    """Step to a stop rule, with live progress on stderr when it is a terminal."""
    if sys.stderr.isatty():
        with Progress() as progress:
            while algorithm.has_next():
                progress.update(algorithm.step())
    return algorithm.run()


def solve(config: Config, as_json: bool) -> int:
    """Run to a stop rule; print the result. Returns the exit code."""
    algorithm = GeneticAlgorithm(config)
    final = run_to_stop(algorithm)
    if as_json:
        print(json.dumps(result_document(final, algorithm.config)))
    else:
        verdict = "solved" if final.solved else f"not solved ({final.best_conflicts} conflicts)"
        print(
            f"N = {final.n}: {verdict} after {final.generation:,} generations, "
            f"{final.evaluations:,} evaluations, {final.elapsed:.3f} s "
            f"(stop: {final.stop_reason}, seed {final.seed})"
        )
        if final.n <= BOARD_PRINT_LIMIT:
            print(board_text(final))
        print("genome:", " ".join(str(int(gene)) for gene in final.best))
    return EXIT_SOLVED if final.solved else EXIT_UNSOLVED


def list_presets() -> int:
    """Print the presets, one line each."""
    width = max(len(name) for name in PRESETS)
    for name, preset in PRESETS.items():
        print(f"{name:<{width}}  N={preset.native_n:<3} {preset.summary}")
    return EXIT_SOLVED


def find_solutions(config: Config, as_json: bool) -> int:
    """Find-all mode: exit 0 when every known solution was found, 1 when the budget ended."""
    config = config.replace(harvest=True, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    final = run_to_stop(algorithm)
    boards = final.solutions
    known = final.stop_reason == "all-found"
    if as_json:
        document = {
            "n": final.n,
            "seed": final.seed,
            "found": int(boards.shape[0]),
            "fundamental_found": final.fundamental_solutions,
            "known_total": KNOWN_TOTALS.get(final.n, (None, None))[0],
            "known_fundamental": KNOWN_TOTALS.get(final.n, (None, None))[1],
            "all_found": known,
            "generations": final.generation,
            "evaluations": final.evaluations,
            "elapsed_s": round(final.elapsed, 6),
            "stop_reason": final.stop_reason,
            "solutions": boards.tolist(),
            "config": algorithm.config.to_dict(),
        }
        print(json.dumps(document))
    else:
        print(
            f"N = {final.n}: {final.solutions_text} in {final.generation:,} generations, "
            f"{final.evaluations:,} evaluations, {final.elapsed:.2f} s "
            f"(stop: {final.stop_reason}, seed {final.seed})"
        )
        for board in boards:
            print(" ".join(str(int(row)) for row in board))
    return EXIT_SOLVED if known else EXIT_UNSOLVED


def serve(config: Config, host: str, port: int, ascii_board: bool) -> int:
    """Serve the dashboard to browsers with textual-serve."""
    from textual_serve.server import Server

    command = [sys.executable, "-m", "tui", "tui", *config_flags(config)]
    if ascii_board:
        command.append("--ascii")
    print(f"Serving the dashboard on http://{host}:{port} (Ctrl+C to stop)", file=sys.stderr)
    Server(shlex.join(command), host=host, port=port, title="Queens GA lab").serve()
    return EXIT_SOLVED


def dashboard(config: Config | None, ascii_board: bool) -> int:
    """Open the dashboard."""
    from tui.app import QueensApp

    QueensApp(config=config, ascii=ascii_board).run()
    return EXIT_SOLVED


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``queens`` command. Returns (and exits with) the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            return dashboard(None, ascii_board=False)
        if args.command == "presets":
            return list_presets()
        if args.command == "compare":
            from tui.compare import compare_command

            return compare_command(args)
        config = config_from_args(args)
        if args.command == "solutions":
            return find_solutions(config, args.json)
        if args.command == "solve":
            return solve(config, args.json)
        if args.command == "tui":
            return dashboard(config, args.ascii)
        return serve(config, args.host, args.port, args.ascii)
    except ConfigError as error:
        print(f"queens: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("queens: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Python would complain again when flushing stdout at exit: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
