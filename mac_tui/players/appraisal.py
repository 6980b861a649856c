"""How the campaign autopilot sizes up its company: the lance it can field and the threat it
can take on, the money each kind of purchase must leave in hand, and where a weapon would go.

The numbers below are the autopilot's habits, not rules: every rule number comes from the
catalog. `players/autopilot.py` holds its rules of thumb and its driver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from ..campaign.accept import deployment_cost, frame_deploy_refusal
from ..campaign.contracts import base_difficulty
from ..campaign.pilots import hire_refusal
from ..campaign.refit import effective_output
from ..campaign.state import Campaign, Contract, Frame, Mount, Pilot
from ..campaign.timeflow import daily_upkeep
from ..catalog import LOCATION_ORDER, SIZES, catalog
from .ai.skill import CALLED_SHOTS_TACTICS

# ---- habits (strategy knobs, not rule numbers) ------------------------------------------------
RESERVE_DAYS = 45  # luxuries keep this many days of upkeep in hand (plus the growth floor)
REPAIR_BUFFER = 100_000  # growth keeps a round of repairs in hand above the crunch line
CRUNCH_DAYS = 15  # below this many days of upkeep (and a deployment) cash is short
REPAIR_DAYS_KEPT = 7  # repairs keep a deployment and this many days of upkeep in hand
SAFETY_MARGIN = 0  # outside a cash crunch the lance wants this much power beyond the threat
CRUNCH_STRETCH = 1  # in a cash crunch the lance takes on this much more threat
LAST_STAND_STRETCH = 2  # a lance that can work nowhere takes on this much more threat here
MARKSMEN_MARGIN = 2  # the lance wants this much power beyond the threat of pilots who aim
RICH_MARGIN = 1  # ...or this much once the company is rich (`RICH_DAYS` of upkeep in hand)
ARM_BUDGET = 40_000  # a chassis is bought only with this much left to arm it
ROSTER_MAX = 4  # frames (not destroyed) the company keeps: one full lance
MIN_LANCE = 4  # frames a lance waits for, when the company has that many...
MIN_DEPLOY = 3  # ...and the fewest it goes out with, unless cash is short
WAIT_FOR_LANCE = 3  # a lance waits this many days for a frame about to join it
SPARE_KEEP = 1  # spare copies of a mountable weapon kept in the inventory
FUEL_LOW_PERCENT = 50  # refuel below this share of the tanks' capacity
COMFORT_STRETCH = 1  # contracts up to reputation's base difficulty + this
DAMAGE_PER_POINT = 10  # weapon damage per point of lance power (capped by the class)
ARMED_DAMAGE_PER_WEIGHT = 20  # weapons are bought for a frame until it has this x class weight
SKILL_STEPS = 2  # difficulty steps (better enemy pilots) per point of threat
RICH_DAYS = 365  # a company holding this many days of upkeep is rich...
LEAVE_DAYS = 7  # ...and gives its pilots this much leave after each contract
WAIT_MAX = 7  # longest single advance-day
JUMP_ODDS = 4  # one trip in this many goes anywhere the lance can work, not the cheapest
OPENING_DAYS = 60  # in its first days a new company...
OPENING_RESERVE_PERCENT = 40  # ...buys frames only keeping this share of its starting credits

Tier = Literal["repair", "growth", "luxury"]


# ---- the lance ---------------------------------------------------------------------------------
def class_weight(chassis: str) -> int:
    """Light 1, medium 2, heavy 3, assault 4: the class's position in the catalog."""
    cat = catalog()
    return list(cat.classes).index(cat.chassis[chassis].class_) + 1


def class_upkeep(chassis: str) -> int:
    cat = catalog()
    return cat.classes[cat.chassis[chassis].class_].upkeep


def firepower(frame: Frame) -> int:
    return sum(catalog().weapons[m.weapon].damage for m in frame.weapons)


