"""Optional module O10, third parties (optional-rules.md O10.1-O10.8), with hand-computed
numbers: the generation table, the four sides and their grudges, the initiative tie-break of
the worked example, deployment, the third parties' AI, the end conditions, the reward of the
worked example (185,625), the salvage, the log; refusals; a battle with O10 on replays.

Numbers used (data/missions.toml §16.1 rows, data/third_parties.toml):
    row 1: Light, Light, pilots 3/2/2; row 2: Light, Medium, 4/3/3; row 3: Medium, Medium, 5/4/4.
    An allied lance at D 3: 2 frames of row 3 - 2 = 1 (two Lights), pilots of row 2 (4/3/3).
    RD-30 Raider: Speed 8 (initiative §1 phase 2).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui.campaign.contracts import generate_contract, third_party_text
from mac_tui.campaign.rewards import mission_reward, neutral_standing_loss
from mac_tui.campaign.salvage import ally_taken, neutrals_downed, salvage_pool
from mac_tui.campaign.state import Contract, EnemyFrame, ThirdParty
from mac_tui.catalog import catalog
from mac_tui.combat.commands import Brace, Deploy, FireGroup, StartBattle, Withdraw
from mac_tui.combat.events import BattleEnded, Deployed, RoundStarted, SideWithdrew
from mac_tui.combat.firing import fire
from mac_tui.combat.flow import check_end, close_round, initiative
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle, SideGrudge, SideInfo, Unit, friendly
from mac_tui.combat.third_force import (
    MISSIONS,
    ally_classes,
    kind_of_roll,
    neutral_count,
    pilot_row,
    roll_third_party,
    third_specs,
)
from mac_tui.combat.third_parties import (
    Grudge,
    SideLeft,
    ally_hexes,
    neutral_hexes,
    note_damage,
    segment_rank,
)
from mac_tui.dice import CONTRACTS, Dice, RngState
from mac_tui.game import step
from mac_tui.players.ai import decide as decide_ai
from mac_tui.players.ai.third import THIRD_PARTY
from mac_tui.players.driver import policy_to_act
from mac_tui.players.sim import play, run_battle

from .test_battle_actions import bat, frame, game, ok, refused
from .test_battle_properties import checked, play_randomly
from .test_damage import ScriptedDice, d100, weapon

CAT = catalog()
FOUR = (
    SideInfo(side="player", ai=False),
    SideInfo(side="enemy", ai=True),
    SideInfo(side="ally", ai=True, withdrawal="at_50"),
    SideInfo(side="neutral", ai=True, withdrawal="at_25"),
)


def o10(state: Any, **changes: Any) -> Any:
    """The game with O10 on and the four sides (and `changes` to the battle)."""
    battle = attrs.evolve(bat(state), ruleset=("O10",), sides=FOUR, **changes)
    return attrs.evolve(state, battle=battle)


def side(u: Unit, s: str) -> Unit:
    return attrs.evolve(u, side=s)


# ---- O10.1 generation ----------------------------------------------------------------------
def test_generation_table_bands() -> None:
    assert [kind_of_roll(r) for r in (1, 17, 25, 26, 40, 41, 100)] == [
        "ally",
        "ally",
        "ally",
        "neutral",
        "neutral",
        None,
        None,
    ]


def test_allied_and_neutral_lances_by_difficulty() -> None:
    # Allied: 1 Light while D <= 2, else the classes of row D - 2; pilots of row max(1, D - 1).
    assert ally_classes(1) == ("light",) and ally_classes(2) == ("light",)
    assert ally_classes(3) == ("light", "light")  # row 1
    assert ally_classes(4) == ("light", "medium")  # row 2
    assert ally_classes(5) == ("medium", "medium")  # row 3
    assert [pilot_row("ally", d) for d in (1, 2, 3, 5)] == [1, 1, 2, 4]
    # Neutral: 1 frame while D <= 3, else 2; pilots of row D.
    assert [neutral_count(d) for d in (1, 3, 4, 5)] == [1, 1, 2, 2]
    assert [pilot_row("neutral", d) for d in (1, 4)] == [1, 4]


def test_worked_example_lance() -> None:
    """O10 example: D 3, roll 17: an allied lance of 2 Lights (row 1), row-2 pilots 4/3/3."""
    assert kind_of_roll(17) == "ally"
    frames = [
        EnemyFrame(chassis="RD-30", loadout=lo.name, label=f"RAIDER-A{i}")
        for i, lo in enumerate(CAT.stock_loadouts("RD-30")[:1] * 2, start=1)
    ]
    specs = third_specs("ally", 3, frames)
    assert [(s.pilot.gunnery, s.pilot.piloting, s.pilot.tactics) for s in specs] == [(4, 3, 3)] * 2
    assert [(s.stance, s.priority) for s in specs] == [("balanced", "focus_fire")] * 2
    assert [CAT.chassis[s.chassis].class_ for s in specs] == ["light", "light"]


@pytest.mark.parametrize("seed", range(12))
def test_roll_draws_only_from_the_missions_stream(seed: int) -> None:
    dice = Dice(RngState(seed=seed))
    third = roll_third_party(dice, 4, employer="directorate", opponent="crucible")
    after = dice.state()
    assert after.counter(MISSIONS) >= 1
    assert all(after.counter(s) == 0 for s in (CONTRACTS, "map", "ai", "combat"))
    if third.kind == "neutral":
        assert third.faction not in ("directorate", "crucible")
        assert len(third.frames) == 2
        assert {CAT.chassis[f.chassis].class_ for f in third.frames} <= {"light", "medium"}
    elif third.kind == "ally":
        assert third.faction == "directorate"
        assert [CAT.chassis[f.chassis].class_ for f in third.frames] == ["light", "medium"]
    else:
        assert third.roll > 40 and third.frames == ()


def test_contract_with_o10_keeps_the_board_rolls() -> None:
    """O0.6: the third party has its own stream: the contract's other rolls are the same."""
    from mac_tui.campaign.setup import new_campaign

    for seed in range(6):
        campaign, _ = new_campaign("X", Dice(RngState(seed=seed)))
        plain = generate_contract(campaign, Dice(RngState(seed=seed)), "C9")
        with_o10 = generate_contract(
            attrs.evolve(campaign, ruleset=("O10",)), Dice(RngState(seed=seed)), "C9"
        )
        assert plain.third_party is None
        assert attrs.evolve(with_o10, third_party=None) == plain


