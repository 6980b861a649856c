"""Firing (§7.2, R4, R5, R6): which weapons of a group fire at a target and which are skipped,
the shots themselves, and overwatch fire at the end of the round.

`check_fire` returns the reason an order to fire is illegal, or its plan, without touching the
state; the handler (`actions.py`), `legal.py`, the previews and the AI all go through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, Catalog, catalog
from ..core import Event
from ..dice import Dice
from ..memo import ByIdentity
from . import detection, elevation, facing, formations, stats
from .attack import hit_chance, in_range, line_blocked, range_modifier, resolve_attack
from .events import (
    Attacked,
    BattleChange,
    GroupFired,
    WeaponSkipped,
)
from .formations import Dodged
from .state import Battle, Unit, WeaponState
from .stats import ap_costs
from .third_parties import note_damage

#: The kind of an O6 shot (O6.3 a triggered cone, O6.6 a sweep), None for any other.
Reaction = Literal["reaction", "sweep"] | None

#: Why a weapon out of range of its target does not fire.
OUT_OF_RANGE = "out of range"
#: Why a weapon does not fire past high ground (O2.6).
LINE_BLOCKED = "behind high ground"
#: Why a weapon whose line to its target a building or prop blocks does not fire (O3.2).
BLOCKED = "no line of fire"
#: Why a weapon whose mount arc does not hold its target does not fire (O4.8).
OUT_OF_ARC = "out of arc"
#: Why a weapon does not fire at a target its frame does not detect (O8.6).
NOT_DETECTED = "target not detected"


@frozen
class FirePlan:
    """Which weapons of a group would fire and which would be skipped, and why."""

    shots: tuple[int, ...]
    skipped: tuple[tuple[int, str], ...]
    energy: int


def plan_fire(
    battle: Battle,
    unit: Unit,
    group: int,
    target: Unit,
    called: bool,
    overwatch: bool = False,
    reaction: Reaction = None,
) -> FirePlan:
    """§7.2: each weapon draws its own energy; one that cannot be paid is skipped. A weapon
    fires when it reaches the target (`reach_refusal`: a called shot or overwatch changes the
    hit chance, never whether it reaches; an O6 `reaction` shot fires only directly), has
    ammunition and its energy is paid."""
    return plan_group(unit, group, lambda ws: reach_refusal(battle, unit, target, ws, reaction))


def reach_refusal(
    battle: Battle, unit: Unit, target: Unit, ws: WeaponState, reaction: Reaction = None
) -> str | None:
    """Why `ws` of `unit` cannot reach `target` (O8.6 detection, range, O4.8's mount arc,
    O2.6's height line, O3.2's features; O6.5: a reaction or sweep shot has no R10 spotter),
    or None."""
    if detection.attack_refusal(battle, unit, target) is not None:  # O8.6
        return NOT_DETECTED
    if in_range(battle, unit, target, ws) is None:  # hit_chance is None (core, O2, O4)
        return _why_unreachable(battle, unit, target, ws)
    if (battle.structures or reaction is not None) and hit_chance(
        battle, unit, target, ws, reaction=reaction
    ) is None:
        return BLOCKED  # O3.2: a building or prop in the way; O6.5: no indirect fire
    return None


def plan_group(
    unit: Unit, group: int, unreachable: Callable[[WeaponState], str | None]
) -> FirePlan:
    """§7.2 for any target: in group order, a weapon `unreachable` gives a reason for is
    skipped with it, then one out of ammunition, then one whose energy cannot be paid; the
    rest fire (`plan_fire` at a frame, `structures.plan_fire_structure` at a feature)."""
    energy = stats.energy_left(unit)
    shots: list[int] = []
    skipped: list[tuple[int, str]] = []
    spent = 0
    for index, ws in stats.group_weapons(unit, group):
        w = stats.weapon_of(ws)
        reason = unreachable(ws)
        if reason is not None:
            skipped.append((index, reason))
        elif w.uses_ammo and ws.ammo < w.ammo_per_shot:
            skipped.append((index, "out of ammo"))
        elif energy - spent < w.energy:
            skipped.append((index, f"needs {w.energy} energy, {energy - spent} left"))
        else:
            shots.append(index)
            spent += w.energy
    return FirePlan(shots=tuple(shots), skipped=tuple(skipped), energy=spent)


def _why_unreachable(battle: Battle, unit: Unit, target: Unit, ws: WeaponState) -> str:
    """Why `in_range` is None: out of range, else out of the mount's arc (O4.8), else behind
    high ground (O2.6)."""
    if unit.pos is None or target.pos is None:
        return OUT_OF_RANGE
    dist = elevation.attack_distance(battle, unit.pos, target.pos)
    if range_modifier(stats.weapon_of(ws).range, dist) is None:
        return OUT_OF_RANGE
    if not facing.bears(battle, unit, ws, target.pos):
        return OUT_OF_ARC
    return LINE_BLOCKED if _blocked_in_range(battle, unit, target, ws) else OUT_OF_RANGE


def _blocked_in_range(battle: Battle, unit: Unit, target: Unit, ws: WeaponState) -> bool:
    """O2.6: within the weapon's range, but past a blocked height line."""
    if unit.pos is None or target.pos is None or not line_blocked(battle, unit, target, ws):
        return False
    dist = elevation.attack_distance(battle, unit.pos, target.pos)
    return range_modifier(stats.weapon_of(ws).range, dist) is not None


