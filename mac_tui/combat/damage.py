"""Damage resolution: the §4 cascade, armour → structure → component → destruction → transfer.

`apply_damage` takes one hit of ``amount`` damage on one location of a frame and returns the
new frame and a `DamageReport` that tells, location by location, what happened (for the battle
log and the tabletop line of `attack.AttackResult.describe`; the records, the component
table's effect ids and their words live in `damage_report.py`, re-exported here). Every number
comes from the catalog (``data/combat.toml``, ``data/equipment.toml``); every random draw comes
from the ``dice.COMBAT`` stream, in the order the cascade meets them. The cascade itself is
`CascadeWork.cascade`, which draws through `Draws`: the engine answers with dice
(`DiceDraws`), the forecast (`combat/branches.py`) with every answer in turn.

Rules applied:

* §4.2 — armour absorbs first; the excess hits structure; structure 0 destroys the location.
* R11 — a Barrier Projector's temporary armour (``Unit.barrier``) absorbs before real armour,
  once per hit, at the location first hit.
* §7.7.3 — Reactive Armor (effect ``structure_damage_reduction``) reduces the *structure*
  damage at each location by its value in percent, rounded down, leaving at least 1 damage.
* §4.3 / docs D3 — each location whose structure takes damage makes ONE component roll, a
  d100 read as 0-99 against the catalog's component rows.
* §4.3 / R8 / R16 — the component effects (see `component_effect`).
* §4.4 — a destroyed location passes its overflow to its ``transfer_to`` location, where the
  cascade starts again with armour; with no transfer (head, centre torso, legs) it is lost.
  A hit on a location that is already destroyed passes the whole amount on the same way.
* §4.5 / §7.6 — a destroyed location takes every weapon and slot equipment mounted there with
  it; a destroyed centre torso destroys the frame.
* §4.6 / R15 — a destroyed head breaches the cockpit (sensor hit) and calls for the pilot's
  survival roll: survived = injured and gunnery bonus zeroed; failed = pilot KIA, frame out of
  the fight but not ``destroyed``.

Choices this module makes (the rules are silent):

* Reactive Armor reduces the structure damage first; the overflow of a destroyed location is
  what is left of the *reduced* damage after that location's structure is gone. Reduction
  applies again to structure damage at the location the overflow reaches.
* Ammo-explosion damage (§4.3) is internal: it goes straight into the structure of its own
  location (no armour, no reactive reduction, no further component roll). Its overflow, if it
  destroys the location, transfers like any other. It is reported as ``internal`` so the
  conservation law stays exact::

      amount + Σ internal == barrier absorbed + Σ armour lost + Σ structure lost
                              + Σ reduced + Σ lost

* ``actuator_damaged`` on the head or a torso has nothing to damage: it is reported as
  ``actuator_damaged:none`` and changes nothing; likewise ``weapon_destroyed:none`` and
  ``ammo_explosion:none`` when there is no working weapon (with ammo) at the location.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

import attrs

from ..catalog import LOCATION_ORDER, catalog
from ..catalog.records import ComponentRow
from ..dice import COMBAT, Dice
from .damage_report import (
    ACTUATOR_DAMAGED,
    AMMO_EXPLOSION,
    COCKPIT_HIT,
    GYRO_HIT,
    NO_EFFECT,
    NONE,
    REACTOR_HIT,
    SENSOR_HIT,
    WEAPON_DESTROYED,
    DamageReport,
    LocationDamage,
    Phrasing,
    describe_effect,
    item_name,
)
from .state import CENTER_TORSO, HEAD, LOC_INDEX, DestroyedBy, Unit
from .stats import equipment_total

__all__ = [
    "ACTUATOR_DAMAGED",
    "ACTUATOR_LOCATIONS",
    "AMMO_EXPLOSION",
    "COCKPIT_HIT",
    "GYRO_HIT",
    "NONE",
    "NO_EFFECT",
    "REACTOR_HIT",
    "SENSOR_HIT",
    "STRUCTURE_DAMAGE_REDUCTION",
    "WEAPON_DESTROYED",
    "CascadeWork",
    "DamageReport",
    "DiceDraws",
    "Draws",
    "LocationDamage",
    "Phrasing",
    "apply_damage",
    "component_die",
    "component_for_roll",
    "describe_effect",
    "item_name",
]

#: Locations with actuators (§4.3: arm actuators cost accuracy, leg actuators move energy).
ACTUATOR_LOCATIONS: Final[tuple[str, ...]] = ("left_arm", "right_arm", "legs")

#: Equipment effect of Reactive Armor (§7.7.3).
STRUCTURE_DAMAGE_REDUCTION: Final = "structure_damage_reduction"

_PERCENT: Final = 100


def component_die() -> int:
    """Faces of the §4.3 component die: a d100 read as 0-99 (the catalog rows tile it, D3)."""
    return max(row.high for row in catalog().combat.component) + 1


def component_for_roll(roll: int) -> ComponentRow:
    """The §4.3 component row covering ``roll`` (0-99)."""
    for row in catalog().combat.component:
        if row.low <= roll <= row.high:
            return row
    raise ValueError(f"no component row covers roll {roll}")


class Draws(Protocol):
    """The cascade's chance nodes, in the order it meets them: the §4.3 component d100 read
    as 0-99, a uniform pick of a weapon index, an ammo explosion's internal damage (``lo`` to
    ``hi``), the §4.6 survival d100 (1-100; survives on ``roll <= needed``)."""

    def component_roll(self) -> int: ...

    def pick(self, options: Sequence[int]) -> int: ...

    def between(self, lo: int, hi: int) -> int: ...

    def survival_roll(self, needed: int) -> int: ...


class DiceDraws:
    """`Draws` from the battle's dice, on ``dice.COMBAT``."""

    __slots__ = ("dice",)

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def component_roll(self) -> int:
        return self.dice.below(COMBAT, component_die())

    def pick(self, options: Sequence[int]) -> int:
        return self.dice.choice(COMBAT, options)

    def between(self, lo: int, hi: int) -> int:
        return self.dice.between(COMBAT, lo, hi)

    def survival_roll(self, needed: int) -> int:
        return self.dice.d100(COMBAT)


