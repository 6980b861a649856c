"""Every battle command the engine would accept now (the AI's baseline, the screens' enabled
keys, the property tests): each candidate is checked by the same `check_*` the handler runs.

Moves list every reachable hex; fire every group at every enemy (called shots at every location
unless `called_shots` is False); equipment every target or landing hex; deployment every free
hex of the zone for every frame.
"""

from __future__ import annotations

from ..catalog import LOCATION_ORDER, catalog
from ..core import Command
from ..hexgrid import within
from ..model import GameState
from . import stats
from .actions import (
    auto_positions,
    check_brace,
    check_deploy,
    check_equipment,
    check_start,
    check_vent,
)
from .commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    FireStructure,
    Kick,
    Move,
    Overwatch,
    ResetDeployment,
    Sprint,
    StartBattle,
    UseEquipment,
    Vent,
    Withdraw,
)
from .firing import check_fire, check_overwatch
from .kicks import kick_targets
from .movement import move_checker, reach
from .state import other_side
from .structures import check_fire_structure, targetable


def legal_commands(
    state: GameState, *, called_shots: bool = True, only: tuple[type[Command], ...] = ()
) -> list[Command]:
    """Every command the engine would accept now (the AI, the screens and the tests use it);
    with `only`, just those of these classes, and the others are not even tried (a bot asking
    for fire orders does not pay for every called shot and every hex)."""

    def wanted(cls: type[Command]) -> bool:
        return not only or issubclass(cls, only)

    battle = state.battle
    if battle is None or battle.phase == "over":
        return []
    if battle.phase == "deployment":
        out: list[Command] = []
        for frame in battle.side_units("player"):
            for h in battle.map.deployment_hexes("player"):
                if check_deploy(battle, frame.id, h) is None and frame.pos != h:
                    out.append(Deploy(frame.id, h))
        if any(u.pos is not None for u in battle.side_units("player")):
            out.append(ResetDeployment())
        if auto_positions(battle):
            out.append(AutoDeploy())
        if check_start(battle) is None:
            out.append(StartBattle())
        return out
    unit = battle.active_unit
    if unit is None:
        return []
    cmds: list[Command] = []
    for sprint in (False, True):
        if not wanted(Sprint if sprint else Move):
            continue
        reached = reach(battle, unit, sprint) if stats.can_move(unit) else {}
        check = move_checker(battle, unit, sprint, reached)
        for h in sorted(reached, key=lambda x: (x.r, x.q)):
            if h != unit.pos and not isinstance(check(h), str):
                cmds.append(Sprint(h) if sprint else Move(h))
    enemies = battle.living(other_side(unit.side))
    for group in stats.groups(unit):
        for enemy in enemies:
            if wanted(FireGroup) and not isinstance(
                check_fire(battle, unit, group, enemy.id, None), str
            ):
                cmds.append(FireGroup(group, enemy.id))
            if called_shots and wanted(CalledShot):
                for loc in LOCATION_ORDER:
                    if not isinstance(check_fire(battle, unit, group, enemy.id, loc), str):
                        cmds.append(CalledShot(group, enemy.id, loc))
        if wanted(FireStructure):  # O3.6: every section with durability left
            for section in battle.structures:
                if targetable(section) and not isinstance(
                    check_fire_structure(battle, unit, group, section.hex), str
                ):
                    cmds.append(FireStructure(group, section.hex))
        if wanted(Overwatch) and check_overwatch(unit, group) is None:
            cmds.append(Overwatch(group))
    if wanted(Kick) and battle.rule("O7"):  # O7.1: every enemy next to the frame
        cmds += [Kick(e.id) for e, plan in kick_targets(battle, unit) if not isinstance(plan, str)]
    if wanted(Brace) and check_brace(unit) is None:
        cmds.append(Brace())
    if wanted(Vent) and check_vent(unit) is None:
        cmds.append(Vent())
    items = {e.equipment for e in unit.equipment if not e.destroyed}
    for item in sorted(items) if wanted(UseEquipment) else ():
        eq = catalog().equipment[item]
        if eq.category != "active":
            continue
        if eq.effect == "smoke" and unit.pos is not None:  # O3.10: any hex within range
            for h in within(unit.pos, eq.range):
                if check_equipment(battle, unit, item, None, h) is None:
                    cmds.append(UseEquipment(item, None, h))
        elif eq.effect == "jump" and unit.pos is not None:
            for h in within(unit.pos, eq.value):
                if check_equipment(battle, unit, item, None, h) is None:
                    cmds.append(UseEquipment(item, None, h))
        elif eq.effect == "ecm":
            if check_equipment(battle, unit, item, None, None) is None:
                cmds.append(UseEquipment(item))
        else:
            for other in battle.units:
                if check_equipment(battle, unit, item, other.id, None) is None:
                    cmds.append(UseEquipment(item, other.id))
    cmds.append(EndActivation())
    if unit.side == "player":
        cmds.append(Withdraw())
    return [c for c in cmds if isinstance(c, only)] if only else cmds
