"""Optional module O3: attacking structures, collapse and explosions (O3.5-O3.9, O3.12).

* `structure_chance` — O3.6: the named modifiers of one weapon's shot at a feature hex
  (`structure` is the weapon's base accuracy; no evasion, brace, cover, target equipment or
  Gyro Stabilizer), summed and clamped once (O0.4).
* `check_fire_structure` / `fire_structure` — the `fire-at GROUP HEX` order: which weapons of
  a group fire at a section and which are skipped (the same AP, group, ammo and energy rules
  as `firing.plan_fire`), and the shots: a miss is re-rolled once and the second roll stands;
  the damage (Volatile doubled for energy weapons, Reinforced -10) goes to durability, O3.7's
  instant collapse when damage x 5 is greater than the durability before the hit.
* `environment` — round step 5a (O0.10): every section at 0 moves one stage down (O3.9), in
  row-major order, a fuel tank exploding as it collapses; then the smoke countdown (O3.11).

Every number comes from `data/structures.toml`; every draw from `dice.COMBAT`.
"""

from __future__ import annotations

from typing import Any

import attrs
from attrs import frozen

from ..catalog import catalog
from ..core import Event
from ..dice import COMBAT, Dice
from ..hexgrid import Hex, distance
from . import elevation, facing, stats
from .attack import (
    LONG_RANGE,
    LONG_RANGE_BONUS,
    HitChance,
    LosHex,
    Modifier,
    actuator_modifier,
    battle_line,
    gunnery_modifier,
    hit_location_weights,
    los_modifier,
    module_entries,
    range_modifier,
    sensor_modifier,
    smoke_modifier,
)
from .damage import apply_damage
from .events import BattleChange, WeaponSkipped
from .features import STANDARD, Section, entry_cost, kind_of, new_section, passable, section_at
from .firing import BLOCKED, OUT_OF_ARC, OUT_OF_RANGE, FirePlan, held_refusal, plan_group
from .smoke import countdown
from .state import Battle, Unit, WeaponState
from .stats import ap_costs

__all__ = [
    "Exploded",
    "StructureAttacked",
    "StructureCollapsed",
    "check_fire_structure",
    "damage_to",
    "environment",
    "fire_structure",
    "structure_chance",
    "targetable",
]


# ---- events (O3.12) ------------------------------------------------------------------------
@frozen
class StructureAttacked(Event):
    """One weapon's shot at a section: both rolls when the first missed (O3.6), the damage
    after Volatile and Reinforced, and durability before and after (O3.7)."""

    unit: str
    group: int
    weapon: str
    weapon_index: int
    hex: Hex
    feature: str
    distance: int
    intervening: tuple[LosHex, ...]
    modifiers: tuple[Modifier, ...]
    chance: int
    rolls: tuple[int, ...]
    hit: bool
    damage: int
    before: int
    after: int
    collapse: bool  # O3.7: damage x 5 > durability before the hit

    def describe(self) -> str:
        name = catalog().structures.kind(self.feature).name
        abbrev = catalog().weapons[self.weapon].abbrev
        at = f"{name} at {self.hex.q},{self.hex.r}"
        rolls = self.rolls[0] if len(self.rolls) == 1 else f"{self.rolls[0]} (miss), re-rolls "
        text = f"{abbrev} -> {at}: needs {self.chance}, rolls {rolls}"
        if len(self.rolls) > 1:
            text += f"{self.rolls[1]}"
        if not self.hit:
            return text + ": miss"
        text += f": hit for {self.damage}, durability {self.before} -> {self.after}"
        return text + (" (it collapses: O3.7)" if self.collapse else "")


@frozen
class StructureCollapsed(Event):
    """O3.9: a section at 0 moved one stage down at the end of the round."""

    hex: Hex
    feature: str  # the stage before
    becomes: str  # the stage after, at its full durability
    durability: int

    def describe(self) -> str:
        data = catalog().structures
        return (
            f"The {data.kind(self.feature).name.lower()} at {self.hex.q},{self.hex.r} "
            f"collapses: now {data.kind(self.becomes).name.lower()} ({self.durability})"
        )


