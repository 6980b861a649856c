"""What one hit did, and its words: the records of the §4 cascade (`LocationDamage` per
location, `DamageReport` per hit) that `damage.apply_damage` returns, the effect ids of the
component table (``data/combat.toml`` [[component]]) they carry, and one way to put them into
words (`describe`, shaped by a `Phrasing`: the engine's short tabletop line by default, the
battle log's player form in tui/battle_text.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from attrs import frozen

from ..catalog import catalog
from .state import DestroyedBy

__all__ = [
    "ACTUATOR_DAMAGED",
    "AMMO_EXPLOSION",
    "COCKPIT_HIT",
    "GYRO_HIT",
    "NONE",
    "NO_EFFECT",
    "PLAIN",
    "REACTOR_HIT",
    "SENSOR_HIT",
    "WEAPON_DESTROYED",
    "DamageReport",
    "LocationDamage",
    "Phrasing",
    "describe_effect",
    "item_name",
]

#: Suffix of an effect id that found nothing to act on.
NONE: Final = "none"

# Effect ids of the component table (data/combat.toml [[component]]).
WEAPON_DESTROYED: Final = "weapon_destroyed"
ACTUATOR_DAMAGED: Final = "actuator_damaged"
AMMO_EXPLOSION: Final = "ammo_explosion"
REACTOR_HIT: Final = "reactor_hit"
GYRO_HIT: Final = "gyro_hit"
SENSOR_HIT: Final = "sensor_hit"
COCKPIT_HIT: Final = "cockpit_hit"
NO_EFFECT: Final = "no_effect"


def _abbrev(location: str) -> str:
    return catalog().location(location).abbrev


@frozen
class Phrasing:
    """How `describe` puts a cascade into words: the locations' names, the arrow between a
    value before and after, and whether each component roll is told."""

    location: Callable[[str], str] = _abbrev
    arrow: str = "->"
    component_rolls: bool = False
    #: The outcomes that put a frame out of the fight (pilot killed, frame destroyed) in
    #: capitals, as the battle log writes a shutdown and the battle's result.
    loud: bool = False


PLAIN = Phrasing()


@frozen(kw_only=True)
class LocationDamage:
    """What one hit did at one location of the cascade (§4.2-§4.4).

    ``incoming`` is the damage that arrived here (the whole hit at the first location,
    the overflow of the previous location after a transfer). Per location::

        incoming + internal == barrier absorbed + armour lost + structure lost
                               + reduced + transferred + lost
    """

    location: str
    incoming: int
    barrier_before: int = 0
    barrier_after: int = 0
    armor_before: int
    armor_after: int
    structure_before: int
    structure_after: int
    reduced: int = 0
    internal: int = 0
    transferred_to: str | None = None
    transferred: int = 0
    lost: int = 0
    destroyed: bool = False
    component_roll: int | None = None
    effects: tuple[str, ...] = ()
    weapons_lost: tuple[str, ...] = ()

    @property
    def barrier_absorbed(self) -> int:
        return self.barrier_before - self.barrier_after

    @property
    def armor_lost(self) -> int:
        return self.armor_before - self.armor_after

    @property
    def structure_lost(self) -> int:
        return self.structure_before - self.structure_after

    def describe(self, words: Phrasing | None = None) -> str:
        """Tabletop text, e.g. ``LT for 10, armour 4 -> 0, structure 5 -> 1, actuator damaged``
        (`words`: how to name the locations and draw the arrow; the short form by default)."""
        w = words or PLAIN
        cat = catalog()
        to = w.arrow
        parts = [f"{w.location(self.location)} for {self.incoming}"]
        if self.barrier_absorbed:
            parts.append(f"barrier {self.barrier_before} {to} {self.barrier_after}")
        if self.structure_before <= 0:
            parts.append("already destroyed")
        else:
            parts.append(f"armour {self.armor_before} {to} {self.armor_after}")
            if self.structure_lost or self.reduced:
                parts.append(f"structure {self.structure_before} {to} {self.structure_after}")
        if self.reduced:
            parts.append(f"reactive armour -{self.reduced}")
        if w.component_rolls and self.component_roll is not None:
            parts.append(f"component roll {self.component_roll}")
        parts.extend(t for t in (describe_effect(e) for e in self.effects) if t)
        if self.destroyed:
            parts.append(f"{cat.location(self.location).name} destroyed")
            from_effects = {e.split(":", 1)[1] for e in self.effects if ":" in e}
            gone = [n for n in self.weapons_lost if n not in from_effects]
            if gone:
                parts.append("lost " + ", ".join(item_name(n) for n in gone))
        if self.transferred_to is not None:
            parts.append(f"{self.transferred} on to {w.location(self.transferred_to)}")
        if self.lost:
            parts.append(f"{self.lost} damage lost")
        return ", ".join(parts)


@frozen(kw_only=True)
class DamageReport:
    """One hit's whole cascade (§4) and the head / frame outcome (§4.5, §4.6, R15)."""

    total: int
    locations: tuple[LocationDamage, ...]
    head_destroyed: bool = False
    pilot_roll: int | None = None
    pilot_needed: int | None = None
    pilot_survived: bool | None = None
    frame_destroyed: bool = False
    destroyed_by: DestroyedBy = "none"

    @property
    def barrier_absorbed(self) -> int:
        return sum(loc.barrier_absorbed for loc in self.locations)

    @property
    def armor_lost(self) -> int:
        return sum(loc.armor_lost for loc in self.locations)

    @property
    def structure_lost(self) -> int:
        return sum(loc.structure_lost for loc in self.locations)

    @property
    def reduced(self) -> int:
        return sum(loc.reduced for loc in self.locations)

    @property
    def internal(self) -> int:
        return sum(loc.internal for loc in self.locations)

    @property
    def lost(self) -> int:
        return sum(loc.lost for loc in self.locations)

    @property
    def effects(self) -> tuple[str, ...]:
        return tuple(e for loc in self.locations for e in loc.effects)

    @property
    def weapons_lost(self) -> tuple[str, ...]:
        return tuple(w for loc in self.locations for w in loc.weapons_lost)

    @property
    def destroyed_locations(self) -> tuple[str, ...]:
        return tuple(loc.location for loc in self.locations if loc.destroyed)

    def describe(self, words: Phrasing | None = None) -> str:
        """The cascade as one line: each location, transfers, the pilot and frame outcome."""
        parts = [loc.describe(words) for loc in self.locations]
        loud = (words or PLAIN).loud
        if self.pilot_roll is not None:
            killed = "PILOT KILLED" if loud else "pilot killed"
            verdict = "pilot survives, injured" if self.pilot_survived else killed
            parts.append(f"{verdict} (rolls {self.pilot_roll}, needs {self.pilot_needed})")
        if self.frame_destroyed:
            parts.append("FRAME DESTROYED" if loud else "frame destroyed")
        return "; ".join(parts)


def item_name(item_id: str) -> str:
    """A weapon's or a piece of equipment's name (the id when it is neither)."""
    cat = catalog()
    if item_id in cat.weapons:
        return cat.weapons[item_id].name
    if item_id in cat.equipment:
        return cat.equipment[item_id].name
    return item_id


def describe_effect(effect: str) -> str:
    """Plain words for an effect id of `LocationDamage.effects` ('' for no effect)."""
    base, _, arg = effect.partition(":")
    if base == NO_EFFECT:
        return ""
    row = next((r for r in catalog().combat.component if r.id == base), None)
    name = row.name.lower() if row is not None else base
    if arg == NONE:
        return f"{name} (nothing there)"
    if base == WEAPON_DESTROYED and arg:
        return f"{item_name(arg)} destroyed"
    if base == AMMO_EXPLOSION and arg:
        return f"{name} {arg}"
    return name
