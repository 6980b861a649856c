"""The day report: what happened while time passed (upkeep, repairs, healing, markets...).

`show_day_report` opens it. The app keeps its report screens (installed) and fills one again
for each report: a day (`d`) costs no new screen, no compose of its widgets, no styling of
them (see `RestylesOnChange`), only the new text drawn. The hub makes the first in a pause
(`prepare_day_report`), so not even the first day composes it. Up to `REPORTS_KEPT` are kept,
each laid out for the rows of its text: a day of two lines and one of three find each its
own report, filled again with no layout (`_pick`; a report of rows none has is laid out, and
another made out of sight after its frame, `_add_spare`). The text is a `ReportText`: each
line drawn once and kept by what it shows, shared by the kept reports. The report's keys
(and the hub's `d` and `w`) are priority bindings. The report's background is opaque: the hub
under it shows nothing, and is drawn once the report's frame is out (or as the report
closes, should that come first), out of Textual's frame work meanwhile
(`internals.HidesScreensBehind`); the background, one colour, is drawn for one line and
repeated (`UniformLines`: 0.5 ms of a day's frame at 120x40 before).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Label

from ..glyphs import glyphs_for
from ..internals import (
    HidesScreensBehind,
    KeepsFrameRowsScreen,
    PaintsOverScreens,
    RestylesOnChange,
    laid_size,
    start_offscreen,
    warm_lines,
)
from ..widgets.kept_strips import KeptStatic
from ..widgets.uniform import UniformLines

KEPT_NAME = "day-report"  # the first kept report's name among the app's installed screens
REPORTS_KEPT = 4  # kept reports, each laid out for the rows of its last text


class ReportText(KeptStatic):
    """The report's lines: each drawn once and kept by what it shows and where (the upkeep's
    line comes back day after day, a week's report holds it seven times), the rows of a text
    counted once, a new layout only for another number of rows (`KeptStatic`). Textual's
    `Static` wrapped and drew the whole text twice per day, once to measure it and once to
    draw it (0.4 ms of a day's frame at 80x24, 0.8 of a week's)."""

    def __init__(self, text: Content, *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        # The report's lines are plain words (`DayReportScreen.text_of`), never a link: no
        # link style worked out and laid over every segment of a line (a third of a new
        # line's cost), which a line without one is drawn the same without.
        self.set_reactive(ReportText.auto_links, False)

    def show(self, text: Content, *, layout: bool) -> None:
        """Show `text`, laid out again if `layout` (the caller counted its rows: `rows_of`),
        else only drawn."""
        if text is not self._text:
            self._text = text
            self.refresh(layout=layout)

    def share_lines(self, kept: dict[tuple[object, ...], list[Strip]]) -> None:
        """Keep the lines drawn in `kept` (the app's kept reports share theirs)."""
        self._kept_lines = kept

    def rows_of(self, text: Content) -> int | None:
        """The rows `text` takes at the width this one was laid out at (None: not known)."""
        width = laid_size(self).width
        if not width or not self.is_mounted:
            return None
        lines = self._by_line(text, width, None, self.visual_style)  # drawn, kept as shown
        return None if lines is None else len(lines)


class DayReportScreen(
    KeepsFrameRowsScreen,
    HidesScreensBehind,
    RestylesOnChange,
    PaintsOverScreens,
    UniformLines,
    ModalScreen[None],
):
    # priority: the report closes as the key reaches the app, not after a trip down to the
    # focused scroll (which takes none of these keys) and back
    BINDINGS = [Binding("escape,enter,space,d", "close", "Close", id="report.close", priority=True)]
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
        self.shown_at = 0  # when it was last shown (`_pick`: 0, a spare never shown)
        # the lines its text drew, by what they show: shared by the app's kept reports
        self.kept_lines: dict[tuple[object, ...], list[Strip]] = {}

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
                text = ReportText(self._text(), id="report-text")
                text.share_lines(self.kept_lines)
                yield text

    def _text(self) -> Content:
        return self.text_of(self.app, self.lines)

    @staticmethod
    def text_of(app: App[Any], lines: Sequence[str]) -> Content:
        """The lines as they are: plain words, never read as markup (a frame's name is the
        player's: `[/]` is shown as typed)."""
        text = "\n".join(lines) or "A quiet day."
        return Content(glyphs_for(app).text(text))

    @property
    def report_text(self) -> ReportText:
        return self.query_one("#report-text", ReportText)

    def rows(self) -> int:
        """The rows the report's text was laid out for."""
        return laid_size(self.report_text).height

    def reopen(
        self, lines: Sequence[str], text: Content | None = None, rows: int | None = None
    ) -> bool:
        """Show `lines` instead, from the top (the kept screen, before it is pushed again),
        as `text` (when given) of `rows` rows (when known) at the width it has: laid out again
        only when that is another number of rows (a report of as many rows as the last one's
        is only drawn, and of it only the lines not drawn before). True when it is laid out
        again."""
        self.lines = list(lines)
        widget = self.report_text
        content = self._text() if text is None else text
        if rows is None:
            rows = widget.rows_of(content)
        laid = rows is None or rows != laid_size(widget).height
        widget.show(content, layout=laid)
        scroll = self.query_one(VerticalScroll)
        if scroll.scroll_x or scroll.scroll_y:
            scroll.scroll_home(animate=False, immediate=True)
        return laid

    def action_close(self) -> None:
        self.draw_behind()  # before the hub is in front again (a key before the first frame)
        self.dismiss(None)


async def prepare_day_report(app: App[Any]) -> None:
    """Make the app's first kept report now (in a pause of the player's: the hub's),
    composed, mounted and laid out but not shown, so that the first day does not compose it."""
    if not app.is_screen_installed(KEPT_NAME):
        report = DayReportScreen([])
        app.install_screen(report, name=KEPT_NAME)
        await start_offscreen(app, report)


def kept_name(index: int) -> str:
    """The installed name of the app's `index`th kept report."""
    return KEPT_NAME if index == 0 else f"{KEPT_NAME}-{index}"


def kept_reports(app: App[Any]) -> list[DayReportScreen]:
    """The app's kept reports, in the order they were made."""
    kept = []
    for index in range(REPORTS_KEPT):
        if not app.is_screen_installed(kept_name(index)):
            break
        screen = app.get_screen(kept_name(index))
        if isinstance(screen, DayReportScreen):
            kept.append(screen)
    return kept


_shown = itertools.count(1)  # the order reports are shown in (the least lately shown: 0)


def _pick(
    app: App[Any], free: list[DayReportScreen], text: Content
) -> tuple[DayReportScreen, int | None]:
    """The free kept report laid out for as many rows as `text` takes (filled again, it is
    only drawn), else the one shown least lately (a spare first), laid out again; and the
    rows `text` takes (None: not known)."""
    at_size = [screen for screen in free if laid_size(screen) == app.size]
    rows = at_size[0].report_text.rows_of(text) if at_size else None
    for screen in at_size:
        if rows is not None and screen.rows() == rows:
            return screen, rows
    return min(free, key=lambda screen: screen.shown_at), rows


def _add_spare(app: App[Any]) -> None:
    """Make one more kept report (not shown, laid out at the app's size, as the first one)
    in a task of its own (`start_offscreen`), after the frame that asked for it."""
    kept = kept_reports(app)
    if len(kept) >= REPORTS_KEPT or not app.is_running:
        return
    spare = DayReportScreen([])
    spare.kept_lines = kept[0].kept_lines if kept else spare.kept_lines
    app.install_screen(spare, name=kept_name(len(kept)))
    app.run_worker(start_offscreen(app, spare), name="day report", group="day report")


def show_day_report(
    app: App[Any], lines: Sequence[str], behind: Callable[[], None] | None = None
) -> None:
    """Push the day report of `lines`: one of the app's kept reports, filled again (a new one
    the first time, and while every kept one is open). `behind` draws the screens under it
    (the hub's day): once the report's frame is out, or as it closes if that is sooner.

    A kept report is laid out for the rows its text takes: a day of two lines and one of
    three take two reports, each filled again with no layout (1.5-2 ms of a day whose rows
    changed, at 80x24: the screen's arrangement and every line of the box drawn again).
    Up to `REPORTS_KEPT` are made, one after the frame of each report that had to be laid out
    again, so that a number of rows seen before finds its report (`_pick`)."""
    kept = kept_reports(app)
    free = [screen for screen in kept if screen.is_mounted and screen not in app.screen_stack]
    if free:
        text = DayReportScreen.text_of(app, lines)
        report, rows = _pick(app, free, text)
        laid = report.reopen(lines, text, rows)
    else:
        report = DayReportScreen(lines)
        if not kept:
            app.install_screen(report, name=KEPT_NAME)
        laid = True
    report.shown_at = next(_shown)
    report.draw_behind()  # a report still owing its screens (two days before one frame)
    report.behind = behind
    app.push_screen(report)
    if behind is not None:
        app.call_after_refresh(report.draw_behind, warm=True)
    if laid and len(kept_reports(app)) < REPORTS_KEPT:
        app.call_after_refresh(_add_spare, app)
