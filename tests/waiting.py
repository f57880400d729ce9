"""Waiting in tests: look at a condition until it holds, or fail naming what was awaited.

One loop for every test that waits on something outside its control (a child process, a
store another process writes, a browser, the app Pilot drives): look, wait a moment, look
again, until the condition holds or the limit passes. A limit that passes is an
``AssertionError`` that says what was awaited and for how long, and, given ``detail``, what
was there instead (the last output of a terminal, say).

- :func:`wait_until` sleeps between looks (a process, a file, a store);
- :func:`wait_until_async` awaits ``asyncio.sleep`` between looks, and the condition may be
  a coroutine (a browser's page is asked over a websocket);
- :func:`wait_until_pilot` pauses the pilot between looks, so the app runs meanwhile.

Each returns the seconds it waited, so two waits can share one limit. A condition may raise
an ``AssertionError`` of its own (a child process that ended early): it ends the wait at once.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

Condition = Callable[[], object]
"""A look: true (in Python's sense) once what is awaited has happened."""
AsyncCondition = Callable[[], object | Awaitable[object]]
"""A look that may have to be awaited."""
Detail = Callable[[], object]
"""What was there instead, for the failure's message."""
AsyncDetail = Callable[[], object | Awaitable[object]]


class Pausing(Protocol):
    """What of Textual's ``Pilot`` a wait needs: a pause that lets the app run."""

    async def pause(self, delay: float | None = None) -> None: ...


def wait_until(
    condition: Condition,
    limit: float,
    what: str,
    *,
    interval: float = 0.05,
    detail: Detail | None = None,
) -> float:
    """Look at ``condition()`` every ``interval`` seconds until it holds.

    Returns:
        The seconds it took.

    Raises:
        AssertionError: If it does not hold within ``limit`` seconds.
    """
    started = time.monotonic()
    while not condition():
        waited = time.monotonic() - started
        if waited > limit:
            raise AssertionError(never_came(what, limit, waited, detail() if detail else None))
        time.sleep(interval)
    return time.monotonic() - started


async def wait_until_async(
    condition: AsyncCondition,
    limit: float,
    what: str,
    *,
    interval: float = 0.05,
    detail: AsyncDetail | None = None,
) -> float:
    """Look at ``condition()`` (awaited if it gives an awaitable) every ``interval`` seconds,
    sleeping in the event loop between looks, until it holds.

    Returns:
        The seconds it took.

    Raises:
        AssertionError: If it does not hold within ``limit`` seconds.
    """
    started = time.monotonic()
    while not await answer(condition):
        waited = time.monotonic() - started
        if waited > limit:
            raise AssertionError(
                never_came(what, limit, waited, await answer(detail) if detail else None)
            )
        await asyncio.sleep(interval)
    return time.monotonic() - started


async def wait_until_pilot(
    pilot: Pausing,
    condition: Condition,
    limit: float,
    what: str,
    *,
    interval: float = 0.02,
    detail: Detail | None = None,
) -> float:
    """Let the app run (``pilot.pause(interval)``) until ``condition()`` holds.

    Returns:
        The seconds it took.

    Raises:
        AssertionError: If it does not hold within ``limit`` seconds.
    """
    started = time.monotonic()
    while not condition():
        waited = time.monotonic() - started
        if waited > limit:
            raise AssertionError(never_came(what, limit, waited, detail() if detail else None))
        await pilot.pause(interval)
    return time.monotonic() - started


async def answer(look: AsyncCondition) -> object:
    """What ``look()`` gives, awaited if it is awaitable."""
    value = look()
    return await value if inspect.isawaitable(value) else value


def never_came(what: str, limit: float, waited: float, instead: object) -> str:
    """The failure's message: what was awaited, how long, and what was there instead."""
    message = f"timed out waiting for {what}: not within {limit:g} s (waited {waited:.1f} s)"
    return message if instead is None else f"{message}; instead: {instead}"
