"""Driving the app's clock by hand: the enemy's turns step when a test says, never by real
time (conftest.py gives every app a `ManualClock`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mac_tui.tui.pacing import ManualClock

Pilot = Any  # textual.pilot.Pilot[None]


def clock_of(pilot: Pilot) -> ManualClock:
    clock = pilot.app.clock
    assert isinstance(clock, ManualClock), clock
    return clock


async def advance(pilot: Pilot, seconds: float) -> int:
    """Move the app's clock on by `seconds`, then let the app handle what came due."""
    fired = clock_of(pilot).advance(seconds)
    await pilot.pause()
    return fired


async def run_until(pilot: Pilot, done: Callable[[], bool], what: str, steps: int = 3000) -> None:
    """Step the clock from one waiting call to the next (each handled before the next) until
    `done()`; fail after `steps` steps."""
    clock = clock_of(pilot)
    for _ in range(steps):
        if done():
            return
        clock.advance_to_next()
        await pilot.pause()
    raise AssertionError(f"{what} never came in {steps} steps of the clock")