#: `check_fire`'s answers by battle and frame (both immutable) and the catalog in force: a
#: bot's refusal, its preview and the step's own check ask the same question of one state.
_Answers = dict[tuple[int, str, str | None], tuple[Catalog, FirePlan | str]]
_CHECKED: ByIdentity[Battle, _Answers] = ByIdentity(64)


def check_fire(
    battle: Battle, unit: Unit, group: int, target_id: str, location: str | None
) -> FirePlan | str:
    """Why `unit` may not fire `group` at `target_id` (a called shot at `location`), or the
    plan of its shots (`plan_fire`)."""
    answers = _CHECKED.get(battle, lambda _: {}, unit)
    cat = catalog()
    key = (group, target_id, location)
    known = answers.get(key)
    if known is None or known[0] is not cat:
        known = answers[key] = (cat, _check_fire(battle, unit, group, target_id, location))
    return known[1]


def _check_fire(
    battle: Battle, unit: Unit, group: int, target_id: str, location: str | None
) -> FirePlan | str:
    ap_cost = ap_costs().called_shot if location is not None else ap_costs().fire_group
    if unit.ap < ap_cost:
        return f"needs {ap_cost} AP, {unit.ap} left"
    dodging = formations.dodge_refusal(unit)  # O9.9d
    if dodging:
        return dodging
    if group in unit.fired_groups:
        return f"group {group} has already fired this round"
    if not stats.group_weapons(unit, group):
        return f"group {group} has no working weapon"
    held = held_refusal(unit, group)  # O6: armed in a cone or sweeping
    if held:
        return held
    if location is not None and location not in LOCATION_ORDER:
        return f"no location {location!r} (choose from {', '.join(LOCATION_ORDER)})"
    try:
        target = battle.unit(target_id)
    except KeyError:
        return f"no frame {target_id!r}"
    if not battle.may_attack(unit.side, target.side):
        if unit.side == "neutral":  # O10.5
            return "the neutrals fire only at the side they hold the grudge against"
        return f"{target.label} is on your side"
    if not target.active or target.pos is None:
        return f"{target.label} is out of the fight"
    unseen = detection.attack_refusal(battle, unit, target)  # O8.6
    if unseen is not None:
        return unseen
    plan = plan_fire(battle, unit, group, target, location is not None)
    if not plan.shots:
        reasons = sorted({reason for _, reason in plan.skipped})
        return f"no weapon of group {group} can fire at {target.label}: {'; '.join(reasons)}"
    return plan


