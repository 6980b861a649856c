"""Optional module O9 on the battle screen: the standing formation order (F, in deployment and
in the player's activations), the pilots' abilities (C in deployment: the selected frame's;
U in an activation: use one; P while aiming: declare a Breach Shot with the shot). Each key
answers with a `Reaction` built from the commands the engine accepts now, and each greyed key
says the engine's reason (`combat/formations.py`'s checks)."""

from __future__ import annotations

from itertools import combinations

from ....combat import formations
from ....combat.commands import AssignAbilities, AutoAssign, FireGroup, SetFormation, UseAbility
from ....combat.state import Battle, Unit
from .modes import Ask, Deploying, Mode, Reaction
from .moment import Moment

__all__ = [
    "ability",
    "ability_refusal",
    "breach_refusal",
    "command",
    "command_refusal",
    "formation",
    "formation_refusal",
    "order_words",
]

AUTO = "auto"


def order_words(order: str, screens: tuple[str, ...], battle: Battle) -> str:
    """`Screening (screens Falcon)`, `Attack Line`, `no formation`."""
    name = formations.formation_name(order)
    if not screens:
        return name
    labels = ", ".join(battle.unit(s).label for s in screens)
    return f"{name} (screens {labels})"


def formation(m: Moment) -> Reaction:
    """Ask for the side's standing order among those the engine accepts now."""
    battle = m.battle
    orders = [c for c in m.legal if isinstance(c, SetFormation)]
    if battle is None or not orders:
        return None
    options = tuple(
        (f"{c.formation}:{'+'.join(c.screens)}", order_words(c.formation, c.screens, battle))
        for c in orders
    )

    def picked(value: str) -> Reaction:
        order, _, screens = value.partition(":")
        return SetFormation(order, tuple(s for s in screens.split("+") if s))

    current = battle.formation("player")
    now = order_words(current.order, current.screens, battle)
    return Ask(f"Standing formation order (now: {now}; from the next check)", options, picked)


def formation_refusal(mode: Mode, m: Moment) -> str | None:
    battle = m.battle
    if battle is None:
        return "the battle is over"
    if not m.orders:
        return "only in deployment or in one of your frames' activations"
    return "no other standing order can be given now"


def _held_options(battle: Battle, unit: Unit) -> list[tuple[str, ...]]:
    """Every set of abilities the pilot may hold now (O9.8: none, one, or two for Tactics 5+),
    in the data's order."""
    ids = [a.id for a in formations.rules().ability]
    n = formations.slots(unit.pilot.tactics)
    sets: list[tuple[str, ...]] = [()]
    for k in range(1, n + 1):
        sets += list(combinations(ids, k))
    return [
        s for s in sets if s == unit.abilities or formations.check_assign(battle, unit, s) is None
    ]


def command(mode: Mode, m: Moment) -> Reaction:
    """Deployment: which abilities the selected frame's pilot holds (or all as the AI
    assigns them)."""
    battle = m.battle
    if battle is None or not isinstance(mode, Deploying):
        return None
    unit = battle.unit(mode.unit)
    options: list[tuple[str, str]] = []
    for held in _held_options(battle, unit):
        if held != unit.abilities:
            words = ", ".join(formations.ability_name(a) for a in held) or "none"
            options.append(("+".join(held) or "-", words))
    if m.offers(AutoAssign):
        options.append((AUTO, "every pilot, as the AI assigns them"))

    def picked(value: str) -> Reaction:
        if value == AUTO:
            return AutoAssign()
        held = tuple(a for a in value.split("+") if a and a != "-")
        return AssignAbilities(unit.id, held)

    tactics = unit.pilot.tactics
    n = formations.slots(tactics)
    many = "ability" if n == 1 else "abilities"
    now = ", ".join(formations.ability_name(a) for a in unit.abilities) or "none"
    title = f"{unit.pilot.callsign} (Tactics {tactics}: {n} {many}) commands: {now}"
    return Ask(title, tuple(options), picked)


def command_refusal(mode: Mode, m: Moment) -> str | None:
    battle = m.battle
    if battle is None or not isinstance(mode, Deploying):
        return "abilities are assigned in deployment"
    unit = battle.unit(mode.unit)
    n = formations.slots(unit.pilot.tactics)
    if not n:
        return f"{unit.pilot.callsign}'s Tactics {unit.pilot.tactics} earns no ability (3+)"
    return None


def commands_offered(mode: Mode, m: Moment) -> bool:
    return command_refusal(mode, m) is None


def ability(m: Moment) -> Reaction:
    """Use the one ability the acting frame may use now, or ask which."""
    uses = [c for c in m.legal if isinstance(c, UseAbility)]
    if not uses:
        return None
    if len(uses) == 1:
        return uses[0]
    options = tuple((c.ability, formations.ability_name(c.ability)) for c in uses)
    return Ask("Use which ability (once per battle)?", options, UseAbility)


def ability_refusal(mode: Mode, m: Moment) -> str | None:
    """Why no ability can be used now: the engine's reason for the first held one."""
    battle, unit = m.battle, m.actor
    if battle is None or unit is None:
        return "only in one of your frames' activations"
    held = [a for a in unit.abilities if a != formations.BREACH_SHOT]
    if not held:
        if formations.BREACH_SHOT in unit.abilities:
            return "Breach Shot is declared with a shot: P while aiming"
        return f"{unit.pilot.callsign} holds no ability left to use"
    return formations.check_ability(battle, unit, held[0])


def breach_offered(m: Moment) -> bool:
    return any(isinstance(c, FireGroup) and c.breach for c in m.legal)


def breach_refusal(mode: Mode, m: Moment) -> str | None:
    unit = m.actor
    if unit is None:
        return "only in one of your frames' activations"
    return formations.check_breach(unit) or "no group can fire now"
