"""Salvage (§12, R24): the pool, the allowance, the bonus finds and the head-kill frames of a
mission, then the after-action commands (`salvage`, `buy-wreck`, `done`).

Commands count from 1 (`salvage 1+3`, `buy-wreck 1`, like `regroup`); `AfterAction.picked`
stores the 0-based positions of the picked items in `AfterAction.pool`.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..catalog import UNIVERSAL, catalog
from ..combat.state import HEAD, Battle, Unit
from ..core import Checks, Event, Handlers
from ..dice import LOOT, Dice
from . import ledger
from .accept import payout
from .commands import BuyWreck, Dismiss, Salvage
from .common import Change, campaign_checks, campaign_handler, split
from .events import Report
from .repair import (
    wreck_price,
    wreck_repair_cost,
    wreck_repair_days,
)
from .runend import end_if_finished
from .state import (
    AfterAction,
    Campaign,
    Frame,
    SalvageItem,
    add_count,
)


# ---- the pool, the allowance, the finds (§12.1-§12.4, R24) ---------------------------------------
def item_name(item: SalvageItem) -> str:
    cat = catalog()
    if item.kind == "weapon":
        return cat.weapons[item.item].name
    if item.kind == "equipment":
        return cat.equipment[item.item].name
    return cat.chassis[item.item].name


def base_picks(result: str, difficulty: int) -> int:
    """§12.1: Victory 1 + Difficulty / 2 (rounded down), Withdrawal 1, Defeat 0."""
    s = catalog().economy.salvage
    if result == "victory":
        return s.victory_base_picks + difficulty // s.victory_picks_divisor
    if result == "withdrawal":
        return s.withdrawal_picks
    return s.defeat_picks


def scaled_picks(base: int, payout_level: int) -> int:
    """§12.2, R24: the base allowance x the level's modifier (in halves), rounded as the level
    says (Mostly Pay down, Mostly Salvage up)."""
    level = payout(payout_level)
    assert level is not None
    halves = base * level.picks_halves
    return -(-halves // 2) if level.rounding == "up" else halves // 2


def salvage_allowance(result: str, difficulty: int, payout_level: int, pool_size: int) -> int:
    """§12.1-§12.2: the picks allowed, capped by the pool."""
    return min(pool_size, scaled_picks(base_picks(result, difficulty), payout_level))


def salvage_chance(difficulty: int) -> int:
    """§12.1, §12.3, R24: the Salvage Chance, 15% + Difficulty x 5%."""
    s = catalog().economy.salvage
    return s.chance_base + s.chance_per_difficulty * difficulty


def wrecked(unit: Unit) -> bool:
    """R24: an enemy counts as destroyed when its centre torso is breached or its pilot died."""
    return unit.destroyed or not unit.pilot_alive


def downed_by_side(battle: Battle, unit: Unit) -> str | None:
    """The side of the frame whose shot put `unit` out (None: no shot did, e.g. a fall)."""
    if unit.downed_by is None:
        return None
    try:
        return battle.unit(unit.downed_by).side
    except KeyError:
        return None


def salvaged(battle: Battle) -> tuple[Unit, ...]:
    """R24's wrecks the company may salvage, in battle order: every destroyed enemy; with O10
    (O10.7) not one whose destroying blow came from an ally, and every neutral frame the
    player's side destroyed."""
    return tuple(
        u
        for u in battle.units
        if wrecked(u)
        and (
            (u.side == "enemy" and downed_by_side(battle, u) != "ally")
            or (u.side == "neutral" and downed_by_side(battle, u) == "player")
        )
    )


def ally_taken(battle: Battle) -> tuple[Unit, ...]:
    """O10.7: the enemy wrecks the allies destroyed, which they keep (not in the pool)."""
    return tuple(
        u for u in battle.side_units("enemy") if wrecked(u) and downed_by_side(battle, u) == "ally"
    )


def neutrals_downed(battle: Battle) -> int:
    """O10.7: the neutral frames the player's side destroyed (each costs standing)."""
    return sum(
        1
        for u in battle.side_units("neutral")
        if wrecked(u) and downed_by_side(battle, u) == "player"
    )


def salvage_pool(battle: Battle) -> tuple[SalvageItem, ...]:
    """R24: every weapon not destroyed in combat on every salvaged wreck (`salvaged`: the
    destroyed enemies; O10.7 changes which), in battle order."""
    return tuple(
        SalvageItem(kind="weapon", item=w.weapon)
        for u in salvaged(battle)
        for w in u.weapons
        if not w.destroyed
    )


