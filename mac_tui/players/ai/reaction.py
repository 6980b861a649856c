"""Optional module O6 in the battle AI (O6.9): when to arm a reaction cone, and the cones to
keep out of.

* `cone_order`: at its last AP, when no fire order at a frame is legal (it cannot fire any
  more this activation), a frame about to move or end arms a cone instead: the group with the
  most damage that may arm, towards the lowest-index direction it may point whose Cone120
  holds the nearest enemy (d3 with O2).
* `weigh_cones`: a plan whose Move, Sprint or jump takes the frame into an armed enemy cone
  that would fire (`reaction.triggers`, the engine's own test) loses the volley's expected
  damage, weighed as the fire it draws (`received`), under the part `cone`: of two plans
  otherwise equal it plays the one that keeps out.

Orders come from `legal_commands`, chances from `attack.hit_chance`: the AI can do nothing a
player may not. Nothing here runs while O6 is off.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ...catalog import catalog
from ...combat import detection, elevation, reaction, stats
from ...combat.attack import hit_chance
from ...combat.commands import CalledShot, EndActivation, FireGroup, Move, ReactionFire, Sprint
from ...combat.legal import legal_commands
from ...combat.movement import MovePlan, move_checker
from ...combat.state import Battle, Unit
from ...core import Command
from ...hexgrid import Hex
from ...model import GameState
from .plan_types import Plan

__all__ = ["cone_order", "cone_risk", "weigh_cones"]

#: The part of a plan's value that counts the armed enemy cones its moves set off.
CONE_PART = "cone"


def cone_order(state: GameState, command: Command) -> Command | None:
    """O6.9: the Reaction Fire order to give instead of `command` (a Move, Sprint or end at
    the frame's last AP, with no fire order legal), or None."""
    battle = state.battle
    if battle is None or not reaction.on(battle) or battle.active_unit is None:
        return None
    unit = battle.active_unit
    if (
        unit.pos is None
        or unit.reaction is not None
        or not isinstance(command, (Move, Sprint, EndActivation))
    ):
        return None
    if unit.ap > catalog().reaction.arming.ap:
        return None
    if legal_commands(state, called_shots=False, only=(FireGroup, CalledShot)):
        return None
    orders = [c for c in legal_commands(state, only=(ReactionFire,)) if isinstance(c, ReactionFire)]
    if not orders:
        return None
    direction = _towards_nearest(battle, unit, sorted({c.direction for c in orders}))
    if direction is None:
        return None
    groups = sorted({c.group for c in orders if c.direction == direction})
    group = max(groups, key=lambda g: (_damage(unit, g), -g))
    return ReactionFire(group, direction)


def _towards_nearest(battle: Battle, unit: Unit, directions: list[int]) -> int | None:
    """The lowest of `directions` whose cone holds the nearest enemy that some one of them
    holds (d3 with O2; ties between enemies: the battle's order)."""
    assert unit.pos is not None
    here = unit.pos
    known = [
        e
        for e in battle.foes(unit.side)
        if not detection.on(battle) or detection.side_detection(battle, unit.side, e) is not None
    ]  # O8.11: the enemies its side knows of
    ranked = sorted(
        (elevation.attack_distance(battle, here, e.pos), i, e)
        for i, e in enumerate(known)
        if e.pos is not None
    )
    for _, _, enemy in ranked:
        assert enemy.pos is not None
        for d in directions:
            if reaction.in_cone(unit, d, enemy.pos):
                return d
    return None


def _damage(unit: Unit, group: int) -> int:
    return sum(
        stats.weapon_of(ws).damage
        for _, ws in stats.group_weapons(unit, group)
        if stats.has_shots(ws)
    )


def cone_risk(battle: Battle, unit: Unit) -> Callable[[Plan], float] | None:
    """The expected damage the armed enemy cones would fire into `unit` along a plan's moves
    (each cone once, at the first hex that sets it off), or None when no enemy cone it knows
    of is armed."""
    if not reaction.on(battle) or unit.pos is None:
        return None
    cones = reaction.known_cones(battle, unit.side)  # O8: only those its side detects
    if not cones:
        return None
    at_hex: dict[Hex, tuple[tuple[str, float], ...]] = {}

    def volleys(h: Hex) -> tuple[tuple[str, float], ...]:
        found = at_hex.get(h)
        if found is None:
            there = battle.with_unit(attrs.evolve(unit, pos=h))
            mover = there.unit(unit.id)
            found = at_hex[h] = tuple(
                (c.id, _expected(there, c, mover))
                for c in cones
                if reaction.triggers(there, c, mover)
            )
        return found

    checkers: dict[tuple[Hex, bool], Callable[[Hex], MovePlan | str]] = {}

    def checker(here: Hex, sprint: bool) -> Callable[[Hex], MovePlan | str]:
        found = checkers.get((here, sprint))
        if found is None:
            start = battle.with_unit(attrs.evolve(unit, pos=here))
            found = checkers[(here, sprint)] = move_checker(start, start.unit(unit.id), sprint)
        return found

    def risk(plan: Plan) -> float:
        here = unit.pos
        assert here is not None
        fired: dict[str, float] = {}
        for command in plan.commands:
            if not isinstance(command, (Move, Sprint)):
                continue
            walk = checker(here, isinstance(command, Sprint))(command.hex)
            if isinstance(walk, str):
                break
            for h in walk.path[1:]:
                for cone, value in volleys(h):
                    fired.setdefault(cone, value)
            here = command.hex
        return sum(fired.values())

    return risk


def _expected(battle: Battle, reactor: Unit, mover: Unit) -> float:
    """The damage a cone's volley is expected to deal (chance x damage per weapon that
    reaches, ammunition and energy aside)."""
    cone = reactor.reaction
    assert cone is not None
    total = 0.0
    for _, ws in stats.group_weapons(reactor, cone.group):
        if not stats.has_shots(ws):
            continue
        hc = hit_chance(battle, reactor, mover, ws, reaction="reaction")
        if hc is not None:
            total += hc.chance / 100 * stats.weapon_of(ws).damage
    return total


def weigh_cones(plans: list[Plan], battle: Battle, unit: Unit, weight: float) -> list[Plan]:
    """`plans` with the part `cone` (the armed enemy cones' expected damage along each plan's
    moves, times `weight`) taken off their value; `plans` itself when no cone is armed."""
    risk = cone_risk(battle, unit)
    if risk is None:
        return plans
    out: list[Plan] = []
    for plan in plans:
        lost = risk(plan) * weight
        if lost:
            plan = attrs.evolve(
                plan, value=plan.value - lost, parts=(*plan.parts, (CONE_PART, -lost))
            )
        out.append(plan)
    return out
