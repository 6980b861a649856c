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

Commands count from 1 (`salvage 1+3`, `buy-wreck 1`, like `regroup`); `AfterAction.picked`
stores the 0-based positions of the picked items in `AfterAction.pool`.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..catalog import UNIVERSAL, catalog
from ..catalog.records import PayoutLevel
from ..combat.setup import PRIORITIES, STANCES, FrameSpec, MountSpec, new_battle
from ..combat.state import HEAD, Battle, PilotSkills, Unit
from ..combat.stats import armor_split
from ..core import Accepted, Event, Handlers, Outcome, Refused
from ..dice import AI, LOOT, PILOTS, Dice
from ..model import GameState
from . import ledger
from .commands import Accept, BuyWreck, Dismiss, Salvage
from .common import Change, campaign_handler, campaign_refusal, split
from .events import CampaignEnded, Report
from .repair import (
    frame_status_after_battle,
    repair_cost,
    wreck_price,
    wreck_repair_cost,
    wreck_repair_days,
)
from .state import (
    AfterAction,
    Campaign,
    Contract,
    Frame,
    Mission,
    SalvageItem,
    add_count,
)

TOPIC = "mission"
PERCENT = 100


# ---- small lookups -----------------------------------------------------------------------------
def faction_name(faction: str) -> str:
    f = catalog().factions.get(faction)
    return f.short if f is not None else faction


def item_name(item: SalvageItem) -> str:
    cat = catalog()
    if item.kind == "weapon":
        return cat.weapons[item.item].name
    if item.kind == "equipment":
        return cat.equipment[item.item].name
    return cat.chassis[item.item].name


def find_contract(campaign: Campaign, contract_id: str) -> Contract | None:
    for c in campaign.contracts:
        if c.id == contract_id:
            return c
    return None


def payout(level: int) -> PayoutLevel | None:
    for p in catalog().economy.payout_level:
        if p.level == level:
            return p
    return None


# ---- deployment (§11.5) ------------------------------------------------------------------------
def deployment_cost(campaign: Campaign, frame_ids: Sequence[str]) -> int:
    """§11.5: the sum of the deployed frames' class deployment costs."""
    cat = catalog()
    return sum(
        cat.classes[cat.chassis[campaign.frame(f).chassis].class_].deployment_cost
        for f in frame_ids
    )


def frame_deploy_refusal(campaign: Campaign, frame_id: str) -> str | None:
    """Why this frame cannot deploy: it must exist, be Ready and idle, and carry an Active
    pilot (§9.2: an injured pilot cannot deploy)."""
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if frame.status != "ready":
        return f"{frame.name} ({frame.id}) is {frame.status}, not ready"
    if frame.busy_days > 0:
        return f"{frame.name} ({frame.id}) is in the bay for {frame.busy_days} more day(s)"
    if frame.pilot is None:
        return f"{frame.name} ({frame.id}) has no pilot: assign one first"
    pilot = campaign.pilot(frame.pilot)
    if pilot.status == "injured":
        return f"{pilot.callsign} is injured for {pilot.injury_days} more day(s)"
    if pilot.status != "active":
        return f"{pilot.callsign} cannot deploy ({pilot.status})"
    return None


def accept_refusal(
    campaign: Campaign, contract_id: str, payout_level: int, frame_ids: Sequence[str]
) -> str | None:
    """Why `accept contract payout frames` is illegal now, or None."""
    contract = find_contract(campaign, contract_id)
    if contract is None:
        known = ", ".join(c.id for c in campaign.contracts) or "none"
        return f"no contract {contract_id} on the board (offered: {known})"
    if contract.place != campaign.place:
        return f"contract {contract_id} is offered at {catalog().places[contract.place].name}"
    if payout(payout_level) is None:
        levels = ", ".join(f"{p.level} {p.name}" for p in catalog().economy.payout_level)
        return f"payout level must be one of: {levels}"
    most = catalog().missions.lance.max_frames
    if not 1 <= len(frame_ids) <= most:
        return f"deploy 1 to {most} frames, joined by + (e.g. F1+F2)"
    if len(set(frame_ids)) != len(frame_ids):
        return "each frame can deploy only once"
    for f in frame_ids:
        reason = frame_deploy_refusal(campaign, f)
        if reason:
            return reason
    for e in contract.enemies:
        if not any(lo.name == e.loadout for lo in catalog().stock_loadouts(e.chassis)):
            return f"contract {contract_id} names an unknown loadout {e.loadout!r}"
    return ledger.short_of(campaign, deployment_cost(campaign, frame_ids))


