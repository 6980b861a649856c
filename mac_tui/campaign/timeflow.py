"""Time (§13.1, §11.4, §9.2, R28): each day charges upkeep, heals pilots, works on frames,
refreshes the local market and contracts, and checks the roguelike end."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..core import Checks, Event, Handlers
from ..dice import Dice
from . import ledger
from .calendar import date_text
from .commands import AdvanceDay
from .common import campaign_checks, campaign_handler
from .events import CampaignEnded, Report
from .runend import end_if_finished
from .state import Campaign, Frame, Pilot


def frame_upkeep(frame: Frame) -> int:
    """§11.4: one frame's daily upkeep, its class upkeep; nothing once Destroyed."""
    if frame.status == "destroyed":
        return 0
    cat = catalog()
    return cat.classes[cat.chassis[frame.chassis].class_].upkeep


def daily_upkeep(campaign: Campaign) -> int:
    """§11.4: every frame not Destroyed costs its class upkeep each day."""
    return sum(frame_upkeep(f) for f in campaign.frames)


def _tick_frame(frame: Frame) -> tuple[Frame, str | None]:
    if frame.busy_days <= 0:
        return frame, None
    left = frame.busy_days - 1
    if left > 0:
        return attrs.evolve(frame, busy_days=left), None
    if frame.status == "repairing":
        return attrs.evolve(frame, busy_days=0, status="ready"), f"{frame.name} is repaired"
    return attrs.evolve(frame, busy_days=0), f"{frame.name} is back from the refit bay"


def _tick_pilot(pilot: Pilot) -> tuple[Pilot, str | None]:
    if pilot.status != "injured":
        return pilot, None
    left = pilot.injury_days - 1
    if left > 0:
        return attrs.evolve(pilot, injury_days=left), None
    return attrs.evolve(pilot, injury_days=0, status="active"), f"{pilot.callsign} is fit again"


def pass_day(campaign: Campaign, dice: Dice) -> tuple[Campaign, list[Event]]:
    """One day: the date moves on, then upkeep, healing, work, market, contracts, R28."""
    from .contracts import ensure_contracts
    from .market import ensure_market

    events: list[Event] = []
    campaign = attrs.evolve(campaign, day=campaign.day + 1)
    upkeep = daily_upkeep(campaign)
    if upkeep:
        active = sum(1 for f in campaign.frames if f.status != "destroyed")
        campaign, moved = ledger.post(campaign, "upkeep", -upkeep, f"Upkeep, {active} frame(s)")
        events.append(moved)
    frames = []
    for f in campaign.frames:
        f, note = _tick_frame(f)
        frames.append(f)
        if note:
            events.append(Report(topic="repair", text=note))
    pilots = []
    for p in campaign.pilots:
        p, note = _tick_pilot(p)
        pilots.append(p)
        if note:
            events.append(Report(topic="pilots", text=note))
    # Most days most frames and pilots are as they were: their tuples kept when all are.
    if any(new is not old for new, old in zip(frames, campaign.frames, strict=True)):
        campaign = attrs.evolve(campaign, frames=tuple(frames))
    if any(new is not old for new, old in zip(pilots, campaign.pilots, strict=True)):
        campaign = attrs.evolve(campaign, pilots=tuple(pilots))
    campaign, more = ensure_market(campaign, dice)
    events.extend(more)
    campaign, more = ensure_contracts(campaign, dice)
    events.extend(more)
    negative = campaign.negative_days + 1 if campaign.credits < 0 else 0
    if negative != campaign.negative_days:
        campaign = attrs.evolve(campaign, negative_days=negative)
    limit = catalog().economy.failure.negative_credit_days
    if negative >= limit:
        cause = f"credits stayed below zero for {limit} days"
        campaign = attrs.evolve(campaign, ended=cause)
        events.append(CampaignEnded(cause=cause))
    else:
        campaign, more = end_if_finished(campaign)
        events.extend(more)
    return campaign, events


def pass_days(campaign: Campaign, days: int, dice: Dice) -> tuple[Campaign, list[Event]]:
    events: list[Event] = []
    for _ in range(days):
        campaign, more = pass_day(campaign, dice)
        events.extend(more)
        if campaign.ended:
            break
    return campaign, events


MAX_ADVANCE = 365


def advance_refusal(days: int) -> str | None:
    if not 1 <= days <= MAX_ADVANCE:
        return f"advance 1 to {MAX_ADVANCE} days at a time, not {days}"
    return None


def _advance(campaign: Campaign, cmd: AdvanceDay, dice: Dice) -> tuple[Campaign, list[Event]] | str:
    reason = advance_refusal(cmd.days)
    if reason:
        return reason
    campaign, events = pass_days(campaign, cmd.days, dice)
    events.append(Report(topic="day", text=f"It is {date_text(campaign.day)}."))
    return campaign, events


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    AdvanceDay: campaign_handler(_advance),
}
CHECKS: Checks = campaign_checks(HANDLERS, {AdvanceDay: lambda c, cmd: advance_refusal(cmd.days)})
