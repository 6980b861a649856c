"""The day report: what happened while time passed (upkeep, repairs, healing, markets...).

`show_day_report` opens it. One report screen is kept by the app (installed) and filled again
for each report: a day (`d`) costs no new screen, no compose of its widgets, no styling of
them (see `RestylesOnChange`), only the new text laid out and drawn. The hub makes it in a
pause (`prepare_day_report`), so not even the first day composes it. The report's background
is opaque: the hub under it shows nothing, and is drawn once the report's frame is out (or as
the report closes, should that come first), out of Textual's frame work meanwhile
(`internals.HidesScreensBehind`); the background, one colour, is drawn for one line and
repeated (`UniformLines`: 0.5 ms of a day's frame at 120x40 before).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ..glyphs import glyphs_for
from ..internals import (
    HidesScreensBehind,
    PaintsOverScreens,
    RestylesOnChange,
    start_offscreen,
    warm_lines,
)
from ..widgets.uniform import UniformLines

KEPT_NAME = "day-report"  # the kept report's name among the app's installed screens


class DayReportScreen(
    HidesScreensBehind, RestylesOnChange, PaintsOverScreens, UniformLines, ModalScreen[None]
):
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
        self.behind: Callable[[], None] | None = None  # draws the screens behind, once

    def draw_behind(self, warm: bool = False) -> None:
        """Draw the screens behind (`show_day_report`'s `behind`) if they are not yet; `warm`:
        and the lines of the one right behind, for the frame that shows it again
        (`internals.warm_lines`)."""
        behind, self.behind = self.behind, None
        if behind is not None:
            behind()
            stack = self.app.screen_stack
            if warm and len(stack) > 1 and stack[-1] is self:
                below = stack[-2]
                below.refresh_bindings()  # its footer's keys read now, not by Esc
                warm_lines(below)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("[b]Day report[/b]  (Enter to close)")
            with VerticalScroll():
                yield Static(self._text(), id="report-text")

    def _text(self) -> str:
        text = "\n".join(self.lines) or "A quiet day."
        return glyphs_for(self.app).text(text)

    def reopen(self, lines: Sequence[str]) -> None:
        """Show `lines` instead, from the top (the kept screen, before it is pushed again):
        laid out again only when the text takes another number of rows at the width it has
        (Textual's own measure, `get_content_height`, which the layout then finds kept): a
        report of as many rows as the last one's is only drawn (1 ms of its frame)."""
        self.lines = list(lines)
        static = self.query_one("#report-text", Static)
        static.update(self._text(), layout=False)
        size = static.size
        if not size.width or static.get_content_height(size, size, size.width) != size.height:
            static.refresh(layout=True)
        self.query_one(VerticalScroll).scroll_home(animate=False, immediate=True)

    def action_close(self) -> None:
        self.draw_behind()  # before the hub is in front again (a key before the first frame)
        self.dismiss(None)


async def prepare_day_report(app: App[Any]) -> None:
    """Make the app's kept report now (in a pause of the player's: the hub's), composed,
    mounted and laid out but not shown, so that the first day does not compose it."""
    if not app.is_screen_installed(KEPT_NAME):
        report = DayReportScreen([])
        app.install_screen(report, name=KEPT_NAME)
        await start_offscreen(app, report)


def show_day_report(
    app: App[Any], lines: Sequence[str], behind: Callable[[], None] | None = None
) -> None:
    """Push the day report of `lines`: the app's kept report, filled again (a new one the
    first time, and while the kept one is already open). `behind` draws the screens under
    it (the hub's day): once the report's frame is out, or as it closes if that is sooner."""
    kept = app.get_screen(KEPT_NAME) if app.is_screen_installed(KEPT_NAME) else None
    if isinstance(kept, DayReportScreen) and kept.is_mounted and kept not in app.screen_stack:
        kept.reopen(lines)
        report = kept
    else:
        report = DayReportScreen(lines)
        if kept is None:
            app.install_screen(report, name=KEPT_NAME)
    report.draw_behind()  # a report still owing its screens (two days before one frame)
    report.behind = behind
    app.push_screen(report)
    if behind is not None:
        app.call_after_refresh(report.draw_behind, warm=True)