@frozen
class Exploded(Event):
    """O3.9: a fuel tank exploded as it collapsed: each frame within the radius took one hit
    (`hits`: the `AttackResult`-like records of `damage.DamageReport`), each other section
    lost durability (`sections`: hex, durability before, after)."""

    hex: Hex
    damage: int
    hits: tuple[tuple[str, str, Any], ...]  # (unit, location, DamageReport)
    sections: tuple[tuple[Hex, int, int], ...]

    def describe(self) -> str:
        parts = [
            f"{u} {loc.replace('_', ' ')}: {report.describe()}" for u, loc, report in self.hits
        ]
        parts += [f"hex {h.q},{h.r} {a} -> {b}" for h, a, b in self.sections]
        shown = "; ".join(parts) if parts else "nothing in reach"
        return f"The fuel tank at {self.hex.q},{self.hex.r} explodes for {self.damage}: {shown}"


# ---- entering (O3.2) ------------------------------------------------------------------------
def feature_move_cost(battle: Battle, h: Hex, terrain_cost: int) -> int | None:
    """O3.2 "Entering": the cost of entering `h`: its feature's when it has one a frame may
    walk into (features stand on Open hexes), None when it may not be entered."""
    return entry_cost(section_at(battle.structures, h), terrain_cost, battle.rule("O2"))


def entry_refusal(battle: Battle, h: Hex) -> str | None:
    """Why no frame may enter (move, sprint or jump onto) hex `h` because of its feature."""
    section = section_at(battle.structures, h)
    if section is None or passable(section, battle.rule("O2")):
        return None
    return f"hex {h.q},{h.r} is a {kind_of(section).name.lower()}: frames cannot enter it"


# ---- the hit chance (O3.6) -----------------------------------------------------------------
def targetable(section: Section | None) -> bool:
    """O3.6: a feature hex with durability: a destructible kind not already at 0."""
    return section is not None and kind_of(section).durability > 0 and section.durability > 0


def structure_chance(
    battle: Battle, attacker: Unit, weapon: WeaponState, h: Hex
) -> HitChance | None:
    """O3.6: `structure` (the weapon's base accuracy), `gunnery`, `range` (R1 at the distance
    to the hex), `sensor`, `actuator`, `LOS`, the attacker's Sensor Array, then the module
    entries (`smoke`, O3.11; `moving`, O5.6; `stunned` or `dazed`, O7.6); None out of range,
    out of the mount's arc (O4.8), with the line blocked (O3.2), or without a position."""
    a = attacker.pos
    if a is None or not battle.map.contains(a) or not battle.map.contains(h):
        return None
    wpn = stats.weapon_of(weapon)
    dist = elevation.attack_distance(battle, a, h)  # G6: d3 with O2 on
    rng = range_modifier(wpn.range, dist)
    if rng is None or not facing.bears(battle, attacker, weapon, h):  # O4.8: the mount arc
        return None
    line = battle_line(battle, a, h)
    if any(lh.blocks for lh in line) or elevation.line_blocked(battle, a, h, structure=True):
        return None
    cat = catalog()
    mods = [
        Modifier("structure", wpn.accuracy, wpn.name),
        gunnery_modifier(attacker),
        Modifier("range", rng, f"{dist} hex{'es' if dist != 1 else ''}"),
    ]
    mods += sensor_modifier(attacker)
    mods += actuator_modifier(attacker, weapon)
    mods += los_modifier(line)
    if wpn.range == LONG_RANGE:
        bonus = stats.equipment_value(attacker, LONG_RANGE_BONUS)
        if bonus:
            name = next(e.name for e in cat.equipment.values() if e.effect == LONG_RANGE_BONUS)
            mods.append(Modifier(name.lower(), bonus, attacker.label))
    height = elevation.height_modifier(battle, a, h)  # O2.7, the hex's height with its feature
    if height:
        mods.append(Modifier("height", height, elevation.height_detail(battle, a, h)))
    mods += smoke_modifier(battle, line, a, h)
    mods += module_entries(battle, attacker, None)  # O5.6 `moving`, O7.6 `stunned`/`dazed`
    return HitChance.of(mods)


def damage_to(section: Section, weapon_id: str, damage: int) -> int:
    """O3.3: the damage a hit deals a section: doubled by an energy weapon on a Volatile
    feature, then less a Reinforced section's reduction, never below 0."""
    data = catalog().structures
    if kind_of(section).volatile and catalog().weapons[weapon_id].type == "energy":
        damage *= data.volatile.energy_multiplier
    return max(0, damage - data.variant_of(section.variant).damage_reduction)