def test_third_party_text() -> None:
    third = ThirdParty(
        roll=17,
        kind="ally",
        faction="directorate",
        frames=(EnemyFrame(chassis="RD-30", loadout="x", label="RAIDER-A1"),) * 2,
    )
    short = CAT.factions["directorate"].short
    assert third_party_text(third) == f"an allied lance of {short}: 2 Light"


# ---- O10.2 sides and O10.5 grudges ---------------------------------------------------------
def four_sided(grudges: tuple[SideGrudge, ...] = ()) -> Battle:
    units = (
        frame("P1", col=0),
        frame("A1", col=1),
        frame("N1", col=5),
        frame("E1", "enemy", col=10),
    )
    units = (units[0], side(units[1], "ally"), side(units[2], "neutral"), units[3])
    battle = bat(o10(game(*units)))
    return attrs.evolve(battle, grudges=grudges)


def test_hostility_without_grudges() -> None:
    b = four_sided()
    assert b.hostile("player", "enemy") and b.hostile("ally", "enemy")
    assert not b.hostile("player", "ally")
    for s in ("player", "ally", "enemy"):
        assert not b.hostile("neutral", s) and not b.hostile(s, "neutral")
        assert b.may_attack(s, "neutral")  # how a grudge starts (ruling O10a)
        assert not b.may_attack("neutral", s)
    assert [u.id for u in b.foes("player")] == ["E1"]
    assert [u.id for u in b.foes("enemy")] == ["P1", "A1"]
    assert b.foes("neutral") == ()


