"""The showcase the dashboard opens on: asked for when no run flag is given, and a run that evolves
for a while, then solves."""

from __future__ import annotations

from engine import GeneticAlgorithm


def test_the_showcase_evolves_for_a_while_and_solves() -> None:
    from tui.dashboard.runs.showcase import SHOWCASE, SHOWCASE_SPEED

    generations = [
        GeneticAlgorithm(SHOWCASE.replace(seed=seed, generations=2000)).run() for seed in range(3)
    ]
    assert all(final.solved for final in generations)
    # Tens of seconds at the opening speed limit: something to watch, and an ending.
    assert all(final.generation / SHOWCASE_SPEED >= 10 for final in generations)


def test_queens_tui_without_run_flags_asks_for_the_showcase() -> None:
    from tui.cli.command_line import build_parser
    from tui.cli.config_flags import run_flags_given

    parse = build_parser().parse_args
    assert not run_flags_given(parse(["tui"]))
    assert not run_flags_given(parse(["tui", "--ascii"]))
    assert run_flags_given(parse(["tui", "--n", "8"]))
    assert run_flags_given(parse(["tui", "--preset", "sheppard"]))
