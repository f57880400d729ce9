"""What the `s` screen says: the exact set's count, why it is only counted, the GA experiment.

Counts carry thousands separators, as ``queens solutions`` prints them, and the notes name their
OEIS sequences. A status line is one line whatever the width, so that the gallery below it
keeps its height (and its picture): each is given as wordings, the fullest first, and
:func:`fitting` takes the first that fits. Plain functions of plain values, so each sentence can
be tested without an app.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.solutions.archive import KNOWN_TOTALS
from engine.solutions.exact import COUNTING_LIMIT, LISTING_LIMIT

AUTO_COUNT_LIMIT: Final = 18
"""The largest N the screen counts by itself: minutes at N = 18, in batches of a few seconds
that a stop can end between. Each N takes about 8 times the one before, so N = 19 would take
an hour and its batches most of a minute each."""
LARGEST_EVER_COUNTED: Final = max(KNOWN_TOTALS)
"""N = 27: the largest N whose solutions anyone has counted (OEIS A000170)."""
OEIS: Final = "OEIS A000170, A002562"
"""The sequences of all solutions and of fundamental ones."""

Wordings = tuple[str, ...]
"""One message in several wordings, the fullest first."""


def fitting(wordings: Sequence[str], width: int) -> str:
    """The first wording at most ``width`` characters long (else the shortest, to be cut)."""
    for wording in wordings:
        if len(wording) <= width:
            return wording
    return wordings[-1]


def plural(count: int, noun: str) -> str:
    """``1 solution``, ``14,200 solutions``."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def counts_text(total: int, fundamental: int) -> str:
    """``92 solutions, 12 fundamental``."""
    return f"{plural(total, 'solution')}, {fundamental:,} fundamental"


def searching_text(
    n: int, verb: str, searched: int, prefixes: int, solutions: int, elapsed: float
) -> Wordings:
    """``N = 17: counting… 12 of 128 prefixes (9%), 1,234,567 solutions so far, 8.1 s``."""
    share = f"{100 * searched // max(1, prefixes)}%"
    so_far = f"{plural(solutions, 'solution')} so far"
    return (
        f"N = {n}: {verb}… {searched:,} of {prefixes:,} prefixes ({share}), {so_far}, "
        f"{elapsed:.1f} s · escape stops",
        f"N = {n}: {verb}… {share}, {so_far}, {elapsed:.1f} s · escape stops",
        f"N = {n}: {verb}… {share}, {so_far} · escape stops",
        f"N = {n}: {verb}… {share} · escape stops",
    )


def listed_text(
    n: int,
    total: int,
    fundamental: int,
    elapsed: float,
    *,
    complete: bool,
    searched: int,
    prefixes: int | None,
) -> Wordings:
    """The summary of a listing, said to be partial when it was stopped."""
    counts = counts_text(total, fundamental)
    if complete:
        return f"N = {n}: {counts} · listed in {elapsed:.3f} s", f"N = {n}: {counts}"
    of = "?" if prefixes is None else f"{prefixes:,}"
    return (
        f"N = {n}: listing stopped after {searched:,} of {of} prefixes: {counts} so far",
        f"N = {n}: listing stopped: {counts} so far",
        f"N = {n}: stopped: {plural(total, 'solution')} so far",
    )


def counted_text(
    n: int, total: int, fundamental: int | None, elapsed: float, *, searched: int, prefixes: int
) -> Wordings:
    """The summary of a count (``fundamental`` ``None``: stopped, so partial)."""
    if fundamental is None:
        so_far = f"{plural(total, 'solution')} so far"
        return (
            f"N = {n}: count stopped after {searched:,} of {prefixes:,} prefixes: {so_far}",
            f"N = {n}: count stopped: {so_far}",
        )
    counts = counts_text(total, fundamental)
    return f"N = {n}: {counts} · counted in {elapsed:.1f} s", f"N = {n}: {counts}"


def known_text(n: int) -> Wordings:
    """The count of an N the screen does not count itself: OEIS's, or that nobody has one."""
    known = KNOWN_TOTALS.get(n)
    if known is None:
        return (f"N = {n}: nobody has counted its solutions",)
    return f"N = {n}: {counts_text(*known)} ({OEIS})", f"N = {n}: {counts_text(*known)}"


def exact_note(n: int) -> str:
    """Why the screen lists, only counts, or only cites the solutions of ``n`` (one line at
    80 columns above the listing limit, where the pictures need the room)."""
    if n <= LISTING_LIMIT:
        return f"As queens solutions lists them; * marks one of each class ({OEIS})."
    too_many = f"Too many to list (N <= {LISTING_LIMIT})"
    if n <= AUTO_COUNT_LIMIT:
        return f"{too_many}, so counted; OEIS gives {KNOWN_TOTALS[n][0]:,}."
    if n <= LARGEST_EVER_COUNTED:
        return f"{too_many} or to count here (hours or more): OEIS's count."
    if n <= COUNTING_LIMIT:
        return f"{too_many}; nobody has counted past N = {LARGEST_EVER_COUNTED}."
    return f"{too_many} or to count (N <= {COUNTING_LIMIT}): nobody has counted them."


def ga_text(
    found: int,
    fundamental: int,
    generation: int,
    elapsed: float,
    state: str,
    known: tuple[int, int] | None,
    budget: float | None = None,
) -> Wordings:
    """``GA: 57 of 92 found (11 of 12 fundamental), generation 140 · 0.4 s · running``.

    Args:
        found: Distinct solutions the GA has found.
        fundamental: Fundamental classes among them.
        generation: The GA's generation.
        elapsed: Seconds of computing.
        state: paused, running, done, stopped or error.
        known: All and fundamental solutions of N, when they are known.
        budget: Seconds the GA gets, if it has a budget.
    """
    if known is None:
        counts = f"{found:,} found"
        classes = f"{fundamental:,} fundamental"
    elif found == known[0] and found:
        counts = f"all {found:,} found"
        classes = f"{fundamental:,} of {known[1]:,} fundamental"
    else:
        counts = f"{found:,} of {known[0]:,} found"
        classes = f"{fundamental:,} of {known[1]:,} fundamental"
    runs = " · space runs" + (f" ({budget:.0f} s)" if budget is not None else "")
    hint = {"paused": runs, "running": " · space pauses"}.get(state, "")
    when = f"generation {generation:,}"
    return (
        f"GA: {counts} ({classes}), {when} · {elapsed:.1f} s · {state}{hint}",
        f"GA: {counts} ({classes}), {when} · {elapsed:.1f} s · {state}",
        f"GA: {counts} ({classes}), {when} · {state}",
        f"GA: {counts}, {when} · {elapsed:.1f} s · {state}",
        f"GA: {counts}, gen {generation:,} · {state}",
    )