def player_spec(campaign: Campaign, frame: Frame) -> FrameSpec:
    """A company frame as it is: its armour, structure, loadout and pilot's skills."""
    assert frame.pilot is not None
    p = campaign.pilot(frame.pilot)
    return FrameSpec(
        chassis=frame.chassis,
        pilot=PilotSkills(
            callsign=p.callsign, gunnery=p.gunnery, piloting=p.piloting, tactics=p.tactics
        ),
        label=p.callsign,
        weapons=tuple(
            MountSpec(weapon=m.weapon, mount=m.mount, group=m.group) for m in frame.weapons
        ),
        equipment=tuple((f.equipment, f.mount) for f in frame.equipment),
        armor=frame.armor,
        structure=frame.structure,
    )


def enemy_specs(contract: Contract, dice: Dice) -> tuple[FrameSpec, ...]:
    """§16.1, R17, R18: the contract's lance with its named stock loadouts and the table's
    pilots; stance and target priority drawn from the AI stream (D23)."""
    cat = catalog()
    force = cat.enemy_force(contract.difficulty)
    specs = []
    for i, e in enumerate(contract.enemies, start=1):
        loadout = next(lo for lo in cat.stock_loadouts(e.chassis) if lo.name == e.loadout)
        specs.append(
            FrameSpec(
                chassis=e.chassis,
                pilot=PilotSkills(
                    callsign=f"Hostile-{i}",
                    gunnery=force.gunnery,
                    piloting=force.piloting,
                    tactics=force.tactics,
                ),
                label=e.label,
                weapons=tuple(
                    MountSpec(weapon=w.weapon, mount=w.mount, group=w.group)
                    for w in loadout.weapons
                ),
                equipment=(
                    *((eq, None) for eq in loadout.equipment),
                    *((s.equipment, s.mount) for s in loadout.slots),
                ),
                stance=dice.choice(AI, STANCES),
                priority=dice.choice(AI, PRIORITIES),
            )
        )
    return tuple(specs)


def _accept(state: GameState, cmd: Accept) -> Outcome:
    reason = campaign_refusal(state)
    if reason:
        return Refused(reason)
    if state.battle is not None:
        return Refused("a battle is already under way")
    campaign = state.campaign
    assert campaign is not None
    frame_ids = split(cmd.frames)
    reason = accept_refusal(campaign, cmd.contract, cmd.payout, frame_ids)
    if reason:
        return Refused(reason)
    contract = find_contract(campaign, cmd.contract)
    level = payout(cmd.payout)
    assert contract is not None and level is not None
    dice = Dice(state.rng)
    frames = [campaign.frame(f) for f in frame_ids]
    enemy = enemy_specs(contract, dice)
    battle = new_battle(
        dice,
        difficulty=contract.difficulty,
        landscape=contract.landscape,
        player=[player_spec(campaign, f) for f in frames],
        enemy=enemy,
        player_ai=False,
    )
    units = battle.side_units("player")
    mission = Mission(
        contract=contract,
        payout_level=cmd.payout,
        frames=tuple((u.id, f.id) for u, f in zip(units, frames, strict=True)),
    )
    cost = deployment_cost(campaign, frame_ids)
    campaign, moved = ledger.post(
        campaign, "deployment", -cost, f"Deployment, contract {contract.id}, {len(frames)} frame(s)"
    )
    campaign = attrs.evolve(
        campaign,
        mission=mission,
        contracts=tuple(c for c in campaign.contracts if c.id != contract.id),
    )
    names = ", ".join(f"{f.name} ({f.pilot})" for f in frames)
    text = (
        f"Contract {contract.id} accepted for {faction_name(contract.employer)} against "
        f"{faction_name(contract.opponent)}, difficulty {contract.difficulty}, {level.name}. "
        f"Deployed: {names}."
    )
    events: list[Event] = [moved, Report(topic=TOPIC, text=text)]
    return Accepted(
        attrs.evolve(state, campaign=campaign, battle=battle, rng=dice.state()), tuple(events)
    )


