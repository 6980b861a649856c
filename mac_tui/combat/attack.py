"""To-hit resolution and the whole attack of one weapon (§3, §6.5, §7.4, §7.7.3, §4).

* `range_modifier` — the distance modifier of a weapon's range class (§3.4, §6.5, R1, R2).
* `line_of_sight` — the intervening hexes and their LOS penalties (§3.6, R29: where the line
  runs along an edge, the hex worse for the shooter); `los_penalty` their sum.
* `hit_chance` — the named, ordered modifiers of §3 (base, gunnery, evasion, range, brace,
  sensor, called shot, actuator, cover, LOS or indirect fire (R10), equipment (§7.7.3, R11),
  overwatch (§1, R4)) summed and clamped to the catalog's [min_chance, max_chance].
* `resolve_attack` — the d100 roll-under (§3, §17.3), the cosmetic critical (§3.8), point
  defense (§7.7.3), the hit location (§4.1) or called shot, the §4 damage cascade
  (`damage.apply_damage`) and the Flamer's stress (R9). It pays no AP, energy or ammo.

Every number is read from the catalog; every random draw comes from ``dice.COMBAT``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from ..dice import COMBAT, Dice
from ..hexgrid import Hex
from ..stored import optional_field
from . import detection, elevation, facing, formations, moving_fire, stun, track
from .damage import DamageReport, apply_damage
from .features import kind_of, section_at, smoke_at
from .lines import (
    LosHex,
    battle_line,
    blocked,
    intervening,
    line_of_sight,
    los_penalty,
)
from .state import LOC_INDEX, Battle, EquipmentState, Unit, WeaponState
from .stats import chassis_of, equipment_count, equipment_value, evasion, gunnery_bonus, weapon_of

__all__ = [
    "ARM_LOCATIONS",
    "AttackResult",
    "HitChance",
    "LosHex",
    "Modifier",
    "battle_line",
    "blocked",
    "clamp_chance",
    "distance_band",
    "hit_chance",
    "hit_location_weights",
    "in_range",
    "intervening",
    "line_blocked",
    "line_of_sight",
    "los_penalty",
    "missile_pass_chance",
    "range_modifier",
    "resolve_attack",
    "spotter",
]

#: Mount locations whose actuator hits cost accuracy (§3.5 "the weapon's arm").
ARM_LOCATIONS: Final[tuple[str, ...]] = ("left_arm", "right_arm")
#: The range class Sensor Array helps (§7.7.3 "Long-range weapon").
LONG_RANGE: Final = "long"
#: The weapon type Point Defense intercepts (§7.7.3).
MISSILE: Final = "missile"

# Equipment effects (data/equipment.toml `effect`), in the order their modifiers are listed.
EVASION_REDUCTION: Final = "evasion_reduction"
LONG_RANGE_BONUS: Final = "long_range_bonus"
STEALTH: Final = "stealth"
RANGED_ECM: Final = "ranged_ecm"
ECM: Final = "ecm"
DESIGNATE: Final = "designate"
MISSILE_INTERCEPT: Final = "missile_intercept"


# --- the hit chance ---------------------------------------------------------------------------
@frozen
class Modifier:
    """One named line of the hit-chance breakdown (§3.7), in percentage points."""

    name: str
    value: int
    detail: str = ""


def clamp_chance(total: int) -> int:
    """§3: the final hit chance is clamped to the catalog's [min_chance, max_chance]."""
    acc = catalog().combat.accuracy
    return max(acc.min_chance, min(acc.max_chance, total))


@frozen
class HitChance:
    """The breakdown, its sum and the clamped chance: ``chance == clamp(sum(values))``."""

    modifiers: tuple[Modifier, ...]
    total: int
    chance: int

    @classmethod
    def of(cls, modifiers: Iterable[Modifier]) -> HitChance:
        mods = tuple(modifiers)
        total = sum(m.value for m in mods)
        return cls(mods, total, clamp_chance(total))

    def value(self, name: str) -> int | None:
        """The value of the modifier called ``name``, or None when it does not apply."""
        return next((m.value for m in self.modifiers if m.name == name), None)


