"""Every battle command the engine would accept now (the AI's baseline, the screens' enabled
keys, the property tests): each candidate is checked by the same `check_*` the handler runs.

Moves list every reachable hex; fire every group at every enemy (called shots at every location
unless `called_shots` is False); equipment every target or landing hex; deployment every free
hex of the zone for every frame. With O4 on, a move, sprint or jump is listed once with its
default facing and once for each other facing it may name; reverse Moves, pivots and turns too.
"""

from __future__ import annotations

from ..catalog import LOCATION_ORDER, catalog
from ..core import Command
from ..hexgrid import within
from ..model import GameState
from . import facing, formations, stats
from .actions import (
    auto_positions,
    check_assign,
    check_auto_assign,
    check_brace,
    check_deploy,
    check_equipment,
    check_hold,
    check_reset,
    check_start,
    check_turn,
    check_vent,
)
from .commands import (
    AssignAbilities,
    AutoAssign,
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    FireStructure,
    Hold,
    Kick,
    Move,
    Overwatch,
    Pivot,
    ReactionFire,
    ResetDeployment,
    SetFormation,
    Sprint,
    StartBattle,
    Sweep,
    Turn,
    UseAbility,
    UseEquipment,
    Vent,
    Withdraw,
)
from .firing import check_fire, check_fire_order, check_overwatch
from .kicks import kick_targets
from .movement import move_checker, reach
from .reaction import check_reaction_fire, check_sweep, cone_directions
from .reaction import on as o6_on
from .state import Battle, Side
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
            if frame.pos is not None and frame.facing is not None and facing.on(battle):
                for name in facing.DIRECTION_NAMES:  # O4.1: turned where it stands
                    if check_deploy(battle, frame.id, frame.pos, name) is None:
                        out.append(Deploy(frame.id, frame.pos, name))
        if check_reset(battle) is None:
            out.append(ResetDeployment())
        if auto_positions(battle):
            out.append(AutoDeploy())
        if check_start(battle) is None:
            out.append(StartBattle())
        if formations.on(battle):  # O9.1, O9.8
            if wanted(SetFormation):
                out += _orders(battle, "player")
            if wanted(AssignAbilities):
                out += _assignments(battle)
            if wanted(AutoAssign) and check_auto_assign(battle) is None:
                out.append(AutoAssign())
        return out
    unit = battle.active_unit
    if unit is None:
        return []
    cmds: list[Command] = []
    o4 = facing.on(battle) and unit.facing is not None
    for sprint, reverse in ((False, False), (False, True), (True, False)):
        if not wanted(Sprint if sprint else Move) or (reverse and not o4):
            continue
        reached = reach(battle, unit, sprint, reverse) if stats.can_move(unit) else {}
        check = move_checker(battle, unit, sprint, reached, reverse=reverse)
        for h in sorted(reached, key=lambda x: (x.r, x.q)):
            if h == unit.pos:
                continue
            plan = check(h)
            if isinstance(plan, str):
                continue
            if reverse:
                cmds.append(Move(h, reverse=True))
                continue
            cmds.append(Sprint(h) if sprint else Move(h))
            if o4:  # O4.2: the other facings it may end with
                for d in facing.move_facings(plan.path)[1:]:
                    name = facing.facing_name(d)
                    cmds.append(Sprint(h, name) if sprint else Move(h, name))
    enemies = [u for u in battle.units if u.active and battle.may_attack(unit.side, u.side)]
    breach = formations.BREACH_SHOT in unit.abilities and formations.on(battle)
    for group in stats.groups(unit):
        for enemy in enemies:
            if wanted(FireGroup) and not isinstance(
                check_fire(battle, unit, group, enemy.id, None), str
            ):
                cmds.append(FireGroup(group, enemy.id))
            if (
                breach
                and wanted(FireGroup)
                and not isinstance(check_fire_order(battle, unit, group, enemy.id, None, True), str)
            ):
                cmds.append(FireGroup(group, enemy.id, breach=True))  # O9.9a
            if called_shots and wanted(CalledShot):
                for loc in LOCATION_ORDER:
                    if not isinstance(check_fire(battle, unit, group, enemy.id, loc), str):
                        cmds.append(CalledShot(group, enemy.id, loc))
                        if breach and not isinstance(
                            check_fire_order(battle, unit, group, enemy.id, loc, True), str
                        ):
                            cmds.append(CalledShot(group, enemy.id, loc, breach=True))
        if wanted(FireStructure):  # O3.6: every section with durability left
            for section in battle.structures:
                if targetable(section) and not isinstance(
                    check_fire_structure(battle, unit, group, section.hex), str
                ):
                    cmds.append(FireStructure(group, section.hex))
        if wanted(Overwatch) and check_overwatch(unit, group) is None:
            cmds.append(Overwatch(group))
        if o6_on(battle):  # O6.2, O6.6
            if wanted(ReactionFire):
                for d in cone_directions(unit):
                    if check_reaction_fire(battle, unit, group, d) is None:
                        cmds.append(ReactionFire(group, d))
            if wanted(Sweep) and check_sweep(battle, unit, group) is None:
                cmds.append(Sweep(group))
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
                    for d in range(6) if o4 else ():  # O4.4: any facing
                        if d != unit.facing:
                            cmds.append(UseEquipment(item, None, h, facing.facing_name(d)))
        elif eq.effect == "ecm":
            if check_equipment(battle, unit, item, None, None) is None:
                cmds.append(UseEquipment(item))
        else:
            for other in battle.units:
                if check_equipment(battle, unit, item, other.id, None) is None:
                    cmds.append(UseEquipment(item, other.id))
    if wanted(Hold) and check_hold(battle) is None:  # O1.4
        cmds.append(Hold())
    if o4 and unit.facing is not None:  # O4.5, O4.6
        for name in facing.DIRECTION_NAMES:
            if wanted(Pivot) and facing.check_pivot(battle, unit, name) is None:
                cmds.append(Pivot(name))
            if wanted(Turn) and check_turn(battle, unit, name) is None:
                cmds.append(Turn(name))
    if formations.on(battle):  # O9.1 orders, O9.9 abilities, at 0 AP
        if wanted(SetFormation):
            cmds += _orders(battle, unit.side)
        if wanted(UseAbility):
            cmds += [
                UseAbility(a)
                for a in unit.abilities
                if formations.check_ability(battle, unit, a) is None
            ]
    cmds.append(EndActivation())
    if unit.side == "player":
        cmds.append(Withdraw())
    return [c for c in cmds if isinstance(c, only)] if only else cmds


def _orders(battle: Battle, side: Side) -> list[Command]:
    """O9.1: every standing order the side may give now; Screening with every one or two of
    its living frames as screens."""
    ids = [u.id for u in battle.living(side)]
    choices: list[tuple[str, tuple[str, ...]]] = [
        (f, ()) for f in formations.FORMATIONS if f != formations.SCREEN
    ]
    choices += [(formations.SCREEN, (a,)) for a in ids]
    choices += [(formations.SCREEN, (a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    return [
        SetFormation(f, screens)
        for f, screens in choices
        if formations.check_order(battle, side, f, screens) is None
    ]


def _assignments(battle: Battle) -> list[Command]:
    """O9.8: for each of the player's frames, each single ability it may hold (and none)."""
    out: list[Command] = []
    for u in battle.side_units("player"):
        for held in [(), *((a.id,) for a in formations.rules().ability)]:
            if check_assign(battle, u.id, held) is None:
                out.append(AssignAbilities(u.id, held))
    return out