def after_hit(durability: int, damage: int) -> tuple[int, bool]:
    """O3.7: the durability after one hit and whether it collapsed at once (damage x 5 greater
    than the durability before the hit); never below 0 (O3.8: the rest is lost)."""
    if damage * catalog().structures.attack.collapse_multiplier > durability:
        return 0, damage > 0
    return max(0, durability - damage), False


# ---- the order -----------------------------------------------------------------------------
def plan_fire_structure(battle: Battle, unit: Unit, group: int, h: Hex) -> FirePlan:
    """`firing.plan_fire` for a feature hex: out of range, no line of fire (O3.2), out of
    ammunition or of energy: skipped; the rest fire."""
    reach = elevation.attack_distance(battle, unit.pos, h) if unit.pos is not None else None

    def unreachable(ws: WeaponState) -> str | None:
        if reach is None or range_modifier(stats.weapon_of(ws).range, reach) is None:
            return OUT_OF_RANGE
        if not facing.bears(battle, unit, ws, h):
            return OUT_OF_ARC
        return BLOCKED if structure_chance(battle, unit, ws, h) is None else None

    return plan_group(unit, group, unreachable)


def check_fire_structure(battle: Battle, unit: Unit, group: int, h: Hex) -> FirePlan | str:
    """Why `unit` may not fire `group` at the feature on hex `h` (O3.6), or the plan."""
    if not battle.rule("O3"):
        return "there are no structures to fire at: optional module O3 is off"
    ap_cost = ap_costs().fire_group
    if unit.ap < ap_cost:
        return f"needs {ap_cost} AP, {unit.ap} left"
    if group in unit.fired_groups:
        return f"group {group} has already fired this round"
    if not stats.group_weapons(unit, group):
        return f"group {group} has no working weapon"
    held = held_refusal(unit, group)  # O6: armed in a cone or sweeping
    if held:
        return held
    if not battle.map.contains(h):
        return f"hex {h.q},{h.r} is off the map"
    section = section_at(battle.structures, h)
    if section is None:
        return f"there is no structure at {h.q},{h.r}"
    kind = kind_of(section)
    if kind.durability == 0:
        return f"the {kind.name.lower()} at {h.q},{h.r} cannot be destroyed"
    if section.durability == 0:
        return (
            f"the {kind.name.lower()} at {h.q},{h.r} is at 0: it collapses at the end of the round"
        )
    plan = plan_fire_structure(battle, unit, group, h)
    if not plan.shots:
        reasons = sorted({reason for _, reason in plan.skipped})
        where = f"the {kind.name.lower()} at {h.q},{h.r}"
        return f"no weapon of group {group} can fire at {where}: {'; '.join(reasons)}"
    return plan


def fire_structure(
    battle: Battle, unit: Unit, group: int, h: Hex, dice: Dice
) -> BattleChange | str:
    """The `fire-at` order: pay the AP, then each planned weapon fires in order, paying energy
    and ammunition (O3.6). Per shot: the d100 to hit and, on a miss, one re-roll that stands;
    no critical, hit location or Point Defense roll."""
    plan = check_fire_structure(battle, unit, group, h)
    if isinstance(plan, str):
        return plan
    rules = catalog().structures.attack
    shooter = attrs.evolve(
        unit, ap=unit.ap - ap_costs().fire_group, fired_groups=(*unit.fired_groups, group)
    )
    battle = battle.with_unit(shooter)
    events: list[Event] = [
        WeaponSkipped(unit=unit.id, weapon=unit.weapons[i].weapon, reason=r)
        for i, r in plan.skipped
    ]
    for index in plan.shots:
        shooter = battle.unit(unit.id)
        ws = shooter.weapons[index]
        w = stats.weapon_of(ws)
        section = section_at(battle.structures, h)
        assert section is not None
        if section.durability == 0:
            events.append(WeaponSkipped(unit=unit.id, weapon=ws.weapon, reason="already at 0"))
            continue
        chance = structure_chance(battle, shooter, ws, h)
        pos = shooter.pos
        assert chance is not None and pos is not None
        line = battle_line(battle, pos, h)
        weapons = list(shooter.weapons)
        weapons[index] = attrs.evolve(ws, ammo=ws.ammo - w.ammo_per_shot if w.uses_ammo else 0)
        shooter = attrs.evolve(
            shooter, weapons=tuple(weapons), energy_used=shooter.energy_used + w.energy
        )
        battle = battle.with_unit(shooter)
        rolls: list[int] = []
        hit = False
        for _ in range(1 + rules.rerolls):
            hit, roll = dice.roll_under(COMBAT, chance.chance)
            rolls.append(roll)
            if hit:
                break
        damage = damage_to(section, ws.weapon, w.damage) if hit else 0
        after, collapse = (
            after_hit(section.durability, damage) if hit else (section.durability, False)
        )
        battle = with_section(battle, attrs.evolve(section, durability=after))
        events.append(
            StructureAttacked(
                unit=unit.id,
                group=group,
                weapon=ws.weapon,
                weapon_index=index,
                hex=h,
                feature=section.feature,
                distance=elevation.attack_distance(battle, pos, h),
                intervening=line,
                modifiers=chance.modifiers,
                chance=chance.chance,
                rolls=tuple(rolls),
                hit=hit,
                damage=damage,
                before=section.durability,
                after=after,
                collapse=collapse,
            )
        )
    return battle, events


