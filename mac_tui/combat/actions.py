"""The battle actions (§2, §5.2, §6.3, §6.4, §7.2, R3-R6, R11, R14) as pure handlers.

Each action has a `check_*` that returns the reason it is illegal (or a plan when it is legal)
without touching the state, so `legal.py`, the screens and the AI share one rulebook; the
handler runs the check first, so a refused command never changes anything (R6). Moving lives in
`movement.py` and firing in `firing.py`; this module holds the other actions, deployment, and
the family's tables: `HANDLERS` (joined by `game.py`) and `CHECKS` (the same checks, for
`game.refusal`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

import attrs

from ..catalog import catalog
from ..core import Accepted, Check, Checks, Command, Event, Handlers, Outcome, Refused
from ..dice import Dice
from ..hexgrid import Hex, distance
from ..model import GameState
from . import detection, elevation, facing, formations, moving_fire, stats, track
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
from .detection import Bumped
from .events import (
    ActivationEnded,
    BattleChange,
    BattleStarted,
    Braced,
    Deployed,
    EquipmentUsed,
    Held,
    Moved,
    OverwatchSet,
    Vented,
)
from .firing import check_fire_order, check_overwatch, check_simple, do_fire
from .flow import advance, end_battle, start_round
from .kicks import check_kick, do_kick
from .movement import check_move, do_move
from .reaction import arm_cone, arm_sweep, check_reaction_fire, check_sweep, interrupt
from .smoke import check_smoke, lay_smoke
from .state import Battle, Side, Unit, Uplink, friendly
from .stats import ap_costs
from .structures import check_fire_structure, entry_refusal, fire_structure
from .third_parties import allies_leave, place_allies

C = TypeVar("C", bound=Command)


# ---- other actions -----------------------------------------------------------------------
def check_vent(unit: Unit) -> str | None:
    reason = check_simple(unit, ap_costs().vent, "venting")
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
    battle: Battle,
    unit: Unit,
    equipment_id: str,
    target_id: str | None,
    hex_: Hex | None,
    facing_name: str = "",
) -> str | None:
    """R11: each use costs 1 AP plus its energy. O4.4: a jump may name the facing it lands
    with."""
    reason = _equipment_refusal(battle, unit, equipment_id, target_id, hex_)
    if reason is None and facing_name:
        item = catalog().equipment[equipment_id]
        if item.effect != "jump":
            return f"only a jump lands with a new facing, not {item.name} (O4.4)"
        if not facing.on(battle) or unit.facing is None:
            return facing.OFF
        d = facing.named(facing_name)
        return d if isinstance(d, str) else None
    return reason


def _equipment_refusal(
    battle: Battle, unit: Unit, equipment_id: str, target_id: str | None, hex_: Hex | None
) -> str | None:
    cat = catalog()
    item = cat.equipment.get(equipment_id)
    if item is None:
        return f"no equipment {equipment_id!r}"
    if item.category != "active":
        return f"{item.name} is not an active device"
    if not unit.has_equipment(equipment_id):
        return f"{unit.label} carries no working {item.name}"
    reason = check_simple(unit, ap_costs().equipment, item.name)
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
        if track.on(battle):  # O1.7: one position, no passing
            return track.check_thrust(battle, unit, hex_)
        if not battle.map.contains(hex_) or hex_ == unit.pos:
            return f"hex {hex_.q},{hex_.r} is not a place to land"
        taken = (
            hex_ in detection.known_occupied(battle, unit.side)  # O8.8: the side's view
            if detection.on(battle)
            else battle.occupant(hex_) is not None
        )
        if taken:
            return f"hex {hex_.q},{hex_.r} is occupied"
        barrier = entry_refusal(battle, hex_)  # O3.2
        if barrier is not None:
            return barrier
        if elevation.jump_length(battle, unit.pos, hex_) > item.value:
            climb = " (each level up counts as a hex, O2.4)" if elevation.on(battle) else ""
            return f"{item.name} reaches {item.value} hexes{climb}"
        return None
    if item.effect == "smoke":  # O3.10
        if target_id is not None:
            return f"{item.name} takes a hex, not a target frame"
        return check_smoke(battle, unit, item, hex_)
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
        if not battle.may_attack(unit.side, target.side):
            return "the uplink designates an enemy"
        if track.on(battle):  # O1.7
            reach = catalog().range_bands.equipment.uplink_range
            if distance(unit.pos, target.pos) > reach:
                return f"{target.label} is beyond range {reach} ({track.band_name(reach)})"
            return None
        if elevation.attack_distance(battle, unit.pos, target.pos) > item.range:
            return f"{target.label} is beyond {item.range} hexes"
        return detection.attack_refusal(battle, unit, target)  # O8.5: the user must detect it
    if item.effect == "barrier":
        if not friendly(target.side, unit.side):  # O10.2: an allied lance's frame too
            return "the barrier shields an ally (or yourself)"
        if track.on(battle):  # O1.7: the same position
            if distance(unit.pos, target.pos) > catalog().range_bands.equipment.barrier_range:
                return f"{target.label} is not at the same position"
            return None
        if distance(unit.pos, target.pos) > item.range:
            return f"{target.label} is not adjacent"
        return None
    return f"{item.name} has no use in this version"


def _do_equipment(battle: Battle, unit: Unit, cmd: UseEquipment) -> BattleChange | str:
    reason = check_equipment(battle, unit, cmd.equipment, cmd.target, cmd.hex, cmd.facing)
    if reason:
        return reason
    item = catalog().equipment[cmd.equipment]
    user = attrs.evolve(
        unit, ap=unit.ap - ap_costs().equipment, energy_used=unit.energy_used + item.energy
    )
    events: list[Event] = [
        EquipmentUsed(
            unit=unit.id, equipment=item.id, target=cmd.target, hex=cmd.hex, energy=item.energy
        )
    ]
    if item.effect == "jump":
        assert cmd.hex is not None and unit.pos is not None
        there = None if track.on(battle) else battle.occupant(cmd.hex)  # O1: positions shared
        if there is not None:  # O8.8: an undetected enemy on the landing hex: it stays put
            user = attrs.evolve(user, bumped=(*user.bumped, there.id))
            events.append(
                Moved(unit=unit.id, mode="jump", path=(unit.pos,), energy=0, pullback=False)
            )
            events.append(Bumped(unit=unit.id, enemy=there.id, hex=unit.pos))
            return battle.with_unit(user), events
        lands = facing.named(cmd.facing) if cmd.facing else unit.facing  # O4.4 (ruling O4a)
        assert not isinstance(lands, str)
        user = attrs.evolve(user, pos=cmd.hex, facing=lands)
        steps = track.hexes(battle, distance(unit.pos, cmd.hex))  # O1.12: a position is 3
        user = moving_fire.count_move(battle, user, steps)  # O5.1
        jumped = Moved(
            unit=unit.id,
            mode="jump",
            path=(unit.pos, cmd.hex),
            energy=0,
            pullback=False,
            facing=lands,
        )
        if track.on(battle):  # O1.11
            jumped = attrs.evolve(jumped, start=track.position(unit.pos), end=cmd.hex.q)
        events.append(jumped)
        return battle.with_unit(user), events
    if item.effect == "ecm":
        return battle.with_unit(attrs.evolve(user, ecm_active=True)), events
    if item.effect == "smoke":
        assert cmd.hex is not None
        battle, laid = lay_smoke(battle.with_unit(user), user, item, cmd.hex)
        return battle, events + laid
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
#: O1.3: range-band battles place nobody; `start-battle` begins them.
NO_DEPLOYMENT: Final = (
    "a range-band battle has no deployment: every frame starts on its line (O1.3)"
)


def check_deploy(battle: Battle, unit_id: str, hex_: Hex, facing_name: str = "") -> str | None:
    """§6.3; O4.1: the player may name the facing (a placed frame may be turned where it
    stands)."""
    if battle.phase != "deployment":
        return "deployment is over"
    if track.on(battle):
        return NO_DEPLOYMENT
    try:
        unit = battle.unit(unit_id)
    except KeyError:
        return f"no frame {unit_id!r}"
    if unit.side != "player":
        return f"{unit.label} is not yours to place"
    if not battle.map.is_deployment(hex_, "player"):
        return f"hex {hex_.q},{hex_.r} is outside your deployment zone"
    if facing_name:
        if not facing.on(battle) or unit.facing is None:
            return facing.OFF
        d = facing.named(facing_name)
        if isinstance(d, str):
            return d
        if unit.pos == hex_ and d == unit.facing:
            return f"{unit.label} is already there, facing {facing.facing_name(d)}"
        if unit.pos == hex_:
            return None
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


# ---- checks of the remaining actions -------------------------------------------------------
def check_brace(unit: Unit) -> str | None:
    reason = check_simple(unit, ap_costs().brace, "bracing")
    if reason:
        return reason
    if unit.braced:
        return f"{unit.label} is already bracing"
    return None


def check_withdraw(unit: Unit) -> str | None:
    """R14: only the player orders a withdrawal."""
    if unit.side != "player":
        return "only the player orders a withdrawal; the AI withdraws by its threshold (R14)"
    return None


def check_reset(battle: Battle) -> str | None:
    if track.on(battle):
        return NO_DEPLOYMENT
    if not any(u.pos is not None for u in battle.side_units("player")):
        return "no frame is placed yet"
    return None


def check_auto(battle: Battle) -> str | None:
    if not auto_positions(battle):
        return "every frame is already placed"
    return None


def check_start(battle: Battle) -> str | None:
    if battle.phase != "deployment":
        return "the battle has already started"
    waiting = [u.label for u in battle.side_units("player") if u.pos is None]
    if waiting:
        return f"place every frame first (waiting: {', '.join(waiting)})"
    return None


def _why(plan: object) -> str | None:
    """The reason of a `check_*` that returns a plan or a reason."""
    return plan if isinstance(plan, str) else None


# ---- gates: what every command of a kind needs -------------------------------------------
def _battle_gate(state: GameState) -> Battle | str:
    if state.battle is None:
        return "there is no battle in progress"
    return state.battle


def _deployment_gate(state: GameState) -> Battle | str:
    battle = _battle_gate(state)
    if isinstance(battle, str):
        return battle
    if battle.phase != "deployment":
        return "deployment is over"
    return battle


def _action_gate(state: GameState) -> tuple[Battle, Unit] | str:
    """The battle and the frame acting now, or why no action can be taken."""
    battle = _battle_gate(state)
    if isinstance(battle, str):
        return battle
    if battle.phase == "deployment":
        return "the battle has not started: finish deployment first"
    if battle.phase == "over":
        return f"the battle is over ({battle.result})"
    unit = battle.active_unit
    if unit is None:
        return "no frame is acting"
    return battle, unit


# ---- handlers ----------------------------------------------------------------------------
def _deployment_handler(
    fn: Callable[[Battle, C], BattleChange | str],
) -> Callable[[GameState, C], Outcome]:
    def handler(state: GameState, cmd: C) -> Outcome:
        battle = _deployment_gate(state)
        if isinstance(battle, str):
            return Refused(battle)
        out = fn(battle, cmd)
        if isinstance(out, str):
            return Refused(out)
        return Accepted(attrs.evolve(state, battle=out[0]), tuple(out[1]))

    return handler


def _action_handler(
    fn: Callable[[Battle, Unit, C, Dice], BattleChange | str],
) -> Callable[[GameState, C], Outcome]:
    def handler(state: GameState, cmd: C) -> Outcome:
        gate = _action_gate(state)
        if isinstance(gate, str):
            return Refused(gate)
        battle, unit = gate
        if unit.sweep is not None and not isinstance(cmd, (Move, Sprint, Sweep)):
            unit = attrs.evolve(unit, sweep=None)  # O6.6: no Move follows; the sweep lapses
            battle = battle.with_unit(unit)
        dice = Dice(state.rng)
        out = fn(battle, unit, cmd, dice)
        if isinstance(out, str):
            return Refused(out)
        battle, events = out
        announced = any(isinstance(e, ActivationEnded) for e in events)
        battle, more = advance(battle, dice, announced)
        battle, seen = detection.update(battle, (*events, *more))  # O8: radiating, contacts
        return Accepted(
            attrs.evolve(state, battle=battle, rng=dice.state()), (*events, *more, *seen)
        )

    return handler


def _deploy(battle: Battle, cmd: Deploy) -> BattleChange | str:
    reason = check_deploy(battle, cmd.unit, cmd.hex, cmd.facing)
    if reason:
        return reason
    unit = battle.unit(cmd.unit)
    turned = facing.named(cmd.facing) if cmd.facing else unit.facing  # O4.1
    assert not isinstance(turned, str)
    placed = attrs.evolve(unit, pos=cmd.hex, facing=turned)
    return battle.with_unit(placed), [Deployed(unit=cmd.unit, hex=cmd.hex, facing=turned)]


def _reset(battle: Battle, cmd: ResetDeployment) -> BattleChange | str:
    reason = check_reset(battle)
    if reason:
        return reason
    placed = [u for u in battle.side_units("player") if u.pos is not None]
    for u in placed:
        battle = battle.with_unit(attrs.evolve(u, pos=None))
    return battle, [Deployed(unit=u.id, hex=None) for u in placed]


def _auto(battle: Battle, cmd: AutoDeploy) -> BattleChange | str:
    reason = check_auto(battle)
    if reason:
        return reason
    events: list[Event] = []
    for uid, h in auto_positions(battle):
        unit = battle.unit(uid)
        battle = battle.with_unit(attrs.evolve(unit, pos=h))
        events.append(Deployed(unit=uid, hex=h, facing=unit.facing))
    return battle, events


def _start_refusal(state: GameState, cmd: StartBattle) -> str | None:
    battle = _battle_gate(state)
    return battle if isinstance(battle, str) else check_start(battle)


def _start(state: GameState, cmd: StartBattle) -> Outcome:
    reason = _start_refusal(state, cmd)
    if reason:
        return Refused(reason)
    assert state.battle is not None
    dice = Dice(state.rng)
    battle, placed = place_allies(state.battle)  # O10.4: after the player's deployment
    battle = attrs.evolve(battle, phase="combat")
    started: list[Event] = [*placed, BattleStarted(round=1)]
    if formations.on(battle):  # O9.8: the AI's commanders, from the `ai` stream
        for info in battle.sides:
            if info.ai:
                battle, assigned = formations.assign_side(battle, info.side, dice)
                started.extend(assigned)
    battle, events = start_round(battle, dice)
    battle, seen = detection.update(battle, events)  # O8: the first contacts
    return Accepted(
        attrs.evolve(state, battle=battle, rng=dice.state()), (*started, *events, *seen)
    )


def _move(battle: Battle, unit: Unit, cmd: Move, dice: Dice) -> BattleChange | str:
    moved = do_move(
        battle, unit, cmd.hex, sprint=False, reverse=cmd.reverse, facing_name=cmd.facing
    )
    return interrupt(moved, dice)  # O6.3, O6.6


def _sprint(battle: Battle, unit: Unit, cmd: Sprint, dice: Dice) -> BattleChange | str:
    moved = do_move(battle, unit, cmd.hex, sprint=True, facing_name=cmd.facing)
    return interrupt(moved, dice)  # O6.3, O6.6


def _reaction_fire(battle: Battle, unit: Unit, cmd: ReactionFire, dice: Dice) -> BattleChange | str:
    return arm_cone(battle, unit, cmd.group, cmd.direction)  # O6.2


def _sweep(battle: Battle, unit: Unit, cmd: Sweep, dice: Dice) -> BattleChange | str:
    return arm_sweep(battle, unit, cmd.group)  # O6.6


def _pivot(battle: Battle, unit: Unit, cmd: Pivot, dice: Dice) -> BattleChange | str:
    reason = facing.check_pivot(battle, unit, cmd.facing)
    if reason:
        return reason
    d = facing.named(cmd.facing)
    assert not isinstance(d, str)
    return battle.with_unit(attrs.evolve(unit, facing=d, pivoted=True)), [
        facing.Pivoted(unit=unit.id, facing=d)
    ]


def check_turn(battle: Battle, unit: Unit, name: str) -> str | None:
    """O4.6 for the acting frame (its AP and energy left)."""
    return facing.check_turn(battle, unit, name, unit.ap, stats.energy_left(unit))


def _turn(battle: Battle, unit: Unit, cmd: Turn, dice: Dice) -> BattleChange | str:
    reason = check_turn(battle, unit, cmd.facing)
    if reason:
        return reason
    d = facing.named(cmd.facing)
    assert not isinstance(d, str)
    t = facing.data().turn
    turned = attrs.evolve(
        unit, facing=d, ap=unit.ap - t.ap, energy_used=unit.energy_used + t.energy
    )
    return battle.with_unit(turned), [facing.Turned(unit=unit.id, facing=d, ap=t.ap)]


def _fire(battle: Battle, unit: Unit, cmd: FireGroup, dice: Dice) -> BattleChange | str:
    return do_fire(battle, unit, cmd.group, cmd.target, None, dice, cmd.breach)


def _called(battle: Battle, unit: Unit, cmd: CalledShot, dice: Dice) -> BattleChange | str:
    return do_fire(battle, unit, cmd.group, cmd.target, cmd.location, dice, cmd.breach)


# ---- O9: formations and commanders -------------------------------------------------------
def _order_gate(state: GameState) -> tuple[Battle, Side] | str:
    """O9.1: a formation order is given in deployment (the player's side) or in an own
    activation (the acting frame's side)."""
    battle = _battle_gate(state)
    if isinstance(battle, str):
        return battle
    if battle.phase == "deployment":
        return battle, "player"
    gate = _action_gate(state)
    return gate if isinstance(gate, str) else (gate[0], gate[1].side)


def _formation_refusal(state: GameState, cmd: SetFormation) -> str | None:
    gate = _order_gate(state)
    if isinstance(gate, str):
        return gate
    return formations.check_order(gate[0], gate[1], cmd.formation, cmd.screens)


def _formation(state: GameState, cmd: SetFormation) -> Outcome:
    reason = _formation_refusal(state, cmd)
    gate = _order_gate(state)
    if reason or isinstance(gate, str):
        return Refused(reason or str(gate))
    battle, side = gate
    battle, events = formations.set_order(battle, side, cmd.formation, cmd.screens)
    return Accepted(attrs.evolve(state, battle=battle), tuple(events))


def check_assign(battle: Battle, unit_id: str, abilities: tuple[str, ...]) -> str | None:
    """O9.8: the player assigns the abilities of their own frames' pilots in deployment."""
    try:
        unit = battle.unit(unit_id)
    except KeyError:
        return f"no frame {unit_id!r}"
    if unit.side != "player":
        return f"{unit.label} is not yours to command"
    return formations.check_assign(battle, unit, abilities)


def _assign(battle: Battle, cmd: AssignAbilities) -> BattleChange | str:
    reason = check_assign(battle, cmd.unit, cmd.abilities)
    if reason:
        return reason
    return formations.assign(battle, cmd.unit, cmd.abilities)


def check_auto_assign(battle: Battle) -> str | None:
    if not formations.on(battle):
        return "commanders are optional rule O9, not in this battle's rules"
    if not any(formations.slots(u.pilot.tactics) for u in battle.side_units("player")):
        return "no pilot's Tactics earns an ability (3 or more)"
    return None


def _auto_assign(state: GameState, cmd: AutoAssign) -> Outcome:
    battle = _deployment_gate(state)
    if isinstance(battle, str):
        return Refused(battle)
    reason = check_auto_assign(battle)
    if reason:
        return Refused(reason)
    dice = Dice(state.rng)
    battle, events = formations.assign_side(battle, "player", dice)
    return Accepted(attrs.evolve(state, battle=battle, rng=dice.state()), tuple(events))


def _ability(battle: Battle, unit: Unit, cmd: UseAbility, dice: Dice) -> BattleChange | str:
    reason = formations.check_ability(battle, unit, cmd.ability)
    if reason:
        return reason
    return formations.use_ability(battle, unit, cmd.ability, vent_amount(unit))


def _fire_at(battle: Battle, unit: Unit, cmd: FireStructure, dice: Dice) -> BattleChange | str:
    return fire_structure(battle, unit, cmd.group, cmd.hex, dice)


def _kick(battle: Battle, unit: Unit, cmd: Kick, dice: Dice) -> BattleChange | str:
    return do_kick(battle, unit, cmd.target, dice)


def _brace(battle: Battle, unit: Unit, cmd: Brace, dice: Dice) -> BattleChange | str:
    reason = check_brace(unit)
    if reason:
        return reason
    braced = attrs.evolve(unit, ap=unit.ap - ap_costs().brace, braced=True)
    return battle.with_unit(braced), [Braced(unit=unit.id)]


def _overwatch(battle: Battle, unit: Unit, cmd: Overwatch, dice: Dice) -> BattleChange | str:
    reason = check_overwatch(unit, cmd.group)
    if reason:
        return reason
    new = attrs.evolve(unit, ap=unit.ap - ap_costs().overwatch, overwatch_group=cmd.group)
    return battle.with_unit(new), [OverwatchSet(unit=unit.id, group=cmd.group)]


def _vent(battle: Battle, unit: Unit, cmd: Vent, dice: Dice) -> BattleChange | str:
    reason = check_vent(unit)
    if reason:
        return reason
    amount = min(unit.stress, vent_amount(unit))
    new = attrs.evolve(unit, ap=unit.ap - ap_costs().vent, stress=unit.stress - amount)
    return battle.with_unit(new), [Vented(unit=unit.id, amount=amount, stress=new.stress)]


def _use(battle: Battle, unit: Unit, cmd: UseEquipment, dice: Dice) -> BattleChange | str:
    out = _do_equipment(battle, unit, cmd)
    if isinstance(out, str) or not any(isinstance(e, Moved) for e in out[1]):
        return out
    return interrupt(out, dice)  # O6.3: a jump's landing hex


def _end_activation(
    battle: Battle, unit: Unit, cmd: EndActivation, dice: Dice
) -> BattleChange | str:
    moved = unit.moved_hexes if moving_fire.on(battle) else None  # O5.8
    return battle.with_unit(attrs.evolve(unit, ap=0)), [
        ActivationEnded(unit=unit.id, hexes_moved=moved)
    ]


def check_hold(battle: Battle) -> str | None:
    """O1.4: Hold is the track's; on a map a frame ends its activation instead."""
    if not track.on(battle):
        return "hold is a range-band battle action (O1): end the activation instead"
    return None


def _hold(battle: Battle, unit: Unit, cmd: Hold, dice: Dice) -> BattleChange | str:
    reason = check_hold(battle)
    if reason:
        return reason
    assert unit.pos is not None
    held = Held(unit=unit.id, position=track.position(unit.pos))
    return battle.with_unit(attrs.evolve(unit, ap=0)), [held, ActivationEnded(unit=unit.id)]


def _withdraw(battle: Battle, unit: Unit, cmd: Withdraw, dice: Dice) -> BattleChange | str:
    reason = check_withdraw(unit)
    if reason:
        return reason
    battle, gone = allies_leave(battle)  # O10.6: the allies go along
    battle, events = end_battle(battle, "withdrawal", f"{unit.label} ordered the withdrawal")
    return battle, [*gone, *events]


# ---- the family's tables (joined by game.py) ---------------------------------------------
HANDLERS: Handlers = {
    StartBattle: _start,
    Deploy: _deployment_handler(_deploy),
    ResetDeployment: _deployment_handler(_reset),
    AutoDeploy: _deployment_handler(_auto),
    Move: _action_handler(_move),
    Sprint: _action_handler(_sprint),
    FireGroup: _action_handler(_fire),
    CalledShot: _action_handler(_called),
    FireStructure: _action_handler(_fire_at),
    Kick: _action_handler(_kick),
    Brace: _action_handler(_brace),
    Overwatch: _action_handler(_overwatch),
    ReactionFire: _action_handler(_reaction_fire),
    Sweep: _action_handler(_sweep),
    Vent: _action_handler(_vent),
    UseEquipment: _action_handler(_use),
    Pivot: _action_handler(_pivot),
    Turn: _action_handler(_turn),
    EndActivation: _action_handler(_end_activation),
    Hold: _action_handler(_hold),
    Withdraw: _action_handler(_withdraw),
    SetFormation: _formation,
    AssignAbilities: _deployment_handler(_assign),
    AutoAssign: _auto_assign,
    UseAbility: _action_handler(_ability),
}


def _deployment_check(check: Callable[[Battle, C], str | None]) -> Check:
    def refusal(state: GameState, cmd: C) -> str | None:
        battle = _deployment_gate(state)
        return battle if isinstance(battle, str) else check(battle, cmd)

    return refusal


def _action_check(check: Callable[[Battle, Unit, C], str | None]) -> Check:
    def refusal(state: GameState, cmd: C) -> str | None:
        gate = _action_gate(state)
        return gate if isinstance(gate, str) else check(*gate, cmd)

    return refusal


def _deploy_refusal(b: Battle, c: Deploy) -> str | None:
    return check_deploy(b, c.unit, c.hex, c.facing)


def _reset_refusal(b: Battle, c: ResetDeployment) -> str | None:
    return check_reset(b)


def _auto_refusal(b: Battle, c: AutoDeploy) -> str | None:
    return check_auto(b)


def _move_refusal(b: Battle, u: Unit, c: Move) -> str | None:
    return _why(check_move(b, u, c.hex, False, reverse=c.reverse, facing_name=c.facing))


def _sprint_refusal(b: Battle, u: Unit, c: Sprint) -> str | None:
    return _why(check_move(b, u, c.hex, True, facing_name=c.facing))


def _pivot_refusal(b: Battle, u: Unit, c: Pivot) -> str | None:
    return facing.check_pivot(b, u, c.facing)


def _turn_refusal(b: Battle, u: Unit, c: Turn) -> str | None:
    return check_turn(b, u, c.facing)


def _fire_refusal(b: Battle, u: Unit, c: FireGroup) -> str | None:
    return _why(check_fire_order(b, u, c.group, c.target, None, c.breach))


def _called_refusal(b: Battle, u: Unit, c: CalledShot) -> str | None:
    return _why(check_fire_order(b, u, c.group, c.target, c.location, c.breach))


def _fire_at_refusal(b: Battle, u: Unit, c: FireStructure) -> str | None:
    return _why(check_fire_structure(b, u, c.group, c.hex))


def _kick_refusal(b: Battle, u: Unit, c: Kick) -> str | None:
    return _why(check_kick(b, u, c.target))


def _brace_refusal(b: Battle, u: Unit, c: Brace) -> str | None:
    return check_brace(u)


def _overwatch_refusal(b: Battle, u: Unit, c: Overwatch) -> str | None:
    return check_overwatch(u, c.group)


def _reaction_refusal(b: Battle, u: Unit, c: ReactionFire) -> str | None:
    return check_reaction_fire(b, u, c.group, c.direction)


def _sweep_refusal(b: Battle, u: Unit, c: Sweep) -> str | None:
    return check_sweep(b, u, c.group)


def _vent_refusal(b: Battle, u: Unit, c: Vent) -> str | None:
    return check_vent(u)


def _use_refusal(b: Battle, u: Unit, c: UseEquipment) -> str | None:
    return check_equipment(b, u, c.equipment, c.target, c.hex, c.facing)


def _end_refusal(b: Battle, u: Unit, c: EndActivation) -> str | None:
    return None


def _hold_refusal(b: Battle, u: Unit, c: Hold) -> str | None:
    return check_hold(b)


def _withdraw_refusal(b: Battle, u: Unit, c: Withdraw) -> str | None:
    return check_withdraw(u)


def _assign_refusal(b: Battle, c: AssignAbilities) -> str | None:
    return check_assign(b, c.unit, c.abilities)


def _auto_assign_refusal(b: Battle, c: AutoAssign) -> str | None:
    return check_auto_assign(b)


def _ability_refusal(b: Battle, u: Unit, c: UseAbility) -> str | None:
    return formations.check_ability(b, u, c.ability)


#: The reason each battle command would be refused now, without stepping (`game.refusal`).
CHECKS: Checks = {
    StartBattle: _start_refusal,
    Deploy: _deployment_check(_deploy_refusal),
    ResetDeployment: _deployment_check(_reset_refusal),
    AutoDeploy: _deployment_check(_auto_refusal),
    Move: _action_check(_move_refusal),
    Sprint: _action_check(_sprint_refusal),
    FireGroup: _action_check(_fire_refusal),
    CalledShot: _action_check(_called_refusal),
    FireStructure: _action_check(_fire_at_refusal),
    Kick: _action_check(_kick_refusal),
    Brace: _action_check(_brace_refusal),
    Overwatch: _action_check(_overwatch_refusal),
    ReactionFire: _action_check(_reaction_refusal),
    Sweep: _action_check(_sweep_refusal),
    Vent: _action_check(_vent_refusal),
    UseEquipment: _action_check(_use_refusal),
    Pivot: _action_check(_pivot_refusal),
    Turn: _action_check(_turn_refusal),
    EndActivation: _action_check(_end_refusal),
    Hold: _action_check(_hold_refusal),
    Withdraw: _action_check(_withdraw_refusal),
    SetFormation: _formation_refusal,
    AssignAbilities: _deployment_check(_assign_refusal),
    AutoAssign: _deployment_check(_auto_assign_refusal),
    UseAbility: _action_check(_ability_refusal),
}
