"""The market (§11.1, §11.7, §11.8, §14.3, §15.1, §15.3, R27): weekly stock per location, prices
with the standing discount, buying and selling items, frames and fuel.

Stock (§11.8): every weapon, chassis and equipment item available at the location's controlling
faction (universal items plus that faction's; a contested system offers universal items only)
is rolled on its own: d100 + standing bonus against its tier's threshold, in catalog file order
(weapons, chassis, equipment). The standing bonus is standing // 50 with the controller,
clamped to the section's 0-10 (contested: 0). Items that pass get a quantity in the tier's
range. A location's stock is kept in `campaign.markets` and rolled again once it is a week old
(`economy.market.refresh_days`), when the company is there.

Prices (§11.7, R27): the list price is the weapon's or equipment's price, or the chassis'
class price (§11.1). Bought items cost the list price times the `price_percent` of the standing
level with the location's controlling faction (contested: full price), rounded half up to whole
credits per unit. Fuel (§14.3) costs its flat price, undiscounted. Selling pays
`sell_percent` of the list price, undiscounted, rounded down.

Exclusive weapons (§7.4, §11.8, §15.1): never part of the rolled stock. A market in the
weapon's faction's territory sells them on order (no stock limit) to a company with the
`exclusive_level` standing (Allied, 200+) or better with that faction; below it they show as
locked.

A location without a market sells nothing, fuel included (setup-facts).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import cast

import attrs
from attrs import frozen

from ..catalog import UNIVERSAL, catalog
from ..catalog.records import MarketTierId
from ..combat.stats import armor_split, full_structure
from ..core import Checks, Event, Handlers
from ..dice import MARKET, Dice
from ..ruleset import Ruleset
from . import ledger
from .commands import Buy, BuyFuel, Sell, SellFrame
from .common import Change, campaign_checks, campaign_handler
from .events import Report
from .state import Campaign, Frame, ItemKind, Market, Stock, add_count, count_of

KINDS: tuple[ItemKind, ...] = ("weapon", "equipment", "chassis")


# ---- items ----------------------------------------------------------------------------------
def known_item(kind: str, item: str) -> str | None:
    """Why `kind item` names nothing in the catalog, or None when it does."""
    cat = catalog()
    tables: dict[str, Collection[str]] = {
        "weapon": cat.weapons.keys(),
        "equipment": cat.equipment.keys(),
        "chassis": cat.chassis.keys(),
    }
    if kind not in tables:
        return f"kind must be one of {', '.join(KINDS)}, not {kind!r}"
    if item not in tables[kind]:
        return f"no {kind} called {item!r}"
    return None


def item_name(kind: str, item: str) -> str:
    cat = catalog()
    if kind == "weapon":
        return cat.weapons[item].name
    if kind == "equipment":
        return cat.equipment[item].name
    ch = cat.chassis[item]
    return f"{ch.designation} {ch.name}"


def tier_of(kind: str, item: str) -> MarketTierId:
    """§11.8 tier: weapons by hardpoint size, chassis by class, equipment by category."""
    cat = catalog()
    if kind == "weapon":
        group: str = cat.weapons[item].size
    elif kind == "chassis":
        group = cat.chassis[item].class_
    else:
        group = cat.equipment[item].category
    return cast(MarketTierId, f"{group}_{kind}")


def is_exclusive(kind: str, item: str) -> bool:
    return kind == "weapon" and catalog().weapons[item].exclusive


def available_items(place_id: str, ruleset: Ruleset = ()) -> tuple[tuple[ItemKind, str], ...]:
    """§11.8: what a location's market can stock, in catalog file order (weapons, chassis,
    equipment): universal items plus the controlling faction's, never exclusive weapons;
    contested systems only universal items. Equipment belongs to no faction; a module item
    (the O3 Smoke Launcher) only while its module is in the `ruleset` (O0.11)."""
    cat = catalog()
    controller = cat.controller(place_id)
    owners = {UNIVERSAL} if controller is None else {UNIVERSAL, controller}
    out: list[tuple[ItemKind, str]] = []
    out += [
        ("weapon", w.id) for w in cat.weapons.values() if w.faction in owners and not w.exclusive
    ]
    out += [("chassis", c.designation) for c in cat.chassis.values() if c.faction in owners]
    out += [
        ("equipment", e.id) for e in cat.equipment.values() if not e.module or e.module in ruleset
    ]
    return tuple(out)


# ---- stock ----------------------------------------------------------------------------------
def bonus_for(standing: int) -> int:
    """§11.8: standing bonus = standing / 50, rounded down, within the section's 0-10 (standing
    below 0 gives 0; the top of the scale gives the 10)."""
    rules = catalog().economy.standing
    return max(0, min(standing, rules.max)) // rules.market_bonus_divisor


def standing_bonus(campaign: Campaign, place_id: str) -> int:
    """§11.8: the bonus from standing with the location's controller; contested systems 0."""
    controller = catalog().controller(place_id)
    return 0 if controller is None else bonus_for(campaign.standing_with(controller))


