"""The first battle AI, kept unchanged as `ai-v1` (§10): the golden battle logs of
`tests/golden/v1` were made with it, and `mac-tui duel` measures the planner (`players/ai`)
against it.

It is a one-action-ahead scorer: every legal action of the active frame is given a score in
"expected damage points" (damage it deals, damage it avoids, shutdown risk it takes), and the
best one is played. Moves are scored by what the frame could do from the new hex with the AP and
energy it would have left, its distance to the stance's preferred range, and the fire it would
draw there. Every decision carries its best few options and their scores for the battle log.
Withdrawal is not a choice here: an AI side withdraws by its threshold at the end of a round
(§10.4, R14, in `flow.py`).
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from ..catalog import catalog
from ..catalog.records import RangeId
from ..combat import stats
from ..combat.actions import auto_positions, check_equipment, check_vent, vent_amount
from ..combat.attack import hit_chance, los_penalty, range_modifier
from ..combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    Sprint,
    StartBattle,
    UseEquipment,
    Vent,
)
from ..combat.firing import check_fire, check_overwatch, plan_fire
from ..combat.movement import check_move, reach
from ..combat.preview import expected_damage
from ..combat.state import CENTER_TORSO, HEAD, LEGS, Battle, Unit
from ..core import Command
from ..hexgrid import Hex, distance, within
from ..model import GameState
from .policy import Decision

TOP_OPTIONS = 5
SPACING_WEIGHT = 1.2  # score per hex away from the preferred distance
PATIENCE_ROUNDS = 6  # after this many rounds the push to close grows
# Preferred distance per range class: the middle of the §6.5 optimal band.
BAND_ORDER = ("short", "medium", "long")


@frozen
class _Option:
    command: Command
    score: float


def preferred_band(unit: Unit) -> str:
    """§10.2: the range class carrying most of the loadout's damage, shifted by stance."""
    totals = {band: 0 for band in BAND_ORDER}
    for _, ws in unit.live_weapons():
        w = stats.weapon_of(ws)
        if w.uses_ammo and ws.ammo < w.ammo_per_shot:
            continue
        totals[w.range] += w.damage
    best = max(BAND_ORDER, key=lambda b: (totals[b], -BAND_ORDER.index(b)))
    i = BAND_ORDER.index(best)
    if unit.stance == "aggressive":
        i = max(0, i - 1)
    elif unit.stance == "defensive":
        i = min(len(BAND_ORDER) - 1, i + 1)
    return BAND_ORDER[i]


def preferred_distance(unit: Unit) -> int:
    rc = catalog().range_class(preferred_band(unit))
    return (rc.optimal_min + rc.optimal_max) // 2


def _priority_weight(unit: Unit, target: Unit, battle: Battle) -> float:
    """§10.3 target priorities as a multiplier on the damage a shot is expected to do."""
    full = max(1, target.start_armor)
    armor_frac = target.total_armor / full
    if unit.priority == "focus_fire":
        return 1.0 + 0.6 * (1.0 - armor_frac)
    if unit.priority == "spread_damage":
        return 0.8 + 0.4 * armor_frac
    if unit.priority == "threat":
        cls = stats.chassis_of(target).tonnage / 100
        firepower = sum(stats.weapon_of(w).damage for _, w in target.live_weapons()) / 60
        return 0.8 + 0.4 * cls + 0.4 * firepower
    shutdown = 0.5 if target.shutdown else 0.0
    return 1.0 + 0.5 * (1.0 - armor_frac) + shutdown


def _kill_bonus(target: Unit, expected: float) -> float:
    """Finishing a frame ends its fire: reward damage that can break its centre torso."""
    ct = target.armor[CENTER_TORSO] + target.structure[CENTER_TORSO]
    return 10.0 if expected >= ct else 0.0


