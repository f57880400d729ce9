"""A notice on show is not said again; once its time is up, or for another notice, it is."""

from __future__ import annotations

from tui.dashboard.repeated_notices import RepeatedNotices


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


OVER = ("The run is over: press r for a new run.", "", "information")


def test_a_notice_on_show_is_a_repeat_until_its_time_is_up() -> None:
    clock = Clock()
    notices = RepeatedNotices(clock)
    assert not notices.on_show(OVER, 3)
    clock.now += 2.9
    assert notices.on_show(OVER, 3)  # said again while on show: not shown again
    clock.now += 0.2
    assert not notices.on_show(OVER, 3)  # its 3 s are up (counted from when it was shown)
    assert notices.on_show(OVER, 3)


def test_another_message_title_or_severity_is_another_notice() -> None:
    notices = RepeatedNotices(Clock())
    assert not notices.on_show(OVER, 3)
    assert not notices.on_show(
        ("There is no run yet: press r for a new run.", "", "information"), 3
    )
    assert not notices.on_show((OVER[0], "Run", "information"), 3)
    assert not notices.on_show((OVER[0], "", "error"), 3)
    assert notices.on_show(OVER, 3)


def test_only_the_notices_on_show_are_kept() -> None:
    clock = Clock()
    notices = RepeatedNotices(clock)
    for number in range(1000):
        notices.on_show((f"notice {number}", "", "information"), 1)
        clock.now += 0.1
    assert len(notices._until) <= 11
