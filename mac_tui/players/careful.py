"""A careful commander: the battle AI fighting for the player, who orders the withdrawal (R14)
when one of the lance's frames is about to be lost with its pilot.

The player's side never withdraws on its own (R14: the player orders it). A careful player
orders it, on one of its frames' activations, as soon as a frame of the lance that is still
in the fight has its centre torso armour down to `THIN_CT_PERCENT` percent of full (a few hits
from a breached reactor: the frame lost and its pilot dead at §9.2's odds), or has its head
bare while an enemy pilot who calls shots (Tactics `CALLED_SHOTS_TACTICS`, AI3) is still
fighting (a called shot at the head, §4.6). The contract then pays its withdrawal share (§11.6)
and nobody else dies. `mac-tui script`'s `auto-battle careful` line and the campaign
autopilot's sensible strategy fight this way (`players/autopilot.py`); these are a player's
habits, not rules.
"""

from __future__ import annotations

from ..combat.commands import Withdraw
from ..combat.state import CENTER_TORSO, HEAD, Battle, Unit
from ..combat.stats import armor_split, chassis_of
from ..game import to_act
from ..model import GameState
from .ai.skill import CALLED_SHOTS_TACTICS
from .policy import Decision, Policy

THIN_CT_PERCENT = 40  # centre torso armour at or below this share of full: withdraw


def in_danger(unit: Unit, marksmen: bool) -> bool:
    """A frame still in the fight whose centre torso armour is down to `THIN_CT_PERCENT`
    percent of full, or whose head armour is gone while the enemy has `marksmen` (pilots who
    call shots)."""
    if not unit.active:
        return False
    full = armor_split(chassis_of(unit))[CENTER_TORSO]
    thin = unit.armor[CENTER_TORSO] * 100 <= full * THIN_CT_PERCENT
    return thin or (marksmen and unit.armor[HEAD] <= 0)


def should_withdraw(battle: Battle) -> bool:
    """The player's lance has a frame in danger while the enemy still fights."""
    enemies = battle.living("enemy")
    if battle.phase != "combat" or not enemies:
        return False
    marksmen = any(e.pilot.tactics >= CALLED_SHOTS_TACTICS for e in enemies)
    return any(in_danger(u, marksmen) for u in battle.side_units("player"))


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
