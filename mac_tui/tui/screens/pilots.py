"""Pilots: callsign, skills, morale, status, the frame each flies and XP; hire a pilot where
there is a hiring hall, seat a pilot in a frame or take him out of it."""

from __future__ import annotations

from functools import cached_property

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable

from ...campaign.commands import Assign, Hire, Train, Unassign
from ...campaign.common import campaign_refusal
from ...campaign.pilots import SKILLS, assign_refusal, hire_refusal, train_cost, train_refusal
from ...campaign.state import Frame, Pilot
from ...catalog import catalog
from ...combat.formations import slots
from ..glyphs import glyphs_for
from ..internals import KeepsArrangements
from ..literal import literal
from ..widgets.detail import DetailPane
from ..widgets.dialogs import ChooseScreen, ConfirmScreen
from ..widgets.kept_screen import KeptScreen
from ..widgets.section import Section
from ..widgets.table import GameTable
from .market import fill_table
from .pilot_sheet import PilotSheetScreen

PILOT_ACTIONS = {"assign", "unassign", "train"}
VIEW_ACTIONS = {"sheet"}  # looking, never refused by the campaign's state
COLUMNS = ["Callsign", "Gun", "Pil", "Tac", "Status", "Frame", "XP"]


def pilot_status(pilot: Pilot) -> str:
    """Active / Injured 3d / KIA, in words (never colour alone)."""
    if pilot.status == "kia":
        return "KIA"
    if pilot.status == "injured":
        return f"Injured {pilot.injury_days}d"
    return "Active"


def frame_label(frame: Frame) -> str:
    ch = catalog().chassis[frame.chassis]
    return f"{frame.id} {frame.name} ({ch.designation})"


def hire_terms() -> str:
    """What a hire costs and what the rolls can give (§9.3), from the catalog."""
    h = catalog().pilots.hiring

    def span(values: tuple[int, ...]) -> str:
        return f"{min(values)}-{max(values)}"

    return (
        f"{h.cost:,} cr · rolled skills G{span(h.gunnery_d6)} P{span(h.piloting_d6)} "
        f"T{span(h.tactics_d6)}, morale {h.morale_base + 1}-{h.morale_base + h.morale_die}"
    )


def training_text(pilot: Pilot) -> str:
    """The next level of each skill and its price in XP (ruling P1), or that it is the top."""
    top = catalog().pilots.skills.max
    parts = []
    for s in SKILLS:
        level = getattr(pilot, s)
        parts.append(f"{s} {level + 1} for {train_cost(pilot, s)}" if level < top else f"{s} top")
    return ", ".join(parts)


def command_text(tactics: int) -> str:
    """O9.8: what a pilot's Tactics earns in battle under the commanders' rule."""
    n = slots(tactics)
    if not n:
        return f"Commander (O9): Tactics {tactics} earns no ability (3-4 one, 5+ two)."
    names = ", ".join(a.name for a in catalog().formations.ability)
    many = "one ability" if n == 1 else "two different abilities"
    return f"Commander (O9): Tactics {tactics} earns {many}, once a battle each: {names}."


