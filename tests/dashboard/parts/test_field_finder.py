"""The form's field finder: names match whole, then by their start, then anywhere."""

from __future__ import annotations

from tui.dashboard.widgets.field_finder import matching_fields


def test_names_match_whole_then_by_their_start_then_anywhere() -> None:
    names = ["n", "encoding", "mutation", "mutation-rate", "crossover-rate", "seed"]
    assert matching_fields("mutation", names) == ["mutation", "mutation-rate"]
    assert matching_fields("MUT", names) == ["mutation", "mutation-rate"]
    assert matching_fields("rate", names) == ["mutation-rate", "crossover-rate"]
    assert matching_fields("crossover_rate", names) == ["crossover-rate"]
    assert matching_fields("n", names)[0] == "n"
    assert matching_fields("zzz", names) == matching_fields("", names) == []
