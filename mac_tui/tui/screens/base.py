"""`GameScreen`: the base of the screens that draw the game state.

It lives apart from `tui/app.py` so that the app imports the screens and no screen imports
the app: a screen reaches the running game through `self.game` (typed by `host.GameHost`).
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

from ..host import GameHost, host

PALETTE_KEY_MIN_WIDTH = 100  # narrower, the footer keeps its room for the screen's own keys


class GameScreen(Screen[None]):
    """A screen that draws the game state; `refresh_view` redraws it after every change."""

    def on_resize(self) -> None:
        """Below 100 columns the footer leaves out the ctrl+p hint (help lists it) so the
        screen's own keys fit."""
        for footer in self.query(Footer):
            footer.show_command_palette = self.size.width >= PALETTE_KEY_MIN_WIDTH

    def refresh_view(self) -> None:
        """Redraw from `self.game.session`; the default redraws nothing."""

    @property
    def game(self) -> GameHost:
        return host(self)
