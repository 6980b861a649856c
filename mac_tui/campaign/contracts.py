"""Contracts (§14.4, §16, §11.6, R17, R18, R22): the mission board of the current location.

A location's board holds `contracts.offers` contracts. It is posted again when the company
arrives (§14.4, forced by travel), when it belongs to another location, and when it is
`contracts.refresh_days` days old. Each contract rolls, in this order and all from the
CONTRACTS stream:

1. the employer (§14.4): in a faction system the controller with `employer_controller_chance`
   percent, otherwise one of the other factions uniformly; in a contested system any faction
   uniformly;
2. the opponent: one of the factions other than the employer, uniformly;
3. the difficulty (§16.2, R22): `1 + Reputation / 5` (whole division) clamped to 1-4, plus a
   uniform whole number from -1 to +2, clamped to the location's own range. A new company's
   opening board always offers the lowest difficulty the board can post (the roll at -1;
   difficulty 1 at the starting location, BL1): when none of its contracts rolled it, the last
   one is drawn again, all its rolls but the difficulty's, at that difficulty;
4. the random bonus of §11.6: a whole number from 0 to the difficulty's `bonus_max`;
5. the enemy lance (§16.1, setup-facts): one frame per class of the difficulty's force, its
   chassis picked as in battle set-up (`combat.setup.pick_chassis`: the opponent's chassis with
   `faction_chassis_chance` percent (R17), else a universal one, else any of the class, D12),
   then one of that chassis' stock loadouts (R18). Pilots come from §16.1 when the mission
   starts; a contract stores only chassis, loadout and label;
6. the enemy side's withdrawal rule (§10.4, R14, D23): drawn with the difficulty's weights
   (`missions.toml` `enemy_force.withdrawal`), stored on the contract, shown on the board and
   used by the battle;
7. with module O10 only, the third party (O10.1: `combat.third_force.roll_third_party`), from
   its own `missions` stream, so the rolls above are the same with O10 on or off;
8. with optional module O11, the objectives (O11.1), from the `missions` stream after the
   third party (OB7 only with an allied lance).

The battle landscape is the location's type (setup-facts).
"""

from __future__ import annotations

import attrs
from attrs import frozen

from ..catalog import catalog
from ..catalog.records import Place
from ..combat.objectives import draw_objectives, objective_label
from ..combat.setup import WITHDRAW_TEXT, draw_withdrawal, pick_chassis
from ..combat.third_force import roll_third_party
from ..combat.third_parties import O10
from ..core import Event
from ..dice import CONTRACTS, Dice
from ..ruleset import Ruleset
from .events import Report
from .state import Campaign, Contract, EnemyFrame, ThirdParty


# ---- difficulty (§16.2, R22) ---------------------------------------------------------------
def base_difficulty(reputation: int) -> int:
    """§16.2: BaseDifficulty = 1 + Reputation / 5 (whole division), clamped to 1-4."""
    d = catalog().missions.difficulty
    value = d.base + reputation // d.reputation_divisor
    return max(d.base_min, min(d.base_max, value))


def final_difficulty(reputation: int, roll: int, place: Place) -> int:
    """§16.2: BaseDifficulty + roll (R22: -1..+2), clamped to the location's min..max."""
    value = base_difficulty(reputation) + roll
    return max(place.min_difficulty, min(place.max_difficulty, value))


def roll_difficulty(reputation: int, place: Place, dice: Dice) -> int:
    d = catalog().missions.difficulty
    return final_difficulty(reputation, dice.between(CONTRACTS, d.roll_min, d.roll_max), place)


# ---- factions (§14.4) ----------------------------------------------------------------------
def roll_employer(place_id: str, dice: Dice) -> str:
    """§14.4: the controller with the data's chance in a faction system (otherwise one of the
    other factions, uniformly); any faction uniformly in a contested system."""
    cat = catalog()
    factions = tuple(cat.factions)
    controller = cat.controller(place_id)
    if controller is None:
        return dice.choice(CONTRACTS, factions)
    if dice.chance(CONTRACTS, cat.missions.contracts.employer_controller_chance):
        return controller
    return dice.choice(CONTRACTS, tuple(f for f in factions if f != controller))


