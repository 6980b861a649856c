"""The policy interface: a player is a function from the game state to a `Decision`.

A policy reads the state (never changes it) and answers the command it plays, with its
explanation: the options it weighed, each with its value, and a note. A driver
(`players/driver.py`) asks the policy seated on the side that must act (`game.to_act`) and
passes the command to the engine like a human's, so a command log replays an AI's game exactly.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from ..core import Command
from ..model import GameState


@frozen
class Option:
    """One option a policy weighed, explained: its commands (text, in order: a plan for the
    rest of the activation), its value, and the named parts the value is the sum of."""

    plan: tuple[str, ...]
    value: float
    parts: tuple[tuple[str, float], ...] = ()


@frozen
class Decision:
    """A policy's choice: the command, the best options it weighed as (command text, value),
    a note (who acted, why), and, when the policy explains itself, its best options with what
    their values are made of (`why`, best first; the chosen plan is the first)."""

    command: Command
    options: tuple[tuple[str, float], ...] = ()
    note: str = ""
    why: tuple[Option, ...] = ()


#: `decide(state) -> Decision`, called only when the policy's side must act.
Policy = Callable[[GameState], Decision]
