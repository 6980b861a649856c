"""The roguelike end (R28): when the company can no longer field a frame and a pilot and cannot
pay for the cheapest fix, the run is over; so it is when no frame has deployed for
`failure.idle_days` days and none can deploy now (BL2, docs/rulings.md)."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..core import Event
from .accept import frame_deploy_refusal
from .events import CampaignEnded
from .repair import (
    repair_cost,
    wreck_price,
    wreck_repair_cost,
)
from .state import (
    Campaign,
)


def frame_fix_cost(campaign: Campaign) -> int:
    """R28: what the cheapest deployable frame costs: 0 when a frame is Ready or being repaired
    (time will do); else the least of repairing a Damaged frame (§11.2), rebuilding a Destroyed
    one (§11.3), buying a head-kill frame on offer and repairing it (§12.4), or buying the
    cheapest chassis (§11.1)."""
    cat = catalog()
    if any(f.status in ("ready", "repairing") for f in campaign.frames):
        return 0
    options = [cat.chassis_price(c) for c in cat.chassis.values()]
    for f in campaign.frames:
        if f.status == "damaged":
            options.append(repair_cost(f))
        elif f.status == "destroyed":
            options.append(cat.chassis_price(cat.chassis[f.chassis]))
    if campaign.after_action is not None:
        options += [
            wreck_price(o.chassis) + wreck_repair_cost(o.chassis)
            for o in campaign.after_action.frame_offers
        ]
    return min(options)


def pilot_fix_cost(campaign: Campaign) -> int:
    """R28: 0 when a pilot is Active or Injured (injuries heal); else hiring one (§9.3)."""
    if any(p.status in ("active", "injured") for p in campaign.pilots):
        return 0
    return catalog().pilots.hiring.cost


def last_deployed(campaign: Campaign) -> int:
    """The day the company last deployed frames on a contract (its ledger's deployments,
    §11.5), or day 1 if it never did. The ledger is in the order of its days (`ledger.post`
    dates each entry today), so the last deployment in it is the latest: read from the end,
    not the whole year's ledger every day."""
    latest = (e.day for e in reversed(campaign.ledger) if e.category == "deployment")
    return next(latest, 1)


def can_deploy(campaign: Campaign) -> bool:
    """Some frame could deploy today: Ready, idle, with an Active pilot."""
    return any(frame_deploy_refusal(campaign, f.id) is None for f in campaign.frames)


def idle_end(campaign: Campaign) -> str | None:
    """BL2 (R28 read): no frame has deployed for `failure.idle_days` days and none can deploy
    today: the company is finished whatever its credits."""
    limit = catalog().economy.failure.idle_days
    if campaign.day - last_deployed(campaign) < limit or can_deploy(campaign):
        return None
    return f"no frame has deployed for {limit} days and none can deploy"


def check_end(campaign: Campaign) -> str | None:
    """R28: the cause when the company has no frame and pilot that can deploy (now or once
    repairs and injuries run their course) and its credits cannot pay the cheapest fix (see
    `frame_fix_cost`, `pilot_fix_cost`), or when it has been idle too long (`idle_end`); else
    None. A mission under way never ends the run.
    The 30 days below zero of R28 are counted by the day tick (`timeflow`)."""
    if campaign.ended:
        return campaign.ended
    if campaign.mission is not None:
        return None
    idle = idle_end(campaign)
    if idle is not None:
        return idle
    frame_cost = frame_fix_cost(campaign)
    pilot_cost = pilot_fix_cost(campaign)
    need = frame_cost + pilot_cost
    if need == 0 or need <= campaign.credits:
        return None
    wants = []
    if frame_cost:
        wants.append(f"no frame can deploy (the cheapest fix costs {frame_cost:,})")
    if pilot_cost:
        wants.append(f"no pilot is left (hiring costs {pilot_cost:,})")
    return f"{' and '.join(wants)}, with {campaign.credits:,} credits in hand"


def end_if_finished(campaign: Campaign) -> tuple[Campaign, list[Event]]:
    if campaign.ended:
        return campaign, []
    cause = check_end(campaign)
    if cause is None:
        return campaign, []
    return attrs.evolve(campaign, ended=cause), [CampaignEnded(cause=cause)]
