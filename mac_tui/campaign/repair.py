"""Repairs (§11.2, §11.3, R19, R20): what damage costs to fix, how long it takes, rebuilds.

Money is exact integer maths. DamageRatio = 1 − ArmorPercent/100 = (full − armour) / full,
against the chassis' full armour (R20), kept as a Fraction; the cost is

    ChassisPrice × 30 × (full − armour) // (100 × full) + ComponentDamageCount × 5,000

rounded down to whole credits once, on the chassis part (the component part is whole). Time is
DamageRatio × 5 days rounded up to whole days (a job of 2.5 days ends on the third day), at
least 1 day. A rush costs twice that cost and takes half that time, rounded up (§11.3).

Rulings made here (see tests/test_repair.py):
- repair time rounds up to whole days;
- a destroyed frame is rebuilt at its full chassis price in 7 days, and may be rushed like a
  repair (double price, half the time rounded up);
- a rush that saves no time (a one-day job) is refused rather than charged double;
- repair restores armour, structure and components at once and keeps the frame "repairing"
  (busy) for the days quoted; weapons and equipment lost in combat stay lost (R19): a
  rebuilt frame keeps whatever its loadout still lists, and any pilot still seated is
  unassigned (§11.3);
- frames that need no repair (R20), busy or deployed frames, and short credits are refused.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs
from attrs import frozen

from ..catalog import catalog
from ..combat.stats import armor_split, full_structure
from ..core import Checks, Event, Handlers
from ..dice import Dice
from . import ledger
from .commands import Repair
from .common import Change, campaign_checks, campaign_handler
from .events import Report
from .refit import busy_reason, deployed
from .state import Campaign, Frame


def full_armor(frame: Frame) -> int:
    return catalog().chassis[frame.chassis].armor


def damage_ratio(frame: Frame) -> Fraction:
    """§11.2, R20: 1 − ArmorPercent/100 against the chassis' full armour, exact (0 to 1)."""
    full = full_armor(frame)
    return Fraction(max(0, full - sum(frame.armor)), full)


def damage_ratio_percent(frame: Frame) -> Fraction:
    """The damage ratio as an exact percentage (0 to 100); screens round it for display."""
    return damage_ratio(frame) * 100


def structure_damaged(frame: Frame) -> bool:
    full = full_structure(catalog().chassis[frame.chassis])
    return any(s < f for s, f in zip(frame.structure, full, strict=True))


def needs_repair(frame: Frame) -> bool:
    """R20: a damage ratio of 5% or more, or any structure or component damage. A destroyed
    frame always needs work (a rebuild)."""
    if frame.status == "destroyed":
        return True
    threshold = catalog().economy.repair.ready_threshold_percent
    return (
        damage_ratio_percent(frame) >= threshold or structure_damaged(frame) or frame.components > 0
    )


def frame_status_after_battle(frame: Frame) -> Literal["ready", "damaged"]:
    """R20 for a frame that came home (not destroyed): Damaged when it needs repair, else
    Ready (less than 5% damage and no structure or component damage, §11.2)."""
    return "damaged" if needs_repair(frame) else "ready"


@frozen(kw_only=True)
class Quote:
    cost: int
    days: int
    rush: bool = False
    rebuild: bool = False


def repair_cost(frame: Frame) -> int:
    """§11.2: ChassisPrice × 0.30 × DamageRatio + ComponentDamageCount × 5,000, rounded down."""
    cat = catalog()
    rules = cat.economy.repair
    price = cat.chassis_price(cat.chassis[frame.chassis])
    full = full_armor(frame)
    missing = max(0, full - sum(frame.armor))
    return price * rules.chassis_percent * missing // (100 * full) + (
        frame.components * rules.per_component
    )


