"""Command generators for the campaign state machine (tests/test_campaign_stateful.py).

`legal(state)` is the engine's list of legal commands (`game.legal_commands`): the machine
draws from it and expects acceptance. `LEGAL` maps a name to a generator
`fn(state, data) -> Command` that builds a *plausible* command from what the state offers (an
item in stock here, a pilot and a frame that exist, a destination on the galaxy screen, a
contract on the board with ready frames...), using the campaign's own helpers so that many of
them are accepted. They may still be refused (short credits, a busy frame, too much space): the
machine only checks that a refusal changes nothing.

`junk(state)` lists commands that must be refused whatever else is true of the state (unknown
ids, quantities out of range, wrong kinds, frames that do not exist, picks beyond the
allowance, combat orders without a battle...). The machine draws one and asserts the refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from hypothesis import strategies as st

from mac_tui.campaign import pilots as pilot_rules
from mac_tui.campaign.accept import frame_deploy_refusal
from mac_tui.campaign.commands import (
    Accept,
    AdvanceDay,
    Assign,
    Buy,
    BuyFuel,
    BuyWreck,
    Dismiss,
    Hire,
    Jump,
    NewCampaign,
    Refit,
    Regroup,
    RenameFrame,
    Repair,
    Salvage,
    Sell,
    SellFrame,
    Travel,
    Unassign,
)
from mac_tui.campaign.contracts import contract_rows
from mac_tui.campaign.market import inventory_rows, market_rows
from mac_tui.campaign.refit import loadout_text
from mac_tui.campaign.repair import needs_repair
from mac_tui.campaign.state import Campaign, Fitting, Frame, Mount, count_of
from mac_tui.campaign.timeflow import MAX_ADVANCE
from mac_tui.campaign.travel import current_system, destinations
from mac_tui.catalog import catalog
from mac_tui.catalog.records import Chassis
from mac_tui.combat.commands import (
    AutoDeploy,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    StartBattle,
    Withdraw,
)
from mac_tui.game import Command, legal_commands
from mac_tui.hexgrid import Hex
from mac_tui.model import GameState

CAT = catalog()
WEAPONS = tuple(sorted(CAT.weapons))
EQUIPMENT = tuple(sorted(CAT.equipment))
CHASSIS = tuple(sorted(CAT.chassis))
ITEMS = {"weapon": WEAPONS, "equipment": EQUIPMENT, "chassis": CHASSIS}
GROUPS = CAT.combat.loadout.weapon_groups
LEVELS = tuple(sorted(p.level for p in CAT.economy.payout_level))
MAX_FRAMES = CAT.missions.lance.max_frames
CAPACITY = CAT.galaxy.travel.fuel_capacity
NOBODY = "Nobody-Here"
NO_FRAME = "F0"

T = TypeVar("T")
Gen = Callable[[GameState, st.DataObject], Command]


def pick(data: st.DataObject, items: Sequence[T]) -> T:
    return data.draw(st.sampled_from(list(items)))


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def frame_ids(c: Campaign) -> list[str]:
    return [f.id for f in c.frames] or ["F1"]


def legal(state: GameState) -> list[Command]:
    """The engine's own list of what is legal now (`game.legal_commands`): each must be
    accepted, so the machine draws from it with `expect=True`; the generators below also try
    what may be refused."""
    return legal_commands(state)


# ---- legal-ish generators --------------------------------------------------------------------
def buy(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    rows = [r for r in market_rows(c) if not r.locked]
    if rows:
        row = pick(data, rows)
        qty = data.draw(st.integers(1, row.qty if row.qty is not None else 2))
        return Buy(row.kind, row.item, qty)
    kind = pick(data, tuple(ITEMS))
    return Buy(kind, pick(data, ITEMS[kind]), 1)


def sell(state: GameState, data: st.DataObject) -> Command:
    rows = inventory_rows(camp(state))
    if rows:
        row = pick(data, rows)
        return Sell(row.kind, row.item, data.draw(st.integers(1, row.count)))
    return Sell("weapon", pick(data, WEAPONS), 1)


def buy_fuel(state: GameState, data: st.DataObject) -> Command:
    room = CAPACITY - camp(state).fuel
    return BuyFuel(data.draw(st.integers(1, max(1, room))))


def hire(state: GameState, data: st.DataObject) -> Command:
    return Hire()


def assign(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    return Assign(pick(data, [p.callsign for p in c.pilots]), pick(data, frame_ids(c)))


def unassign(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    seated = [f.pilot for f in c.frames if f.pilot is not None]
    return Unassign(pick(data, seated or [p.callsign for p in c.pilots]))


def _taken(
    ch: Chassis, mounts: list[Mount], fittings: list[Fitting], size: str, loc: str
) -> tuple[list[int], list[int]]:
    """Indices of the weapons and slot equipment on `size` hardpoints at `loc`."""
    ws = [i for i, m in enumerate(mounts) if m.mount == loc and CAT.weapons[m.weapon].size == size]
    es = [
        i
        for i, f in enumerate(fittings)
        if f.mount == loc
        and CAT.equipment[f.equipment].category == "slot"
        and CAT.equipment[f.equipment].slot_size == size
    ]
    return ws, es


def _make_room(
    data: st.DataObject,
    ch: Chassis,
    mounts: list[Mount],
    fittings: list[Fitting],
    size: str,
) -> str | None:
    """A location with a `size` hardpoint, emptied of one item if all its hardpoints are taken
    (a swap); None when the chassis has no hardpoint of that size."""
    locs = sorted(set(ch.hardpoints.of(size)))
    if not locs:
        return None
    loc = pick(data, locs)
    ws, es = _taken(ch, mounts, fittings, size, loc)
    if len(ws) + len(es) >= ch.hardpoints.of(size).count(loc):
        if ws:
            del mounts[pick(data, ws)]
        else:
            del fittings[pick(data, es)]
    return loc


def refit_loadout(c: Campaign, frame: Frame, data: st.DataObject) -> tuple[str, str]:
    """The frame's loadout with one change: an inventory item added (swapped in when its
    hardpoints are full), an item removed, a weapon moved or regrouped."""
    ch = CAT.chassis[frame.chassis]
    mounts, fittings = list(frame.weapons), list(frame.equipment)
    move = pick(
        data, ("add_weapon", "add_equipment", "remove_weapon", "remove_equipment", "move", "group")
    )
    group = data.draw(st.integers(1, GROUPS))
    if move == "add_weapon" and c.weapons:
        wid = pick(data, [w for w, _ in c.weapons])
        loc = _make_room(data, ch, mounts, fittings, CAT.weapons[wid].size)
        if loc is not None:
            mounts.append(Mount(weapon=wid, mount=loc, group=group))
    elif move == "add_equipment" and c.equipment:
        eid = pick(data, [e for e, _ in c.equipment])
        e = CAT.equipment[eid]
        if e.category == "slot":
            loc = _make_room(data, ch, mounts, fittings, e.slot_size)
            if loc is not None:
                fittings.append(Fitting(equipment=eid, mount=loc))
        else:
            fittings.append(Fitting(equipment=eid))
    elif move == "remove_weapon" and mounts:
        del mounts[data.draw(st.integers(0, len(mounts) - 1))]
    elif move == "remove_equipment" and fittings:
        del fittings[data.draw(st.integers(0, len(fittings) - 1))]
    elif move == "move" and mounts:
        i = data.draw(st.integers(0, len(mounts) - 1))
        m = mounts.pop(i)
        loc = _make_room(data, ch, mounts, fittings, CAT.weapons[m.weapon].size)
        mounts.insert(i, Mount(weapon=m.weapon, mount=loc or m.mount, group=m.group))
    elif mounts:
        i = data.draw(st.integers(0, len(mounts) - 1))
        mounts[i] = Mount(weapon=mounts[i].weapon, mount=mounts[i].mount, group=group)
    return loadout_text(mounts, fittings)


def refit(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    if not c.frames:
        return Refit("F1", "-")
    frame = pick(data, c.frames)
    return Refit(frame.id, *refit_loadout(c, frame, data))


def regroup(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    if not c.frames:
        return Regroup("F1", 1, 1)
    frame = pick(data, c.frames)
    index = data.draw(st.integers(1, max(1, len(frame.weapons))))
    return Regroup(frame.id, index, data.draw(st.integers(1, GROUPS)))


def repair(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    hurt = [f.id for f in c.frames if f.status in ("damaged", "destroyed")]
    return Repair(pick(data, hurt or frame_ids(c)), data.draw(st.booleans()))


def trip(state: GameState, data: st.DataObject) -> Command:
    d = pick(data, destinations(camp(state)))
    return Travel(d.id) if d.kind == "travel" else Jump(d.id)


def advance(state: GameState, data: st.DataObject) -> Command:
    return AdvanceDay(data.draw(st.integers(1, 10)))


def ready_frames(c: Campaign) -> list[str]:
    return [f.id for f in c.frames if frame_deploy_refusal(c, f.id) is None]


def accept(state: GameState, data: st.DataObject) -> Command:
    c = camp(state)
    rows = contract_rows(c)
    contract = pick(data, [r.id for r in rows]) if rows else "C1"
    ready = ready_frames(c) or frame_ids(c)
    frames = data.draw(
        st.lists(
            st.sampled_from(ready), min_size=1, max_size=min(MAX_FRAMES, len(ready)), unique=True
        )
    )
    return Accept(contract, pick(data, LEVELS), "+".join(frames))


def salvage(state: GameState, data: st.DataObject) -> Command:
    aa = camp(state).after_action
    if aa is None or not aa.pool:
        return Salvage("-")
    n = len(aa.pool)
    k = data.draw(st.integers(0, min(aa.picks, n)))
    picks = data.draw(st.lists(st.integers(1, n), min_size=k, max_size=k, unique=True))
    return Salvage("+".join(map(str, picks)) or "-")


def buy_wreck(state: GameState, data: st.DataObject) -> Command:
    aa = camp(state).after_action
    offers = len(aa.frame_offers) if aa is not None else 0
    return BuyWreck(data.draw(st.integers(1, max(1, offers))))


def done(state: GameState, data: st.DataObject) -> Command:
    return Dismiss()


def sell_frame(state: GameState, data: st.DataObject) -> Command:
    return SellFrame(pick(data, frame_ids(camp(state))))


def rename(state: GameState, data: st.DataObject) -> Command:
    name = data.draw(st.text(st.characters(codec="utf-8"), max_size=pilot_rules.NAME_MAX + 2))
    return RenameFrame(pick(data, frame_ids(camp(state))), name)


LEGAL: dict[str, Gen] = {
    "buy": buy,
    "sell": sell,
    "buy-fuel": buy_fuel,
    "hire": hire,
    "assign": assign,
    "unassign": unassign,
    "refit": refit,
    "regroup": regroup,
    "repair": repair,
    "trip": trip,
    "advance-day": advance,
    "salvage": salvage,
    "buy-wreck": buy_wreck,
    "done": done,
    "sell-frame": sell_frame,
    "rename": rename,
}


# ---- commands that must be refused -----------------------------------------------------------
def junk(state: GameState) -> list[Command]:
    """Commands no state like this one may accept."""
    c = camp(state)
    frames = frame_ids(c)
    f1 = frames[0]
    pilot = c.pilots[0].callsign
    out: list[Command] = [
        NewCampaign("Another Company"),
        AdvanceDay(0),
        AdvanceDay(-3),
        AdvanceDay(MAX_ADVANCE + 1),
        Buy("frame", WEAPONS[0], 1),
        Buy("weapon", "no_such_gun", 1),
        Buy("weapon", EQUIPMENT[0], 1),
        Buy("chassis", WEAPONS[0], 1),
        Buy("weapon", WEAPONS[0], 0),
        Buy("equipment", EQUIPMENT[0], -2),
        Buy("weapon", WEAPONS[-1], 10**12),
        Sell("chassis", CHASSIS[0], 1),
        Sell("weapon", WEAPONS[0], count_of(c.weapons, WEAPONS[0]) + 1),
        Sell("equipment", EQUIPMENT[0], count_of(c.equipment, EQUIPMENT[0]) + 5),
        Sell("weapon", WEAPONS[0], -1),
        Sell("gadget", WEAPONS[0], 1),
        BuyFuel(0),
        BuyFuel(-5),
        BuyFuel(CAPACITY - c.fuel + 1),
        SellFrame(NO_FRAME),
        SellFrame("W1"),
        RenameFrame(NO_FRAME, "Ghost Ship"),
        RenameFrame(f1, ""),
        RenameFrame(f1, " \t "),
        RenameFrame(f1, "x" * (pilot_rules.NAME_MAX + 1)),
        Assign(NOBODY, f1),
        Assign(pilot, NO_FRAME),
        Unassign(NOBODY),
        Refit(NO_FRAME, "-"),
        Refit(f1, f"{WEAPONS[0]}@legs:1"),
        Refit(f1, "no_such_gun@head:1"),
        Refit(f1, f"{WEAPONS[0]}@nowhere:1"),
        Refit(f1, WEAPONS[0]),
        Refit(f1, f"{WEAPONS[0]}@head:x"),
        Refit(f1, f"{WEAPONS[0]}@head:0"),
        Refit(f1, f"{WEAPONS[0]}@head:{GROUPS + 1}"),
        Refit(f1, f"{EQUIPMENT[0]}@head:1"),
        Refit(f1, "-", WEAPONS[0]),
        Regroup(NO_FRAME, 1, 1),
        Regroup(f1, 0, 1),
        Regroup(f1, 99, 1),
        Regroup(f1, 1, 0),
        Regroup(f1, 1, GROUPS + 1),
        Repair(NO_FRAME),
        Travel("nowhere"),
        Travel(c.place),
        Jump("nowhere"),
        Jump(current_system(c)),
        Accept("C0", LEVELS[0], f1),
        BuyWreck(0),
        BuyWreck(99),
    ]
    # A pilot already in the frame, one flying nothing, the dead, the destroyed.
    for f in c.frames:
        if f.pilot is not None:
            out.append(Assign(f.pilot, f.id))
        if f.status == "destroyed":
            out.append(Assign(pilot, f.id))
        elif f.status == "ready" and f.busy_days == 0 and not needs_repair(f):
            out.append(Repair(f.id))
        if f.weapons:
            out.append(Regroup(f.id, 1, f.weapons[0].group))
            out.append(Refit(f.id, *loadout_text(f.weapons, f.equipment)))  # nothing to change
    for p in c.pilots:
        if c.frame_of(p.callsign) is None:
            out.append(Unassign(p.callsign))
        if p.status == "kia":
            out.append(Assign(p.callsign, f1))
    # Items the inventory does not hold, mounted anyway.
    for w in WEAPONS:
        if count_of(c.weapons, w) == 0 and c.frames:
            frame = c.frames[-1]
            ch = CAT.chassis[frame.chassis]
            locs = ch.hardpoints.of(CAT.weapons[w].size)
            if locs:
                extra = Mount(weapon=w, mount=locs[0], group=1)
                out.append(Refit(frame.id, *loadout_text((*frame.weapons, extra), frame.equipment)))
                break
    # Places out of reach.
    here = current_system(c)
    neighbours = {s for s, _ in CAT.routes_from(here)}
    far = [s for s in sorted(CAT.systems) if s != here and s not in neighbours]
    if far:
        out.append(Jump(far[0]))
    elsewhere = [p for p in sorted(CAT.places) if CAT.places[p].system != here]
    out.append(Travel(elsewhere[0]))
    if not CAT.places[c.place].hiring:
        out.append(Hire())
    if not CAT.places[c.place].market:
        out += [Buy("weapon", WEAPONS[0], 1), BuyFuel(1), Sell("weapon", WEAPONS[0], 1)]
    if c.fuel >= CAPACITY:
        out.append(BuyFuel(1))
    # Contracts with bad terms.
    if c.contracts:
        cid = c.contracts[0].id
        ready = ready_frames(c) or frames
        out += [
            Accept(cid, max(LEVELS) + 1, ready[0]),
            Accept(cid, -1, ready[0]),
            Accept(cid, LEVELS[0], "-"),
            Accept(cid, LEVELS[0], f"{ready[0]}+{ready[0]}"),
            Accept(cid, LEVELS[0], "+".join(f"F{i}" for i in range(1, MAX_FRAMES + 2))),
            Accept(cid, LEVELS[0], NO_FRAME),
        ]
        unready = [f for f in frames if f not in ready_frames(c)]
        if unready:
            out.append(Accept(cid, LEVELS[0], unready[0]))
    # The after-action report: nothing open, or picks beyond the allowance.
    aa = c.after_action
    if aa is None:
        out += [Salvage("-"), Salvage("1"), Dismiss(), BuyWreck(1)]
    else:
        n = len(aa.pool)
        out += [BuyWreck(len(aa.frame_offers) + 1), Salvage("0"), Salvage(f"{n + 1}")]
        if aa.revealed:
            out.append(Salvage("-"))
        else:
            out.append(Salvage("x"))
            if n >= 1:
                out.append(Salvage("1+1"))
            if aa.picks < n:
                out.append(Salvage("+".join(str(i) for i in range(1, aa.picks + 2))))
            if aa.picks > 0:
                out.append(Dismiss())  # the picks must be made first
    # Combat orders.
    if state.battle is None:
        out += [EndActivation(), Withdraw(), Move(Hex(0, 0)), StartBattle(), AutoDeploy()]
        out.append(FireGroup(1, "RAIDER-1"))
    else:
        out += [
            FireGroup(GROUPS + 5, NOBODY),
            Move(Hex(999, 999)),
            Deploy(NOBODY, Hex(0, 0)),
            CalledShot(1, NOBODY, "head"),
        ]
    return out
