"""Who acts (`game.to_act`), what is legal outside battles (`game.legal_commands`), and the one
driver of the players layer (`players.driver`: `next_decision`, `drive`)."""

from __future__ import annotations

import attrs
import pytest

from mac_tui.campaign.commands import (
    Accept,
    AdvanceDay,
    Buy,
    Dismiss,
    NewCampaign,
    Salvage,
    SellFrame,
    Train,
)
from mac_tui.campaign.legal import NEW_COMPANY
from mac_tui.campaign.market import frame_sale_price
from mac_tui.campaign.state import Frame, Market, Stock
from mac_tui.campaign.timeflow import daily_upkeep
from mac_tui.catalog import catalog
from mac_tui.combat.commands import AutoDeploy, Move, StartBattle, Withdraw
from mac_tui.combat.skirmish import NewSkirmish, make_state
from mac_tui.combat.state import CENTER_TORSO, HEAD, Unit
from mac_tui.combat.stats import armor_split, chassis_of
from mac_tui.core import Accepted, Command
from mac_tui.game import NOBODY, Actor, legal_commands, refusal, step, to_act
from mac_tui.hexgrid import Hex
from mac_tui.model import GameState, initial_state
from mac_tui.players.ai import decide
from mac_tui.players.ai.skill import CALLED_SHOTS_TACTICS
from mac_tui.players.appraisal import (
    ARM_BUDGET,
    LAST_STAND_STRETCH,
    MARKSMEN_MARGIN,
    OPENING_DAYS,
    OPENING_RESERVE_PERCENT,
    RICH_DAYS,
    RICH_MARGIN,
    floor,
    frame_power,
    hardest_handled,
    marksmen_margin,
    opening_reserve,
    power,
    rebuild_all,
    stuck,
    threat,
    threat_of,
)
from mac_tui.players.autopilot import (
    STRATEGIES,
    autopilot,
    buy_frame,
    choose,
    contract,
    liquidate,
    payout_level,
    recover,
)
from mac_tui.players.careful import THIN_CT_PERCENT, careful
from mac_tui.players.driver import battle_seats, drive, next_decision, policy_to_act
from mac_tui.players.policy import Decision
from mac_tui.session import Session

from .stages import build_stages


def play(state: GameState, *commands: Command) -> GameState:
    for command in commands:
        out = step(state, command)
        assert isinstance(out, Accepted), (command.to_text(), out)
        state = out.state
    return state


def test_who_acts_in_a_quick_battle() -> None:
    fresh = initial_state(3)
    assert to_act(fresh) == Actor("player")  # someone must start a game
    state = play(fresh, NewSkirmish(1))
    assert to_act(state) == Actor("player")  # the deployment is the player's
    state = play(state, AutoDeploy(), StartBattle())
    battle = state.battle
    assert battle is not None and battle.active_unit is not None
    assert to_act(state) == Actor(battle.active_unit.side, battle.active_unit.id)
    over = attrs.evolve(state, battle=attrs.evolve(battle, phase="over", result="victory"))
    assert to_act(over) is NOBODY and to_act(over).nobody


def test_who_acts_in_a_campaign() -> None:
    stages = build_stages()
    assert to_act(stages.fresh.state) == Actor("player")
    assert to_act(stages.battle.state) == Actor("player")  # the deployment
    assert to_act(stages.after_action.state) == Actor("player")
    campaign = stages.hub.state.campaign
    assert campaign is not None
    ended = attrs.evolve(stages.hub.state, campaign=attrs.evolve(campaign, ended="broke"))
    assert to_act(ended) is NOBODY
    assert legal_commands(ended) == []


def test_a_new_game_may_start_a_company_or_a_quick_battle() -> None:
    legal = legal_commands(initial_state(5))
    assert NewCampaign(NEW_COMPANY) in legal
    assert [c for c in legal if isinstance(c, NewSkirmish)] == [NewSkirmish(d) for d in range(1, 6)]
    for command in legal:
        assert refusal(initial_state(5), command) is None
        assert isinstance(step(initial_state(5), command), Accepted), command.to_text()


def test_the_after_action_report_offers_its_own_commands() -> None:
    state = build_stages().after_action.state
    legal = legal_commands(state)
    assert legal and all(isinstance(step(state, c), Accepted) for c in legal)
    assert Salvage("-") in legal
    assert AdvanceDay(1) not in legal  # the report is open
    assert refusal(state, AdvanceDay(1)) == (
        "the after-action report is open: pick salvage (salvage ...) and close it (done)"
    )
    aa = state.campaign.after_action if state.campaign else None
    assert aa is not None
    assert (Dismiss() in legal) == (aa.picks == 0)


