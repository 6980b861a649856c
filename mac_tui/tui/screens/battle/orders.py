"""The orders of the action bar that may need a choice first: overwatch with which group,
which equipment (and on which frame, or where to jump), withdraw or not. Each answers with a
`Reaction` (modes.py) built from the commands the engine accepts now."""

from __future__ import annotations

from collections.abc import Callable

from ....catalog import catalog
from ....combat import elevation, facing, preview, reaction
from ....combat.commands import (
    Deploy,
    Overwatch,
    ReactionFire,
    Sweep,
    Turn,
    UseEquipment,
    Withdraw,
)
from ....combat.events import DIRECTION_NAMES
from ....combat.state import Battle, Unit
from .modes import Ask, Confirm, Jumping, Reaction, Say
from .moment import Moment

WITHDRAW_QUESTION = (
    "Withdraw from the battle? The lance leaves the field: the battle counts as a "
    "withdrawal, not a defeat."
)


def group_names(unit: Unit, group: int) -> str:
    cat = catalog()
    return ", ".join(
        cat.weapons[w.weapon].abbrev for _, w in unit.live_weapons() if w.group == group
    )


def _pick_group(
    unit: Unit | None, groups: list[int], question: str, then: Callable[[int], Reaction]
) -> Reaction:
    """The one group that can, or ask which (each named with its weapons)."""
    if len(groups) == 1:
        return then(groups[0])
    if unit is None or not groups:
        return None
    options = tuple((str(g), f"Group {g}: {group_names(unit, g)}") for g in groups)
    return Ask(question, options, lambda g: then(int(g)))


def overwatch(m: Moment) -> Reaction:
    """Overwatch with the one group that can, or ask which."""
    groups = sorted({c.group for c in m.legal if isinstance(c, Overwatch)})
    return _pick_group(m.actor, groups, "Overwatch with which group?", Overwatch)


def reaction_fire(m: Moment) -> Reaction:
    """O6.2: arm a cone: which group (when more than one may), then which way (each
    direction the frame may point, with the enemies its cone holds now, nearest first)."""
    cones = [c for c in m.legal if isinstance(c, ReactionFire)]
    unit, battle = m.actor, m.battle
    if not cones or unit is None or battle is None:
        return None

    def direction(group: int) -> Reaction:
        ways = sorted({c.direction for c in cones if c.group == group})
        options = tuple((str(d), _way(battle, unit, d)) for d in ways)
        return Ask(
            f"Reaction fire with group {group}: which way?",
            options,
            lambda d: ReactionFire(group, int(d)),
        )

    groups = sorted({c.group for c in cones})
    return _pick_group(unit, groups, "Reaction fire with which group?", direction)


def _way(battle: Battle, unit: Unit, d: int) -> str:
    """A direction's name and the enemies its cone holds now (`RAIDER-2 6`)."""
    here = unit.pos
    seen: list[tuple[int, str]] = []
    for e in battle.foes(unit.side):
        if here is not None and e.pos is not None and reaction.in_cone(unit, d, e.pos):
            seen.append((elevation.attack_distance(battle, here, e.pos), e.label))
    inside = ", ".join(f"{label} {dist}" for dist, label in sorted(seen)) or "no enemy now"
    return f"{DIRECTION_NAMES[d]}: {inside}"


def sweep(m: Moment) -> Reaction:
    """O6.6: sweep with the one group that can, or ask which (a Move comes next)."""
    groups = sorted({c.group for c in m.legal if isinstance(c, Sweep)})
    return _pick_group(m.actor, groups, "Sweep with which group?", Sweep)


def equipment(m: Moment) -> Reaction:
    """Use the one item there is, or ask which; an item that jumps goes to aiming the jump,
    one used on a frame asks on which."""
    uses = [c for c in m.legal if isinstance(c, UseEquipment)]
    items = sorted({c.equipment for c in uses})
    cat = catalog()

    def picked(item: str) -> Reaction:
        mine = [c for c in uses if c.equipment == item]
        if any(c.hex is not None for c in mine):
            return Jumping(item)
        if len(mine) == 1:
            return mine[0]
        battle = m.battle
        assert battle is not None
        options = tuple((c.target, battle.unit(c.target).label) for c in mine if c.target)
        return Ask(
            f"{cat.equipment[item].name}: on which frame?",
            options,
            lambda t: UseEquipment(item, t),
        )

    if not items:
        return None
    if len(items) == 1:
        return picked(items[0])
    options = tuple((i, cat.equipment[i].name) for i in items)
    return Ask("Use which equipment?", options, picked)


def withdraw(m: Moment) -> Reaction:
    return Confirm(WITHDRAW_QUESTION, "Withdraw", Withdraw())


def turn(m: Moment) -> Reaction:
    """O4.6: ask for the facing to turn to, each with the arcs the enemies would be in."""
    unit = m.actor
    battle = m.battle
    if unit is None or battle is None or unit.pos is None:
        return None
    here = unit.pos
    names = [c.facing for c in m.legal if isinstance(c, Turn)]
    if not names:
        return None
    options = []
    for name in names:
        d = facing.direction(name)
        assert d is not None
        seen = ", ".join(
            f"{e.label} {facing.arc_words(a)}" for e, a in preview.arcs_at(battle, unit, here, d)
        )
        options.append((name, f"{name:<2}  {seen}" if seen else name))
    return Ask(f"Turn {unit.label} (1 AP) to face:", tuple(options), lambda f: Turn(f))


def face_deployed(m: Moment, unit_id: str, step: int) -> Reaction:
    """O4.1: turn a placed frame where it stands (a frame not yet placed: say so)."""
    battle = m.battle
    if battle is None:
        return None
    unit = battle.unit(unit_id)
    if unit.facing is None:
        return None
    if unit.pos is None:
        return Say(f"Place {unit.label} first, then , and . turn it.", True)
    return Deploy(unit.id, unit.pos, facing.facing_name(unit.facing + step))
