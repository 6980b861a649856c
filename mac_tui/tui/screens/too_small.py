"""Below 80x24 (60x20 in a range-band battle) this takes over until the terminal is large
enough again."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static


class TooSmallScreen(Screen[None]):
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen Static { width: auto; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static("", id="size-note")

    def on_mount(self) -> None:
        self.update_note()

    def on_resize(self) -> None:
        self.update_note()
        self._check()

    def on_screen_resume(self) -> None:
        """Back in front (the screen above it closed): the one below may need less room."""
        self.update_note()
        self._check()

    def _check(self) -> None:
        check = getattr(self.app, "check_size", None)
        if check is not None:
            self.call_after_refresh(check)

    def on_key(self, event: events.Key) -> None:
        """A key that comes once the terminal is large enough again, before the size guard
        has caught up with the resize (a browser sends the resize and the key together),
        closes this screen and goes on to the game; while too small, keys do nothing."""
        small = getattr(self.app, "too_small", None)
        if not callable(small) or small():
            return
        event.stop()
        event.prevent_default()
        self.app.pop_screen()
        self.app.post_message(events.Key(event.key, event.character))

    def update_note(self) -> None:
        w, h = self.app.size
        floor = getattr(self.app, "size_floor", None)
        fw, fh = floor() if callable(floor) else (80, 24)
        self.query_one("#size-note", Static).update(
            f"Please enlarge the terminal to at least {fw}x{fh}.\n(now {w}x{h})"
        )