def test_refusal_says_why_without_stepping() -> None:
    state = make_state(4, 2)
    assert refusal(state, StartBattle()) is not None  # nobody is placed yet
    assert refusal(state, Move(Hex(0, 0))) == "the battle has not started: finish deployment first"
    assert refusal(initial_state(1), AdvanceDay(1)) == "start a campaign first: new-campaign NAME"
    assert refusal(initial_state(1), NewSkirmish(9)) == "difficulty must be 1 to 5, not 9"


def test_next_decision_asks_the_seated_policy_of_the_side_to_act() -> None:
    state = play(make_state(6, 2), AutoDeploy(), StartBattle())
    side = to_act(state).side
    assert side is not None
    assert next_decision(state, {side: None}) is None  # a human plays that side
    assert next_decision(state, {}) is None
    assert next_decision(state, {side: decide}) == decide(state)
    assert policy_to_act(state, {side: decide}) is decide
    assert policy_to_act(state, {side: None}) is None
    over = attrs.evolve(state, battle=attrs.evolve(state.battle, phase="over", result="defeat"))
    assert next_decision(over, {"player": decide, "enemy": decide}) is None


def test_drive_stops_when_a_human_must_act() -> None:
    state = play(make_state(8, 3, player_ai=False), AutoDeploy(), StartBattle())
    assert state.battle is not None
    seats = battle_seats(state.battle, decide)
    assert seats == {"player": None, "enemy": decide}
    driven = drive(state, seats)
    after = to_act(driven.state)
    assert after.side == "player" or after.nobody
    assert driven.state.commands_applied == state.commands_applied + driven.commands
    everyone = battle_seats(state.battle, decide, everyone=True)
    assert everyone == {"player": decide, "enemy": decide}


def test_drive_applies_through_the_caller_and_reports_every_decision() -> None:
    session = Session.new(12)  # a battle of more than 12 commands
    assert session.apply(NewSkirmish(1)).accepted
    seen: list[tuple[int, str]] = []

    def note(before: GameState, decision: Decision, outcome: Accepted) -> None:
        seen.append((before.commands_applied, decision.command.to_text()))
        assert outcome.state.commands_applied == before.commands_applied + 1

    driven = drive(
        session.state,
        {"player": decide, "enemy": decide},
        apply=lambda _state, command: session.apply(command),
        max_commands=12,
        on_decision=note,
    )
    assert driven.commands == 12 == len(seen)
    assert driven.state is session.state
    assert [c.to_text() for c in session.commands[1:]] == [text for _, text in seen]
    assert seen[0] == (1, "auto-deploy")  # the deployment is the player's seat's too


def test_drive_stops_when_told() -> None:
    state = make_state(2, 1)
    driven = drive(
        state,
        {"player": decide, "enemy": decide},
        until=lambda s: s.battle is None or s.battle.phase == "combat",
    )
    assert driven.state.battle is not None and driven.state.battle.phase == "combat"
    assert driven.commands == 2  # auto-deploy, start-battle


def test_a_policy_choosing_a_refused_command_is_a_bug() -> None:
    def stubborn(state: GameState) -> Decision:
        return Decision(Move(Hex(99, 99)), note="off the map")

    state = play(make_state(5, 1), AutoDeploy(), StartBattle())
    with pytest.raises(RuntimeError, match="chose a refused command"):
        drive(state, {"player": stubborn, "enemy": stubborn})


def test_the_autopilot_is_a_policy_for_the_campaign_and_its_battles() -> None:
    decision = autopilot(initial_state(14))
    assert decision.command == NewCampaign("Autopilot Company")
    stages = build_stages()
    assert autopilot(stages.battle.state) == decide(stages.battle.state)
    hub = autopilot(stages.hub.state)
    assert refusal(stages.hub.state, hub.command) is None
    assert hub.note


