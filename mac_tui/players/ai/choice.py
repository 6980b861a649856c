"""Choosing the plan to play among the valued plans: the stances' and priorities' stated rules
(`rules.py`, §10) applied to the planner's ranking."""

from __future__ import annotations

from ...catalog import catalog
from ...combat import stats
from ...combat.commands import Brace, CalledShot, FireGroup, UseEquipment, Vent
from ...combat.state import Unit
from ...core import Command
from .plan_types import Plan
from .rules import PRIORITY_KEY, PRIORITY_WINDOW, VENT_FROM, below_brace_line


def _has(plan: Plan, kind: type[Command]) -> bool:
    return any(isinstance(c, kind) for c in plan.commands)


def _shields(plan: Plan) -> bool:
    """The plan braces or switches countermeasures on."""
    cat = catalog()
    return any(
        isinstance(c, Brace)
        or (isinstance(c, UseEquipment) and cat.equipment[c.equipment].effect == "ecm")
        for c in plan.commands
    )


def _shots(plan: Plan) -> int:
    """The AP the plan spends firing (a called shot takes both: it fires as much as two
    groups, so no stance rule passes it over for firing less)."""
    costs = catalog().combat.ap_costs
    return sum(
        costs.called_shot if isinstance(c, CalledShot) else costs.fire_group
        for c in plan.commands
        if isinstance(c, (FireGroup, CalledShot))
    )


def _fires(plan: Plan) -> bool:
    return plan.target is not None


def stance_filter(plans: list[Plan], unit: Unit) -> list[Plan]:
    """§10.1: the plans the frame's stance allows, best first (never empty). The rules only
    shape what the frame does with an AP it does not fire with: it always keeps its full fire."""
    output = stats.effective_output(unit)
    r = catalog().combat.reactor
    most = max(_shots(p) for p in plans)
    kept = plans
    if unit.stance == "aggressive" and most:
        # it braces only with an AP it could not fire with, and vents only to escape a certain
        # shutdown
        kept = [p for p in kept if not _has(p, Brace) or _shots(p) >= most]
        calm = [p for p in kept if not _has(p, Vent)]
        if calm and calm[0].stress * 100 < output * r.auto_shutdown_percent:
            kept = calm
    vent_from = VENT_FROM[unit.stance]
    if vent_from is not None and unit.stress >= vent_from * output and not _has(kept[0], Vent):
        # stressed already: it vents with an AP it does not fire with
        venting = [p for p in kept if _has(p, Vent) and _shots(p) >= most]
        if venting:
            kept = venting
    exposed = kept[0].part("received") < 0 and not _shields(kept[0])
    if below_brace_line(unit) and exposed and not unit.braced and not unit.ecm_active:
        # heavily damaged: it braces (or shields) with an AP it does not fire with
        shielded = [
            p
            for p in kept
            if _shots(p) >= most and (_shields(p) or p.part("received") == 0 or _shots(p) >= 2)
        ]
        if shielded:
            kept = shielded
    return kept


def _targets(plan: Plan) -> set[str]:
    return {c.target for c in plan.commands if isinstance(c, (FireGroup, CalledShot))}


def priority_pick(
    plans: list[Plan],
    unit: Unit,
    battle_units: dict[str, Unit],
    window: float = PRIORITY_WINDOW,
) -> Plan:
    """§10.3: when the best plan fires, the best plan worth at least `window` of it (by the
    pilot's Tactics, `skill.PRIORITY_WINDOWS`) that fires at the target the frame's priority
    ranks first (all its fire at it, when such a plan is in the window)."""
    best = plans[0]
    if not _fires(best):
        return best
    floor = best.value - (1 - window) * abs(best.value)
    near = [p for p in plans if _fires(p) and p.value >= floor]
    key = PRIORITY_KEY[unit.priority]
    first = min(
        (p.target for p in near if p.target is not None),
        key=lambda t: (*key(battle_units[t]), t),
    )
    return next(
        (p for p in near if _targets(p) == {first}),
        next(p for p in near if p.target == first),
    )


def choose(
    plans: list[Plan],
    unit: Unit,
    battle_units: dict[str, Unit],
    window: float = PRIORITY_WINDOW,
) -> tuple[Plan, tuple[Plan, ...]]:
    """The plan the frame plays, and every plan best first."""
    ranked = sorted(plans, key=lambda p: -p.value)  # stable: generation order breaks ties
    allowed = stance_filter(ranked, unit)
    return priority_pick(allowed, unit, battle_units, window), tuple(ranked)
