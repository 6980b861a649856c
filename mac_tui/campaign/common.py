"""Plumbing shared by the campaign handlers: fetching the campaign, refusing with a reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import attrs

from ..dice import Dice
from ..game import Accepted, Command, Event, Outcome, Refused, handles
from ..model import GameState
from .state import Campaign

C = TypeVar("C", bound=Command)
Change = tuple[Campaign, list[Event]]
CampaignFn = Callable[[Campaign, C, Dice], Change | str]


def campaign_refusal(
    state: GameState, *, in_mission: bool = False, in_debrief: bool = False
) -> str | None:
    """Why no campaign command of this kind can run now, or None."""
    c = state.campaign
    if c is None:
        return "start a campaign first: new-campaign NAME"
    if c.ended:
        return f"the run is over: {c.ended}"
    if c.mission is not None and not in_mission:
        return "a mission is under way: fight the battle first"
    if c.after_action is not None and not in_debrief:
        return "the after-action report is open: pick salvage (salvage ...) and close it (done)"
    return None


def campaign_command(
    cls: type[C], *, in_mission: bool = False, in_debrief: bool = False
) -> Callable[[CampaignFn[C]], CampaignFn[C]]:
    """Register `fn(campaign, command, dice) -> (campaign, events) | reason` as the handler of
    `cls`: it runs only when a campaign exists and nothing blocks it, and never changes the
    state when it returns a reason."""

    def register(fn: CampaignFn[C]) -> CampaignFn[C]:
        def handler(state: GameState, cmd: C) -> Outcome:
            reason = campaign_refusal(state, in_mission=in_mission, in_debrief=in_debrief)
            if reason:
                return Refused(reason)
            assert state.campaign is not None
            dice = Dice(state.rng)
            out = fn(state.campaign, cmd, dice)
            if isinstance(out, str):
                return Refused(out)
            campaign, events = out
            return Accepted(attrs.evolve(state, campaign=campaign, rng=dice.state()), tuple(events))

        handles(cls)(handler)
        return fn

    return register


def split(text: str) -> list[str]:
    """A `+`-joined list from a command's text form (`-` or empty = none)."""
    if text in ("", "-"):
        return []
    return text.split("+")
