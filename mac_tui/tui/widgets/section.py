"""A hub section: one area of the company (roster, market...) drawn from the state.

Sections declare their actions as bindings with ids (so keys can be remapped) and grey out the
ones that are not legal now through `check_action`, asking the engine why, never guessing.
"""

from __future__ import annotations

from textual import events
from textual.containers import Vertical
from textual.widgets import DataTable

from ...campaign.state import Campaign
from ...game import Command
from ...model import GameState
from ..host import host
from .uniform import UniformLines


class Section(UniformLines, Vertical):
    """Subclasses set TITLE and KEY and implement `refresh_view`."""

    TITLE = ""
    KEY = ""
    HELP = ""
    HINT = ""  # a new player's first step here, shown by the hub while hints are on
    _drawn: tuple[object, object] | None = None  # the (state, settings) last drawn

    @property
    def state(self) -> GameState:
        session = getattr(self.app, "session", None)
        assert session is not None
        state: GameState = session.state
        return state

    @property
    def campaign(self) -> Campaign:
        c = self.state.campaign
        assert c is not None
        return c

    def act(self, command: Command) -> bool:
        return host(self).act(command)

    def say(self, text: str, warning: bool = False) -> None:
        host(self).say(text, warning)

    def refresh_view(self) -> None:
        """Redraw from the current state."""

    def footer_token(self) -> object:
        """What the section's `check_action` reads besides the game's state and the settings
        (its cursor, its view...): with the same token the hub's footer reads no key again
        (`HubScreen.footer_token`). None: not said, the keys are read every time."""
        return None

    def redraw(self) -> None:
        """`refresh_view` unless the section already shows this very state with these
        settings (switching to a section that has not changed draws nothing again: its
        tables keep their rows and Textual its rendered lines)."""
        session = getattr(self.app, "session", None)
        state = session.state if session is not None else None
        settings = getattr(self.app, "settings", None)
        if state is None or self._drawn == (state, settings):
            return
        self._drawn = (state, settings)
        self.refresh_view()

    def on_show(self) -> None:
        self.redraw()

    def _on_descendant_focus(self, event: events.DescendantFocus) -> None:
        event.stop()  # nothing above a section reads it (nor its blur): three hops saved

    def _on_descendant_blur(self, event: events.DescendantBlur) -> None:
        event.stop()

    def _on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """A table's highlight ends with its section (the section's own handler, if it has
        one, runs too): nothing above a section reads it, and each table cursor move would
        climb three more message queues (the stack, the screen, the app)."""
        event.stop()