def _div_round_half_away(num: int, den: int) -> int:
    """``num / den`` rounded half away from zero, in integers (``den > 0``)."""
    q = (2 * abs(num) + den) // (2 * den)
    return q if num >= 0 else -q


def distance_band(dist: int) -> str:
    """The §3.4 column of a distance: point_blank, short, medium or long (catalog bands)."""
    bands = catalog().ranges.bands
    if dist <= bands.point_blank_max:
        return "point_blank"
    if dist <= bands.short_max:
        return "short"
    if dist <= bands.medium_max:
        return "medium"
    return "long"


def range_modifier(range_id: str, distance: int) -> int | None:
    """R1: the accuracy modifier of range class ``range_id`` at ``distance`` hexes.

    Inside the optimal band: ``modifier_at_optimal``. Past it: linear from
    ``modifier_at_optimal`` at ``optimal_max`` to ``modifier_at_max`` at ``max_range``,
    rounded half away from zero. Closer than the band: the §3.4 column of the distance band.
    ``None`` beyond ``max_range`` (cannot fire) and at distance < 1 (R2: cannot happen).
    """
    rc = catalog().range_class(range_id)
    if distance < 1 or distance > rc.max_range:
        return None
    if distance > rc.optimal_max:
        span = rc.max_range - rc.optimal_max
        num = rc.modifier_at_optimal * span + (rc.modifier_at_max - rc.modifier_at_optimal) * (
            distance - rc.optimal_max
        )
        return _div_round_half_away(num, span)
    if distance >= rc.optimal_min:
        return rc.modifier_at_optimal
    return rc.band_modifier(distance_band(distance))


def _los_detail(hexes: Sequence[LosHex]) -> str:
    """E.g. ``2 forest, 1 rocks``: the penalising terrains (and O3 features) in the order the
    line meets them."""
    counts: dict[str, int] = {}
    for lh in hexes:
        if lh.penalty:
            what = lh.feature if lh.feature is not None else lh.terrain
            counts[what] = counts.get(what, 0) + 1
    names = {t.id: t.name for t in catalog().terrain.values()}
    if any(lh.feature for lh in hexes):
        names.update({f.id: f.name for f in catalog().structures.feature})
    return ", ".join(f"{n} {names[t].lower()}" for t, n in counts.items())


def los_modifier(line: Sequence[LosHex]) -> list[Modifier]:
    """§3.6: the `LOS` entry of a line's penalties, when there are any."""
    through = sum(h.penalty for h in line)
    return [Modifier("LOS", -through, _los_detail(line))] if through else []


def smoke_modifier(battle: Battle, line: Sequence[LosHex], a: Hex, b: Hex) -> list[Modifier]:
    """O3.11: `smoke` -10 per smoke hex on the line, both end hexes counted (O0.4: a module
    entry, after the core ones)."""
    if not battle.smoke:
        return []
    n = sum(1 for lh in line if lh.smoke)
    n += (smoke_at(battle.smoke, a) > 0) + (smoke_at(battle.smoke, b) > 0)
    if not n:
        return []
    per = catalog().structures.smoke.penalty
    return [Modifier("smoke", -per * n, f"{n} smoke hex{'es' if n != 1 else ''}")]


