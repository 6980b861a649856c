"""Round structure (§1): refresh, initiative, activations, overwatch, end of round, and the
end conditions (§1, R13, R14, R30), checked after every action."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..core import Event
from ..dice import COMBAT, Dice
from ..hexgrid import Hex, distance
from . import detection, elevation, formations, moving_fire, stats, stun
from .events import (
    ActivationEnded,
    ActivationStarted,
    BattleEnded,
    RoundStarted,
    SideWithdrew,
    Stalemate,
    StressChanged,
)
from .firing import resolve_overwatch
from .objectives import round_closed
from .reaction import lapse
from .state import SIDES, Battle, Result, Side, Unit
from .structures import environment
from .third_parties import allies_leave, leave, segment_rank, third_sides


def initiative(battle: Battle) -> tuple[str, ...]:
    """§1 phase 2: Speed descending, then Piloting descending; with O10 the side's segment
    (O10.3: player, ally, neutral, enemy); then the battle's unit order."""
    ranked = sorted(
        ((i, u) for i, u in enumerate(battle.units) if u.active),
        key=lambda p: (
            -stats.chassis_of(p[1]).speed,
            -p[1].pilot.piloting,
            segment_rank(battle, p[1].side),
            p[0],
        ),
    )
    return tuple(u.id for _, u in ranked)


def refresh(unit: Unit) -> Unit:
    """§1 phase 1: full energy and AP; a shut-down frame gets neither (R7)."""
    return attrs.evolve(
        unit,
        ap=0 if unit.shutdown else stats.max_ap(unit),
        energy_used=0,
        fired_groups=(),
        braced=False,
        overwatch_group=None,
    )


def check_end(battle: Battle) -> tuple[Battle, list[Event]]:
    """§1, R13: all enemies down = Victory (mutual destruction included); all players = Defeat;
    R30: a stalemate = Withdrawal. Checked after every action and in the close of the round."""
    if battle.phase != "combat":
        return battle, []
    if not battle.living("enemy"):
        return _end(battle, "victory", "every enemy frame is down")
    if not battle.living("player"):
        return _end(battle, "defeat", "every player frame is down")
    standoff = stalemate(battle)
    if standoff is not None:
        battle, events = _end(
            battle, "withdrawal", "stalemate: no frame can move or reach an enemy (R30)"
        )
        return battle, [standoff, *events]
    return battle, []


def stalemate(battle: Battle) -> Stalemate | None:
    """R30: no frame on the field can move (§2: its legs are destroyed) and none has a living
    enemy within the maximum range of its longest weapon that can still fire; then the event
    that says so (each frame's longest range and nearest enemy), else None. With O2 on, an
    enemy behind the ground (hills and mesas block the line for good: the frames cannot move)
    is out of reach too, unless the frame has an indirect-fire weapon (R10's spotter may see
    it): ruling O2d; with O8 on, an enemy the frame does not detect: ruling O8i."""
    field = [u for u in battle.units if u.active and u.pos is not None]
    if any(stats.can_move(u) for u in field):
        return None
    frames: list[tuple[str, int, int]] = []
    for unit in field:
        nearest = _nearest_in_sight(battle, unit)
        reach = stats.longest_range(unit)
        if nearest is None and battle.rule("O10"):
            continue  # O10: a neutral nobody holds a grudge against fights no one
        if nearest is None or nearest <= reach:
            return None
        frames.append((unit.id, reach, nearest))
    return Stalemate(round=battle.round, frames=tuple(frames))


