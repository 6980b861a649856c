"""Optional module O3 in the battle AI (O3.13): when to fire at a structure, and when to
smoke its own hex.

The planner values frames; a structure is worth a shot only when the frame has nothing better:
no frame is targetable (no fire order at a frame is legal) and a section blocks the line from
this frame to an enemy, so that bringing it down opens a lane. A fuel tank within its
explosion's reach of one of the side's own frames is never a target. Among the sections left,
the one the group's volley brings nearest its collapse (expected damage over durability), then
row-major order. Orders come from `legal_commands`, so the AI can do nothing a player may not.
"""

from __future__ import annotations

from ...catalog import catalog
from ...combat.attack import hit_chance, intervening
from ...combat.commands import CalledShot, FireGroup, FireStructure, UseEquipment
from ...combat.features import kind_of, section_at, smoke_at
from ...combat.legal import legal_commands
from ...combat.smoke import charges_left
from ...combat.structures import damage_to, plan_fire_structure, structure_chance
from ...core import Command
from ...hexgrid import Hex, distance
from ...model import GameState

__all__ = ["smoke_cover", "structure_shot"]


def structure_shot(state: GameState) -> Command | None:
    """O3.13: the `fire-at` order the active frame should give instead of ending its
    activation, or None."""
    battle = state.battle
    if battle is None or not battle.structures or battle.active_unit is None:
        return None
    unit = battle.active_unit
    foes = {u.id for u in battle.foes(unit.side)}
    shots = legal_commands(state, called_shots=False, only=(FireGroup, CalledShot))
    if unit.pos is None or any(getattr(c, "target", None) in foes for c in shots):
        return None
    orders = [
        c for c in legal_commands(state, only=(FireStructure,)) if isinstance(c, FireStructure)
    ]
    if not orders:
        return None
    walls: set[Hex] = set()
    for enemy in battle.foes(unit.side):
        if enemy.pos is not None:
            # the hexes that block its line (O3.2; with O2 on, the height line's: O2.6)
            # (a step where the line runs between two hexes blocks by the higher, which may
            # be the hex `beside` it: G5)
            line = intervening(battle, unit.pos, enemy.pos)
            walls |= {h for lh in line if lh.blocks for h in (lh.hex, lh.beside) if h is not None}
    reach = catalog().structures.explosion.radius
    ours = [u.pos for u in battle.living(unit.side) if u.pos is not None]
    best: tuple[float, int, int, Command] | None = None
    for order in orders:
        section = section_at(battle.structures, order.hex)
        if section is None or order.hex not in walls:
            continue
        if kind_of(section).explodes and any(distance(p, order.hex) <= reach for p in ours):
            continue  # never a fuel tank beside its own frames
        plan = plan_fire_structure(battle, unit, order.group, order.hex)
        expected = 0.0
        for index in plan.shots:
            ws = unit.weapons[index]
            chance = structure_chance(battle, unit, ws, order.hex)
            if chance is None:
                continue
            miss = (100 - chance.chance) / 100
            hit = 1 - miss * miss  # the re-roll (O3.6)
            dealt = damage_to(section, ws.weapon, catalog().weapons[ws.weapon].damage)
            expected += hit * dealt
        if expected <= 0:
            continue
        key = (expected / max(1, section.durability), -order.hex.r, -order.hex.q, order)
        if best is None or key[:3] > best[:3]:
            best = key
    return None if best is None else best[3]


def smoke_cover(state: GameState) -> Command | None:
    """O3.10-O3.11 for a frame with nothing better to do: when some enemy can fire at it where
    it stands and no smoke lies on its hex, it smokes its own hex (-10 on every shot at it,
    the cloud's end hex counted), if its launcher has a charge and the order is legal."""
    battle = state.battle
    if battle is None or not battle.rule("O3") or battle.active_unit is None:
        return None
    unit = battle.active_unit
    here = unit.pos
    if here is None or charges_left(unit) <= 0 or smoke_at(battle.smoke, here):
        return None
    exposed = any(
        hit_chance(battle, enemy, unit, ws) is not None
        for enemy in battle.foes(unit.side)
        for _, ws in enemy.live_weapons()
    )
    if not exposed:
        return None
    order = UseEquipment(catalog().structures.smoke.launcher, None, here)
    return order if order in legal_commands(state, only=(UseEquipment,)) else None
