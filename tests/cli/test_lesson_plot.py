"""``queens lesson NAME --plot FILE``: the rows drawn, measured beside theory, in the format the
file's suffix names; a bad target refused before any run."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tui.cli.command_line import main
from tui.lab.figures.lesson_figure import draw_lesson_figure

pytest.importorskip("matplotlib")

DRIFT = ["lesson", "drift", "--seeds", "2", "--population", "20", "--workers", "1"]


def test_a_lessons_figure_is_written_whole_as_svg_and_pdf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg, pdf = tmp_path / "drift.svg", tmp_path / "drift.pdf"
    assert main([*DRIFT, "--plot", str(svg)]) == 0
    assert f"figure written to {svg}" in capsys.readouterr().err
    ElementTree.parse(svg)  # whole: it parses
    assert main([*DRIFT, "--plot", str(pdf)]) == 0
    pages = re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())
    assert len(pages) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["drift.pdf", "drift.svg"]


@pytest.mark.parametrize(
    ("target", "said"),
    [("figure.gif", "a file ending in .svg, .pdf, .png"), ("missing/f.svg", "is missing")],
)
def test_a_bad_plot_target_is_refused_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, said: str
) -> None:
    code = main([*DRIFT, "--plot", str(tmp_path / target)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("queens: error: --plot: ") and said in err
    assert "runs on" not in err  # refused before the lesson's runs started
    assert list(tmp_path.iterdir()) == []


def test_the_landscape_draws_its_shares_by_n_and_a_row_without_numbers_is_refused(
    tmp_path: Path,
) -> None:
    rows = [
        {"label": f"n={n}", "n": n, "descent_solved": share, "fdc_hamming": 0.3, "fdc_swap": 0.4}
        for n, share in ((4, 0.2), (5, 0.5), (6, 0.1))
    ]
    figure = tmp_path / "landscape.svg"
    draw_lesson_figure(figure, {"lesson": "landscape", "rows": rows}, "landscape")
    ElementTree.parse(figure)
    with pytest.raises(ValueError, match="no numbers to draw"):
        draw_lesson_figure(
            tmp_path / "none.svg", {"lesson": "takeover", "rows": [{"label": "x"}]}, "x"
        )
    assert not (tmp_path / "none.svg").exists()
