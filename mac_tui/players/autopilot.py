"""A deterministic campaign "player": given a game state, the next command line to play.

`next_line(state)` looks at the company and answers one line in the text form of
`mac-tui script` (`auto-battle` for a battle), so that a long campaign can be generated,
written to a file and replayed; `autopilot(state)` is the same player as a `Policy` (the
battle AI in battles), for `players.driver`. `players.autorun.autoplay(seed, ...)` writes a
script with it: it applies the lines to a `Session` exactly as `mac-tui script` does, keeps the
accepted ones, and falls back to `advance-day` (or closing the after-action report) when a
chosen line is refused, so it never loops on a refusal.

The player, in order of priority (`RULES`, after `new-campaign`, the battle and the
after-action report: the most valuable salvage picks first (§12.1-§12.2), a head-kill frame
(§12.4) when the roster has room, then `done`). Its battles are fought by the battle AI with a
careful commander's withdrawal (`auto-battle careful`, `players/careful.py`).

0. `train`: a pilot's experience buys a level of its lowest skill (P1);
1. `repairs`: damaged frames, cheapest first (§11.2); destroyed ones are rebuilt (§11.3) when
   the roster needs them;
2. `pilots`: a free active pilot takes the strongest armed frame with no fit pilot (§9.2), an
   active pilot moves up from a weaker frame, one is hired (§9.3) for a frame nobody can fly;
3. `sales`: at a market, weapons no frame can mount and spares beyond `SPARE_KEEP` are sold
   (everything in a cash crunch, R27, unless `stuck`);
4. `fuel`: tanks filled when half empty, and always enough for the dearest trip (§14.3);
5. `install`: inventory weapons go onto free hardpoints (`refit`, §7.1-§7.8), the most
   damaging one that fits the hardpoint, the space and a group's reactor budget;
5b. `recover`: when even the mended lance (damaged frames counted as repaired) can take on no
   contract anywhere (`stuck`), the cheapest way back to work down to the repair floor: arms
   for an under-armed frame, else the cheapest stocked chassis or rebuild that makes the lance
   workable (the weakest frame sold first when the roster is full);
6. `buy_frame`: a chassis (§11.1, §11.8) for an empty roster slot with a pilot to fly it: the
   heaviest one when rich, the cheapest one while the company has less than a lance; in its
   first `OPENING_DAYS` only keeping `opening_reserve` in hand;
7. `arm`: a first weapon for a frame too poorly armed to count;
8. `liquidate`: when the company cannot field a lance and cannot afford to grow one, destroyed
   frames are scrapped for their arms and a spare frame (outside the mended lance) is sold;
8b. `move_up`: a company holding its reserve whose lance handles harder contracts than the
   location posts travels to the nearest market that posts them (§14.3, §16.2);
9. `contract`: the contract its lance can handle (enemy classes and skill against its frames'
   power, with a margin against pilots who call shots, difficulty within reputation comfort,
   §16.2): the easiest while poor, the hardest when the reserve is in hand; paid in cash
   while short of the reserve (Full Pay, §12.2), at the catalog's default payout level
   (Balanced) once it holds it, in salvage (Full Salvage) once it also holds the price of
   rebuilding every frame (`payout_level`); with four ready frames when it has them, never
   fewer than three unless it cannot afford more, waiting a few days for frames about to be
   ready; a rich company gives its pilots a week's leave between contracts; a `stuck` company
   that cannot buy its way back makes a last stand (`appraisal.last_stand`: the least
   threatening contract here, up to `LAST_STAND_STRETCH` beyond its power, no marksmen);
10. `upgrade`: more arms for under-armed frames out of reserve money;
11. `travel`: a trip (§14.3) when the board holds nothing the mended lance can take: usually
    the cheapest trip to a market whose easiest contracts it handles, one time in `JUMP_ODDS`
    any such trip, or the first jump towards one; to a market that hires when a pilot is
    needed (for a frame nobody flies, or for one more frame when the lance can work nowhere);
12. `wait`: days pass (`advance-day N`) until a frame leaves the bay, a pilot heals or the
    board is posted again.

Money is spent in three tiers: repairs keep a deployment and a week's upkeep in hand; growth
(a lance of cheap frames, their first weapon, their pilots) keeps the cash-crunch line plus a
round of repairs (only the line while the company cannot field a lance); everything else also
keeps `RESERVE_DAYS` of upkeep. How it sizes up its lance, the threat and its money is in
`players/appraisal.py`, with the player's habits (numbers that are not rules: every rule number
comes from the catalog). The only variety (which trip to take) comes from
`dice.raw(state.seed, "autopilot", state.commands_applied)`, a pure function of the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import frozen

from ..campaign.accept import accept_refusal
from ..campaign.commands import (
    Accept,
    AdvanceDay,
    Assign,
    Buy,
    BuyFuel,
    BuyWreck,
    Dismiss,
    Hire,
    Jump,
    NewCampaign,
    Refit,
    Repair,
    Salvage,
    Sell,
    SellFrame,
    Train,
    Travel,
)
from ..campaign.market import (
    frame_sale_price,
    fuel_refusal,
    fuel_room,
    fuel_units_for,
    has_market,
    list_price,
    your_price,
)
from ..campaign.pilots import hire_refusal, train_refusal
from ..campaign.refit import loadout_text, plan_refit
from ..campaign.repair import Quote, plan_repair, repair_quote, wreck_price, wreck_repair_cost
from ..campaign.state import Campaign, Frame
from ..campaign.travel import current_system, destinations, route_plan
from ..catalog import SIZES, catalog
from ..core import Command
from ..dice import raw
from ..game import legal_commands
from ..model import GameState
from ..script import AUTO_BATTLE, CAREFUL_BATTLE
from .ai import decide
from .appraisal import (
    ARM_BUDGET,
    ARMED_DAMAGE_PER_WEIGHT,
    FUEL_LOW_PERCENT,
    JUMP_ODDS,
    LEAVE_DAYS,
    MIN_DEPLOY,
    MIN_LANCE,
    ROSTER_MAX,
    SPARE_KEEP,
    WAIT_FOR_LANCE,
    WAIT_MAX,
    Tier,
    affords,
    alive,
    bay_ready,
    best_first,
    can_work,
    choose_contract,
    class_upkeep,
    class_weight,
    crippled,
    crunch_line,
    firepower,
    floor,
    frame_order,
    frame_power,
    frame_tier,
    free_pilots,
    hardest_handled,
    in_crunch,
    is_rich,
    lance,
    last_stand,
    lowest_offer,
    mount_plan,
    opening_reserve,
    potential_lance,
    rebuild_all,
    room_for_frame,
    stuck,
    workable,
)
from .careful import careful
from .policy import Decision

COMPANY = "Autopilot Company"
STREAM = "autopilot"

# ---- the rules of thumb, one command each ------------------------------------------------------
Rule = Callable[[GameState, Campaign], Command | None]


def debrief(state: GameState, campaign: Campaign) -> Command | None:
    """§12: the most valuable picks first, a head-kill frame when it fits, then `done`."""
    aa = campaign.after_action
    if aa is None:
        return None
    if not aa.revealed and aa.picks > 0 and aa.pool:
        ranked = sorted(
            range(len(aa.pool)), key=lambda i: (-list_price(aa.pool[i].kind, aa.pool[i].item), i)
        )
        return Salvage("+".join(str(i + 1) for i in sorted(ranked[: aa.picks])))
    if room_for_frame(campaign):
        for i, offer in enumerate(aa.frame_offers, start=1):
            cost = wreck_price(offer.chassis) + wreck_repair_cost(offer.chassis)
            if affords(campaign, cost, frame_tier(cost), class_upkeep(offer.chassis)):
                return BuyWreck(i)
    return Dismiss()


#: The order a pilot's experience is spent in among skills at the same level (P1).
TRAIN_ORDER = ("piloting", "gunnery", "tactics")


def train(state: GameState, campaign: Campaign) -> Command | None:
    """P1: a pilot with the experience for a level spends it on its lowest skill (piloting,
    then gunnery, then tactics among equals): piloting keeps pilots alive (§4.6), gunnery hits,
    tactics plays better (AI3)."""
    for p in campaign.pilots:
        options = [
            (getattr(p, skill), i, skill)
            for i, skill in enumerate(TRAIN_ORDER)
            if train_refusal(campaign, p.callsign, skill) is None
        ]
        if options:
            return Train(p.callsign, min(options)[2])
    return None


def repairs(state: GameState, campaign: Campaign) -> Command | None:
    """Repair damaged frames while a deployment stays paid for, cheapest first; rebuild a
    destroyed one when the roster needs it (growth money for a cheap frame, else luxury)."""
    quotes: list[tuple[int, str, Quote]] = []
    for cmd in legal_commands(state, only=(Repair,)):
        assert isinstance(cmd, Repair)
        quote = plan_repair(campaign, cmd.frame)
        if not cmd.rush and isinstance(quote, Quote):
            quotes.append((quote.cost, cmd.frame, quote))
    for cost, frame_id, quote in sorted(quotes, key=lambda q: (q[0], q[1])):
        if not quote.rebuild:
            if affords(campaign, cost, "repair"):
                return Repair(frame_id)
        elif room_for_frame(campaign):
            upkeep = class_upkeep(campaign.frame(frame_id).chassis)
            if affords(campaign, cost, frame_tier(cost), upkeep):
                return Repair(frame_id)
    return None


def pilots(state: GameState, campaign: Campaign) -> Command | None:
    """Seat the best free active pilot in the strongest armed frame without a fit pilot, or
    move an active pilot up from a weaker frame; hire (growth money) when an armed frame has
    nobody and no free pilot."""
    armed = [f for f in alive(campaign) if f.weapons]

    def fit(f: Frame) -> bool:
        return f.pilot is not None and campaign.pilot(f.pilot).status == "active"

    unfit = sorted((f for f in armed if not fit(f)), key=frame_order)
    free = free_pilots(campaign)
    active = [p for p in free if p.status == "active"]
    if unfit and active:
        return Assign(active[0].callsign, unfit[0].id)
    if unfit:
        flown = sorted((f for f in armed if fit(f)), key=frame_order)
        if flown and frame_power(flown[-1]) < frame_power(unfit[0]):
            pilot = flown[-1].pilot
            assert pilot is not None
            return Assign(pilot, unfit[0].id)
    seatless = sum(1 for f in armed if f.pilot is None)
    hire_cost = catalog().pilots.hiring.cost
    tier: Tier = "repair" if stuck(campaign) else "growth"
    can_hire = hire_refusal(campaign) is None and affords(campaign, hire_cost, tier)
    return Hire() if seatless > len(free) and can_hire else None


def sales(state: GameState, campaign: Campaign) -> Command | None:
    """R27: sell weapons no frame can mount, spares beyond `SPARE_KEEP` of an item, and in a
    cash crunch the whole inventory (but for a `stuck` company, whose frames need the arms);
    equipment is sold (the player does not fit it)."""
    if not has_market(campaign):
        return None
    cat = catalog()
    sizes = {s for f in alive(campaign) for s in SIZES if cat.chassis[f.chassis].hardpoints.of(s)}
    crunch = in_crunch(campaign) and not stuck(campaign)
    for item, count in campaign.weapons:
        keep = 0 if crunch or cat.weapons[item].size not in sizes else SPARE_KEEP
        if count > keep:
            return Sell("weapon", item, count - keep)
    for item, count in campaign.equipment:
        return Sell("equipment", item, count)
    return None


def fuel(state: GameState, campaign: Campaign) -> Command | None:
    """§14.3: at a market, fill the tanks out of luxury money once they are half empty; and
    always hold enough for the dearest trip from here, out of money above the crunch line."""
    if not has_market(campaign):
        return None
    units = 0
    if campaign.fuel * 100 < catalog().galaxy.travel.fuel_capacity * FUEL_LOW_PERCENT:
        units = fuel_units_for(campaign.credits - floor(campaign, "luxury"))
    dearest = max((d.fuel for d in destinations(campaign)), default=0)
    if campaign.fuel < dearest:
        need = min(
            dearest - campaign.fuel, fuel_units_for(campaign.credits - crunch_line(campaign))
        )
        units = max(units, need)
    units = min(units, fuel_room(campaign))
    if units >= 1 and fuel_refusal(campaign, units) is None:
        return BuyFuel(units)
    return None


def install(state: GameState, campaign: Campaign) -> Command | None:
    """§7.8: put an inventory weapon on a free hardpoint (the most damaging that fits), the
    least armed frame first; not in a cash crunch (the arms are sold) unless `stuck`."""
    stock = [item for item, _ in campaign.weapons]
    if not stock or (in_crunch(campaign) and not stuck(campaign)):
        return None
    for frame in bay_ready(campaign):
        for weapon in best_first(stock):
            mount = mount_plan(frame, weapon)
            if mount is None:
                continue
            mounts = (*frame.weapons, mount)
            if isinstance(plan_refit(campaign, frame.id, mounts, frame.equipment), str):
                continue
            weapons, equipment = loadout_text(mounts, frame.equipment)
            return Refit(frame.id, weapons, equipment)
    return None


def buy_frame(state: GameState, campaign: Campaign) -> Command | None:
    """§11.1: a chassis for an empty roster slot when a pilot can fly it: the heaviest stocked
    one that luxury money buys (with money left to arm it), else the cheapest one that growth
    money buys while the company has fewer frames than a lance; in its first `OPENING_DAYS`
    the company keeps `opening_reserve` in hand after the purchase."""
    market = campaign.market(campaign.place)
    if market is None or not has_market(campaign) or not room_for_frame(campaign):
        return None
    stocked = sorted(
        {s.item for s in market.stock if s.kind == "chassis" and s.qty > 0},
        key=lambda c: (-class_weight(c), your_price(campaign, "chassis", c), c),
    )
    keep = opening_reserve(campaign)
    for c in stocked:
        cost = your_price(campaign, "chassis", c) + ARM_BUDGET
        if campaign.credits - cost >= keep and affords(campaign, cost, "luxury"):
            return Buy("chassis", c, 1)
    if len(alive(campaign)) < catalog().missions.lance.max_frames:
        for c in reversed(stocked):
            cost = your_price(campaign, "chassis", c) + ARM_BUDGET
            growth = affords(campaign, cost, "growth", class_upkeep(c))
            if growth and campaign.credits - cost >= keep:
                return Buy("chassis", c, 1)
    return None


def _buy_for(campaign: Campaign, frames: Sequence[Frame], tier: Tier) -> Command | None:
    market = campaign.market(campaign.place)
    if market is None or not has_market(campaign):
        return None
    stocked = [s.item for s in market.stock if s.kind == "weapon" and s.qty > 0]
    for frame in frames:
        for weapon in best_first(stocked):
            if not affords(campaign, your_price(campaign, "weapon", weapon), tier):
                continue
            if mount_plan(frame, weapon) is not None:
                return Buy("weapon", weapon, 1)
    return None


def arm(state: GameState, campaign: Campaign) -> Command | None:
    """§11.8: a first weapon (growth money) for a frame too poorly armed to count."""
    bare = [f for f in bay_ready(campaign) if frame_power(f) == 0]
    tier: Tier = "repair" if stuck(campaign) else "growth"
    return _buy_for(campaign, bare, tier) if bare else None


def upgrade(state: GameState, campaign: Campaign) -> Command | None:
    """§11.8: more arms (luxury money) for a frame below `ARMED_DAMAGE_PER_WEIGHT` damage per
    class weight; `install` mounts them."""
    under = [
        f
        for f in bay_ready(campaign)
        if firepower(f) < ARMED_DAMAGE_PER_WEIGHT * class_weight(f.chassis)
    ]
    return _buy_for(campaign, under, "luxury") if under else None


def recover(state: GameState, campaign: Campaign) -> Command | None:
    """When even the mended lance can work nowhere (`stuck`), spend down to the repair floor
    on the cheapest way back to work: arms for a frame below its class's power, else the
    cheapest frame that makes the lance workable, a stocked chassis (with `ARM_BUDGET` to arm
    it) or a destroyed frame rebuilt with the arms it kept (§11.3), plus a pilot's hire when
    no pilot is free; with a full roster the weakest frame is sold first, its price part of
    the budget (§11.1, §11.8, §9.3)."""
    market = campaign.market(campaign.place)
    if market is None or not has_market(campaign) or not stuck(campaign):
        return None
    under = [f for f in bay_ready(campaign) if frame_power(f) < class_weight(f.chassis)]
    bought = _buy_for(campaign, under, "repair")
    if bought is not None:
        return bought
    mended = potential_lance(campaign, mended=True)
    frames = alive(campaign)
    weakest = max(frames, key=frame_order) if len(frames) >= ROSTER_MAX else None
    kept = [frame_power(f) for f in mended if weakest is None or f.id != weakest.id]
    pilots_left = len(free_pilots(campaign)) - sum(1 for f in mended if f.pilot is None)
    if weakest is not None and weakest.pilot is not None:
        pilots_left += 1
    hire = 0
    if pilots_left <= 0:
        if hire_refusal(campaign) is not None:
            return None
        hire = catalog().pilots.hiring.cost
    options: list[tuple[int, str, int, Command]] = []  # cost, chassis, power, the step
    for s in market.stock:
        if s.kind == "chassis" and s.qty > 0:
            cost = your_price(campaign, "chassis", s.item) + ARM_BUDGET
            options.append((cost, s.item, class_weight(s.item), Buy("chassis", s.item, 1)))
    for f in campaign.frames:
        quote = repair_quote(f)
        if f.status == "destroyed" and f.busy_days == 0 and isinstance(quote, Quote):
            armed = frame_power(f) >= class_weight(f.chassis)
            cost = quote.cost + (0 if armed else ARM_BUDGET)
            options.append((cost, f.chassis, class_weight(f.chassis), Repair(f.id)))
    sale = 0 if weakest is None else frame_sale_price(campaign, weakest.id)
    most = catalog().missions.lance.max_frames
    options.sort(key=lambda o: (o[0], o[1], o[3].to_text()))
    for cost, chassis, strength, step in options:
        strengths = sorted([*kept, strength], reverse=True)[:most]
        if not can_work(campaign, len(strengths), sum(strengths)):
            continue
        left = campaign.credits + sale - cost - hire
        if left < floor(campaign, "repair", class_upkeep(chassis)):
            return None
        if weakest is None:
            return step
        return SellFrame(weakest.id) if weakest.busy_days == 0 else None
    return None


def liquidate(state: GameState, campaign: Campaign) -> Command | None:
    """When the company cannot field and pay for a lance and cannot afford to grow one: scrap
    destroyed frames for the arms they still carry; in a cash crunch sell the frame outside
    the mended lance that fetches most (§11.1, R27)."""
    if not has_market(campaign) or not crippled(campaign):
        return None
    for f in campaign.frames:
        if f.status == "destroyed" and (f.weapons or f.equipment):
            return SellFrame(f.id)
    if not in_crunch(campaign):
        return None
    keep = {f.id for f in potential_lance(campaign, mended=True)}
    spare_frames = [
        f
        for f in alive(campaign)
        if f.id not in keep and f.busy_days == 0 and frame_sale_price(campaign, f.id) > 0
    ]
    spare_frames.sort(key=lambda f: (-frame_sale_price(campaign, f.id), f.id))
    return SellFrame(spare_frames[0].id) if spare_frames else None


def ready_in(campaign: Campaign, frame: Frame) -> int:
    """Days until a frame of the potential lance can deploy: its bay days or its pilot's
    injury (a frame without a pilot gets a free one at once)."""
    days = frame.busy_days
    if frame.pilot is not None:
        days = max(days, campaign.pilot(frame.pilot).injury_days)
    return days


def last_paid(campaign: Campaign) -> int | None:
    """The day the last contract paid (§11.6), if any."""
    days = [e.day for e in campaign.ledger if e.category == "reward"]
    return max(days) if days else None


def on_leave(campaign: Campaign) -> bool:
    """A company holding `RICH_DAYS` of upkeep takes `LEAVE_DAYS` of leave after a contract."""
    if not is_rich(campaign):
        return False
    paid = last_paid(campaign)
    return paid is not None and campaign.day - paid < LEAVE_DAYS


def payout_level(campaign: Campaign) -> int:
    """§12.2: the level paying the most credits (Full Pay) while the company is short of its
    reserve (`floor` "luxury"); the catalog's default (Balanced) once it holds it; the level
    paying the least credits and the most salvage (Full Salvage) once it also holds the price
    of rebuilding every frame it has (`rebuild_all`): gear, not money it does not need."""
    cat = catalog()
    levels = sorted(cat.economy.payout_level, key=lambda p: (-p.credit_percent, p.level))
    reserve = floor(campaign, "luxury")
    if campaign.credits < reserve:
        return levels[0].level
    if campaign.credits >= reserve + rebuild_all(campaign):
        return levels[-1].level
    return cat.default_payout_level().level


def contract(state: GameState, campaign: Campaign) -> Command | None:
    """§16, §11.5: the contract the lance can handle (see `choose_contract`), at the payout
    level its money calls for (`payout_level`), with `MIN_LANCE` frames when the company has
    them and never fewer than `MIN_DEPLOY` unless cash is short or it cannot grow a bigger
    lance; the lance waits for frames ready within `WAIT_FOR_LANCE` days (a bare frame being
    armed included) and a rich company for the end of its leave."""
    frames = lance(campaign)
    future = potential_lance(campaign)
    ids = {f.id for f in frames}
    need = min(MIN_LANCE, len(future))
    if not (in_crunch(campaign) or crippled(campaign)):
        need = max(need, MIN_DEPLOY)
    if len(frames) < need or on_leave(campaign):
        return None
    waiting = [f for f in future if f.id not in ids]
    waiting += [f for f in alive(campaign) if frame_power(f) == 0 and f.busy_days > 0]
    if any(ready_in(campaign, f) <= WAIT_FOR_LANCE for f in waiting):
        return None
    chosen = choose_contract(campaign, frames)
    if chosen is None and stuck(campaign):
        chosen = last_stand(campaign, frames)
    if chosen is None:
        return None
    level = payout_level(campaign)
    frame_ids = [f.id for f in frames]
    if accept_refusal(campaign, chosen.id, level, frame_ids) is not None:
        return None
    return Accept(chosen.id, level, "+".join(frame_ids))


def needs_hiring(campaign: Campaign) -> bool:
    """An armed frame has no pilot and no free pilot can take it."""
    seatless = sum(1 for f in alive(campaign) if f.weapons and f.pilot is None)
    return seatless > len(free_pilots(campaign))


def travel(state: GameState, campaign: Campaign) -> Command | None:
    """§14.3: when the board holds nothing even the mended lance can take (and it can take
    something somewhere), or pilots must be hired where nobody hires (for a frame nobody flies,
    or for one more frame when the lance can take on no contract anywhere), go to a market whose
    easiest contracts the lance handles (any market that hires, when a pilot is needed: the
    pilot is what lets the lance handle them), fuel permitting: usually the cheapest such
    trip, one time in `JUMP_ODDS` any of them."""
    cat = catalog()
    future = potential_lance(campaign)
    top = hardest_handled(campaign, future)
    stuck = not workable(campaign, future) and len(alive(campaign)) < ROSTER_MAX
    hire = (needs_hiring(campaign) or stuck) and not cat.places[campaign.place].hiring
    if not hire and (
        not workable(campaign, future) or choose_contract(campaign, future) is not None
    ):
        return None
    options = [
        d
        for d in destinations(campaign)
        if d.affordable
        and cat.places[d.arrival].market
        and (lowest_offer(campaign, d.arrival) <= max(top, 1) or hire)
        and (cat.places[d.arrival].hiring or not hire)
    ]
    if not options:
        return toward_work(campaign, top)
    roll = raw(state.seed, STREAM, state.commands_applied)
    if roll % JUMP_ODDS:
        cheapest = min(d.fuel for d in options)
        options = [d for d in options if d.fuel == cheapest]
    pick = options[(roll // JUMP_ODDS) % len(options)]
    return Travel(pick.id) if pick.kind == "travel" else Jump(pick.id)


def move_up(state: GameState, campaign: Campaign) -> Command | None:
    """§14.3, §16.2: a company holding its reserve whose lance handles harder contracts than
    this location posts (its `max_difficulty`) travels to the nearest market (least fuel, then
    days) that posts harder ones and whose easiest it handles."""
    if campaign.credits < floor(campaign, "luxury") or crippled(campaign):
        return None
    cat = catalog()
    here = cat.places[campaign.place].max_difficulty
    top = hardest_handled(campaign, potential_lance(campaign))
    if top <= here:
        return None
    options = [
        d
        for d in destinations(campaign)
        if d.affordable
        and cat.places[d.arrival].market
        and cat.places[d.arrival].max_difficulty > here
        and lowest_offer(campaign, d.arrival) <= top
    ]
    if not options:
        return None
    pick = min(options, key=lambda d: (d.fuel, d.days, d.id))
    return Travel(pick.id) if pick.kind == "travel" else Jump(pick.id)


def toward_work(campaign: Campaign, top: int) -> Command | None:
    """The first jump of the quickest way to a system with a market whose easiest contracts
    the lance handles, when none is a neighbour (fuel permitting)."""
    cat = catalog()
    here = current_system(campaign)
    targets = sorted(
        {
            p.system
            for p in cat.places.values()
            if p.market and p.system != here and lowest_offer(campaign, p.id) <= max(top, 1)
        }
    )
    plans = [plan for t in targets if (plan := route_plan(campaign, t)) is not None]
    if not plans:
        return None
    best = min(plans, key=lambda p: (p.days, p.fuel, p.systems))
    hop = best.hops[0]
    return Jump(hop.to) if hop.fuel <= campaign.fuel else None


def wait(state: GameState, campaign: Campaign) -> Command:
    """§13.1: let days pass until something changes: a frame leaves the bay, a pilot heals,
    the board is posted again (at most `WAIT_MAX` days)."""
    refresh = catalog().missions.contracts.refresh_days
    days = [max(1, refresh - (campaign.day - campaign.contracts_day)), WAIT_MAX]
    days += [f.busy_days for f in campaign.frames if f.busy_days > 0]
    days += [p.injury_days for p in campaign.pilots if p.status == "injured" and p.injury_days > 0]
    return AdvanceDay(max(1, min(days)))


def reckless_contract(state: GameState, campaign: Campaign) -> Command | None:
    """The reckless strategy's contract: the hardest one on the board (best paid among equals)
    that the company may accept with every frame it can deploy now, whatever the threat, its
    reputation or its money; no waiting for a full lance, no leave."""
    frames = lance(campaign)
    if not frames:
        return None
    level = catalog().default_payout_level().level
    frame_ids = [f.id for f in frames]
    board = sorted(
        enumerate(campaign.contracts), key=lambda ic: (-ic[1].difficulty, -ic[1].base, ic[0])
    )
    for _, c in board:
        if accept_refusal(campaign, c.id, level, frame_ids) is None:
            return Accept(c.id, level, "+".join(frame_ids))
    return None


RULES: tuple[Rule, ...] = (
    train,
    repairs,
    pilots,
    sales,
    fuel,
    install,
    recover,
    buy_frame,
    arm,
    liquidate,
    move_up,
    contract,
    upgrade,
    travel,
)


@frozen
class Strategy:
    """A way to run the company: its rules of thumb in order of priority."""

    name: str
    summary: str
    rules: tuple[Rule, ...]
    battle: str = CAREFUL_BATTLE  # the script line its battles are fought with


#: The autopilot's strategies (`mac-tui lab` sweeps them): `sensible` is the player above;
#: `reckless` takes the hardest contract it may with everything it has, before it repairs,
#: buys or keeps a reserve.
STRATEGIES: dict[str, Strategy] = {
    "sensible": Strategy(
        "sensible", "the autopilot's rules of thumb (players/autopilot.py)", RULES
    ),
    "reckless": Strategy(
        "reckless",
        "the hardest contract it may accept, with every deployable frame, before anything else;"
        " it fights every battle to its end",
        (reckless_contract, *RULES),
        AUTO_BATTLE,
    ),
}
SENSIBLE = STRATEGIES["sensible"]
careful_decide = careful(decide)


def choose(state: GameState, strategy: Strategy = SENSIBLE) -> tuple[Command, str] | None:
    """The next command to play and the rule of thumb that chose it; None once the run is
    over, and during a battle (fought by the battle AI, see `autopilot` and `next_line`)."""
    campaign = state.campaign
    if campaign is None:
        return NewCampaign(COMPANY), "new-campaign"
    if campaign.ended or state.battle is not None:
        return None
    if campaign.after_action is not None:
        cmd = debrief(state, campaign)
        return None if cmd is None else (cmd, "debrief")
    for rule in strategy.rules:
        cmd = rule(state, campaign)
        if cmd is not None:
            return cmd, rule.__name__
    return wait(state, campaign), "wait"


def next_command(state: GameState, strategy: Strategy = SENSIBLE) -> Command | None:
    """The next command to play; None once the run is over, and during a battle (fought with
    the `auto-battle` line, see `next_line`)."""
    chosen = choose(state, strategy)
    return None if chosen is None else chosen[0]


def autopilot(state: GameState) -> Decision:
    """The autopilot as a policy (`players.policy.Policy`) for the player's side: the battle
    AI in a battle, else the command its rules of thumb choose, the rule named in the note.
    Called only when the player must act (`game.to_act`), so never once the run is over."""
    if state.battle is not None:
        return careful_decide(state)
    chosen = choose(state)
    if chosen is None:
        raise ValueError("the run is over: the autopilot has nothing to decide")
    command, rule = chosen
    return Decision(command, note=f"autopilot: {rule}")


def next_line(state: GameState, strategy: Strategy = SENSIBLE) -> str | None:
    """The next line of a `mac-tui script` file, or None once the run is over."""
    if state.battle is not None:
        return strategy.battle
    cmd = next_command(state, strategy)
    return None if cmd is None else cmd.to_text()


def fallback_lines(state: GameState) -> tuple[str, ...]:
    """What to try when the chosen line is refused: close the report, or let a day pass."""
    campaign = state.campaign
    if campaign is not None and campaign.after_action is not None:
        return (Salvage().to_text(), Dismiss().to_text())
    return (AdvanceDay().to_text(),)