def fire(
    battle: Battle,
    unit_id: str,
    group: int,
    target_id: str,
    dice: Dice,
    *,
    location: str | None = None,
    overwatch: bool = False,
    plan: FirePlan | None = None,
    reaction: Reaction = None,
    breach: bool = False,
) -> BattleChange:
    """Fire the weapons of a planned group in order, paying energy and ammo for each shot.
    `plan`: the group's `plan_fire` in this battle when the caller has it already;
    `reaction`: an O6 shot (O6.3, O6.6). `breach`: a Breach Shot was declared (O9.9a): the
    group's first hit that reaches a location is its."""
    unit = battle.unit(unit_id)
    target = battle.unit(target_id)
    if plan is None:
        plan = plan_fire(battle, unit, group, target, location is not None, overwatch, reaction)
    events: list[Event] = []
    fired = attrs.evolve(unit, fired_groups=(*unit.fired_groups, group))
    battle = battle.with_unit(fired)
    for index, reason in plan.skipped:
        events.append(WeaponSkipped(unit=unit_id, weapon=unit.weapons[index].weapon, reason=reason))
    for index in plan.shots:
        shooter = battle.unit(unit_id)
        if not battle.unit(target_id).active:
            events.append(
                WeaponSkipped(
                    unit=unit_id, weapon=shooter.weapons[index].weapon, reason="target is down"
                )
            )
            continue
        ws = shooter.weapons[index]
        w = stats.weapon_of(ws)
        weapons = list(shooter.weapons)
        weapons[index] = attrs.evolve(ws, ammo=ws.ammo - w.ammo_per_shot if w.uses_ammo else 0)
        shooter = attrs.evolve(
            shooter, weapons=tuple(weapons), energy_used=shooter.energy_used + w.energy
        )
        battle = battle.with_unit(shooter)
        before = battle.unit(target_id)
        battle, result = resolve_attack(
            battle,
            unit_id,
            target_id,
            index,
            dice,
            called_location=location,
            overwatch=overwatch,
            reaction=reaction,
            breach=breach,
        )
        if result.location is not None:
            breach = False  # O9.9a: only the group's first hit
        if result.dodged:
            events.append(Dodged(unit=target_id, attacker=unit_id, weapon=result.weapon))
        events.append(Attacked(result=result))
        battle, grudge = note_damage(battle, shooter, before)  # O10.5
        events.extend(grudge)
    battle = formations.note_attack(battle, unit, target_id)  # O9.6
    events.insert(
        0,
        GroupFired(
            unit=unit_id,
            group=group,
            target=target_id,
            called=location,
            energy=plan.energy,
            overwatch=overwatch,
            reaction=reaction == "reaction",
            sweep=reaction == "sweep",
        ),
    )
    return battle, events


def check_fire_order(
    battle: Battle, unit: Unit, group: int, target: str, location: str | None, breach: bool
) -> FirePlan | str:
    """`check_fire`, and for a declared Breach Shot (O9.9a) that the pilot holds it."""
    plan = check_fire(battle, unit, group, target, location)
    if isinstance(plan, str) or not breach:
        return plan
    if not formations.on(battle):
        return "Breach Shot is optional rule O9, not in this battle's rules"
    return formations.check_breach(unit) or plan


