"""Exact outcome distributions of attacks: the engine's one source of risk numbers (§3, §4, §7.7.3).

`forecast_attacks(battle, plans)` answers what one or more attacks in sequence on the same
target would do: the mean damage landed, the chance of any hit, the chance each location is
destroyed, that the frame is destroyed (§4.5), that the pilot is killed (§4.6), that the
target stops fighting, and the whole distribution of damage landed. `forecast_group` is the
same for one group. The AI (`players/`) and the battle screen both read these numbers;
`combat/threat.py` builds the threat to a frame from them.

Exact means computed, not sampled: `combat/outcomes.py` walks every chance node in the order
`attack.resolve_attack` draws them (to hit, Point Defense, the hit location) and runs the
engine's own cascade (`damage.CascadeWork.cascade`) on every branch of its draws (module
docstring there). This module turns orders into the shots the engine would fire
(`firing.check_fire`, `plan_fire`, `attack.hit_chance`) and the walk's answers into a
`Forecast`.

Damage landed is the weapon damage of every hit that is not intercepted while the target is
still fighting (`firing.fire` skips the rest of a group once the target is down, and an order
at a downed target is refused). For a single shot, and for any group at a target that
cannot go down, its mean equals `preview.expected_damage`.

Caching: the walk's answers are cached on the target's tracked state and the shots (damage,
missile, called location, hit chances), each hit's cascade on the locations it can touch;
repeating a forecast costs the building of its shots (`hit_chance` per weapon), a fraction of
a millisecond (`python -m mac_tui.bench forecast`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from . import facing
from .attack import MISSILE, hit_chance
from .firing import check_fire, plan_fire
from .outcomes import RoundEnd, Shot, Step, clear_cache, walk
from .state import LOC_INDEX, Battle, Unit
from .stats import weapon_of

__all__ = [
    "AttackPlan",
    "Forecast",
    "Risk",
    "RoundEnd",
    "Shot",
    "ShotChance",
    "Step",
    "clear_cache",
    "forecast_attacks",
    "forecast_group",
    "forecast_steps",
    "paid",
    "risk_steps",
    "shot_steps",
]


# ---- the public values ---------------------------------------------------------------------
@frozen
class AttackPlan:
    """One order: ``attacker`` fires weapon ``group`` at ``target`` (unit ids), a Called Shot
    at location ``called`` when given."""

    attacker: str
    group: int
    target: str
    called: str | None = None


@frozen(kw_only=True)
class ShotChance:
    """One weapon shot of a forecast and the hit chance it was forecast at (percent, against
    the target as it is now; `hit_chance` with its modifiers)."""

    attacker: str
    weapon_index: int
    weapon: str
    chance: int
    called: str | None = None
    overwatch: bool = False


@frozen(kw_only=True)
class Forecast:
    """The exact outcome distribution of attacks on one target.

    ``p_frame_destroyed`` (centre torso breached, §4.5), ``p_pilot_killed`` (head destroyed
    and survival failed, §4.6, frame not destroyed) and ``p_fighting`` partition the outcomes
    (they sum to 1 less ``residual``); ``p_out == p_frame_destroyed + p_pilot_killed``.
    ``p_destroyed`` maps every location id to the chance it is destroyed after the attacks
    (1.0 for one already destroyed). ``damage`` is the distribution of damage landed (the
    weapon damage of every hit not intercepted), ascending, summing to 1 less ``residual``;
    ``expected_damage`` its mean and ``p_any_hit`` the chance it is above 0. ``expected_loss``
    is the mean armour and structure the target loses (overflow that is lost, Barrier armour
    and Reactive Armour's reduction not counted). ``chances`` lists every shot in firing order.
    """

    target: str
    expected_damage: float
    expected_loss: float
    p_any_hit: float
    p_destroyed: Mapping[str, float]
    p_frame_destroyed: float
    p_pilot_killed: float
    p_out: float
    p_fighting: float
    damage: tuple[tuple[int, float], ...]
    chances: tuple[ShotChance, ...]
    residual: float = 0.0

    @property
    def p_head_destroyed(self) -> float:
        return self.p_destroyed["head"]

    @property
    def p_center_torso_destroyed(self) -> float:
        return self.p_destroyed["center_torso"]


# ---- steps: what the enumeration walks ------------------------------------------------------
def _slot_variants(target: Unit) -> tuple[tuple[int, ...], list[Unit]]:
    """The target's working slot equipment (indices) and the target with every combination
    of them destroyed (bit j of the list index: ``sensitive[j]`` destroyed)."""
    sensitive = tuple(
        i for i, e in enumerate(target.equipment) if e.mount is not None and not e.destroyed
    )
    variants = []
    for mask in range(1 << len(sensitive)):
        if mask == 0:
            variants.append(target)
            continue
        equipment = list(target.equipment)
        for j, i in enumerate(sensitive):
            if mask >> j & 1:
                equipment[i] = attrs.evolve(equipment[i], destroyed=True)
        variants.append(attrs.evolve(target, equipment=tuple(equipment)))
    return sensitive, variants


def shot_steps(
    battle: Battle,
    attacker: Unit,
    group: int,
    target: Unit,
    called: str | None = None,
    *,
    overwatch: bool = False,
) -> tuple[tuple[Shot, ...], tuple[ShotChance, ...]]:
    """The shots of ``attacker``'s ``group`` at ``target`` as `firing.plan_fire` would fire
    them (weapons skipped for range, ammo or energy left out), each with its hit chances.

    ``attacker`` and ``target`` may be hypothetical versions of the battle's frames (moved,
    refreshed for the next round, braced): `hit_chance` reads them as given and the battle
    only for the map, spotters and designations. No check of AP or legality is made.
    """
    plan = plan_fire(battle, attacker, group, target, called is not None, overwatch)
    sensitive, variants = _slot_variants(target)
    shots: list[Shot] = []
    chances: list[ShotChance] = []
    for index in plan.shots:
        ws = attacker.weapons[index]
        table = []
        for variant in variants:
            hc = hit_chance(
                battle, attacker, variant, ws, called_shot=called is not None, overwatch=overwatch
            )
            assert hc is not None  # plan_fire only lists weapons in range
            table.append(hc.chance)
        w = weapon_of(ws)
        used = sensitive if len(set(table)) > 1 else ()
        shots.append(
            Shot(
                damage=w.damage,
                missile=w.type == MISSILE,
                called=-1 if called is None else LOC_INDEX[called],
                sensitive=used,
                chances=tuple(table) if used else (table[0],),
                table=facing.attack_arc(battle, attacker, target) or "",  # O4.9
            )
        )
        chances.append(
            ShotChance(
                attacker=attacker.id,
                weapon_index=index,
                weapon=ws.weapon,
                chance=table[0],
                called=called,
                overwatch=overwatch,
            )
        )
    return tuple(shots), tuple(chances)


def forecast_steps(
    target: Unit, steps: Sequence[Step], chances: Sequence[ShotChance] = ()
) -> Forecast:
    """The forecast of ``steps`` (from `shot_steps`, with `RoundEnd` between rounds) on
    ``target`` as it is now; ``chances`` is copied into the result. Cached on the target's
    tracked state and the steps."""
    summary = walk(target, steps)
    p_out = summary.p_frame_destroyed + summary.p_pilot_killed
    return Forecast(
        target=target.id,
        expected_damage=summary.expected_damage,
        expected_loss=summary.expected_loss,
        p_any_hit=summary.p_any_hit,
        p_destroyed=MappingProxyType(dict(zip(LOCATION_ORDER, summary.p_destroyed, strict=True))),
        p_frame_destroyed=summary.p_frame_destroyed,
        p_pilot_killed=summary.p_pilot_killed,
        p_out=p_out,
        p_fighting=max(0.0, 1.0 - summary.residual - p_out),
        damage=summary.damage,
        chances=tuple(chances),
        residual=summary.residual,
    )


@frozen(kw_only=True)
class Risk:
    """The threat's answers about attacks on one target (`risk_steps`): the mean damage
    landed, the chance the head and the centre torso are destroyed after them, that the frame
    is destroyed (§4.5), that the pilot is killed (§4.6), and that it is out (the sum).

    Exact (``sampled == 0``, ``residual`` the mass not enumerated, normally 0.0) unless the
    enumeration passes `outcomes.THREAT_STATES` live states (several enemies' fire at a
    healthy frame): then ``sampled`` paths of the same model were drawn with a fixed seed and
    ``residual`` bounds the error of every probability at 99.99%."""

    target: str
    expected_damage: float
    p_head_destroyed: float
    p_center_torso_destroyed: float
    p_frame_destroyed: float
    p_pilot_killed: float
    p_out: float
    chances: tuple[ShotChance, ...]
    residual: float = 0.0
    sampled: int = 0


def risk_steps(target: Unit, steps: Sequence[Step], chances: Sequence[ShotChance] = ()) -> Risk:
    """`forecast_steps` for the threat's answers only (`Risk`): the walk then forgets every
    location that can pass nothing on to the head or centre torso, which keeps long
    sequences small; past `outcomes.THREAT_STATES` live states it samples (see `Risk`)."""
    summary = walk(target, steps, full=False)
    return Risk(
        target=target.id,
        expected_damage=summary.expected_damage,
        p_head_destroyed=summary.p_destroyed[LOC_INDEX["head"]],
        p_center_torso_destroyed=summary.p_destroyed[LOC_INDEX["center_torso"]],
        p_frame_destroyed=summary.p_frame_destroyed,
        p_pilot_killed=summary.p_pilot_killed,
        p_out=summary.p_frame_destroyed + summary.p_pilot_killed,
        chances=tuple(chances),
        residual=summary.residual,
        sampled=summary.sampled,
    )


def paid(battle: Battle, unit: Unit, group: int, target: Unit, called: str | None = None) -> Unit:
    """``unit`` after firing ``group`` at ``target`` with every planned shot fired (as when
    the target stays up): the AP of the order, the energy and ammo of each shot, the group
    marked as fired (what `firing.do_fire` charges). The next order is planned from it."""
    plan = plan_fire(battle, unit, group, target, called is not None)
    weapons = list(unit.weapons)
    for index in plan.shots:
        ws = weapons[index]
        w = weapon_of(ws)
        if w.uses_ammo:
            weapons[index] = attrs.evolve(ws, ammo=ws.ammo - w.ammo_per_shot)
    costs = catalog().combat.ap_costs
    return attrs.evolve(
        unit,
        ap=unit.ap - (costs.called_shot if called is not None else costs.fire_group),
        energy_used=unit.energy_used + plan.energy,
        weapons=tuple(weapons),
        fired_groups=(*unit.fired_groups, group),
    )


# ---- the public entry points ------------------------------------------------------------------
def forecast_attacks(battle: Battle, plans: Sequence[AttackPlan]) -> Forecast:
    """The exact outcome of ``plans`` carried out in order on one target (focus fire of
    several frames or groups), each as `step` would carry it out now.

    Each order must be legal when its turn comes (`firing.check_fire`, after the earlier
    orders' AP, energy and ammo are paid): otherwise ``ValueError`` with the engine's reason.
    An order whose target is down by then fires nothing, as in the engine.
    """
    if not plans:
        raise ValueError("no attack to forecast")
    target_id = plans[0].target
    if any(p.target != target_id for p in plans):
        raise ValueError("every attack of a forecast must have the same target")
    target = battle.unit(target_id)
    steps: list[Step] = []
    chances: list[ShotChance] = []
    for n, plan in enumerate(plans):
        attacker = battle.unit(plan.attacker)
        checked = check_fire(battle, attacker, plan.group, target_id, plan.called)
        if isinstance(checked, str):
            raise ValueError(f"{plan.attacker} group {plan.group}: {checked}")
        shots, used = shot_steps(battle, attacker, plan.group, target, plan.called)
        steps.extend(shots)
        chances.extend(used)
        if any(p.attacker == plan.attacker for p in plans[n + 1 :]):
            # The next order of this frame, if the target is still up, is planned after this
            # one's AP, energy and ammo are paid.
            battle = battle.with_unit(paid(battle, attacker, plan.group, target, plan.called))
    return forecast_steps(target, steps, chances)


def forecast_group(
    battle: Battle, attacker: str, group: int, target: str, called: str | None = None
) -> Forecast:
    """`forecast_attacks` of one order: ``attacker`` fires ``group`` at ``target`` (a Called
    Shot at ``called`` when given)."""
    return forecast_attacks(battle, [AttackPlan(attacker, group, target, called)])
