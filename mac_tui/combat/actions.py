"""The battle actions (§2, §5.2, §6.3, §6.4, §7.2, R3-R6, R11, R14) as pure handlers.

Each action has a `check_*` that returns the reason it is illegal (or a plan when it is legal)
without touching the state, so `legal_commands`, the screens and the AI share one rulebook; the
handler runs the check first, so a refused command never changes anything (R6).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from ..core import Accepted, Command, Event, Handlers, Outcome, Refused
from ..dice import Dice
from ..hexgrid import Hex, distance, path, reachable, within
from ..model import GameState
from . import stats
from .attack import hit_chance, resolve_attack
from .commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    ResetDeployment,
    Sprint,
    StartBattle,
    UseEquipment,
    Vent,
    Withdraw,
)
from .events import (
    ActivationEnded,
    Attacked,
    BattleStarted,
    Braced,
    Deployed,
    EquipmentUsed,
    GroupFired,
    Moved,
    OverwatchSet,
    Vented,
    WeaponSkipped,
)
from .flow import advance, end_battle, nearest_enemy_distance, start_round
from .state import Battle, Unit, Uplink, other_side

C = TypeVar("C", bound=Command)
Result = tuple[Battle, list[Event]]


def _ap() -> Any:
    return catalog().combat.ap_costs


# ---- movement ----------------------------------------------------------------------------
@frozen
class MovePlan:
    path: tuple[Hex, ...]
    energy: int
    pullback: bool


def reach(battle: Battle, unit: Unit, sprint: bool = False) -> dict[Hex, tuple[int, Hex | None]]:
    """§6.4: hexes reachable by one Move (or Sprint), paying terrain costs on entry (R2)."""
    if unit.pos is None:
        return {}
    blocked = battle.occupied()
    bmap = battle.map
    terrain = catalog().terrain

    def cost(h: Hex) -> int | None:
        if h in blocked or not bmap.contains(h):
            return None
        return terrain[bmap.terrain_at(h)].move_cost

    return reachable(unit.pos, stats.hex_movement(unit, sprint), cost)


def check_move(
    battle: Battle,
    unit: Unit,
    target: Hex,
    sprint: bool,
    reached: dict[Hex, tuple[int, Hex | None]] | None = None,
) -> MovePlan | str:
    """Why a Move/Sprint to `target` is illegal, or its plan. `reached` may carry a precomputed
    `reach(battle, unit, sprint)` when many targets are checked."""
    ap_cost = _ap().sprint if sprint else _ap().move
    if unit.ap < ap_cost:
        return f"needs {ap_cost} AP, {unit.ap} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot move"
    if unit.pos == target:
        return "the frame is already there"
    if not battle.map.contains(target):
        return f"hex {target.q},{target.r} is off the map"
    if battle.occupant(target) is not None:
        return f"hex {target.q},{target.r} is occupied"
    if reached is None:
        reached = reach(battle, unit, sprint)
    if target not in reached:
        kind = "sprint" if sprint else "move"
        return f"hex {target.q},{target.r} is out of {kind} range"
    assert unit.pos is not None
    before = nearest_enemy_distance(battle, unit)
    after = nearest_enemy_distance(battle, attrs.evolve(unit, pos=target))
    pullback = before is not None and after is not None and after > before
    energy = stats.move_energy(unit, sprint=sprint, pullback=pullback)
    if stats.energy_left(unit) < energy:
        return f"needs {energy} energy, {stats.energy_left(unit)} left"
    return MovePlan(path=path(reached, target), energy=energy, pullback=pullback)


def _do_move(battle: Battle, unit: Unit, target: Hex, sprint: bool) -> Result | str:
    plan = check_move(battle, unit, target, sprint)
    if isinstance(plan, str):
        return plan
    moved = attrs.evolve(
        unit,
        pos=target,
        ap=unit.ap - (_ap().sprint if sprint else _ap().move),
        energy_used=unit.energy_used + plan.energy,
    )
    event = Moved(
        unit=unit.id,
        mode="sprint" if sprint else "move",
        path=plan.path,
        energy=plan.energy,
        pullback=plan.pullback,
    )
    return battle.with_unit(moved), [event]


# ---- firing ------------------------------------------------------------------------------
@frozen
class FirePlan:
    """Which weapons of a group would fire and which would be skipped, and why."""

    shots: tuple[int, ...]
    skipped: tuple[tuple[int, str], ...]
    energy: int


def plan_fire(
    battle: Battle, unit: Unit, group: int, target: Unit, called: bool, overwatch: bool = False
) -> FirePlan:
    """§7.2: each weapon draws its own energy; one that cannot be paid is skipped."""
    energy = stats.energy_left(unit)
    shots: list[int] = []
    skipped: list[tuple[int, str]] = []
    spent = 0
    for index, ws in stats.group_weapons(unit, group):
        w = stats.weapon_of(ws)
        if hit_chance(battle, unit, target, ws, called_shot=called, overwatch=overwatch) is None:
            skipped.append((index, "out of range"))
        elif w.uses_ammo and ws.ammo < w.ammo_per_shot:
            skipped.append((index, "out of ammo"))
        elif energy - spent < w.energy:
            skipped.append((index, f"needs {w.energy} energy, {energy - spent} left"))
        else:
            shots.append(index)
            spent += w.energy
    return FirePlan(shots=tuple(shots), skipped=tuple(skipped), energy=spent)


def check_fire(
    battle: Battle, unit: Unit, group: int, target_id: str, location: str | None
) -> FirePlan | str:
    ap_cost = _ap().called_shot if location is not None else _ap().fire_group
    if unit.ap < ap_cost:
        return f"needs {ap_cost} AP, {unit.ap} left"
    if group in unit.fired_groups:
        return f"group {group} has already fired this round"
    if not stats.group_weapons(unit, group):
        return f"group {group} has no working weapon"
    if location is not None and location not in LOCATION_ORDER:
        return f"no location {location!r} (choose from {', '.join(LOCATION_ORDER)})"
    try:
        target = battle.unit(target_id)
    except KeyError:
        return f"no frame {target_id!r}"
    if target.side == unit.side:
        return f"{target.label} is on your side"
    if not target.active or target.pos is None:
        return f"{target.label} is out of the fight"
    plan = plan_fire(battle, unit, group, target, location is not None)
    if not plan.shots:
        reasons = sorted({reason for _, reason in plan.skipped})
        return f"no weapon of group {group} can fire at {target.label}: {'; '.join(reasons)}"
    return plan


def fire(
    battle: Battle,
    unit_id: str,
    group: int,
    target_id: str,
    dice: Dice,
    *,
    location: str | None = None,
    overwatch: bool = False,
) -> Result:
    """Fire the weapons of a planned group in order, paying energy and ammo for each shot."""
    unit = battle.unit(unit_id)
    target = battle.unit(target_id)
    plan = plan_fire(battle, unit, group, target, location is not None, overwatch)
    events: list[Event] = []
    fired = attrs.evolve(unit, fired_groups=(*unit.fired_groups, group))
    battle = battle.with_unit(fired)
    for index, reason in plan.skipped:
        events.append(WeaponSkipped(unit=unit_id, weapon=unit.weapons[index].weapon, reason=reason))
    for index in plan.shots:
        shooter = battle.unit(unit_id)
        if not battle.unit(target_id).active:
            events.append(
                WeaponSkipped(
                    unit=unit_id, weapon=shooter.weapons[index].weapon, reason="target is down"
                )
            )
            continue
        ws = shooter.weapons[index]
        w = stats.weapon_of(ws)
        weapons = list(shooter.weapons)
        weapons[index] = attrs.evolve(ws, ammo=ws.ammo - w.ammo_per_shot if w.uses_ammo else 0)
        shooter = attrs.evolve(
            shooter, weapons=tuple(weapons), energy_used=shooter.energy_used + w.energy
        )
        battle = battle.with_unit(shooter)
        battle, result = resolve_attack(
            battle, unit_id, target_id, index, dice, called_location=location, overwatch=overwatch
        )
        events.append(Attacked(result=result))
    events.insert(
        0,
        GroupFired(
            unit=unit_id,
            group=group,
            target=target_id,
            called=location,
            energy=plan.energy,
            overwatch=overwatch,
        ),
    )
    return battle, events


def _do_fire(
    battle: Battle, unit: Unit, group: int, target: str, location: str | None, dice: Dice
) -> Result | str:
    plan = check_fire(battle, unit, group, target, location)
    if isinstance(plan, str):
        return plan
    ap_cost = _ap().called_shot if location is not None else _ap().fire_group
    battle = battle.with_unit(attrs.evolve(unit, ap=unit.ap - ap_cost))
    return fire(battle, unit.id, group, target, dice, location=location)


def overwatch_target(battle: Battle, unit: Unit, group: int) -> Unit | None:
    """R4: the nearest enemy some weapon of the group can reach; ties: lowest armour, then
    initiative order."""
    if unit.pos is None:
        return None
    order = {uid: i for i, uid in enumerate(battle.order)}
    best: tuple[int, int, int] | None = None
    chosen: Unit | None = None
    for enemy in battle.living(other_side(unit.side)):
        if enemy.pos is None:
            continue
        if not any(
            hit_chance(battle, unit, enemy, ws, overwatch=True) is not None
            for _, ws in stats.group_weapons(unit, group)
        ):
            continue
        key = (distance(unit.pos, enemy.pos), enemy.total_armor, order.get(enemy.id, 99))
        if best is None or key < best:
            best, chosen = key, enemy
    return chosen


def resolve_overwatch(battle: Battle, dice: Dice) -> Result:
    """§1 phase 4 with R4, R5: each frame still on overwatch fires its group once, at -10%."""
    events: list[Event] = []
    for uid in battle.order:
        unit = battle.unit(uid)
        group = unit.overwatch_group
        if group is None or not unit.active or unit.shutdown:
            continue
        battle = battle.with_unit(attrs.evolve(unit, overwatch_group=None))
        unit = battle.unit(uid)
        if group in unit.fired_groups:
            continue
        target = overwatch_target(battle, unit, group)
        if target is None:
            continue
        plan = plan_fire(battle, unit, group, target, False, overwatch=True)
        if not plan.shots:
            continue
        battle, more = fire(battle, uid, group, target.id, dice, overwatch=True)
        events.extend(more)
        if not battle.living("player") or not battle.living("enemy"):
            break
    return battle, events


# ---- other actions -----------------------------------------------------------------------
def check_simple(unit: Unit, cost: int, what: str) -> str | None:
    if unit.ap < cost:
        return f"{what} needs {cost} AP, {unit.ap} left"
    return None


def check_overwatch(unit: Unit, group: int) -> str | None:
    reason = check_simple(unit, _ap().overwatch, "overwatch")
    if reason:
        return reason
    if not any(stats.has_shots(ws) for _, ws in stats.group_weapons(unit, group)):
        return f"group {group} has no weapon that can still fire"
    if group in unit.fired_groups:
        return f"group {group} has already fired this round"
    if unit.overwatch_group is not None:
        return f"{unit.label} is already on overwatch with group {unit.overwatch_group}"
    return None


def check_vent(unit: Unit) -> str | None:
    reason = check_simple(unit, _ap().vent, "venting")
    if reason:
        return reason
    if unit.stress <= 0:
        return "there is no reactor stress to vent"
    return None


def vent_amount(unit: Unit) -> int:
    """§5.5: max(2, EffectiveOutput / 4)."""
    r = catalog().combat.reactor
    return max(r.vent_min, stats.effective_output(unit) // r.vent_divisor)


def check_equipment(
    battle: Battle, unit: Unit, equipment_id: str, target_id: str | None, hex_: Hex | None
) -> str | None:
    """R11: each use costs 1 AP plus its energy."""
    cat = catalog()
    item = cat.equipment.get(equipment_id)
    if item is None:
        return f"no equipment {equipment_id!r}"
    if item.category != "active":
        return f"{item.name} is not an active device"
    if not unit.has_equipment(equipment_id):
        return f"{unit.label} carries no working {item.name}"
    reason = check_simple(unit, _ap().equipment, item.name)
    if reason:
        return reason
    if stats.energy_left(unit) < item.energy:
        return f"{item.name} needs {item.energy} energy, {stats.energy_left(unit)} left"
    assert unit.pos is not None
    if item.effect == "jump":
        if target_id is not None:
            return f"{item.name} takes a hex, not a target frame"
        if not stats.can_move(unit):
            return "the legs are destroyed: this frame cannot jump"
        if hex_ is None:
            return f"{item.name} needs a hex to land on"
        if not battle.map.contains(hex_) or hex_ == unit.pos:
            return f"hex {hex_.q},{hex_.r} is not a place to land"
        if battle.occupant(hex_) is not None:
            return f"hex {hex_.q},{hex_.r} is occupied"
        if distance(unit.pos, hex_) > item.value:
            return f"{item.name} reaches {item.value} hexes"
        return None
    if item.effect == "ecm":
        if target_id is not None or hex_ is not None:
            return f"{item.name} takes no target: it shields its own frame"
        if unit.ecm_active:  # B4: a second use would pay again for nothing
            return f"{item.name} is already on until {unit.label}'s next activation"
        return None
    if target_id is None:
        return f"{item.name} needs a target frame"
    if hex_ is not None:
        return f"{item.name} takes a target frame, not a hex"
    try:
        target = battle.unit(target_id)
    except KeyError:
        return f"no frame {target_id!r}"
    if not target.active or target.pos is None:
        return f"{target.label} is out of the fight"
    if item.effect == "designate":
        if target.side == unit.side:
            return "the uplink designates an enemy"
        if distance(unit.pos, target.pos) > item.range:
            return f"{target.label} is beyond {item.range} hexes"
        return None
    if item.effect == "barrier":
        if target.side != unit.side:
            return "the barrier shields an ally (or yourself)"
        if distance(unit.pos, target.pos) > item.range:
            return f"{target.label} is not adjacent"
        return None
    return f"{item.name} has no use in this version"


def _do_equipment(battle: Battle, unit: Unit, cmd: UseEquipment) -> Result | str:
    reason = check_equipment(battle, unit, cmd.equipment, cmd.target, cmd.hex)
    if reason:
        return reason
    item = catalog().equipment[cmd.equipment]
    user = attrs.evolve(
        unit, ap=unit.ap - _ap().equipment, energy_used=unit.energy_used + item.energy
    )
    events: list[Event] = [
        EquipmentUsed(
            unit=unit.id, equipment=item.id, target=cmd.target, hex=cmd.hex, energy=item.energy
        )
    ]
    if item.effect == "jump":
        assert cmd.hex is not None and unit.pos is not None
        user = attrs.evolve(user, pos=cmd.hex)
        events.append(
            Moved(unit=unit.id, mode="jump", path=(unit.pos, cmd.hex), energy=0, pullback=False)
        )
        return battle.with_unit(user), events
    if item.effect == "ecm":
        return battle.with_unit(attrs.evolve(user, ecm_active=True)), events
    assert cmd.target is not None
    battle = battle.with_unit(user)
    if item.effect == "designate":
        # R11 "the one enemy it designates": a frame's new designation replaces its old one.
        kept = tuple(u for u in battle.uplinks if u.user != unit.id)
        link = Uplink(side=unit.side, target=cmd.target, user=unit.id)
        return attrs.evolve(battle, uplinks=(*kept, link)), events
    target = battle.unit(cmd.target)
    return battle.with_unit(attrs.evolve(target, barrier=target.barrier + item.value)), events


# ---- deployment (§6.3) ------------------------------------------------------------------
def check_deploy(battle: Battle, unit_id: str, hex_: Hex) -> str | None:
    if battle.phase != "deployment":
        return "deployment is over"
    try:
        unit = battle.unit(unit_id)
    except KeyError:
        return f"no frame {unit_id!r}"
    if unit.side != "player":
        return f"{unit.label} is not yours to place"
    if not battle.map.is_deployment(hex_, "player"):
        return f"hex {hex_.q},{hex_.r} is outside your deployment zone"
    if unit.pos == hex_:
        return f"{unit.label} is already there"
    other = battle.occupant(hex_)
    if other is not None:
        return f"hex {hex_.q},{hex_.r} is taken by {other.label}"
    return None


def auto_positions(battle: Battle) -> list[tuple[str, Hex]]:
    """Free deployment hexes for unplaced player frames: front column, spread from the middle."""
    taken = {u.pos for u in battle.units if u.pos is not None}
    mid = battle.map.height // 2
    free = sorted(
        (h for h in battle.map.deployment_hexes("player") if h not in taken),
        key=lambda h: (-battle.map.grid.column(h), abs(battle.map.grid.row(h) - mid), h.r),
    )
    unplaced = [u.id for u in battle.side_units("player") if u.pos is None]
    return list(zip(unplaced, free, strict=False))


# ---- handlers ----------------------------------------------------------------------------
def _state_battle(state: GameState) -> Battle | str:
    if state.battle is None:
        return "there is no battle in progress"
    return state.battle


def _deployment_handler(
    fn: Callable[[Battle, C], Result | str],
) -> Callable[[GameState, C], Outcome]:
    def handler(state: GameState, cmd: C) -> Outcome:
        battle = _state_battle(state)
        if isinstance(battle, str):
            return Refused(battle)
        if battle.phase != "deployment":
            return Refused("deployment is over")
        out = fn(battle, cmd)
        if isinstance(out, str):
            return Refused(out)
        return Accepted(attrs.evolve(state, battle=out[0]), tuple(out[1]))

    return handler


def _action_handler(
    fn: Callable[[Battle, Unit, C, Dice], Result | str],
) -> Callable[[GameState, C], Outcome]:
    def handler(state: GameState, cmd: C) -> Outcome:
        battle = _state_battle(state)
        if isinstance(battle, str):
            return Refused(battle)
        if battle.phase == "deployment":
            return Refused("the battle has not started: finish deployment first")
        if battle.phase == "over":
            return Refused(f"the battle is over ({battle.result})")
        unit = battle.active_unit
        if unit is None:
            return Refused("no frame is acting")
        dice = Dice(state.rng)
        out = fn(battle, unit, cmd, dice)
        if isinstance(out, str):
            return Refused(out)
        battle, events = out
        battle, more = advance(battle, dice)
        return Accepted(attrs.evolve(state, battle=battle, rng=dice.state()), (*events, *more))

    return handler


def _deploy(battle: Battle, cmd: Deploy) -> Result | str:
    reason = check_deploy(battle, cmd.unit, cmd.hex)
    if reason:
        return reason
    unit = battle.unit(cmd.unit)
    return battle.with_unit(attrs.evolve(unit, pos=cmd.hex)), [Deployed(unit=cmd.unit, hex=cmd.hex)]


def _reset(battle: Battle, cmd: ResetDeployment) -> Result | str:
    placed = [u for u in battle.side_units("player") if u.pos is not None]
    if not placed:
        return "no frame is placed yet"
    for u in placed:
        battle = battle.with_unit(attrs.evolve(u, pos=None))
    return battle, [Deployed(unit=u.id, hex=None) for u in placed]


def _auto(battle: Battle, cmd: AutoDeploy) -> Result | str:
    spots = auto_positions(battle)
    if not spots:
        return "every frame is already placed"
    events: list[Event] = []
    for uid, h in spots:
        battle = battle.with_unit(attrs.evolve(battle.unit(uid), pos=h))
        events.append(Deployed(unit=uid, hex=h))
    return battle, events


def check_start(battle: Battle) -> str | None:
    if battle.phase != "deployment":
        return "the battle has already started"
    waiting = [u.label for u in battle.side_units("player") if u.pos is None]
    if waiting:
        return f"place every frame first (waiting: {', '.join(waiting)})"
    return None


def _start(state: GameState, cmd: StartBattle) -> Outcome:
    battle = _state_battle(state)
    if isinstance(battle, str):
        return Refused(battle)
    reason = check_start(battle)
    if reason:
        return Refused(reason)
    dice = Dice(state.rng)
    battle = attrs.evolve(battle, phase="combat")
    battle, events = start_round(battle, dice)
    started: list[Event] = [BattleStarted(round=1)]
    return Accepted(attrs.evolve(state, battle=battle, rng=dice.state()), (*started, *events))


def _move(battle: Battle, unit: Unit, cmd: Move, dice: Dice) -> Result | str:
    return _do_move(battle, unit, cmd.hex, sprint=False)


def _sprint(battle: Battle, unit: Unit, cmd: Sprint, dice: Dice) -> Result | str:
    return _do_move(battle, unit, cmd.hex, sprint=True)


def _fire(battle: Battle, unit: Unit, cmd: FireGroup, dice: Dice) -> Result | str:
    return _do_fire(battle, unit, cmd.group, cmd.target, None, dice)


def _called(battle: Battle, unit: Unit, cmd: CalledShot, dice: Dice) -> Result | str:
    return _do_fire(battle, unit, cmd.group, cmd.target, cmd.location, dice)


def _brace(battle: Battle, unit: Unit, cmd: Brace, dice: Dice) -> Result | str:
    reason = check_simple(unit, _ap().brace, "bracing")
    if reason:
        return reason
    if unit.braced:
        return f"{unit.label} is already bracing"
    braced = attrs.evolve(unit, ap=unit.ap - _ap().brace, braced=True)
    return battle.with_unit(braced), [Braced(unit=unit.id)]


def _overwatch(battle: Battle, unit: Unit, cmd: Overwatch, dice: Dice) -> Result | str:
    reason = check_overwatch(unit, cmd.group)
    if reason:
        return reason
    new = attrs.evolve(unit, ap=unit.ap - _ap().overwatch, overwatch_group=cmd.group)
    return battle.with_unit(new), [OverwatchSet(unit=unit.id, group=cmd.group)]


def _vent(battle: Battle, unit: Unit, cmd: Vent, dice: Dice) -> Result | str:
    reason = check_vent(unit)
    if reason:
        return reason
    amount = min(unit.stress, vent_amount(unit))
    new = attrs.evolve(unit, ap=unit.ap - _ap().vent, stress=unit.stress - amount)
    return battle.with_unit(new), [Vented(unit=unit.id, amount=amount, stress=new.stress)]


def _use(battle: Battle, unit: Unit, cmd: UseEquipment, dice: Dice) -> Result | str:
    return _do_equipment(battle, unit, cmd)


def _end_activation(battle: Battle, unit: Unit, cmd: EndActivation, dice: Dice) -> Result | str:
    return battle.with_unit(attrs.evolve(unit, ap=0)), [ActivationEnded(unit=unit.id)]


def _withdraw(battle: Battle, unit: Unit, cmd: Withdraw, dice: Dice) -> Result | str:
    if unit.side != "player":
        return "only the player orders a withdrawal; the AI withdraws by its threshold (R14)"
    return end_battle(battle, "withdrawal", f"{unit.label} ordered the withdrawal")


# ---- the handlers of the battle commands (joined by game.py) -----------------------------
HANDLERS: Handlers = {
    StartBattle: _start,
    Deploy: _deployment_handler(_deploy),
    ResetDeployment: _deployment_handler(_reset),
    AutoDeploy: _deployment_handler(_auto),
    Move: _action_handler(_move),
    Sprint: _action_handler(_sprint),
    FireGroup: _action_handler(_fire),
    CalledShot: _action_handler(_called),
    Brace: _action_handler(_brace),
    Overwatch: _action_handler(_overwatch),
    Vent: _action_handler(_vent),
    UseEquipment: _action_handler(_use),
    EndActivation: _action_handler(_end_activation),
    Withdraw: _action_handler(_withdraw),
}


# ---- legal commands ----------------------------------------------------------------------
def legal_commands(state: GameState, *, called_shots: bool = True) -> list[Command]:
    """Every command the engine would accept now (the AI, the screens and the tests use it)."""
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
        reached = reach(battle, unit, sprint) if stats.can_move(unit) else {}
        for h in sorted(reached, key=lambda x: (x.r, x.q)):
            if h != unit.pos and not isinstance(check_move(battle, unit, h, sprint, reached), str):
                cmds.append(Sprint(h) if sprint else Move(h))
    enemies = battle.living(other_side(unit.side))
    for group in stats.groups(unit):
        for enemy in enemies:
            if not isinstance(check_fire(battle, unit, group, enemy.id, None), str):
                cmds.append(FireGroup(group, enemy.id))
            if called_shots:
                for loc in LOCATION_ORDER:
                    if not isinstance(check_fire(battle, unit, group, enemy.id, loc), str):
                        cmds.append(CalledShot(group, enemy.id, loc))
        if check_overwatch(unit, group) is None:
            cmds.append(Overwatch(group))
    if not unit.braced and check_simple(unit, _ap().brace, "brace") is None:
        cmds.append(Brace())
    if check_vent(unit) is None:
        cmds.append(Vent())
    for item in sorted({e.equipment for e in unit.equipment if not e.destroyed}):
        eq = catalog().equipment[item]
        if eq.category != "active":
            continue
        if eq.effect == "jump" and unit.pos is not None:
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
    return cmds