def _nearest_in_sight(battle: Battle, unit: Unit) -> int | None:
    """R30's nearest enemy (hex distance); with O2 on, an enemy the ground hides from `unit`
    counts as out of any range (ruling O2d), unless `unit` can fire indirectly; with O8 on,
    so does an enemy `unit` does not detect (ruling O8i: it may attack only what it detects,
    O8.6, and frames that cannot move see nothing new)."""
    ground = elevation.on(battle) and not stats.fires_indirectly(unit)
    if not ground and not detection.on(battle):
        return nearest_enemy_distance(battle, unit)
    assert unit.pos is not None
    out_of_reach = stats.longest_range(unit) + 1

    def hidden(e: Unit) -> bool:
        assert unit.pos is not None and e.pos is not None
        if ground and elevation.ground_blocked(battle, unit.pos, e.pos):
            return True
        return not detection.detects(battle, unit, e)

    ds = [
        out_of_reach if hidden(e) else distance(unit.pos, e.pos)
        for e in battle.units
        if battle.hostile(unit.side, e.side) and e.pos is not None and e.active
    ]
    return min(ds) if ds else None


def _end(battle: Battle, result: Result, reason: str) -> tuple[Battle, list[Event]]:
    ended = attrs.evolve(battle, phase="over", result=result)
    return ended, [BattleEnded(result=result, reason=reason, round=battle.round)]


def end_battle(battle: Battle, result: Result, reason: str) -> tuple[Battle, list[Event]]:
    return _end(battle, result, reason)


def start_round(battle: Battle, dice: Dice) -> tuple[Battle, list[Event]]:
    """Phases 1 and 2, then hand the turn to the first frame that can act."""
    units = tuple(_phase_one(battle, u) if u.active else u for u in battle.units)
    battle = attrs.evolve(battle, units=units, round=battle.round + 1)
    order = initiative(battle)
    battle = attrs.evolve(battle, order=order, turn=0)
    sides = tuple(battle.unit(uid).side for uid in order) if battle.rule("O10") else ()
    events: list[Event] = [RoundStarted(round=battle.round, order=order, sides=sides)]
    if detection.on(battle):  # O8.2 (a), set at the phase-1 refresh
        battle, hot = detection.refresh_radiating(battle)
        events.extend(hot)
    battle, checked = formations.check_round(battle)  # step 2b (O0.10): O9.2
    events.extend(checked)
    return _next_activation(battle, dice, events)


def _phase_one(battle: Battle, unit: Unit) -> Unit:
    """Phase 1 for one frame: `refresh`; O7.7's counter starts again; a frame that spends the
    round shut down has moved no hexes in it (ruling O5a)."""
    unit = stun.round_started(battle, refresh(unit))
    if unit.shutdown and unit.moved_hexes:
        unit = attrs.evolve(unit, moved_hexes=0)
    return unit


def _begin_activation(battle: Battle) -> tuple[Battle, list[Event]]:
    unit = battle.active_unit
    if unit is None:
        return battle, []
    # R11: Countermeasures last until the frame's next activation; O9.9d an Impossible Turn.
    if unit.ecm_active or unit.dodging:
        unit = attrs.evolve(unit, ecm_active=False, dodging=False)
    # O5.1: the count of hexes starts again; O7.1: a kick again; O7.6: the stun's clock runs
    if unit.moved_hexes or unit.kicked:
        unit = attrs.evolve(unit, moved_hexes=0, kicked=False)
    unit = stun.activation_started(unit)
    if unit.pivoted:  # O4.5: the free pivot, once per activation
        unit = attrs.evolve(unit, pivoted=False)
    if unit is not battle.active_unit:
        battle = battle.with_unit(unit)
    unit, lapsed = lapse(unit, "activation")  # O6.2: an armed cone lapses unfired
    if unit is not battle.active_unit:
        battle = battle.with_unit(unit)
    if detection.on(battle):  # O8.5 muzzle flash forgotten, O8.8 bumps end
        battle = detection.activation_starts(battle, unit.id)
    started = ActivationStarted(unit=unit.id, ap=unit.ap, energy=stats.energy_left(unit))
    return battle, [*lapsed, started]


def end_activation(battle: Battle, unit_id: str, announced: bool) -> tuple[Battle, list[Event]]:
    """What happens when a frame's activation is over: O5.8's `ActivationEnded` with the hexes
    it moved (when the action did not end it with one already, `announced`), then O7.6's
    stun clock. Nothing while O5 and O7 are off."""
    events: list[Event] = []
    if moving_fire.on(battle) and not announced:
        unit = battle.unit(unit_id)
        events.append(ActivationEnded(unit=unit.id, hexes_moved=unit.moved_hexes))
    battle, more = stun.activation_ended(battle, unit_id)
    return battle, events + more