def in_stock(tier: str, roll: int, bonus: int) -> bool:
    """§11.8: an item is stocked when d100 + standing bonus meets its tier's threshold
    ("Always" tiers have threshold 0)."""
    return roll + bonus >= catalog().market_tier(tier).threshold


def roll_stock(
    place_id: str, standing_bonus: int, dice: Dice, ruleset: Ruleset = ()
) -> tuple[Stock, ...]:
    """§11.8: one d100 per available item (stream MARKET); a stocked item then draws its
    quantity within its tier's range."""
    out: list[Stock] = []
    for kind, item in available_items(place_id, ruleset):
        tier = tier_of(kind, item)
        roll = dice.d100(MARKET)
        if in_stock(tier, roll, standing_bonus):
            t = catalog().market_tier(tier)
            out.append(Stock(kind=kind, item=item, qty=dice.between(MARKET, t.qty_min, t.qty_max)))
    return tuple(out)


def needs_roll(campaign: Campaign, place_id: str) -> bool:
    """§11.8: a market is rolled on the first visit and again once its stock is a week old."""
    if not catalog().places[place_id].market:
        return False
    market = campaign.market(place_id)
    refresh = catalog().economy.market.refresh_days
    return market is None or campaign.day - market.rolled_day >= refresh


def fresh_frame(frame_id: str, chassis: str, name: str) -> Frame:
    """A frame straight from the factory: full armour and structure, nothing mounted."""
    ch = catalog().chassis[chassis]
    return Frame(
        id=frame_id,
        chassis=chassis,
        name=name,
        armor=armor_split(ch),
        structure=full_structure(ch),
    )


def _with_market(campaign: Campaign, market: Market) -> Campaign:
    others = tuple(m for m in campaign.markets if m.place != market.place)
    markets = tuple(sorted((*others, market), key=lambda m: m.place))
    return attrs.evolve(campaign, markets=markets)


def ensure_market(campaign: Campaign, dice: Dice) -> tuple[Campaign, list[Event]]:
    """Roll the stock of the market here if it was never rolled or is a week old (§11.8);
    otherwise, or where there is no market, change nothing."""
    place_id = campaign.place
    if not needs_roll(campaign, place_id):
        return campaign, []
    bonus = standing_bonus(campaign, place_id)
    stock = roll_stock(place_id, bonus, dice, campaign.ruleset)
    campaign = _with_market(campaign, Market(place=place_id, rolled_day=campaign.day, stock=stock))
    name = catalog().places[place_id].name
    text = f"New stock at the {name} market: {len(stock)} items on offer (standing bonus +{bonus})."
    return campaign, [Report(topic="market", text=text)]


def _take(market: Market, kind: str, item: str, qty: int) -> Market:
    """The market with `qty` fewer of an item; an item sold out leaves the list (§11.8)."""
    stock: list[Stock] = []
    for s in market.stock:
        if s.kind == kind and s.item == item:
            if qty > s.qty:
                raise ValueError(f"stock of {item} would go negative")
            if s.qty > qty:
                stock.append(attrs.evolve(s, qty=s.qty - qty))
        else:
            stock.append(s)
    return attrs.evolve(market, stock=tuple(stock))


# ---- prices ---------------------------------------------------------------------------------
def list_price(kind: str, item: str) -> int:
    """§7.4, §7.7.2, §11.1: the base price (a chassis costs its class price)."""
    cat = catalog()
    if kind == "weapon":
        return cat.weapons[item].price
    if kind == "equipment":
        return cat.equipment[item].price
    return cat.chassis_price(cat.chassis[item])


def price(campaign: Campaign, kind: str, item: str) -> int:
    """The list price; the same at every market (the campaign is taken for symmetry with
    `your_price`)."""
    return list_price(kind, item)


