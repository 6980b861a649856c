"""Optional module O7, the Kick (optional-rules.md O7.1-O7.5, O7.8).

* `check_kick` — why a kick is illegal (O7.1: O7 on, AP, legs, one a activation, an enemy at
  hex distance 1, a height difference of at most 1 under O2, the kicker's front arc under O4,
  the energy of a Move), or its plan.
* `kick_chance` — O7.2's entries: `kick`, `piloting`, `evasion`, `brace`, `actuator` (leg
  actuator hits), `cover`, the equipment entries a kick takes, then the module entries (O2
  `height`, O3 `smoke`, the others through `attack.module_entries`; never O5's, O5.6).
* `kick_damage`, `kick_locations` — O7.3 and O7.4.
* `do_kick` — the roll, the location, the cascade, the stun (O7.5) and the `Kicked` event.

Every number comes from `data/kicks.toml`; every draw from `dice.COMBAT`: the d100 to hit, then
on a hit the location and the cascade's draws (no critical roll: ruling O7c).
"""

from __future__ import annotations

from typing import Final

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from ..core import Event
from ..dice import COMBAT, Dice
from ..hexgrid import arc, distance
from . import detection, elevation, facing, formations, stats, third_parties, track
from .attack import (
    AttackResult,
    HitChance,
    Modifier,
    battle_line,
    cover_modifier,
    equipment_modifiers,
    frame_entries,
    hit_location_weights,
    module_entries,
    smoke_modifier,
)
from .damage import apply_damage
from .events import BattleChange
from .formations import Dodged
from .state import LEGS, Battle, Unit
from .stun import stun

__all__ = [
    "KICK",
    "KickPlan",
    "Kicked",
    "check_kick",
    "do_kick",
    "kick_chance",
    "kick_damage",
    "kick_locations",
    "kick_refusal",
    "kick_targets",
]

#: The `weapon` of a kick's `AttackResult` and the name of its base entry (O7.2).
KICK: Final = "kick"


@frozen
class KickPlan:
    """A legal kick: its target, energy, hit chance and damage on a hit."""

    target: str
    energy: int
    chance: HitChance
    damage: int


@frozen
class Kicked(Event):
    """O7.8: one kick. `result` is an attack result with `kick` true (`weapon` "kick"); `energy`
    what it cost; `hexes_moved` the kicker's H (O7.3)."""

    result: AttackResult
    energy: int
    hexes_moved: int

    def describe(self) -> str:
        text: str = self.result.describe()
        return text


def _refusal_gate(battle: Battle, unit: Unit) -> str | None:
    """What every kick of `unit` needs, whatever its target (O7.1)."""
    if not battle.rule("O7"):
        return "kicks are optional module O7, which this battle does not play"
    rule = catalog().kicks.kick
    if unit.ap < rule.ap:
        return f"a kick needs {rule.ap} AP, {unit.ap} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot kick"
    if unit.kicked:
        return f"{unit.label} has already kicked this activation"
    dodging = formations.dodge_refusal(unit)  # O9.9d (ruling O9f): no kick either
    if dodging:
        return dodging
    energy = stats.move_energy(unit)
    if stats.energy_left(unit) < energy:
        return f"a kick needs {energy} energy, {stats.energy_left(unit)} left"
    return None


def check_kick(battle: Battle, unit: Unit, target_id: str) -> KickPlan | str:
    """O7.1: why `unit` cannot kick `target_id` now, or the kick's plan."""
    reason = _refusal_gate(battle, unit)
    if reason:
        return reason
    try:
        target = battle.unit(target_id)
    except KeyError:
        return f"no frame {target_id!r}"
    if not battle.may_attack(unit.side, target.side):  # O10: a neutral too (ruling O10a)
        return f"{target.label} is not an enemy"
    if not target.active or target.pos is None or unit.pos is None:
        return f"{target.label} is out of the fight"
    rule = catalog().kicks.kick
    if distance(unit.pos, target.pos) != kick_distance(battle):
        if track.on(battle):  # O1.12: on the track, a kick needs range 0
            return f"{target.label} is not at {unit.label}'s position"
        return f"{target.label} is not adjacent"
    if elevation.on(battle):  # O0.3 with O2: levels
        climb = abs(elevation.height_at(battle, unit.pos) - elevation.height_at(battle, target.pos))
        if climb > rule.max_climb:
            return f"{target.label} is {climb} levels away: a kick reaches {rule.max_climb}"
    if unit.facing is not None and arc(unit.pos, unit.facing, target.pos) != "front":
        return f"{target.label} is not in {unit.label}'s front arc"  # O0.3 with O4
    unseen = detection.attack_refusal(battle, unit, target)  # O0.3 with O8 (O8.6)
    if unseen:
        return unseen
    return KickPlan(
        target=target.id,
        energy=stats.move_energy(unit),
        chance=kick_chance(battle, unit, target),
        damage=kick_damage(unit),
    )