def _next_activation(battle: Battle, dice: Dice, events: list[Event]) -> tuple[Battle, list[Event]]:
    """From `battle.turn` on, find the next frame with AP; close the round if there is none."""
    turn = battle.turn
    while turn < len(battle.order):
        u = battle.unit(battle.order[turn])
        if u.active and u.ap > 0:
            break
        turn += 1
    battle = attrs.evolve(battle, turn=turn)
    if turn < len(battle.order):
        battle, more = _begin_activation(battle)
        return battle, events + more
    return close_round(battle, dice, events)


def advance(battle: Battle, dice: Dice, announced: bool = False) -> tuple[Battle, list[Event]]:
    """After an action: O7.7's threshold; end conditions; the same frame again while it has
    AP; else the end of its activation (`end_activation`; `announced`: the action ended it
    with an `ActivationEnded` of its own) and the next frame; or, when nobody is left, phases
    4-5 and the next round."""
    battle, events = stun.check_threshold(battle)
    battle, more = check_end(battle)
    events += more
    if battle.phase != "combat":
        return battle, events
    unit = battle.active_unit
    if unit is not None and unit.active and unit.ap > 0:
        return battle, events
    if unit is not None:
        battle, more = end_activation(battle, unit.id, announced)
        events += more
    return _next_activation(attrs.evolve(battle, turn=battle.turn + 1), dice, events)


def close_round(battle: Battle, dice: Dice, events: list[Event]) -> tuple[Battle, list[Event]]:

    battle, more = resolve_overwatch(battle, dice)
    events.extend(more)
    if battle.objectives:  # O11.2 OB5: the objective hex held at the end of the round
        battle, more = round_closed(battle)
        events.extend(more)
    battle, more = stun.check_threshold(battle)  # O7.7 after overwatch's hits
    events.extend(more)
    battle, more = check_end(battle)
    events.extend(more)
    if battle.phase != "combat":
        return battle, events
    if battle.structures or battle.smoke:  # step 5a (O0.10): O3.9, then O3.11
        battle, more = environment(battle, dice)
        events.extend(more)
        battle, more = stun.check_threshold(battle)  # O7.7 after falls and explosions
        events.extend(more)
        battle, more = check_end(battle)
        events.extend(more)
        if battle.phase != "combat":
            return battle, events
    for unit in battle.units:  # O7.6: a round spent shut down counts as an activation
        if unit.active and unit.shutdown and unit.stun:
            battle = battle.with_unit(stun.activation_started(unit))
            battle, more = stun.activation_ended(battle, unit.id)
            events.extend(more)
    battle, more = end_of_round(battle, dice)
    events.extend(more)
    battle, more = check_end(battle)
    events.extend(more)
    if battle.phase != "combat":
        return battle, events
    for side in SIDES:
        rule = battle.side_info(side).withdrawal
        if battle.side_info(side).ai and withdrawal_tripped(battle, side):
            events.append(SideWithdrew(side=side, rule=rule))
            result: Result = "victory" if side == "enemy" else "withdrawal"
            if side == "player":  # O10.6: the allies go along
                battle, gone = allies_leave(battle)
                events.extend(gone)
            battle, more = _end(battle, result, f"the {side} side withdrew ({rule})")
            return battle, events + more
    for side in third_sides(battle):  # O10.6: a third party leaves, the battle goes on
        info = battle.side_info(side)
        if info.ai and battle.living(side) and withdrawal_tripped(battle, side):
            events.append(SideWithdrew(side=side, rule=info.withdrawal))
            battle, more = leave(battle, side, info.withdrawal)
            events.extend(more)
    if battle.round >= catalog().combat.rounds.round_limit:
        battle, more = _end(battle, "withdrawal", "the round limit was reached")
        return battle, events + more
    if not any(stats.armed(u) for u in battle.units if u.active):
        # D13: nobody can deal damage any more; end as the round limit would, without the wait.
        battle, more = _end(battle, "withdrawal", "no frame on either side can still fire")
        return battle, events + more
    battle, more = start_round(battle, dice)
    return battle, events + more


