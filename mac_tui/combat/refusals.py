"""Why no order of a kind can be given now: the engine's reason, for a key that is greyed.

`order_refusal(battle, kind)` answers for the frame acting now: None when some command of
`kind` (Move, FireGroup, Brace...) would be accepted, else one sentence, taken from the same
`check_*` functions `legal_commands` and the handlers run (the AP first, then the frame, then
the first candidate's own reason), so what a screen says is what `step` would say.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..catalog import catalog
from ..core import Command
from ..hexgrid import within
from . import detection, elevation, facing, stats, track
from .actions import (
    check_brace,
    check_equipment,
    check_hold,
    check_turn,
    check_vent,
    check_withdraw,
)
from .commands import Brace as BraceOrder
from .commands import (
    CalledShot,
    EndActivation,
    FireGroup,
    FireStructure,
    Hold,
    Kick,
    Move,
    Overwatch,
    Pivot,
    ReactionFire,
    Sprint,
    Sweep,
    Turn,
    UseEquipment,
    Vent,
    Withdraw,
)
from .firing import OUT_OF_RANGE, check_fire, check_overwatch, plan_fire
from .kicks import kick_refusal
from .movement import check_move, reach
from .preview import move_ap_cost, targets
from .reaction import check_reaction_fire, check_sweep, cone_directions
from .state import Battle, Unit
from .structures import check_fire_structure, targetable

__all__ = ["order_refusal", "reverse_refusal"]


def order_refusal(battle: Battle | None, kind: type[Command]) -> str | None:
    """Why the frame acting now can give no order of `kind` (None: it can)."""
    if battle is None or battle.phase == "over":
        return "the battle is over"
    if battle.phase == "deployment":
        return "the battle has not started: place your lance and start it"
    unit = battle.active_unit
    if unit is None:
        return "no frame is acting"
    if kind in (Move, Sprint):
        return _move(battle, unit, kind is Sprint)
    if kind in (FireGroup, CalledShot):
        return _fire(battle, unit, called=kind is CalledShot)
    if kind is FireStructure:
        return _fire_structure(battle, unit)
    if kind is Kick:
        return kick_refusal(battle, unit)
    if kind is BraceOrder:
        return check_brace(unit)
    if kind is Vent:
        return check_vent(unit)
    if kind is Overwatch:
        groups = stats.groups(unit)
        if not groups:
            return f"{unit.label} has no working weapon"
        reasons = [check_overwatch(unit, g) for g in groups]
        return None if None in reasons else reasons[0]
    if kind is ReactionFire:  # O6.2: any group, any direction it may point
        return _first(
            check_reaction_fire(battle, unit, g, d)
            for g in stats.groups(unit) or (0,)
            for d in cone_directions(unit)
        )
    if kind is Sweep:  # O6.6
        return _first(check_sweep(battle, unit, g) for g in stats.groups(unit) or (0,))
    if kind is UseEquipment:
        return _equipment(battle, unit)
    if kind is Withdraw:
        return check_withdraw(unit)
    if kind is EndActivation:
        return None
    if kind is Hold:
        return check_hold(battle)
    if kind is Pivot:  # O4.5
        reasons = [facing.check_pivot(battle, unit, n) for n in facing.DIRECTION_NAMES]
        return None if None in reasons else _first_facing_reason(reasons)
    if kind is Turn:  # O4.6
        reasons = [check_turn(battle, unit, n) for n in facing.DIRECTION_NAMES]
        return None if None in reasons else _first_facing_reason(reasons)
    return None


def _first(reasons: Iterable[str | None]) -> str | None:
    """None when some candidate is accepted, else the first candidate's reason."""
    first: str | None = None
    for reason in reasons:
        if reason is None:
            return None
        first = first or reason
    return first


def _first_facing_reason(reasons: list[str | None]) -> str:
    """The first reason that is not about the particular facing tried."""
    said = [r for r in reasons if r is not None]
    general = [r for r in said if "already faces" not in r and "one hexside" not in r]
    return (general or said)[0]


def reverse_refusal(battle: Battle | None) -> str | None:
    """O4.3: why the frame acting now can make no reverse Move (None: it can)."""
    if battle is None or battle.phase != "combat" or battle.active_unit is None:
        return order_refusal(battle, Move)
    unit = battle.active_unit
    why = facing.move_refusal(battle, unit, False, True) or _move(battle, unit, False)
    if why is not None:
        return why
    if any(
        not isinstance(check_move(battle, unit, h, False, reverse=True), str)
        for h in reach(battle, unit, False, True)
        if h != unit.pos
    ):
        return None
    return "no free hex behind it to back into"