def frame_power(frame: Frame) -> int:
    """What a frame adds to a lance: its class weight, less while it is poorly armed (one
    point per `DAMAGE_PER_POINT` damage of its weapons)."""
    return min(class_weight(frame.chassis), firepower(frame) // DAMAGE_PER_POINT)


def frame_order(frame: Frame) -> tuple[int, int, int, str]:
    return -frame_power(frame), -class_weight(frame.chassis), -firepower(frame), frame.id


def _skill(p: Pilot) -> tuple[int, int, int, str]:
    return -(p.gunnery + p.piloting), -p.tactics, -p.xp, p.callsign


def alive(campaign: Campaign) -> list[Frame]:
    return [f for f in campaign.frames if f.status != "destroyed"]


def deployable(campaign: Campaign, frame: Frame) -> bool:
    """Ready, idle, armed enough to count and seated with an active pilot."""
    return frame_power(frame) > 0 and frame_deploy_refusal(campaign, frame.id) is None


def lance(campaign: Campaign) -> list[Frame]:
    """The frames to deploy now: the strongest deployable ones, up to a lance."""
    most = catalog().missions.lance.max_frames
    ready = sorted((f for f in campaign.frames if deployable(campaign, f)), key=frame_order)
    return ready[:most]


def free_pilots(campaign: Campaign) -> list[Pilot]:
    """Pilots not killed and seated in no frame, the best first."""
    seated = {f.pilot for f in campaign.frames if f.pilot is not None}
    return sorted(
        (p for p in campaign.pilots if p.callsign not in seated and p.status != "kia"), key=_skill
    )


def potential_lance(campaign: Campaign, *, mended: bool = False) -> list[Frame]:
    """The lance once the bays and the sick bay are done: frames ready or in the bay that
    count (`mended`: damaged ones too, as if repaired), each with a seated pilot (fit or
    injured) or one of the free pilots."""
    statuses = ("ready", "repairing", "damaged") if mended else ("ready", "repairing")
    frames = sorted(
        (f for f in campaign.frames if f.status in statuses and frame_power(f) > 0),
        key=frame_order,
    )
    free = len(free_pilots(campaign))
    out = []
    for f in frames:
        if f.pilot is not None:
            out.append(f)
        elif free:
            free -= 1
            out.append(f)
    return out[: catalog().missions.lance.max_frames]


def power(frames: Sequence[Frame]) -> int:
    return sum(frame_power(f) for f in frames)


def threat_of(classes: Sequence[str], difficulty: int) -> int:
    """The enemy lance's class weights plus a point per `SKILL_STEPS` difficulty steps above
    the first (better enemy pilots, §16.1)."""
    order = list(catalog().classes)
    return sum(order.index(c) + 1 for c in classes) + (difficulty - 1) // SKILL_STEPS


def threat(contract: Contract) -> int:
    cat = catalog()
    classes = [cat.chassis[e.chassis].class_ for e in contract.enemies]
    return threat_of(classes, contract.difficulty)


def is_rich(campaign: Campaign) -> bool:
    """The company holds `RICH_DAYS` of upkeep."""
    return campaign.credits >= RICH_DAYS * daily_upkeep(campaign)


def marksmen_margin(difficulty: int, campaign: Campaign | None = None) -> int:
    """`MARKSMEN_MARGIN` against a difficulty whose enemy pilots call shots (Tactics
    `CALLED_SHOTS_TACTICS`, AI3: aimed at the head they kill pilots), else 0; a rich company
    (`campaign` holding `RICH_DAYS` of upkeep) can afford the risk with `RICH_MARGIN`."""
    aims = catalog().enemy_force(difficulty).tactics >= CALLED_SHOTS_TACTICS
    if not aims:
        return 0
    if campaign is not None and is_rich(campaign):
        return RICH_MARGIN
    return MARKSMEN_MARGIN


def comfort(campaign: Campaign) -> int:
    """The hardest difficulty the company's reputation makes comfortable (§16.2)."""
    return base_difficulty(campaign.reputation) + COMFORT_STRETCH


def in_crunch(campaign: Campaign) -> bool:
    return campaign.credits < crunch_line(campaign)


def suitable(campaign: Campaign, contract: Contract, frames: Sequence[Frame]) -> bool:
    """At least as many frames as the enemy, a lance at least as strong as the threat (with
    `marksmen_margin` to spare against pilots who call shots) and a difficulty within
    reputation comfort; in a cash crunch the margin is relaxed."""
    stretch = CRUNCH_STRETCH if in_crunch(campaign) else -SAFETY_MARGIN
    return (
        len(frames) >= len(contract.enemies)
        and contract.place == campaign.place
        and contract.difficulty <= comfort(campaign)
        and threat(contract) + marksmen_margin(contract.difficulty, campaign)
        <= power(frames) + stretch
    )


def choose_contract(campaign: Campaign, frames: Sequence[Frame]) -> Contract | None:
    """The hardest suitable contract (best paid) once the company holds its reserve, the
    easiest (then best paid) before; ties to the board's order."""
    options = [
        (c.difficulty, c.base + c.bonus, -i, c)
        for i, c in enumerate(campaign.contracts)
        if suitable(campaign, c, frames)
    ]
    if not options:
        return None
    if campaign.credits < floor(campaign, "luxury"):
        return max(options, key=lambda o: (-threat(o[3]), o[1], o[2]))[3]
    return max(options, key=lambda o: o[:3])[3]


def last_stand(campaign: Campaign, frames: Sequence[Frame]) -> Contract | None:
    """For a company whose mended lance can work nowhere and that cannot buy its way back
    (`stuck`): the least threatening contract on the board (best paid among equals) that
    `frames` meet frame for frame, whose enemy pilots do not call shots and whose threat is
    at most `LAST_STAND_STRETCH` beyond their power; it pays, where waiting only costs upkeep."""
    options = [
        (threat(c), -(c.base + c.bonus), i, c)
        for i, c in enumerate(campaign.contracts)
        if c.place == campaign.place
        and len(frames) >= len(c.enemies)
        and marksmen_margin(c.difficulty) == 0
        and threat(c) <= power(frames) + LAST_STAND_STRETCH
    ]
    return min(options, key=lambda o: o[:3])[3] if options else None


def lowest_offer(campaign: Campaign, place_id: str) -> int:
    """The easiest contract a location's board can post for this reputation (§16.2, R22)."""
    d = catalog().missions.difficulty
    place = catalog().places[place_id]
    lowest = base_difficulty(campaign.reputation) + d.roll_min
    return max(place.min_difficulty, min(place.max_difficulty, lowest))


def handled(campaign: Campaign, count: int, strength: int) -> int:
    """The hardest difficulty a lance of `count` frames and `strength` power can take on (0:
    none), `marksmen_margin` included."""
    cat = catalog()
    d = cat.missions.difficulty
    top = min(d.max, comfort(campaign))
    able = [
        n
        for n in range(d.min, top + 1)
        if len(cat.enemy_force(n).classes) <= count
        and threat_of(cat.enemy_force(n).classes, n) + marksmen_margin(n, campaign) <= strength
    ]
    return max(able, default=0)


def hardest_handled(campaign: Campaign, frames: Sequence[Frame]) -> int:
    """The hardest difficulty `frames` can take on (0: none), `marksmen_margin` included."""
    return handled(campaign, len(frames), power(frames))


def can_work(campaign: Campaign, count: int, strength: int) -> bool:
    """Some market's board can post a contract a lance of `count` frames and `strength`
    power can take on."""
    top = handled(campaign, count, strength)
    cat = catalog()
    return any(lowest_offer(campaign, p.id) <= top for p in cat.places.values() if p.market)


def workable(campaign: Campaign, frames: Sequence[Frame]) -> bool:
    """Some market's board can post a contract these frames can take on."""
    return can_work(campaign, len(frames), power(frames))


def stuck(campaign: Campaign) -> bool:
    """Even with every frame repaired and every pilot healed, the lance can take on no
    contract anywhere: nothing but buying (arms, pilots, frames) brings it back to work."""
    return not workable(campaign, potential_lance(campaign, mended=True))


# ---- money -------------------------------------------------------------------------------------
def deploy_reserve(campaign: Campaign) -> int:
    """What deploying the roster's first lance costs (§11.5)."""
    ids = [f.id for f in alive(campaign)][: catalog().missions.lance.max_frames]
    return deployment_cost(campaign, ids)


def crunch_line(campaign: Campaign) -> int:
    """Below this the company is short of cash: it sells its spares and takes more risks."""
    return CRUNCH_DAYS * daily_upkeep(campaign) + deploy_reserve(campaign)


def floor(campaign: Campaign, tier: Tier, extra_upkeep: int = 0) -> int:
    """The credits a purchase of this tier must leave in hand."""
    if tier == "repair":
        return deploy_reserve(campaign) + REPAIR_DAYS_KEPT * daily_upkeep(campaign)
    growth = crunch_line(campaign) + CRUNCH_DAYS * extra_upkeep
    if not crippled(campaign):
        growth += REPAIR_BUFFER
    if tier == "growth":
        return growth
    return growth + RESERVE_DAYS * (daily_upkeep(campaign) + extra_upkeep)


def crippled(campaign: Campaign) -> bool:
    """The mended lance is smaller than `MIN_DEPLOY` frames or can take on no contract
    anywhere, or the company cannot pay its deployment: growth then spends down to the crunch
    line, without keeping a round of repairs, and spare frames are sold."""
    future = potential_lance(campaign)
    if len(future) < MIN_DEPLOY or not workable(campaign, future):
        return True
    return campaign.credits < deployment_cost(campaign, [f.id for f in future])


def affords(campaign: Campaign, cost: int, tier: Tier, extra_upkeep: int = 0) -> bool:
    return campaign.credits - cost >= floor(campaign, tier, extra_upkeep)


def opening_reserve(campaign: Campaign) -> int:
    """What a frame purchase leaves in hand in the company's first `OPENING_DAYS`:
    `OPENING_RESERVE_PERCENT` of the starting credits (§13.2), so that a bad first month of
    repairs and rebuilds does not leave it unable to field a lance; 0 afterwards."""
    if campaign.day > OPENING_DAYS:
        return 0
    return catalog().start.company.credits * OPENING_RESERVE_PERCENT // 100


def cheapest_frame() -> int:
    """The price of the cheapest chassis in the catalog (§11.1)."""
    cat = catalog()
    return min(cat.chassis_price(c) for c in cat.chassis.values())


def rebuild_all(campaign: Campaign) -> int:
    """What rebuilding every frame the company has (not destroyed) would cost (§11.3: the
    chassis price)."""
    cat = catalog()
    return sum(cat.chassis_price(cat.chassis[f.chassis]) for f in alive(campaign))


def frame_tier(cost: int) -> Tier:
    """A frame for no more than the cheapest new chassis is growth; dearer ones are luxury."""
    return "growth" if cost <= cheapest_frame() else "luxury"


def room_for_frame(campaign: Campaign) -> bool:
    """The roster has room, and a free pilot to fly one more frame (or hiring here)."""
    frames = alive(campaign)
    seatless = sum(1 for f in frames if f.pilot is None)
    if len(frames) >= ROSTER_MAX:
        return False
    return len(free_pilots(campaign)) > seatless or hire_refusal(campaign) is None


# ---- hardpoints --------------------------------------------------------------------------------
def free_hardpoints(frame: Frame) -> list[tuple[str, str]]:
    """(size, location) of every hardpoint no weapon or slot equipment uses, in size order
    then location order."""
    cat = catalog()
    ch = cat.chassis[frame.chassis]
    used: Counter[tuple[str, str]] = Counter()
    for m in frame.weapons:
        used[cat.weapons[m.weapon].size, m.mount] += 1
    for f in frame.equipment:
        e = cat.equipment[f.equipment]
        if f.mount is not None and e.category == "slot":
            used[e.slot_size, f.mount] += 1
    out: list[tuple[str, str]] = []
    for size in SIZES:
        mounts = ch.hardpoints.of(size)
        for loc in LOCATION_ORDER:
            out += [(size, loc)] * max(0, mounts.count(loc) - used[size, loc])
    return out


def space_left(frame: Frame) -> int:
    cat = catalog()
    used = sum(cat.weapons[m.weapon].space for m in frame.weapons) + sum(
        cat.equipment[f.equipment].space for f in frame.equipment
    )
    return cat.chassis[frame.chassis].space - used


def group_for(frame: Frame, weapon: str) -> int | None:
    """The group a new weapon joins: the most damaging group whose energy still fits the
    reactor output with it (§5.1, §7.2); None when no group can take it."""
    cat = catalog()
    output = effective_output(cat.chassis[frame.chassis], frame.equipment)
    need = cat.weapons[weapon].energy
    best: tuple[int, int] | None = None
    for g in range(1, cat.combat.loadout.weapon_groups + 1):
        ws = [cat.weapons[m.weapon] for m in frame.weapons if m.group == g]
        if sum(w.energy for w in ws) + need > output:
            continue
        key = (sum(w.damage for w in ws), -g)
        if best is None or key > best:
            best = key
    return None if best is None else -best[1]


def mount_plan(frame: Frame, weapon: str) -> Mount | None:
    """Where `weapon` would go on `frame`: a free hardpoint of its size, space and a group."""
    w = catalog().weapons[weapon]
    if w.space > space_left(frame):
        return None
    group = group_for(frame, weapon)
    if group is None:
        return None
    for size, loc in free_hardpoints(frame):
        if size == w.size:
            return Mount(weapon=weapon, mount=loc, group=group)
    return None


def bay_ready(campaign: Campaign) -> list[Frame]:
    """Frames that can take bay work now (ready, idle), least armed first."""
    frames = [f for f in campaign.frames if f.status == "ready" and f.busy_days == 0]
    return sorted(frames, key=lambda f: (frame_power(f), len(f.weapons), frame_order(f)))


def best_first(items: Sequence[str]) -> list[str]:
    """Weapon ids, the most damaging first, then the dearest, then by id."""
    cat = catalog()
    return sorted(set(items), key=lambda w: (-cat.weapons[w].damage, -cat.weapons[w].price, w))