def do_fire(
    battle: Battle,
    unit: Unit,
    group: int,
    target: str,
    location: str | None,
    dice: Dice,
    breach: bool = False,
) -> BattleChange | str:
    plan = check_fire_order(battle, unit, group, target, location, breach)
    if isinstance(plan, str):
        return plan
    ap_cost = ap_costs().called_shot if location is not None else ap_costs().fire_group
    payer = attrs.evolve(unit, ap=unit.ap - ap_cost)
    declared: list[Event] = []
    if breach:  # O9.9a: declared with the order, spent whatever the dice do
        payer = formations.spend(payer, formations.BREACH_SHOT)
        declared.append(formations.AbilityUsed(unit=unit.id, ability=formations.BREACH_SHOT))
    battle = battle.with_unit(payer)
    # The plan stands: paying the AP changes no energy, ammunition or position.
    battle, events = fire(
        battle, unit.id, group, target, dice, location=location, plan=plan, breach=breach
    )
    return battle, declared + events


def overwatch_target(
    battle: Battle,
    unit: Unit,
    group: int,
    *,
    reaction: Reaction = None,
    among: Callable[[Unit], bool] | None = None,
) -> Unit | None:
    """R4: the nearest enemy some weapon of the group can reach; ties: lowest armour, then
    initiative order. O6.6's sweep picks its target the same way, with `reaction` "sweep"
    and only among the enemies in its cone (`among`)."""
    if unit.pos is None:
        return None
    order = {uid: i for i, uid in enumerate(battle.order)}
    best: tuple[int, int, int] | None = None
    chosen: Unit | None = None
    for enemy in battle.foes(unit.side):
        if enemy.pos is None or not detection.detects(battle, unit, enemy):
            continue  # O8.6: R4's nearest *detected* enemy
        if among is not None and not among(enemy):
            continue  # O6.6: the sweep's cone
        if not any(
            reach_refusal(battle, unit, enemy, ws, reaction) is None
            for _, ws in stats.group_weapons(unit, group)
        ):
            continue
        near = elevation.attack_distance(battle, unit.pos, enemy.pos)  # O2.5: d3
        key = (near, enemy.total_armor, order.get(enemy.id, 99))
        if best is None or key < best:
            best, chosen = key, enemy
    return chosen


def check_simple(unit: Unit, cost: int, what: str) -> str | None:
    if unit.ap < cost:
        return f"{what} needs {cost} AP, {unit.ap} left"
    return None


def check_overwatch(unit: Unit, group: int) -> str | None:
    reason = check_simple(unit, ap_costs().overwatch, "overwatch")
    if reason:
        return reason
    if not any(stats.has_shots(ws) for _, ws in stats.group_weapons(unit, group)):
        return f"group {group} has no weapon that can still fire"
    if group in unit.fired_groups:
        return f"group {group} has already fired this round"
    if unit.overwatch_group is not None:
        return f"{unit.label} is already on overwatch with group {unit.overwatch_group}"
    return held_refusal(unit, group) or formations.dodge_refusal(unit)  # O6.2, O9.9d


def held_refusal(unit: Unit, group: int) -> str | None:
    """O6.2: a group armed in a cone fires only as the cone (never with O6 off: no cone is
    ever armed). A sweep's group is free again once any order but a Move lapses it (O6.6)."""
    if unit.reaction is not None and unit.reaction.group == group:
        return f"group {group} is armed for reaction fire"
    return None


def resolve_overwatch(battle: Battle, dice: Dice) -> BattleChange:
    """§1 phase 4 with R4, R5: each frame still on overwatch fires its group once, at -10%."""
    events: list[Event] = []
    for uid in battle.order:
        unit = battle.unit(uid)
        group = unit.overwatch_group
        if group is None or not unit.active or unit.shutdown or unit.dodging:
            continue
        battle = battle.with_unit(attrs.evolve(unit, overwatch_group=None))
        unit = battle.unit(uid)
        if group in unit.fired_groups:
            continue
        target = overwatch_target(battle, unit, group)
        if target is None:
            continue
        plan = plan_fire(battle, unit, group, target, False, overwatch=True)
        if not plan.shots:
            continue
        battle, more = fire(battle, uid, group, target.id, dice, overwatch=True)
        events.extend(more)
        if not battle.living("player") or not battle.living("enemy"):
            break
    return battle, events
