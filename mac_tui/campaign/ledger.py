"""Money moves only here: every change of credits is a typed ledger entry (§11, §13)."""

from __future__ import annotations

import attrs

from .events import CreditsMoved
from .state import Campaign, LedgerCategory, LedgerEntry


def post(
    campaign: Campaign, category: LedgerCategory, amount: int, text: str
) -> tuple[Campaign, CreditsMoved]:
    """Add `amount` (negative = spent) to the credits and record it."""
    balance = campaign.credits + amount
    entry = LedgerEntry(
        day=campaign.day, category=category, amount=amount, balance=balance, text=text
    )
    new = attrs.evolve(campaign, credits=balance, ledger=(*campaign.ledger, entry))
    return new, CreditsMoved(category=category, amount=amount, balance=balance, text=text)


def short_of(campaign: Campaign, cost: int) -> str | None:
    """Why the company cannot pay `cost` now, or None when it can."""
    if cost > campaign.credits:
        return f"costs {cost:,} credits; the company has {campaign.credits:,}"
    return None


def starting_credits(campaign: Campaign) -> int:
    """Credits before the first ledger entry: the §13.3 starting credits."""
    if not campaign.ledger:
        return campaign.credits
    first = campaign.ledger[0]
    return first.balance - first.amount


def daily_balances(campaign: Campaign) -> list[tuple[int, int]]:
    """(day, credits at the end of that day) for every day from day 1 to today."""
    out: list[tuple[int, int]] = []
    balance = starting_credits(campaign)
    entries = iter(campaign.ledger)
    entry = next(entries, None)
    for day in range(1, campaign.day + 1):
        while entry is not None and entry.day <= day:
            balance = entry.balance
            entry = next(entries, None)
        out.append((day, balance))
    return out


def category_totals(campaign: Campaign, days: int) -> dict[LedgerCategory, int]:
    """Net credits by category over the last `days` days (today included), biggest first."""
    first = campaign.day - days + 1
    totals: dict[LedgerCategory, int] = {}
    for e in campaign.ledger:
        if e.day >= first:
            totals[e.category] = totals.get(e.category, 0) + e.amount
    return dict(sorted(totals.items(), key=lambda kv: -abs(kv[1])))