def with_section(battle: Battle, section: Section) -> Battle:
    """The battle with the section on `section.hex` replaced."""
    return attrs.evolve(
        battle,
        structures=tuple(section if s.hex == section.hex else s for s in battle.structures),
    )


# ---- step 5a (O0.10) -----------------------------------------------------------------------
def environment(battle: Battle, dice: Dice) -> BattleChange:
    """Round step 5a: O3.9 collapses and explosions, (O2.8 falls), then O3.11's smoke
    countdown. A battle without structures or smoke is returned as it is, with no draw."""
    events: list[Event] = []
    if battle.structures:
        battle, events = collapse(battle, dice)
    if battle.smoke:
        battle, more = countdown(battle)
        events.extend(more)
    return battle, events


def collapse(battle: Battle, dice: Dice) -> BattleChange:
    """O3.9: every section at 0 when the step begins moves one stage down, in row-major order,
    at the new stage's full durability; a fuel tank explodes as it collapses (a section an
    explosion brings to 0 changes stage at a later end of round). Then (O0.10), with O2 on, a
    frame on a section that lost height falls that many levels (O2.8), in row-major order."""
    events: list[Event] = []
    falling = [s.hex for s in battle.structures if s.durability == 0 and kind_of(s).becomes]
    falls: list[tuple[str, int]] = []
    for h in falling:
        section = section_at(battle.structures, h)
        assert section is not None
        kind = kind_of(section)
        new = new_section(h, kind.becomes, STANDARD)
        on_roof = battle.occupant(h)
        drop = kind.height - kind_of(new).height
        if on_roof is not None and drop > 0 and elevation.on(battle):
            falls.append((on_roof.id, drop))
        battle = with_section(battle, new)
        events.append(
            StructureCollapsed(
                hex=h, feature=section.feature, becomes=new.feature, durability=new.durability
            )
        )
        if kind.explodes:
            battle, more = explode(battle, h, dice)
            events.extend(more)
    for unit_id, levels in falls:  # O2.8, after every collapse and explosion
        battle, more = elevation.fall(battle, unit_id, levels, dice)
        events.extend(more)
    return battle, events


def explode(battle: Battle, h: Hex, dice: Dice) -> BattleChange:
    """O3.9: every frame within the radius takes one hit of the explosion's damage (location by
    §4.1), in the battle's unit order; every other section within it loses `section_loss`
    durability (not below 0)."""
    rules = catalog().structures.explosion
    hits: list[tuple[str, str, Any]] = []
    for unit in battle.units:
        if not unit.active or unit.pos is None or distance(unit.pos, h) > rules.radius:
            continue
        location = dice.weighted(COMBAT, hit_location_weights())
        damaged, report = apply_damage(unit, location, rules.damage, dice)
        battle = battle.with_unit(damaged)
        hits.append((unit.id, location, report))
    sections: list[tuple[Hex, int, int]] = []
    for s in battle.structures:
        if s.hex == h or distance(s.hex, h) > rules.radius or not kind_of(s).durability:
            continue
        after = max(0, s.durability - rules.section_loss)
        sections.append((s.hex, s.durability, after))
    for sh, _, after in sections:
        section = section_at(battle.structures, sh)
        assert section is not None
        battle = with_section(battle, attrs.evolve(section, durability=after))
    return battle, [
        Exploded(hex=h, damage=rules.damage, hits=tuple(hits), sections=tuple(sections))
    ]