def price_percent(campaign: Campaign) -> int:
    """§11.7, R27: the price percent of the standing level with the controlling faction of the
    company's location; contested systems charge full price."""
    cat = catalog()
    controller = cat.controller(campaign.place)
    # No controller: the price of the starting (Neutral) level, i.e. full price.
    standing = (
        cat.economy.standing.start if controller is None else campaign.standing_with(controller)
    )
    return cat.standing_level(standing).price_percent


def discounted(base: int, percent: int) -> int:
    """`base` x `percent` / 100 rounded half up to whole credits."""
    return (base * percent + 50) // 100


def your_price(campaign: Campaign, kind: str, item: str) -> int:
    """§11.7, R27: what one unit costs the company here, after the standing discount."""
    return discounted(list_price(kind, item), price_percent(campaign))


def sell_price(kind: str, item: str) -> int:
    """§11.1, R27: selling pays `sell_percent` of the list price, undiscounted (rounded down)."""
    return list_price(kind, item) * catalog().economy.prices.sell_percent // 100


# ---- exclusives -----------------------------------------------------------------------------
def exclusive_min_standing() -> int:
    cat = catalog()
    return cat.standing_level_by_id(cat.economy.standing.exclusive_level).min


def exclusive_refusal(campaign: Campaign, item: str) -> str | None:
    """§7.4, §11.8, §15.1: why an exclusive weapon cannot be ordered here, or None."""
    cat = catalog()
    w = cat.weapons[item]
    faction = cat.factions[w.faction]
    level = cat.standing_level_by_id(cat.economy.standing.exclusive_level)
    gate = f"{level.name} standing ({level.min}+) with {faction.short}"
    if cat.controller(campaign.place) != w.faction:
        return (
            f"{w.name} is a {faction.short} exclusive: it is never in the market stock and only "
            f"markets in {faction.short} territory sell it, to a company with {gate}"
        )
    standing = campaign.standing_with(w.faction)
    if standing < level.min:
        return (
            f"{w.name} is a {faction.short} exclusive: it is never in the market stock and "
            f"needs {gate}; yours is {standing}"
        )
    return None


# ---- rows for the screens -------------------------------------------------------------------
@frozen(kw_only=True)
class MarketRow:
    """One line of the market screen. `qty` None: sold on order (an exclusive weapon)."""

    kind: ItemKind
    item: str
    name: str
    qty: int | None
    list_price: int
    your_price: int
    exclusive: bool = False
    locked: bool = False


@frozen(kw_only=True)
class InventoryRow:
    """One line of what the company can sell here."""

    kind: ItemKind
    item: str
    name: str
    count: int
    sell_price: int


def has_market(campaign: Campaign) -> bool:
    return catalog().places[campaign.place].market


def market_rows(campaign: Campaign) -> tuple[MarketRow, ...]:
    """The market here: every stocked item, then the controlling faction's exclusive weapons
    (on order, `locked` below the exclusive standing gate). Empty without a market."""
    if not has_market(campaign):
        return ()
    market = campaign.market(campaign.place)
    rows = [
        MarketRow(
            kind=s.kind,
            item=s.item,
            name=item_name(s.kind, s.item),
            qty=s.qty,
            list_price=list_price(s.kind, s.item),
            your_price=your_price(campaign, s.kind, s.item),
        )
        for s in (market.stock if market else ())
    ]
    controller = catalog().controller(campaign.place)
    for w in catalog().weapons.values():
        if w.exclusive and w.faction == controller:
            rows.append(
                MarketRow(
                    kind="weapon",
                    item=w.id,
                    name=w.name,
                    qty=None,
                    list_price=w.price,
                    your_price=your_price(campaign, "weapon", w.id),
                    exclusive=True,
                    locked=exclusive_refusal(campaign, w.id) is not None,
                )
            )
    return tuple(rows)


def inventory_rows(campaign: Campaign) -> tuple[InventoryRow, ...]:
    """The inventory's weapons and equipment with what each sells for (R27)."""
    rows: list[InventoryRow] = []
    for kind, items in (("weapon", campaign.weapons), ("equipment", campaign.equipment)):
        k = cast(ItemKind, kind)
        rows += [
            InventoryRow(kind=k, item=i, name=item_name(k, i), count=n, sell_price=sell_price(k, i))
            for i, n in items
        ]
    return tuple(rows)


