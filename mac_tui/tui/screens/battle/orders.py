"""The orders of the action bar that may need a choice first: overwatch with which group,
which equipment (and on which frame, or where to jump), withdraw or not. Each answers with a
`Reaction` (modes.py) built from the commands the engine accepts now."""

from __future__ import annotations

from ....catalog import catalog
from ....combat.commands import Overwatch, UseEquipment, Withdraw
from ....combat.state import Unit
from .modes import Ask, Confirm, Jumping, Reaction
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
