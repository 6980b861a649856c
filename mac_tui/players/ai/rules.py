"""The rulebook's AI behaviours (§10), each a stated rule a player can recognise.

Stances (§10.1, §10.2):

* **Aggressive**: keeps one range band closer than its weapons' best band, weighs the fire it
  will draw at 0.3 of its value, braces only with an AP it could not fire with, and vents only
  when the reactor would otherwise shut down for certain.
* **Balanced**: keeps its weapons' best band, weighs the fire it will draw at 0.4, and vents
  with an AP it does not fire with while its stress is at or above its output (a shutdown
  risk).
* **Defensive**: keeps one band farther, weighs the fire it will draw at 0.6, vents like
  Balanced from half its output, and below 50% of its starting armour braces (or switches its
  countermeasures on) with an AP it does not fire with when an enemy can fire at it before it
  acts again.

No stance gives up fire for these: each shapes only what the frame does with an AP it does not
fire with.

Target priorities (§10.3): when its best plan fires, the frame plays the best plan worth at
least 85% of it (90% at Tactics 5, 95% at 6: `skill.PRIORITY_WINDOWS`) that fires at the target
its priority ranks first (all its fire at it when such a plan is among them):

* **Focus Fire**: the lowest remaining armour and structure;
* **Spread Damage**: the highest share of its starting armour left;
* **Threat Priority**: the heaviest class, then the most weapon damage;
* **Opportunity**: a shut-down frame first, then the smallest share of its armour left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ...catalog import catalog
from ...combat import stats, track
from ...combat.state import Priority, Stance, Unit

BANDS: Final = ("short", "medium", "long")
#: How much of the fire a frame will draw counts against a plan, by stance.
FEAR: Final[dict[Stance, float]] = {"aggressive": 0.3, "balanced": 0.4, "defensive": 0.6}
#: The stress, as a share of output, from which Balanced and Defensive vent (§10.1).
VENT_FROM: Final[dict[Stance, float | None]] = {
    "aggressive": None,
    "balanced": 1.0,
    "defensive": 0.5,
}
#: Defensive braces below this share of its starting armour (§10.1 "heavily damaged").
DEFENSIVE_BRACE_BELOW: Final = 0.5
#: The priority window: plans worth at least this share of the best one may be swapped for the
#: priority's target (§10.3).
PRIORITY_WINDOW: Final = 0.85


def best_band(unit: Unit) -> str:
    """§10.2: the range class carrying most of the loadout's damage (ties: the shorter)."""
    totals = dict.fromkeys(BANDS, 0)
    for _, ws in unit.live_weapons():
        if stats.has_shots(ws):
            w = stats.weapon_of(ws)
            totals[w.range] += w.damage
    return max(BANDS, key=lambda b: (totals[b], -BANDS.index(b)))


def stance_band(unit: Unit) -> str:
    """§10.2: the best band shifted one closer (Aggressive) or one farther (Defensive)."""
    i = BANDS.index(best_band(unit))
    if unit.stance == "aggressive":
        i = max(0, i - 1)
    elif unit.stance == "defensive":
        i = min(len(BANDS) - 1, i + 1)
    return BANDS[i]


def preferred_distance(unit: Unit, on_track: bool = False) -> int:
    """The middle of the stance band's optimal hexes (§6.5). On the track (O1.9): the band
    where the loadout's best range class peaks (its highest §3.4 column; ties: the closer),
    shifted one band closer (Aggressive) or farther (Defensive), as §10.2 is written."""
    if on_track:
        return track_band(unit)
    rc = catalog().range_class(stance_band(unit))
    return (rc.optimal_min + rc.optimal_max) // 2


def track_band(unit: Unit) -> int:
    """O1.9: the preferred range 0-3 on the track."""
    rc = catalog().range_class(best_band(unit))
    columns = [rc.band_modifier(b) for b in track.BANDS]
    band = max(range(len(columns)), key=lambda i: (columns[i], -i))
    shift = {"aggressive": -1, "balanced": 0, "defensive": 1}[unit.stance]
    return min(len(columns) - 1, max(0, band + shift))


def _armour_share(u: Unit) -> float:
    return u.total_armor / max(1, u.start_armor)


def _firepower(u: Unit) -> int:
    return sum(stats.weapon_of(w).damage for _, w in u.live_weapons())


#: §10.3: sort key of each priority, smallest first.
PRIORITY_KEY: Final[dict[Priority, Callable[[Unit], tuple[float, ...]]]] = {
    "focus_fire": lambda u: (u.total_armor + u.total_structure,),
    "spread_damage": lambda u: (-_armour_share(u),),
    "threat": lambda u: (-stats.chassis_of(u).tonnage, -_firepower(u)),
    "opportunity": lambda u: (0 if u.shutdown else 1, _armour_share(u)),
}


def below_brace_line(unit: Unit) -> bool:
    """Defensive's "heavily damaged" (§10.1): below half its starting armour."""
    return unit.stance == "defensive" and _armour_share(unit) < DEFENSIVE_BRACE_BELOW
