"""The campaign's candidate commands: a finite, representative set of what a player could order
now, built from what the state offers. `game.legal_commands` keeps those the engine's checks
accept (the same refusal helpers the handlers run), so every listed command is accepted.

Commands with free parameters are listed with these representatives:

- `new-campaign`: one company name (`NEW_COMPANY`); `new-skirmish`: every difficulty, the
  landscape drawn by the dice;
- `advance-day`: 1 day;
- `buy`: one of each market row (stock and exclusives); `sell`: one, and all, of each
  inventory row; `buy-fuel`: one unit, and what fills the tanks;
- `refit`: one change from the current loadout: a weapon or a piece of equipment removed, an
  inventory weapon added on a hardpoint of its size at each location (in group 1), an inventory
  piece of equipment added (at each location with a slot of its size, for slot equipment);
- `regroup`: every weapon to every other group; `repair`: normal and rush, frames needing it;
- `assign`: every pilot to every frame; `unassign`, `sell-frame`: each one;
- `accept`: every contract on the board at every payout level, with the first 1, 2... frames
  (up to a lance) of those that can deploy, in roster order;
- `salvage`: none (`-`), each item alone, and the first items up to the allowance;
  `buy-wreck`: each offer; `done`;
- `rename` (free text) is never listed.
"""

from __future__ import annotations

from collections.abc import Callable

from ..catalog import LOCATION_ORDER, SIZES, catalog
from ..combat.skirmish import NewSkirmish
from ..core import Command
from ..model import GameState
from .accept import frame_deploy_refusal
from .commands import (
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
    Repair,
    Salvage,
    Sell,
    SellFrame,
    Train,
    Travel,
    Unassign,
)
from .market import fuel_room, inventory_rows, market_rows
from .pilots import SKILLS
from .refit import loadout_text
from .state import Campaign, Fitting, Frame, Mount
from .travel import destinations

NEW_COMPANY = "New Company"


def candidates(state: GameState, only: tuple[type[Command], ...] = ()) -> list[Command]:
    """The commands worth checking now, outside a battle (see the module's docstring); with
    `only`, just those of these classes."""
    campaign = state.campaign
    out: list[Command]
    if campaign is None:
        if state.battle is not None:
            return []
        d = catalog().missions.difficulty
        out = [NewCampaign(NEW_COMPANY), *(NewSkirmish(n) for n in range(d.min, d.max + 1))]
    elif campaign.ended or campaign.mission is not None:
        return []
    elif campaign.after_action is not None:
        out = _debrief(campaign)
    else:
        out = [
            command
            for kinds, make in _GROUPS
            if not only or any(k in only for k in kinds)
            for command in make(campaign)
        ]
    return [c for c in out if not only or isinstance(c, only)]


def _debrief(campaign: Campaign) -> list[Command]:
    aa = campaign.after_action
    assert aa is not None
    picks = [Salvage("-"), *(Salvage(str(i)) for i in range(1, len(aa.pool) + 1))]
    if aa.picks > 1:
        picks.append(Salvage("+".join(str(i) for i in range(1, aa.picks + 1))))
    wrecks = [BuyWreck(i) for i in range(1, len(aa.frame_offers) + 1)]
    return [*picks, *wrecks, Dismiss()]


def _market(campaign: Campaign) -> list[Command]:
    out: list[Command] = [Buy(row.kind, row.item, 1) for row in market_rows(campaign)]
    for row in inventory_rows(campaign):
        out += [Sell(row.kind, row.item, n) for n in sorted({1, row.count})]
    out += [BuyFuel(n) for n in sorted({1, max(1, fuel_room(campaign))})]
    out += [SellFrame(f.id) for f in campaign.frames]
    return out


def _pilots(campaign: Campaign) -> list[Command]:
    out: list[Command] = [Hire()]
    for p in campaign.pilots:
        out += [Train(p.callsign, skill) for skill in SKILLS]
        out += [Assign(p.callsign, f.id) for f in campaign.frames]
        out.append(Unassign(p.callsign))
    return out


def _repairs(campaign: Campaign) -> list[Command]:
    return [Repair(f.id, rush) for f in campaign.frames for rush in (False, True)]


def _regroups(campaign: Campaign) -> list[Command]:
    groups = catalog().combat.loadout.weapon_groups
    return [
        Regroup(frame.id, i, g)
        for frame in campaign.frames
        for i, m in enumerate(frame.weapons, start=1)
        for g in range(1, groups + 1)
        if g != m.group
    ]


def _refits(campaign: Campaign) -> list[Command]:
    return [
        Refit(frame.id, *loadout_text(w, e))
        for frame in campaign.frames
        for w, e in _one_change(campaign, frame)
    ]


def _one_change(
    campaign: Campaign, frame: Frame
) -> list[tuple[tuple[Mount, ...], tuple[Fitting, ...]]]:
    """Loadouts one install or removal away from the frame's (see the module's docstring)."""
    cat = catalog()
    hardpoints = cat.chassis[frame.chassis].hardpoints
    weapons, fittings = frame.weapons, frame.equipment
    out = [(weapons[:i] + weapons[i + 1 :], fittings) for i in range(len(weapons))]
    out += [(weapons, fittings[:i] + fittings[i + 1 :]) for i in range(len(fittings))]
    for item, _ in campaign.weapons:
        for loc in _locations(hardpoints.of(cat.weapons[item].size)):
            out.append(((*weapons, Mount(weapon=item, mount=loc, group=1)), fittings))
    for item, _ in campaign.equipment:
        e = cat.equipment[item]
        if e.category != "slot":
            out.append((weapons, (*fittings, Fitting(equipment=item))))
            continue
        for loc in _locations(hardpoints.of(e.slot_size) if e.slot_size in SIZES else ()):
            out.append((weapons, (*fittings, Fitting(equipment=item, mount=loc))))
    return out


def _locations(mounts: tuple[str, ...]) -> list[str]:
    """The locations of these hardpoints, once each, in location order."""
    return [loc for loc in LOCATION_ORDER if loc in mounts]


def _trips(campaign: Campaign) -> list[Command]:
    return [Travel(d.id) if d.kind == "travel" else Jump(d.id) for d in destinations(campaign)]


def _contracts(campaign: Campaign) -> list[Command]:
    ready = [f.id for f in campaign.frames if frame_deploy_refusal(campaign, f.id) is None]
    most = min(len(ready), catalog().missions.lance.max_frames)
    levels = [p.level for p in catalog().economy.payout_level]
    return [
        Accept(contract.id, level, "+".join(ready[:n]))
        for contract in campaign.contracts
        for level in levels
        for n in range(1, most + 1)
    ]


def _wait(campaign: Campaign) -> list[Command]:
    return [AdvanceDay(1)]


#: The candidates between missions, by the command classes each group makes.
_GROUPS: tuple[tuple[tuple[type[Command], ...], Callable[[Campaign], list[Command]]], ...] = (
    ((AdvanceDay,), _wait),
    ((Buy, Sell, BuyFuel, SellFrame), _market),
    ((Hire, Train, Assign, Unassign), _pilots),
    ((Repair,), _repairs),
    ((Regroup,), _regroups),
    ((Refit,), _refits),
    ((Travel, Jump), _trips),
    ((Accept,), _contracts),
)
