"""Pilots (§9): hiring with rolled skills, training with experience (ruling P1), seating pilots
in frames, renaming frames."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..core import Checks, Event, Handlers
from ..dice import PILOTS, Dice
from . import ledger
from .commands import Assign, Hire, RenameFrame, Train, Unassign
from .common import Change, campaign_checks, campaign_handler
from .events import Report
from .state import Campaign, Pilot, PilotRecord

NAME_MAX = 24


def next_callsign(campaign: Campaign) -> tuple[str, int]:
    """§9.3: the first unused name of the pool, then `Merc-001`, `Merc-002`..."""
    used = {p.callsign for p in campaign.pilots}
    for name in catalog().pilots.callsigns.pool:
        if name not in used:
            return name, campaign.mercs_hired
    n = campaign.mercs_hired + 1
    prefix = catalog().pilots.hiring.overflow_prefix
    while f"{prefix}{n:03d}" in used:
        n += 1
    return f"{prefix}{n:03d}", n


def roll_pilot(callsign: str, dice: Dice) -> Pilot:
    """§9.3: Gunnery and Piloting 2-4, Tactics 1-3 by d6; Morale 70 + d20."""
    h = catalog().pilots.hiring
    return Pilot(
        callsign=callsign,
        gunnery=h.gunnery_d6[dice.d(PILOTS, 6) - 1],
        piloting=h.piloting_d6[dice.d(PILOTS, 6) - 1],
        tactics=h.tactics_d6[dice.d(PILOTS, 6) - 1],
        morale=h.morale_base + dice.d(PILOTS, h.morale_die),
    )


def hire_refusal(campaign: Campaign) -> str | None:
    place = catalog().places[campaign.place]
    if not place.hiring:
        return f"nobody is hiring out at {place.name}"
    return ledger.short_of(campaign, catalog().pilots.hiring.cost)


def _hire(campaign: Campaign, cmd: Hire, dice: Dice) -> Change | str:
    reason = hire_refusal(campaign)
    if reason:
        return reason
    callsign, mercs = next_callsign(campaign)
    pilot = roll_pilot(callsign, dice)
    pilot = attrs.evolve(pilot, record=PilotRecord(hired_day=campaign.day))
    campaign = attrs.evolve(campaign, pilots=(*campaign.pilots, pilot), mercs_hired=mercs)
    cost = catalog().pilots.hiring.cost
    campaign, moved = ledger.post(campaign, "hiring", -cost, f"Hired {callsign}")
    text = (
        f"{callsign} signs on: gunnery {pilot.gunnery}, piloting {pilot.piloting}, "
        f"tactics {pilot.tactics}, morale {pilot.morale}."
    )
    events: list[Event] = [moved, Report(topic="pilots", text=text)]
    return campaign, events


SKILLS = ("gunnery", "piloting", "tactics")


def train_cost(pilot: Pilot, skill: str) -> int:
    """Ruling P1: the next level of `skill` costs the current level times `xp_per_level`."""
    level: int = getattr(pilot, skill)
    return level * catalog().pilots.training.xp_per_level


def train_refusal(campaign: Campaign, callsign: str, skill: str) -> str | None:
    try:
        pilot = campaign.pilot(callsign)
    except KeyError:
        return f"no pilot called {callsign}"
    if skill not in SKILLS:
        return f"no skill {skill!r} (choose from {', '.join(SKILLS)})"
    if pilot.status == "kia":
        return f"{callsign} was killed in action"
    top = catalog().pilots.skills.max
    level: int = getattr(pilot, skill)
    if level >= top:
        return f"{callsign}'s {skill} is {level}, the highest there is"
    cost = train_cost(pilot, skill)
    if pilot.xp < cost:
        return (
            f"{callsign} has {pilot.xp} XP; {skill} {level + 1} needs {cost} "
            f"({cost - pilot.xp} more: missions earn it)"
        )
    return None


def _train(campaign: Campaign, cmd: Train, dice: Dice) -> Change | str:
    reason = train_refusal(campaign, cmd.pilot, cmd.skill)
    if reason:
        return reason
    pilot = campaign.pilot(cmd.pilot)
    cost = train_cost(pilot, cmd.skill)
    level = getattr(pilot, cmd.skill) + 1
    trained = attrs.evolve(pilot, xp=pilot.xp - cost, **{cmd.skill: level})
    pilots = tuple(trained if p.callsign == cmd.pilot else p for p in campaign.pilots)
    text = f"{cmd.pilot} trains {cmd.skill} to {level} for {cost} XP ({trained.xp} XP left)."
    return attrs.evolve(campaign, pilots=pilots), [Report(topic="pilots", text=text)]


def assign_refusal(campaign: Campaign, callsign: str, frame_id: str) -> str | None:
    try:
        pilot = campaign.pilot(callsign)
    except KeyError:
        return f"no pilot called {callsign}"
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if pilot.status == "kia":
        return f"{callsign} was killed in action"
    if frame.status == "destroyed":
        return f"{frame.name} is destroyed: rebuild it first"
    if frame.pilot == callsign:
        return f"{callsign} already flies {frame.name}"
    return None


def _assign(campaign: Campaign, cmd: Assign, dice: Dice) -> Change | str:
    reason = assign_refusal(campaign, cmd.pilot, cmd.frame)
    if reason:
        return reason
    events: list[Event] = []
    old = campaign.frame_of(cmd.pilot)
    if old is not None:
        campaign = campaign.with_frame(attrs.evolve(old, pilot=None))
    frame = campaign.frame(cmd.frame)
    if frame.pilot is not None:
        events.append(Report(topic="pilots", text=f"{frame.pilot} steps out of {frame.name}."))
    campaign = campaign.with_frame(attrs.evolve(frame, pilot=cmd.pilot))
    events.append(Report(topic="pilots", text=f"{cmd.pilot} now flies {frame.name}."))
    return campaign, events


def unassign_refusal(campaign: Campaign, callsign: str) -> str | None:
    try:
        campaign.pilot(callsign)
    except KeyError:
        return f"no pilot called {callsign}"
    if campaign.frame_of(callsign) is None:
        return f"{callsign} flies no frame"
    return None


def _unassign(campaign: Campaign, cmd: Unassign, dice: Dice) -> Change | str:
    reason = unassign_refusal(campaign, cmd.pilot)
    if reason:
        return reason
    frame = campaign.frame_of(cmd.pilot)
    assert frame is not None
    campaign = campaign.with_frame(attrs.evolve(frame, pilot=None))
    return campaign, [Report(topic="pilots", text=f"{cmd.pilot} steps out of {frame.name}.")]


def rename_refusal(campaign: Campaign, frame_id: str, name: str) -> str | None:
    try:
        campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    name = " ".join(name.split())
    if not name or len(name) > NAME_MAX:
        return f"a frame name has 1 to {NAME_MAX} characters"
    return None


def _rename(campaign: Campaign, cmd: RenameFrame, dice: Dice) -> Change | str:
    reason = rename_refusal(campaign, cmd.frame, cmd.name)
    if reason:
        return reason
    frame = campaign.frame(cmd.frame)
    name = " ".join(cmd.name.split())
    campaign = campaign.with_frame(attrs.evolve(frame, name=name))
    return campaign, [Report(topic="roster", text=f"{frame.name} is now called {name}.")]


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    Hire: campaign_handler(_hire),
    Train: campaign_handler(_train),
    Assign: campaign_handler(_assign),
    Unassign: campaign_handler(_unassign),
    RenameFrame: campaign_handler(_rename),
}
CHECKS: Checks = campaign_checks(
    HANDLERS,
    {
        Hire: lambda c, cmd: hire_refusal(c),
        Train: lambda c, cmd: train_refusal(c, cmd.pilot, cmd.skill),
        Assign: lambda c, cmd: assign_refusal(c, cmd.pilot, cmd.frame),
        Unassign: lambda c, cmd: unassign_refusal(c, cmd.pilot),
        RenameFrame: lambda c, cmd: rename_refusal(c, cmd.frame, cmd.name),
    },
)
