"""A player that picks uniformly among the legal commands: a baseline for the AI."""

from __future__ import annotations

from ..combat.commands import Withdraw
from ..dice import raw
from ..game import legal_commands
from ..model import GameState
from .policy import Decision

STREAM = "random-player"


def random_policy(state: GameState) -> Decision:
    """A uniform pick among `game.legal_commands` (drawn from `dice.raw`, a pure function of
    the state); in a battle it never orders the withdrawal, so it always fights it out."""
    options = [c for c in legal_commands(state) if not isinstance(c, Withdraw)]
    pick = raw(state.seed, STREAM, state.commands_applied) % len(options)
    return Decision(options[pick], note="random")