class PilotsSection(KeepsArrangements, Section):
    TITLE = "Pilots"
    KEY = "2"
    HINT = (
        "Gunnery adds to hit chances; Piloting acts first and survives head hits. h hires a "
        "pilot where there is a hiring hall."
    )
    HELP = (
        "Your pilots: gunnery (+accuracy), piloting (initiative, head survival), tactics, "
        "morale, status and the frame each flies. Arrows pick a pilot. h hires a pilot where "
        "there is a hiring hall, a seats the pilot in a frame (Enter or a click on the "
        "highlighted row too), u takes him out of his frame. t trains a skill with the "
        "pilot's experience: a level costs the current level times "
        f"{catalog().pilots.training.xp_per_level} XP (ruling P1), up to "
        f"{catalog().pilots.skills.max}. s opens the pilot's sheet: the service record "
        "(missions, victories, kills, injuries, ejections, frames flown, days of service)."
    )
    BINDINGS = [
        Binding("h", "hire", "Hire", id="pilots.hire"),
        Binding("a", "assign", "Assign", id="pilots.assign"),
        Binding("u", "unassign", "Unassign", id="pilots.unassign"),
        Binding("t", "train", "Train", id="pilots.train"),
        # priority: run as the key reaches the app, not after it went down to the focused
        # table and climbed back through the section, the stack and the screen
        Binding("s", "sheet", "Sheet", id="pilots.sheet", priority=True),
    ]

    @cached_property
    def _sheet(self) -> KeptScreen[PilotSheetScreen]:
        """The pilot sheet, installed once opened."""
        return KeptScreen(self, "pilot-sheet")

    def compose(self) -> ComposeResult:
        yield GameTable(id="pilots", cursor_type="row", zebra_stripes=True)
        yield DetailPane(id="pilot-detail", classes="detail")

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return
        table = self.query_one(DataTable)
        row = table.cursor_row
        c = self.campaign
        rows = []
        for p in c.pilots:
            frame = c.frame_of(p.callsign)
            style = "dim" if p.status == "kia" else ""
            cells = (
                p.callsign,
                str(p.gunnery),
                str(p.piloting),
                str(p.tactics),
                pilot_status(p),
                f"{frame.id} {frame.name}" if frame else "-",
                f"{p.xp:,}",
            )
            rows.append([Text(cell, style=style) for cell in cells])
        fill_table(table, COLUMNS, rows)
        if c.pilots:
            table.move_cursor(row=min(max(row, 0), len(c.pilots) - 1))
        self.show_detail()
        self.refresh_bindings()

    # (state, settings, row -> detail text): the texts of the state and settings drawn
    _details: tuple[object, object, dict[int, str]] | None = None

    def show_detail(self) -> None:
        """The highlighted pilot's lines, made once per state, settings (the glyphs) and row
        (Home and End, or a cursor going back, show a row's again: the engine's refusals and
        the training costs asked once)."""
        state, settings = self.state, getattr(self.app, "settings", None)
        kept = self._details
        if kept is None or kept[0] is not state or kept[1] is not settings:
            kept = self._details = (state, settings, {})
        row = self.query_one(DataTable).cursor_row
        text = kept[2].get(row)
        if text is None:
            text = kept[2][row] = self._detail_text()
        self.query_one("#pilot-detail", DetailPane).show(text)

    def _detail_text(self) -> str:
        c = self.campaign
        pilot = self.selected()
        lines: list[str] = []
        if pilot is None:
            lines.append("No pilots: hire one (h) where there is a hiring hall.")
        else:
            frame = c.frame_of(pilot.callsign)
            if pilot.status == "kia":
                where = "killed in action"
            elif frame is not None:
                ch = catalog().chassis[frame.chassis]
                cls = catalog().classes[ch.class_].name
                where = f"flies {literal(frame.name)} ({frame.id}, {ch.designation} {cls})"
            else:
                where = "flies no frame: a seats him"
            if pilot.status == "injured":
                days = pilot.injury_days
                where += f"; injured, back in {days} day{'' if days == 1 else 's'}"
            lines.append(
                f"{pilot.callsign} {where} · G{pilot.gunnery} P{pilot.piloting} "
                f"T{pilot.tactics} · morale {pilot.morale} · {pilot.xp} XP"
            )
        if pilot is not None and "O9" in c.ruleset:
            lines.append(command_text(pilot.tactics))
        if pilot is not None and pilot.status != "kia":
            lines.append(f"Train (t), {pilot.xp} XP: {training_text(pilot)}.")
        reason = hire_refusal(c)
        if reason:
            lines.append(f"Hire (h) greyed: {reason}.")
        else:
            lines.append(f"Hire (h): {hire_terms()}.")
        return glyphs_for(self).text("\n".join(lines))

    def on_data_table_row_highlighted(self) -> None:
        self.show_detail()
        self.refresh_bindings()

    def on_data_table_row_selected(self) -> None:
        if self.check_action("assign", ()):
            self.action_assign()

    def footer_token(self) -> object:
        return self.query_one(DataTable).cursor_row  # `selected()`, of the state's pilots

    def selected(self) -> Pilot | None:
        table = self.query_one(DataTable)
        pilots = self.campaign.pilots
        if not pilots or table.cursor_row < 0 or table.cursor_row >= len(pilots):
            return None
        return pilots[table.cursor_row]

    # ---- legality -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        if action in VIEW_ACTIONS:
            return True if self.selected() is not None else None
        if campaign_refusal(self.state) is not None:
            return None if action in PILOT_ACTIONS | {"hire"} else True
        if action == "hire":
            return None if hire_refusal(self.campaign) else True
        pilot = self.selected()
        if action in PILOT_ACTIONS and pilot is None:
            return None
        if action == "assign" and pilot is not None:
            return True if self._frames_for(pilot) else None
        if action == "train" and pilot is not None:
            return True if pilot.status != "kia" else None
        if action == "unassign" and pilot is not None:
            return True if self.campaign.frame_of(pilot.callsign) else None
        return True

    def _frames_for(self, pilot: Pilot) -> list[Frame]:
        c = self.campaign
        return [f for f in c.frames if assign_refusal(c, pilot.callsign, f.id) is None]

    # ---- actions ------------------------------------------------------------------------
    def action_hire(self) -> None:
        reason = hire_refusal(self.campaign)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return

        def done(ok: bool | None) -> None:
            if ok and self.act(Hire()):
                table = self.query_one(DataTable)
                table.move_cursor(row=len(self.campaign.pilots) - 1)

        self.app.push_screen(ConfirmScreen(f"Hire a pilot? {hire_terms()}."), done)

    def action_assign(self) -> None:
        pilot = self.selected()
        if pilot is None:
            return
        c = self.campaign
        options = []
        for f in self._frames_for(pilot):
            ch = catalog().chassis[f.chassis]
            status = f.status.capitalize() + (f" (busy {f.busy_days}d)" if f.busy_days else "")
            seat = f"flown by {f.pilot}" if f.pilot else "empty seat"
            cls = catalog().classes[ch.class_].name
            options.append((f.id, f"{literal(frame_label(f))} {cls} · {status} · {seat}"))
        if not options:
            self.say(f"Refused: no frame can take {pilot.callsign}", warning=True)
            return
        callsign = pilot.callsign
        current = c.frame_of(callsign)
        title = f"Which frame does {callsign} fly?"
        if current is not None:
            title += f" (now {literal(current.name)})"

        def chosen(frame_id: str | None) -> None:
            if frame_id:
                self.act(Assign(callsign, frame_id))

        self.app.push_screen(ChooseScreen(title, options), chosen)

    def action_train(self) -> None:
        pilot = self.selected()
        if pilot is None:
            return
        c = self.campaign
        callsign = pilot.callsign
        options = [
            (
                s,
                f"{s.capitalize()} {getattr(pilot, s)} to {getattr(pilot, s) + 1}: "
                f"{train_cost(pilot, s)} XP",
            )
            for s in SKILLS
            if train_refusal(c, callsign, s) is None
        ]
        if not options:
            nearest = min(
                (s for s in SKILLS if getattr(pilot, s) < catalog().pilots.skills.max),
                key=lambda s: train_cost(pilot, s),
                default=None,
            )
            why = (
                train_refusal(c, callsign, nearest)
                if nearest
                else f"{callsign}'s skills are all at the top"
            )
            self.say(f"Refused: {why}", warning=True)
            return

        def chosen(skill: str | None) -> None:
            if skill:
                self.act(Train(callsign, skill))

        title = f"Train {callsign} ({pilot.xp} XP):"
        self.app.push_screen(ChooseScreen(title, options), chosen)

    def action_sheet(self) -> None:
        pilot = self.selected()
        if pilot is None:
            return
        campaign = self.campaign
        # Installed, the sheet is kept between two openings: s builds no widgets again.
        self._sheet.open(
            lambda: PilotSheetScreen(campaign, pilot), lambda s: s.reopen(campaign, pilot)
        )

    def on_unmount(self) -> None:
        self._sheet.forget()

    def action_unassign(self) -> None:
        pilot = self.selected()
        if pilot is not None and self.campaign.frame_of(pilot.callsign) is not None:
            self.act(Unassign(pilot.callsign))