# ---- checks ---------------------------------------------------------------------------------
def no_market(campaign: Campaign) -> str | None:
    """setup-facts: a location without a market sells (and buys) nothing, fuel included."""
    place = catalog().places[campaign.place]
    return None if place.market else f"{place.name} has no market"


def _qty_refusal(qty: int) -> str | None:
    return None if qty >= 1 else f"the quantity must be 1 or more, not {qty}"


def buy_refusal(campaign: Campaign, kind: str, item: str, qty: int) -> str | None:
    """Why `buy kind item qty` is illegal now, or None (§11.7, §11.8, R27)."""
    reason = no_market(campaign) or known_item(kind, item) or _qty_refusal(qty)
    if reason:
        return reason
    name = item_name(kind, item)
    if is_exclusive(kind, item):
        reason = exclusive_refusal(campaign, item)
        if reason:
            return reason
    else:
        market = campaign.market(campaign.place)
        have = market.qty(kind, item) if market else 0
        if have == 0:
            return f"{name} is not in stock here this week"
        if qty > have:
            return f"only {have} {name} in stock here"
    return ledger.short_of(campaign, qty * your_price(campaign, kind, item))


def sell_refusal(campaign: Campaign, kind: str, item: str, qty: int) -> str | None:
    """Why `sell kind item qty` is illegal now, or None (R27)."""
    if kind == "chassis":
        return "frames are sold whole: sell-frame FRAME"
    reason = no_market(campaign) or known_item(kind, item) or _qty_refusal(qty)
    if reason:
        return reason
    items = campaign.weapons if kind == "weapon" else campaign.equipment
    have = count_of(items, item)
    if qty > have:
        return f"the inventory holds {have} {item_name(kind, item)}, not {qty}"
    return None


def fuel_cost(units: int) -> int:
    """§14.3, setup-facts: what `units` units of fuel cost (the one place that prices fuel)."""
    return units * catalog().economy.prices.fuel_price


def fuel_units_for(credits: int) -> int:
    """The most units of fuel `credits` pay for (none for a debt)."""
    return max(0, credits) // fuel_cost(1)


def fuel_room(campaign: Campaign) -> int:
    """§14.3: how many units the tanks still take."""
    return max(0, catalog().galaxy.travel.fuel_capacity - campaign.fuel)


def fuel_refusal(campaign: Campaign, units: int) -> str | None:
    """Why `buy-fuel units` is illegal now, or None (§14.3, setup-facts)."""
    reason = no_market(campaign) or _qty_refusal(units)
    if reason:
        return reason
    room = fuel_room(campaign)
    capacity = catalog().galaxy.travel.fuel_capacity
    if room == 0:
        return f"the tanks are full ({campaign.fuel}/{capacity})"
    if units > room:
        return f"the tanks take at most {room} more units ({campaign.fuel}/{capacity})"
    return ledger.short_of(campaign, fuel_cost(units))


def frame_sale_price(campaign: Campaign, frame_id: str) -> int:
    """§11.1, R27: half the class price; a destroyed frame is scrap and fetches nothing."""
    frame = campaign.frame(frame_id)
    if frame.status == "destroyed":
        return 0
    return sell_price("chassis", frame.chassis)


def sell_frame_refusal(campaign: Campaign, frame_id: str) -> str | None:
    """Why `sell-frame frame` is illegal now, or None."""
    reason = no_market(campaign)
    if reason:
        return reason
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if frame.busy_days > 0:
        return f"{frame.name} is in the bay for {frame.busy_days} more day(s)"
    return None


# ---- handlers -------------------------------------------------------------------------------
def _buy(campaign: Campaign, cmd: Buy, dice: Dice) -> Change | str:
    reason = buy_refusal(campaign, cmd.kind, cmd.item, cmd.qty)
    if reason:
        return reason
    kind = cast(ItemKind, cmd.kind)
    name = item_name(kind, cmd.item)
    unit = your_price(campaign, kind, cmd.item)
    events: list[Event] = []
    if not is_exclusive(kind, cmd.item):
        market = campaign.market(campaign.place)
        assert market is not None
        campaign = _with_market(campaign, _take(market, kind, cmd.item, cmd.qty))
    if kind == "chassis":
        ids = []
        for _ in range(cmd.qty):
            frame_id = f"F{campaign.next_frame}"
            frame = fresh_frame(frame_id, cmd.item, catalog().chassis[cmd.item].name)
            campaign = attrs.evolve(
                campaign, frames=(*campaign.frames, frame), next_frame=campaign.next_frame + 1
            )
            ids.append(frame_id)
        note = f"{name} delivered as {', '.join(ids)}: ready, no pilot."
    elif kind == "weapon":
        campaign = attrs.evolve(campaign, weapons=add_count(campaign.weapons, cmd.item, cmd.qty))
        note = f"{cmd.qty} x {name} to the inventory."
    else:
        equipment = add_count(campaign.equipment, cmd.item, cmd.qty)
        campaign = attrs.evolve(campaign, equipment=equipment)
        note = f"{cmd.qty} x {name} to the inventory."
    total = cmd.qty * unit
    campaign, moved = ledger.post(campaign, "market", -total, f"Bought {cmd.qty} x {name}")
    events += [moved, Report(topic="market", text=note)]
    return campaign, events