def test_grudge_target_highest_then_first_hit() -> None:
    b = four_sided((SideGrudge(side="enemy", amount=7), SideGrudge(side="player", amount=7)))
    assert b.grudge_target() == "enemy"  # tied: the enemy hit them first
    assert b.hostile("neutral", "enemy") and b.hostile("enemy", "neutral")
    assert not b.hostile("neutral", "player")
    assert [u.id for u in b.foes("neutral")] == ["E1"]
    b = attrs.evolve(
        b, grudges=(SideGrudge(side="enemy", amount=7), SideGrudge(side="player", amount=8))
    )
    assert b.grudge_target() == "player"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["player", "ally", "enemy"]), st.integers(0, 50)),
        max_size=3,
        unique_by=lambda t: t[0],
    )
)
def test_hostility_is_symmetric_and_neutrals_fight_one_side(grudges: list[Any]) -> None:
    b = four_sided(tuple(SideGrudge(side=s, amount=a) for s, a in grudges))
    sides = ("player", "ally", "neutral", "enemy")
    for a in sides:
        for c in sides:
            assert b.hostile(a, c) == b.hostile(c, a)
            if friendly(a, c):
                assert not b.hostile(a, c)
    fought = [s for s in sides if b.hostile("neutral", s)]
    assert len(fought) <= 1
    if any(a > 0 for _, a in grudges):
        top = max(a for _, a in grudges)
        assert fought == [next(s for s, a in grudges if a == top)]
    else:
        assert fought == []


def test_core_hostility_is_the_other_side() -> None:
    b = bat(game(frame("P1"), frame("E1", "enemy", col=5)))
    assert b.hostile("player", "enemy") and not b.hostile("player", "player")
    assert b.may_attack("player", "enemy") and not b.may_attack("enemy", "enemy")


def test_grudge_counts_armour_and_structure_dealt() -> None:
    """O10.5: the player's Medium Laser hits the neutral: its 5 damage is the grudge."""
    laser = weapon("medium_laser", "right_arm")
    shooter = frame("P1", col=3, weapons=(laser,), gunnery=5)
    target = side(frame("N1", col=5), "neutral")
    state = o10(game(shooter, target, frame("E1", "enemy", col=11)))
    battle = bat(state)
    dice = ScriptedDice(d100(1), (100, 50), (100, 40))  # hit, no critical, a torso
    after, events = fire(battle, "P1", 1, "N1", dice)
    lost = (target.total_armor + target.total_structure) - (
        after.unit("N1").total_armor + after.unit("N1").total_structure
    )
    assert lost == CAT.weapons["medium_laser"].damage
    grudges = [e for e in events if isinstance(e, Grudge)]
    assert grudges == [Grudge(side="player", amount=lost, added=lost, target="player")]
    assert after.grudge("player") == lost and after.grudge_target() == "player"
    assert after.hostile("neutral", "player") and not after.hostile("neutral", "enemy")


def test_no_grudge_without_o10_or_for_other_targets() -> None:
    target = side(frame("N1", col=5), "neutral")
    hurt = attrs.evolve(
        target, armor=tuple(a - 1 if i == 1 else a for i, a in enumerate(target.armor))
    )
    core = attrs.evolve(bat(game(frame("P1"), hurt)), ruleset=())
    assert note_damage(core, frame("P1"), target) == (core, [])
    on = bat(o10(game(frame("P1"), hurt)))
    b, events = note_damage(on, frame("P1"), target)
    assert b.grudges == (SideGrudge(side="player", amount=1),) and len(events) == 1
    # a neutral hurting a neutral, or a hit on a non-neutral frame: no grudge
    assert note_damage(on, side(frame("N2"), "neutral"), target)[1] == []
    assert note_damage(on, frame("E1", "enemy"), frame("P1"))[1] == []


# ---- refusals -------------------------------------------------------------------------------
def test_refusals() -> None:
    laser = weapon("medium_laser", "right_arm")
    units = (
        frame("P1", col=3, weapons=(laser,)),
        side(frame("A1", col=4), "ally"),
        side(frame("N1", col=6, weapons=(laser,)), "neutral"),
        frame("E1", "enemy", col=8),
    )
    state = o10(game(*units))
    assert "on your side" in refused(state, FireGroup(1, "A1"))
    ok(state, FireGroup(1, "N1"))  # a player may start a grudge
    neutral_turn = o10(game(*units, order=("N1", "P1", "A1", "E1")))
    assert "grudge" in refused(neutral_turn, FireGroup(1, "P1"))
    ally_turn = o10(game(*units, order=("A1", "P1", "N1", "E1")))
    assert "withdrawal" in refused(ally_turn, Withdraw())


