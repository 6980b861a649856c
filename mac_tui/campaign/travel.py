"""Galaxy travel (§14.3, §14.4, setup-facts galaxy): moving between locations and systems.

- `travel PLACE`: to another location of the current system, for `intra_system_fuel` fuel and
  `intra_system_days` days (data/galaxy.toml [travel]).
- `jump SYSTEM`: along a jump route to a neighbouring system (only neighbours, setup-facts), for
  the route's fuel and days; the company arrives at the system's arrival point (its first
  location). A jump may leave from any location of the system.

Both pay the fuel, then move, then let the days pass through the day tick
(`timeflow.pass_days`: upkeep, repairs and refits, injuries, the new location's market), so
frames under repair keep working while the company travels. The company leaves the old
location's mission board behind and a fresh board is posted on the arrival day (§14.4,
"Missions regenerate when you arrive at a new location"). A trip without the fuel for it is
refused and changes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Literal

import attrs
from attrs import frozen

from ..catalog import catalog
from ..core import Checks, Event, Handlers
from ..dice import Dice
from .calendar import date_text
from .commands import Jump, Travel
from .common import Change, campaign_checks, campaign_handler
from .contracts import ensure_contracts
from .events import Report
from .state import Campaign
from .timeflow import pass_days

TripKind = Literal["travel", "jump"]


# ---- what a trip costs ---------------------------------------------------------------------
def current_system(campaign: Campaign) -> str:
    return catalog().places[campaign.place].system


def fuel_refusal(campaign: Campaign, what: str, fuel: int) -> str | None:
    """Why the company cannot pay `fuel` for `what`, or None."""
    if fuel > campaign.fuel:
        return f"{what} needs {fuel} fuel; the company holds {campaign.fuel} (buy-fuel at a market)"
    return None


def travel_refusal(campaign: Campaign, place_id: str) -> str | None:
    """§14.3: only another location of this system, with the fuel for it."""
    cat = catalog()
    system = current_system(campaign)
    here = cat.places_in(system)
    options = ", ".join(p.id for p in here if p.id != campaign.place)
    if place_id == campaign.place:
        return f"the company is already at {cat.places[place_id].name}"
    if place_id not in cat.places:
        return f"no location {place_id!r} in {cat.systems[system].name} (here: {options})"
    place = cat.places[place_id]
    if place.system != system:
        return (
            f"{place.name} is in {cat.systems[place.system].name}: jump there first "
            f"(jump {place.system})"
        )
    return fuel_refusal(campaign, f"travel to {place.name}", cat.galaxy.travel.intra_system_fuel)


def jump_refusal(campaign: Campaign, system_id: str) -> str | None:
    """§14.3, setup-facts: only a route neighbour of this system, with the route's fuel."""
    cat = catalog()
    here = current_system(campaign)
    neighbours = ", ".join(other for other, _ in cat.routes_from(here))
    if system_id == here:
        return f"the company is already in {cat.systems[here].name}"
    if system_id not in cat.systems:
        return f"no system {system_id!r} (neighbours of {cat.systems[here].name}: {neighbours})"
    route = cat.route(here, system_id)
    if route is None:
        reason = (
            f"no jump route from {cat.systems[here].name} to {cat.systems[system_id].name}; "
            f"neighbours: {neighbours}"
        )
        plan = route_plan(campaign, system_id)
        if plan is not None:
            names = " > ".join(cat.systems[s].name for s in plan.systems)
            reason += f" (shortest way: {names}, {plan.days} days, {plan.fuel} fuel)"
        return reason
    return fuel_refusal(campaign, f"the jump to {cat.systems[system_id].name}", route.fuel)


# ---- the trip itself -----------------------------------------------------------------------
def _trip(
    campaign: Campaign, dice: Dice, place_id: str, fuel: int, days: int, where: str
) -> Change:
    """Pay the fuel, move, leave the board behind, let the days pass, post the new board."""
    cat = catalog()
    place = cat.places[place_id]
    campaign = attrs.evolve(
        campaign,
        fuel=campaign.fuel - fuel,
        place=place_id,
        contracts=(),
        contracts_day=campaign.day,
    )
    events: list[Event] = [
        Report(
            topic="travel",
            text=f"The company sets out for {where}: {fuel} fuel, {days} day(s) under way.",
        )
    ]
    campaign, more = pass_days(campaign, days, dice)
    events.extend(more)
    if campaign.ended:
        return campaign, events
    system = cat.systems[place.system].name
    events.append(
        Report(
            topic="travel",
            text=f"Arrived at {place.name}, {system}, on {date_text(campaign.day)}.",
        )
    )
    campaign, more = ensure_contracts(campaign, dice, force=True)
    events.extend(more)
    return campaign, events


def _travel(campaign: Campaign, cmd: Travel, dice: Dice) -> Change | str:
    reason = travel_refusal(campaign, cmd.place)
    if reason:
        return reason
    rules = catalog().galaxy.travel
    name = catalog().places[cmd.place].name
    return _trip(campaign, dice, cmd.place, rules.intra_system_fuel, rules.intra_system_days, name)