class CascadeWork:
    """A mutable working copy of a frame for the length of one hit's cascade.

    `apply_damage` runs one on a `Unit` and turns it back into one; the forecast
    (`combat/forecast.py`) loads the fields it tracks into one and reads them back, so both
    apply the same cascade (`cascade`).
    """

    __slots__ = (
        "actuator_hits",
        "ap",
        "armor",
        "barrier",
        "cockpit_breached",
        "cockpit_hit",
        "destroyed",
        "destroyed_by",
        "equipment",
        "gyro_hit",
        "pilot_alive",
        "reactor_hits",
        "sensor_hit",
        "stress",
        "structure",
        "transfer",
        "unit",
        "weapons",
    )

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self.armor = list(unit.armor)
        self.structure = list(unit.structure)
        self.weapons = list(unit.weapons)
        self.equipment = list(unit.equipment)
        self.actuator_hits = list(unit.actuator_hits)
        self.barrier = unit.barrier
        self.stress = unit.stress
        self.reactor_hits = unit.reactor_hits
        self.gyro_hit = unit.gyro_hit
        self.ap = unit.ap
        self.sensor_hit = unit.sensor_hit
        self.cockpit_hit = unit.cockpit_hit
        self.cockpit_breached = unit.cockpit_breached
        self.pilot_alive = unit.pilot_alive
        self.destroyed = unit.destroyed
        self.destroyed_by: DestroyedBy = unit.destroyed_by
        # After ``cascade(..., follow=False)``: the transfer it stopped before (§4.4).
        self.transfer: tuple[str, int] | None = None

    def copy(self) -> CascadeWork:
        """An independent copy (its lists copied too)."""
        new = CascadeWork.__new__(CascadeWork)
        for name in CascadeWork.__slots__:
            setattr(new, name, getattr(self, name))
        new.armor = list(self.armor)
        new.structure = list(self.structure)
        new.weapons = list(self.weapons)
        new.equipment = list(self.equipment)
        new.actuator_hits = list(self.actuator_hits)
        return new

    def result(self) -> Unit:
        return attrs.evolve(
            self.unit,
            armor=tuple(self.armor),
            structure=tuple(self.structure),
            weapons=tuple(self.weapons),
            equipment=tuple(self.equipment),
            actuator_hits=tuple(self.actuator_hits),
            barrier=self.barrier,
            stress=self.stress,
            reactor_hits=self.reactor_hits,
            gyro_hit=self.gyro_hit,
            ap=self.ap,
            sensor_hit=self.sensor_hit,
            cockpit_hit=self.cockpit_hit,
            cockpit_breached=self.cockpit_breached,
            pilot_alive=self.pilot_alive,
            destroyed=self.destroyed,
            destroyed_by=self.destroyed_by,
        )

    # ---- §4.3 component effects ----------------------------------------------------------
    def component(self, location: str, effect: str, draws: Draws) -> tuple[str, int, int]:
        """Apply one component effect at ``location``.

        Returns ``(effect label, internal damage, overflow of that internal damage)``.
        """
        cat = catalog()
        idx = LOC_INDEX[location]
        if effect == WEAPON_DESTROYED:
            working = [
                i for i, w in enumerate(self.weapons) if w.mount == location and not w.destroyed
            ]
            if not working:
                return f"{WEAPON_DESTROYED}:{NONE}", 0, 0
            i = draws.pick(working)
            self.weapons[i] = attrs.evolve(self.weapons[i], destroyed=True)
            return f"{WEAPON_DESTROYED}:{self.weapons[i].weapon}", 0, 0
        if effect == ACTUATOR_DAMAGED:
            if location not in ACTUATOR_LOCATIONS:
                return f"{ACTUATOR_DAMAGED}:{NONE}", 0, 0
            self.actuator_hits[idx] += 1
            return ACTUATOR_DAMAGED, 0, 0
        if effect == AMMO_EXPLOSION:
            loaded = [
                i
                for i, w in enumerate(self.weapons)
                if w.mount == location
                and not w.destroyed
                and w.ammo > 0
                and cat.weapons[w.weapon].uses_ammo
            ]
            if not loaded:
                return f"{AMMO_EXPLOSION}:{NONE}", 0, 0
            i = draws.pick(loaded)
            dmg = cat.combat.damage
            internal = draws.between(dmg.ammo_explosion_min, dmg.ammo_explosion_max)
            self.weapons[i] = attrs.evolve(self.weapons[i], ammo=0)
            applied = min(internal, self.structure[idx])
            self.structure[idx] -= applied
            return f"{AMMO_EXPLOSION}:{internal}", internal, internal - applied
        if effect == REACTOR_HIT:
            base = cat.chassis[self.unit.chassis].reactor
            self.stress += base * cat.combat.reactor.reactor_hit_stress_percent // _PERCENT
            self.reactor_hits += 1
            return REACTOR_HIT, 0, 0
        if effect == GYRO_HIT:
            self.gyro_hit = True
            self.ap = min(self.ap, cat.combat.rounds.gyro_hit_action_points)
            return GYRO_HIT, 0, 0
        if effect == SENSOR_HIT:
            self.sensor_hit = True
            return SENSOR_HIT, 0, 0
        if effect == COCKPIT_HIT:
            self.cockpit_hit = True
            return COCKPIT_HIT, 0, 0
        return NO_EFFECT, 0, 0

    # ---- §4.5 / §7.6 location destruction ------------------------------------------------
    def destroy_location(self, location: str) -> list[str]:
        """Destroy every weapon and slot equipment still working at ``location``."""
        lost: list[str] = []
        for i, w in enumerate(self.weapons):
            if w.mount == location and not w.destroyed:
                self.weapons[i] = attrs.evolve(w, destroyed=True)
                lost.append(w.weapon)
        for i, e in enumerate(self.equipment):
            if e.mount == location and not e.destroyed:
                self.equipment[i] = attrs.evolve(e, destroyed=True)
                lost.append(e.equipment)
        return lost

    # ---- §4.2-§4.6 the cascade -----------------------------------------------------------
    def cascade(
        self,
        location: str,
        amount: int,
        draws: Draws,
        records: bool = True,
        *,
        follow: bool = True,
        breach: bool = False,
    ) -> DamageReport:
        """One hit of ``amount`` on ``location``, applied to this working copy; the report.

        Records one `LocationDamage` per location the cascade reaches only when ``records``
        is true (the forecast leaves them out). With ``follow=False`` it stops after the
        first location and leaves the transfer it would make in ``self.transfer`` (the
        forecast continues it as a hit on that location: a transfer only happens once the
        Barrier's armour is gone). ``breach`` (O9.9a, a Breach Shot): at the first location
        the Barrier and the armour are skipped and the component roll is drawn uniformly from
        0 to data/formations.toml's ``component_high`` (a row with an effect).
        """
        cat = catalog()
        # Reactive Armor is passive (no mount), so it never dies mid-cascade: read it once.
        percent = equipment_total(self.equipment, STRUCTURE_DAMAGE_REDUCTION)
        lines: list[LocationDamage] = []
        visited: set[str] = set()
        first = True
        head_destroyed = False
        frame_destroyed = False
        destroyed_by: DestroyedBy = "none"
        pilot_roll: int | None = None
        pilot_needed: int | None = None
        pilot_survived: bool | None = None

        loc = location
        remaining = amount
        self.transfer = None
        while True:
            visited.add(loc)
            idx = LOC_INDEX[loc]
            incoming = remaining
            barrier_before = self.barrier
            breaching = breach and first
            if first and not breaching:  # R11: temporary armour absorbs first, once per hit
                soaked = min(self.barrier, remaining)
                self.barrier -= soaked
                remaining -= soaked
            first = False
            armor_before = self.armor[idx]
            structure_before = self.structure[idx]
            reduced = 0
            internal = 0
            roll: int | None = None
            effects: list[str] = []
            weapons_lost: list[str] = []
            destroyed = False

            if structure_before <= 0:
                overflow = remaining  # §4.4: an already destroyed location passes it all on
            else:
                soaked = 0 if breaching else min(self.armor[idx], remaining)
                self.armor[idx] -= soaked
                remaining -= soaked
                overflow = 0
                if remaining > 0:
                    cut = remaining * percent // _PERCENT if percent > 0 else 0
                    structure_damage = max(1, remaining - cut)
                    reduced = remaining - structure_damage
                    applied = min(structure_damage, self.structure[idx])
                    self.structure[idx] -= applied
                    overflow = structure_damage - applied
                    roll = (
                        draws.between(0, cat.formations.breach_shot.component_high)
                        if breaching
                        else draws.component_roll()
                    )
                    label, internal, extra = self.component(loc, component_for_roll(roll).id, draws)
                    overflow += extra
                    effects.append(label)
                    if label.startswith(f"{WEAPON_DESTROYED}:") and not label.endswith(NONE):
                        weapons_lost.append(label.split(":", 1)[1])
                if self.structure[idx] <= 0:
                    destroyed = True
                    weapons_lost.extend(self.destroy_location(loc))

            target = cat.location(loc).transfer_to
            goes_on = overflow > 0 and target is not None and target not in visited
            if records:
                lines.append(
                    LocationDamage(
                        location=loc,
                        incoming=incoming,
                        barrier_before=barrier_before,
                        barrier_after=self.barrier,
                        armor_before=armor_before,
                        armor_after=self.armor[idx],
                        structure_before=structure_before,
                        structure_after=self.structure[idx],
                        reduced=reduced,
                        internal=internal,
                        transferred_to=target if goes_on else None,
                        transferred=overflow if goes_on else 0,
                        lost=0 if goes_on else overflow,
                        destroyed=destroyed,
                        component_roll=roll,
                        effects=tuple(effects),
                        weapons_lost=tuple(weapons_lost),
                    )
                )

            if destroyed and idx == CENTER_TORSO and not self.destroyed:
                # §4.5: the reactor is breached.
                self.destroyed = True
                self.destroyed_by = "center_torso"
                frame_destroyed = True
                destroyed_by = "center_torso"
            if destroyed and idx == HEAD:
                # §4.6: cockpit breached, sensors gone, the pilot rolls to survive.
                head_destroyed = True
                self.sensor_hit = True
                if self.pilot_alive and not self.destroyed:
                    dmg = cat.combat.damage
                    pilot_needed = (
                        dmg.head_survival_base
                        + self.unit.pilot.piloting * dmg.head_survival_per_piloting
                    )
                    pilot_roll = draws.survival_roll(pilot_needed)
                    pilot_survived = pilot_roll <= pilot_needed
                    if pilot_survived:
                        self.cockpit_breached = True
                        self.cockpit_hit = True  # R16: injured after the battle
                    else:
                        self.pilot_alive = False  # R15: out of the fight, frame not destroyed
                        if self.destroyed_by == "none":
                            self.destroyed_by = "pilot"
                        destroyed_by = "pilot"

            if not goes_on:
                break
            assert target is not None
            if not follow:
                self.transfer = (target, overflow)
                break
            loc = target
            remaining = overflow

        return DamageReport(
            total=amount,
            locations=tuple(lines),
            head_destroyed=head_destroyed,
            pilot_roll=pilot_roll,
            pilot_needed=pilot_needed,
            pilot_survived=pilot_survived,
            frame_destroyed=frame_destroyed,
            destroyed_by=destroyed_by,
        )


def apply_damage(
    unit: Unit, location: str, amount: int, dice: Dice, *, breach: bool = False
) -> tuple[Unit, DamageReport]:
    """One hit of ``amount`` damage on ``location`` of ``unit`` (§4.2-§4.6, R8, R11, R15, R16).

    Returns the new frame and the report; ``unit`` itself is never changed. Draws from
    ``dice.COMBAT`` in cascade order: per location with structure damage one component roll
    (then, for a destroyed weapon the weapon's pick; for an ammo explosion the weapon's pick
    and the internal damage), and the pilot's survival roll when the head is destroyed.
    """
    if amount < 0:
        raise ValueError(f"damage must be >= 0, got {amount}")
    if location not in LOC_INDEX:
        raise ValueError(f"unknown location {location!r} (known: {', '.join(LOCATION_ORDER)})")
    work = CascadeWork(unit)
    report = work.cascade(location, amount, DiceDraws(dice), breach=breach)
    return work.result(), report
