"""The population table's ordered window: the rows in view of a ranking, against a full lexsort."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tui.dashboard.pictures.population_order import ordered_window


@settings(max_examples=200, deadline=None)
@given(
    primary=st.lists(st.integers(0, 6), min_size=1, max_size=9000),
    data=st.data(),
)
def test_ordered_window_is_the_window_of_a_full_lexsort(
    primary: list[int], data: st.DataObject
) -> None:
    size = len(primary)
    secondary = data.draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
    start = data.draw(st.integers(0, size))
    stop = data.draw(st.integers(start, size + 5))
    keys = [np.asarray(primary, dtype=np.float64), np.asarray(secondary)]
    full = np.lexsort((np.arange(size), keys[1], keys[0]))
    assert ordered_window(keys, size, start, stop).tolist() == full[start:stop].tolist()


def test_ordered_window_of_a_large_tied_population_matches_lexsort() -> None:
    # Mostly ties: the recursion on the second key (and on the index) does the work.
    rng = np.random.default_rng(0)
    size = 200_000
    keys = [rng.integers(0, 3, size).astype(np.float64), rng.integers(0, 2, size)]
    full = np.lexsort((keys[1], keys[0]))
    for start in (0, 1, 66_000, 133_333, size - 7):
        window = ordered_window(keys, size, start, start + 30)
        assert window.tolist() == full[start : start + 30].tolist()
