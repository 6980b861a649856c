"""What a mission pays (§11.6, R23, §12.2) and what it does to standing (§15.2), reputation
(R21) and the pilots' experience (§9.4)."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from .accept import payout
from .state import (
    Campaign,
    Contract,
)

PERCENT = 100


def r23_factors(
    contract: Contract, result: str, reward_percent: int, zero_losses: bool
) -> list[int]:
    """R23's percentages before the payout level: Victory x standing multiplier (x1.25 with
    zero frames destroyed), Withdrawal 50%, Defeat 25%; then, with an allied lance, O10.7's
    share."""
    cat = catalog()
    outcome = cat.economy.outcome
    factors: list[int]
    if result == "victory":
        factors = [outcome.victory, reward_percent]
        if zero_losses:
            factors.append(outcome.zero_losses_bonus)
    elif result == "withdrawal":
        factors = [outcome.withdrawal]
    else:
        factors = [outcome.defeat]
    if contract.third_party is not None and contract.third_party.kind == "ally":
        factors.append(cat.third_parties.rewards.ally_reward_percent)  # O10.7
    return factors


def _apply(amount: int, factors: list[int]) -> int:
    numerator = amount
    for f in factors:
        numerator *= f
    denominator: int = PERCENT ** len(factors)
    return numerator // denominator


def mission_reward(
    contract: Contract, result: str, reward_percent: int, payout_level: int, zero_losses: bool
) -> int:
    """R23: Victory = (base + bonus) x standing multiplier (`reward_percent`), x1.25 with zero
    frames destroyed; Withdrawal 50%, Defeat 25% of (base + bonus); then the payout level's
    credit percent. With an allied lance (O10.7) the R23 amount is 90% before the payout
    level. One rounding down, at the end."""
    level = payout(payout_level)
    assert level is not None
    factors = [*r23_factors(contract, result, reward_percent, zero_losses), level.credit_percent]
    return _apply(contract.base + contract.bonus, factors)


def r23_amount(contract: Contract, result: str, reward_percent: int, zero_losses: bool) -> int:
    """O11.4's "R23 amount": R23 (with O10.7's allied share) before the payout level, rounded
    down."""
    return _apply(
        contract.base + contract.bonus, r23_factors(contract, result, reward_percent, zero_losses)
    )


PREVIEW_RESULTS = (
    ("victory", "victory", False),
    ("victory_no_losses", "victory", True),
    ("withdrawal", "withdrawal", False),
    ("defeat", "defeat", False),
)


def reward_preview(
    campaign: Campaign, contract: Contract, payout_level: int
) -> dict[str, tuple[int, int]]:
    """What the contract would pay at this payout level (§11.6, R23, §12.2), for the launch
    screen: per result (`victory`, `victory_no_losses`, `withdrawal`, `defeat`) the (lowest,
    highest) credits over the hidden random bonus (0 to the difficulty's largest bonus), at
    today's standing with the employer. The rolled bonus itself stays hidden."""
    cat = catalog()
    percent = cat.standing_level(campaign.standing_with(contract.employer)).reward_percent
    low = attrs.evolve(contract, bonus=0)
    high = attrs.evolve(contract, bonus=cat.reward(contract.difficulty).bonus_max)
    return {
        key: (
            mission_reward(low, result, percent, payout_level, clean),
            mission_reward(high, result, percent, payout_level, clean),
        )
        for key, result, clean in PREVIEW_RESULTS
    }


def standing_changes(employer: str, result: str, difficulty: int) -> dict[str, int]:
    """§15.2: the change for every faction (employer and all the others)."""
    cat = catalog()
    row = cat.standing_change(result)
    out = {}
    for f in cat.factions:
        if f == employer:
            out[f] = row.employer_base + row.employer_per_difficulty * difficulty
        else:
            out[f] = row.others_base + row.others_per_difficulty * difficulty
    return out


def standing_after(
    standing: tuple[tuple[str, int], ...], employer: str, result: str, difficulty: int
) -> tuple[tuple[str, int], ...]:
    """§15.2 applied and clamped to the §15.1 scale (-100..500)."""
    for f, delta in standing_changes(employer, result, difficulty).items():
        standing = standing_shift(standing, f, delta)
    return standing


def standing_shift(
    standing: tuple[tuple[str, int], ...], faction: str, delta: int
) -> tuple[tuple[str, int], ...]:
    """One faction's standing moved by `delta`, clamped to the §15.1 scale (-100..500)."""
    rules = catalog().economy.standing
    now = dict(standing)
    now[faction] = max(rules.min, min(rules.max, now.get(faction, rules.start) + delta))
    return tuple(sorted(now.items()))


def neutral_standing_loss(difficulty: int) -> int:
    """O10.7: the standing one neutral frame destroyed by the player's side costs with the
    neutral faction: §15.2's Victory change for "all other factions", -(2 + D)."""
    row = catalog().standing_change("victory")
    return row.others_base + row.others_per_difficulty * difficulty


def reputation_after(reputation: int, result: str, difficulty: int) -> int:
    """R21: +Difficulty on Victory, -1 on Defeat (never below 0), unchanged otherwise."""
    rules = catalog().missions.reputation
    if result == "victory":
        reputation += rules.victory_per_difficulty * difficulty
    elif result == "defeat":
        reputation += rules.defeat
    return max(rules.min, reputation)


def mission_xp(result: str, difficulty: int) -> int:
    """§9.4: Difficulty x 25, +50 on Victory."""
    xp = catalog().pilots.xp
    return difficulty * xp.per_difficulty + (xp.victory_bonus if result == "victory" else 0)
