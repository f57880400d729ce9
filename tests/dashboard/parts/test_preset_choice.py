"""The preset list's choices: which presets fit the form's N, which N a choice brings, and which
preset a form names."""

from __future__ import annotations

from engine.config.presets import PRESETS
from tui.dashboard.runs.showcase import SHOWCASE
from tui.dashboard.widgets.preset_select import matching_preset, preset_choice, preset_options


def test_preset_choice_keeps_a_fitting_n_and_the_seed() -> None:
    choice = preset_choice("deap-nqueens", 12, seed=5)
    assert choice.note is None
    assert choice.config == PRESETS["deap-nqueens"].config(12, seed=5)


def test_preset_choice_brings_its_own_n_when_the_form_s_does_not_fit() -> None:
    choice = preset_choice("queens-ai", 10, seed=5)
    assert choice.config.n == 8
    assert choice.note is not None and "N = 8, 16, 32, 64" in choice.note
    assert "not N = 10" in choice.note


def test_preset_options_list_every_preset_or_those_that_fit() -> None:
    assert [name for _label, name in preset_options()] == list(PRESETS)
    fitting = [name for _label, name in preset_options(10)]
    assert "queens-ai" not in fitting and "codeproject-2011" not in fitting
    assert "default" in fitting


def test_a_preset_is_named_only_at_its_own_n() -> None:
    assert matching_preset(SHOWCASE) == "showcase"
    assert matching_preset(SHOWCASE.replace(seed=9)) == "showcase"
    # Every field of the showcase but N: not the showcase (28 queens).
    assert matching_preset(SHOWCASE.replace(n=12)) is None
    assert matching_preset(PRESETS["queens-ai"].config(16)) is None
    assert matching_preset(PRESETS["queens-ai"].config(8)) == "queens-ai"