# ---- rewards, standing, reputation, XP (§11.6, R23, §15.2, R21, §9.4) ------------------------
def mission_reward(
    contract: Contract, result: str, reward_percent: int, payout_level: int, zero_losses: bool
) -> int:
    """R23: Victory = (base + bonus) x standing multiplier (`reward_percent`), x1.25 with zero
    frames destroyed; Withdrawal 50%, Defeat 25% of (base + bonus); then the payout level's
    credit percent. One rounding down, at the end."""
    cat = catalog()
    outcome = cat.economy.outcome
    level = payout(payout_level)
    assert level is not None
    factors: list[int]
    if result == "victory":
        factors = [outcome.victory, reward_percent]
        if zero_losses:
            factors.append(outcome.zero_losses_bonus)
    elif result == "withdrawal":
        factors = [outcome.withdrawal]
    else:
        factors = [outcome.defeat]
    factors.append(level.credit_percent)
    numerator = contract.base + contract.bonus
    for f in factors:
        numerator *= f
    denominator: int = PERCENT ** len(factors)
    return numerator // denominator


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
    rules = catalog().economy.standing
    now = dict(standing)
    for f, delta in standing_changes(employer, result, difficulty).items():
        now[f] = max(rules.min, min(rules.max, now.get(f, rules.start) + delta))
    return tuple(sorted(now.items()))


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


# ---- salvage (§12, R24) ------------------------------------------------------------------------
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