def roll_opponent(employer: str, dice: Dice) -> str:
    """The faction the contract fights: any faction but the employer, uniformly."""
    return dice.choice(CONTRACTS, tuple(f for f in catalog().factions if f != employer))


# ---- contracts -----------------------------------------------------------------------------
def roll_enemies(
    difficulty: int, opponent: str, dice: Dice, ruleset: Ruleset = ()
) -> tuple[EnemyFrame, ...]:
    """§16.1, R17, R18, D12: one frame per class of the force, labelled `RAIDER-1`... (a
    module's stock loadout only while the module is in `ruleset`, O0.11)"""
    cat = catalog()
    out = []
    for i, frame_class in enumerate(cat.enemy_force(difficulty).classes, start=1):
        chassis = pick_chassis(dice, frame_class, opponent, CONTRACTS)
        loadout = dice.choice(CONTRACTS, cat.drawn_loadouts(chassis.designation, ruleset))
        out.append(
            EnemyFrame(
                chassis=chassis.designation,
                loadout=loadout.name,
                label=f"{chassis.name.upper()}-{i}",
            )
        )
    return tuple(out)


def lowest_difficulty(reputation: int, place: Place) -> int:
    """The easiest contract a location's board can post at this reputation (§16.2 with the
    R22 roll at its lowest), BL1's opening offer."""
    return final_difficulty(reputation, catalog().missions.difficulty.roll_min, place)


def generate_contract(
    campaign: Campaign, dice: Dice, contract_id: str, *, lowest: bool = False
) -> Contract:
    """One contract at the company's location (see the module docstring for the draws); with
    `lowest`, at the lowest difficulty the board can post, without the difficulty roll."""
    cat = catalog()
    place = cat.places[campaign.place]
    employer = roll_employer(place.id, dice)
    opponent = roll_opponent(employer, dice)
    if lowest:
        difficulty = lowest_difficulty(campaign.reputation, place)
    else:
        difficulty = roll_difficulty(campaign.reputation, place, dice)
    reward = cat.reward(difficulty)
    bonus = dice.between(CONTRACTS, 0, reward.bonus_max)
    enemies = roll_enemies(difficulty, opponent, dice, campaign.ruleset)
    withdrawal = draw_withdrawal(dice, CONTRACTS, difficulty)
    third = None
    if O10 in campaign.ruleset:  # O10.1, from its own `missions` stream (O0.6)
        rolled = roll_third_party(
            dice, difficulty, employer=employer, opponent=opponent, ruleset=campaign.ruleset
        )
        if rolled.kind is not None:
            third = ThirdParty(
                roll=rolled.roll,
                kind=rolled.kind,
                faction=rolled.faction,
                frames=tuple(
                    EnemyFrame(chassis=f.chassis, loadout=f.loadout, label=f.label)
                    for f in rolled.frames
                ),
            )
    ally = third is not None and third.kind == "ally"
    objectives = draw_objectives(dice, difficulty, campaign.ruleset, ally=ally)  # O11.1
    return Contract(
        id=contract_id,
        employer=employer,
        opponent=opponent,
        difficulty=difficulty,
        base=reward.base,
        bonus=bonus,
        landscape=place.type,
        enemies=enemies,
        place=place.id,
        enemy_withdrawal=withdrawal,
        third_party=third,
        objectives=objectives,
    )


def board_is_due(campaign: Campaign) -> bool:
    """The board must be posted again: it is `refresh_days` old or was posted elsewhere."""
    age = campaign.day - campaign.contracts_day
    if age >= catalog().missions.contracts.refresh_days:
        return True
    return any(c.place != campaign.place for c in campaign.contracts)


