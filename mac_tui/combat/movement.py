"""Moving (§6.4, R2, R3): where a frame can go with one Move or Sprint, and what it costs.

`check_move` returns the reason a move is illegal, or its plan, without touching the state; the
handler (`actions.py`), `legal.py`, the previews and the AI all go through it. With optional
module O4 a move ends with a facing (O4.2) and a Move may be a reverse Move (O4.3).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
from attrs import frozen

from ..catalog import catalog
from ..hexgrid import Hex, distance, path, reachable, reachable_steps
from . import detection, elevation, facing, moving_fire, stats, track
from .detection import Bumped
from .events import (
    BattleChange,
    Moved,
)
from .flow import nearest_enemy_distance
from .state import Battle, Unit
from .stats import ap_costs
from .structures import entry_refusal, feature_move_cost


@frozen
class MovePlan:
    path: tuple[Hex, ...]
    energy: int
    pullback: bool
    facing: int | None = None  # O4.2/O4.3: the facing the frame ends with (None with O4 off)


def reach(
    battle: Battle, unit: Unit, sprint: bool = False, reverse: bool = False
) -> dict[Hex, tuple[int, Hex | None]]:
    """§6.4: hexes reachable by one Move (or Sprint), paying terrain costs on entry (R2). A
    reverse Move (O4.3) steps only backwards of the frame's facing."""
    fog = detection.on(battle)
    if unit.pos is None:
        return {}
    if track.on(battle):  # O1.4: one position (two), no passing (O1.2)
        return track.reach(battle, unit, sprint)
    # O8.8: a move is planned around the hexes its side knows to be taken
    blocked = detection.known_occupied(battle, unit.side) if fog else battle.occupied()
    bmap = battle.map
    terrain = catalog().terrain

    sections = battle.structures

    def cost(h: Hex) -> int | None:
        if h in blocked or not bmap.contains(h):
            return None
        if sections:  # O3.2 "Entering"
            return feature_move_cost(battle, h, terrain[bmap.terrain_at(h)].move_cost)
        return terrain[bmap.terrain_at(h)].move_cost

    budget = stats.hex_movement(unit, sprint)
    levels = elevation.on(battle)
    back = (
        frozenset(facing.reverse_directions(unit.facing))
        if reverse and unit.facing is not None
        else None
    )
    if levels or back is not None:  # O2.3: a climb costs more, a step too high or deep is barred

        def step(start: Hex, end: Hex) -> int | None:
            if back is not None and facing.step_direction(start, end) not in back:
                return None  # O4.3: a reverse Move steps backwards only
            flat = cost(end)
            extra = 0 if flat is None or not levels else elevation.step_cost(battle, start, end)
            return None if flat is None or extra is None else flat + extra

        return reachable_steps(unit.pos, budget, step)
    return reachable(unit.pos, budget, cost)


def check_move(
    battle: Battle,
    unit: Unit,
    target: Hex,
    sprint: bool,
    reached: dict[Hex, tuple[int, Hex | None]] | None = None,
    *,
    reverse: bool = False,
    facing_name: str = "",
) -> MovePlan | str:
    """Why a Move/Sprint to `target` is illegal, or its plan. `reached` may carry a precomputed
    `reach(battle, unit, sprint, reverse)` when many targets are checked. O4: `reverse` for a
    reverse Move (O4.3), `facing_name` the facing named in the command (O4.2)."""
    return move_checker(battle, unit, sprint, reached, reverse=reverse)(target, facing_name)


