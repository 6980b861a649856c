"""Campaign events: what happened, as plain data for the day report, the log and the screens."""

from __future__ import annotations

from attrs import frozen

from ..core import Event


@frozen
class Report(Event):
    """One line of news: `topic` groups them (day, market, pilots, repair, travel, mission...)."""

    topic: str
    text: str

    def describe(self) -> str:
        return self.text


@frozen
class CreditsMoved(Event):
    category: str
    amount: int
    balance: int
    text: str

    def describe(self) -> str:
        sign = "+" if self.amount >= 0 else "-"
        return f"{sign}{abs(self.amount):,} cr  {self.text}"


@frozen
class CampaignEnded(Event):
    cause: str

    def describe(self) -> str:
        return f"The company is finished: {self.cause}"


@frozen
class PayCut(Event):
    """O11.3, O11.9: a cut of the mission's pay: `id` (`collateral`, `ally_lost`,
    `neutral_killed`), the percent of C and the credits it took (after the payout level)."""

    id: str
    percent: int
    amount: int

    def describe(self) -> str:
        return f"Pay cut ({self.id.replace('_', ' ')}, -{self.percent}%): -{self.amount:,} cr"