# ---- O10.3 initiative -----------------------------------------------------------------------
def test_worked_example_tie_break() -> None:
    """An allied Raider (Speed 8, Piloting 3) tied with an enemy Raider acts first, though the
    enemy comes first in the battle's units."""
    enemy = frame("E1", "enemy", "RD-30", col=8, piloting=3)
    ally = side(frame("A1", chassis="RD-30", col=1, piloting=3), "ally")
    neutral = side(frame("N1", chassis="RD-30", col=5, piloting=3), "neutral")
    player = frame("P1", chassis="RD-30", col=0, piloting=3)
    core = bat(game(enemy, ally))
    assert initiative(core) == ("E1", "A1")  # without O10: the unit order
    with_o10 = bat(o10(game(enemy, neutral, ally, player)))
    assert initiative(with_o10) == ("P1", "A1", "N1", "E1")
    assert [segment_rank(with_o10, s) for s in ("player", "ally", "neutral", "enemy")] == [
        0,
        1,
        2,
        3,
    ]
    # Speed still comes first: a Vanguard (Speed 6) ally acts after the enemy Raider.
    slow = side(frame("A2", chassis="VG-45", col=1), "ally")
    assert initiative(bat(o10(game(enemy, slow)))) == ("E1", "A2")


# ---- O10.4 deployment, O10.8 log --------------------------------------------------------------
def skirmish_with(kind: str, difficulty: int = 4) -> Any:
    """The first quick battle (by seed) that rolls a third party of `kind`."""
    for seed in range(200):
        state = make_state(seed, difficulty, ruleset=("O10",), player_ai=False)
        if bat(state).has_side(kind):  # type: ignore[arg-type]
            return state
    raise AssertionError(f"no {kind} in 200 seeds")


def test_neutrals_deployed_on_open_middle_hexes() -> None:
    state = skirmish_with("neutral")
    battle = bat(state)
    mid = battle.map.width // 2
    neutrals = battle.side_units("neutral")
    assert len(neutrals) == 2
    for u in neutrals:
        assert u.pos is not None
        assert battle.map.grid.column(u.pos) in (mid - 1, mid)
        assert battle.map.terrain_at(u.pos) == "open"
    assert state.rng.counter(MISSIONS) > 0
    free = neutral_hexes(
        attrs.evolve(battle, units=tuple(u for u in battle.units if u.side != "neutral"))
    )
    assert all(u.pos in free for u in neutrals)


def test_allies_placed_after_the_player_nearest_the_middle_row() -> None:
    state = skirmish_with("ally")
    battle = bat(state)
    assert all(u.pos is None for u in battle.side_units("ally"))
    ally = battle.side_units("ally")[0]
    assert "not yours to place" in refused(
        state, Deploy(ally.id, battle.map.deployment_hexes("player")[0])
    )
    for u in battle.side_units("player"):
        state = ok(state, Deploy(u.id, ally_hexes(bat(state))[-1])).state
    expected = ally_hexes(bat(state))
    out = ok(state, StartBattle())
    placed = [e for e in out.events if isinstance(e, Deployed)]
    allies = bat(out.state).side_units("ally")
    assert [e.unit for e in placed] == [u.id for u in allies]
    assert [u.pos for u in allies] == expected[: len(allies)]
    mid = battle.map.height // 2
    first = expected[0]
    assert abs(first.r - mid) == min(abs(h.r - mid) for h in expected)
    started = next(e for e in out.events if isinstance(e, RoundStarted))
    assert len(started.sides) == len(started.order)
    assert {s for s in started.sides} >= {"player", "enemy", "ally"}
    assert "(ally)" in started.describe()


def test_core_round_started_has_no_sides() -> None:
    state = make_state(3, 2, player_ai=False)
    for u in bat(state).side_units("player"):
        state = step(
            state,
            Deploy(
                u.id,
                next(
                    h
                    for h in bat(state).map.deployment_hexes("player")
                    if bat(state).occupant(h) is None
                ),
            ),
        ).state
    out = ok(state, StartBattle())
    started = next(e for e in out.events if isinstance(e, RoundStarted))
    assert started.sides == ()