def _overload_cost(unit: Unit, extra_energy: int) -> float:
    """Expected-damage cost of the stress a spend would add (§5.3-§5.4)."""
    output = stats.effective_output(unit)
    over_before = max(0, unit.energy_used - output)
    over_after = max(0, unit.energy_used + extra_energy - output)
    added = over_after - over_before
    if added <= 0:
        return 0.0
    r = catalog().combat.reactor
    stress_after = (
        unit.stress + over_after - max(r.dissipation_min, output // r.dissipation_divisor)
    )
    cost = added * 0.8
    if stress_after * 100 >= output * r.auto_shutdown_percent:
        cost += 60.0
    elif stress_after >= output:
        cost += 25.0
    return cost


def _expected_group(
    battle: Battle, unit: Unit, group: int, target: Unit, called: str | None
) -> tuple[float, int]:
    plan = plan_fire(battle, unit, group, target, called is not None)
    expected = 0.0
    for index in plan.shots:
        ws = unit.weapons[index]
        hc = hit_chance(battle, unit, target, ws, called_shot=called is not None)
        if hc is None:
            continue
        expected += expected_damage(hc.chance, stats.weapon_of(ws), target)
    return expected, plan.energy


def _fire_options(battle: Battle, unit: Unit) -> list[_Option]:
    out: list[_Option] = []
    enemies = battle.foes(unit.side)
    for group in stats.groups(unit):
        for enemy in enemies:
            if isinstance(check_fire(battle, unit, group, enemy.id, None), str):
                continue
            expected, energy = _expected_group(battle, unit, group, enemy, None)
            score = expected * _priority_weight(unit, enemy, battle) + _kill_bonus(enemy, expected)
            score -= _overload_cost(unit, energy)
            out.append(_Option(FireGroup(group, enemy.id), score))
            called = _called_location(enemy)
            if called and not isinstance(check_fire(battle, unit, group, enemy.id, called), str):
                exp_c, energy_c = _expected_group(battle, unit, group, enemy, called)
                loc = stats.location_index(called)
                remaining = enemy.armor[loc] + enemy.structure[loc]
                # A called shot that can break the head or the legs is worth a frame.
                finish = 30.0 if exp_c >= remaining * 0.8 else 0.0
                score_c = exp_c * _priority_weight(unit, enemy, battle) + finish * exp_c / max(
                    1.0, float(remaining)
                )
                score_c -= _overload_cost(unit, energy_c)
                # It costs both AP: compare with two ordinary actions.
                out.append(_Option(CalledShot(group, enemy.id, called), score_c - 0.5 * score))
    return out


def _called_location(enemy: Unit) -> str | None:
    head = enemy.armor[HEAD] + enemy.structure[HEAD]
    legs = enemy.armor[LEGS] + enemy.structure[LEGS]
    if enemy.structure[HEAD] > 0 and head <= 10:
        return "head"
    if enemy.structure[LEGS] > 0 and legs <= 8:
        return "legs"
    return None


# ---- positions ---------------------------------------------------------------------------
Arsenal = list[list[tuple[int, int, int, RangeId]]]


class _Estimator:
    """Fast fire estimates for one decision: the main modifiers (base, gunnery, evasion, range,
    cover, LOS), with lines of sight and loadouts cached."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.terrain = catalog().terrain
        self.los: dict[tuple[Hex, Hex], int] = {}
        self.arsenals: dict[str, Arsenal] = {}
        self.ranges: dict[tuple[str, int], int | None] = {}

    def cover(self, h: Hex) -> int:
        return self.terrain[self.battle.map.terrain_at(h)].defense

    def los_penalty(self, a: Hex, b: Hex) -> int:
        key = (a, b) if a <= b else (b, a)  # R29: the same both ways
        value = self.los.get(key)
        if value is None:
            value = self.los[key] = los_penalty(self.battle.map, *key)
        return value

    def arsenal(self, unit: Unit) -> Arsenal:
        found = self.arsenals.get(unit.id)
        if found is None:
            found = []
            for group in stats.groups(unit):
                weapons = []
                for _, ws in stats.group_weapons(unit, group):
                    w = stats.weapon_of(ws)
                    if w.uses_ammo and ws.ammo < w.ammo_per_shot:
                        continue
                    weapons.append((w.accuracy, w.damage, w.energy, w.range))
                found.append(weapons)
            self.arsenals[unit.id] = found
        return found

    def range_mod(self, range_id: str, d: int) -> int | None:
        key = (range_id, d)
        if key not in self.ranges:
            self.ranges[key] = range_modifier(range_id, d)
        return self.ranges[key]

    def output(self, shooter: Unit, at: Hex, target: Unit, target_at: Hex, energy: int) -> float:
        """Expected damage of the shooter's best group from `at` on a target at `target_at`."""
        d = distance(at, target_at)
        if d == 0:
            return 0.0
        base_mod = (
            stats.gunnery_bonus(shooter)
            - stats.evasion(target)
            - self.cover(target_at)
            - self.los_penalty(at, target_at)
        )
        best = 0.0
        for weapons in self.arsenal(shooter):
            total = 0.0
            left = energy
            for accuracy, damage, cost, range_id in weapons:
                if cost > left:
                    continue
                rm = self.range_mod(range_id, d)
                if rm is None:
                    continue
                total += min(95, max(5, accuracy + base_mod + rm)) / 100 * damage
                left -= cost
            best = max(best, total)
        return best


def _placed(units: Iterable[Unit]) -> list[tuple[Unit, Hex]]:
    return [(u, u.pos) for u in units if u.pos is not None]


def _position_score(est: _Estimator, unit: Unit, h: Hex, ap_after: int, energy_after: int) -> float:
    battle = est.battle
    enemies = _placed(battle.foes(unit.side))
    if not enemies:
        return 0.0
    offense = 0.0
    if ap_after > 0:
        offense = max(
            est.output(unit, h, e, pos, energy_after) * _priority_weight(unit, e, battle)
            for e, pos in enemies
        )
    # Fire the enemies could return next round at this hex (all of their energy).
    threat = sum(est.output(e, pos, unit, h, stats.overload_limit(e)) for e, pos in enemies)
    nearest = min(distance(h, pos) for _, pos in enemies)
    want = preferred_distance(unit)
    spacing = abs(nearest - want)
    stance_fear = {"aggressive": 0.25, "balanced": 0.45, "defensive": 0.7}[unit.stance]
    damaged = 1.0 - unit.total_armor / max(1, unit.start_armor)
    # The longer a battle drags on, the harder both sides are pushed to close (no stalemates).
    pressure = SPACING_WEIGHT * (1.0 + max(0, battle.round - PATIENCE_ROUNDS) / 3)
    return offense - threat * (stance_fear + damaged) * 0.5 - spacing * pressure


def _move_options(est: _Estimator, unit: Unit) -> list[_Option]:
    battle = est.battle
    if unit.pos is None or not stats.can_move(unit):
        return []
    out: list[_Option] = []
    here = _position_score(est, unit, unit.pos, unit.ap - 1, stats.energy_left(unit))
    ap_costs = catalog().combat.ap_costs
    for sprint in (False, True):
        cost_ap = ap_costs.sprint if sprint else ap_costs.move
        if unit.ap < cost_ap:
            continue
        reached = reach(battle, unit, sprint)
        for h in sorted(reached, key=lambda x: (x.r, x.q)):
            if h == unit.pos:
                continue
            plan = check_move(battle, unit, h, sprint, reached)
            if isinstance(plan, str):
                continue
            energy_after = stats.energy_left(unit) - plan.energy
            score = _position_score(est, unit, h, unit.ap - cost_ap, energy_after)
            score -= here + _overload_cost(unit, plan.energy) + (1.0 if sprint else 0.0)
            out.append(_Option(Sprint(h) if sprint else Move(h), score))
    return out


# ---- the rest ----------------------------------------------------------------------------
def _incoming(est: _Estimator, unit: Unit) -> float:
    if unit.pos is None:
        return 0.0
    here = unit.pos
    return sum(
        est.output(e, pos, unit, here, stats.overload_limit(e))
        for e, pos in _placed(est.battle.foes(unit.side))
    )


def _support_options(est: _Estimator, unit: Unit) -> list[_Option]:
    battle = est.battle
    out: list[_Option] = []
    output = stats.effective_output(unit)
    if check_vent(unit) is None:
        projected = unit.stress + max(0, unit.energy_used - output)
        urgency = projected / max(1, output)
        score = vent_amount(unit) * 0.5 + (25.0 if urgency >= 0.8 else 0.0) * urgency
        if unit.stance != "aggressive" and urgency >= 0.5:
            score += 6.0
        out.append(_Option(Vent(), score))
    incoming = _incoming(est, unit)
    if not unit.braced and unit.ap >= catalog().combat.ap_costs.brace:
        damaged = 1.0 - unit.total_armor / max(1, unit.start_armor)
        brace = catalog().combat.accuracy.brace / 100 * incoming
        if unit.stance == "defensive" or damaged > 0.5:
            brace *= 1.5
        out.append(_Option(Brace(), brace * 0.6))
    for group in stats.groups(unit):
        if check_overwatch(unit, group) is None:
            out.append(_Option(Overwatch(group), _overwatch_value(est, unit, group)))
    for e in unit.equipment:
        if e.destroyed:
            continue
        item = catalog().equipment[e.equipment]
        if item.category != "active":
            continue
        if item.effect == "ecm" and check_equipment(battle, unit, item.id, None, None) is None:
            out.append(_Option(UseEquipment(item.id), -item.value / 100 * incoming * 0.8))
        elif item.effect == "designate":
            for enemy in battle.foes(unit.side):
                if check_equipment(battle, unit, item.id, enemy.id, None) is None:
                    allies = len(battle.living(unit.side)) - 1
                    out.append(_Option(UseEquipment(item.id, enemy.id), allies * 2.5))
        elif item.effect == "barrier":
            for ally in battle.living(unit.side):
                if check_equipment(battle, unit, item.id, ally.id, None) is None:
                    need = 1.0 - ally.total_armor / max(1, ally.start_armor)
                    out.append(_Option(UseEquipment(item.id, ally.id), item.value * need * 0.5))
    return out


def _overwatch_value(est: _Estimator, unit: Unit, group: int) -> float:
    """R4: reaction fire pays when an enemy is, or can come, within the group's reach; firing
    now is usually better, so overwatch is worth a fraction of the fire it promises."""
    if unit.pos is None:
        return -1.0
    reach_hexes = max(
        (stats.weapon_range(stats.weapon_of(ws)) for _, ws in stats.group_weapons(unit, group)),
        default=0,
    )
    best = -1.0
    for enemy, pos in _placed(est.battle.foes(unit.side)):
        d = distance(unit.pos, pos)
        could_close = stats.hex_movement(enemy, sprint=True) if stats.can_move(enemy) else 0
        if d > reach_hexes + could_close:
            continue
        at = min(d, reach_hexes)
        promised = est.output(unit, unit.pos, enemy, pos, stats.energy_left(unit))
        best = max(best, 0.35 * promised if promised else 0.1 * (reach_hexes >= at))
    return best


def _jump_options(est: _Estimator, unit: Unit) -> Iterable[_Option]:
    battle = est.battle
    if unit.pos is None:
        return []
    out: list[_Option] = []
    for e in unit.equipment:
        item = catalog().equipment[e.equipment]
        if e.destroyed or item.effect != "jump":
            continue
        here = _position_score(est, unit, unit.pos, unit.ap - 1, stats.energy_left(unit))
        for h in sorted(
            (x for x in within(unit.pos, item.value) if battle.map.contains(x)),
            key=lambda x: (x.r, x.q),
        ):
            if check_equipment(battle, unit, item.id, None, h) is None:
                energy_after = stats.energy_left(unit) - item.energy
                score = _position_score(est, unit, h, unit.ap - 1, energy_after) - here - 2.0
                out.append(_Option(UseEquipment(item.id, None, h), score))
    return out


def decide(state: GameState) -> Decision:
    """The AI's choice for whoever must act now (deployment included)."""
    battle = state.battle
    if battle is None or battle.phase == "over":
        raise ValueError("no battle to decide in")
    if battle.phase == "deployment":
        if auto_positions(battle):
            return Decision(AutoDeploy(), note="deploy")
        return Decision(StartBattle(), note="start")
    unit = battle.active_unit
    if unit is None:
        raise ValueError("no frame is acting")
    options = [_Option(EndActivation(), 0.0)]
    options += _fire_options(battle, unit)
    est = _Estimator(battle)
    options += _move_options(est, unit)
    options += _support_options(est, unit)
    options += list(_jump_options(est, unit))
    options.sort(key=lambda o: (-o.score, o.command.to_text()))
    best = options[0]
    shown = tuple((o.command.to_text(), o.score) for o in options[:TOP_OPTIONS])
    return Decision(best.command, shown, note=f"{unit.id} {unit.stance} {unit.priority}")
