"""Derived frame statistics: every number here is read from the catalog (§2, §3, §5, §6.4, §7).

These are pure functions of a `Unit`; the battle state never stores what they compute.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..catalog import LOCATION_ORDER, catalog
from ..catalog.records import ApCosts, Chassis, Weapon
from ..memo import ByIdentity
from .state import LEGS, LOC_INDEX, EquipmentState, Unit, WeaponState


def ap_costs() -> ApCosts:
    """§2: what each action costs in AP."""
    return catalog().combat.ap_costs


def chassis_of(unit: Unit) -> Chassis:
    return catalog().chassis[unit.chassis]


def weapon_of(ws: WeaponState) -> Weapon:
    return catalog().weapons[ws.weapon]


def equipment_total(equipment: Iterable[EquipmentState], effect: str) -> int:
    """Sum of `value` over the working pieces of ``equipment`` with this effect (0 if none)."""
    cat = catalog()
    return sum(
        cat.equipment[e.equipment].value
        for e in equipment
        if not e.destroyed and cat.equipment[e.equipment].effect == effect
    )


def equipment_value(unit: Unit, effect: str) -> int:
    """Sum of `value` over the unit's working equipment with this effect (0 if none)."""
    return _EFFECTS.get(unit.equipment, _effect_totals, catalog()).get(effect, 0)


def _effect_totals(equipment: tuple[EquipmentState, ...]) -> dict[str, int]:
    """`equipment_total` of every effect at once (a frame's equipment tuple is shared by its
    states until a piece is destroyed, so this is worked out about once a battle)."""
    cat = catalog()
    totals: dict[str, int] = {}
    for e in equipment:
        if not e.destroyed:
            eq = cat.equipment[e.equipment]
            totals[eq.effect] = totals.get(eq.effect, 0) + eq.value
    return totals


_EFFECTS: ByIdentity[tuple[EquipmentState, ...], dict[str, int]] = ByIdentity(1024)


def equipment_count(unit: Unit, effect: str) -> int:
    cat = catalog()
    return sum(
        1 for e in unit.equipment if not e.destroyed and cat.equipment[e.equipment].effect == effect
    )


