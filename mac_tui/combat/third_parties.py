"""Optional module O10, third parties: allied and neutral lances in a battle.

The sides and who fights whom live on `Battle` (`state.friendly`, `Battle.hostile`,
`Battle.may_attack`, `Battle.grudge_target`); this module holds the rest of the rules that
every layer shares, and every function answers as the core game while the battle's ruleset
leaves O10 off (no draw, no event, no change):

- O10.3 `segment_rank`: the initiative's tie-break after Speed and Piloting;
- O10.4 `place_neutrals` (at set-up, from the `map` stream) and `place_allies` (when the
  player starts the battle, in the player's zone nearest its middle row, no draw);
- O10.5 `note_damage`: a side's grudge grows by the armour + structure it takes off a neutral
  frame, with a `Grudge` event;
- O10.6 `leave`: a withdrawing third party's frames go off the map (`Unit.left`), with a
  `SideLeft` event; `allies_leave` when the player withdraws.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs
from attrs import frozen

from ..catalog import catalog
from ..core import Event
from ..dice import MAP, Dice
from ..hexgrid import Hex
from .events import Deployed
from .features import section_at
from .state import Battle, Side, SideGrudge, Unit

O10 = "O10"
#: The terrain of the hexes neutrals may be placed on (O10.4: featureless Open).
OPEN = "open"


def on(battle: Battle) -> bool:
    """Whether the battle plays module O10."""
    return battle.rule(O10)


# ---- events (O10.8) -------------------------------------------------------------------------
@frozen
class Grudge(Event):
    """O10.5, O10.8 `Grudge`: `side` took `added` armour + structure off neutral frames; its
    grudge is now `amount`, and the neutrals fire at `target` (the highest grudge)."""

    side: str
    amount: int
    added: int
    target: str | None

    def describe(self) -> str:
        aim = f"; the neutrals now fight the {self.target} side" if self.target else ""
        return f"Neutral grudge against the {self.side} side: {self.amount} (+{self.added}){aim}"


@frozen
class SideLeft(Event):
    """O10.6, O10.8: a third party's frames leave the map at the end of the round (its own
    withdrawal, `rule`), or the allies go with the player's withdrawal (`rule` "player")."""

    side: str
    rule: str
    frames: tuple[str, ...]
    round: int

    def describe(self) -> str:
        why = "with the player's withdrawal" if self.rule == "player" else self.rule
        why = why.replace("_", " ")
        return f"The {self.side} side leaves the field ({why}): {', '.join(self.frames)}"


# ---- O10.3 initiative --------------------------------------------------------------------------
def segment_rank(battle: Battle, side: Side) -> int:
    """O10.3: the side's place among FM's segments (player, ally, neutral, enemy); 0 for every
    side with O10 off, so the core order stands."""
    if not on(battle):
        return 0
    return catalog().third_parties.initiative.segments.index(side)


# ---- O10.4 deployment --------------------------------------------------------------------------
def neutral_hexes(battle: Battle) -> list[Hex]:
    """O10.4: the free, featureless Open hexes of the two middle columns, row-major."""
    bmap = battle.map
    mid = bmap.width // 2
    taken = battle.occupied()
    return [
        h
        for h in bmap.grid.hexes()
        if bmap.grid.column(h) in (mid - 1, mid)
        and h not in taken
        and bmap.terrain_at(h) == OPEN
        and section_at(battle.structures, h) is None
    ]


def place_neutrals(battle: Battle, dice: Dice) -> Battle:
    """O10.4: each neutral frame on a hex drawn from `neutral_hexes` (`map` stream), in unit
    order; should those run out, on a free hex of the two middle columns (ruling O10b)."""
    for unit in battle.side_units("neutral"):
        free = neutral_hexes(battle)
        if not free:
            mid = battle.map.width // 2
            taken = battle.occupied()
            free = [
                h
                for h in battle.map.grid.hexes()
                if battle.map.grid.column(h) in (mid - 1, mid) and h not in taken
            ]
        if free:
            battle = battle.with_unit(attrs.evolve(unit, pos=dice.choice(MAP, free)))
    return battle


def ally_hexes(battle: Battle) -> list[Hex]:
    """O10.4: the player's zone's free hexes, nearest its middle row first (ties: the front
    column, then the upper row: ruling O10b)."""
    bmap = battle.map
    mid = bmap.height // 2
    taken = battle.occupied()
    return sorted(
        (h for h in bmap.deployment_hexes("player") if h not in taken),
        key=lambda h: (abs(bmap.grid.row(h) - mid), -bmap.grid.column(h), h.r),
    )


def place_allies(battle: Battle) -> tuple[Battle, list[Event]]:
    """O10.4: the allies, placed after the player, on `ally_hexes` in unit order (no draw)."""
    events: list[Event] = []
    waiting = [u for u in battle.side_units("ally") if u.pos is None]
    for unit, h in zip(waiting, ally_hexes(battle), strict=False):
        battle = battle.with_unit(attrs.evolve(unit, pos=h))
        events.append(Deployed(unit=unit.id, hex=h))
    return battle, events


# ---- O10.5 grudges -----------------------------------------------------------------------------
def _points(unit: Unit) -> int:
    return unit.total_armor + unit.total_structure


def note_damage(battle: Battle, attacker: Unit, before: Unit) -> tuple[Battle, list[Event]]:
    """O10.5: after a hit of `attacker` on `before` (the target as it was), a neutral target's
    lost armour + structure adds to the attacker's side's grudge (kept in the order the sides
    first hurt neutrals), with a `Grudge` event. Nothing with O10 off or another target."""
    if before.side != "neutral" or attacker.side == "neutral" or not on(battle):
        return battle, []
    added = _points(before) - _points(battle.unit(before.id))
    if added <= 0:
        return battle, []
    side = attacker.side
    grudges = list(battle.grudges)
    for i, g in enumerate(grudges):
        if g.side == side:
            grudges[i] = SideGrudge(side=side, amount=g.amount + added)
            break
    else:
        grudges.append(SideGrudge(side=side, amount=added))
    battle = attrs.evolve(battle, grudges=tuple(grudges))
    event = Grudge(
        side=side, amount=battle.grudge(side), added=added, target=battle.grudge_target()
    )
    return battle, [event]


# ---- O10.6 leaving -----------------------------------------------------------------------------
def leave(battle: Battle, side: Side, rule: str) -> tuple[Battle, list[Event]]:
    """O10.6: the side's frames on the field leave the map (not destroyed)."""
    gone = [u for u in battle.side_units(side) if u.active]
    if not gone:
        return battle, []
    for unit in gone:
        battle = battle.with_unit(attrs.evolve(unit, left=True))
    frames = tuple(u.id for u in gone)
    return battle, [SideLeft(side=side, rule=rule, frames=frames, round=battle.round)]


def allies_leave(battle: Battle) -> tuple[Battle, list[Event]]:
    """O10.6: a player withdrawal takes the allies along."""
    if not on(battle):
        return battle, []
    return leave(battle, "ally", "player")


def third_sides(battle: Battle) -> Iterable[Side]:
    """The battle's third parties present (O10.2), in side order."""
    return tuple(info.side for info in battle.sides if info.side in ("ally", "neutral"))


__all__ = [
    "O10",
    "Grudge",
    "SideLeft",
    "allies_leave",
    "ally_hexes",
    "leave",
    "neutral_hexes",
    "note_damage",
    "on",
    "place_allies",
    "place_neutrals",
    "segment_rank",
    "third_sides",
]