def kick_distance(battle: Battle) -> int:
    """O7.1: a kick reaches hex distance 1; O1.12: on the track, range 0 (one position)."""
    if track.on(battle):
        return catalog().range_bands.combinations.kick_range
    return catalog().kicks.kick.distance


def kick_targets(battle: Battle, unit: Unit) -> list[tuple[Unit, KickPlan | str]]:
    """Every enemy frame next to `unit` with its kick's plan or the reason it cannot be
    kicked (for `legal_commands`, the greyed key and the preview)."""
    if unit.pos is None:
        return []
    reach = kick_distance(battle)
    return [
        (e, check_kick(battle, unit, e.id))
        for e in battle.units
        if e.active
        and battle.may_attack(unit.side, e.side)
        and e.pos is not None
        and distance(unit.pos, e.pos) == reach
    ]


def kick_refusal(battle: Battle, unit: Unit) -> str | None:
    """Why `unit` can kick no one now (None: some kick is legal): the first reason of the
    gate, else "no enemy is adjacent", else the first adjacent enemy's own reason."""
    reason = _refusal_gate(battle, unit)
    if reason:
        return reason
    options = kick_targets(battle, unit)
    if not options:
        if track.on(battle):  # O1.12
            return "no enemy frame is at its position"
        return "no enemy frame is adjacent"
    reasons = [plan for _, plan in options if isinstance(plan, str)]
    return reasons[0] if len(reasons) == len(options) else None


def kick_chance(battle: Battle, attacker: Unit, target: Unit) -> HitChance:
    """O7.2: `kick` 70, `piloting` (Piloting x 2), `evasion`, `brace`, `actuator` (-10 per leg
    actuator hit), `cover`, the equipment entries of a kick (`attack.equipment_modifiers`), then
    `height` (O2), `smoke` (O3) and the module entries (`attack.module_entries`, no O5;
    `attack.frame_entries`: O8's `radiating`, O9's); clamped once to [5, 95]. No range, LOS,
    sensor or O5 entries."""
    assert attacker.pos is not None and target.pos is not None
    cat = catalog()
    rule = cat.kicks.chance
    acc = cat.combat.accuracy
    piloting = attacker.pilot.piloting
    mods = [
        Modifier(KICK, rule.base, attacker.label),
        Modifier("piloting", rule.piloting * piloting, f"piloting {piloting}"),
        Modifier("evasion", -stats.evasion(target), stats.chassis_of(target).name),
    ]
    if target.braced:
        mods.append(Modifier("brace", -acc.brace, f"{target.label} bracing"))
    hits = attacker.actuator_hits[LEGS]
    if hits:
        mods.append(Modifier("actuator", -rule.leg_actuator * hits, f"{hits} on legs"))
    mods += cover_modifier(battle, target.pos)
    mods += equipment_modifiers(battle, attacker, target, None, 1)
    height = elevation.height_modifier(battle, attacker.pos, target.pos)
    if height:
        detail = elevation.height_detail(battle, attacker.pos, target.pos)
        mods.append(Modifier("height", height, detail))
    line = battle_line(battle, attacker.pos, target.pos)
    mods += smoke_modifier(battle, line, attacker.pos, target.pos)
    mods += module_entries(battle, attacker, target, kick=True)
    mods += frame_entries(battle, attacker, target)  # O8.7 `radiating`, O9's entries
    return HitChance.of(mods)


