"""The lessons screen's plain logic: three steps a lesson, the runs' step held until they are
done, documents kept, and nothing moves while a lesson runs."""

from __future__ import annotations

from tui.lab.lessons.catalog import LESSONS
from tui.lab.lessons.slideshow import Slideshow


def test_a_lesson_steps_from_its_text_to_its_runs_to_its_rows() -> None:
    show = Slideshow()
    assert show.lesson.name == "takeover" and show.step_name == "text"
    assert "space: run it" in show.lines()[-1]
    assert not show.needs_runs()
    show.advance()
    assert show.step_name == "runs" and show.needs_runs()
    show.started(10)
    assert not show.needs_runs()
    show.advance()  # held: the runs are not done
    show.next_lesson()  # held too: a lesson is running
    assert show.step_name == "runs" and show.lesson.name == "takeover"
    show.ran(4, 10)
    assert "Running: 4 of 10 runs done..." in show.lines()
    rows = [{"label": "tournament 2", "measured": 12.7, "theory": 12.24}]
    show.finished("takeover", {"population": 1000, "seeds": 30, "rows": rows})
    assert show.step_name == "rows"
    text = "\n".join(show.lines())
    assert "Measured (P = 1,000, 30 seeds):" in text
    assert "tournament 2  12.7      12.24" in text
    show.advance()
    assert (show.lesson.name, show.step_name) == ("drift", "text")


def test_lessons_go_round_both_ways_and_keep_their_documents() -> None:
    show = Slideshow()
    show.previous_lesson()
    assert show.lesson.name == list(LESSONS)[-1]
    show.next_lesson()
    assert show.lesson.name == "takeover"
    show.finished("takeover", {"population": 10, "seeds": 2, "rows": []})
    show.advance()
    assert show.step_name == "runs" and not show.needs_runs()
    show.advance()
    assert show.step_name == "rows"


def test_a_verdict_is_a_line_of_its_own() -> None:
    show = Slideshow(lesson_index=list(LESSONS).index("headless-chicken"), step=2)
    rows = [
        {"label": "crossover", "measured": 1.0, "low": 0.88, "high": 1.0},
        {"label": "verdict", "text": "Crossover acts as a macromutation here."},
    ]
    show.documents["headless-chicken"] = {"population": 100, "seeds": 30, "rows": rows}
    lines = show.lines()
    assert "Crossover acts as a macromutation here." in lines
    assert lines[lines.index("Crossover acts as a macromutation here.") - 1] == ""


def test_the_live_population_is_said_beside_the_landscape_s_rows() -> None:
    show = Slideshow(lesson_index=list(LESSONS).index("landscape"), step=2)
    show.documents["landscape"] = {"population": None, "seeds": None, "rows": []}
    assert show.wants_placing()
    show.placed = {}  # being placed: nothing said yet
    assert not any("live run" in line for line in show.lines())
    show.placed = {"n": 8, "size": 40, "solved": 0.05, "weak_minima": 0.25, "fdc_swap": 0.41}
    assert (
        "The live run's 40 boards (N = 8): 5% solved, 25% in weak minima, FDC with swaps 0.41."
        in (show.lines())
    )
    show.next_lesson()
    show.previous_lesson()
    assert show.placed is None


def test_the_landscape_offers_n_10_shows_its_walk_and_adds_its_row() -> None:
    show = Slideshow(lesson_index=list(LESSONS).index("landscape"), step=2)
    show.documents["landscape"] = {"population": None, "seeds": None, "rows": [{"n": 9}]}
    assert show.can_walk()
    assert any(line.startswith("t: N = 10 too") for line in show.lines())
    show.walk_started()
    assert not show.can_walk()
    show.walked(1_000_000, 10_886_400)
    assert any("N = 10: 9% of 10,886,400 boards walked" in line for line in show.lines())
    show.walk_finished({"n": 10, "label": "n=10"})
    assert show.walking is None
    assert [row["n"] for row in show.documents["landscape"]["rows"]] == [9, 10]
    assert not show.can_walk()  # walked once: its row is kept
    show.next_lesson()
    assert not show.can_walk()