def spotter(battle: Battle, attacker: Unit, target: Unit) -> Unit | None:
    """R10: the active ally of ``attacker`` (not itself) nearest ``target`` within the
    catalog's ``indirect_spotter_range``; ties go to the first in ``battle.units``. With O2
    on, the range is d3 (O2.5) and a spotter needs an unblocked height line (O2.6)."""
    if target.pos is None:
        return None
    reach = catalog().combat.accuracy.indirect_spotter_range
    best: tuple[int, Unit] | None = None
    for u in battle.units:
        if u.side != attacker.side or u.id == attacker.id or not u.active or u.pos is None:
            continue
        d = elevation.attack_distance(battle, u.pos, target.pos)  # O2.5: d3
        if d > reach or (best is not None and d >= best[0]):
            continue
        if elevation.line_blocked(battle, u.pos, target.pos):
            continue  # O2.6: a spotter needs an unblocked line
        if battle.structures and blocked(battle_line(battle, u.pos, target.pos)):
            continue  # O3.2 likewise
        if detection.on(battle) and not detection.sees(battle, u, target):
            continue  # O8.6: a spotter sees the target
        best = (d, u)
    return None if best is None else best[1]


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _equipment_name(effect: str) -> str:
    """The catalog name (lower case) of the first equipment with ``effect``."""
    return next(e.name for e in catalog().equipment.values() if e.effect == effect).lower()


def equipment_modifiers(
    battle: Battle, attacker: Unit, target: Unit, weapon: WeaponState | None, dist: int
) -> list[Modifier]:
    """§7.7.3 and R11: one modifier per equipment effect that applies (values are signed).
    `weapon` None is an O7 kick (O7.2): the attacker's Gyro Stabilizer, the target's Stealth
    Plating and active Countermeasure Suite (a Phantom Emitter never reaches 1 hex); no Sensor
    Array, no Uplink."""
    cat = catalog()
    mods: list[Modifier] = []

    def add(effect: str, value: int, detail: str) -> None:
        if value:
            mods.append(Modifier(_equipment_name(effect), value, detail))

    add(EVASION_REDUCTION, equipment_value(attacker, EVASION_REDUCTION), attacker.label)
    if weapon is not None and weapon_of(weapon).range == LONG_RANGE:
        add(LONG_RANGE_BONUS, equipment_value(attacker, LONG_RANGE_BONUS), attacker.label)
    add(STEALTH, equipment_value(target, STEALTH), target.label)
    ranged = [
        cat.equipment[e.equipment]
        for e in target.equipment
        if not e.destroyed and cat.equipment[e.equipment].effect == RANGED_ECM
    ]
    phantom_from = cat.range_bands.equipment.phantom_from if track.on(battle) else None
    add(
        RANGED_ECM,
        sum(
            e.value
            for e in ranged
            if (dist >= phantom_from if phantom_from is not None else dist > e.range)
        ),
        (
            f"{target.label}, range {phantom_from} or more"
            if phantom_from is not None
            else f"{target.label}, beyond {ranged[0].range} hexes"
        )
        if ranged
        else "",
    )
    if target.ecm_active:
        add(ECM, equipment_value(target, ECM), f"{target.label}, active")
    if weapon is not None and any(
        u.side == attacker.side and u.target == target.id for u in battle.uplinks
    ):
        uplink = next(e for e in cat.equipment.values() if e.effect == DESIGNATE)
        add(DESIGNATE, uplink.value, f"{target.label} designated")
    return mods


def cover_modifier(battle: Battle, h: Hex) -> list[Modifier]:
    """§3.5: the `cover` entry of the target's hex (terrain defense; under O3 a feature's cover
    added, O3.2)."""
    cat = catalog()
    ground = cat.terrain[battle.map.terrain_at(h)]
    cover, shelter = ground.defense, ground.name
    section = section_at(battle.structures, h)
    if section is not None and kind_of(section).cover:  # O3.2 "Cover in it"
        cover, shelter = cover + kind_of(section).cover, kind_of(section).name
    return [Modifier("cover", -cover, shelter)] if cover else []


def gunnery_modifier(attacker: Unit) -> Modifier:
    """§3.2: the `gunnery` entry."""
    why = "cockpit breached" if attacker.cockpit_breached else f"gunnery {attacker.pilot.gunnery}"
    return Modifier("gunnery", gunnery_bonus(attacker), why)


def sensor_modifier(attacker: Unit) -> list[Modifier]:
    """§3.5, §4.3: the `sensor` entry of damaged sensors."""
    if not attacker.sensor_hit:
        return []
    return [Modifier("sensor", -catalog().combat.accuracy.sensor_hit, "sensors damaged")]


