"""The pilot sheet: one pilot's skills and service record (missions, victories, kills,
injuries, ejections, frames flown, days of service; docs/rulings.md P2), opened with `s` on the
pilots section."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...campaign.calendar import date_text
from ...campaign.state import Campaign, Pilot
from ...catalog import catalog
from ..glyphs import glyphs_for
from ..internals import HidesScreensBehind, OneFrame, RestylesOnChange
from ..literal import literal
from ..widgets.dialogs import DIALOG_CSS
from ..widgets.uniform import UniformLines


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def sheet_lines(campaign: Campaign, pilot: Pilot) -> list[str]:
    """The sheet's text, a line each (the dialog wraps a long one)."""
    rec = pilot.record
    frame = campaign.frame_of(pilot.callsign)
    if pilot.status == "kia":
        where = "killed in action"
    elif frame is not None:
        where = f"flies {frame.name} ({frame.id})"
    else:
        where = "flies no frame"
    if pilot.status == "injured":
        where += f", injured {_count(pilot.injury_days, 'day')}"
    top = catalog().pilots.skills.max
    lines = [
        f"{pilot.callsign}: {where}",
        f"Gunnery {pilot.gunnery}/{top} · Piloting {pilot.piloting}/{top} · "
        f"Tactics {pilot.tactics}/{top}",
        f"Morale {pilot.morale} · {pilot.xp:,} XP to spend",
        "",
    ]
    if rec.hired_day is None:
        lines.append("Service: joined before the record began (an older save)")
    else:
        days = campaign.day - rec.hired_day
        lines.append(f"Service: since {date_text(rec.hired_day)} ({_count(days, 'day')})")
    others = rec.missions - rec.victories
    missions = f"Missions: {rec.missions}"
    if rec.missions:
        missions += f" ({_count(rec.victories, 'victory', 'victories')}, {others} other)"
    lines.append(missions)
    lines.append(f"Kills: {rec.kills} · Injuries: {rec.injuries} · Ejections: {rec.ejections}")
    flown = ", ".join(rec.frames) if rec.frames else "none yet"
    lines.append(f"Frames flown: {flown}")
    return lines


class PilotSheetScreen(
    HidesScreensBehind, RestylesOnChange, OneFrame, UniformLines, ModalScreen[None]
):
    """A pilot's sheet; Escape, Enter or `s` closes it. The pilots section installs one and
    opens it again on each pilot (`reopen`): `s` builds no screen, no widgets, no styles
    after the first time (a new sheet cost some 9-10 ms of CPU a press, 13-15 to its last
    frame). Its background is opaque (app.tcss), so the hub under it shows nothing: it is
    out of Textual's frame work while the sheet is open (`internals.HidesScreensBehind`: no
    hand-on of its repaints, nor its footer's keys read as it is suspended), and the
    background, one colour, is drawn for one line and repeated (`UniformLines`: its 24
    lines at 80x24 were drawn anew by every opening, 0.65 ms of `s`'s 3.4)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PilotSheetScreen")
    BINDINGS = [Binding("escape,enter,s", "close", "Close", id="sheet.close")]

    def __init__(self, campaign: Campaign, pilot: Pilot) -> None:
        super().__init__()
        self.lines = sheet_lines(campaign, pilot)

    def _text(self) -> str:
        return glyphs_for(self.app).text(literal("\n".join(self.lines)) + "\n\nEsc closes")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._text(), classes="prompt", id="sheet")

    def reopen(self, campaign: Campaign, pilot: Pilot) -> None:
        """The sheet of `pilot` now (the same screen, opened again): laid out again only when
        its text takes another number of rows at the width it has (Textual's own measure,
        which the layout then finds kept), and painted in one frame (`OneFrame`: the new
        text's layout, asked for by the sheet's widget, is waited for; Textual painted the
        sheet first with the last pilot's layout, then again)."""
        lines = sheet_lines(campaign, pilot)
        if lines != self.lines:
            self.lines = lines
            if self.is_mounted:
                sheet = self.query_one("#sheet", Static)
                sheet.update(self._text(), layout=False)
                size = sheet.size
                rows = sheet.get_content_height(size, size, size.width) if size.width else -1
                if rows != size.height:
                    sheet.refresh(layout=True)

    def action_close(self) -> None:
        self.dismiss(None)
