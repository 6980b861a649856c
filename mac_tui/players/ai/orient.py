"""Optional rule O4.11: how the AI turns. The planner (`plans.py`) values a plan as if each
group turned its best way where it fires (`Planner.bearing`); this module makes the commands
do it, through the player's own checks:

* a Move, Sprint or jump names the facing that puts the plan's next target (else the enemy
  nearest) in its front arc, then the one that leaves the fewest enemies on its flanks and
  rear (side 1, rear 2 each);
* before a group fires, the free pivot turns the frame when more of the group's weapons bear
  after it;
* before the activation ends (its last order a brace, a vent, an overwatch or the end), the
  free pivot (or, with an AP left and nothing else to do, a Turn) turns the frame to its best
  next target and away from flank and rear exposure;
* a Move that pulls back (R3) is made in reverse while the frame faces the enemy, so it keeps
  facing it.

Every rewritten command is checked with `game.refusal`; one that would be refused is left as
the planner gave it.
"""

from __future__ import annotations

import attrs

from ...catalog import catalog
from ...combat import facing, stats
from ...combat.commands import (
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    Pivot,
    Sprint,
    Turn,
    UseEquipment,
    Vent,
)
from ...combat.movement import check_move
from ...combat.state import Battle, Unit
from ...core import Command
from ...game import refusal
from ...hexgrid import Hex, arc, distance
from ...model import GameState

__all__ = ["orient"]

_EXPOSURE = {"front": 0, "left": 1, "right": 1, "rear": 2}


def _focus(battle: Battle, unit: Unit, commands: tuple[Command, ...]) -> Unit | None:
    """The frame's best next target: the first one the plan fires at, else the nearest enemy
    (ties: the least armour, then the battle's order)."""
    for c in commands:
        if isinstance(c, (FireGroup, CalledShot)):
            return battle.unit(c.target)
    enemies = [e for e in battle.foes(unit.side) if e.pos is not None]
    if unit.pos is None or not enemies:
        return None
    here = unit.pos
    return min(enemies, key=lambda e: (distance(here, e.pos), e.total_armor))  # type: ignore[arg-type]


def _exposure(battle: Battle, unit: Unit, at: Hex, f: int) -> int:
    """How exposed a frame at `at` facing `f` is: each enemy in its side arcs 1, rear 2."""
    return sum(
        _EXPOSURE[arc(at, f, e.pos)]
        for e in battle.foes(unit.side)
        if e.pos is not None and e.pos != at
    )


def _best_facing(
    battle: Battle, unit: Unit, at: Hex, options: tuple[int, ...], focus: Unit | None
) -> int:
    """Among `options` (the first the default), the facing with `focus` in the front arc,
    then the least exposure, then the first."""

    def key(i_f: tuple[int, int]) -> tuple[int, int, int]:
        i, f = i_f
        front = focus is not None and focus.pos is not None and arc(at, f, focus.pos) == "front"
        return (0 if front else 1, _exposure(battle, unit, at, f), i)

    return min(enumerate(options), key=key)[1]


def _bearing(battle: Battle, unit: Unit, group: int, target: Unit, f: int) -> int:
    """How many live weapons of `group` bear on `target` with the frame facing `f`."""
    if unit.pos is None or target.pos is None:
        return 0
    return sum(
        1
        for _, ws in stats.group_weapons(unit, group)
        if facing.bears_from(unit.pos, f, ws.mount, target.pos)
    )


def orient(
    state: GameState, command: Command, rest: tuple[Command, ...]
) -> tuple[Command, tuple[Command, ...], str]:
    """The command to play (and the plan's rest) with the frame's facing seen to; the note
    says what was turned. Unchanged with O4 off."""
    battle = state.battle
    unit = battle.active_unit if battle is not None else None
    if battle is None or unit is None or unit.facing is None or not facing.on(battle):
        return command, rest, ""
    focus = _focus(battle, unit, (command, *rest))
    turned = _turned(battle, unit, command, focus, last=not rest)
    if turned is not None and refusal(state, turned[0]) is None:
        first, note = turned
        if isinstance(first, Turn) and unit.ap <= facing.data().turn.ap:
            return first, (), note  # its last AP: the activation ends with the turn
        if isinstance(first, Pivot | Turn):
            return first, (command, *rest), note
        return first, rest, note
    return command, rest, ""