def end_of_round(battle: Battle, dice: Dice) -> tuple[Battle, list[Event]]:
    """§1 phase 5 and §5.3-§5.4 with R7, R8."""
    r = catalog().combat.reactor
    events: list[Event] = []
    units: list[Unit] = []
    for unit in battle.units:
        if not unit.active:
            units.append(unit)
            continue
        output = stats.effective_output(unit)
        overload = max(0, unit.energy_used - output)
        stress = unit.stress + overload
        restarted = False
        roll: int | None = None
        shutdown = False
        reactor_hit = False
        dissipated = 0
        if unit.shutdown:
            # R7: the round out is over; stress halves and the frame restarts.
            stress = stress * r.shutdown_stress_keep_percent // 100
            restarted = True
        else:
            dissipated = min(stress, max(r.dissipation_min, output // r.dissipation_divisor))
            stress -= dissipated
            if stress * 100 >= output * r.auto_shutdown_percent:
                shutdown = True
                reactor_hit = True
            elif stress >= output:
                roll = dice.d100(COMBAT)
                shutdown = roll <= r.shutdown_chance
        new = attrs.evolve(
            unit,
            stress=stress,
            shutdown=shutdown,
            reactor_hits=unit.reactor_hits + (1 if reactor_hit else 0),
            barrier=0,
        )
        lapsed: list[Event] = []
        if shutdown:  # O6.2: a frame that shuts down loses its armed cone
            new, lapsed = lapse(new, "shutdown")
        if overload or dissipated or restarted or roll is not None or shutdown:
            events.append(
                StressChanged(
                    unit=unit.id,
                    overload=overload,
                    dissipated=dissipated,
                    stress=stress,
                    restarted=restarted,
                    shutdown_roll=roll,
                    shutdown=shutdown,
                    reactor_hit=reactor_hit,
                )
            )
        events.extend(lapsed)
        units.append(new)
    return attrs.evolve(battle, units=tuple(units), uplinks=()), events


def withdrawal_tripped(battle: Battle, side: Side) -> bool:
    """§10.4 with R14: 'damaged' = a quarter of the starting armour or any structure lost
    (`stats.damaged`)."""
    rule = battle.side_info(side).withdrawal
    if rule == "never":
        return False
    w = catalog().combat.withdrawal
    frames = battle.side_units(side)
    alive = [u for u in frames if u.active]
    lost = len(frames) - len(alive)
    if rule == "at_50":
        if lost * 100 >= len(frames) * w.at_50_lost_percent:
            return True
        weak = sum(
            1 for u in alive if u.total_armor * 100 < u.start_armor * w.at_50_weak_armor_percent
        )
        return weak * 100 >= len(alive) * w.at_50_weak_share_percent and len(alive) > 0
    if lost * 100 >= len(frames) * w.at_25_lost_percent:
        return True
    damaged = sum(1 for u in alive if stats.damaged(u))
    return damaged * 100 >= len(alive) * w.at_25_damaged_share_percent and len(alive) > 0


def nearest_enemy_distance(battle: Battle, unit: Unit) -> int | None:
    return nearest_enemy_distance_from(battle, unit.side, unit.pos)


def nearest_enemy_distance_from(battle: Battle, side: Side, pos: Hex | None) -> int | None:
    """The distance from `pos` to the nearest living enemy of `side` on the map (None without
    a position or an enemy): where a frame of `side` would stand, without building it."""
    if pos is None:
        return None
    ds = [distance(pos, e.pos) for e in battle.foes(side) if e.pos is not None]
    return min(ds) if ds else None


__all__ = [
    "advance",
    "check_end",
    "end_battle",
    "end_of_round",
    "initiative",
    "nearest_enemy_distance",
    "nearest_enemy_distance_from",
    "stalemate",
    "start_round",
    "withdrawal_tripped",
]
