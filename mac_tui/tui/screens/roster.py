"""Roster: the frames with chassis, status, pilot, armour, repair cost and time; repair, rush
repair, sell, rename, assign and unassign pilots."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable

from ...campaign.commands import Assign, RenameFrame, Repair, SellFrame, Unassign
from ...campaign.market import frame_sale_price, sell_frame_refusal
from ...campaign.pilots import assign_refusal
from ...campaign.repair import damage_ratio_percent, full_armor, plan_repair
from ...campaign.state import Frame
from ...catalog import catalog
from ..glyphs import glyphs_for
from ..literal import literal, rich_literal
from ..widgets.detail import DetailPane
from ..widgets.dialogs import AskScreen, ChooseScreen, ConfirmScreen
from ..widgets.section import Section
from ..widgets.table import GameTable

STATUS = {
    "ready": "Ready",
    "damaged": "Damaged",
    "repairing": "Repair",
    "destroyed": "DESTROYED",
}


def frame_status(frame: Frame) -> str:
    """`Ready`, `Damaged 92%` (the armour left), `Repair 3d`, `Refit 2d`, `DESTROYED`."""
    if frame.busy_days:
        work = "Repair" if frame.status == "repairing" else "Refit"
        return f"{work} {frame.busy_days}d"
    if frame.status == "damaged":
        return f"Damaged {armour_percent(frame)}%"
    return STATUS[frame.status]


def armour_percent(frame: Frame) -> int:
    return sum(frame.armor) * 100 // max(1, full_armor(frame))


def frame_name(frame: Frame) -> str:
    """`F1 Enforcer`: the frame's id and name, as every table shows a frame."""
    return f"{frame.id} {frame.name}"


