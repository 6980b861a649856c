"""The day report: what happened while time passed (upkeep, repairs, healing, markets...)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ..glyphs import glyphs_for
from ..internals import RestylesOnChange


class DayReportScreen(RestylesOnChange, ModalScreen[None]):
    BINDINGS = [Binding("escape,enter,space,d", "close", "Close", id="report.close")]
    DEFAULT_CSS = """
    DayReportScreen { align: center middle; }
    DayReportScreen > Vertical {
        width: 70; height: auto; max-height: 20; border: thick $primary; background: $surface;
        padding: 0 1;
    }
    DayReportScreen VerticalScroll { height: auto; max-height: 15; }
    """

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("[b]Day report[/b]  (Enter to close)")
            with VerticalScroll():
                text = "\n".join(self.lines) or "A quiet day."
                yield Static(glyphs_for(self.app).text(text))

    def action_close(self) -> None:
        self.dismiss(None)