def move_checker(
    battle: Battle,
    unit: Unit,
    sprint: bool,
    reached: dict[Hex, tuple[int, Hex | None]] | None = None,
    *,
    reverse: bool = False,
) -> Callable[..., MovePlan | str]:
    """`check_move` of one frame for any number of target hexes (and named facings): what does
    not depend on the target (AP, legs, energy, the nearest enemy now) is worked out once, the
    checks run in the same order and give the same answers (`legal_commands` asks it for every
    hex)."""
    if track.on(battle):  # O1: the shift's own check
        return lambda target, facing_name="": _track_plan(battle, unit, target, sprint)
    ap_cost = ap_costs().sprint if sprint else ap_costs().move
    refusal = facing.move_refusal(battle, unit, sprint, reverse)
    if refusal is None and unit.ap < ap_cost:
        refusal = f"needs {ap_cost} AP, {unit.ap} left"
    if refusal is None and not stats.can_move(unit):
        refusal = "the legs are destroyed: this frame cannot move"
    if refusal is not None:
        reason = refusal
        return lambda target, facing_name="": reason
    bmap = battle.map
    fog = detection.on(battle)  # O8.8, O8.9: planned on the side's view
    known = detection.known_occupied(battle, unit.side) if fog else frozenset()
    before = None if fog else nearest_enemy_distance(battle, unit)
    # R3: the foes' hexes, once (`nearest_enemy_distance_from` for every target, cheaper)
    foe_hexes = () if fog else tuple(e.pos for e in battle.foes(unit.side) if e.pos is not None)
    energy_plain = stats.move_energy(unit, sprint=sprint, pullback=False)
    energy_back = stats.move_energy(unit, sprint=sprint, pullback=True)
    left = stats.energy_left(unit)
    seen = reached

    def check(target: Hex, facing_name: str = "") -> MovePlan | str:
        nonlocal seen
        if unit.pos == target:
            return "the frame is already there"
        if not bmap.contains(target):
            return f"hex {target.q},{target.r} is off the map"
        if (target in known) if fog else (battle.occupant(target) is not None):
            return f"hex {target.q},{target.r} is occupied"
        barrier = entry_refusal(battle, target)  # O3.2
        if barrier is not None:
            return barrier
        if seen is None:
            seen = reach(battle, unit, sprint, reverse)
        if target not in seen:
            kind = "sprint" if sprint else "reverse move" if reverse else "move"
            return f"hex {target.q},{target.r} is out of {kind} range"
        assert unit.pos is not None
        if fog:
            pullback = detection.pullback(battle, unit, target)
        else:
            after = min((distance(target, h) for h in foe_hexes), default=None)
            pullback = before is not None and after is not None and after > before
        energy = energy_back if pullback else energy_plain
        if left < energy:
            return f"needs {energy} energy, {left} left"
        steps = path(seen, target)
        ends = facing.end_facing(battle, unit, steps, reverse, facing_name)
        if isinstance(ends, str):
            return ends
        return MovePlan(path=steps, energy=energy, pullback=pullback, facing=ends)

    return check


def _track_plan(battle: Battle, unit: Unit, target: Hex, sprint: bool) -> MovePlan | str:
    shift = track.check_shift(battle, unit, target, sprint)
    if isinstance(shift, str):
        return shift
    step = 1 if shift.end > shift.start else -1
    hexes = tuple(track.at(p) for p in range(shift.start, shift.end + step, step))
    return MovePlan(path=hexes, energy=shift.energy, pullback=shift.pullback)


def do_move(
    battle: Battle,
    unit: Unit,
    target: Hex,
    sprint: bool,
    *,
    reverse: bool = False,
    facing_name: str = "",
) -> BattleChange | str:
    plan = check_move(battle, unit, target, sprint, reverse=reverse, facing_name=facing_name)
    if isinstance(plan, str):
        return plan
    # O8.8: a step into an undetected enemy's hex stops the mover in the hex before
    fog = detection.on(battle)
    walked, enemy = detection.bump(battle, unit, plan.path) if fog else (plan.path, None)
    ends = plan.facing
    if ends is not None and walked != plan.path and not reverse:
        # O8.8 with O4.2: stopped short, the frame faces its last step taken (if any)
        ends = facing.step_direction(walked[-2], walked[-1]) if len(walked) > 1 else unit.facing
    moved = attrs.evolve(
        unit,
        pos=walked[-1],
        ap=unit.ap - (ap_costs().sprint if sprint else ap_costs().move),
        energy_used=unit.energy_used + plan.energy,
        facing=unit.facing if ends is None else ends,
    )
    moved = moving_fire.count_move(battle, moved, track.hexes(battle, len(walked) - 1))  # O5.1
    event = Moved(
        unit=unit.id,
        mode="sprint" if sprint else "move",
        path=walked,
        energy=plan.energy,
        pullback=plan.pullback,
        facing=ends,
        reverse=reverse,
    )
    if track.on(battle):  # O1.11: the positions
        event = attrs.evolve(event, start=plan.path[0].q, end=target.q)
    if enemy is None:
        return battle.with_unit(moved), [event]
    # O8.8: stopped short of an undetected enemy, which it detects for the rest of the
    # activation; AP and energy stay paid
    moved = attrs.evolve(moved, bumped=(*moved.bumped, enemy.id))
    stop = Bumped(unit=unit.id, enemy=enemy.id, hex=walked[-1])
    return battle.with_unit(moved), [event, stop]