def _turned(
    battle: Battle, unit: Unit, command: Command, focus: Unit | None, last: bool = False
) -> tuple[Command, str] | None:
    """The command in place of `command` (or a pivot or turn to play before it), or None."""
    assert unit.facing is not None and unit.pos is not None
    if isinstance(command, Move | Sprint) and not command.facing:
        return _moved(battle, unit, command, focus)
    if isinstance(command, UseEquipment) and command.hex is not None and not command.facing:
        if not _jumps(command):
            return None
        best = _best_facing(battle, unit, command.hex, tuple(range(6)), focus)
        if best == unit.facing:
            return None
        name = facing.facing_name(best)
        return attrs.evolve(command, facing=name), f", lands facing {name} (O4.4)"
    if isinstance(command, FireGroup | CalledShot) and not unit.pivoted:
        target = battle.unit(command.target)
        now = _bearing(battle, unit, command.group, target, unit.facing)
        best = max(
            facing.pivot_facings(unit.facing),
            key=lambda f: _bearing(battle, unit, command.group, target, f),
        )
        if _bearing(battle, unit, command.group, target, best) > now:
            name = facing.facing_name(best)
            return Pivot(name), f", pivots {name} to bring group {command.group} to bear (O4.5)"
        return None
    if isinstance(command, EndActivation) or (
        last and isinstance(command, Brace | Vent | Overwatch)
    ):
        # the activation's last order: the free pivot toward the next target and away from
        # the flanks first (an overwatch group then bears where the enemy comes from)
        options = (unit.facing, *(() if unit.pivoted else facing.pivot_facings(unit.facing)))
        best = _best_facing(battle, unit, unit.pos, options, focus)
        if best != unit.facing:
            name = facing.facing_name(best)
            return Pivot(name), f", pivots {name} before it ends (O4.5)"
        if not isinstance(command, EndActivation):
            return None
        if unit.ap >= facing.data().turn.ap and stats.can_move(unit):
            best = _best_facing(battle, unit, unit.pos, tuple(range(6)), focus)
            if _better(battle, unit, unit.pos, best, unit.facing, focus):
                name = facing.facing_name(best)
                return Turn(name), f", turns {name} with its last AP (O4.6)"
    return None


def _better(battle: Battle, unit: Unit, at: Hex, f: int, now: int, focus: Unit | None) -> bool:
    """Whether facing `f` is strictly better than `now` by `_best_facing`'s order."""
    return f != now and _best_facing(battle, unit, at, (now, f), focus) == f


def _jumps(command: UseEquipment) -> bool:
    item = catalog().equipment.get(command.equipment)
    return item is not None and item.effect == "jump"


def _moved(
    battle: Battle, unit: Unit, command: Move | Sprint, focus: Unit | None
) -> tuple[Command, str] | None:
    """A Move or Sprint naming its best end facing; a pulling-back Move made in reverse
    while the frame faces `focus` (O4.3)."""
    sprint = isinstance(command, Sprint)
    plan = check_move(battle, unit, command.hex, sprint)
    if isinstance(plan, str):
        return None
    assert unit.pos is not None and unit.facing is not None
    if (
        isinstance(command, Move)
        and plan.pullback
        and focus is not None
        and focus.pos is not None
        and arc(unit.pos, unit.facing, focus.pos) == "front"
        and not isinstance(check_move(battle, unit, command.hex, False, reverse=True), str)
    ):
        return Move(command.hex, reverse=True), ", backs away facing the enemy (O4.3)"
    options = facing.move_facings(plan.path)
    best = _best_facing(battle, unit, command.hex, options, focus)
    if best == options[0]:
        return None
    name = facing.facing_name(best)
    return attrs.evolve(command, facing=name), f", ends facing {name} (O4.2)"
