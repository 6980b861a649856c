"""O10.5: how the third parties play. They are AI players of this layer, seated on their sides
whatever seats the player's and the enemy's sides have (`driver.policy_to_act`).

- **Allies**: the battle AI (CORE §10) with their O10.5 stance and priority (Balanced, Focus
  Fire, set on the frames when the lance is built); their foes are the enemy's
  (`Battle.foes`), and they never fire at neutrals that hold no grudge against them.
- **Neutrals**: while they hold a grudge against no side (`Battle.grudge_target` is None) they
  Brace and hold their hexes; from then on the battle AI (Defensive, Threat), whose foes are
  the side with the highest grudge only.
- Retreat at 50% / 25% is the side's §10.4 rule, applied by the engine at the round's end.
"""

from __future__ import annotations

from ...combat.commands import Brace, EndActivation
from ...game import refusal
from ...model import GameState
from ..policy import Decision, Policy
from . import policy_for


def third_party_policy(tactics: int | None = None) -> Policy:
    """The third parties' policy: O10.5's waiting neutrals, else the battle AI."""
    planner = policy_for(tactics)

    def decide(state: GameState) -> Decision:
        battle = state.battle
        unit = None if battle is None else battle.active_unit
        waiting = unit is not None and unit.side == "neutral" and battle is not None
        if waiting and battle is not None and unit is not None and battle.grudge_target() is None:
            # O10.5: brace and hold until provoked
            if refusal(state, Brace()) is None:
                return Decision(Brace(), note=f"{unit.id} neutral: braces and holds")
            return Decision(EndActivation(), note=f"{unit.id} neutral: holds its hex")
        return planner(state)

    return decide


#: The policy every battle seats on its allies and neutrals (O10.5).
THIRD_PARTY: Policy = third_party_policy()
