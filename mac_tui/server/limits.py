"""Limits that keep one host usable: connections per address per minute, names registered per
address per day, sessions in all (players and spectators counted apart)."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

DAY = 24 * 3600.0


def client_key(address: str) -> str:
    """What the per-address limits count by: an IPv4 address, or an IPv6 address's /64 (one
    host usually holds a whole /64, so counting single IPv6 addresses would limit nothing)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RateLimiter:
    """At most `per_window` accepted events (connections, registrations) from one address in any
    `window` seconds.

    Only accepted events count, so a refused client gets in again as soon as its oldest
    accepted one is older than the window. `per_window <= 0` means no limit. `allow` checks
    and counts in one step; `full` and `add` do it in two, for an event that may still fail
    between them (a registration counts only once it is made)."""

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
        if self.full(address):
            return False
        self.add(address)
        return True

    def full(self, address: str) -> bool:
        """Whether `address` has used up its events in the window."""
        if self.per_window <= 0:
            return False
        now = self.clock()
        if now - self._swept > self.window:
            self._sweep(now)
        times = self._seen.get(address)
        while times and times[0] <= now - self.window:
            times.popleft()
        return times is not None and len(times) >= self.per_window

    def add(self, address: str) -> None:
        """Count an event of `address` now."""
        if self.per_window > 0:
            self._seen.setdefault(address, deque()).append(self.clock())

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
    """Sessions of one kind open now (players, or spectators), up to `limit` (`<= 0`: no
    limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0

    def full(self) -> bool:
        return self.limit > 0 and self.open >= self.limit

    def enter(self) -> None:
        self.open += 1

    def leave(self) -> None:
        self.open = max(0, self.open - 1)


class DailyCap(Protocol):
    """What `registrations_used_up` needs: a `RateLimiter`, or `accounts.StoredRegistrations`
    (the servers': counted in the store)."""

    @property
    def per_window(self) -> int: ...

    def full(self, address: str) -> bool: ...

    def retry_after(self, address: str) -> float: ...


def registrations_used_up(registrations: DailyCap, peer: str) -> str | None:
    """Why `peer` may register no more names now (`registrations` counts them per day), or
    None. Both servers refuse with this text."""
    key = client_key(peer)
    if not registrations.full(key):
        return None
    hours = max(1, math.ceil(registrations.retry_after(key) / 3600))
    return (
        f"{peer} has registered {registrations.per_window} new names today (the limit): "
        f"log in with a name you have, or register one in {hours} h"
    )
