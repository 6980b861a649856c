"""Optional module O3: what a `fire-at` order would do, as a `preview.FirePreview` (the target
panel draws it like a shot at a frame): the section (its `features.structure_key` as the
target), the line with its features, each weapon's O3.6 chance and why it holds fire, and
the durability the volley is expected to take (a miss re-rolled once: 1 - (1 - p)^2 per shot,
O3.3's Volatile and Reinforced included)."""

from __future__ import annotations

from ..hexgrid import Hex, distance
from . import stats
from .features import section_at, structure_key
from .preview import (
    DESTROYED,
    FirePreview,
    WeaponPreview,
    fire_ap_cost,
    los_steps,
    overload_after,
    shots_left,
)
from .state import Battle, Unit
from .structures import check_fire_structure, damage_to, plan_fire_structure, structure_chance

__all__ = ["structure_fire_preview"]


def structure_fire_preview(battle: Battle, unit: Unit, group: int, h: Hex) -> FirePreview:
    """`unit` fires `group` at the section on `h`: `check_fire_structure` and its plan, weapon
    by weapon, without firing."""
    check = check_fire_structure(battle, unit, group, h)
    refusal = check if isinstance(check, str) else None
    section = section_at(battle.structures, h)
    plan = check if not isinstance(check, str) else plan_fire_structure(battle, unit, group, h)
    reasons = dict(plan.skipped)
    weapons: list[WeaponPreview] = []
    expected = 0.0
    for index, ws in enumerate(unit.weapons):
        if ws.group != group:
            continue
        w = stats.weapon_of(ws)
        chance = structure_chance(battle, unit, ws, h) if section is not None else None
        if ws.destroyed:
            skipped: str | None = DESTROYED
        elif index in plan.shots:
            skipped = None
        else:
            skipped = reasons.get(index, "does not fire")
        exp = 0.0
        if skipped is None and chance is not None and section is not None:
            miss = (100 - chance.chance) / 100
            exp = (1 - miss * miss) * damage_to(section, ws.weapon, w.damage)
            expected += exp
        weapons.append(
            WeaponPreview(
                index=index,
                weapon=ws.weapon,
                name=w.name,
                abbrev=w.abbrev,
                chance=chance,
                expected=exp,
                skipped=skipped,
                ammo=shots_left(unit, index),
            )
        )
    left = stats.energy_left(unit)
    pos = unit.pos
    return FirePreview(
        attacker=unit.id,
        target=structure_key(h),
        group=group,
        location=None,
        distance=distance(pos, h) if pos is not None else 0,
        los=los_steps(battle, pos, h) if pos is not None else (),
        weapons=tuple(weapons),
        expected=expected,
        energy=plan.energy,
        energy_left=left,
        energy_after=left - plan.energy,
        overload_after=overload_after(unit, plan.energy),
        ap_cost=fire_ap_cost(None),
        refusal=refusal,
    )