# ---- O10.5 AI ---------------------------------------------------------------------------------
def test_neutral_ai_braces_until_provoked() -> None:
    laser = weapon("medium_laser", "right_arm")
    units = (
        frame("P1", col=3, weapons=(laser,)),
        side(frame("N1", col=5, weapons=(laser,)), "neutral"),
        frame("E1", "enemy", col=7, weapons=(laser,)),
    )
    state = o10(game(*units, order=("N1", "P1", "E1")))
    seats = {"player": None, "enemy": None}
    assert policy_to_act(state, seats) is THIRD_PARTY
    assert THIRD_PARTY(state).command == Brace()
    angry = o10(
        game(*units, order=("N1", "P1", "E1")), grudges=(SideGrudge(side="player", amount=5),)
    )
    decided = THIRD_PARTY(angry).command
    assert decided != Brace()
    if isinstance(decided, FireGroup):
        assert decided.target == "P1"


def test_enemy_ai_leaves_neutrals_alone_without_a_grudge() -> None:
    from mac_tui.players.ai import plan_activation

    laser = weapon("medium_laser", "right_arm")
    units = (
        frame("E1", "enemy", col=4, weapons=(laser,)),
        side(frame("N1", col=5), "neutral"),
        frame("P1", col=11),
    )
    state = o10(game(*units))
    for plan in plan_activation(state).shown:
        assert all(getattr(c, "target", None) != "N1" for c in plan.commands)


# ---- O10.6 end conditions ----------------------------------------------------------------------
def test_player_withdrawal_takes_the_allies_along() -> None:
    units = (frame("P1"), side(frame("A1", col=1), "ally"), frame("E1", "enemy", col=10))
    out = ok(o10(game(*units)), Withdraw())
    left = [e for e in out.events if isinstance(e, SideLeft)]
    assert left == [SideLeft(side="ally", rule="player", frames=("A1",), round=1)]
    assert bat(out.state).unit("A1").left and not bat(out.state).unit("A1").destroyed
    assert bat(out.state).result == "withdrawal"


def test_allies_retreat_at_50_and_the_battle_goes_on() -> None:
    dead = frame("A2", col=2, destroyed=True, destroyed_by="center_torso")
    laser = weapon("medium_laser", "right_arm")
    units = (
        frame("P1", weapons=(laser,)),
        side(frame("A1", col=1), "ally"),
        side(dead, "ally"),
        frame("E1", "enemy", col=10, weapons=(laser,)),
    )
    state = o10(game(*units, turn=4))
    battle, events = close_round(bat(state), Dice(state.rng), [])
    assert SideWithdrew(side="ally", rule="at_50") in events
    assert any(isinstance(e, SideLeft) and e.frames == ("A1",) for e in events)
    assert battle.phase == "combat" and battle.unit("A1").left
    assert "A1" not in battle.order


def test_victory_when_the_enemy_is_gone_with_neutrals_standing() -> None:
    gone = frame("E1", "enemy", col=10, destroyed=True, destroyed_by="center_torso")
    units = (frame("P1"), side(frame("N1", col=5), "neutral"), gone)
    battle, events = check_end(bat(o10(game(*units))))
    assert battle.result == "victory"
    assert isinstance(events[0], BattleEnded)
    # and Defeat when the player's frames are down, allies standing
    down = frame("P1", destroyed=True, destroyed_by="center_torso")
    battle, _ = check_end(
        bat(o10(game(down, side(frame("A1", col=1), "ally"), frame("E1", "enemy", col=10))))
    )
    assert battle.result == "defeat"


# ---- O10.7 rewards and salvage -------------------------------------------------------------------
def contract(third: ThirdParty | None) -> Contract:
    return Contract(
        id="C1",
        employer="directorate",
        opponent="crucible",
        difficulty=3,
        base=120_000,
        bonus=30_000,
        landscape="habitable",
        enemies=(),
        place="junction",
        enemy_withdrawal="never",
        third_party=third,
    )


