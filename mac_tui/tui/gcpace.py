"""Python's full garbage collections, moved out of key presses into the player's pauses.

A game open in the hub holds a large heap (the state, the hub's tables and Textual's caches
of rendered lines), and every key press leaves a few hundred objects in reference cycles
(Textual's messages, strips, styles). Python collects them in three generations; the oldest,
collected when enough objects have survived the younger ones, walks the whole heap: some
100 ms of CPU at 80x24 in the hub, in the middle of whichever key press came at the wrong
moment (one in twenty when keys are pressed at a typing pace).

`IdleCollector` makes the collections at a moment nobody waits on: an input (a key, a click)
switches the automatic collections off, and once no input has come for `IDLE` seconds it
collects everything and switches them on again (so the enemy's turns, played while the player
watches, are collected as usual). Textual pauses them the same way while it scrolls. Only
objects in reference cycles wait for the pause: the others are freed at once, as ever. A
storm of keys with no pause at all is collected every `MAX_INPUTS` inputs all the same, so
the heap never grows without bound; quitting switches the collections on again.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.timer import Timer

IDLE = 1.0  # seconds without input before the collection
MAX_INPUTS = 1000  # inputs without a pause (a minute of held keys) before one all the same


class IdleCollector:
    """Collections in the pauses between inputs (see the module docstring)."""

    def __init__(self, app: App[Any], now: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.now = now  # seconds (a test's own clock: tests never wait on real time)
        self.last_input = now()
        self.inputs = 0  # inputs since the last collection
        self.paused = False  # the automatic collections are off, by us
        self.timer: Timer | None = None

    def start(self) -> None:
        """Look for a pause once every `IDLE` seconds (a wake-up that costs nothing)."""
        self.timer = self.app.set_interval(IDLE, self.tick, name="idle-gc")

    def touched(self) -> None:
        """An input came: no automatic collection until the next pause."""
        self.last_input = self.now()
        self.inputs += 1
        if not self.paused and gc.isenabled():
            gc.disable()
            self.paused = True
        if self.inputs >= MAX_INPUTS:
            self.collect()

    def tick(self) -> None:
        if self.paused and self.now() - self.last_input >= IDLE:
            self.collect()
            self.resume()

    def collect(self) -> None:
        self.inputs = 0
        gc.collect()

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            gc.enable()

    def stop(self) -> None:
        """The app is closing: the collections as they were."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.resume()