def test_a_careful_commander_withdraws_when_a_frame_is_in_danger() -> None:
    """`players.careful` (the sensible autopilot's battles, `auto-battle careful`): on a player
    frame's activation it orders the withdrawal (R14) once a frame of the lance has its centre
    torso armour down to `THIN_CT_PERCENT` of full, or a bare head while an enemy pilot calls
    shots (Tactics 5+); until then it plays the AI's choice; and the order ends the battle as a
    withdrawal."""
    state = play(make_state(5, 1), AutoDeploy(), StartBattle())
    policies = {"player": decide, "enemy": decide}
    driven = drive(state, policies, max_commands=200, until=lambda s: to_act(s).side == "player")
    state = driven.state
    battle = state.battle
    assert battle is not None and to_act(state).side == "player"
    cautious = careful(decide)
    assert cautious(state) == decide(state)  # nobody is in danger yet
    mine = battle.side_units("player")[-1]

    def with_armor(unit: Unit, location: int, armor: int) -> GameState:
        assert battle is not None
        hurt = attrs.evolve(
            unit, armor=tuple(armor if i == location else a for i, a in enumerate(unit.armor))
        )
        return attrs.evolve(state, battle=battle.with_unit(hurt))

    full = armor_split(chassis_of(mine))[CENTER_TORSO]
    bare_ct = with_armor(mine, CENTER_TORSO, full * THIN_CT_PERCENT // 100)
    assert cautious(bare_ct).command == Withdraw()
    out = step(bare_ct, Withdraw())
    assert isinstance(out, Accepted) and out.state.battle is not None
    assert out.state.battle.result == "withdrawal"
    thin_ct = with_armor(mine, CENTER_TORSO, full * THIN_CT_PERCENT // 100 + 1)
    assert cautious(thin_ct) == decide(thin_ct)
    # a bare head matters only against pilots who call shots (difficulty 1: Tactics 2)
    bare_head = with_armor(mine, HEAD, 0)
    assert cautious(bare_head) == decide(bare_head)
    enemy = battle.living("enemy")[0]
    marksman = attrs.evolve(enemy, pilot=attrs.evolve(enemy.pilot, tactics=CALLED_SHOTS_TACTICS))
    assert bare_head.battle is not None
    aimed = attrs.evolve(bare_head, battle=bare_head.battle.with_unit(marksman))
    assert cautious(aimed).command == Withdraw()


def test_the_autopilot_trains_its_pilots_lowest_skill_first() -> None:
    """The sensible autopilot spends experience first (P1): a pilot's lowest skill, piloting
    before gunnery before tactics among equals; its battles are `auto-battle careful`, the
    reckless strategy's plain `auto-battle`."""
    state = play(initial_state(14), NewCampaign("Autopilot Company"))
    c = state.campaign
    assert c is not None
    ghost = c.pilot("Ghost")  # gunnery 4, piloting 4, tactics 3
    rich = attrs.evolve(ghost, xp=1000)
    trained = attrs.evolve(state, campaign=attrs.evolve(c, pilots=(rich, *c.pilots[1:])))
    assert choose(trained) == (Train("Ghost", "tactics"), "train")
    even = attrs.evolve(rich, tactics=4)
    trained = attrs.evolve(state, campaign=attrs.evolve(c, pilots=(even, *c.pilots[1:])))
    assert choose(trained) == (Train("Ghost", "piloting"), "train")
    assert STRATEGIES["sensible"].battle == "auto-battle careful"
    assert STRATEGIES["reckless"].battle == "auto-battle"


def test_the_autopilot_takes_its_pay_in_cash_while_short_and_in_salvage_when_rich() -> None:
    """The sensible autopilot's payout level (§12.2): the one paying the most credits (Full
    Pay) while it holds less than its reserve, the catalog's default (Balanced) once it holds
    it, and the one paying the least credits (Full Salvage) once it also holds the price of
    rebuilding every frame it has; the level goes on the contract it accepts."""
    state = play(initial_state(14), NewCampaign("Autopilot Company"))
    c = state.campaign
    assert c is not None
    cat = catalog()
    by_credits = sorted(cat.economy.payout_level, key=lambda p: p.credit_percent)
    most_cash, most_salvage = by_credits[-1].level, by_credits[0].level
    assert (most_cash, most_salvage) == (0, 4)  # Full Pay, Full Salvage
    reserve = floor(c, "luxury")
    rebuild = sum(cat.chassis_price(cat.chassis[f.chassis]) for f in c.frames)
    assert rebuild_all(c) == rebuild

    def at(credits: int) -> int:
        return payout_level(attrs.evolve(c, credits=credits))

    assert at(reserve - 1) == most_cash
    assert at(reserve) == cat.default_payout_level().level == 2
    assert at(reserve + rebuild - 1) == 2
    assert at(reserve + rebuild) == most_salvage
    # the contract it accepts carries the level: the opening lance, short of its reserve
    poor = attrs.evolve(state, campaign=attrs.evolve(c, credits=reserve - 1))
    assert poor.campaign is not None
    command = contract(poor, poor.campaign)
    assert isinstance(command, Accept), command
    assert command.payout == most_cash


def test_the_autopilot_wants_a_margin_against_pilots_who_aim() -> None:
    """The sensible autopilot takes on a difficulty whose enemy pilots call shots (Tactics 5+,
    AI3: difficulty 4 and 5) only with `MARKSMEN_MARGIN` points of power beyond its threat
    (`RICH_MARGIN` once it holds `RICH_DAYS` of upkeep); easier ones at their threat."""
    cat = catalog()
    d = cat.missions.difficulty
    aiming = [n for n in range(d.min, d.max + 1) if marksmen_margin(n) > 0]
    assert aiming == [
        n for n in range(d.min, d.max + 1) if cat.enemy_force(n).tactics >= CALLED_SHOTS_TACTICS
    ]
    assert aiming == [4, 5] and marksmen_margin(4) == MARKSMEN_MARGIN > 0
    state = play(initial_state(14), NewCampaign("Autopilot Company"))
    c = state.campaign
    assert c is not None
    c = attrs.evolve(c, reputation=20)  # difficulty 4 within reputation comfort
    enforcer, raider = c.frames  # EN-50 (power 2), RD-30 (power 1)
    assert (frame_power(enforcer), frame_power(raider)) == (2, 1)
    four_d4 = threat_of(cat.enemy_force(4).classes, 4)
    mediums = [attrs.evolve(enforcer, id=f"F{i}") for i in range(4)]
    assert power(mediums) == four_d4 + MARKSMEN_MARGIN
    assert hardest_handled(c, mediums) == 4
    short = [*mediums[:3], raider]
    assert four_d4 <= power(short) < four_d4 + MARKSMEN_MARGIN
    assert hardest_handled(c, short) == 3
    # a rich company risks the marksmen with a smaller margin
    assert RICH_MARGIN < MARKSMEN_MARGIN and power(short) == four_d4 + RICH_MARGIN
    rich = attrs.evolve(c, credits=RICH_DAYS * daily_upkeep(c))
    assert marksmen_margin(4, rich) == RICH_MARGIN and marksmen_margin(4, c) == MARKSMEN_MARGIN
    assert hardest_handled(rich, short) == 4
    assert hardest_handled(attrs.evolve(rich, credits=rich.credits - 1), short) == 3


def _company(**changes: object) -> GameState:
    """The autopilot's new company (seed 14: EN-50 F1 flown by Ghost, RD-30 F2 by Falcon,
    Thunder and Shadow free, at Junction Station), its campaign changed by `changes`."""
    state = play(initial_state(14), NewCampaign("Autopilot Company"))
    assert state.campaign is not None
    return attrs.evolve(state, campaign=attrs.evolve(state.campaign, **changes))


def _raiders(state: GameState, n: int) -> tuple[Frame, ...]:
    """`n` copies of the starting RD-30 (power 1), F1.., flown by the company's pilots."""
    c = state.campaign
    assert c is not None
    raider = c.frame("F2")
    return tuple(
        attrs.evolve(raider, id=f"F{i + 1}", pilot=p.callsign)
        for i, p in zip(range(n), c.pilots, strict=False)
    )


def _stock(*chassis: str) -> tuple[Market, ...]:
    return (
        Market(
            place="junction_station",
            rolled_day=1,
            stock=tuple(Stock(kind="chassis", item=c, qty=1) for c in chassis),
        ),
    )


def test_a_lance_that_can_work_nowhere_trades_a_light_frame_for_a_medium() -> None:
    """With a reputation of 20 every board posts difficulty 3 or more (§16.2): four armed
    light frames (power 4) fall short of its threat of 5 everywhere, so the company is `stuck`.
    Holding the money, it sells its weakest frame and buys the cheapest stocked chassis that
    makes its lance workable (a medium, not the scout); when it cannot pay for one, it buys
    nothing."""
    base = _company(reputation=20, credits=600_000, markets=_stock("SC-20", "EN-50"))
    assert base.campaign is not None
    frames = _raiders(base, 4)
    state = attrs.evolve(base, campaign=attrs.evolve(base.campaign, frames=frames))
    c = state.campaign
    assert c is not None
    assert power(frames) == 4 and stuck(c)
    assert choose(state) == (SellFrame("F4"), "recover")
    sold = play(state, SellFrame("F4"))  # its arms go to the inventory (install mounts them)
    assert sold.campaign is not None
    assert recover(sold, sold.campaign) == Buy("chassis", "EN-50", 1)
    # three light frames and room for a fourth: the medium, bought at once
    room = attrs.evolve(c, frames=frames[:3])
    assert recover(state, room) == Buy("chassis", "EN-50", 1)
    # too poor for the medium and its arms: no purchase
    poor = attrs.evolve(c, credits=150_000)
    assert recover(state, poor) is None
    # a lance that can work somewhere is not stuck: nothing to recover
    assert recover(state, attrs.evolve(c, reputation=0)) is None


def test_a_stuck_company_that_cannot_buy_its_way_back_makes_a_last_stand() -> None:
    """Stuck and unable to pay for a frame, the company takes the least threatening contract
    on the board that its lance meets frame for frame (threat at most `LAST_STAND_STRETCH`
    above its power, no marksmen) instead of waiting for its upkeep to ruin it; a company
    that is not stuck waits for a contract it can handle."""
    base = _company(reputation=20, credits=120_000, markets=_stock("EN-50"))
    assert base.campaign is not None
    frames = _raiders(base, 3)
    state = attrs.evolve(base, campaign=attrs.evolve(base.campaign, frames=frames))
    assert state.campaign is not None
    d3 = state.campaign.contracts[0]
    d4 = attrs.evolve(d3, id="C9", difficulty=4)  # enemy pilots who call shots
    c = attrs.evolve(state.campaign, contracts=(d4, d3))
    state = attrs.evolve(state, campaign=c)
    assert d3.difficulty == 3 and threat(d3) == 5 > power(frames) == 3
    assert threat(d3) <= power(frames) + LAST_STAND_STRETCH
    assert stuck(c) and recover(state, c) is None
    command = contract(state, c)
    assert isinstance(command, Accept) and command.contract == d3.id, command
    # with a reputation that leaves difficulty 1 to it somewhere, it is not stuck: it waits
    calm = attrs.evolve(c, reputation=0, contracts=(d3,))
    assert not stuck(calm) and contract(state, calm) is None


def test_a_cash_crunch_sells_a_spare_frame_not_the_damaged_medium() -> None:
    """In a cash crunch with a lance too small to deploy, the company sells the frame outside
    its mended lance: a damaged medium is part of it (it deploys once repaired), an unarmed
    scout is not."""
    base = _company(credits=10_000)
    c = base.campaign
    assert c is not None
    enforcer, raider = c.frames
    scout = attrs.evolve(raider, id="F3", chassis="SC-20", weapons=(), pilot=None)
    armor = tuple(a // 2 for a in enforcer.armor)
    damaged = attrs.evolve(enforcer, status="damaged", armor=armor)
    c = attrs.evolve(c, frames=(damaged, raider, scout))
    state = attrs.evolve(base, campaign=c)
    assert frame_sale_price(c, "F1") > frame_sale_price(c, "F3")
    assert liquidate(state, c) == SellFrame("F3")


def test_a_new_company_keeps_its_opening_reserve_when_it_buys_frames() -> None:
    """In its first `OPENING_DAYS` a company buys a frame only keeping `opening_reserve`
    (`OPENING_RESERVE_PERCENT` of its starting credits) in hand; later the usual floors."""
    cat = catalog()
    reserve = cat.start.company.credits * OPENING_RESERVE_PERCENT // 100
    price = cat.chassis_price(cat.chassis["SC-20"])
    credits = reserve + price + ARM_BUDGET - 1  # one credit short of the reserve
    early = _company(credits=credits, markets=_stock("SC-20"))
    assert early.campaign is not None
    assert opening_reserve(early.campaign) == reserve
    assert buy_frame(early, early.campaign) is None
    enough = attrs.evolve(early.campaign, credits=credits + 1)
    assert buy_frame(early, enough) == Buy("chassis", "SC-20", 1)
    late = attrs.evolve(early.campaign, day=OPENING_DAYS + 1)
    assert opening_reserve(late) == 0
    assert buy_frame(early, late) == Buy("chassis", "SC-20", 1)