def test_worked_example_reward() -> None:
    """O10 example: R23's 150,000 x 1.10 x 1.25 = 206,250, x 90% = 185,625 at Full Pay."""
    ally = ThirdParty(roll=17, kind="ally", faction="directorate", frames=())
    neutral = ThirdParty(roll=30, kind="neutral", faction="outer_reach", frames=())
    friendly_pct = 110
    assert mission_reward(contract(None), "victory", friendly_pct, 0, True) == 206_250
    assert mission_reward(contract(ally), "victory", friendly_pct, 0, True) == 185_625
    assert mission_reward(contract(neutral), "victory", friendly_pct, 0, True) == 206_250
    # then the payout modifier, one rounding at the end: 185,625 x 70% = 129,937.5
    assert mission_reward(contract(ally), "victory", friendly_pct, 2, True) == 129_937
    # Withdrawal: 50% of 150,000 x 90% = 67,500
    assert mission_reward(contract(ally), "withdrawal", friendly_pct, 0, False) == 67_500


def test_salvage_with_third_parties() -> None:
    laser = weapon("medium_laser", "right_arm")
    wreck = {"destroyed": True, "destroyed_by": "center_torso", "weapons": (laser,)}
    units = (
        frame("P1"),
        side(frame("A1", col=1), "ally"),
        frame("E1", "enemy", col=9, downed_by="P1", **wreck),
        frame("E2", "enemy", col=10, downed_by="A1", **wreck),
        side(frame("N1", col=5, downed_by="P1", **wreck), "neutral"),
        side(frame("N2", col=6, downed_by="E1", **wreck), "neutral"),
    )
    battle = bat(o10(game(*units)))
    assert [u.id for u in ally_taken(battle)] == ["E2"]
    assert len(salvage_pool(battle)) == 2  # E1's and N1's lasers; E2 the ally's, N2 the enemy's
    assert neutrals_downed(battle) == 1
    assert neutral_standing_loss(3) == -5  # -(2 + D)


# ---- determinism -------------------------------------------------------------------------------
def test_battle_with_o10_is_deterministic() -> None:
    logs: list[list[str]] = [[], []]
    for log in logs:
        run_battle(5, 3, log=log, ruleset=("O10",))
    assert logs[0] == logs[1]
    head = logs[0][0]
    assert '"ruleset":"O10"' in head.replace(" ", "")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5), data=st.data())
def test_random_legal_play_with_third_parties(seed: int, difficulty: int, data: Any) -> None:
    """The battle properties (refusal = step's reason, legal orders accepted, illegal ones
    refused with no change, invariants) with O10 on, third parties or not."""
    play_randomly(make_state(seed, difficulty, player_ai=False, ruleset=("O10",)), data)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_every_side_plays_only_legal_orders(seed: int, difficulty: int) -> None:
    """A whole AI battle with O10: the lances' AI and the third parties' (O10.5) give legal
    orders only, and the battle ends."""
    seats = {
        "player": checked(decide_ai),
        "enemy": checked(decide_ai),
        "ally": checked(THIRD_PARTY),
        "neutral": checked(THIRD_PARTY),
    }
    end, _ = play(make_state(seed, difficulty, ruleset=("O10",)), seats)  # type: ignore[arg-type]
    assert bat(end).phase == "over"


def test_a_quick_battle_with_third_parties_saves_mid_battle_and_replays() -> None:
    """A save in the middle of an O10 battle (allies placed, grudges possible) loads to the
    same state, passes the snapshot checks and replays from its seed (`replay --verify`)."""
    from mac_tui.combat.skirmish import NewSkirmish
    from mac_tui.players.driver import drive
    from mac_tui.save import from_json, to_json
    from mac_tui.session import Session, verify

    seed = next(s for s in range(1, 50) if bat(make_state(s, 3, ruleset=("O10",))).has_side("ally"))
    session = Session.new(seed)
    session.apply(NewSkirmish(3, None, "O10"))
    battle = bat(session.state)
    assert battle.has_side("ally")
    drive(
        session.state,
        {"player": decide_ai, "enemy": decide_ai},
        apply=lambda _s, c: session.apply(c),
        max_commands=12,
    )
    assert bat(session.state).phase == "combat"
    assert any(u.pos is not None for u in bat(session.state).side_units("ally"))
    text = to_json(session.to_save())
    loaded = from_json(text)
    assert loaded.state == session.state
    assert verify(loaded).ok