def _sell(campaign: Campaign, cmd: Sell, dice: Dice) -> Change | str:
    reason = sell_refusal(campaign, cmd.kind, cmd.item, cmd.qty)
    if reason:
        return reason
    kind = cast(ItemKind, cmd.kind)
    name = item_name(kind, cmd.item)
    if kind == "weapon":
        campaign = attrs.evolve(campaign, weapons=add_count(campaign.weapons, cmd.item, -cmd.qty))
    else:
        equipment = add_count(campaign.equipment, cmd.item, -cmd.qty)
        campaign = attrs.evolve(campaign, equipment=equipment)
    total = cmd.qty * sell_price(kind, cmd.item)
    campaign, moved = ledger.post(campaign, "sale", total, f"Sold {cmd.qty} x {name}")
    return campaign, [moved]


def _buy_fuel(campaign: Campaign, cmd: BuyFuel, dice: Dice) -> Change | str:
    reason = fuel_refusal(campaign, cmd.units)
    if reason:
        return reason
    cost = fuel_cost(cmd.units)
    campaign = attrs.evolve(campaign, fuel=campaign.fuel + cmd.units)
    campaign, moved = ledger.post(campaign, "fuel", -cost, f"Fuel, {cmd.units} units")
    capacity = catalog().galaxy.travel.fuel_capacity
    note = Report(topic="market", text=f"Tanks at {campaign.fuel}/{capacity}.")
    return campaign, [moved, note]


def _sell_frame(campaign: Campaign, cmd: SellFrame, dice: Dice) -> Change | str:
    reason = sell_frame_refusal(campaign, cmd.frame)
    if reason:
        return reason
    frame = campaign.frame(cmd.frame)
    amount = frame_sale_price(campaign, cmd.frame)
    weapons = campaign.weapons
    for m in frame.weapons:
        weapons = add_count(weapons, m.weapon, 1)
    equipment = campaign.equipment
    for f in frame.equipment:
        equipment = add_count(equipment, f.equipment, 1)
    frames = tuple(f for f in campaign.frames if f.id != frame.id)
    campaign = attrs.evolve(campaign, frames=frames, weapons=weapons, equipment=equipment)
    events: list[Event] = []
    if amount:
        campaign, moved = ledger.post(
            campaign, "sale", amount, f"Sold {frame.name} ({frame.id}, {frame.chassis})"
        )
        events.append(moved)
    what = "sold" if amount else "scrapped for nothing (destroyed)"
    carried = len(frame.weapons) + len(frame.equipment)
    text = f"{frame.name} ({frame.id}) {what}; {carried} item(s) back to the inventory."
    events.append(Report(topic="market", text=text))
    if frame.pilot is not None:
        events.append(Report(topic="pilots", text=f"{frame.pilot} steps out of {frame.name}."))
    return campaign, events


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    Buy: campaign_handler(_buy),
    Sell: campaign_handler(_sell),
    BuyFuel: campaign_handler(_buy_fuel),
    SellFrame: campaign_handler(_sell_frame),
}
CHECKS: Checks = campaign_checks(
    HANDLERS,
    {
        Buy: lambda c, cmd: buy_refusal(c, cmd.kind, cmd.item, cmd.qty),
        Sell: lambda c, cmd: sell_refusal(c, cmd.kind, cmd.item, cmd.qty),
        BuyFuel: lambda c, cmd: fuel_refusal(c, cmd.units),
        SellFrame: lambda c, cmd: sell_frame_refusal(c, cmd.frame),
    },
)
