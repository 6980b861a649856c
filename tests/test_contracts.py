"""Contract generation and the mission board (§14.4, §16, §11.6, R17, R18, R22, D12)."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.campaign.contracts import (
    base_difficulty,
    board_is_due,
    contract_rows,
    ensure_contracts,
    final_difficulty,
    generate_contract,
    reward_range,
)
from mac_tui.campaign.events import Report
from mac_tui.campaign.state import Campaign, Contract, EnemyFrame
from mac_tui.catalog import catalog
from mac_tui.combat.setup import WITHDRAW_TEXT, withdrawal_odds
from mac_tui.dice import CONTRACTS, Dice, RngState
from mac_tui.game import Accepted, parse_command, step
from mac_tui.model import GameState, initial_state

CAT = catalog()


def start(seed: int = 1) -> GameState:
    out = step(initial_state(seed), parse_command("new-campaign Test"))
    assert isinstance(out, Accepted)
    return out.state


def run(state: GameState, line: str) -> GameState:
    out = step(state, parse_command(line))
    assert isinstance(out, Accepted), getattr(out, "reason", "")
    return out.state


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def many(place: str, n: int, reputation: int = 0, seed: int = 11) -> list[Contract]:
    c = attrs.evolve(camp(start()), place=place, reputation=reputation)
    dice = Dice(RngState(seed))
    return [generate_contract(c, dice, f"C{i}") for i in range(n)]


def test_data_matches_the_rules() -> None:
    d = CAT.missions.difficulty
    assert (d.base, d.reputation_divisor, d.base_min, d.base_max) == (1, 5, 1, 4)  # §16.2
    assert (d.roll_min, d.roll_max) == (-1, 2)  # R22
    rules = CAT.missions.contracts
    assert (rules.employer_controller_chance, rules.offers, rules.refresh_days) == (80, 3, 7)


# ---- difficulty (§16.2, R22) -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("reputation", "base"),
    [
        (0, 1),  # 1 + 0/5 = 1
        (4, 1),  # 1 + 4/5 = 1 + 0 (whole division)
        (5, 2),  # 1 + 5/5 = 2
        (12, 3),  # 1 + 12/5 = 1 + 2 = 3
        (15, 4),  # 1 + 3 = 4
        (30, 4),  # 1 + 6 = 7, clamped to 4
    ],
)
def test_base_difficulty(reputation: int, base: int) -> None:
    assert base_difficulty(reputation) == base


def test_final_difficulty_is_clamped_to_the_planet() -> None:
    junction = CAT.places["junction_station"]  # 1-3
    olympus = CAT.places["olympus_ring"]  # 4-5
    assert final_difficulty(0, -1, junction) == 1  # 1 - 1 = 0, clamped up to 1
    assert final_difficulty(0, 2, junction) == 3  # 1 + 2 = 3
    assert final_difficulty(12, 2, junction) == 3  # 3 + 2 = 5, clamped down to 3
    assert final_difficulty(0, -1, olympus) == 4  # 0, clamped up to 4
    assert final_difficulty(12, 1, olympus) == 4  # 3 + 1 = 4
    assert final_difficulty(30, 2, olympus) == 5  # 4 + 2 = 6, clamped down to 5


def test_olympus_ring_always_offers_difficulty_4_or_5() -> None:
    for rep in (0, 12, 30):
        assert {k.difficulty for k in many("olympus_ring", 60, rep)} <= {4, 5}


def test_difficulty_spread_at_reputation_zero() -> None:
    # Blackport is 2-5. Base 1 + (-1, 0, 1, 2) = 0, 1, 2, 3 -> clamped 2, 2, 2, 3.
    counts = Counter(k.difficulty for k in many("blackport", 400))
    assert set(counts) == {2, 3}
    assert 0.65 <= counts[2] / 400 <= 0.85  # 3 in 4


# ---- employer and opponent (§14.4) ----------------------------------------------------------
def test_employer_bias_in_faction_space() -> None:
    contracts = many("new_geneva", 400)  # Sol: Directorate
    counts = Counter(k.employer for k in contracts)
    assert 0.70 <= counts["directorate"] / 400 <= 0.90
    assert counts["crucible"] > 0 and counts["outer_reach"] > 0


def test_any_employer_in_contested_space() -> None:
    counts = Counter(k.employer for k in many("junction_station", 400))
    assert set(counts) == set(CAT.factions)
    for faction in CAT.factions:
        assert 0.22 <= counts[faction] / 400 <= 0.45  # one in three each


def test_opponent_is_never_the_employer() -> None:
    contracts = many("new_geneva", 200) + many("junction_station", 200)
    assert all(k.opponent != k.employer for k in contracts)
    assert all(k.opponent in CAT.factions for k in contracts)
    # Both other factions do turn up as opponents of the Directorate.
    opponents = {k.opponent for k in contracts if k.employer == "directorate"}
    assert opponents == {"crucible", "outer_reach"}


# ---- the contract itself --------------------------------------------------------------------
def test_contract_contents() -> None:
    for k in many("camelot", 150, reputation=12) + many("anvil", 150, reputation=3):
        place = CAT.places[k.place]
        assert k.landscape == place.type  # setup-facts: the location's type is the landscape
        assert place.min_difficulty <= k.difficulty <= place.max_difficulty
        reward = CAT.reward(k.difficulty)
        assert k.base == reward.base
        assert 0 <= k.bonus <= reward.bonus_max
        force = CAT.enemy_force(k.difficulty)
        assert tuple(CAT.chassis[e.chassis].class_ for e in k.enemies) == force.classes
        for i, e in enumerate(k.enemies, start=1):
            names = [lo.name for lo in CAT.stock_loadouts(e.chassis)]
            assert e.loadout in names
            assert e.label == f"{CAT.chassis[e.chassis].name.upper()}-{i}"


def test_contracts_store_no_pilots() -> None:
    # Enemy pilots come from §16.1 when the mission starts (R17); a contract keeps only these.
    assert [f.name for f in attrs.fields(EnemyFrame)] == ["chassis", "loadout", "label"]


def test_enemy_chassis_bias() -> None:
    contracts = many("junction_station", 400)
    lights = [
        (k.opponent, e.chassis)
        for k in contracts
        for e in k.enemies
        if CAT.chassis[e.chassis].class_ == "light"
    ]
    # Crucible has no light chassis: always the universal SC-20.
    assert {ch for opp, ch in lights if opp == "crucible"} == {"SC-20"}
    # The Directorate fields its RD-30 70% of the time, else the universal SC-20 (R17).
    directorate = [ch for opp, ch in lights if opp == "directorate"]
    assert set(directorate) == {"RD-30", "SC-20"}
    assert 0.55 <= directorate.count("RD-30") / len(directorate) <= 0.85


def test_heavy_and_assault_enemies_may_be_any_of_the_class() -> None:
    # D12: no universal Heavy or Assault chassis, so a failed 70% roll takes any of the class.
    contracts = many("olympus_ring", 300, reputation=30)
    crucible_heavies = {
        e.chassis
        for k in contracts
        if k.opponent == "crucible"
        for e in k.enemies
        if CAT.chassis[e.chassis].class_ == "heavy"
    }
    assert "SN-75" in crucible_heavies and len(crucible_heavies) > 1


def test_generation_draws_only_from_the_contracts_stream() -> None:
    c = camp(start())
    rng = RngState(5, (("market", 7), ("combat", 3)))
    dice = Dice(rng)
    generate_contract(c, dice, "C9")
    after = dice.state()
    assert after.counter("market") == 7 and after.counter("combat") == 3
    assert after.counter(CONTRACTS) > 0


def test_generation_is_deterministic() -> None:
    assert many("camelot", 20) == many("camelot", 20)
    assert camp(start(8)).contracts == camp(start(8)).contracts


# ---- the board ------------------------------------------------------------------------------
def test_new_company_gets_a_board() -> None:
    c = camp(start())
    assert [k.id for k in c.contracts] == ["C1", "C2", "C3"]
    assert c.next_contract == 4
    assert c.contracts_day == 1
    assert {k.place for k in c.contracts} == {"junction_station"}


def test_the_opening_board_always_offers_a_difficulty_1_contract() -> None:
    """BL1 (issue 14): a new company's board always offers the easiest contract its location
    posts (difficulty 1 at Junction Station, reputation 0), whatever the seed: seeds 3 and 11
    rolled none, so their last contract is drawn again at difficulty 1, the first two kept.
    Later boards roll as usual (seed 3's second board has none)."""
    for seed in range(1, 41):
        assert 1 in {k.difficulty for k in camp(start(seed)).contracts}, seed
    board = camp(start(3)).contracts
    assert [k.difficulty for k in board] == [2, 2, 1]
    assert [k.id for k in board] == ["C1", "C2", "C3"]
    assert camp(start(3)).next_contract == 4
    later = camp(run(start(3), "advance-day 7")).contracts
    assert 1 not in {k.difficulty for k in later}


def test_board_refreshes_after_seven_days_not_before() -> None:
    s = start()
    board = camp(s).contracts
    s = run(s, "advance-day 6")  # day 7: the board is 6 days old
    assert camp(s).contracts == board
    s = run(s, "advance-day 1")  # day 8: 7 days old
    c = camp(s)
    assert c.contracts_day == 8
    assert [k.id for k in c.contracts] == ["C4", "C5", "C6"]
    s = run(s, "advance-day 7")  # day 15: 7 days after day 8
    assert [k.id for k in camp(s).contracts] == ["C7", "C8", "C9"]


def test_ensure_contracts_rules() -> None:
    c = camp(start())
    dice = Dice(RngState(3))
    same, events = ensure_contracts(c, dice)
    assert same == c and events == []
    assert dice.state() == RngState(3)  # nothing drawn when nothing is due
    forced, events = ensure_contracts(c, dice, force=True)
    assert [k.id for k in forced.contracts] == ["C4", "C5", "C6"]
    (report,) = events
    assert isinstance(report, Report) and report.topic == "contracts"
    assert "3 contracts posted at Junction Station" in report.text
    # A board posted at another location is replaced at once.
    moved = attrs.evolve(c, place="waypoint")
    assert board_is_due(moved)
    fresh, _ = ensure_contracts(moved, Dice(RngState(3)))
    assert {k.place for k in fresh.contracts} == {"waypoint"}
    # An empty board (all taken) waits for the weekly posting.
    empty = attrs.evolve(c, contracts=())
    assert not board_is_due(empty)
    assert board_is_due(attrs.evolve(empty, day=8))


# ---- the mission board rows -----------------------------------------------------------------
def contract(difficulty: int, employer: str = "crucible") -> Contract:
    return Contract(
        id="C7",
        employer=employer,
        opponent="outer_reach",
        difficulty=difficulty,
        base=CAT.reward(difficulty).base,
        bonus=0,
        landscape="station",
        enemies=(
            EnemyFrame(chassis="EN-50", loadout="x", label="ENFORCER-1"),
            EnemyFrame(chassis="VG-45", loadout="x", label="VANGUARD-2"),
        ),
        place="junction_station",
        enemy_withdrawal="at_25",
    )


def test_reward_range_with_the_standing_multiplier() -> None:
    c = camp(start())
    # Neutral: 120,000 .. 120,000 + 50,000 = 170,000 at difficulty 3 (§11.6).
    assert reward_range(c, contract(3)) == (120_000, 170_000)
    # Allied with Crucible (250): x1.20 -> 144,000 .. 204,000.
    allied = attrs.evolve(c, standing=(("crucible", 250), ("directorate", 0), ("outer_reach", 0)))
    assert reward_range(allied, contract(3)) == (144_000, 204_000)
    # Friendly (150), difficulty 1: 50,000 x 1.10 = 55,000 .. 70,000 x 1.10 = 77,000.
    friendly = attrs.evolve(c, standing=(("crucible", 150),))
    assert reward_range(friendly, contract(1)) == (55_000, 77_000)
    # Trusted (400), difficulty 5: 300,000 x 1.30 = 390,000 .. 380,000 x 1.30 = 494,000.
    trusted = attrs.evolve(c, standing=(("crucible", 400),))
    assert reward_range(trusted, contract(5)) == (390_000, 494_000)
    # Hostile pays like Neutral.
    hostile = attrs.evolve(c, standing=(("crucible", -80),))
    assert reward_range(hostile, contract(2)) == (80_000, 110_000)


def test_contract_rows() -> None:
    c = attrs.evolve(
        camp(start()),
        contracts=(contract(3),),
        standing=(("crucible", 250), ("directorate", 0), ("outer_reach", 0)),
    )
    (row,) = contract_rows(c)
    assert row.id == "C7"
    assert (row.employer, row.employer_name) == ("crucible", "Crucible Industries")
    assert (row.opponent, row.opponent_name) == ("outer_reach", "Outer Reach Collective")
    assert row.standing == "Allied"
    assert (row.difficulty, row.reward_min, row.reward_max) == (3, 144_000, 204_000)
    assert row.enemy_classes == ("Medium", "Medium")
    assert (row.map_size, row.map_width, row.map_height) == ("Medium", 16, 12)  # §6.1
    assert row.landscape == "Station"
    assert row.enemy_withdrawal == "retreats at 25%"  # D23: the board shows the enemy's rule


# ---- the enemy's withdrawal rule (§10.4, R14, D23) --------------------------------------------
def test_contracts_of_difficulty_1_and_2_never_fight_to_the_end() -> None:
    contracts = many("junction_station", 300) + many("blackport", 300, reputation=10)
    by_difficulty: dict[int, set[str]] = {}
    for k in contracts:
        by_difficulty.setdefault(k.difficulty, set()).add(k.enemy_withdrawal)
    assert set(by_difficulty) == {1, 2, 3, 4, 5}
    for difficulty, seen in by_difficulty.items():
        assert seen == {rule for rule, _ in withdrawal_odds(difficulty)}, difficulty
        assert ("never" in seen) is (difficulty >= 3)


def test_the_rule_shown_is_the_rule_the_battle_uses() -> None:
    for seed in range(1, 9):
        state = start(seed)
        board = camp(state)
        for k, row in zip(board.contracts, contract_rows(board), strict=True):
            assert row.enemy_withdrawal == WITHDRAW_TEXT[k.enemy_withdrawal]
        k = board.contracts[seed % len(board.contracts)]
        out = step(state, parse_command(f"accept {k.id} 3 F1+F2"))
        assert isinstance(out, Accepted), getattr(out, "reason", "")
        assert out.state.battle is not None and out.state.campaign is not None
        assert out.state.battle.side_info("enemy").withdrawal == k.enemy_withdrawal
        assert out.state.campaign.mission is not None
        assert out.state.campaign.mission.contract.enemy_withdrawal == k.enemy_withdrawal
        report = [e.text for e in out.events if isinstance(e, Report)][-1]
        assert report.endswith(f"The enemy {WITHDRAW_TEXT[k.enemy_withdrawal]}.")


def test_rows_follow_the_board() -> None:
    c = camp(start(4))
    rows = contract_rows(c)
    assert [r.id for r in rows] == [k.id for k in c.contracts]
    for r, k in zip(rows, c.contracts, strict=True):
        assert r.difficulty == k.difficulty
        assert r.reward_min == k.base  # neutral standing at the start: x1.00


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    reputation=st.integers(0, 60),
    place=st.sampled_from(sorted(CAT.places)),
)
def test_every_contract_is_valid(seed: int, reputation: int, place: str) -> None:
    c = attrs.evolve(camp(start()), place=place, reputation=reputation)
    k = generate_contract(c, Dice(RngState(seed)), "C1")
    p = CAT.places[place]
    assert p.min_difficulty <= k.difficulty <= p.max_difficulty
    assert k.employer != k.opponent
    assert len(k.enemies) == len(CAT.enemy_force(k.difficulty).classes)
    low, high = reward_range(c, k)
    assert low <= k.base + k.bonus <= high