def _jump(campaign: Campaign, cmd: Jump, dice: Dice) -> Change | str:
    reason = jump_refusal(campaign, cmd.system)
    if reason:
        return reason
    cat = catalog()
    route = cat.route(current_system(campaign), cmd.system)
    assert route is not None
    arrival = cat.arrival_place(cmd.system)
    where = f"{cat.systems[cmd.system].name} (arriving at {arrival.name})"
    return _trip(campaign, dice, arrival.id, route.fuel, route.days, where)


# ---- the galaxy screen ---------------------------------------------------------------------
@frozen(kw_only=True)
class Destination:
    """A trip the company can take from here: `travel` to a place or `jump` to a system."""

    kind: TripKind
    id: str  # place id (travel) or system id (jump): the command's argument
    name: str
    arrival: str  # the place id the company would be at
    fuel: int
    days: int
    affordable: bool
    reason: str | None  # why not, when not affordable

    def command(self) -> str:
        return f"{self.kind} {self.id}"


def destinations(campaign: Campaign) -> list[Destination]:
    """Every trip from here: the other locations of this system (data order), then the
    neighbouring systems (route data order), each with its cost and whether fuel allows it."""
    cat = catalog()
    rules = cat.galaxy.travel
    here = current_system(campaign)
    out: list[Destination] = []
    for place in cat.places_in(here):
        if place.id == campaign.place:
            continue
        reason = fuel_refusal(campaign, f"travel to {place.name}", rules.intra_system_fuel)
        out.append(
            Destination(
                kind="travel",
                id=place.id,
                name=place.name,
                arrival=place.id,
                fuel=rules.intra_system_fuel,
                days=rules.intra_system_days,
                affordable=reason is None,
                reason=reason,
            )
        )
    for other, route in cat.routes_from(here):
        name = cat.systems[other].name
        reason = fuel_refusal(campaign, f"the jump to {name}", route.fuel)
        out.append(
            Destination(
                kind="jump",
                id=other,
                name=name,
                arrival=cat.arrival_place(other).id,
                fuel=route.fuel,
                days=route.days,
                affordable=reason is None,
                reason=reason,
            )
        )
    return out


@frozen(kw_only=True)
class Hop:
    origin: str  # system id
    to: str  # system id
    fuel: int
    days: int


@frozen(kw_only=True)
class RoutePlan:
    """A planning aid: the quickest chain of jumps to a system (travel itself is hop by hop)."""

    target: str
    systems: tuple[str, ...]  # from the current system to the target, both included
    hops: tuple[Hop, ...]
    fuel: int
    days: int
    fuel_enough: bool  # the fuel held now covers the whole chain (no refuelling on the way)


Neighbours = Callable[[str], Iterable[tuple[str, int, int]]]


def quickest_chain(start: str, target: str, neighbours: Neighbours) -> tuple[str, ...] | None:
    """The chain of systems from `start` to `target` with the fewest days; ties go to less fuel,
    then fewer jumps, then the alphabetically first list of system ids. `neighbours(s)` gives
    (system, fuel, days) for every route from s. None when `target` cannot be reached."""
    best: tuple[int, int, int, tuple[str, ...]] | None = None

    def walk(path: tuple[str, ...], days: int, fuel: int) -> None:
        nonlocal best
        if best is not None and days > best[0]:
            return
        node = path[-1]
        if node == target:
            key = (days, fuel, len(path) - 1, path)
            if best is None or key < best:
                best = key
            return
        for other, hop_fuel, hop_days in neighbours(node):
            if other not in path:
                walk((*path, other), days + hop_days, fuel + hop_fuel)

    walk((start,), 0, 0)
    return None if best is None else best[3]


def route_plan(campaign: Campaign, system_id: str) -> RoutePlan | None:
    """The quickest chain of jumps from the current system to `system_id` (`quickest_chain`).
    None when no chain exists; KeyError for an unknown system."""
    cat = catalog()
    if system_id not in cat.systems:
        raise KeyError(system_id)

    def neighbours(system: str) -> list[tuple[str, int, int]]:
        return [(other, r.fuel, r.days) for other, r in cat.routes_from(system)]

    path = quickest_chain(current_system(campaign), system_id, neighbours)
    if path is None:
        return None
    hops = []
    for a, b in itertools.pairwise(path):
        route = cat.route(a, b)
        assert route is not None
        hops.append(Hop(origin=a, to=b, fuel=route.fuel, days=route.days))
    fuel = sum(h.fuel for h in hops)
    return RoutePlan(
        target=system_id,
        systems=path,
        hops=tuple(hops),
        fuel=fuel,
        days=sum(h.days for h in hops),
        fuel_enough=fuel <= campaign.fuel,
    )


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    Travel: campaign_handler(_travel),
    Jump: campaign_handler(_jump),
}
CHECKS: Checks = campaign_checks(
    HANDLERS,
    {
        Travel: lambda c, cmd: travel_refusal(c, cmd.place),
        Jump: lambda c, cmd: jump_refusal(c, cmd.system),
    },
)
