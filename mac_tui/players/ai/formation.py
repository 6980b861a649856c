"""The AI's formations and commanders (optional rule O9.11), through the same checks as the
player (`formations.check_order`, `check_ability`, `game.refusal`).

* The standing order: Sphere with a Point Defense System among the members or when one is
  damaged (R14's "damaged"); Dispersed with a range advantage (its longest reach beyond the
  enemy's); Line when the members share a preferred band (their best weapons' range class);
  Screen under O8 when a Light pairs with a longer-ranged frame; else none.
* Battle Plan in the first round the formation is in effect with at least 2 members having a
  target; Breach Shot with its biggest group (the most damage); Percussive Maintenance at
  stress >= output; Impossible Turn when the expected damage before its next activation
  (`threat.threat`) is at least 30% of its armour and structure left and it cannot fire now
  (or has only its end left).
"""

from __future__ import annotations

import attrs

from ...catalog import catalog
from ...combat import formations, stats, track
from ...combat.actions import check_auto_assign
from ...combat.attack import MISSILE_INTERCEPT, reaches
from ...combat.commands import (
    AutoAssign,
    CalledShot,
    FireGroup,
    SetFormation,
    UseAbility,
)
from ...combat.state import Battle, Side, Unit
from ...combat.threat import threat
from ...core import Command
from ...game import refusal
from ...model import GameState

__all__ = ["choice", "deployment_command", "dodge_command", "free_command", "with_breach"]

LIGHT = "light"


def _band(unit: Unit) -> str | None:
    """A frame's preferred band: the range class of its hardest-hitting working weapon."""
    live = [stats.weapon_of(ws) for _, ws in unit.live_weapons()]
    if not live:
        return None
    return max(live, key=lambda w: (w.damage, w.range)).range


def choice(battle: Battle, side: Side) -> tuple[str, tuple[str, ...]]:
    """O9.11: the order the AI wants for `side` now."""
    mine = formations.members(battle, side)
    if len(mine) < catalog().formations.members.min:
        return formations.NONE, ()
    cat = catalog()
    pds = any(
        not e.destroyed and cat.equipment[e.equipment].effect == MISSILE_INTERCEPT
        for u in mine
        for e in u.equipment
    )
    if pds or any(stats.damaged(u) for u in mine):
        return formations.SPHERE, ()
    foes = battle.foes(side)
    theirs = max((stats.longest_range(u) for u in foes), default=0)
    if max(stats.longest_range(u) for u in mine) > theirs:
        return formations.DISPERSED, ()
    bands = {_band(u) for u in mine}
    if len(bands) == 1 and None not in bands:
        return formations.LINE, ()
    if battle.rule("O8"):
        lights = [u for u in mine if stats.chassis_of(u).class_ == LIGHT]
        longer = [u for u in mine if u not in lights]
        if (
            lights
            and longer
            and max(map(stats.longest_range, longer)) > max(map(stats.longest_range, lights))
        ):
            return formations.SCREEN, (lights[0].id,)
    return formations.NONE, ()


def _order(state: GameState, side: Side) -> Command | None:
    battle = state.battle
    assert battle is not None
    order, screens = choice(battle, side)
    current = battle.formation(side)
    if (current.order, current.screens) == (order, screens):
        return None
    cmd = SetFormation(order, screens)
    return cmd if refusal(state, cmd) is None else None


def deployment_command(state: GameState) -> Command | None:
    """O9 in the player's deployment, once the frames are placed: the abilities as the AI
    assigns them (unless some are assigned already), then the standing order."""
    battle = state.battle
    if battle is None or not formations.on(battle):
        return None
    mine = battle.side_units("player")
    if not any(u.abilities for u in mine) and check_auto_assign(battle) is None:
        return AutoAssign()
    return _order(state, "player")


def free_command(state: GameState) -> tuple[Command, str] | None:
    """An O9 command at 0 AP the acting frame gives before planning its activation."""
    battle = state.battle
    if battle is None or not formations.on(battle):
        return None
    unit = battle.active_unit
    if unit is None:
        return None
    order = _order(state, unit.side)
    if order is not None:
        return order, ", sets its side's formation (O9.11)"
    if formations.BATTLE_PLAN in unit.abilities and _plan_now(battle, unit):
        cmd = UseAbility(formations.BATTLE_PLAN)
        if refusal(state, cmd) is None:
            return cmd, ", Battle Plan (O9.11)"
    if (
        formations.MAINTENANCE in unit.abilities
        and unit.stress >= stats.effective_output(unit)
        and refusal(state, UseAbility(formations.MAINTENANCE)) is None
    ):
        return UseAbility(formations.MAINTENANCE), ", Percussive Maintenance (O9.11)"
    if not any(reaches(battle, unit, e) for e in battle.foes(unit.side)):
        dodge = dodge_command(state)
        if dodge is not None:
            return dodge, ", Impossible Turn: nothing to shoot (O9.11)"
    return None


def _plan_now(battle: Battle, unit: Unit) -> bool:
    """O9.11: the formation in effect, at least 2 members with a target; on the track (O1.12)
    two of the side's frames at one position (every band is in range)."""
    if track.on(battle):
        return track.shared_position(battle, unit.side)
    if battle.formation(unit.side).effect == formations.NONE:
        return False
    foes = battle.foes(unit.side)
    armed = [
        u for u in formations.members(battle, unit.side) if any(reaches(battle, u, e) for e in foes)
    ]
    return len(armed) >= 2


def dodge_command(state: GameState) -> Command | None:
    """O9.11: Impossible Turn when the expected damage before the frame's next activation is
    at least the data's share of its armour and structure left."""
    battle = state.battle
    assert battle is not None
    unit = battle.active_unit
    if unit is None or formations.IMPOSSIBLE_TURN not in unit.abilities:
        return None
    cmd = UseAbility(formations.IMPOSSIBLE_TURN)
    if refusal(state, cmd) is not None:
        return None
    left = unit.total_armor + unit.total_structure
    share = catalog().formations.ai.dodge_percent
    if threat(battle, unit.id).expected_damage * 100 >= share * left:
        return cmd
    return None


def with_breach(state: GameState, command: Command) -> Command:
    """O9.11: a fire order with the frame's biggest group declares its Breach Shot."""
    battle = state.battle
    if battle is None or not isinstance(command, (FireGroup, CalledShot)):
        return command
    unit = battle.active_unit
    if unit is None or formations.BREACH_SHOT not in unit.abilities or command.breach:
        return command

    def power(group: int) -> int:
        return sum(stats.weapon_of(ws).damage for _, ws in stats.group_weapons(unit, group))

    if power(command.group) < max(power(g) for g in stats.groups(unit)):
        return command
    declared = attrs.evolve(command, breach=True)
    return declared if refusal(state, declared) is None else command