def actuator_modifier(attacker: Unit, weapon: WeaponState) -> list[Modifier]:
    """§3.5: the `actuator` entry, per actuator hit on the weapon's arm."""
    if weapon.mount not in ARM_LOCATIONS:
        return []
    hits = attacker.actuator_hits[LOC_INDEX[weapon.mount]]
    if not hits:
        return []
    cat = catalog()
    where = cat.location(weapon.mount).name.lower()
    return [Modifier("actuator", -cat.combat.accuracy.arm_actuator * hits, f"{hits} on {where}")]


def line_blocked(battle: Battle, attacker: Unit, target: Unit, weapon: WeaponState) -> bool:
    """O2.6: the height line from `attacker` to `target` is blocked and `weapon` cannot fire
    past it (R10 indirect fire ignores blocking when a spotter has an unblocked line). Never
    with O2 off."""
    a, t = attacker.pos, target.pos
    if a is None or t is None or not elevation.line_blocked(battle, a, t):
        return False
    return not (weapon_of(weapon).indirect and spotter(battle, attacker, target) is not None)


def in_range(
    battle: Battle, attacker: Unit, target: Unit, weapon: WeaponState
) -> tuple[int, int] | None:
    """The distance and the range modifier (R1, R2) of `weapon`'s shot at `target`, or None
    when `hit_chance` is None for want of reach: a frame without a position or off the map,
    the target out of range, (O2) a blocked height line (`line_blocked`) or (O4.8) the target
    out of the weapon's mount arc (`facing.bears`); under O3 a
    building or prop in the way makes only `hit_chance` None. The distance is d3 with O2 on
    (G6). The cheap half of `hit_chance`, for checks that only ask whether a weapon can reach
    (`firing.plan_fire`)."""
    a, t = attacker.pos, target.pos
    if a is None or t is None:
        return None
    bmap = battle.map
    if not (bmap.contains(a) and bmap.contains(t)):
        return None
    if track.on(battle):  # O1.5: the band's column, every band
        band = abs(track.position(a) - track.position(t))
        return band, track.band_modifier(weapon_of(weapon).range, band)
    dist = elevation.attack_distance(battle, a, t)
    rng = range_modifier(weapon_of(weapon).range, dist)
    if rng is None or line_blocked(battle, attacker, target, weapon):
        return None
    if not facing.bears(battle, attacker, weapon, t):  # O4.8: out of the mount's arc
        return None
    return dist, rng


