"""Optional module O11 in the battle AI (O11.10): playing the player's side (auto-battle), it
scores the OB5 objective hex and the OB6 marked building as goals; no other objective needs
play of its own. The enemy side never scores them, and a hidden objective is not known to the
side until it is met (it is then done).

* `seize_target` — OB5: the frame of the player's side nearest the objective hex (ties: the
  battle's unit order) values each place it can end at `SEIZE` per hex nearer the hex (the
  plan part `objective`), so it walks there and holds it while the planner's other parts
  (fire drawn, cover) still count; standing on it is worth `HOLD`.
* `demolition_shot` — OB6: a frame with nothing left to do this activation fires a group at the
  marked building when the order is legal and no frame of its side stands on it.
"""

from __future__ import annotations

from typing import Final

from ...combat.commands import FireStructure
from ...combat.legal import legal_commands
from ...combat.state import Battle, Unit
from ...core import Command
from ...hexgrid import Hex, distance
from ...model import GameState

__all__ = ["HOLD", "SEIZE", "demolition_shot", "seize_target", "seize_value"]

#: The value of one hex nearer the objective hex for the frame that goes for it (the band's
#: pull is 0.6 a hex: the objective pulls harder) ...
SEIZE: Final = 1.0
#: ... and of standing on it.
HOLD: Final = 3.0


def seize_value(at: Hex, goal: Hex) -> float:
    """The `objective` part of a plan ending at `at` for the frame going for `goal`."""
    d = distance(at, goal)
    return HOLD if d == 0 else -SEIZE * d


def _goal(battle: Battle, objective: str) -> Hex | None:
    """The hex of an objective the player's side knows and has not met yet, or None."""
    for o in battle.objectives:
        if o.id == objective and not o.met and not o.hidden and o.hex is not None:
            return o.hex
    return None


def seize_target(battle: Battle, unit: Unit) -> Hex | None:
    """OB5's hex when `unit` is the player's side's frame nearest it, else None."""
    if unit.side != "player" or not battle.objectives:
        return None
    goal = _goal(battle, "OB5")
    if goal is None:
        return None
    mine = [
        (distance(u.pos, goal), battle.index(u.id), u.id)
        for u in battle.living("player")
        if u.pos is not None
    ]
    return goal if mine and min(mine)[2] == unit.id else None


def demolition_shot(state: GameState) -> Command | None:
    """OB6: a legal `fire-at` at the marked building by the active frame of the player's side,
    the group that fires first in the legal list, or None."""
    battle = state.battle
    if battle is None or not battle.objectives or battle.active_unit is None:
        return None
    unit = battle.active_unit
    goal = _goal(battle, "OB6")
    if unit.side != "player" or goal is None:
        return None
    if any(u.pos == goal for u in battle.living(unit.side)):
        return None  # never bring a roof down under its own frame
    for order in legal_commands(state, only=(FireStructure,)):
        if isinstance(order, FireStructure) and order.hex == goal:
            return order
    return None
