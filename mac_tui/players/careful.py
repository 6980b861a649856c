"""A careful commander: the battle AI fighting for the player, who orders the withdrawal (R14)
when one of the lance's frames is about to be lost with its pilot.

The player's side never withdraws on its own (R14: the player orders it). A careful player
orders it, on one of its frames' activations, as soon as a frame of the lance that is still
in the fight has its head bare (the next head hit destroys it and risks the pilot, §4.6) or
its centre torso armour down to `BARE_CT_PERCENT` percent of its full armour (the frame, and
with it the pilot's life at §9.2's odds, is a few hits from lost). The contract then pays its
withdrawal share (§11.6) and nobody else dies. `mac-tui script`'s `auto-battle careful` line
and the campaign autopilot's sensible strategy fight this way (`players/autopilot.py`); these
are a player's habits, not rules.
"""

from __future__ import annotations

from ..combat.commands import Withdraw
from ..combat.state import CENTER_TORSO, HEAD, Battle, Unit
from ..combat.stats import armor_split, chassis_of
from ..game import to_act
from ..model import GameState
from .policy import Decision, Policy

BARE_CT_PERCENT = 40  # centre torso armour at or below this share of full: withdraw


def in_danger(unit: Unit) -> bool:
    """A frame still in the fight whose head is bare or whose centre torso armour is down
    to `BARE_CT_PERCENT` percent of full."""
    if not unit.active:
        return False
    full = armor_split(chassis_of(unit))
    return (
        unit.armor[HEAD] <= 0
        or unit.armor[CENTER_TORSO] * 100 <= full[CENTER_TORSO] * BARE_CT_PERCENT
    )


def should_withdraw(battle: Battle) -> bool:
    """The player's lance has a frame in danger while the enemy still fights."""
    if battle.phase != "combat" or not battle.living("enemy"):
        return False
    return any(in_danger(u) for u in battle.side_units("player"))


def careful(policy: Policy) -> Policy:
    """`policy`, except that on the player's activations it orders the withdrawal when a
    frame of the lance is in danger (`should_withdraw`)."""

    def decide(state: GameState) -> Decision:
        battle = state.battle
        if (
            battle is not None
            and to_act(state).side == "player"
            and to_act(state).unit is not None
            and should_withdraw(battle)
        ):
            return Decision(Withdraw(), note="careful: a frame is in danger, withdraw (R14)")
        return policy(state)

    return decide