def hit_chance(
    battle: Battle,
    attacker: Unit,
    target: Unit,
    weapon: WeaponState,
    *,
    called_shot: bool = False,
    overwatch: bool = False,
    reaction: Literal["reaction", "sweep"] | None = None,
) -> HitChance | None:
    """§3: the ordered, named modifiers of one weapon's shot and the clamped chance.

    ``None`` when a frame has no position (or is off the map), the target is out of the
    weapon's range (R1, R2) or its line is blocked (O2.6's height line, or O3.2's building or
    prop with O2 off) and no spotter lets an indirect weapon fire (R10). ``base``,
    ``gunnery``, ``evasion`` and ``range`` are always listed; every other modifier only when it
    applies: ``brace`` (§3.5), ``sensor`` (§3.5, §4.3), ``called shot`` (§3.5), ``actuator``
    (§3.5, per hit on the weapon's arm), ``cover`` (§3.5 terrain defense; under O3 a feature's
    cover added, O3.2), ``LOS`` (§3.6) or ``indirect`` (R10, whichever is better for the
    shooter; always past a blocked line), one per equipment effect (§7.7.3, R11) named after
    the equipment, and ``overwatch`` (§1 phase 4, R4); then the module entries (O0.4):
    ``height`` (O2.7), ``smoke`` (O3.11), ``rear`` (O4.9), ``moving`` and ``fast target``
    (O5.2-O5.5), ``reaction`` or ``sweep`` (O6.3, O6.6: `reaction` names the kind of an O6
    shot, which fires only directly, O6.5: no R10 spotter), ``stunned`` or ``dazed`` (O7.6),
    ``radiating`` (O8.7), then O9's ``line``, ``crossfire``, ``screen``, ``flanking``,
    ``mutual cover``, ``battle plan`` (`formation_modifiers`).
    """
    reach = in_range(battle, attacker, target, weapon)
    if reach is None or attacker.pos is None or target.pos is None:
        return None
    if detection.attack_refusal(battle, attacker, target) is not None:
        return None  # O8.6: every attack needs the attacker to detect the target
    dist, rng = reach
    cat = catalog()
    acc = cat.combat.accuracy
    wpn = weapon_of(weapon)

    if track.on(battle):  # O1.1: the band
        where = f"range {dist} {track.band_name(dist)}"
    else:
        where = elevation.distance_words(battle, attacker.pos, target.pos, _hexes(dist))
    mods = [
        Modifier("base", wpn.accuracy, wpn.name),
        gunnery_modifier(attacker),
        Modifier("evasion", -evasion(target), chassis_of(target).name),
        Modifier("range", rng, f"{where}, {cat.range_class(wpn.range).name.lower()}"),
    ]
    if target.braced:
        mods.append(Modifier("brace", -acc.brace, f"{target.label} bracing"))
    mods += sensor_modifier(attacker)
    if called_shot:
        mods.append(Modifier("called shot", -acc.called_shot))
    mods += actuator_modifier(attacker, weapon)
    if track.on(battle):  # O1.6: no cover, LOS or indirect fire on the track
        mods.extend(equipment_modifiers(battle, attacker, target, weapon, dist))
        if overwatch:
            mods.append(Modifier("overwatch", -acc.overwatch, "reaction fire"))
        mods += module_entries(battle, attacker, target, reaction)  # O1.12: O5, O7
        mods += formation_modifiers(battle, attacker, target)  # O1.12: O9's Battle Plan
        return HitChance.of(mods)

    mods += cover_modifier(battle, target.pos)

    los = intervening(battle, attacker.pos, target.pos)
    through = sum(h.penalty for h in los)
    direct_only = reaction is not None  # O6.5: a reaction or sweep shot never fires indirectly
    spot = spotter(battle, attacker, target) if wpn.indirect and not direct_only else None
    wall = blocked(los) is not None or elevation.line_blocked(battle, attacker.pos, target.pos)
    if wall and spot is None:
        return None  # O3.2, O2.6: the line is blocked (indirect fire aside, R10)
    indirect = acc.indirect_fire - (0 if spot is None else detection.spotter_cut(battle, spot))
    if spot is not None and (wall or indirect < through):
        instead = "a blocked line" if wall else f"LOS -{through} ({_los_detail(los)})"
        detail = f"spotter {spot.label}, instead of {instead}"
        mods.append(Modifier("indirect", -indirect, detail))
    elif through:
        detail = _los_detail(los)
        if spot is not None:
            detail += f" (better than indirect -{indirect})"
        mods.append(Modifier("LOS", -through, detail))

    mods.extend(equipment_modifiers(battle, attacker, target, weapon, dist))
    if overwatch:
        mods.append(Modifier("overwatch", -acc.overwatch, "reaction fire"))
    height = elevation.height_modifier(battle, attacker.pos, target.pos)
    if height:
        detail = elevation.height_detail(battle, attacker.pos, target.pos)
        mods.append(Modifier("height", height, detail))
    mods += smoke_modifier(battle, los, attacker.pos, target.pos)  # O3.11, a module entry
    mods += module_entries(battle, attacker, target, reaction)
    mods += frame_entries(battle, attacker, target)
    return HitChance.of(mods)


def frame_entries(battle: Battle, attacker: Unit, target: Unit) -> list[Modifier]:
    """The last module entries (O0.4), on an attack at a frame only: O8.7's `radiating`, then
    O9's (O9.4-O9.7, O9.9b). Weapon fire and kicks (O7.2) take them from here."""
    mods: list[Modifier] = []
    hot = detection.radiating_bonus(battle, attacker, target)  # O8.7
    if hot:
        mods.append(Modifier("radiating", hot, f"{target.label} radiating, in sight"))
    mods += formation_modifiers(battle, attacker, target)  # O9.4-O9.7, O9.9b: last (O0.4)
    return mods


