"""``--plot`` and ``--curves``: figures written in each format and read back, a bad value
refused before any run, the printed report without matplotlib, and the per-generation CSV."""

from __future__ import annotations

import csv
import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest

from tui.cli.command_line import main

SWEEP = ["sweep", "--grid", "crossover=ox,pmx", "--n", "8", "--seeds", "3"]
SWEEP += ["--max-evals", "2000", "--workers", "1"]


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every command here keeps its sweeps and runs in a fresh store of its own."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def check_svg(path: Path) -> None:
    root = ElementTree.parse(path).getroot()
    assert root.tag.endswith("svg")
    texts = [element for element in root.iter() if element.tag.endswith("}text")]
    assert texts == []  # glyphs as paths: no font needed to read it
    assert len([e for e in root.iter() if e.tag.endswith("}path")]) > 50


def check_pdf(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", data)) == 1
    assert b"/FontFile2" in data  # TrueType fonts embedded (pdf.fonttype 42)


def check_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 800 and height > 600


CHECKS = {"svg": check_svg, "pdf": check_pdf, "png": check_png}


@pytest.mark.slow  # a sweep, then matplotlib
def test_a_sweep_draws_its_figure_in_each_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*SWEEP, "--json", "--plot", str(tmp_path / "sweep.svg")]) == 0
    captured = capsys.readouterr()
    sweep_id = json.loads(captured.out)["sweep_id"]
    assert f"figure written to {tmp_path / 'sweep.svg'}" in captured.err
    check_svg(tmp_path / "sweep.svg")
    for form in ("pdf", "png"):
        target = tmp_path / f"shown.{form}"
        assert main(["sweep", "--show", str(sweep_id), "--plot", str(target)]) == 0
        CHECKS[form](target)
    assert not list(tmp_path.glob(".*partial"))  # nothing half-written left behind


@pytest.mark.slow  # runs, then matplotlib
def test_compare_and_show_run_draw_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["compare", "--preset", "default", "--n", "8", "--seeds", "2", "--jobs", "1"]
    assert main([*flags, "--plot", str(tmp_path / "compare.pdf")]) == 0
    check_pdf(tmp_path / "compare.pdf")
    assert main(["solve", "--n", "10", "--seed", "1", "--record"]) == 0
    capsys.readouterr()
    assert main(["show", "1", "--plot", str(tmp_path / "run.svg")]) == 0
    assert "run 1: N = 10" in capsys.readouterr().out
    check_svg(tmp_path / "run.svg")


@pytest.mark.parametrize(
    ("command", "value", "allowed"),
    [
        (SWEEP, "figure.gif", "a file ending in .svg, .pdf, .png"),
        (SWEEP, "no-such-folder/figure.svg", "the folder 'no-such-folder' is missing"),
        (SWEEP, "a-folder.svg", "not a folder"),
        (["compare", "--preset", "default", "--seeds", "2"], "figure.jpeg", ".svg, .pdf, .png"),
        (["show", "1"], "figure", "a file ending in .svg"),
    ],
)
def test_a_bad_plot_is_refused_before_any_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    store: Path,
    command: list[str],
    value: str,
    allowed: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-folder.svg").mkdir()
    code = main([*command, "--plot", value])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith(f"queens: error: --plot: {value!r} is not allowed; "), (
        captured.err
    )
    assert allowed in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert "runs on" not in captured.err and captured.out == ""
    assert not store.exists()  # not even the store was opened


def test_without_matplotlib_plot_is_refused_with_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises
    code = main([*SWEEP, "--plot", str(tmp_path / "figure.svg")])
    captured = capsys.readouterr()
    assert code == 2
    assert "figures need matplotlib" in captured.err
    assert "pip install 'queens-ga[stats]'" in captured.err
    assert main(SWEEP) == 0  # the printed report needs none of it
    assert "statistics, each row against the best" in capsys.readouterr().out


@pytest.mark.slow  # a Python process
def test_the_printed_report_imports_neither_matplotlib_nor_scipy(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from tui.cli.command_line import main\n"
        f"code = main({[*SWEEP, '--store', str(tmp_path / 'runs.sqlite3')]!r})\n"
        "print([name for name in ('matplotlib', 'scipy') if name in sys.modules])\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "statistics, each row against the best" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_curves_have_one_line_per_generation_of_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "curves.csv"
    assert main([*SWEEP, "--json", "--curves", str(target)]) == 0
    captured = capsys.readouterr()
    runs = json.loads(captured.out)["runs"]
    with target.open(newline="") as file:
        lines = list(csv.DictReader(file))
    assert list(lines[0]) == [
        "row", "seed", "generation", "evaluations", "best", "mean", "worst",
        "best_conflicts", "mean_conflicts", "diversity", "unique_fraction",
    ]  # fmt: skip
    per_run = Counter((line["row"], int(line["seed"])) for line in lines)
    expected = {(run["values"]["crossover"], run["seed"]): run["generations"] + 1 for run in runs}
    assert per_run == expected  # generation 0 to the last, every run
    assert sum(per_run.values()) == sum(run["generations"] + 1 for run in runs)
    assert f"{len(lines):,} generations written" in captured.err
    for run in runs:
        mine = [line for line in lines if line["row"] == run["values"]["crossover"]]
        mine = [line for line in mine if int(line["seed"]) == run["seed"]]
        assert [int(line["generation"]) for line in mine] == list(range(len(mine)))
        assert int(mine[-1]["evaluations"]) == run["evaluations"]
        assert (int(mine[-1]["best_conflicts"]) == 0) == run["solved"]
    # Run again: every run is kept, so there is nothing to write, and it says so.
    assert main([*SWEEP, "--curves", str(target)]) == 0
    assert "6 runs kept from before have no per-generation series" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["curves.txt", "missing/curves.csv"])
def test_a_bad_curves_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*SWEEP, "--curves", value]) == 2
    assert capsys.readouterr().err.startswith(f"queens: error: --curves: {value!r} is not allowed")


def test_a_kept_sweep_has_no_curves_to_write(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SWEEP, "--json"]) == 0
    sweep_id = json.loads(capsys.readouterr().out)["sweep_id"]
    assert main(["sweep", "--show", str(sweep_id), "--curves", "x.csv"]) == 2
    assert "a kept sweep has no per-generation series" in capsys.readouterr().err