def _move(battle: Battle, unit: Unit, sprint: bool) -> str | None:
    cost = move_ap_cost(sprint)
    if unit.ap < cost:
        return f"needs {cost} AP, {unit.ap} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot move"
    energy = stats.move_energy(unit, sprint=sprint)
    if stats.energy_left(unit) < energy:
        return f"needs {energy} energy, {stats.energy_left(unit)} left"
    reached = reach(battle, unit, sprint)
    if any(
        not isinstance(check_move(battle, unit, h, sprint, reached), str)
        for h in reached
        if h != unit.pos
    ):
        return None
    if track.on(battle) and unit.pos is not None:  # O1: why neither way along the track
        shift = track.sprint_positions() if sprint else catalog().range_bands.moving.move
        ends = [unit.pos.q - shift, unit.pos.q + shift]
        reasons = [
            check_move(battle, unit, track.at(p), sprint)
            for p in ends
            if 0 <= p < track.positions()
        ]
        said = [r for r in reasons if isinstance(r, str)]
        return said[0] if said else "no position in reach"
    return "no free hex in reach"


def _fire(battle: Battle, unit: Unit, called: bool) -> str | None:
    costs = stats.ap_costs()
    cost = costs.called_shot if called else costs.fire_group
    if unit.ap < cost:
        return f"needs {cost} AP, {unit.ap} left"
    groups = stats.groups(unit)
    if not groups:
        return f"{unit.label} has no working weapon"
    ready = [g for g in groups if g not in unit.fired_groups]
    if not ready:
        return "every weapon group has fired this round"
    enemies = targets(battle, unit)
    if not enemies:
        return "no enemy detected" if detection.on(battle) else "no enemy is on the map"  # O8
    location = "head" if called else None
    in_range = False
    first: str | None = None
    for enemy in enemies:
        for group in ready:
            reason = check_fire(battle, unit, group, enemy.id, location)
            if not isinstance(reason, str):
                return None
            first = first or reason
            plan = plan_fire(battle, unit, group, enemy, called)
            in_range = in_range or any(why != OUT_OF_RANGE for _, why in plan.skipped)
    nearest = enemies[0]
    if not in_range and unit.pos is not None and nearest.pos is not None:
        hexes = elevation.attack_distance(battle, unit.pos, nearest.pos)  # d3 with O2
        return f"no enemy in range: the nearest, {nearest.label}, is {hexes} hexes away"
    return first


def _fire_structure(battle: Battle, unit: Unit) -> str | None:
    """O3.6: None when some group can fire at some section; else the first reason."""
    if not battle.rule("O3"):
        return "there are no structures to fire at: optional module O3 is off"
    first: str | None = None
    for section in battle.structures:
        if not targetable(section):
            continue
        for group in stats.groups(unit):
            reason = check_fire_structure(battle, unit, group, section.hex)
            if not isinstance(reason, str):
                return None
            first = first or reason
    return first or "no structure is left standing to fire at"


def _equipment(battle: Battle, unit: Unit) -> str | None:
    cat = catalog()
    items = sorted(
        {
            e.equipment
            for e in unit.equipment
            if not e.destroyed and cat.equipment[e.equipment].category == "active"
        }
    )
    if not items:
        return f"{unit.label} carries no working device to use"
    reasons: list[str] = []
    for item in items:
        eq = cat.equipment[item]
        if eq.effect == "jump" and unit.pos is not None:
            hexes = within(unit.pos, eq.value)
            tries = [check_equipment(battle, unit, item, None, h) for h in hexes]
            nowhere = f"{eq.name}: no free hex to land on within {eq.value}"
        elif eq.effect == "smoke" and unit.pos is not None:  # O3.10
            hexes = within(unit.pos, eq.range)
            tries = [check_equipment(battle, unit, item, None, h) for h in hexes]
            nowhere = f"{eq.name}: no hex on the map within {eq.range}"
        elif eq.effect == "ecm":
            tries, nowhere = [check_equipment(battle, unit, item, None, None)], ""
        else:
            tries = [check_equipment(battle, unit, item, u.id, None) for u in battle.units]
            nowhere = f"{eq.name}: no frame in reach to use it on"
        if None in tries:
            return None
        # One reason for every try is the frame's own (AP, energy, legs); else none fits.
        distinct = {r for r in tries if r is not None}
        reasons.append(distinct.pop() if len(distinct) == 1 else nowhere)
    return reasons[0]
