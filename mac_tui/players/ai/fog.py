"""The AI under optional module O8 (O8.11): it plays from its side's view only.

`decide` is given the side's view (`combat.view.view_of`; it takes the view again itself, so
a caller that passes the state gives it nothing more). For planning, `presume` puts the enemies
the side has never detected where they must have deployed (the free hexes its frames do not see
nearest the middle of their zone: public knowledge, O8.1), as markers like last-known
positions, and moves a marker its frames see empty to the nearest hex they do not see (the
enemy went on), so the frames go looking for them; `can_target` is the planner's O8.6: a shot
from a hex needs the target detected from there (a marker never is), and `radiating` its O8.7
bonus.
"""

from __future__ import annotations

import attrs

from ...combat import detection
from ...combat.state import Battle, Side, Unit, friendly
from ...hexgrid import Hex, distance, from_offset, to_offset

__all__ = ["can_target", "presume", "radiating"]


def presume(battle: Battle, side: Side) -> Battle:
    """`battle` (a view of `side`) with every never-detected living enemy (off the map in the
    view) placed on the free hex its frames do not see nearest the middle of its deployment
    zone, and every marker its frames see empty moved to the nearest hex they do not see; the
    hexes so placed are markers (never detected, never shot at). No change with O8 off."""
    if not detection.on(battle) or battle.phase != "combat":
        return battle
    own = [u for u in battle.units if friendly(side, u.side) and u.active and u.pos is not None]
    unplaced = [
        u for u in battle.units if u.active and u.pos is None and not friendly(side, u.side)
    ]
    stale = [u for u in battle.units if u.id in battle.markers and _in_sight(battle, own, u)]
    if not unplaced and not stale:
        return battle
    taken = set(battle.occupied())
    placed: dict[str, Hex] = {}
    starts: list[tuple[Unit, Hex]] = [(u, u.pos) for u in stale if u.pos is not None]
    if unplaced:
        zone = battle.map.deployment_hexes("player" if side == "enemy" else "enemy")
        cols = sorted({to_offset(h)[0] for h in zone})
        middle = from_offset(cols[len(cols) // 2], battle.map.height // 2)
        starts += [(u, middle) for u in unplaced]
    for u, start in starts:
        h = _nearest_unseen(battle, own, u, start, taken)
        if h is not None:
            placed[u.id] = h
            taken.add(h)
    units = tuple(attrs.evolve(u, pos=placed[u.id]) if u.id in placed else u for u in battle.units)
    markers = (*battle.markers, *(k for k in placed if k not in battle.markers))
    return attrs.evolve(battle, units=units, markers=markers)


def _in_sight(battle: Battle, own: list[Unit], enemy: Unit) -> bool:
    return any(detection.sees(battle, u, enemy) for u in own)


def _nearest_unseen(
    battle: Battle, own: list[Unit], enemy: Unit, start: Hex, taken: set[Hex]
) -> Hex | None:
    """The hex nearest `start` (then row-major) where none of `own` would see `enemy`."""
    hexes = sorted(
        (h for h in battle.map.grid.hexes() if h not in taken),
        key=lambda h: (distance(h, start), h.r, h.q),
    )
    for h in hexes:
        if not _in_sight(battle, own, attrs.evolve(enemy, pos=h)):
            return h
    return None


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