def kick_damage(unit: Unit) -> int:
    """O7.3: floor(Tonnage / 10) + 2 x H, H = the hexes moved earlier this activation (at most
    8): the Raider's 3 + 6 = 9 after 3 hexes."""
    rule = catalog().kicks.damage
    moved = min(unit.moved_hexes, rule.max_hexes)
    return stats.chassis_of(unit).tonnage // rule.tonnage_divisor + rule.per_hex * moved


def kick_locations(battle: Battle, attacker: Unit, target: Unit) -> tuple[tuple[str, int], ...]:
    """O7.4: (location, weight) in LOCATION_ORDER: the kick's table, or CORE §4.1's from one
    level higher (O2: a stomp from above)."""
    a, t = attacker.pos, target.pos
    if a is not None and t is not None and elevation.on(battle):
        return _table(elevation.height_at(battle, a) > elevation.height_at(battle, t))
    return _table(False)


def _table(from_above: bool) -> tuple[tuple[str, int], ...]:
    if from_above:
        return hit_location_weights()
    weights = {row.id: row.weight for row in catalog().kicks.location}
    return tuple((loc, weights[loc]) for loc in LOCATION_ORDER)


def do_kick(battle: Battle, unit: Unit, target_id: str, dice: Dice) -> BattleChange | str:
    """O7.1-O7.5: pay the AP and the energy, roll the d100 under the chance; on a hit draw the
    location (O7.4), deal the damage through the §4 cascade (no self-damage) and Stun the
    target (O7.5, unless it is Stunned or Dazed already)."""
    plan = check_kick(battle, unit, target_id)
    if isinstance(plan, str):
        return plan
    assert unit.pos is not None
    kicker = attrs.evolve(
        unit,
        ap=unit.ap - catalog().kicks.kick.ap,
        energy_used=unit.energy_used + plan.energy,
        kicked=True,
    )
    battle = battle.with_unit(kicker)
    target = battle.unit(target_id)
    battle = detection.reveal(battle, unit.id, target.side)  # O8.5: a kick reveals too
    assert target.pos is not None
    base = AttackResult(
        attacker=unit.id,
        target=target.id,
        attacker_label=unit.label,
        target_label=target.label,
        weapon=KICK,
        weapon_index=-1,
        distance=distance(unit.pos, target.pos),
        intervening=(),
        modifiers=plan.chance.modifiers,
        chance=plan.chance.chance,
        roll=0,
        hit=False,
        height=elevation.heights_of(battle, unit.pos, target.pos),
        arc=facing.attack_arc(battle, unit, target),  # O4.10
        kick=True,
    )
    moved = min(unit.moved_hexes, catalog().kicks.damage.max_hexes)
    hit, roll = dice.roll_under(COMBAT, plan.chance.chance)
    if not hit:
        miss = attrs.evolve(base, roll=roll)
        return battle, [Kicked(result=miss, energy=plan.energy, hexes_moved=moved)]
    if target.dodging:  # O9.9d: negated after the roll, nothing more drawn (ruling O9f)
        dodged = attrs.evolve(base, roll=roll, hit=True, dodged=True)
        return battle, [
            Kicked(result=dodged, energy=plan.energy, hexes_moved=moved),
            Dodged(unit=target.id, attacker=unit.id, weapon=KICK),
        ]
    location = dice.weighted(COMBAT, kick_locations(battle, kicker, target))
    damaged, report = apply_damage(target, location, plan.damage, dice)
    if target.active and not damaged.active:
        damaged = attrs.evolve(damaged, downed_by=unit.id)
    battle = battle.with_unit(damaged)
    result = attrs.evolve(base, roll=roll, hit=True, location=location, damage=report)
    events: list[Event] = [Kicked(result=result, energy=plan.energy, hexes_moved=moved)]
    battle, grudge = third_parties.note_damage(battle, kicker, target)  # O10.5: kicks count
    battle, stunned = stun(battle, target.id, "kick")
    return battle, [*events, *grudge, *stunned]
