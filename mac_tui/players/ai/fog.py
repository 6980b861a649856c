"""The AI under optional module O8 (O8.11): it plays from its side's view only.

`decide` is given the side's view (`combat.view.view_of`; it takes the view again itself, so
a caller that passes the state gives it nothing more). For planning, `presume` puts the enemies
the side has never detected where they must have deployed (the middle of their zone, free hexes
nearest it first: public knowledge, O8.1), as markers like last-known positions, so the frames
go looking for them; `can_target` is the planner's O8.6: a shot from a hex needs the target
detected from there (a marker never is), and `radiating` its O8.7 bonus.
"""

from __future__ import annotations

import attrs

from ...combat import detection
from ...combat.state import Battle, Side, Unit, other_side
from ...hexgrid import Hex, distance, from_offset, to_offset

__all__ = ["can_target", "presume", "radiating"]


def presume(battle: Battle, side: Side) -> Battle:
    """`battle` (a view of `side`) with every never-detected living enemy (off the map in the
    view) placed on a free hex of its deployment zone, nearest the zone's middle first, and
    listed as a marker. No change with O8 off or when every enemy is placed."""
    if not detection.on(battle):
        return battle
    unplaced = [u for u in battle.units if u.active and u.pos is None and u.side != side]
    if not unplaced:
        return battle
    zone = battle.map.deployment_hexes(other_side(side))
    cols = sorted({to_offset(h)[0] for h in zone})
    middle = from_offset(cols[len(cols) // 2], battle.map.height // 2)
    taken = battle.occupied()
    free = sorted(
        (h for h in zone if h not in taken), key=lambda h: (distance(h, middle), h.r, h.q)
    )
    placed: dict[str, Hex] = {u.id: h for u, h in zip(unplaced, free, strict=False)}
    units = tuple(attrs.evolve(u, pos=placed[u.id]) if u.id in placed else u for u in battle.units)
    return attrs.evolve(battle, units=units, markers=(*battle.markers, *placed))


def can_target(battle: Battle, shooter: Unit, at: Hex, target: Unit) -> bool:
    """O8.6 for a plan: `shooter` standing at `at` would detect `target` (always with O8
    off)."""
    if not detection.on(battle):
        return True
    if at == shooter.pos:
        return detection.detects(battle, shooter, target)
    return detection.detects(battle, attrs.evolve(shooter, pos=at), target)


def radiating(battle: Battle, shooter: Unit, at: Hex, target: Unit) -> int:
    """O8.7's `radiating` for a shot from `at` (0 with O8 off)."""
    if not detection.on(battle) or not detection.radiates(target):
        return 0
    there = shooter if at == shooter.pos else attrs.evolve(shooter, pos=at)
    return detection.radiating_bonus(battle, there, target)
