"""Limits that keep one host usable: connections per address per minute, sessions in all."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    """At most `per_window` accepted connections from one address in any `window` seconds.

    Only accepted connections count, so a refused client gets in again as soon as its oldest
    accepted connection is older than the window. `per_window <= 0` means no limit."""

    def __init__(
        self,
        per_window: int,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_window = per_window
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}
        self._swept = clock()

    def allow(self, address: str) -> bool:
        if self.per_window <= 0:
            return True
        now = self.clock()
        if now - self._swept > self.window:
            self._sweep(now)
        times = self._seen.setdefault(address, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.per_window:
            return False
        times.append(now)
        return True

    def retry_after(self, address: str) -> float:
        """Seconds until `address` may connect again (0 when it may now)."""
        times = self._seen.get(address)
        now = self.clock()
        live = [t for t in times or () if t > now - self.window]
        if len(live) < self.per_window:
            return 0.0
        return max(0.0, live[0] + self.window - now)

    def _sweep(self, now: float) -> None:
        """Forget addresses with no connection in the window (keeps the table small)."""
        self._swept = now
        for address in list(self._seen):
            times = self._seen[address]
            while times and times[0] <= now - self.window:
                times.popleft()
            if not times:
                del self._seen[address]


class SessionCount:
    """Sessions open now (players and spectators), up to `limit` (`<= 0`: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0

    def full(self) -> bool:
        return self.limit > 0 and self.open >= self.limit

    def enter(self) -> None:
        self.open += 1

    def leave(self) -> None:
        self.open = max(0, self.open - 1)