def armor_split(chassis: Chassis) -> tuple[int, ...]:
    """§8.2 with R26: floor each share, then hand leftovers to the largest remainders."""
    locs = catalog().combat.location
    exact = [chassis.armor * loc.armor_permille for loc in locs]
    parts = [e // 1000 for e in exact]
    leftover = chassis.armor - sum(parts)
    order = sorted(range(len(locs)), key=lambda i: (-(exact[i] % 1000), i))
    for i in order[:leftover]:
        parts[i] += 1
    return tuple(parts)


def full_structure(chassis: Chassis) -> tuple[int, ...]:
    """§8.4 structure per location, in LOCATION_ORDER."""
    cat = catalog()
    return tuple(chassis.structure.of(cat.location(loc).structure_key) for loc in LOCATION_ORDER)


def starting_ammo(weapon: Weapon, ammo_bins: int) -> int:
    """R12: AmmoPerShot x (8 + 4 x Ammo Bins); energy weapons carry none."""
    if not weapon.uses_ammo:
        return 0
    cat = catalog()
    bonus = sum(e.value for e in cat.equipment.values() if e.effect == "bonus_reloads")
    return weapon.ammo_per_shot * (cat.combat.ammo.reloads + bonus * ammo_bins)


def effective_output(unit: Unit) -> int:
    """§5.1: ReactorOutput + boost - ReactorHits x 3, at least the minimum."""
    r = catalog().combat.reactor
    out = (
        chassis_of(unit).reactor
        + equipment_value(unit, "reactor_boost")
        - unit.reactor_hits * r.reactor_hit_output
    )
    return max(r.min_output, out)


def overload_limit(unit: Unit) -> int:
    """§5.3: a frame may spend up to 150% of its effective output in a round."""
    return effective_output(unit) * catalog().combat.reactor.overload_percent // 100


def energy_left(unit: Unit) -> int:
    """Energy that may still be spent this round, overload included (0 when shut down)."""
    if unit.shutdown:
        return 0
    return max(0, overload_limit(unit) - unit.energy_used)


def max_ap(unit: Unit) -> int:
    """§2: 2 AP, 1 with a gyro hit."""
    rounds = catalog().combat.rounds
    return rounds.gyro_hit_action_points if unit.gyro_hit else rounds.action_points


def hex_movement(unit: Unit, sprint: bool = False) -> int:
    """§6.4 per class, less Stealth Plating's penalty (at least 1 hex: docs/rulings.md D8);
    O7.6: halved while Stunned (Sprint doubles that)."""
    cat = catalog()
    base = cat.classes[chassis_of(unit).class_].hex_movement
    penalty = sum(
        cat.equipment[e.equipment].move_penalty for e in unit.equipment if not e.destroyed
    )
    hexes = max(1, base - penalty)
    if unit.stun == "stunned":  # O7.6: halved, rounded down, at least 1
        stun = cat.kicks.stun
        hexes = max(stun.movement_min, hexes // stun.movement_divisor)
    return hexes * cat.combat.movement.sprint_range_multiplier if sprint else hexes


def move_energy(unit: Unit, *, sprint: bool = False, pullback: bool = False) -> int:
    """§5.2, R3: base cost plus +2 per leg actuator hit; pull-back x1.5 (up), sprint x2."""
    mv = catalog().combat.movement
    base = chassis_of(unit).move_energy + unit.actuator_hits[LEGS] * mv.leg_actuator_energy
    if sprint:
        return base * mv.sprint_energy_multiplier
    if pullback:
        return -(-base * mv.pullback_energy_percent // 100)
    return base


def gunnery_bonus(unit: Unit) -> int:
    """§3.2: Gunnery x 2, zeroed once the cockpit is breached (§4.6)."""
    if unit.cockpit_breached:
        return 0
    return unit.pilot.gunnery * catalog().combat.accuracy.gunnery_per_point


def evasion(unit: Unit) -> int:
    return chassis_of(unit).evasion


def can_move(unit: Unit) -> bool:
    """§2: destroyed legs prevent Move and Sprint."""
    return unit.structure[LEGS] > 0


def weapon_range(weapon: Weapon) -> int:
    return catalog().range_class(weapon.range).max_range


def group_weapons(unit: Unit, group: int) -> tuple[tuple[int, WeaponState], ...]:
    return tuple((i, w) for i, w in unit.live_weapons() if w.group == group)


def has_shots(ws: WeaponState) -> bool:
    """A working weapon that can still fire: energy weapons always, others while ammo lasts."""
    if ws.destroyed:
        return False
    w = weapon_of(ws)
    return not w.uses_ammo or ws.ammo >= w.ammo_per_shot


def armed(unit: Unit) -> bool:
    return any(has_shots(ws) for ws in unit.weapons)


def longest_range(unit: Unit) -> int:
    """R30: the maximum range of the frame's longest weapon that can still fire (0: none)."""
    return max((weapon_range(weapon_of(ws)) for ws in unit.weapons if has_shots(ws)), default=0)


def fires_indirectly(unit: Unit) -> bool:
    """The frame has a weapon that can still fire indirectly (R10: over blocking lines, given a
    spotter)."""
    return any(weapon_of(ws).indirect and has_shots(ws) for ws in unit.weapons)


def damaged(unit: Unit) -> bool:
    """§10.4 with R14 (amended): the frame has lost at least `damaged_armor_lost_percent` of the
    armour it had when the battle began (all locations; Barrier armour is not armour) or any
    structure since then."""
    lost = unit.start_armor - unit.total_armor
    share = catalog().combat.withdrawal.damaged_armor_lost_percent
    if lost > 0 and lost * 100 >= unit.start_armor * share:
        return True
    return unit.total_structure < unit.start_structure


def groups(unit: Unit) -> tuple[int, ...]:
    """Weapon groups with at least one working weapon, ascending."""
    return tuple(sorted({w.group for _, w in unit.live_weapons()}))


def location_index(location: str) -> int:
    return LOC_INDEX[location]
