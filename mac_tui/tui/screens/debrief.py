"""The end of the run (R28): the debrief, also written next to the save as a text file."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...campaign.debrief import debrief_text
from ..glyphs import glyphs_for


class DebriefScreen(Screen[None]):
    BINDINGS = [Binding("escape,enter,q", "leave", "Title screen", id="debrief.leave")]
    DEFAULT_CSS = """
    DebriefScreen VerticalScroll { padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(glyphs_for(self.app).text(self.text()), id="debrief")
        yield Footer()

    def text(self) -> str:
        app = self.app
        session = app.session  # type: ignore[attr-defined]
        c = session.state.campaign
        text = debrief_text(c, session.seed, list(app.messages[-12:]), c.ended)  # type: ignore[attr-defined]
        path = app.save_path  # type: ignore[attr-defined]
        if path is not None:
            out = path.with_suffix(".debrief.txt")
            try:
                out.write_text(text, encoding="utf-8")
                text += f"\n\nThis debrief is saved in {out}"
            except OSError:
                pass
        return text

    def action_leave(self) -> None:
        from .title import TitleScreen

        self.app.switch_screen(TitleScreen())
