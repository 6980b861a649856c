"""Missions, from the contract accepted to the after-action report (§11.5, §11.6, §12, §15.2,
§9.2, §9.4, §16.1, R15-R24, R28).

`accept CONTRACT PAYOUT FRAMES` pays the deployment (§11.5) and sets up the battle: the player's
frames as they are (armour, structure, weapons, equipment, pilots' skills) and the contract's
enemy lance with its stock loadouts (R18) and the §16.1 pilots (R17). The battle is then fought
with the combat commands. When it is over, an after-step hook settles the mission:

1. money (§11.6, R23): Victory = (base + bonus) x the employer standing multiplier, x1.25 when
   no player frame was destroyed (a head kill does not destroy the frame, R15); Withdrawal 50%
   and Defeat 25% of (base + bonus); then the payout level's credit percent (§12.2); one
   rounding down at the end;
2. standing (§15.2), clamped to the scale (§15.1); reputation (R21);
3. pilots (§9.2, §9.4, R15, R16): XP to every deployed pilot who lived; a destroyed frame's
   pilot dies with the KIA chance, else ejects and is unassigned; a head kill kills the pilot;
   a cockpit hit (or a breached cockpit) injures the pilot for 3 + 0-7 days;
4. frames home (R19, R20): weapons and equipment destroyed in battle are lost, armour and
   structure as they ended, component damage counted (see `battle_components`), status by
   R20; a destroyed frame comes home Destroyed, a head-killed one Damaged, both without pilot;
5. salvage (§12, R24): the pool, the allowance, the head-kill frames for sale and the bonus
   finds (rolled now, shown with the scavenge once the picks are made).

The concerns live in their own modules: `accept.py` (accepting, deployment), `rewards.py`
(1, 2 and the XP of 3), `homecoming.py` (3, 4), `salvage.py` (5 and the after-action commands),
`runend.py` (R28). This module settles the mission (`settle`) and holds the after-step hook
that does it once the battle is over (`close_mission`, listed in `game.TABLE`).
"""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..combat.state import Battle
from ..core import Event
from ..dice import Dice
from ..model import GameState
from . import ledger
from .accept import TOPIC, faction_name, payout
from .events import Report
from .homecoming import bring_home
from .objectives import O11, settle_o11, xp_frozen
from .repair import (
    wreck_price,
)
from .rewards import (
    mission_reward,
    neutral_standing_loss,
    reputation_after,
    standing_after,
    standing_shift,
)
from .runend import end_if_finished
from .salvage import (
    ally_taken,
    bonus_finds,
    head_kill_offers,
    neutrals_downed,
    salvage_allowance,
    salvage_pool,
)
from .state import (
    AfterAction,
    Campaign,
    Frame,
    SalvageItem,
)


