"""Market: the stock here (chassis, weapons, equipment) with list price and your price, the
inventory with what it sells for, fuel. Buy, sell and refuel; exclusives show their lock."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import DataTable

from ...campaign.commands import Buy, BuyFuel, Sell
from ...campaign.common import campaign_refusal
from ...campaign.market import (
    InventoryRow,
    MarketRow,
    buy_refusal,
    fuel_cost,
    fuel_refusal,
    fuel_room,
    has_market,
    inventory_rows,
    market_rows,
    no_market,
    price_percent,
    sell_refusal,
)
from ...campaign.state import count_of
from ...catalog import catalog
from ..glyphs import glyphs_for
from ..internals import ParksChildren, focus_in_place, place_keeping_lines
from ..widgets.detail import DetailPane
from ..widgets.dialogs import AskScreen, ConfirmScreen
from ..widgets.section import Section
from ..widgets.table import GameTable
from ..widgets.view_line import ViewLine

View = Literal["stock", "inventory"]
KIND_LABEL = {"weapon": "Weapon", "chassis": "Chassis", "equipment": "Equipment"}


Cell = str | Text


def fill_table(
    table: DataTable[Cell], labels: Sequence[str], rows: Sequence[Sequence[Cell]]
) -> None:
    """Replace a table's columns and rows. Column widths are set from the cells here: auto
    widths are measured later, on idle, and a redraw before that would show them cut."""
    table.clear(columns=True)
    for n, label in enumerate(labels):
        table.add_column(label, width=max(cell_len(str(r[n])) for r in (labels, *rows)))
    for r in rows:
        table.add_row(*r)


def right(text: str) -> Text:
    return Text(text, justify="right")


def item_facts(kind: str, item: str) -> str:
    """One line of catalog facts about an item: what a buyer wants to know."""
    cat = catalog()
    if kind == "weapon":
        w = cat.weapons[item]
        rc = cat.range_class(w.range)
        parts = [
            f"{w.name} ({w.abbrev}): {w.size} {w.type}",
            f"damage {w.damage}",
            f"energy {w.energy}",
            f"range {rc.name} (best {rc.optimal_min}-{rc.optimal_max}, max {rc.max_range})",
            f"accuracy {w.accuracy}%",
            f"space {w.space}",
            f"{w.size} hardpoint",
        ]
        if w.ammo_per_shot:
            parts.append(f"ammo/shot {w.ammo_per_shot}")
        if w.indirect:
            parts.append("indirect fire")
        if w.stress_on_hit:
            parts.append(f"+{w.stress_on_hit} stress on hit")
        if w.faction in cat.factions:
            exclusive = "exclusive" if w.exclusive else "make"
            parts.append(f"{cat.factions[w.faction].short} {exclusive}")
        return " · ".join(parts)
    if kind == "chassis":
        ch = cat.chassis[item]
        hp = ch.hardpoints
        return " · ".join(
            [
                f"{ch.designation} {ch.name}: {cat.classes[ch.class_].name} {ch.tonnage}t",
                f"armour {ch.armor}",
                f"reactor {ch.reactor}",
                f"speed {ch.speed}",
                f"evasion {ch.evasion}%",
                f"space {ch.space}",
                f"hardpoints S{len(hp.small)} M{len(hp.medium)} L{len(hp.large)}",
            ]
        )
    e = cat.equipment[item]
    slot = f", {e.slot_size} slot" if e.slot_size != "none" else ""
    return f"{e.name}: {e.category}{slot} · space {e.space} · energy {e.energy} · {e.description}"


class ViewSwitch(ViewLine):
    """One line: the two views (click to switch), fuel, or why there is no market."""

    DEFAULT_CSS = "ViewSwitch { height: 1; padding: 0 1; background: $surface; }"

    class Picked(Message):
        def __init__(self, view: View) -> None:
            super().__init__()
            self.view = view

    def action_pick(self, view: str) -> None:
        self.post_message(self.Picked("inventory" if view == "inventory" else "stock"))


class MarketSection(ParksChildren, Section):
    TITLE = "Market"
    KEY = "3"
    HINT = (
        "b buys; bought weapons wait in the inventory (Tab) for the Refit bay (4). Other "
        "systems' markets sell other gear."
    )
    HELP = (
        "The market here and your inventory; Tab (or a click on the view names) switches "
        "between them. Arrows pick an item. In the stock, b buys (Enter or a click on the "
        "highlighted row too); exclusive weapons are sold on order to Allied companies only "
        "and show a lock below that. In the inventory, s sells at half the list price. "
        "f buys fuel. Prices include your standing discount with the local faction."
    )
    BINDINGS = [
        # priority: run as the key reaches the app (see `GameTable`'s keys)
        Binding("tab", "view('inventory')", "Inventory", id="market.inventory", priority=True),
        Binding("tab", "view('stock')", "Stock", id="market.stock", priority=True),
        Binding("b", "buy", "Buy", id="market.buy"),
        Binding("s", "sell", "Sell", id="market.sell"),
        Binding("f", "fuel", "Fuel", id="market.fuel"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.market_view: View = "stock"
        self.stock: tuple[MarketRow, ...] = ()
        self.inventory: tuple[InventoryRow, ...] = ()
        self._filled: dict[View, object] = {}  # the state each view's table was filled from

    def compose(self) -> ComposeResult:
        yield ViewSwitch(id="market-view")
        # A table per view, the other one hidden: Tab shows the other, filled again only when
        # the state changed since (refilling the one table cost 13-16 ms a Tab, two frames)
        yield GameTable(id="market-table", cursor_type="row", zebra_stripes=True)
        inventory = GameTable(id="market-inventory", cursor_type="row", zebra_stripes=True)
        inventory.display = inventory.can_focus = False  # (the hub focuses the focusable)
        yield inventory
        yield DetailPane(id="market-detail", classes="detail")

    def table(self) -> DataTable[Cell]:
        """The table of the view shown."""
        name = "#market-table" if self.market_view == "stock" else "#market-inventory"
        return self.query_one(name, GameTable)

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return
        c = self.campaign
        self.stock = market_rows(c)
        self.inventory = inventory_rows(c)
        self._fill()
        self.show_switch()
        self.show_detail()
        self.refresh_bindings()

    def _fill(self) -> None:
        """Fill the table of the view shown from the rows of the state (its cursor kept)."""
        table = self.table()
        self._filled[self.market_view] = self.state
        row = table.cursor_row
        if self.market_view == "stock":
            labels = ["Kind", "Item", "Qty", "List", "Yours", "Gate"]
            fill_table(table, labels, [self._stock_cells(r) for r in self.stock])
        else:
            labels = ["Kind", "Item", "Have", "Sells for", "All"]
            cells = [
                (
                    KIND_LABEL[i.kind],
                    i.name,
                    right(str(i.count)),
                    right(f"{i.sell_price:,}"),
                    right(f"{i.count * i.sell_price:,}"),
                )
                for i in self.inventory
            ]
            fill_table(table, labels, cells)
        if table.row_count:
            table.move_cursor(row=min(max(row, 0), table.row_count - 1))

    def _stock_cells(self, r: MarketRow) -> tuple[Cell, ...]:
        if r.locked:
            gate: Cell = Text(f"{glyphs_for(self).lock} locked", style="bold")
        elif r.exclusive:
            gate = "exclusive"
        else:
            gate = ""
        qty = "order" if r.qty is None else str(r.qty)
        return (
            KIND_LABEL[r.kind],
            r.name,
            right(qty),
            right(f"{r.list_price:,}"),
            right(f"{r.your_price:,}"),
            gate,
        )

    def show_switch(self) -> None:
        c = self.campaign
        g = glyphs_for(self)
        mark = g.current
        parts = []
        for view, label, n in (
            ("stock", "Stock", len(self.stock)),
            ("inventory", "Inventory", len(self.inventory)),
        ):
            text = f" {mark if view == self.market_view else ' '} {label} ({n}) "
            if view == self.market_view:
                parts.append(f"[reverse bold]{text}[/]")
            else:
                parts.append(f"[@click=pick('{view}')]{text}[/]")
        capacity = catalog().galaxy.travel.fuel_capacity
        fuel_price = fuel_cost(1)
        if not has_market(c):
            tail = f"  {g.none} NO MARKET at {catalog().places[c.place].name}"
        else:
            tail = f"  Fuel {c.fuel}/{capacity} at {fuel_price:,} cr/unit"
        self.query_one(ViewSwitch).show("".join(parts) + tail)

    def show_detail(self) -> None:
        detail = self.query_one("#market-detail", DetailPane)
        c = self.campaign
        lines: list[str] = []
        if self.market_view == "stock":
            r = self.selected_stock()
            if not has_market(c):
                lines.append(f"{no_market(c)}: nothing is bought or sold here, fuel included.")
                lines.append("Travel to a place with a market (5 Galaxy).")
            elif r is None:
                lines.append("Nothing on offer here this week.")
            else:
                lines.append(item_facts(r.kind, r.item))
                have = self._held(r.kind, r.item)
                offer = "on order" if r.qty is None else f"{r.qty} in stock"
                lines.append(
                    f"Your price {r.your_price:,} cr ({price_percent(c)}% of list "
                    f"{r.list_price:,}) · {offer} · you hold {have}"
                )
                reason = buy_refusal(c, r.kind, r.item, 1)
                if reason:
                    lines.append(f"Buy (b) greyed: {reason}.")
        else:
            i = self.selected_inventory()
            if i is None:
                lines.append("The inventory is empty: weapons and equipment you buy, salvage or")
                lines.append("strip from frames wait here.")
            else:
                percent = catalog().economy.prices.sell_percent
                lines.append(item_facts(i.kind, i.item))
                lines.append(
                    f"You hold {i.count} · sells for {i.sell_price:,} cr each ({percent}% of "
                    f"list), {i.count * i.sell_price:,} for all"
                )
                reason = sell_refusal(c, i.kind, i.item, 1)
                if reason:
                    lines.append(f"Sell (s) greyed: {reason}.")
        detail.show(glyphs_for(self).text("\n".join(lines)))

    def _held(self, kind: str, item: str) -> int:
        c = self.campaign
        if kind == "chassis":
            return sum(1 for f in c.frames if f.chassis == item)
        return count_of(c.weapons if kind == "weapon" else c.equipment, item)

    def footer_token(self) -> object:
        # the view and the row under the cursor (the rows are drawn from the state)
        return (self.market_view, self.table().cursor_row)

    def selected_stock(self) -> MarketRow | None:
        row = self.table().cursor_row
        ok = self.market_view == "stock" and 0 <= row < len(self.stock)
        return self.stock[row] if ok else None

    def selected_inventory(self) -> InventoryRow | None:
        row = self.table().cursor_row
        ok = self.market_view == "inventory" and 0 <= row < len(self.inventory)
        return self.inventory[row] if ok else None

    # ---- events -------------------------------------------------------------------------
    def on_data_table_row_highlighted(self) -> None:
        self.show_detail()
        self.refresh_bindings()

    def on_data_table_row_selected(self) -> None:
        action = "buy" if self.market_view == "stock" else "sell"
        if not self.check_action(action, ()):
            return
        if action == "buy":
            self.action_buy()
        else:
            self.action_sell()

    def on_view_switch_picked(self, event: ViewSwitch.Picked) -> None:
        self.action_view(event.view)

    # ---- legality -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        if action == "view":
            return parameters[0] != self.market_view  # the other view's switch only
        if action == "buy" and self.market_view != "stock":
            return False
        if action == "sell" and self.market_view != "inventory":
            return False
        if action not in ("buy", "sell", "fuel"):
            return True
        if campaign_refusal(self.state) is not None:
            return None
        c = self.campaign
        if action == "fuel":
            return None if fuel_refusal(c, 1) else True
        if action == "buy":
            r = self.selected_stock()
            return None if r is None or buy_refusal(c, r.kind, r.item, 1) else True
        i = self.selected_inventory()
        return None if i is None or sell_refusal(c, i.kind, i.item, 1) else True

    # ---- actions ------------------------------------------------------------------------
    def action_view(self, view: str) -> None:
        """Show the other view's table (filled again only if the state changed since)."""
        shown: View = "inventory" if view == "inventory" else "stock"
        if shown == self.market_view:
            return
        hidden = self.table()
        place_keeping_lines(self, hidden, False)  # parked: no Hide, keeps its look of focus
        hidden.can_focus = False
        self.market_view = shown
        table = self.table()
        place_keeping_lines(self, table, True)  # its lines drawn before kept
        table.can_focus = True
        if self._filled.get(shown) is not self.state:
            self._fill()
        self.show_switch()
        self.show_detail()
        self.refresh_bindings()
        focus_in_place(self.screen, table)

    def _ask_quantity(self, prompt: str, default: int, then: Callable[[int], object]) -> None:
        def answered(text: str | None) -> None:
            if text is None:
                return
            text = text.strip()
            if not text.isdigit() or int(text) < 1:
                self.say(f"Refused: a quantity is a whole number, 1 or more, not {text!r}", True)
                return
            then(int(text))

        self.app.push_screen(AskScreen(prompt, str(default)), answered)

    def action_buy(self) -> None:
        r = self.selected_stock()
        if r is None:
            return
        c = self.campaign
        reason = buy_refusal(c, r.kind, r.item, 1)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return

        def confirm(qty: int) -> None:
            reason = buy_refusal(self.campaign, r.kind, r.item, qty)
            if reason:
                self.say(f"Refused: {reason}", warning=True)
                return
            total = qty * r.your_price
            if r.kind == "chassis":
                text = f"Buy {r.name} for {total:,} cr? It is delivered as a new frame, no pilot."
            else:
                text = f"Buy {qty} x {r.name} for {total:,} cr ({r.your_price:,} each)?"

            def done(ok: bool | None) -> None:
                if ok:
                    self.act(Buy(r.kind, r.item, qty))

            self.app.push_screen(ConfirmScreen(text), done)

        if r.kind == "chassis":
            confirm(1)
            return
        offer = "sold on order" if r.qty is None else f"{r.qty} in stock"
        prompt = f"How many {r.name}? {r.your_price:,} cr each, {offer}; you have {c.credits:,}."
        self._ask_quantity(prompt, 1, confirm)

    def action_sell(self) -> None:
        i = self.selected_inventory()
        if i is None:
            return
        reason = sell_refusal(self.campaign, i.kind, i.item, 1)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return

        def confirm(qty: int) -> None:
            reason = sell_refusal(self.campaign, i.kind, i.item, qty)
            if reason:
                self.say(f"Refused: {reason}", warning=True)
                return
            text = f"Sell {qty} x {i.name} for {qty * i.sell_price:,} cr ({i.sell_price:,} each)?"

            def done(ok: bool | None) -> None:
                if ok:
                    self.act(Sell(i.kind, i.item, qty))

            self.app.push_screen(ConfirmScreen(text), done)

        if i.count == 1:
            confirm(1)
            return
        prompt = f"Sell how many {i.name}? You hold {i.count}; {i.sell_price:,} cr each."
        self._ask_quantity(prompt, 1, confirm)

    def action_fuel(self) -> None:
        c = self.campaign
        reason = fuel_refusal(c, 1)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        room = fuel_room(c)
        capacity = catalog().galaxy.travel.fuel_capacity
        prompt = (
            f"Fuel: {fuel_cost(1):,} cr a unit. Tanks {c.fuel}/{capacity}; {room} units fill "
            f"them ({fuel_cost(room):,} cr). How many units?"
        )
        self._ask_quantity(prompt, room, lambda units: self.act(BuyFuel(units)))