def repair_days(frame: Frame) -> int:
    """§11.3: DamageRatio × 5 days, rounded up, at least 1 day."""
    rules = catalog().economy.repair
    full = full_armor(frame)
    missing = max(0, full - sum(frame.armor))
    return max(rules.min_days, -(-rules.days_per_ratio * missing // full))


def wreck_price(chassis: str) -> int:
    """§12.4: a head-kill frame sells for 40% of the chassis' purchase price."""
    cat = catalog()
    percent = cat.economy.salvage.frame_price_percent
    return cat.chassis_price(cat.chassis[chassis]) * percent // 100


def wreck_repair_cost(chassis: str) -> int:
    """§12.4: a salvaged frame's repair costs 30% of its salvage price."""
    return wreck_price(chassis) * catalog().economy.salvage.frame_repair_percent // 100


def wreck_repair_days() -> int:
    """§12.4: and takes 3 days."""
    return catalog().economy.salvage.frame_repair_days


def repair_quote(frame: Frame, rush: bool = False) -> Quote | str:
    """The price and days of repairing (or rebuilding) this frame, or why it needs none."""
    cat = catalog()
    rules = cat.economy.repair
    if frame.status == "destroyed":
        cost = cat.chassis_price(cat.chassis[frame.chassis])
        days = rules.rebuild_days
    elif frame.wreck:
        cost, days = wreck_repair_cost(frame.chassis), wreck_repair_days()
    elif not needs_repair(frame):
        pct = damage_ratio_percent(frame)
        return (
            f"{frame.name} needs no repair: {int(pct)}% damage, under "
            f"{rules.ready_threshold_percent}%, and no structure or component damage"
        )
    else:
        cost, days = repair_cost(frame), repair_days(frame)
    if rush:
        rushed = -(-days // rules.rush_time_divisor)
        if rushed >= days:
            return f"a rush would still take {days} day(s): order a normal repair"
        cost, days = cost * rules.rush_cost_multiplier, rushed
    return Quote(cost=cost, days=days, rush=rush, rebuild=frame.status == "destroyed")


def plan_repair(campaign: Campaign, frame_id: str, rush: bool = False) -> Quote | str:
    """The quote for repairing `frame_id` now, or why it cannot be repaired: unknown,
    deployed, busy in a bay, needing no repair (R20), a rush that saves nothing, short credits."""
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if deployed(campaign, frame.id):
        return f"{frame.name} is deployed on a mission"
    reason = busy_reason(frame)
    if reason:
        return reason
    quote = repair_quote(frame, rush)
    if isinstance(quote, str):
        return quote
    return ledger.short_of(campaign, quote.cost) or quote


def apply_repair(campaign: Campaign, frame_id: str, quote: Quote) -> tuple[Campaign, list[Event]]:
    """Pay the quote and put the frame in the repair bay, restored to full armour, structure
    and components at once (R19: lost weapons stay lost); it is ready when the days pass."""
    frame = campaign.frame(frame_id)
    ch = catalog().chassis[frame.chassis]
    events: list[Event] = []
    pilot = frame.pilot
    if quote.rebuild and pilot is not None:
        events.append(Report(topic="pilots", text=f"{pilot} steps out of {frame.name}."))
        pilot = None
    fixed = attrs.evolve(
        frame,
        armor=armor_split(ch),
        structure=full_structure(ch),
        components=0,
        status="repairing",
        busy_days=quote.days,
        pilot=pilot,
        wreck=False,
    )
    campaign = campaign.with_frame(fixed)
    work = ("rush " if quote.rush else "") + ("rebuild" if quote.rebuild else "repair")
    if quote.cost:
        text = f"{work.capitalize()} of {frame.name}"
        campaign, moved = ledger.post(campaign, "repair", -quote.cost, text)
        events.insert(0, moved)
    text = f"{frame.name} goes into the repair bay: {work}, {quote.days} day(s)."
    events.append(Report(topic="repair", text=text))
    return campaign, events


def _why(quote: Quote | str) -> str | None:
    return quote if isinstance(quote, str) else None


def _repair(campaign: Campaign, cmd: Repair, dice: Dice) -> Change | str:
    quote = plan_repair(campaign, cmd.frame, cmd.rush)
    if isinstance(quote, str):
        return quote
    return apply_repair(campaign, cmd.frame, quote)


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    Repair: campaign_handler(_repair),
}
CHECKS: Checks = campaign_checks(
    HANDLERS,
    {Repair: lambda c, cmd: _why(plan_repair(c, cmd.frame, cmd.rush))},
)
