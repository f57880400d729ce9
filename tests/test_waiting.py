"""The tests' one waiting loop: it waits until the condition holds, and a wait that never ends
fails naming what was awaited, how long, and what was there instead."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest

from tests.waiting import wait_until, wait_until_async, wait_until_pilot


def after(looks: int) -> Callable[[], bool]:
    """A condition that holds from its ``looks``-th look on."""
    counter = itertools.count(1)
    return lambda: next(counter) >= looks


def test_a_wait_ends_once_the_condition_holds_and_says_how_long() -> None:
    looked = after(3)
    waited = wait_until(looked, 5.0, "the third look", interval=0.01)
    assert 0.02 <= waited < 5.0


def test_a_wait_that_never_ends_names_what_and_how_long() -> None:
    message = r"timed out waiting for the store's first row: not within 0\.05 s \(waited 0\.\d s\)"
    with pytest.raises(AssertionError, match=message):
        wait_until(lambda: False, 0.05, "the store's first row", interval=0.01)


def test_a_failed_wait_shows_what_was_there_instead() -> None:
    with pytest.raises(AssertionError, match=re.escape("; instead: b'Loading'")):
        wait_until(lambda: False, 0.02, "Quit", interval=0.01, detail=lambda: b"Loading")


def test_a_condition_s_own_assertion_ends_the_wait_at_once() -> None:
    def child_alive() -> bool:
        raise AssertionError("the child ended early")

    with pytest.raises(AssertionError, match="the child ended early"):
        wait_until(child_alive, 60.0, "the child's record")


async def test_an_async_wait_awaits_a_condition_that_must_be_awaited() -> None:
    looks = after(2)

    async def page_ready() -> bool:
        return looks()

    assert await wait_until_async(page_ready, 5.0, "the page", interval=0.01) >= 0.01

    async def page_text() -> str:
        return "Loading"

    with pytest.raises(AssertionError, match=r"the page's footer.*instead: Loading"):
        await wait_until_async(
            lambda: False, 0.02, "the page's footer", interval=0.01, detail=page_text
        )


class CountingPilot:
    """A pilot that counts the pauses the app was given."""

    def __init__(self) -> None:
        self.pauses: list[float | None] = []

    async def pause(self, delay: float | None = None) -> None:
        self.pauses.append(delay)


async def test_a_pilot_wait_lets_the_app_run_between_looks() -> None:
    pilot = CountingPilot()
    await wait_until_pilot(pilot, after(4), 5.0, "the fourth look")
    assert pilot.pauses == [0.02, 0.02, 0.02]
    with pytest.raises(AssertionError, match="timed out waiting for the app's quit"):
        await wait_until_pilot(pilot, lambda: False, 0.0, "the app's quit")
