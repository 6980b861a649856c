"""The end of the run (R28): the debrief, also written next to the save as a text file."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ...campaign.debrief import debrief_text
from ..glyphs import glyphs_for
from ..host import host
from ..internals import RestylesOnChange
from ..literal import literal
from ..widgets.footer import GameFooter


class DebriefScreen(RestylesOnChange, Screen[None]):
    BINDINGS = [Binding("escape,enter,q", "leave", "Title screen", id="debrief.leave")]
    DEFAULT_CSS = """
    DebriefScreen VerticalScroll { padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(
                glyphs_for(self.app).text(literal(self.text())), id="debrief"
            )  # plain words
        yield GameFooter()

    def text(self) -> str:
        game = host(self)
        session = game.session
        c = session.state.campaign if session is not None else None
        assert session is not None and c is not None  # a debrief ends a campaign
        text = debrief_text(c, session.seed, list(game.messages[-12:]), c.ended)
        path = game.save_path
        if path is not None:
            out = path.with_suffix(".debrief.txt")
            try:
                out.write_text(text, encoding="utf-8")
                text += f"\n\nThis debrief is saved in {out}"
            except OSError:
                pass
        return text

    def action_leave(self) -> None:
        host(self).show_title()