def arsenal(faction: str) -> tuple[str, ...]:
    """§12.3 bonus finds: the opponent's arsenal is what its frames carry (R18): its own
    non-exclusive weapons and the universal ones, in catalog order."""
    return tuple(
        w.id
        for w in catalog().weapons.values()
        if w.faction in (faction, UNIVERSAL) and not w.exclusive
    )


def bonus_finds(battle: Battle, opponent: str, dice: Dice) -> tuple[SalvageItem, ...]:
    """§12.3: each destroyed enemy, 15% for a random weapon of the opponent's arsenal."""
    chance = catalog().economy.salvage.bonus_find_chance
    pool = arsenal(opponent)
    found = []
    for u in salvaged(battle):
        if u.side == "enemy" and dice.chance(LOOT, chance):
            found.append(SalvageItem(kind="weapon", item=dice.choice(LOOT, pool)))
    return tuple(found)


def head_kill_offers(battle: Battle) -> tuple[Frame, ...]:
    """§12.4: enemies whose pilot died with the head destroyed (not CT-breached) come up for
    sale as bare frames (their weapons are in the salvage pool, R24) with their combat damage,
    head armour 0, status Damaged. Offer ids are W1, W2...; a bought frame gets a fresh id."""
    cat = catalog()
    offers: list[Frame] = []
    for u in salvaged(battle):
        if u.destroyed or u.pilot_alive or u.structure[HEAD] > 0:
            continue
        armor = tuple(0 if i == HEAD else a for i, a in enumerate(u.armor))
        offers.append(
            Frame(
                id=f"W{len(offers) + 1}",
                chassis=u.chassis,
                name=cat.chassis[u.chassis].name,
                status="damaged",
                armor=armor,
                structure=u.structure,
            )
        )
    return tuple(offers)


# ---- the after-action commands (§12.1-§12.4) --------------------------------------------------
def _open(campaign: Campaign) -> AfterAction | str:
    if campaign.after_action is None:
        return "no after-action report is open"
    return campaign.after_action


def parse_picks(text: str, aa: AfterAction) -> list[int] | str:
    """The 0-based pool positions of `salvage` picks given from 1, or why they are illegal."""
    out = []
    tokens = split(text)
    if tokens and not aa.pool:
        return "the wreckage holds nothing to pick: salvage - to go on"
    for token in tokens:
        try:
            n = int(token)
        except ValueError:
            return f"picks are item numbers joined by + (e.g. 1+3), not {token!r}"
        if not 1 <= n <= len(aa.pool):
            return f"no item {n} in the salvage pool (1 to {len(aa.pool)})"
        out.append(n - 1)
    if len(set(out)) != len(out):
        return "each item can be picked only once"
    if len(out) > aa.picks:
        return f"you may pick {aa.picks} item(s), not {len(out)}"
    return out


def _stock(campaign: Campaign, items: Sequence[SalvageItem]) -> Campaign:
    for item in items:
        if item.kind == "weapon":
            campaign = attrs.evolve(campaign, weapons=add_count(campaign.weapons, item.item, 1))
        elif item.kind == "equipment":
            campaign = attrs.evolve(campaign, equipment=add_count(campaign.equipment, item.item, 1))
        else:
            raise ValueError(f"salvage of kind {item.kind} is not stored in the inventory")
    return campaign


def reveal(campaign: Campaign, picked: Sequence[int], dice: Dice) -> tuple[Campaign, list[Event]]:
    """§12.3: the picks go to the inventory; then each unpicked item is scavenged with the
    Salvage Chance; the bonus finds (rolled at settlement) join them. All go to the inventory."""
    aa = campaign.after_action
    assert aa is not None and not aa.revealed
    chance = salvage_chance(aa.contract.difficulty)
    taken = [aa.pool[i] for i in picked]
    scavenged = [
        item for i, item in enumerate(aa.pool) if i not in picked and dice.chance(LOOT, chance)
    ]
    found = (*scavenged, *aa.found)
    campaign = _stock(campaign, [*taken, *found])
    lines = []
    if taken:
        lines.append("Picked: " + ", ".join(item_name(i) for i in taken) + ".")
    if scavenged:
        lines.append("Scavenged: " + ", ".join(item_name(i) for i in scavenged) + ".")
    if aa.found:
        lines.append("Bonus finds: " + ", ".join(item_name(i) for i in aa.found) + ".")
    if not (taken or found):
        lines.append("Nothing recovered from the wreckage.")
    aa = attrs.evolve(
        aa, picked=tuple(picked), found=found, revealed=True, report=(*aa.report, *lines)
    )
    campaign = attrs.evolve(campaign, after_action=aa)
    return campaign, [Report(topic="salvage", text=line) for line in lines]


