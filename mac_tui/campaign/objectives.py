"""Optional module O11 at settlement: the pay with objectives and cuts (O11.3, O11.4), the
mission costs (O11.5) and the pilots' XP in debt (O11.6).

O11.4: with C = base + rolled bonus, Pay = max(0, R23 amount + floor(C x bonus% / 100) -
floor(C x cut% / 100)), then the payout level's credit percent, rounded down; bonuses only on
Victory or Withdrawal, cuts on any result. Settlement posts one ledger line per part: the
reward (what is left of the pay once the other lines are taken out, so the lines sum to the pay
exactly), one line per objective's bonus (its percent of C at the payout level, rounded down),
one per cut, and the mission costs (50 x P credits, any outcome; no line when 0). Credits may
go below 0 (O11.6).
"""

from __future__ import annotations

from attrs import frozen

from ..catalog import catalog
from ..combat.objectives import O11, MissionCosts, mission_costs
from ..combat.state import Battle, Objective
from ..core import Event
from . import ledger
from .accept import payout
from .events import PayCut
from .rewards import r23_amount
from .salvage import neutrals_downed, wrecked
from .state import Campaign, Contract, LedgerCategory

__all__ = ["O11", "Pay", "objective_lines", "objective_pay", "settle_o11"]

PERCENT = 100


@frozen(kw_only=True)
class Pay:
    """O11.4 worked out: the total credits, the ledger lines (category, amount, text) that sum
    to it, and the cuts as events."""

    total: int
    lines: tuple[tuple[LedgerCategory, int, str], ...]
    cuts: tuple[PayCut, ...]


def cut_percents(battle: Battle) -> list[tuple[str, int, str]]:
    """O11.3: (id, percent of C, words) of every cut that applies; collateral only with O3
    (-2% per section the player's shots brought to 0, OB6's building excepted, at most -20%);
    with O10, -5% per allied frame destroyed and -5% per neutral frame the player's side
    destroyed (R24's destroyed: centre torso or pilot; ruling O11g)."""
    rules = catalog().objectives.cuts
    tally = battle.tally
    out: list[tuple[str, int, str]] = []
    if tally is not None and tally.collateral and battle.rule("O3"):
        percent = min(rules.collateral_max, rules.collateral * tally.collateral)
        out.append(("collateral", percent, f"{tally.collateral} section(s) brought to 0"))
    lost = sum(1 for u in battle.side_units("ally") if wrecked(u))
    if lost:
        out.append(("ally_lost", rules.ally_lost * lost, f"{lost} allied frame(s) destroyed"))
    killed = neutrals_downed(battle)
    if killed:
        words = f"{killed} neutral frame(s) destroyed by the lance"
        out.append(("neutral_killed", rules.neutral_killed * killed, words))
    return out


def objective_pay(
    contract: Contract,
    battle: Battle,
    result: str,
    reward_percent: int,
    payout_level: int,
    zero_losses: bool,
    note: str = "",
) -> Pay:
    """O11.4's pay of a finished battle, with its ledger lines (`note` ends the reward's,
    as O10.7's allied share)."""
    cat = catalog().objectives
    level = payout(payout_level)
    assert level is not None
    p = level.credit_percent
    c = contract.base + contract.bonus
    r23 = r23_amount(contract, result, reward_percent, zero_losses)
    paid = result in ("victory", "withdrawal")
    bonuses = [(o, cat.kind(o.id)) for o in battle.objectives if o.met and paid]
    cuts = cut_percents(battle)
    bonus_sum = sum(k.bonus for _, k in bonuses)
    cut_sum = sum(percent for _, percent, _ in cuts)
    before_level = max(0, r23 + c * bonus_sum // PERCENT - c * cut_sum // PERCENT)
    total = before_level * p // PERCENT
    lines: list[tuple[LedgerCategory, int, str]] = []
    events: list[PayCut] = []
    for o, k in bonuses:
        amount = c * k.bonus * p // (PERCENT * PERCENT)
        lines.append(("objective", amount, f"Contract {contract.id}: {o.id} {k.name} +{k.bonus}%"))
    for cut_id, percent, words in cuts:
        amount = c * percent * p // (PERCENT * PERCENT)
        name = cut_id.replace("_", " ").capitalize()
        lines.append(("pay_cut", -amount, f"Contract {contract.id}: {name} -{percent}% ({words})"))
        events.append(PayCut(id=cut_id, percent=percent, amount=amount))
    rest = total - sum(amount for _, amount, _ in lines)
    text = f"Contract {contract.id}: {result}{note}"
    reward: tuple[LedgerCategory, int, str] = ("reward", rest, text)
    return Pay(total=total, lines=(reward, *lines), cuts=tuple(events))


def objective_lines(objectives: tuple[Objective, ...], result: str) -> list[str]:
    """O11.9: the after-action report's line per objective: met, missed or hidden-missed."""
    cat = catalog().objectives
    out = []
    for o in objectives:
        k = cat.kind(o.id)
        what = f"{o.id} {k.name} (+{k.bonus}%: {k.text})"
        prefix = "Hidden objective " if o.hidden else "Objective "
        if o.met:
            paid = "" if result in ("victory", "withdrawal") else "; no bonus on a defeat"
            out.append(f"{prefix}{what}: met in round {o.met}{paid}.")
        else:
            out.append(f"{prefix}{what}: {'hidden, missed' if o.hidden else 'missed'}.")
    return out


def settle_o11(
    campaign: Campaign,
    battle: Battle,
    contract: Contract,
    result: str,
    reward_percent: int,
    payout_level: int,
    zero_losses: bool,
    note: str = "",
) -> tuple[Campaign, int, list[Event], list[str]]:
    """Post the O11 pay's lines and the mission costs; the pay, the events and the report
    lines."""
    pay = objective_pay(contract, battle, result, reward_percent, payout_level, zero_losses, note)
    events: list[Event] = []
    for category, amount, text in pay.lines:
        campaign, moved = ledger.post(campaign, category, amount, text)
        events.append(moved)
    events.extend(pay.cuts)
    lines = objective_lines(battle.objectives, result)
    lines += [f"{cut.describe()}." for cut in pay.cuts]
    costs: MissionCosts = mission_costs(battle)
    if costs.credits:
        campaign, moved = ledger.post(
            campaign, "mission_costs", -costs.credits, f"Contract {contract.id}: mission costs"
        )
        events.append(moved)
    lines.append(f"{costs.describe()}.")
    return campaign, pay.total, events, lines


def xp_frozen(campaign: Campaign) -> bool:
    """O11.6: a mission settled while credits are below 0 gives no XP (the balance after the
    mission's own lines are posted; ruling O11e)."""
    return O11 in campaign.ruleset and campaign.credits < 0