# ---- settling a mission -------------------------------------------------------------------------
def settle(campaign: Campaign, battle: Battle, dice: Dice) -> tuple[Campaign, list[Event]]:
    """Close the mission whose battle is over: money, standing, reputation, pilots, frames,
    salvage, counters, the after-action report; then the R28 check."""
    cat = catalog()
    mission = campaign.mission
    assert mission is not None and battle.result is not None
    contract = mission.contract
    result = battle.result
    d = contract.difficulty
    level = payout(mission.payout_level)
    assert level is not None
    events: list[Event] = []
    lines = [
        f"{result.capitalize()}: contract {contract.id} for {faction_name(contract.employer)} "
        f"against {faction_name(contract.opponent)}, difficulty {d}."
    ]

    units = [battle.unit(u) for u, _ in mission.frames]
    zero_losses = not any(u.destroyed for u in units)
    standing_level = cat.standing_level(campaign.standing_with(contract.employer))
    third = contract.third_party
    allied = third is not None and third.kind == "ally"
    share = cat.third_parties.rewards.ally_reward_percent if allied else None
    note = f" (allied lance: {share}%)" if share is not None else ""  # O10.7
    o11: list[str] = []
    if O11 in campaign.ruleset:  # O11.3-O11.5: objectives, cuts, mission costs
        campaign, amount, more_events, o11 = settle_o11(
            campaign,
            battle,
            contract,
            result,
            standing_level.reward_percent,
            mission.payout_level,
            zero_losses,
            note,
        )
        events += more_events
    else:
        amount = mission_reward(
            contract, result, standing_level.reward_percent, mission.payout_level, zero_losses
        )
        campaign, moved = ledger.post(
            campaign, "reward", amount, f"Contract {contract.id}: {result}{note}"
        )
        events.append(moved)
    lines.append(f"Paid {amount:,} credits ({level.name}, {level.credit_percent}%){note}.")
    lines += o11
    no_xp = xp_frozen(campaign)  # O11.6
    if no_xp:
        lines.append(
            f"The company is in debt ({campaign.credits:,} credits): the pilots gain no XP "
            "for this mission (O11.6)."
        )

    before = dict(campaign.standing)
    standing = standing_after(campaign.standing, contract.employer, result, d)
    downed = neutrals_downed(battle)
    if third is not None and third.faction is not None and downed:  # O10.7
        standing = standing_shift(standing, third.faction, downed * neutral_standing_loss(d))
        lines.append(
            f"{downed} neutral frame(s) of {faction_name(third.faction)} destroyed: "
            f"{downed * neutral_standing_loss(d):+d} standing with them."
        )
    changes = [
        f"{faction_name(f)} {v - before.get(f, v):+d} ({v})"
        for f, v in standing
        if v != before.get(f, v)
    ]
    if changes:
        lines.append("Standing: " + ", ".join(changes) + ".")
    reputation = reputation_after(campaign.reputation, result, d)
    if reputation != campaign.reputation:
        lines.append(f"Reputation {campaign.reputation} -> {reputation}.")
    campaign = attrs.evolve(campaign, standing=standing, reputation=reputation)

    campaign, more = bring_home(campaign, battle, result, d, dice, xp=not no_xp)
    lines += more

    if result == "defeat":
        pool: tuple[SalvageItem, ...] = ()
        offers: tuple[Frame, ...] = ()
        finds: tuple[SalvageItem, ...] = ()
        lines.append("The enemy holds the field: no salvage.")
    else:
        pool = salvage_pool(battle)
        offers = head_kill_offers(battle)
        finds = bonus_finds(battle, contract.opponent, dice)
        for wreck in ally_taken(battle):  # O10.7: the allies keep what they destroyed
            kept = sum(1 for w in wreck.weapons if not w.destroyed)
            lines.append(f"The allies took {wreck.label}'s wreck ({kept} weapon(s)).")
    picks = salvage_allowance(result, d, mission.payout_level, len(pool))
    if result != "defeat":
        lines.append(f"Salvage: {len(pool)} item(s) in the wreckage, {picks} pick(s).")
    for i, offer in enumerate(offers, start=1):
        lines.append(
            f"Head kill: a {offer.name} for sale at {wreck_price(offer.chassis):,} credits "
            f"(buy-wreck {i})."
        )

    campaign = attrs.evolve(
        campaign,
        mission=None,
        after_action=AfterAction(
            contract=contract,
            result=result,
            payout_level=mission.payout_level,
            credits=amount,
            picks=picks,
            pool=pool,
            frame_offers=offers,
            found=finds,
            report=tuple(lines),
            objectives=battle.objectives,
        ),
        missions_played=campaign.missions_played + 1,
        missions_won=campaign.missions_won + (result == "victory"),
    )
    events += [Report(topic=TOPIC, text=line) for line in lines]
    campaign, more_events = end_if_finished(campaign)
    events += more_events
    return campaign, events


def close_mission(
    state: GameState, events: tuple[Event, ...]
) -> tuple[GameState, tuple[Event, ...]]:
    """After every accepted command: settle the mission once its battle is over."""
    campaign = state.campaign
    battle = state.battle
    if campaign is None or campaign.mission is None or battle is None or battle.phase != "over":
        return state, events
    dice = Dice(state.rng)
    campaign, more = settle(campaign, battle, dice)
    return attrs.evolve(state, campaign=campaign, battle=None, rng=dice.state()), (*events, *more)