def ensure_contracts(
    campaign: Campaign, dice: Dice, force: bool = False, *, opening: bool = False
) -> tuple[Campaign, list[Event]]:
    """Post a fresh board of `contracts.offers` contracts at the company's location when
    `force` (arrival, §14.4; a new company) or when the board is due; else change nothing.
    The `opening` board of a new company always offers the lowest difficulty the location
    posts (BL1: difficulty 1 at the starting location): when none of its contracts rolled it,
    its last contract is drawn again at that difficulty."""
    if not force and not board_is_due(campaign):
        return campaign, []
    offers = catalog().missions.contracts.offers
    contracts = []
    n = campaign.next_contract
    for _ in range(offers):
        contracts.append(generate_contract(campaign, dice, f"C{n}"))
        n += 1
    lowest = lowest_difficulty(campaign.reputation, catalog().places[campaign.place])
    if opening and all(c.difficulty > lowest for c in contracts):
        contracts[-1] = generate_contract(campaign, dice, contracts[-1].id, lowest=True)
    campaign = attrs.evolve(
        campaign, contracts=tuple(contracts), contracts_day=campaign.day, next_contract=n
    )
    place = catalog().places[campaign.place]
    low = min(c.difficulty for c in contracts)
    high = max(c.difficulty for c in contracts)
    span = str(low) if low == high else f"{low}-{high}"
    text = f"{len(contracts)} contracts posted at {place.name} (difficulty {span})."
    return campaign, [Report(topic="contracts", text=text)]


def third_party_text(third: ThirdParty) -> str:
    """O10.1 in words: `an allied lance of Directorate: 2 Light` (the board shows it)."""
    cat = catalog()
    who = "an allied lance" if third.kind == "ally" else "a neutral lance"
    faction = cat.factions.get(third.faction or "")
    of = f" of {faction.short}" if faction is not None else ""
    classes = [cat.classes[cat.chassis[f.chassis].class_].name for f in third.frames]
    counted = ", ".join(f"{classes.count(c)} {c}" for c in dict.fromkeys(classes))
    return f"{who}{of}: {counted}"


# ---- the mission board ---------------------------------------------------------------------
def reward_range(campaign: Campaign, contract: Contract) -> tuple[int, int]:
    """§11.6, R23: the Victory reward before the payout level, from base to base + the
    difficulty's largest bonus, times the standing multiplier with the employer (rounded down).
    The rolled bonus stays hidden until the mission pays. With an allied lance, 90% of it
    (O10.7)."""
    cat = catalog()
    percent = cat.standing_level(campaign.standing_with(contract.employer)).reward_percent
    share = 100
    if contract.third_party is not None and contract.third_party.kind == "ally":
        share = cat.third_parties.rewards.ally_reward_percent
    top = contract.base + cat.reward(contract.difficulty).bonus_max
    return contract.base * percent * share // 10_000, top * percent * share // 10_000


@frozen(kw_only=True)
class ContractRow:
    """One line of the mission board, ready to show."""

    id: str
    employer: str  # faction id
    employer_name: str
    opponent: str  # faction id
    opponent_name: str
    standing: str  # standing level name with the employer
    difficulty: int
    reward_min: int
    reward_max: int
    enemy_classes: tuple[str, ...]  # class names, one per enemy frame
    enemy_withdrawal: str  # the enemy's §10.4 rule in words, e.g. "retreats at 25%" (D23)
    map_size: str  # map size name
    map_width: int
    map_height: int
    landscape: str  # landscape name
    third_party: str = ""  # O10.1 in words ("" without one, and with O10 off)
    objectives: tuple[str, ...] = ()  # O11: "OB3 Swift +10%", a hidden one "?"


def contract_rows(campaign: Campaign) -> list[ContractRow]:
    """The board's contracts in posting order, with what a player weighs before accepting."""
    cat = catalog()
    rows = []
    for c in campaign.contracts:
        low, high = reward_range(campaign, c)
        size = cat.map_size(c.difficulty)
        rows.append(
            ContractRow(
                id=c.id,
                employer=c.employer,
                employer_name=cat.factions[c.employer].name,
                opponent=c.opponent,
                opponent_name=cat.factions[c.opponent].name,
                standing=cat.standing_level(campaign.standing_with(c.employer)).name,
                difficulty=c.difficulty,
                reward_min=low,
                reward_max=high,
                enemy_classes=tuple(
                    cat.classes[cat.chassis[e.chassis].class_].name for e in c.enemies
                ),
                enemy_withdrawal=WITHDRAW_TEXT[c.enemy_withdrawal],
                map_size=size.name,
                map_width=size.width,
                map_height=size.height,
                landscape=cat.landscape(c.landscape).name,
                third_party=third_party_text(c.third_party) if c.third_party else "",
                objectives=tuple(objective_label(o) for o in c.objectives),
            )
        )
    return rows
