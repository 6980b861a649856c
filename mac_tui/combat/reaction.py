"""Optional module O6, reaction fire in cones (optional-rules.md O6.1-O6.9).

* `check_reaction_fire`, `arm_cone` — O6.2: Reaction Fire (1 AP) arms a Cone120 (G3) of one
  weapon group around a direction: any direction, or with O4 on (`Unit.facing` set) the facing
  or one hexside either side. One armed cone per frame; it lapses unfired when the frame's
  next activation starts or it shuts down (`lapse`, called by `flow`).
* `check_sweep`, `arm_sweep` — O6.6: Sweep (1 AP) names a group for the Move that follows.
* `interrupt` — O6.3: a Move, Sprint or jump of the active frame, walked hex by hex: at each
  hex entered, every armed enemy cone that holds it and can reach the mover fires at it, in
  initiative order, with `reaction` -25 (once: the cone is spent); then the mover's own sweep,
  centred on the step's direction (the facing under O4), fires once at the nearest enemy it
  finds, with `sweep` -15. A mover destroyed, head-killed or legless stops where it stands
  (AP and energy stay paid). The shots are ordinary `firing.fire` volleys: energy and ammo
  from the shooter's budget of the current round, overload allowed (O6.4), the group used up
  for that round (R5); O6.5's direct fire only is `hit_chance`'s `reaction` keyword.

Every function answers as the core game while O6 is off: no cone can be armed, so nothing
triggers and nothing is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from ..catalog import catalog
from ..core import Event
from ..dice import Dice
from ..hexgrid import DIRECTIONS, Hex, in_cone120, within
from . import detection, moving_fire, stats
from .events import (
    DIRECTION_NAMES,
    BattleChange,
    Moved,
    ReactionArmed,
    ReactionExpired,
    ReactionTriggered,
    SweepArmed,
)
from .firing import fire, overwatch_target, plan_fire, reach_refusal
from .state import Battle, ReactionCone, Side, Unit

__all__ = [
    "arm_cone",
    "arm_sweep",
    "armed_cones",
    "check_reaction_fire",
    "check_sweep",
    "cone_directions",
    "cone_hexes",
    "group_refusal",
    "in_cone",
    "interrupt",
    "known_cones",
    "lapse",
    "on",
    "step_direction",
    "triggers",
]

MODULE = "O6"


def on(battle: Battle) -> bool:
    """Whether the battle plays O6."""
    return battle.rule(MODULE)


def cone_directions(unit: Unit) -> tuple[int, ...]:
    """O6.2: the directions a cone may point: any without O4; with O4 on (a facing), the
    facing or `facing_spread` hexsides either side."""
    if unit.facing is None:
        return tuple(range(len(DIRECTIONS)))
    spread = catalog().reaction.arming.facing_spread
    return tuple(sorted({(unit.facing + k) % 6 for k in range(-spread, spread + 1)}))


def group_refusal(unit: Unit, group: int) -> str | None:
    """Why `group` of `unit` can neither arm a cone nor sweep (O6.2: not fired this round,
    not the overwatch group, not the armed cone's), or None. (Any order but a Move or a
    second Sweep lapses a declared sweep first, so its group is free for that order.)"""
    weapons = stats.group_weapons(unit, group)
    if not weapons:
        return f"group {group} has no working weapon"
    if not any(stats.has_shots(ws) for _, ws in weapons):
        return f"group {group} has no weapon that can still fire"
    if group in unit.fired_groups:
        return f"group {group} has already fired this round"
    if unit.overwatch_group == group:
        return f"group {group} is on overwatch this round"
    if unit.reaction is not None and unit.reaction.group == group:
        return f"group {group} is armed for reaction fire"
    return None


def _off(battle: Battle, what: str) -> str | None:
    if on(battle):
        return None
    return f"{what} is optional module O6 (reaction fire in cones), which this battle does not play"


def check_reaction_fire(battle: Battle, unit: Unit, group: int, direction: int) -> str | None:
    """O6.2: why `unit` may not arm a cone of `group` towards `direction`, or None."""
    reason = _off(battle, "reaction fire")
    if reason:
        return reason
    cost = catalog().reaction.arming.ap
    if unit.ap < cost:
        return f"reaction fire needs {cost} AP, {unit.ap} left"
    if unit.reaction is not None:
        return f"{unit.label} already has a cone armed (group {unit.reaction.group})"
    if not 0 <= direction < len(DIRECTIONS):
        return f"no direction {direction}: 0 (E) to 5 (SE)"
    allowed = cone_directions(unit)
    if direction not in allowed:
        names = ", ".join(DIRECTION_NAMES[d] for d in allowed)
        return f"the cone must point the way the frame faces or a hexside beside it ({names})"
    return group_refusal(unit, group)


def arm_cone(battle: Battle, unit: Unit, group: int, direction: int) -> BattleChange | str:
    """O6.2: pay the AP and arm the cone (no energy to declare)."""
    reason = check_reaction_fire(battle, unit, group, direction)
    if reason:
        return reason
    armed = attrs.evolve(
        unit,
        ap=unit.ap - catalog().reaction.arming.ap,
        reaction=ReactionCone(group=group, direction=direction),
    )
    event = ReactionArmed(unit=unit.id, group=group, direction=direction)
    return battle.with_unit(armed), [event]


def check_sweep(battle: Battle, unit: Unit, group: int) -> str | None:
    """O6.6: why `unit` may not sweep with `group` now (it needs the AP of a Move after it
    and legs to make it), or None."""
    reason = _off(battle, "the sweep")
    if reason:
        return reason
    if unit.sweep is not None:
        return f"{unit.label} already sweeps with group {unit.sweep}"
    cost = catalog().reaction.sweep.ap
    costs = stats.ap_costs()
    need = cost + min(costs.move, costs.sprint)
    if unit.ap < need:
        return f"a sweep needs {cost} AP and a Move after it ({need} AP), {unit.ap} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot move, so it cannot sweep"
    return group_refusal(unit, group)


def arm_sweep(battle: Battle, unit: Unit, group: int) -> BattleChange | str:
    """O6.6: pay the AP; the group sweeps during the Move that follows (else it lapses)."""
    reason = check_sweep(battle, unit, group)
    if reason:
        return reason
    swept = attrs.evolve(unit, ap=unit.ap - catalog().reaction.sweep.ap, sweep=group)
    return battle.with_unit(swept), [SweepArmed(unit=unit.id, group=group)]


def lapse(unit: Unit, why: str) -> tuple[Unit, list[Event]]:
    """O6.2: an armed cone lapses unfired (`why`: "activation" as the frame's next
    activation starts, "shutdown" as it shuts down); a sweep never outlives its activation.
    The frame unchanged and no event when it has neither."""
    if unit.reaction is None and unit.sweep is None:
        return unit, []
    events: list[Event] = []
    if unit.reaction is not None:
        events.append(ReactionExpired(unit=unit.id, group=unit.reaction.group, why=why))
    return attrs.evolve(unit, reaction=None, sweep=None), events


def in_cone(unit: Unit, direction: int, h: Hex) -> bool:
    """O6.1: hex `h` lies in the Cone120 of `unit` around `direction` (G3)."""
    return unit.pos is not None and in_cone120(unit.pos, direction, h)


def cone_hexes(battle: Battle, unit: Unit) -> tuple[Hex, ...]:
    """O6.1: the map hexes of `unit`'s armed cone out to the longest range of its group (the
    cone the screens draw; what triggers is `triggers`); none when it has no cone."""
    cone = unit.reaction
    if cone is None or unit.pos is None:
        return ()
    guns = stats.group_weapons(unit, cone.group)
    reach = max((stats.weapon_range(stats.weapon_of(ws)) for _, ws in guns), default=0)
    return tuple(
        h
        for h in within(unit.pos, reach)
        if battle.map.contains(h) and in_cone120(unit.pos, cone.direction, h)
    )


def armed_cones(battle: Battle) -> tuple[Unit, ...]:
    """The frames with an armed cone that could still fire it, in initiative order (then the
    battle's frame order): active, on the map, not shut down."""
    order = {uid: i for i, uid in enumerate(battle.order)}
    ranked = sorted(
        (
            (order.get(u.id, len(order) + i), u)
            for i, u in enumerate(battle.units)
            if u.reaction is not None and u.active and u.pos is not None and not u.shutdown
        ),
        key=lambda p: p[0],
    )
    return tuple(u for _, u in ranked)


def triggers(battle: Battle, reactor: Unit, mover: Unit) -> bool:
    """O6.3: `mover`, where it stands, sets off `reactor`'s armed cone: an enemy inside the
    cone that some weapon of the group reaches (range, d3 under O2, an unblocked line, O2 and
    O3; direct fire only, O6.5; what `reach_refusal` checks for every shot)."""
    cone = reactor.reaction
    if cone is None or mover.pos is None or not mover.active:
        return False
    if not battle.hostile(reactor.side, mover.side) or cone.group in reactor.fired_groups:
        return False
    if not in_cone(reactor, cone.direction, mover.pos):
        return False
    return any(
        reach_refusal(battle, reactor, mover, ws, "reaction") is None
        for _, ws in stats.group_weapons(reactor, cone.group)
    )


def known_cones(battle: Battle, side: Side) -> tuple[Unit, ...]:
    """The armed cones of the sides hostile to `side` that `side` knows of: with O8 on, those
    of frames it detects now (O8.5, O8.10: an enemy's cone is shown once it is armed in
    sight); every one with O8 off. In initiative order."""
    hostile = [u for u in armed_cones(battle) if battle.hostile(u.side, side)]
    if not detection.on(battle):
        return tuple(hostile)
    return tuple(u for u in hostile if detection.side_detection(battle, side, u) is not None)


def step_direction(a: Hex, b: Hex) -> int:
    """The index of DIRECTIONS that leads from hex `a` to its neighbour `b`."""
    step = Hex(b.q - a.q, b.r - a.r)
    return DIRECTIONS.index(step)


def _react(battle: Battle, reactor_id: str, mover_id: str, h: Hex, dice: Dice) -> BattleChange:
    """O6.3, O6.4: the cone is spent and every weapon of its group that reaches fires."""
    reactor = battle.unit(reactor_id)
    assert reactor.reaction is not None
    group = reactor.reaction.group
    battle = battle.with_unit(attrs.evolve(reactor, reaction=None))
    reactor = battle.unit(reactor_id)
    events: list[Event] = [ReactionTriggered(unit=reactor_id, mover=mover_id, hex=h)]
    plan = plan_fire(battle, reactor, group, battle.unit(mover_id), False, reaction="reaction")
    battle, shots = fire(battle, reactor_id, group, mover_id, dice, plan=plan, reaction="reaction")
    return battle, events + shots


def _sweep(battle: Battle, mover_id: str, group: int, direction: int, dice: Dice) -> BattleChange:
    """O6.6: the nearest enemy (R4's ties) in the step's cone that the group reaches, fired at
    with `sweep`; nothing when there is none."""
    mover = battle.unit(mover_id)
    target = overwatch_target(
        battle, mover, group, reaction="sweep", among=lambda e: _inside(mover, direction, e)
    )
    if target is None:
        return battle, []
    return fire(battle, mover_id, group, target.id, dice, reaction="sweep")


def _inside(unit: Unit, direction: int, other: Unit) -> bool:
    return other.pos is not None and in_cone(unit, direction, other.pos)


def interrupt(change: BattleChange | str, dice: Dice) -> BattleChange | str:
    """O6.3, O6.6: the active frame's Move, Sprint or jump (the last `Moved` of `change`),
    walked again hex by hex with the armed cones and its own sweep firing as it goes. The
    `Moved` event keeps the hexes actually walked when the mover is stopped. `change` as it
    is when refused, when O6 is off, or when no cone is armed and no sweep declared."""
    if isinstance(change, str) or not on(change[0]):
        return change
    battle, events = change
    index = max(i for i, e in enumerate(events) if isinstance(e, Moved))
    moved = events[index]
    assert isinstance(moved, Moved)
    mover = battle.unit(moved.unit)
    sweep = mover.sweep if moved.mode != "jump" else None
    if mover.sweep is not None:
        battle = battle.with_unit(attrs.evolve(mover, sweep=None))  # used by this Move
    if sweep is None and not any(battle.hostile(u.side, mover.side) for u in armed_cones(battle)):
        return battle, events
    forward = moved.mode != "jump" and not moved.reverse
    battle, more, walked = _walk(battle, moved.unit, moved.path, sweep, dice, forward)
    if walked != moved.path:
        stopped = battle.unit(moved.unit).facing
        short = attrs.evolve(moved, path=walked, facing=stopped)
        events = [*events[:index], short, *events[index + 1 :]]
    return battle, [*events, *more]


def _walk(
    battle: Battle,
    mover_id: str,
    path: tuple[Hex, ...],
    sweep: int | None,
    dice: Dice,
    forward: bool = True,
) -> tuple[Battle, list[Event], tuple[Hex, ...]]:
    """The mover steps into each hex of `path` after the first: the cones it sets off fire in
    initiative order, then its sweep; it stops destroyed, head-killed or legless. With O5 or
    O7 on, `moved_hexes` counts the hexes entered so far at each step (and where it stops).
    With O4 on (a facing), a `forward` mover faces each step's direction as it takes it (O4.2:
    where it stops, its last step's; its chosen end facing only at the end of its path); a
    reverse Move or a jump keeps the facing it ends with."""
    events: list[Event] = []
    counted = moving_fire.counts_moves(battle)
    final = battle.unit(mover_id).facing
    total, steps = battle.unit(mover_id).moved_hexes, len(path) - 1
    for k in range(1, len(path)):
        h = path[k]
        mover = attrs.evolve(battle.unit(mover_id), pos=h)
        if counted:  # O5.5 (O6): the mover's hexes so far; O6.6: the sweep's `moving` too
            mover = attrs.evolve(mover, moved_hexes=total - (steps - k))
        if final is not None and forward:  # O4 with O6: the cone of the step it takes
            mover = attrs.evolve(mover, facing=step_direction(path[k - 1], h))
        battle = battle.with_unit(mover)
        for reactor in _reactors(battle, mover_id):
            if triggers(battle, battle.unit(reactor), battle.unit(mover_id)):
                battle, more = _react(battle, reactor, mover_id, h, dice)
                events.extend(more)
        mover = battle.unit(mover_id)
        if sweep is not None and mover.active:
            facing = mover.facing  # O6.6: under O4 the facing (the step's, forward)
            direction = facing if facing is not None else step_direction(path[k - 1], h)
            battle, more = _sweep(battle, mover_id, sweep, direction, dice)
            if more:
                events.extend(more)
                sweep = None  # one volley a sweep
            mover = battle.unit(mover_id)
        if not mover.active or not stats.can_move(mover):
            return battle, events, path[: k + 1]
    if final is not None and forward:  # O4.2: the end facing named in the command
        battle = battle.with_unit(attrs.evolve(battle.unit(mover_id), facing=final))
    return battle, events, path


def _reactors(battle: Battle, mover_id: str) -> Iterable[str]:
    """The ids of the armed cones that might fire at the mover, in initiative order."""
    mover = battle.unit(mover_id)
    return [u.id for u in armed_cones(battle) if battle.hostile(u.side, mover.side)]