def rear_modifier(battle: Battle, attacker: Unit, target: Unit) -> list[Modifier]:
    """O4.9: `rear` +10 for an attack from the target's rear arc (a module entry, O0.4)."""
    bonus = facing.rear_bonus(battle, attacker, target)
    return [Modifier("rear", bonus, f"{target.label}'s rear arc")] if bonus else []


def reaction_modifier(reaction: Literal["reaction", "sweep"] | None) -> list[Modifier]:
    """O6.3: `reaction` -25 on a triggered cone's shot; O6.6: `sweep` -15 (data/reaction.toml);
    nothing for any other shot."""
    if reaction is None:
        return []
    data = catalog().reaction
    if reaction == "sweep":
        return [Modifier("sweep", -data.sweep.penalty, "sweep (O6.6)")]
    return [Modifier("reaction", -data.reaction.penalty, "reaction fire in a cone (O6.3)")]


def module_entries(
    battle: Battle,
    attacker: Unit,
    target: Unit | None,
    reaction: Literal["reaction", "sweep"] | None = None,
    *,
    kick: bool = False,
) -> list[Modifier]:
    """O0.4: the module entries of an attack after `height` and `smoke`, in module order:
    `rear` (O4.9; not at a structure, `target` None), `moving`, `fast target` (O5; never on a
    kick, O5.6), `reaction` or `sweep` (O6), `stunned` or `dazed` (O7.6). Nothing while those
    modules are off. Weapon fire (`hit_chance`), attacks on structures
    (`structures.structure_chance`) and kicks (`kicks.kick_chance`) all take their module
    entries from here. (O8's `radiating` and O9's entries follow in `hit_chance`: a frame
    target only.)"""
    mods = rear_modifier(battle, attacker, target) if target is not None else []
    if not kick:
        mods += [Modifier(*e) for e in moving_fire.entries(battle, attacker, target)]
    mods += reaction_modifier(reaction)
    mods += [Modifier(*e) for e in stun.entries(attacker)]
    return mods


