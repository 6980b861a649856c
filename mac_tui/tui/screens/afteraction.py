"""The after-action report (§12, R23, §15.2, §9.2-§9.4): the result, the credits, standing and
reputation, pilots, frames with their repair estimates; the salvage picks (space toggles, Enter
confirms), then the scavenge and bonus finds; head-kill frames for sale (b); done (Enter)."""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from ...campaign import ledger
from ...campaign.accept import faction_name
from ...campaign.commands import BuyWreck, Dismiss, Salvage
from ...campaign.market import list_price
from ...campaign.repair import (
    damage_ratio_percent,
    plan_repair,
    repair_quote,
    wreck_price,
    wreck_repair_cost,
    wreck_repair_days,
)
from ...campaign.salvage import item_name
from ...campaign.state import AfterAction, Campaign, LedgerEntry
from ...catalog import catalog
from ...ruleset import describe_ruleset
from ..battle_words import report_words
from ..glyphs import UNICODE, Glyphs, glyphs_for
from ..literal import literal
from ..widgets.dialogs import ChooseScreen, ConfirmScreen
from ..widgets.footer import GameFooter
from ..widgets.table import GameTable
from .base import GameScreen


def result_mark(result: str, g: Glyphs = UNICODE) -> str:
    """`★ VICTORY`, `↩ WITHDRAWAL`, `✗ DEFEAT`: a mark and the word."""
    marks = {"victory": g.star, "withdrawal": g.back, "defeat": g.no}
    return f"{marks[result]} {result.upper()}" if result in marks else result.upper()


def pilot_mark(status: str, g: Glyphs = UNICODE) -> str:
    """A pilot's state at a glance (the word follows it): fit, injured, killed."""
    return {"active": g.ok, "injured": g.plus, "kia": g.no}.get(status, g.dot)


def mission_ledger(campaign: Campaign, contract_id: str) -> list[LedgerEntry]:
    """The ledger from this contract's deployment on (the reward, wrecks bought...)."""
    pattern = re.compile(rf"\bcontract {re.escape(contract_id)}\b", re.IGNORECASE)
    start = None
    for i, entry in enumerate(campaign.ledger):
        if entry.category == "deployment" and pattern.search(entry.text):
            start = i
    if start is None:
        return [e for e in campaign.ledger if pattern.search(e.text)]
    return list(campaign.ledger[start:])