def test_a_contract_with_an_allied_lance_settles_through_the_ledger() -> None:
    """O10.1 on the board, O10.7 at settlement: the allied lance fights beside the company,
    the reward is posted once at 90% (one ledger line saying so), credits equal the ledger."""
    from mac_tui.campaign.commands import Accept, NewCampaign
    from mac_tui.campaign.ledger import starting_credits
    from mac_tui.model import initial_state
    from mac_tui.script import ai_turns
    from mac_tui.session import Session

    def allied(seed: int) -> list[Contract]:
        state = step(initial_state(seed), NewCampaign("Allies", "O10")).state  # type: ignore[union-attr]
        assert state.campaign is not None
        return [
            c for c in state.campaign.contracts if c.third_party and c.third_party.kind == "ally"
        ]

    seed = next(s for s in range(1, 40) if allied(s))
    contract = allied(seed)[0]
    third = contract.third_party
    assert third is not None
    session = Session.new(seed)
    session.apply(NewCampaign("Allies", "O10"))
    campaign = session.state.campaign
    assert campaign is not None
    frames = "+".join(f.id for f in campaign.frames)
    ok(session.state, Accept(contract.id, 0, frames))
    session.apply(Accept(contract.id, 0, frames))
    battle = bat(session.state)
    assert [u.id for u in battle.side_units("ally")] == [
        f"A{i}" for i in range(1, len(third.frames) + 1)
    ]
    ai_turns(session, player_too=True)
    campaign = session.state.campaign
    assert campaign is not None and campaign.after_action is not None
    aa = campaign.after_action
    rewards = [e for e in campaign.ledger if e.category == "reward"]
    assert len(rewards) == 1 and "(allied lance: 90%)" in rewards[0].text
    percent = CAT.standing_level(0).reward_percent  # a new company: Neutral standing
    possible = {mission_reward(contract, aa.result, percent, 0, clean) for clean in (True, False)}
    alone = attrs.evolve(contract, third_party=None)
    assert rewards[0].amount == aa.credits and aa.credits in possible
    if aa.credits:
        assert aa.credits < max(
            mission_reward(alone, aa.result, percent, 0, clean) for clean in (True, False)
        )
    assert campaign.credits == starting_credits(campaign) + sum(e.amount for e in campaign.ledger)
    assert any("(allied lance: 90%)" in line for line in aa.report)


def test_an_ai_run_player_side_withdrawing_takes_the_allies_along() -> None:
    laser = weapon("medium_laser", "right_arm")
    dead = frame("P2", col=1, destroyed=True, destroyed_by="center_torso")
    units = (
        frame("P1", weapons=(laser,)),
        dead,
        side(frame("A1", col=2), "ally"),
        frame("E1", "enemy", col=10, weapons=(laser,)),
    )
    sides = (
        SideInfo(side="player", ai=True, withdrawal="at_50"),
        *FOUR[1:3],
    )
    state = o10(game(*units, turn=4))
    battle = attrs.evolve(bat(state), sides=sides)
    battle, events = close_round(battle, Dice(state.rng), [])
    assert SideWithdrew(side="player", rule="at_50") in events
    assert SideLeft(side="ally", rule="player", frames=("A1",), round=1) in events
    assert battle.result == "withdrawal" and battle.unit("A1").left


def test_snapshot_checks_of_third_parties() -> None:
    """A loaded state is checked: third-party sides only with O10, a frame that left only of a
    third party, grudges only against a present side, never of the neutrals, above 0."""
    from mac_tui.snapshot import problems

    units = (frame("P1"), side(frame("N1", col=5), "neutral"), frame("E1", "enemy", col=10))
    good = o10(game(*units), grudges=(SideGrudge(side="player", amount=4),))
    assert problems(good) == []
    core = attrs.evolve(good, battle=attrs.evolve(bat(good), ruleset=()))
    assert any("need optional module O10" in p for p in problems(core))
    gone = attrs.evolve(good, battle=bat(good).with_unit(attrs.evolve(frame("P1"), left=True)))
    assert any("leaves" in p for p in problems(gone))
    for bad in (SideGrudge(side="neutral", amount=4), SideGrudge(side="player", amount=0)):
        state = attrs.evolve(good, battle=attrs.evolve(bat(good), grudges=(bad,)))
        assert problems(state), bad
