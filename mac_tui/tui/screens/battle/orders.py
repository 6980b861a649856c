"""The orders of the action bar that may need a choice first: overwatch with which group,
which equipment (and on which frame, or where to jump), withdraw or not. Each answers with a
`Reaction` (modes.py) built from the commands the engine accepts now."""

from __future__ import annotations

from ....catalog import catalog
from ....combat import facing, preview
from ....combat.commands import Deploy, Overwatch, Turn, UseEquipment, Withdraw
from ....combat.state import Unit
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


def overwatch(m: Moment) -> Reaction:
    """Overwatch with the one group that can, or ask which."""
    groups = sorted({c.group for c in m.legal if isinstance(c, Overwatch)})
    if len(groups) == 1:
        return Overwatch(groups[0])
    unit = m.actor
    if unit is None or not groups:
        return None
    options = tuple((str(g), f"Group {g}: {group_names(unit, g)}") for g in groups)
    return Ask("Overwatch with which group?", options, lambda g: Overwatch(int(g)))


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