class RosterSection(Section):
    TITLE = "Roster"
    KEY = "1"
    HINT = (
        "These are your frames. Find work in Contracts (6); r repairs a damaged frame. F1 "
        "explains the game."
    )
    HELP = (
        "Your frames. Arrows pick a frame. r repairs it (R rushes: double cost, half time), "
        "p seats a pilot, u unseats one, n renames the frame, x sells it at a market."
    )
    BINDINGS = [
        Binding("r", "repair(False)", "Repair", id="roster.repair"),
        Binding("R", "repair(True)", "Rush", id="roster.rush"),
        Binding("p", "assign", "Pilot", id="roster.assign"),
        Binding("u", "unassign", "Unseat", id="roster.unassign"),
        Binding("n", "rename", "Rename", id="roster.rename"),
        Binding("x", "sell", "Sell", id="roster.sell"),
    ]

    def compose(self) -> ComposeResult:
        yield GameTable(id="frames", cursor_type="row", zebra_stripes=True)
        yield DetailPane(id="frame-detail")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Frame", "Chassis", "Status", "Pilot", "Repair")

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        if getattr(self.app, "session", None) is None:
            return
        table = self.query_one(GameTable)
        cat = catalog()
        rows = []
        for f in self.campaign.frames:
            quote = plan_repair(self.campaign, f.id)
            repair = "-" if isinstance(quote, str) else f"{quote.cost:,}/{quote.days}d"
            designation = cat.chassis[f.chassis].designation
            rows.append(
                (
                    f.id,
                    (
                        rich_literal(frame_name(f)),
                        designation,
                        frame_status(f),
                        f.pilot or "-",
                        repair,
                    ),
                )
            )
        table.fill(rows)  # a day that changed no frame: the rows kept as drawn
        self.show_detail()
        self.refresh_bindings()

    def show_detail(self) -> None:
        frame = self.selected()
        detail = self.query_one("#frame-detail", DetailPane)
        if frame is None:
            detail.show("No frames. Buy a chassis at a market (3).")
            return
        cat = catalog()
        weapons = ", ".join(
            f"{cat.weapons[m.weapon].abbrev}({cat.location(m.mount).abbrev} g{m.group})"
            for m in frame.weapons
        )
        equipment = ", ".join(cat.equipment[e.equipment].name for e in frame.equipment)
        ratio = damage_ratio_percent(frame)
        ch = cat.chassis[frame.chassis]
        lines = [
            f"{frame.name}, {ch.designation} {ch.name} {cat.classes[ch.class_].name}: "
            f"{weapons or 'no weapons'}",
            f"Equipment: {equipment or 'none'} · armour {armour_percent(frame)}% · damage "
            f"{float(ratio):.0f}% · components hit {frame.components}",
        ]
        quote = plan_repair(self.campaign, frame.id)
        lines.append(f"Repair: {quote}" if isinstance(quote, str) else "")
        detail.show(glyphs_for(self).text(literal("\n".join(lines))))  # plain words

    def on_data_table_row_highlighted(self) -> None:
        self.show_detail()
        self.refresh_bindings()

    def footer_token(self) -> object:
        return self.query_one(DataTable).cursor_row  # `selected()`, of the state's frames

    def selected(self) -> Frame | None:
        table = self.query_one(DataTable)
        frames = self.campaign.frames
        if not frames or table.cursor_row < 0 or table.cursor_row >= len(frames):
            return None
        return frames[table.cursor_row]

    # ---- legality -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        frame = self.selected()
        if frame is None:
            return None if action in {"repair", "assign", "unassign", "rename", "sell"} else True
        c = self.campaign
        if action == "repair":
            return None if isinstance(plan_repair(c, frame.id, bool(parameters[0])), str) else True
        if action == "assign":
            return True if self._seatable(frame) else None
        if action == "unassign":
            return True if frame.pilot else None
        if action == "sell":
            return None if sell_frame_refusal(c, frame.id) else True
        return True

    def _seatable(self, frame: Frame) -> list[str]:
        return [
            p.callsign
            for p in self.campaign.pilots
            if assign_refusal(self.campaign, p.callsign, frame.id) is None
        ]

    # ---- actions ------------------------------------------------------------------------
    def action_repair(self, rush: bool) -> None:
        frame = self.selected()
        if frame is None:
            return
        quote = plan_repair(self.campaign, frame.id, rush)
        if isinstance(quote, str):
            self.say(f"Refused: {quote}", warning=True)
            return
        kind = "Rebuild" if quote.rebuild else "Repair"
        work = f"{'Rush ' if rush else ''}{kind}"
        text = f"{work} {literal(frame.name)} for {quote.cost:,} cr, {quote.days} day(s)?"

        def done(ok: bool | None) -> None:
            if ok:
                self.act(Repair(frame.id, rush))

        self.app.push_screen(ConfirmScreen(text), done)

    def action_assign(self) -> None:
        frame = self.selected()
        if frame is None:
            return
        options = []
        for callsign in self._seatable(frame):
            p = self.campaign.pilot(callsign)
            seat = self.campaign.frame_of(callsign)
            where = f", now in {literal(seat.name)}" if seat else ""
            options.append(
                (callsign, f"{callsign}: G{p.gunnery} P{p.piloting} T{p.tactics} {p.status}{where}")
            )
        if not options:
            self.say("Refused: no pilot can take this seat", warning=True)
            return

        def chosen(callsign: str | None) -> None:
            if callsign:
                self.act(Assign(callsign, frame.id))

        self.app.push_screen(ChooseScreen(f"Who flies {literal(frame.name)}?", options), chosen)

    def action_unassign(self) -> None:
        frame = self.selected()
        if frame is not None and frame.pilot:
            self.act(Unassign(frame.pilot))

    def action_rename(self) -> None:
        frame = self.selected()
        if frame is None:
            return

        def named(name: str | None) -> None:
            if name:
                self.act(RenameFrame(frame.id, name))

        self.app.push_screen(AskScreen(f"New name for {literal(frame.name)}:", frame.name), named)

    def action_sell(self) -> None:
        frame = self.selected()
        if frame is None:
            return
        reason = sell_frame_refusal(self.campaign, frame.id)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        price = frame_sale_price(self.campaign, frame.id)
        text = f"Sell {literal(frame.name)} for {price:,} cr? Its gear goes to the inventory."

        def done(ok: bool | None) -> None:
            if ok:
                self.act(SellFrame(frame.id))

        self.app.push_screen(ConfirmScreen(text), done)
