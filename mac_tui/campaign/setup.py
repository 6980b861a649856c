"""A new company (§13.3): credits, date, location, fuel, the two starting frames with their
loadouts and pilots, the four starting pilots, neutral standing everywhere."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..core import Accepted, Checks, Handlers, Outcome, Refused
from ..dice import Dice
from ..model import GameState
from ..ruleset import Ruleset, parse_ruleset, rules_refusal
from .calendar import date_text
from .commands import NewCampaign
from .contracts import ensure_contracts
from .events import Report
from .market import ensure_market, fresh_frame
from .state import Campaign, Mount, Pilot, PilotRecord

NAME_MAX = 40


def new_campaign(name: str, dice: Dice, ruleset: Ruleset = ()) -> tuple[Campaign, list[Report]]:
    cat = catalog()
    start = cat.start
    pilots = tuple(
        Pilot(
            callsign=p.callsign,
            gunnery=p.gunnery,
            piloting=p.piloting,
            tactics=p.tactics,
            morale=p.morale,
            record=PilotRecord(hired_day=attrs.fields(Campaign).day.default),  # day one
        )
        for p in cat.pilots.starting_pilot
    )
    frames = []
    for i, spec in enumerate(start.frame, start=1):
        frame = fresh_frame(f"F{i}", spec.chassis, cat.chassis[spec.chassis].name)
        weapons = tuple(Mount(weapon=e.weapon, mount=e.mount, group=e.group) for e in spec.loadout)
        frames.append(attrs.evolve(frame, weapons=weapons, pilot=spec.pilot))
    campaign = Campaign(
        company=name,
        credits=start.company.credits,
        place=start.company.location,
        fuel=start.company.fuel,
        frames=tuple(frames),
        pilots=pilots,
        standing=tuple((f, cat.economy.standing.start) for f in sorted(cat.factions)),
        next_frame=len(frames) + 1,
        ruleset=ruleset,
    )
    campaign, market_events = ensure_market(campaign, dice)
    campaign, contract_events = ensure_contracts(campaign, dice, force=True, opening=True)
    place = cat.places[campaign.place]
    reports = [
        Report(
            topic="day",
            text=f"{name} opens for business at {place.name} on {date_text(campaign.day)}.",
        )
    ]
    reports += [e for e in (*market_events, *contract_events) if isinstance(e, Report)]
    return campaign, reports


def new_campaign_check(state: GameState, cmd: NewCampaign) -> str | None:
    if state.campaign is not None:
        return "a campaign is already under way in this game"
    name = " ".join(cmd.name.split())
    if not name or len(name) > NAME_MAX:
        return f"a company name has 1 to {NAME_MAX} characters"
    return rules_refusal(cmd.rules)


def _new(state: GameState, cmd: NewCampaign) -> Outcome:
    reason = new_campaign_check(state, cmd)
    if reason:
        return Refused(reason)
    name = " ".join(cmd.name.split())
    dice = Dice(state.rng)
    campaign, reports = new_campaign(name, dice, parse_ruleset(cmd.rules))
    return Accepted(attrs.evolve(state, campaign=campaign, rng=dice.state()), tuple(reports))


HANDLERS: Handlers = {NewCampaign: _new}
CHECKS: Checks = {NewCampaign: new_campaign_check}