def salvage_refusal(campaign: Campaign, picks: str) -> str | None:
    """Why `salvage PICKS` is illegal now, or None."""
    aa = _open(campaign)
    if isinstance(aa, str):
        return aa
    if aa.revealed:
        return "the salvage is already settled: close the report with done"
    picked = parse_picks(picks, aa)
    return picked if isinstance(picked, str) else None


def _salvage(campaign: Campaign, cmd: Salvage, dice: Dice) -> Change | str:
    reason = salvage_refusal(campaign, cmd.picks)
    if reason:
        return reason
    assert campaign.after_action is not None
    picked = parse_picks(cmd.picks, campaign.after_action)
    assert not isinstance(picked, str)
    return reveal(campaign, picked, dice)


def wreck_refusal(campaign: Campaign, index: int) -> str | None:
    """Why `buy-wreck INDEX` is illegal now, or None (§12.4)."""
    aa = _open(campaign)
    if isinstance(aa, str):
        return aa
    if not aa.frame_offers:
        return "no head-kill frames are for sale"
    if not 1 <= index <= len(aa.frame_offers):
        return f"no frame {index} for sale (1 to {len(aa.frame_offers)})"
    return ledger.short_of(campaign, wreck_price(aa.frame_offers[index - 1].chassis))


def _buy_wreck(campaign: Campaign, cmd: BuyWreck, dice: Dice) -> Change | str:
    reason = wreck_refusal(campaign, cmd.index)
    if reason:
        return reason
    aa = campaign.after_action
    assert aa is not None
    offer = aa.frame_offers[cmd.index - 1]
    price = wreck_price(offer.chassis)
    frame = attrs.evolve(offer, id=f"F{campaign.next_frame}", wreck=True)
    offers = tuple(o for i, o in enumerate(aa.frame_offers) if i != cmd.index - 1)
    campaign = attrs.evolve(
        campaign,
        frames=(*campaign.frames, frame),
        next_frame=campaign.next_frame + 1,
        after_action=attrs.evolve(aa, frame_offers=offers),
    )
    campaign, moved = ledger.post(campaign, "salvage", -price, f"Salvaged frame: {frame.name}")
    text = (
        f"{frame.name} joins the company as {frame.id} (damaged; repair "
        f"{wreck_repair_cost(frame.chassis):,} credits, {wreck_repair_days()} days)."
    )
    return campaign, [moved, Report(topic="salvage", text=text)]


def done_refusal(campaign: Campaign) -> str | None:
    """Why `done` cannot close the report now (the picks are not made), or None."""
    aa = _open(campaign)
    if isinstance(aa, str):
        return aa
    if not aa.revealed and aa.picks > 0:
        return (
            f"choose your salvage first: salvage with up to {aa.picks} item number(s) "
            "(e.g. salvage 1+2), or salvage - to take none"
        )
    return None


def _done(campaign: Campaign, cmd: Dismiss, dice: Dice) -> Change | str:
    reason = done_refusal(campaign)
    if reason:
        return reason
    aa = campaign.after_action
    assert aa is not None
    events: list[Event] = []
    if not aa.revealed:
        campaign, events = reveal(campaign, [], dice)
    campaign = attrs.evolve(campaign, after_action=None)
    campaign, more = end_if_finished(campaign)
    return campaign, [*events, *more]


HANDLERS: Handlers = {
    Salvage: campaign_handler(_salvage, in_debrief=True),
    BuyWreck: campaign_handler(_buy_wreck, in_debrief=True),
    Dismiss: campaign_handler(_done, in_debrief=True),
}
CHECKS: Checks = campaign_checks(
    HANDLERS,
    {
        Salvage: lambda c, cmd: salvage_refusal(c, cmd.picks),
        BuyWreck: lambda c, cmd: wreck_refusal(c, cmd.index),
        Dismiss: lambda c, cmd: done_refusal(c),
    },
)
