"""The headless command line: JSON document, exit codes, errors for people."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Config, ConfigError, GeneticAlgorithm, Snapshot, queens_of
from engine.config.config import fitting_operators
from engine.genomes.encodings import ENCODINGS
from tests.cli.test_printed_results import small_snapshot
from tui.cli.command_line import config_flags, main


def run_json(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict[str, object]]:
    code = main(["solve", "--json", *flags])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_solve_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(capsys, "--n", "12", "--seed", "5")
    assert code == 0
    for key in (
        "solved",
        "n",
        "seed",
        "generations",
        "evaluations",
        "elapsed_s",
        "conflicts",
        "queens",
        "genome",
        "stop_reason",
        "config",
    ):
        assert key in document
    assert document["solved"] is True
    assert document["n"] == 12
    assert document["seed"] == 5
    assert document["stop_reason"] == "solved"
    assert document["conflicts"] == 0
    queens = document["queens"]
    assert isinstance(queens, list)
    assert queens == [list(p) for p in queens_of(document["genome"], ENCODINGS["permutation"], 12)]
    # A solution: all rows, columns and both diagonals distinct.
    rows = [r for r, _ in queens]
    columns = [c for _, c in queens]
    assert len(set(rows)) == len(set(columns)) == 12
    assert len({r - c for r, c in queens}) == len({r + c for r, c in queens}) == 12


def test_solve_json_matches_the_engine_run(capsys: pytest.CaptureFixture[str]) -> None:
    _, document = run_json(capsys, "--n", "16", "--seed", "9", "--population", "30")
    expected = GeneticAlgorithm(Config(n=16, seed=9, population=30)).run()
    assert document["genome"] == [int(g) for g in expected.best]
    assert document["generations"] == expected.generation
    assert document["evaluations"] == expected.evaluations


def test_random_seed_is_recorded_and_replays(capsys: pytest.CaptureFixture[str]) -> None:
    _, first = run_json(capsys, "--n", "10")
    assert isinstance(first["seed"], int)
    _, again = run_json(capsys, "--n", "10", "--seed", str(first["seed"]))
    assert again["genome"] == first["genome"]
    assert first["config"]["seed"] == first["seed"]  # type: ignore[index]


def test_unsolved_within_budget_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(
        capsys,
        "--n",
        "8",
        "--seed",
        "1",
        "--generations",
        "1",
        "--encoding",
        "integer",
        "--crossover",
        "single-point",
        "--mutation",
        "random-reset",
        "--mutation-rate",
        "0",
    )
    assert code == 1
    assert document["solved"] is False
    assert document["stop_reason"] == "max-generations"


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--n", "3"], "n"),
        (["--n", "0"], "n"),
        (["--n", "eight"], "n"),
        (["--population", "1"], "population"),
        (["--crossover-rate", "1.5"], "crossover-rate"),
        (["--encoding", "bits"], "encoding"),
        (["--encoding", "integer", "--crossover", "ox"], "crossover"),
        (["--encoding", "integer", "--fitness", "collisions"], "fitness"),
        (["--preset", "sheppard", "--crossover", "ox"], "crossover"),
        (["--preset", "deap-nqueens", "--tournament-size", "301"], "tournament-size"),
        (["--preset", "codeproject-2011", "--n", "10"], "n"),
        (["--preset", "nope"], "preset"),
        (["--tournament-size", "99", "--population", "10"], "tournament-size"),
        (["--elitism", "10", "--population", "10", "--survivor", "generational"], "elitism"),
    ],
)
def test_config_errors_exit_2_and_name_the_field(
    capsys: pytest.CaptureFixture[str], flags: list[str], field: str
) -> None:
    assert main(["solve", *flags]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: --{field}: ")
    assert "not allowed" in captured.err


def test_unknown_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--queens", "8"])
    assert stop.value.code == 2


def test_config_flags_round_trip() -> None:
    config = Config(n=12, population=50, unique=True, survivor="plus", seed=4, time_limit=2.5)
    from tui.cli.command_line import build_parser, config_from_args

    args = build_parser().parse_args(["solve", *config_flags(config)])
    assert config_from_args(args) == config


@pytest.mark.slow  # processes
def test_the_console_script_ends_without_python_s_shutdown_and_loses_nothing(
    tmp_path: Path,
) -> None:
    """solve, presets and solutions end the process at once when done (tui.cli.entry): everything
    printed still arrives, the exit code is the command's, and a recorded run is closed."""

    def queens(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui", *words], capture_output=True, text=True, check=False
        )

    everything = queens("solutions", "--by-ga", "--n", "8", "--seed", "1")
    assert everything.returncode == 0
    boards = [line for line in everything.stdout.splitlines() if len(line.split()) == 8]
    assert len(boards) == 92  # the last lines were still in Python's buffer at the end
    unsolved = queens("solve", "--n", "30", "--generations", "1", "--seed", "1")
    assert unsolved.returncode == 1 and unsolved.stdout.startswith("N = 30: not solved")
    store = str(tmp_path / "runs.sqlite3")
    recorded = queens("solve", "--n", "8", "--seed", "1", "--record", "--store", store)
    assert recorded.returncode == 0
    from tui.lab.store import RunStore

    with RunStore.open(store) as runs:
        assert runs.run(1).status == "finished"