class AfterActionScreen(GameScreen):
    HELP = (
        "The after-action report. Space picks or drops the highlighted salvage item (up to the "
        "allowance), Enter confirms the picks and reveals what was scavenged; b buys a "
        "head-kill frame; Enter (or Escape) once the salvage is settled goes back to the hub. "
        "Tab moves between the report and the salvage list."
    )
    BINDINGS = [
        Binding("space", "toggle_pick", "Pick", id="afteraction.toggle"),
        Binding("enter", "confirm", "Confirm salvage", id="afteraction.confirm", priority=True),
        Binding("enter,escape", "done", "Done", id="afteraction.done", priority=True),
        Binding("b", "buy_wreck", "Buy wreck", id="afteraction.buy_wreck"),
    ]
    DEFAULT_CSS = """
    AfterActionScreen { layout: vertical; }
    AfterActionScreen #aa-head { height: auto; background: $panel; padding: 0 1; }
    AfterActionScreen #aa-report { height: 1fr; padding: 0 1; }
    AfterActionScreen #salvage-head { height: 1; padding: 0 1; text-style: bold; }
    AfterActionScreen #pool { height: auto; max-height: 7; }
    AfterActionScreen #salvage-foot { height: auto; padding: 0 1; }
    AfterActionScreen #message { height: auto; padding: 0 1; color: $text-muted; }
    AfterActionScreen #message.warning { color: $warning; text-style: bold; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.picks: list[int] = []  # 0-based pool positions, in the order picked

    def compose(self) -> ComposeResult:
        yield Static("", id="aa-head")
        with VerticalScroll(id="aa-report"):
            yield Static("", id="aa-text")
        yield Static("", id="salvage-head")
        yield GameTable(id="pool", cursor_type="row", zebra_stripes=True)
        yield Static("", id="salvage-foot")
        yield Static("", id="message")
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("Pick", "#", "Item", "Value")
        self.refresh_view()
        self.query_one(DataTable).focus()

    # ---- state --------------------------------------------------------------------------
    @property
    def campaign(self) -> Campaign | None:
        session = self.game.session
        return session.state.campaign if session is not None else None

    @property
    def report(self) -> AfterAction | None:
        c = self.campaign
        return c.after_action if c is not None else None

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        c = self.campaign
        aa = self.report
        if c is None or aa is None:
            return
        k = aa.contract
        level = catalog().payout_level(aa.payout_level)
        g = glyphs_for(self)
        self.query_one("#aa-head", Static).update(
            f"[b]{result_mark(aa.result, g)}[/b] {g.sep} contract {k.id}, "
            f"{faction_name(k.employer)} vs {faction_name(k.opponent)} {g.sep} "
            f"difficulty {k.difficulty} {g.sep} {level.name}"
        )
        self.query_one("#aa-text", Static).update(g.text(self.report_text(c, aa)))
        self.draw_pool(aa)
        self.refresh_bindings()

    def report_text(self, c: Campaign, aa: AfterAction) -> str:
        lines = ["[b]Report[/b]", *(report_words(line) for line in aa.report), ""]
        if c.ruleset:  # the optional rules the battle was fought under (O0.1)
            lines[1:1] = [f"Optional rules: {describe_ruleset(c.ruleset)}"]
        lines.append("[b]Credits[/b]")
        entries = mission_ledger(c, aa.contract.id)
        for e in entries:
            lines.append(f"{e.amount:>+12,} cr  {e.text}")
        if entries:
            lines.append(f"{sum(e.amount for e in entries):>+12,} cr  net for this contract")
        lines.append(f"{c.credits:>12,} cr  in hand now")
        lines += ["", "[b]Frames[/b] (repair estimates)"]
        for f in c.frames:
            quote = repair_quote(f)
            if isinstance(quote, str):
                repair = "no repair needed"
            else:
                kind = "rebuild" if quote.rebuild else "repair"
                repair = f"{kind} {quote.cost:,} cr, {quote.days} day(s)"
                plan = plan_repair(c, f.id)
                if isinstance(plan, str):
                    repair += f" ({plan})"
            damage = f"{float(damage_ratio_percent(f)):.0f}% damage"
            lines.append(f"{literal(f.name)} ({f.id}) {f.status} · {damage} · {repair}")
        lines += ["", "[b]Pilots[/b]"]
        for p in c.pilots:
            state = p.status + (f" {p.injury_days}d" if p.status == "injured" else "")
            seat = c.frame_of(p.callsign)
            where = f" in {literal(seat.name)}" if seat is not None else ""
            mark = pilot_mark(p.status, glyphs_for(self))
            lines.append(f"{mark} {p.callsign}: {state}, {p.xp} XP{where}")
        return "\n".join(lines)

    def draw_pool(self, aa: AfterAction) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        self.picks = [i for i in self.picks if i < len(aa.pool)]
        g = glyphs_for(self)
        for i, item in enumerate(aa.pool):
            if aa.revealed:
                mark = g.ok if i in aa.picked else g.dot
            else:
                mark = "[x]" if i in self.picks else "[ ]"
            table.add_row(
                Text(mark), str(i + 1), item_name(item), f"{list_price(item.kind, item.item):,}"
            )
        if table.row_count:
            table.move_cursor(row=min(max(row, 0), table.row_count - 1))
        head = self.query_one("#salvage-head", Static)
        foot: list[str] = []
        if aa.revealed:
            head.update(f"Salvage settled: {len(aa.picked)} item(s) picked")
            found = ", ".join(item_name(i) for i in aa.found) or "nothing more"
            foot.append(f"Scavenged and bonus finds: {found}. Enter: back to the hub.")
        elif not aa.pool:
            head.update("Salvage: nothing in the wreckage")
            foot.append("Enter: see what the crews scavenge.")
        else:
            head.update(
                f"Salvage: {len(self.picks)} of {aa.picks} pick(s) chosen {g.sep} space picks, "
                "Enter confirms"
            )
        for n, offer in enumerate(aa.frame_offers, start=1):
            foot.append(
                f"Wreck {n} (b buys): {offer.name} {offer.chassis} {g.sep} "
                f"{wreck_price(offer.chassis):,} cr, repair {wreck_repair_cost(offer.chassis):,}"
                f"/{wreck_repair_days()}d"
            )
        self.query_one("#salvage-foot", Static).update(g.text("\n".join(foot)))

    def show_message(self, text: str, warning: bool = False) -> None:
        msg = self.query_one("#message", Static)
        msg.update(literal(glyphs_for(self).text(text)))  # plain words: names as typed
        msg.set_class(warning, "warning")

    # ---- legality -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        aa = self.report
        if aa is None:
            return False
        if action == "toggle_pick":
            if aa.revealed:
                return False
            return True if aa.pool and aa.picks > 0 else None
        if action == "confirm":
            return not aa.revealed
        if action == "done":
            return bool(aa.revealed)
        if action == "buy_wreck":
            if not aa.frame_offers:
                return False
            c = self.campaign
            assert c is not None
            affordable = any(
                ledger.short_of(c, wreck_price(o.chassis)) is None for o in aa.frame_offers
            )
            return True if affordable else None
        return True

    # ---- actions ------------------------------------------------------------------------
    def action_toggle_pick(self) -> None:
        aa = self.report
        table = self.query_one(DataTable)
        if aa is None or aa.revealed or not 0 <= table.cursor_row < len(aa.pool):
            return
        i = table.cursor_row
        if i in self.picks:
            self.picks.remove(i)
        elif len(self.picks) >= aa.picks:
            self.show_message(
                f"Refused: you may pick {aa.picks} item(s); drop one first", warning=True
            )
            return
        else:
            self.picks.append(i)
        self.draw_pool(aa)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_toggle_pick()

    def action_confirm(self) -> None:
        aa = self.report
        if aa is None or aa.revealed:
            return
        picks = "+".join(str(i + 1) for i in sorted(self.picks)) or "-"
        left = min(aa.picks, len(aa.pool)) - len(self.picks)
        if left <= 0:
            self.act(Salvage(picks))
            return
        names = ", ".join(item_name(aa.pool[i]) for i in sorted(self.picks)) or "nothing"
        text = f"Take {names}? {left} pick(s) would go unused."

        def done(ok: bool | None) -> None:
            if ok:
                self.act(Salvage(picks))

        self.app.push_screen(ConfirmScreen(text, yes="Take"), done)

    def act(self, command: Salvage | BuyWreck | Dismiss) -> bool:
        return self.game.act(command)

    def action_done(self) -> None:
        aa = self.report
        if aa is None or not aa.revealed:
            return
        if not self.act(Dismiss()):
            return
        if not self.is_current:
            return  # the run ended: the debrief is in front
        self.game.show_hub()

    def action_buy_wreck(self) -> None:
        aa = self.report
        c = self.campaign
        if aa is None or c is None or not aa.frame_offers:
            return

        def confirm(index: int) -> None:
            offer = aa.frame_offers[index - 1]
            price = wreck_price(offer.chassis)
            text = (
                f"Buy the {offer.name} wreck for {price:,} cr? Its repair costs "
                f"{wreck_repair_cost(offer.chassis):,} cr and {wreck_repair_days()} days."
            )

            def done(ok: bool | None) -> None:
                if ok:
                    self.act(BuyWreck(index))

            self.app.push_screen(ConfirmScreen(text, yes="Buy"), done)

        if len(aa.frame_offers) == 1:
            confirm(1)
            return
        options = [
            (str(n), f"{o.name} ({o.chassis}): {wreck_price(o.chassis):,} cr")
            for n, o in enumerate(aa.frame_offers, start=1)
        ]

        def chosen(value: str | None) -> None:
            if value:
                confirm(int(value))

        self.app.push_screen(ChooseScreen("Which wreck?", options), chosen)
