"""Choosing the plan to play among the valued plans: the stances' and priorities' stated rules
(`rules.py`, §10) applied to the planner's ranking."""

from __future__ import annotations

from ...catalog import catalog
from ...combat import stats
from ...combat.commands import Brace, CalledShot, FireGroup, UseEquipment, Vent
from ...combat.state import Unit
from ...core import Command
from .plans import Plan
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
    return sum(isinstance(c, (FireGroup, CalledShot)) for c in plan.commands)


def _fires(plan: Plan) -> bool:
    return plan.target is not None


def stance_filter(plans: list[Plan], unit: Unit) -> list[Plan]:
    """§10.1: the plans the frame's stance allows (never empty: a plan that ends the
    activation is always among them)."""
    output = stats.effective_output(unit)
    r = catalog().combat.reactor
    kept = plans
    if unit.stance == "aggressive" and any(_fires(p) for p in plans):
        # it braces only with an AP it could not fire with
        most = max(_shots(p) for p in plans)
        kept = [p for p in plans if not _has(p, Brace) or _shots(p) >= most]
        calm = [p for p in kept if not _has(p, Vent)]
        # venting only to escape a certain shutdown
        if calm and calm[0].stress * 100 < output * r.auto_shutdown_percent:
            kept = calm
    vent_from = VENT_FROM[unit.stance]
    if vent_from is not None and kept and not _has(kept[0], Vent) and unit.stress > 0:
        line = vent_from * output
        if kept[0].stress >= line:
            venting = [p for p in kept if _has(p, Vent) and p.stress < line]
            if venting:
                kept = venting
    exposed = bool(kept) and kept[0].part("received") < 0 and not _shields(kept[0])
    if below_brace_line(unit) and exposed and not unit.braced and not unit.ecm_active:
        shielded = [p for p in kept if _shields(p) or p.part("received") == 0]
        if shielded:
            kept = shielded
    return kept or plans


def _targets(plan: Plan) -> set[str]:
    return {c.target for c in plan.commands if isinstance(c, (FireGroup, CalledShot))}


def priority_pick(plans: list[Plan], unit: Unit, battle_units: dict[str, Unit]) -> Plan:
    """§10.3: when the best plan fires, the best plan worth at least PRIORITY_WINDOW of it that
    fires at the target the frame's priority ranks first (all its fire at it, when such a plan
    is in the window)."""
    best = plans[0]
    if not _fires(best):
        return best
    floor = best.value - (1 - PRIORITY_WINDOW) * abs(best.value)
    window = [p for p in plans if _fires(p) and p.value >= floor]
    key = PRIORITY_KEY[unit.priority]
    first = min(
        (p.target for p in window if p.target is not None),
        key=lambda t: (*key(battle_units[t]), t),
    )
    return next(
        (p for p in window if _targets(p) == {first}),
        next(p for p in window if p.target == first),
    )


def choose(
    plans: list[Plan], unit: Unit, battle_units: dict[str, Unit]
) -> tuple[Plan, tuple[Plan, ...]]:
    """The plan the frame plays, and every plan best first."""
    ranked = sorted(plans, key=lambda p: -p.value)  # stable: generation order breaks ties
    allowed = stance_filter(ranked, unit)
    return priority_pick(allowed, unit, battle_units), tuple(ranked)
