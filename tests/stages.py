"""Game states the terminal-app tests open screens on, played once through the engine.

Seed 1: contract C1 (difficulty 3) is on the first board and the starting lance wins it
(fought by the first AI, `ai_v1`, so the stages stay where they are while the AI improves).
"""

from __future__ import annotations

import attrs

from mac_tui.campaign.commands import Accept, Dismiss, NewCampaign, Salvage
from mac_tui.game import Accepted, Command
from mac_tui.players.ai_v1 import decide  # pinned: the stages and snapshots are made with it
from mac_tui.session import Session

SEED = 1


@attrs.frozen
class Stages:
    fresh: Session  # a new company, day 1
    battle: Session  # contract C1 accepted with F1+F2: the battle about to start
    after_action: Session  # the battle won, the salvage not yet picked
    hub: Session  # salvage taken, report dismissed: back at the hub with a mission behind


def play(session: Session, *commands: Command) -> Session:
    for command in commands:
        outcome = session.apply(command)
        assert isinstance(outcome, Accepted), (command.to_text(), outcome)
    return session


def copy(session: Session) -> Session:
    """A session of its own for one app (states are immutable; the logs are copied)."""
    return Session(session.state, session.commands, session.checkpoints)


def build_stages() -> Stages:
    fresh = play(Session.new(SEED), NewCampaign("Iron"))
    battle = play(copy(fresh), Accept("C1", 2, "F1+F2"))
    after_action = copy(battle)
    while after_action.state.battle is not None:
        play(after_action, decide(after_action.state).command)
    hub = play(copy(after_action), Salvage("1+2"), Dismiss())
    return Stages(fresh, battle, after_action, hub)
