"""The whole battle's history: every order of both sides with the events it brought.

Nothing of it is stored in the game state or the save: the save's command log is the record.
While a battle is played the screen adds each accepted order (`BattleHistory.add`); a battle
opened from a save is rebuilt by `rebuild`, which replays the save's commands from the seed
and keeps those of the last battle (the engine gives the same events again: same seed, same
commands, same game). A save made under older rules cannot be replayed exactly; its history
starts where the game was opened and says so (`note`).

`lines(battle, ...)` puts the orders into words (tui/battle_text.py's `Narrator`, in its full
form: every roll with its modifiers): an order's first line names its number and who gave it.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from ..combat.state import Battle
from ..combat.view import visible_events
from ..game import RULES_VERSION, Accepted, Command, Event, step
from ..model import GameState, initial_state
from .battle_text import Narrator

OLDER_RULES = (
    "This save was played under older rules, so its battle cannot be replayed: the history "
    "starts where the game was opened."
)


@frozen
class Order:
    """One accepted command of the battle and what it did."""

    number: int  # its place in the game's command log, from 1
    actor: str | None  # the frame whose activation it was (None: deployment, the battle's start)
    side: str | None  # that frame's side
    round: int
    events: tuple[Event, ...]


def order_of(number: int, before: GameState | None, events: Sequence[Event]) -> Order:
    """The order numbered `number`, given in `before` (the state it was given in)."""
    battle = before.battle if before is not None else None
    unit = battle.active_unit if battle is not None else None
    return Order(
        number=number,
        actor=unit.id if unit is not None else None,
        side=unit.side if unit is not None else None,
        round=battle.round if battle is not None else 0,
        events=tuple(events),
    )


class BattleHistory:
    """The orders of one battle, oldest first."""

    def __init__(self, orders: Sequence[Order] = (), note: str | None = None) -> None:
        self.orders: list[Order] = list(orders)
        self.note = note
        self._lines: tuple[tuple[int, bool, int], list[str]] | None = None

    def add(self, order: Order) -> None:
        if self.orders and order.number <= self.orders[-1].number:
            return  # already there (a rebuild caught up with it)
        self.orders.append(order)

    def merged(self, later: BattleHistory) -> BattleHistory:
        """This history with the orders of `later` that come after its own."""
        out = BattleHistory(self.orders, self.note)
        for order in later.orders:
            out.add(order)
        return out

    def events(self) -> list[Event]:
        return [e for o in self.orders for e in o.events]

    def lines(self, battle: Battle | None, *, ascii_glyphs: bool) -> list[str]:
        """Every order in the history's words, an order's lines after a heading line."""
        key = (len(self.orders), ascii_glyphs, id(battle))
        if self._lines is not None and self._lines[0] == key:
            return self._lines[1]
        narrator = Narrator(battle, ascii_glyphs=ascii_glyphs, detail=True)
        out: list[str] = [self.note] if self.note else []
        for order in self.orders:
            for event in order.events:
                out.extend(narrator.lines(event))
        self._lines = (key, out)
        return out


def battle_opened(before: GameState | None, after: GameState) -> bool:
    """Did this command put a new battle in the game?"""
    return after.battle is not None and (before is None or before.battle is None)


def rebuild(seed: int, commands: Sequence[Command], rules_version: int) -> BattleHistory:
    """The history of the last battle of a game, from its seed and command log."""
    if rules_version != RULES_VERSION:
        return BattleHistory(note=OLDER_RULES)
    state = initial_state(seed)
    orders: list[Order] = []
    for number, command in enumerate(commands, start=1):
        outcome = step(state, command)
        if not isinstance(outcome, Accepted):
            return BattleHistory(note=OLDER_RULES)
        if battle_opened(state, outcome.state):
            orders = []  # a new battle: the command that opened it is none of its orders
        elif state.battle is not None:  # O8.10: what the player's screen showed
            shown = visible_events(outcome.state.battle, outcome.events, "player")
            orders.append(order_of(number, state, shown))
        state = outcome.state
    return BattleHistory(orders)