def test_console_script_exit_codes_and_interrupt() -> None:
    """The installed entry point, as a script would run it (``python -m tui``)."""
    solved = subprocess.run(
        [sys.executable, "-m", "tui", "solve", "--n", "8", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert solved.returncode == 0
    assert json.loads(solved.stdout)["solved"] is True
    assert solved.stderr == ""  # progress only when stderr is a terminal

    # A run that never stops on its own, interrupted like Ctrl+C.
    endless = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui",
            "solve",
            "--n",
            "8",
            "--encoding",
            "integer",
            "--crossover",
            "single-point",
            "--mutation",
            "random-reset",
            "--mutation-rate",
            "0",
            "--no-stop-when-solved",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    endless.send_signal(signal.SIGINT)
    _, err = endless.communicate(timeout=20)
    assert endless.returncode == 130
    assert "interrupted" in err


@pytest.mark.parametrize(
    ("flags", "field", "value"),
    [
        (["--preset", "sheppard", "--crossover", "one-gene"], "crossover", "one-gene"),
        (["--preset", "sheppard", "--mutation", "reset-one"], "mutation", "reset-one"),
        (
            ["--preset", "towardsai-5queens", "--crossover", "single-point"],
            "crossover",
            "single-point",
        ),
        (["--preset", "deap-nqueens", "--tournament-size", "50"], "tournament_size", 50),
    ],
)
def test_flags_are_checked_against_the_preset_they_modify(
    flags: list[str], field: str, value: object
) -> None:
    """These fit the preset (not the default config, which the flags used to be checked against)."""
    from tui.cli.command_line import build_parser, config_from_args

    config = config_from_args(build_parser().parse_args(["solve", *flags]))
    assert getattr(config, field) == value
    preset = flags[1]
    from engine.config.presets import PRESETS

    assert config == PRESETS[preset].config(**{field: value})


def test_flags_can_bring_a_preset_within_the_machine() -> None:
    """Sheppard's pool is 3 N^2: at N = 1000 its own population and offspring are far too big,
    and the flags that lower them are applied before the config is judged."""
    from tui.cli.command_line import build_parser, config_from_args

    def parsed(*flags: str) -> Config:
        return config_from_args(build_parser().parse_args(["solve", *flags]))

    config = parsed(
        "--preset", "sheppard", "--n", "1000", "--population", "100", "--offspring", "100"
    )
    assert (config.population, config.offspring, config.encoding) == (100, 100, "squares")
    # Lowering only the population leaves the preset's offspring at fault, and it is named so.
    with pytest.raises(ConfigError) as refused:
        parsed("--preset", "sheppard", "--n", "1000", "--population", "100")
    assert refused.value.field == "offspring"
    assert refused.value.value == 3_000_000
    assert "the sheppard preset's own value at N = 1000" in str(refused.value)
    # A flag's own bad value is the flag's fault, not the preset's.
    with pytest.raises(ConfigError) as refused:
        parsed("--preset", "sheppard", "--n", "8", "--population", "0")
    assert refused.value.field == "population" and "preset" not in str(refused.value)


def test_a_preset_flag_runs_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(
        capsys, "--preset", "towardsai-5queens", "--crossover", "single-point", "--seed", "3"
    )
    assert code == 0
    assert document["solved"] is True
    assert document["config"]["encoding"] == "integer"  # type: ignore[index]
    assert document["config"]["population"] == 4  # type: ignore[index]


@pytest.mark.parametrize("encoding", ["integer", "squares", "permutation"])
def test_choosing_an_encoding_picks_operators_that_fit_it(
    capsys: pytest.CaptureFixture[str], encoding: str
) -> None:
    code, document = run_json(capsys, "--n", "8", "--encoding", encoding, "--seed", "1")
    assert code == 0
    assert document["solved"] is True
    config = document["config"]
    assert isinstance(config, dict)

    for name, operator in fitting_operators(encoding).items():
        assert config[name] == operator


def test_an_encoding_keeps_the_operators_that_fit_and_the_ones_named() -> None:
    from tui.cli.command_line import build_parser, config_from_args

    def parsed(*flags: str) -> Config:
        return config_from_args(build_parser().parse_args(["solve", *flags]))

    # codeproject-2011: order-uniform and collisions need permutations; swap-gene does not.
    config = parsed("--preset", "codeproject-2011", "--encoding", "integer")
    assert (config.crossover, config.fitness, config.mutation) == (
        "single-point",
        "pairs",
        "swap-gene",
    )
    assert config.selection == "roulette" and config.population == 100
    # Named operators are kept as given.
    config = parsed("--encoding", "squares", "--mutation", "random-reset", "--fitness", "attacked")
    assert (config.mutation, config.fitness) == ("random-reset", "attacked")
    # The preset's own encoding, named again, changes nothing.
    assert parsed("--preset", "sheppard", "--encoding", "squares") == parsed("--preset", "sheppard")


def test_interrupted_before_the_first_population_still_documents_the_seed() -> None:
    from tui.cli.result_printing import result_document

    config = Config(n=5000, population=10, seed=42)
    document = result_document(None, config)
    assert document["stop_reason"] == "interrupted"
    assert document["solved"] is False
    assert document["seed"] == 42 and document["generations"] == 0
    assert document["genome"] is None
    assert Config.from_mapping(document["config"]) == config
    json.dumps(document)


class _SlowGenerations:
    """A stand-in for a run whose generations each take far longer than its time limit."""

    def __init__(self, limit: float, generation_seconds: float) -> None:
        self.config = Config(time_limit=limit)
        self.snapshot = small_snapshot(8)
        self.generation_seconds = generation_seconds
        self.steps_started = 0

    def has_next(self) -> bool:
        return self.steps_started < 2

    def step(self) -> Snapshot:
        self.steps_started += 1
        time.sleep(self.generation_seconds)
        return self.snapshot


def test_a_generation_running_past_the_time_limit_is_abandoned(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui.cli.headless_run import run_to_stop

    algorithm = _SlowGenerations(limit=0.2, generation_seconds=30.0)
    result = run_to_stop(algorithm)  # type: ignore[arg-type]
    assert algorithm.steps_started == 1
    assert result.stop_reason == "time-limit"
    assert result.generation == algorithm.snapshot.generation
    assert "time limit passed during generation 1" in capsys.readouterr().err
    # The timer is gone: nothing fires later.
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_first_population_longer_than_the_time_limit_is_announced(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui.cli.headless_run import first_population_seconds, warn_when_first_population_overruns

    assert first_population_seconds(Config(n=8, time_limit=1.0)) is None  # nothing sampled
    assert first_population_seconds(Config(n=20_000, population=200)) is None  # no limit
    # 4 million genes cannot be made and evaluated in 0.1 ms on any machine.
    config = Config(n=20_000, population=200, time_limit=0.0001)
    estimate = first_population_seconds(config)
    assert estimate is not None and estimate > 0.0001
    warn_when_first_population_overruns(config)
    err = capsys.readouterr().err
    assert err.startswith("queens: note: the first population (200 x 20,000 genes) is estimated")
    assert "more than --time-limit 0.0001" in err


def test_version_prints_the_package_version() -> None:
    """Through the console script's entry point, as a user types it."""
    shown = subprocess.run(
        [sys.executable, "-m", "tui", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0
    from importlib.metadata import version

    assert shown.stdout == f"queens {version('queens-ga')}\n"
    assert shown.stderr == ""


def test_presets_are_listed_in_aligned_columns(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli.command_line import main

    assert main(["presets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    summaries = [line.index(line.split()[2]) for line in lines]
    assert len(lines) >= 7 and len(set(summaries)) == 1, lines
    assert any("N=10,000" in line for line in lines)


@pytest.mark.parametrize(
    ("argv", "usage", "hint"),
    [
        (["solve", "-n", "16"], "usage: queens solve ", "(did you mean --n?)"),
        (["solve", "--n", "8", "extra"], "usage: queens solve ", ""),
        (["runs", "-j"], "usage: queens runs ", ""),
        (["sweep", "-seeds", "3"], "usage: queens sweep ", "(did you mean --seeds?)"),
    ],
)
def test_an_unknown_flag_gets_its_command_s_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], usage: str, hint: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"queens {argv[0]}: error: unrecognized arguments: ")
    assert last.endswith(hint)