def salvage_pool(battle: Battle) -> tuple[SalvageItem, ...]:
    """R24: every weapon not destroyed in combat on every destroyed enemy, in battle order."""
    return tuple(
        SalvageItem(kind="weapon", item=w.weapon)
        for u in battle.side_units("enemy")
        if wrecked(u)
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
    for u in battle.side_units("enemy"):
        if wrecked(u) and dice.chance(LOOT, chance):
            found.append(SalvageItem(kind="weapon", item=dice.choice(LOOT, pool)))
    return tuple(found)


def head_kill_offers(battle: Battle) -> tuple[Frame, ...]:
    """§12.4: enemies whose pilot died with the head destroyed (not CT-breached) come up for
    sale as bare frames (their weapons are in the salvage pool, R24) with their combat damage,
    head armour 0, status Damaged. Offer ids are W1, W2...; a bought frame gets a fresh id."""
    cat = catalog()
    offers: list[Frame] = []
    for u in battle.side_units("enemy"):
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


# ---- frames and pilots home (R15, R16, R19, R20, §9.2) ---------------------------------------
def battle_components(unit: Unit) -> int:
    """§11.2 ComponentDamageCount from a battle: reactor hits + gyro + sensors + actuator hits
    + cockpit (a cockpit hit or breach damages the cockpit, a component like the others).
    Destroyed weapons are not counted: they are lost (R19), not repaired."""
    return (
        unit.reactor_hits
        + int(unit.gyro_hit)
        + int(unit.sensor_hit)
        + sum(unit.actuator_hits)
        + int(unit.cockpit_hit or unit.cockpit_breached)
    )


def frame_home(frame: Frame, unit: Unit) -> Frame:
    """R19, R20, R15, §4.5: the frame as it comes home from the battle."""
    weapons = tuple(m for m, w in zip(frame.weapons, unit.weapons, strict=True) if not w.destroyed)
    equipment = tuple(
        f for f, e in zip(frame.equipment, unit.equipment, strict=True) if not e.destroyed
    )
    home = attrs.evolve(
        frame,
        weapons=weapons,
        equipment=equipment,
        armor=unit.armor,
        structure=unit.structure,
        components=frame.components + battle_components(unit),
    )
    if unit.destroyed:
        return attrs.evolve(home, status="destroyed", pilot=None)
    if not unit.pilot_alive:
        return attrs.evolve(home, status="damaged", pilot=None)
    return attrs.evolve(home, status=frame_status_after_battle(home))


def injury_days(dice: Dice) -> int:
    """§9.2, §4.6, R16: 3 + random 0-7 days."""
    rules = catalog().pilots.injury
    return rules.base_days + dice.between(PILOTS, 0, rules.extra_days_max)


def _bring_home(
    campaign: Campaign, battle: Battle, result: str, difficulty: int, dice: Dice
) -> tuple[Campaign, list[str]]:
    """Pilots' fates and XP, frames home; the report lines."""
    cat = catalog()
    assert campaign.mission is not None
    lines: list[str] = []
    xp = mission_xp(result, difficulty)
    for unit_id, frame_id in campaign.mission.frames:
        unit = battle.unit(unit_id)
        frame = campaign.frame(frame_id)
        assert frame.pilot is not None
        pilot = campaign.pilot(frame.pilot)
        home = frame_home(frame, unit)
        if unit.destroyed:
            kia = not unit.pilot_alive or dice.chance(
                PILOTS, cat.combat.damage.destroyed_pilot_kia_chance
            )
        else:
            kia = not unit.pilot_alive  # R15: a head kill
        lost = [cat.weapons[w.weapon].name for w in unit.weapons if w.destroyed] + [
            cat.equipment[e.equipment].name for e in unit.equipment if e.destroyed
        ]
        if home.status == "destroyed":
            lines.append(f"{frame.name} ({frame.id}) was destroyed.")
        else:
            lines.append(
                f"{frame.name} ({frame.id}) comes home {home.status}: armour "
                f"{sum(home.armor)}/{sum(armor_split(cat.chassis[frame.chassis]))}, "
                f"{battle_components(unit)} component hit(s)."
            )
        if lost and home.status != "destroyed":
            lines.append(f"{frame.name} lost {', '.join(lost)} for good.")
        if kia:
            pilot = attrs.evolve(pilot, status="kia", injury_days=0)
            lines.append(f"{pilot.callsign} was killed in action.")
        else:
            pilot = attrs.evolve(pilot, xp=pilot.xp + xp)
            note = f"{pilot.callsign}: +{xp} XP."
            if unit.cockpit_hit or unit.cockpit_breached:
                days = injury_days(dice)
                pilot = attrs.evolve(pilot, status="injured", injury_days=days)
                note += f" Injured for {days} days."
            if unit.destroyed:
                note += f" Ejected; no longer flies {frame.name}."
            lines.append(note)
        campaign = campaign.with_frame(home).with_pilot(pilot)
    return campaign, lines


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
    amount = mission_reward(
        contract, result, standing_level.reward_percent, mission.payout_level, zero_losses
    )
    campaign, moved = ledger.post(campaign, "reward", amount, f"Contract {contract.id}: {result}")
    events.append(moved)
    lines.append(f"Paid {amount:,} credits ({level.name}, {level.credit_percent}%).")

    before = dict(campaign.standing)
    standing = standing_after(campaign.standing, contract.employer, result, d)
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

    campaign, more = _bring_home(campaign, battle, result, d, dice)
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


def _salvage(campaign: Campaign, cmd: Salvage, dice: Dice) -> Change | str:
    aa = _open(campaign)
    if isinstance(aa, str):
        return aa
    if aa.revealed:
        return "the salvage is already settled: close the report with done"
    picked = parse_picks(cmd.picks, aa)
    if isinstance(picked, str):
        return picked
    return reveal(campaign, picked, dice)


def _buy_wreck(campaign: Campaign, cmd: BuyWreck, dice: Dice) -> Change | str:
    aa = _open(campaign)
    if isinstance(aa, str):
        return aa
    if not aa.frame_offers:
        return "no head-kill frames are for sale"
    if not 1 <= cmd.index <= len(aa.frame_offers):
        return f"no frame {cmd.index} for sale (1 to {len(aa.frame_offers)})"
    offer = aa.frame_offers[cmd.index - 1]
    price = wreck_price(offer.chassis)
    reason = ledger.short_of(campaign, price)
    if reason:
        return reason
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


def _done(campaign: Campaign, cmd: Dismiss, dice: Dice) -> Change | str:
    aa = _open(campaign)
    if isinstance(aa, str):
        return aa
    events: list[Event] = []
    if not aa.revealed:
        if aa.picks > 0:
            return (
                f"choose your salvage first: salvage with up to {aa.picks} item number(s) "
                "(e.g. salvage 1+2), or salvage - to take none"
            )
        campaign, events = reveal(campaign, [], dice)
    campaign = attrs.evolve(campaign, after_action=None)
    campaign, more = end_if_finished(campaign)
    return campaign, [*events, *more]


# ---- the roguelike end (R28) -------------------------------------------------------------------
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


def check_end(campaign: Campaign) -> str | None:
    """R28: the cause when the company has no frame and pilot that can deploy (now or once
    repairs and injuries run their course) and its credits cannot pay the cheapest fix (see
    `frame_fix_cost`, `pilot_fix_cost`); else None. A mission under way never ends the run.
    The 30 days below zero of R28 are counted by the day tick (`timeflow`)."""
    if campaign.ended:
        return campaign.ended
    if campaign.mission is not None:
        return None
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


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    Accept: _accept,
    Salvage: campaign_handler(_salvage, in_debrief=True),
    BuyWreck: campaign_handler(_buy_wreck, in_debrief=True),
    Dismiss: campaign_handler(_done, in_debrief=True),
}
