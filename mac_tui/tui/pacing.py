"""The clock that paces the game in time (the enemy's turns at the animation speed).

`MacApp` owns one clock (`app.clock`); anything the game does after a delay asks it, never
Textual's timers or `time` directly:

    pending = app.clock.call_after(screen, 0.45, screen.ai_tick)
    pending.cancel()
    app.clock.now()               # seconds, for a budget of work per tick

`SystemClock` (the default) is wall-clock time: Textual timers and `time.monotonic`.
`ManualClock` stands still until told to move: `advance(seconds)` or `advance_to_next()` hands
every call that has come due to its owner as a message (as a timer would call it, but on the
owner's message queue), so a test plays the enemy's turn step by step, each step followed by
`await pilot.pause()`, and no test waits on real time.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Protocol

from attrs import define
from textual.message_pump import MessagePump
from textual.timer import Timer


class Pending(Protocol):
    """A call waiting on a clock."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds from an arbitrary start."""
        ...

    def call_after(
        self, owner: MessagePump, delay: float, callback: Callable[[], object]
    ) -> Pending:
        """Call `callback` on `owner`'s side after `delay` seconds."""
        ...


@define
class _TimerCall:
    timer: Timer

    def cancel(self) -> None:
        self.timer.stop()


class SystemClock:
    """Wall-clock time: Textual timers."""

    def now(self) -> float:
        return time.monotonic()

    def call_after(
        self, owner: MessagePump, delay: float, callback: Callable[[], object]
    ) -> Pending:
        return _TimerCall(owner.set_timer(delay, callback))


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)


@define
class _DueCall:
    at: int  # microseconds
    order: int
    owner: MessagePump
    callback: Callable[[], object]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Time that moves only when told: for tests (and anything that must replay exactly).
    It counts whole microseconds, so 0.85 s and then 0.05 s make exactly 0.9 s."""

    def __init__(self) -> None:
        self._now = 0  # microseconds
        self._calls: list[_DueCall] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now / 1_000_000

    def call_after(
        self, owner: MessagePump, delay: float, callback: Callable[[], object]
    ) -> Pending:
        at = self._now + max(_micros(delay), 0)
        call = _DueCall(at, next(self._order), owner, callback)
        self._calls.append(call)
        return call

    @property
    def waiting(self) -> list[float]:
        """In how many seconds the calls still waiting come due, soonest first."""
        return sorted((c.at - self._now) / 1_000_000 for c in self._calls if not c.cancelled)

    def advance(self, seconds: float) -> int:
        """Move the time on by `seconds`; each call due by then goes to its owner's message
        queue, in the order they come due. Returns how many went."""
        self._now += max(_micros(seconds), 0)
        due = sorted(
            (c for c in self._calls if not c.cancelled and c.at <= self._now),
            key=lambda c: (c.at, c.order),
        )
        self._calls = [c for c in self._calls if not c.cancelled and c.at > self._now]
        for call in due:
            call.owner.call_later(call.callback)
        return len(due)

    def advance_to_next(self) -> int:
        """Move the time on to the next call waiting (if any) and hand it over."""
        waiting = self.waiting
        return self.advance(waiting[0]) if waiting else 0