def reaches(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether some working weapon of `unit` with shots left has `target` in range on an
    unblocked line now, in its mount's arc under O4 (`in_range`) and detected under O8 (O9.5's
    "could attack", O9.7's "in range on an unblocked line"): the reach half of `hit_chance`,
    without its entries."""
    if unit.pos is None or target.pos is None:
        return False
    if detection.attack_refusal(battle, unit, target) is not None:
        return False  # O8.6 (O9.5 "detected under O8")
    for _, ws in unit.live_weapons():
        w = weapon_of(ws)
        if (w.uses_ammo and ws.ammo < w.ammo_per_shot) or in_range(
            battle, unit, target, ws
        ) is None:
            continue
        if not battle.structures or blocked(battle_line(battle, unit.pos, target.pos)) is None:
            return True
        if w.indirect and spotter(battle, unit, target) is not None:
            return True
    return False


def formation_modifiers(battle: Battle, attacker: Unit, target: Unit) -> list[Modifier]:
    """O9's entries (`formations.entries`): `line`, `crossfire`, `screen`, `flanking`,
    `mutual cover`, `battle plan`; none with O9 off."""
    if not battle.formations:
        return []
    found = formations.entries(battle, attacker, target, lambda u, t: reaches(battle, u, t))
    return [Modifier(name, value, detail) for name, value, detail in found]


# --- the attack -------------------------------------------------------------------------------
@frozen(kw_only=True)
class AttackResult:
    """One weapon's shot, start to finish, as plain data (an event of the battle log)."""

    attacker: str
    target: str
    attacker_label: str
    target_label: str
    weapon: str
    weapon_index: int
    distance: int
    intervening: tuple[LosHex, ...]
    modifiers: tuple[Modifier, ...]
    chance: int
    roll: int
    hit: bool
    critical: bool = False
    intercepted: bool = False
    called: str | None = None
    location: str | None = None
    damage: DamageReport | None = None
    stress: int = 0  # R9: reactor stress the hit added to the target (Flamer)
    height: tuple[int, int] | None = optional_field(None)  # O2.9: attacker's, target's height
    # O9.4: the Sphere member whose PDS stopped the missile (its extra roll, after the
    # target's own); O9.9d: the hit negated by an Impossible Turn; O9.9a: a Breach Shot's hit
    shared_pds: str | None = optional_field(None)
    dodged: bool = optional_field(False)
    breach: bool = optional_field(False)
    arc: str | None = optional_field(None)  # O4.10: the target's arc the attacker stands in
    kick: bool = optional_field(False)  # O7.8: a kick (`weapon` "kick", `weapon_index` -1)

    def describe(self) -> str:
        """Tabletop line, e.g. ``ML -> RAIDER-2: needs 62, rolls 40: hit LT for 10, armour
        4 -> 0, structure 5 -> 1, actuator damaged``."""
        cat = catalog()
        what = "KICK" if self.kick else cat.weapons[self.weapon].abbrev
        head = f"{what} -> {self.target_label}: needs {self.chance}, rolls {self.roll}: "
        if not self.hit:
            return head + "miss"
        words = ["critical hit" if self.critical else "hit"]
        if self.called is not None:
            words.append(f"(called {cat.location(self.called).abbrev})")
        if self.dodged:
            words.append("dodged (Impossible Turn)")
            return head + " ".join(words)
        if self.intercepted:
            words.append(f"intercepted by {_equipment_name(MISSILE_INTERCEPT)}")
            if self.shared_pds is not None:
                words.append(f"of {self.shared_pds} (Sphere)")
            return head + " ".join(words)
        if self.breach:
            words.append("(breach shot)")
        text = " ".join(words)
        if self.damage is not None:
            text += " " + self.damage.describe()
        if self.stress:
            text += f", stress +{self.stress}"
        return head + text


def hit_location_weights() -> tuple[tuple[str, int], ...]:
    """§4.1: (location, weight) in LOCATION_ORDER, weights from the catalog."""
    cat = catalog()
    return tuple((loc, cat.location(loc).hit_weight) for loc in LOCATION_ORDER)


def missile_pass_chance(equipment: Iterable[EquipmentState]) -> float:
    """The chance a missile hit gets through Point Defense (§7.7.3), the probability of
    `_intercepted` answering False: each working system rolls its own value% to negate it,
    so two 50% systems let 25% through."""
    cat = catalog()
    through = 1.0
    for e in equipment:
        eq = cat.equipment[e.equipment]
        if not e.destroyed and eq.effect == MISSILE_INTERCEPT:
            through *= (100 - eq.value) / 100
    return through


def _intercepted(target: Unit, dice: Dice) -> bool:
    """§7.7.3: each working Point Defense System rolls its value% to negate the missile hit
    (one roll per system, stopping at the first success)."""
    cat = catalog()
    for e in target.equipment:
        eq = cat.equipment[e.equipment]
        if not e.destroyed and eq.effect == MISSILE_INTERCEPT and dice.chance(COMBAT, eq.value):
            return True
    return False


def resolve_attack(
    battle: Battle,
    attacker_id: str,
    target_id: str,
    weapon_index: int,
    dice: Dice,
    *,
    called_location: str | None = None,
    overwatch: bool = False,
    reaction: Literal["reaction", "sweep"] | None = None,
    breach: bool = False,
) -> tuple[Battle, AttackResult]:
    """One weapon fires at one target (§3, §3.8, §4, §7.7.3, R9, R10).

    Draws from ``dice.COMBAT`` in this order: the d100 to hit; on a hit the critical roll
    (cosmetic, §3.8); for a missile weapon against Point Defense the intercept roll(s); the
    hit location (§4.1) unless ``called_location`` is given; then the damage cascade's draws.
    A hit that is not intercepted adds the weapon's ``stress_on_hit`` to the target (R9).
    O9: a hit on a frame making an Impossible Turn is dodged after the roll (nothing more is
    drawn, O9.9d); in a Defensive Sphere one more PDS roll, a neighbour's, follows the
    target's own (O9.4); ``breach``: this hit is a Breach Shot's (O9.9a: armour and Barrier
    skipped, the component roll drawn from 0-42).
    Pays no AP, energy or ammo (the caller does). Raises ``ValueError`` when the shot is
    impossible (no position, out of range, destroyed weapon, unknown called location).
    """
    attacker = battle.unit(attacker_id)
    target = battle.unit(target_id)
    if not 0 <= weapon_index < len(attacker.weapons):
        raise ValueError(f"{attacker_id} has no weapon #{weapon_index}")
    ws = attacker.weapons[weapon_index]
    if ws.destroyed:
        raise ValueError(f"{attacker_id}'s {ws.weapon} is destroyed")
    if called_location is not None and called_location not in LOC_INDEX:
        raise ValueError(f"unknown called location {called_location!r}")
    chance = hit_chance(
        battle,
        attacker,
        target,
        ws,
        called_shot=called_location is not None,
        overwatch=overwatch,
        reaction=reaction,
    )
    if chance is None or attacker.pos is None or target.pos is None:
        raise ValueError(f"{attacker_id} cannot fire {ws.weapon} at {target_id}")
    cat = catalog()
    wpn = weapon_of(ws)
    base = AttackResult(
        attacker=attacker.id,
        target=target.id,
        attacker_label=attacker.label,
        target_label=target.label,
        weapon=ws.weapon,
        weapon_index=weapon_index,
        distance=elevation.attack_distance(battle, attacker.pos, target.pos),
        intervening=intervening(battle, attacker.pos, target.pos),
        modifiers=chance.modifiers,
        chance=chance.chance,
        roll=0,
        hit=False,
        called=called_location,
        height=elevation.heights_of(battle, attacker.pos, target.pos),
        arc=facing.attack_arc(battle, attacker, target),
    )

    battle = detection.reveal(battle, attacker.id, target.side)  # O8.5: the muzzle flash
    hit, roll = dice.roll_under(COMBAT, chance.chance)
    if not hit:
        return battle, attrs.evolve(base, roll=roll)
    if target.dodging:  # O9.9d: negated after the roll, nothing else drawn
        return battle, attrs.evolve(base, roll=roll, hit=True, dodged=True)
    critical = dice.chance(COMBAT, cat.combat.accuracy.critical_chance)
    if wpn.type == MISSILE:
        stopped = equipment_count(target, MISSILE_INTERCEPT) and _intercepted(target, dice)
        shared = None if stopped else formations.sphere_pds(battle, target, MISSILE_INTERCEPT)
        if shared is not None and dice.chance(COMBAT, shared[1]):  # O9.4, after its own
            return battle, attrs.evolve(
                base,
                roll=roll,
                hit=True,
                critical=critical,
                intercepted=True,
                shared_pds=shared[0].id,
            )
        if stopped:
            return battle, attrs.evolve(
                base, roll=roll, hit=True, critical=critical, intercepted=True
            )
    weights = hit_location_weights() if base.arc is None else facing.hit_weights(base.arc)
    location = called_location or dice.weighted(COMBAT, weights)  # O4.9: the table by arc
    damaged, report = apply_damage(target, location, wpn.damage, dice, breach=breach)
    if wpn.stress_on_hit:
        damaged = attrs.evolve(damaged, stress=damaged.stress + wpn.stress_on_hit)
    if target.active and not damaged.active:
        damaged = attrs.evolve(damaged, downed_by=attacker.id)
    result = attrs.evolve(
        base,
        roll=roll,
        hit=True,
        critical=critical,
        location=location,
        damage=report,
        stress=wpn.stress_on_hit,
        breach=breach,
    )
    return battle.with_unit(damaged), result
