"""Plumbing shared by the campaign handlers: fetching the campaign, refusing with a reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import attrs
from attrs import frozen

from ..core import Accepted, Check, Checks, Command, Event, Handlers, Outcome, Refused
from ..dice import Dice
from ..model import GameState
from .state import Campaign

C = TypeVar("C", bound=Command)
Change = tuple[Campaign, list[Event]]
CampaignFn = Callable[[Campaign, C, Dice], Change | str]
#: Why a campaign command would be refused, once the campaign exists and nothing blocks it.
CampaignCheck = Callable[[Campaign, Any], str | None]


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


@frozen
class CampaignHandler(Generic[C]):
    """The handler of a campaign command made of `fn(campaign, command, dice) -> (campaign,
    events) | reason`: it runs only when a campaign exists and nothing blocks it (see
    `campaign_refusal`; `in_mission` / `in_debrief` let it run during a mission or with the
    after-action report open), and never changes the state when it returns a reason."""

    fn: CampaignFn[C]
    in_mission: bool = False
    in_debrief: bool = False

    def gate(self, state: GameState) -> str | None:
        """Why no command of this kind can run now, before looking at the command."""
        return campaign_refusal(state, in_mission=self.in_mission, in_debrief=self.in_debrief)

    def checked(self, check: CampaignCheck) -> Check:
        """`check` behind this handler's gate: the whole reason the handler would refuse
        with, when `check` is the check `fn` starts with and `fn` refuses nothing else."""

        def refusal(state: GameState, cmd: C) -> str | None:
            reason = self.gate(state)
            if reason:
                return reason
            assert state.campaign is not None
            return check(state.campaign, cmd)

        return refusal

    def __call__(self, state: GameState, cmd: C) -> Outcome:
        reason = self.gate(state)
        if reason:
            return Refused(reason)
        assert state.campaign is not None
        dice = Dice(state.rng)
        out = self.fn(state.campaign, cmd, dice)
        if isinstance(out, str):
            return Refused(out)
        campaign, events = out
        return Accepted(attrs.evolve(state, campaign=campaign, rng=dice.state()), tuple(events))


def campaign_handler(
    fn: CampaignFn[Any], *, in_mission: bool = False, in_debrief: bool = False
) -> CampaignHandler[Any]:
    """`CampaignHandler(fn, ...)`, for the families' `HANDLERS` tables."""
    return CampaignHandler(fn, in_mission=in_mission, in_debrief=in_debrief)


def campaign_checks(handlers: Handlers, checks: Mapping[type[Command], CampaignCheck]) -> Checks:
    """A family's `CHECKS`: each check behind the gate of its command's `CampaignHandler`."""
    out: dict[type[Command], Check] = {}
    for cls, check in checks.items():
        handler = handlers[cls]
        assert isinstance(handler, CampaignHandler), cls
        out[cls] = handler.checked(check)
    return out


def split(text: str) -> list[str]:
    """A `+`-joined list from a command's text form (`-` or empty = none)."""
    if text in ("", "-"):
        return []
    return text.split("+")
