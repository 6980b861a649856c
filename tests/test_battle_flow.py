"""Battle flow: deployment (§6.3), the round (§1, §2, R7), the end of round (§5.3, §5.4, R7,
R8, D11), and the end conditions (§1, §10.4, R13, R14, D13), through the engine's `step`.

The hand-made battles and helpers come from `test_battle_actions`; the numbers used most:
    VG-45 Vanguard: reactor 15 -> dissipation max(1, 15 // 10) = 1; a shutdown roll from
        stress 15; automatic shutdown from stress 15 x 1.5 = 22.5, i.e. 23.
    RD-30 Raider: speed 8; VG-45 speed 6 (initiative §1 phase 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from mac_tui.catalog import catalog
from mac_tui.combat import stats
from mac_tui.combat.actions import auto_positions
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    ResetDeployment,
    StartBattle,
    Withdraw,
)
from mac_tui.combat.events import (
    ActivationStarted,
    BattleEnded,
    BattleStarted,
    Deployed,
    RoundStarted,
    SideWithdrew,
    Stalemate,
    StressChanged,
)
from mac_tui.combat.flow import check_end, end_of_round, initiative, start_round, withdrawal_tripped
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.setup import (
    WITHDRAW_RULES,
    new_battle,
    pick_chassis,
    starting_lance,
    withdrawal_odds,
)
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import (
    CENTER_TORSO,
    LEGS,
    Battle,
    SideInfo,
    Unit,
    Uplink,
    WithdrawRule,
)
from mac_tui.dice import COMBAT, Dice, RngState
from mac_tui.game import Event
from mac_tui.hexgrid import from_offset
from mac_tui.model import GameState

from .test_battle_actions import (
    bat,
    frame,
    game,
    h,
    of,
    ok,
    refused,
    texts,
    unit,
)
from .test_damage import ScriptedDice, d100, weapon

CAT = catalog()
NOT_STARTED = "the battle has not started: finish deployment first"


# --- deployment (§6.3) ----------------------------------------------------------------------
def deployment(seed: int = 1, difficulty: int = 1) -> GameState:
    return make_state(seed, difficulty, player_ai=False)


@pytest.mark.parametrize(("seed", "difficulty"), [(1, 1), (7, 3), (11, 4), (23, 5)])
def test_enemies_start_placed_in_the_rightmost_two_columns(seed: int, difficulty: int) -> None:
    battle = bat(deployment(seed, difficulty))
    assert battle.phase == "deployment"
    width = battle.map.width
    enemies = battle.side_units("enemy")
    assert len(enemies) == len(CAT.enemy_force(difficulty).classes)
    for e in enemies:
        assert e.pos is not None
        assert battle.map.grid.column(e.pos) in (width - 2, width - 1)
    assert len({e.pos for e in enemies}) == len(enemies)
    assert all(p.pos is None for p in battle.side_units("player"))


def test_deploy_in_the_leftmost_two_columns_only() -> None:
    state = deployment()
    assert (bat(state).map.width, bat(state).map.height) == (12, 10)  # §6.1, difficulty 1
    out = ok(state, Deploy("P1", from_offset(0, 3)))
    assert out.events == (Deployed(unit="P1", hex=from_offset(0, 3)),)
    assert unit(out.state, "P1").pos == from_offset(0, 3)
    ok(state, Deploy("P1", from_offset(1, 9)))
    assert refused(state, Deploy("P1", from_offset(2, 3))) == (
        f"hex {from_offset(2, 3).q},3 is outside your deployment zone"
    )
    assert "outside your deployment zone" in refused(state, Deploy("P1", from_offset(-1, 3)))
    assert "outside your deployment zone" in refused(state, Deploy("P1", from_offset(0, 10)))


def test_deploy_only_player_frames_on_free_hexes() -> None:
    state = deployment()
    assert refused(state, Deploy("E1", from_offset(0, 0))).endswith("is not yours to place")
    assert refused(state, Deploy("P9", from_offset(0, 0))) == "no frame 'P9'"
    placed = ok(state, Deploy("P1", from_offset(0, 3))).state
    assert refused(placed, Deploy("P2", from_offset(0, 3))) == (
        f"hex {from_offset(0, 3).q},3 is taken by Ghost"
    )


def test_replacing_a_frame_moves_it() -> None:
    state = ok(deployment(), Deploy("P1", from_offset(0, 3))).state
    moved = ok(state, Deploy("P1", from_offset(1, 6))).state
    assert unit(moved, "P1").pos == from_offset(1, 6)
    # Onto the hex it already has: nothing to do, refused like a Move there (and not listed
    # by legal_commands).
    assert refused(moved, Deploy("P1", from_offset(1, 6))) == "Ghost is already there"
    # The old hex is free again.
    ok(moved, Deploy("P2", from_offset(0, 3)))


def test_reset_deployment() -> None:
    state = deployment()
    assert refused(state, ResetDeployment()) == "no frame is placed yet"
    state = ok(state, Deploy("P1", from_offset(0, 3))).state
    state = ok(state, Deploy("P2", from_offset(1, 3))).state
    out = ok(state, ResetDeployment())
    assert all(u.pos is None for u in bat(out.state).side_units("player"))
    assert set(out.events) == {Deployed(unit="P1", hex=None), Deployed(unit="P2", hex=None)}
    # The enemy stays where it was.
    assert [u.pos for u in bat(out.state).side_units("enemy")] == [
        u.pos for u in bat(state).side_units("enemy")
    ]


def test_auto_deploy_front_column_from_the_middle() -> None:
    # 10 rows, middle row 5: the front column (1) first, row 5, then row 4 (|4-5| = 1, and
    # the upper row first).
    out = ok(deployment(), AutoDeploy())
    assert unit(out.state, "P1").pos == from_offset(1, 5)
    assert unit(out.state, "P2").pos == from_offset(1, 4)
    assert refused(out.state, AutoDeploy()) == "every frame is already placed"


def test_auto_deploy_places_only_the_unplaced() -> None:
    state = ok(deployment(), Deploy("P1", from_offset(1, 5))).state
    assert auto_positions(bat(state)) == [("P2", from_offset(1, 4))]
    out = ok(state, AutoDeploy())
    assert out.events == (Deployed(unit="P2", hex=from_offset(1, 4)),)
    assert unit(out.state, "P1").pos == from_offset(1, 5)


def test_start_battle_waits_for_every_frame() -> None:
    state = deployment()
    assert refused(state, StartBattle()) == "place every frame first (waiting: Ghost, Falcon)"
    half = ok(state, Deploy("P1", from_offset(0, 0))).state
    assert refused(half, StartBattle()) == "place every frame first (waiting: Falcon)"
    assert "start-battle" not in texts(half)
    ready = ok(half, AutoDeploy()).state
    assert "start-battle" in texts(ready)
    out = ok(ready, StartBattle())
    battle = bat(out.state)
    assert (battle.phase, battle.round, battle.turn) == ("combat", 1, 0)
    assert isinstance(out.events[0], BattleStarted)
    assert of(out.events, RoundStarted) == [RoundStarted(round=1, order=battle.order)]
    assert of(out.events, ActivationStarted)[0].unit == battle.order[0]
    assert refused(out.state, StartBattle()) == "the battle has already started"
    assert refused(out.state, Deploy("P1", from_offset(0, 1))) == "deployment is over"
    assert refused(out.state, ResetDeployment()) == "deployment is over"
    assert refused(out.state, AutoDeploy()) == "deployment is over"


@pytest.mark.parametrize(
    "command", [Move(h(1)), FireGroup(1, "E1"), EndActivation(), Brace(), Withdraw()]
)
def test_battle_commands_wait_for_the_start(command: Any) -> None:
    state = deployment()
    assert refused(state, command) == NOT_STARTED
    assert refused(ok(state, AutoDeploy()).state, command) == NOT_STARTED


def test_legal_deployment_commands() -> None:
    state = ok(deployment(), Deploy("P1", from_offset(0, 0))).state
    legal = legal_commands(state)
    deploys = [c for c in legal if isinstance(c, Deploy)]
    # 2 columns x 10 rows = 20 hexes: P1 may go to the 19 others, P2 to the 19 free ones.
    assert len(deploys) == 38
    assert all(c.unit in ("P1", "P2") for c in deploys)
    assert all(bat(state).map.is_deployment(c.hex, "player") for c in deploys)
    assert {type(c) for c in legal} == {Deploy, ResetDeployment, AutoDeploy}


# --- the round (§1, §2, R7) -----------------------------------------------------------------
def test_initiative_by_speed_then_piloting() -> None:
    # Speed: SC-20 9, RD-30 8, RG-55 6, VG-45 6, EN-50 5. RG-55 (piloting 5) before the
    # VG-45s (piloting 3); the two VG-45s tie and keep the battle's order (P2 before P3).
    battle = bat(
        game(
            frame("P1", chassis="RD-30", piloting=2),
            frame("P2", chassis="VG-45", piloting=3),
            frame("E1", "enemy", "RG-55", piloting=5),
            frame("E2", "enemy", "EN-50", piloting=6),
            frame("E3", "enemy", "SC-20", piloting=1),
            frame("P3", chassis="VG-45", piloting=3),
            frame("P4", chassis="SC-20", piloting=5, destroyed=True),
            frame("E4", "enemy", "SC-20", piloting=5, pilot_alive=False),
        )
    )
    assert initiative(battle) == ("E3", "P1", "E1", "P2", "P3", "E2")


def test_piloting_breaks_a_speed_tie() -> None:
    battle = bat(game(frame("P1", piloting=2), frame("E1", "enemy", piloting=4)))
    assert initiative(battle) == ("E1", "P1")


def fresh(*units: Unit, seed: int = 1, **kw: Any) -> tuple[GameState, list[Event]]:
    """A battle before its first round, then phases 1-2 and the first activation."""
    state = game(*units, seed=seed, round_=0, order=(), **kw)
    dice = Dice(state.rng)
    battle, events = start_round(bat(state), dice)
    return attrs.evolve(state, battle=battle, rng=dice.state()), events


def activations(events: Sequence[Event]) -> list[str]:
    return [e.unit for e in of(events, ActivationStarted)]


def play_round(state: GameState) -> tuple[GameState, list[Event]]:
    """Every frame ends its activation; return the state after the round and all events."""
    events: list[Event] = []
    start = bat(state).round
    while bat(state).phase == "combat" and bat(state).round == start:
        out = ok(state, EndActivation())
        events.extend(out.events)
        state = out.state
    return state, events


def laser() -> tuple[Any, ...]:
    return (weapon("medium_laser", "right_arm"),)


def test_activations_in_initiative_order() -> None:
    state, first = fresh(
        frame("P1", chassis="VG-45", weapons=laser()),
        frame("E1", "enemy", "RD-30", col=8),
        frame("P2", chassis="SC-20", col=1),
        frame("E2", "enemy", "WD-60", col=9),
    )
    order = ("P2", "E1", "P1", "E2")  # speeds 9, 8, 6, 4; SC-20 energy 10 x 1.5 = 15
    assert bat(state).order == order
    assert first == [RoundStarted(round=1, order=order), ActivationStarted("P2", 2, 15)]
    after, events = play_round(state)
    assert activations(first + events)[:4] == list(order)
    assert bat(after).round == 2


def test_refresh_gives_full_ap_and_energy() -> None:
    # Round 1 is spent: everything used up. The last frame ends; round 2 refreshes (§1 phase 1).
    spent: dict[str, Any] = {
        "ap": 0,
        "energy_used": 12,
        "fired_groups": (1,),
        "braced": True,
        "overwatch_group": None,
    }
    state = game(
        frame("P1", weapons=laser(), **spent),
        frame("P2", col=1, gyro_hit=True, **spent),
        frame("E1", "enemy", "VG-45", col=8),
        order=("P1", "P2", "E1"),
        turn=2,
    )
    out = ok(state, EndActivation())
    battle = bat(out.state)
    assert battle.round == 2
    assert [(u.id, u.ap, u.energy_used) for u in battle.units] == [
        ("P1", 2, 0),
        ("P2", 1, 0),  # §2: a damaged gyro leaves 1 AP
        ("E1", 2, 0),
    ]
    assert all(u.fired_groups == () and not u.braced for u in battle.units)  # D22
    # The energy of an activation: the whole 150% budget, 15 x 1.5 -> 22.
    assert of(out.events, ActivationStarted)[0] == ActivationStarted("P1", 2, 22)


def test_a_shut_down_frame_sits_out_a_round_then_restarts() -> None:
    # P1 is shut down (R7): 0 AP in round 1, never activated; at its end stress 9 -> 4
    # (halved, rounded down) and it restarts with 2 AP in round 2.
    state, first = fresh(
        frame("P1", chassis="RD-30", weapons=laser(), shutdown=True, stress=9),
        frame("E1", "enemy", "VG-45", col=8),
    )
    assert unit(state, "P1").ap == 0
    assert stats.energy_left(unit(state, "P1")) == 0
    assert bat(state).active_unit == unit(state, "E1")
    after, events = play_round(state)
    assert activations(first + events) == ["E1", "P1"]  # E1 in round 1, P1 first in round 2
    (change,) = [e for e in of(events, StressChanged) if e.unit == "P1"]
    assert (change.restarted, change.stress, change.dissipated) == (True, 4, 0)
    p1 = unit(after, "P1")
    assert (p1.shutdown, p1.ap, p1.stress) == (False, 2, 4)


def test_destroyed_and_dead_frames_never_act() -> None:
    state, first = fresh(
        frame("P1", chassis="SC-20", destroyed=True),
        frame("E1", "enemy", "SC-20", col=8, pilot_alive=False),
        frame("P2", weapons=laser()),
        frame("E2", "enemy", "VG-45", col=9),
    )
    assert bat(state).order == ("P2", "E2")
    after, events = play_round(state)
    # Commands act for the active frame only, and these two never are: nothing can be
    # ordered for them.
    assert activations(first + events) == ["P2", "E2", "P2"]
    assert bat(after).order == ("P2", "E2")


def hit_seed(chance: int, start: int = 0) -> int:
    """A seed whose first combat d100 is a hit at `chance`%: the dice are controlled by
    choosing the seed, not by patching them."""
    seed = start
    while Dice(RngState(seed=seed)).d100(COMBAT) > chance:
        seed += 1
    return seed


def ct_hanging(uid: str, side: str, col: int, **changes: Any) -> Unit:
    """A Raider with no centre-torso armour and 1 structure there: any hit there kills it."""
    u = frame(uid, side, "RD-30", col=col, **changes)
    armor = list(u.armor)
    structure = list(u.structure)
    armor[CENTER_TORSO], structure[CENTER_TORSO] = 0, 1
    return attrs.evolve(u, armor=tuple(armor), structure=tuple(structure))


def kill_state(*units: Unit, shooter: str, target: str) -> GameState:
    """`units` in that order, `shooter` first to act, dice chosen for a hit on `target`."""
    state = game(*units)
    battle = bat(state)
    a, t = battle.unit(shooter), battle.unit(target)
    hc = hit_chance(battle, a, t, a.weapons[0], called_shot=True)
    assert hc is not None
    seed = hit_seed(hc.chance)
    return attrs.evolve(state, seed=seed, rng=RngState(seed=seed))


def test_killed_frame_leaves_the_order_mid_round() -> None:
    # Medium laser at 4 hexes on a Raider, called shot: 80 + 8 (gunnery 4) - 22 + 10 - 15 = 61.
    state = kill_state(
        frame("P1", weapons=laser()),
        ct_hanging("E1", "enemy", 4, weapons=laser()),
        frame("E2", "enemy", "RD-30", col=8, weapons=laser()),
        shooter="P1",
        target="E1",
    )
    hc = hit_chance(bat(state), unit(state, "P1"), unit(state, "E1"), laser()[0], called_shot=True)
    assert hc is not None and hc.chance == 61
    out = ok(state, CalledShot(1, "E1", "center_torso"))
    assert unit(out.state, "E1").destroyed
    assert bat(out.state).phase == "combat"
    # E1 was next in order: it is skipped, E2 acts.
    assert bat(out.state).active_unit == unit(out.state, "E2")
    assert activations(out.events) == ["E2"]
    after, events = play_round(out.state)
    assert bat(after).order == ("E2", "P1")  # speeds 8, 6; E1 is gone
    assert "E1" not in activations(events)


# --- end of round (§5.3, §5.4, R7, R8, D11) -------------------------------------------------
def eor(u: Unit, *draws: tuple[int, int]) -> tuple[Unit, list[StressChanged]]:
    """Phase 5 for one frame with exactly `draws` from the combat stream."""
    battle = bat(game(u, frame("E1", "enemy", col=9)))
    dice = ScriptedDice(*draws)
    battle, events = end_of_round(battle, dice)
    assert dice.done, f"draws left over: {dice.script}"
    return battle.unit(u.id), [e for e in of(events, StressChanged) if e.unit == u.id]


def test_overload_becomes_stress_then_dissipates() -> None:
    # 20 used of 15: overload 5; dissipation max(1, 15 // 10 = 1) = 1 -> stress 4.
    after, events = eor(frame("P1", energy_used=20))
    assert after.stress == 4
    assert events == [StressChanged("P1", 5, 1, 4, False, None, False, False)]


def test_no_overload_no_stress() -> None:
    after, events = eor(frame("P1", energy_used=15))
    assert (after.stress, events) == (0, [])


@pytest.mark.parametrize(
    ("chassis", "dissipation"),
    [("RD-30", 1), ("VG-45", 1), ("WD-60", 2), ("CL-100", 3)],  # max(1, output // 10)
)
def test_dissipation(chassis: str, dissipation: int) -> None:
    after, _ = eor(frame("P1", chassis=chassis, stress=5))
    assert after.stress == 5 - dissipation


def test_dissipation_uses_effective_output() -> None:
    # Warden 22 - 2 reactor hits x 3 = 16 -> max(1, 1) = 1.
    after, _ = eor(frame("P1", chassis="WD-60", stress=5, reactor_hits=2))
    assert after.stress == 4


@pytest.mark.parametrize(("roll", "shutdown"), [(1, True), (25, True), (26, False), (100, False)])
def test_stress_at_output_rolls_for_shutdown(roll: int, shutdown: bool) -> None:
    # 14 + overload (18 - 15 = 3) = 17, - 1 = 16 >= 15 and < 22.5: a 25% roll.
    after, events = eor(frame("P1", stress=14, energy_used=18), d100(roll))
    assert (after.stress, after.shutdown, after.reactor_hits) == (16, shutdown, 0)
    assert events == [StressChanged("P1", 3, 1, 16, False, roll, shutdown, False)]


def test_stress_just_under_output_rolls_nothing() -> None:
    # 15 - 1 = 14 < 15: no roll (ScriptedDice would fail on any draw).
    after, _ = eor(frame("P1", stress=15))
    assert (after.stress, after.shutdown) == (14, False)


def test_stress_exactly_output_rolls() -> None:
    after, events = eor(frame("P1", stress=16), d100(60))
    assert (after.stress, after.shutdown) == (15, False)
    assert events[0].shutdown_roll == 60


def test_stress_at_one_and_a_half_output_shuts_down_with_a_reactor_hit() -> None:
    # 24 - 1 = 23; 23 x 100 = 2300 >= 15 x 150 = 2250: automatic, no roll, +1 reactor hit;
    # D11: no R8 stress on top (23 stays 23).
    after, events = eor(frame("P1", stress=24))
    assert (after.stress, after.shutdown, after.reactor_hits) == (23, True, 1)
    assert stats.effective_output(after) == 12  # 15 - 3
    assert events == [StressChanged("P1", 0, 1, 23, False, None, True, True)]


def test_stress_just_under_one_and_a_half_output_rolls() -> None:
    # 23 - 1 = 22: 2200 < 2250, so a roll, not the automatic shutdown.
    after, _ = eor(frame("P1", stress=23), d100(90))
    assert (after.stress, after.shutdown, after.reactor_hits) == (22, False, 0)


def test_shut_down_frame_halves_its_stress_and_restarts() -> None:
    # R7: 23 -> 11 (half, rounded down); no dissipation, no roll that round.
    after, events = eor(frame("P1", stress=23, shutdown=True, ap=0))
    assert (after.stress, after.shutdown) == (11, False)
    assert events == [StressChanged("P1", 0, 0, 11, True, None, False, False)]


def test_end_of_round_clears_barriers_and_uplinks() -> None:
    battle = bat(game(frame("P1", barrier=20), frame("E1", "enemy", col=5)))
    battle = attrs.evolve(battle, uplinks=(Uplink(side="player", target="E1"),))
    battle, _ = end_of_round(battle, ScriptedDice())
    assert battle.unit("P1").barrier == 0
    assert battle.uplinks == ()


def test_wrecks_are_left_alone_at_end_of_round() -> None:
    wreck = frame("P2", stress=40, destroyed=True)
    battle = bat(game(frame("P1"), wreck, frame("E1", "enemy", col=5)))
    battle, events = end_of_round(battle, ScriptedDice())
    assert battle.unit("P2") == wreck and events == []


def test_shutdown_cycle_through_the_engine() -> None:
    # Round 1: P1 (stress 24) ends; E1 ends; P1 shuts down with a reactor hit (23).
    # Round 2: P1 has 0 AP, E1 acts alone; at its end P1 restarts with 23 // 2 = 11.
    # Round 3: P1 acts with 2 AP and output 15 - 3 = 12 (energy 12 x 1.5 = 18).
    state = game(
        frame("P1", weapons=laser(), stress=24),
        frame("E1", "enemy", "VG-45", col=8, weapons=laser()),
    )
    round2, events1 = play_round(state)
    p1 = unit(round2, "P1")
    assert (p1.shutdown, p1.reactor_hits, p1.stress, p1.ap) == (True, 1, 23, 0)
    assert bat(round2).active_unit == unit(round2, "E1")
    round3, events2 = play_round(round2)
    # Round 2 had one activation (E1, the last one before it); round 3 begins with P1.
    assert activations(events1)[-1] == "E1"
    assert activations(events2) == ["P1"]
    p1 = unit(round3, "P1")
    assert (p1.shutdown, p1.stress, p1.ap) == (False, 11, 2)
    assert bat(round3).round == 3
    assert of(events2, ActivationStarted) == [ActivationStarted("P1", 2, 18)]


def rolls_first(pred: Any) -> int:
    seed = 0
    while not pred(Dice(RngState(seed=seed)).d100(COMBAT)):
        seed += 1
    return seed


@pytest.mark.parametrize("shut", [True, False])
def test_shutdown_roll_through_the_engine(shut: bool) -> None:
    # Stress 16 -> 15 after dissipation: the end of round draws one d100 against 25.
    seed = rolls_first(lambda r: (r <= 25) == shut)
    state = game(
        frame("P1", weapons=laser(), stress=16),
        frame("E1", "enemy", "VG-45", col=8),
        seed=seed,
    )
    after, events = play_round(state)
    (change,) = [e for e in of(events, StressChanged) if e.unit == "P1"]
    assert change.shutdown_roll is not None
    assert change.shutdown == (change.shutdown_roll <= 25) == shut
    assert unit(after, "P1").ap == (0 if shut else 2)


# --- end conditions (§1, R13, R14, D13) -----------------------------------------------------
def test_victory_right_after_the_killing_action() -> None:
    # P2 has not acted yet: the battle ends at once, not at the end of the round.
    state = kill_state(
        frame("P1", weapons=laser()),
        frame("P2", col=1, weapons=laser()),
        ct_hanging("E1", "enemy", 4),
        shooter="P1",
        target="E1",
    )
    out = ok(state, CalledShot(1, "E1", "center_torso"))
    battle = bat(out.state)
    assert (battle.phase, battle.result, battle.round) == ("over", "victory", 1)
    assert of(out.events, BattleEnded) == [
        BattleEnded(result="victory", reason="every enemy frame is down", round=1)
    ]
    assert not of(out.events, StressChanged) and not of(out.events, RoundStarted)
    assert unit(out.state, "P2").ap == 2
    assert legal_commands(out.state) == []
    assert refused(out.state, EndActivation()) == "the battle is over (victory)"


def test_defeat_right_after_the_killing_action() -> None:
    state = kill_state(
        frame("E1", "enemy", weapons=laser()),
        ct_hanging("P1", "player", 4),
        frame("E2", "enemy", col=8, weapons=laser()),
        shooter="E1",
        target="P1",
    )
    out = ok(state, CalledShot(1, "P1", "center_torso"))
    battle = bat(out.state)
    assert (battle.phase, battle.result) == ("over", "defeat")
    assert of(out.events, BattleEnded)[0].reason == "every player frame is down"


def test_mutual_destruction_is_victory() -> None:
    battle = bat(game(frame("P1", destroyed=True), frame("E1", "enemy", col=5, pilot_alive=False)))
    ended, events = check_end(battle)
    assert (ended.phase, ended.result) == ("over", "victory")
    assert of(events, BattleEnded)[0].result == "victory"


def test_check_end_with_both_sides_standing() -> None:
    battle = bat(game(frame("P1"), frame("E1", "enemy", col=5)))
    assert check_end(battle) == (battle, [])


def damaged(u: Unit, armour_lost: int | None = None) -> Unit:
    """`u` with `armour_lost` points of armour gone, taken location by location; by default a
    quarter of its starting armour, rounded up: "damaged" in R14's sense."""
    if armour_lost is None:
        armour_lost = -(-u.start_armor // 4)
    armor = list(u.armor)
    for i, a in enumerate(armor):
        taken = min(a, armour_lost)
        armor[i] -= taken
        armour_lost -= taken
    assert armour_lost == 0
    return attrs.evolve(u, armor=tuple(armor))


def halved(u: Unit) -> Unit:
    """Armour below 50% of what it started with."""
    return attrs.evolve(u, armor=tuple(a // 2 - 1 if a > 1 else 0 for a in u.armor))


def enemies(rule: WithdrawRule, *units: Unit) -> Battle:
    return bat(
        game(
            frame("P1"),
            *units,
            sides=(
                SideInfo(side="player", ai=False),
                SideInfo(side="enemy", ai=True, withdrawal=rule),
            ),
        )
    )


def e(i: int, **changes: Any) -> Unit:
    return frame(f"E{i}", "enemy", "VG-45", col=4 + i, **changes)


@pytest.mark.parametrize(
    ("rule", "units", "tripped"),
    [
        ("never", (e(1, destroyed=True), e(2, destroyed=True), halved(e(3))), False),
        # at_50: half the frames lost (2 of 4: 2 x 2 >= 4).
        ("at_50", (e(1, destroyed=True), e(2, pilot_alive=False), e(3), e(4)), True),
        ("at_50", (e(1, destroyed=True), e(2), e(3), e(4)), False),  # 1 of 4
        # at_50: half the survivors under 50% armour (2 of 3), or not (1 of 3).
        ("at_50", (e(1, destroyed=True), halved(e(2)), halved(e(3)), e(4)), True),
        ("at_50", (e(1, destroyed=True), halved(e(2)), damaged(e(3), 20), e(4)), False),
        # Exactly 50% armour is not "< 50%": VG-45 armour 100, 50 left (2 of 3 at 50).
        ("at_50", (e(1, destroyed=True), damaged(e(2), 50), damaged(e(3), 50), e(4)), False),
        ("at_50", (e(1, destroyed=True), damaged(e(2), 51), damaged(e(3), 51), e(4)), True),
        # at_25: a quarter lost (1 of 4).
        ("at_25", (e(1, destroyed=True), e(2), e(3), e(4)), True),
        ("at_25", (e(1, destroyed=True), e(2), e(3), e(4), e(5)), False),  # 1 of 5
        # at_25: 75% of the survivors damaged (3 of 4: 3 x 4 >= 3 x 4), not 2 of 4.
        ("at_25", (damaged(e(1)), damaged(e(2)), damaged(e(3)), e(4)), True),
        ("at_25", (damaged(e(1)), damaged(e(2)), e(3), e(4)), False),
    ],
)
def test_withdrawal_thresholds(rule: WithdrawRule, units: tuple[Unit, ...], tripped: bool) -> None:
    assert withdrawal_tripped(enemies(rule, *units), "enemy") is tripped


def test_damaged_means_a_quarter_of_the_armour_or_any_structure_lost() -> None:
    # R14 (amended): a VG-45 starts with 100 armour; 25 lost is a quarter exactly, 24 is not.
    assert e(1).start_armor == sum(e(1).armor) == 100
    assert stats.damaged(damaged(e(1), 25))
    assert not stats.damaged(damaged(e(1), 24))
    assert not stats.damaged(e(1))
    # a single point of structure counts
    structure = (e(1).structure[0] - 1, *e(1).structure[1:])
    assert stats.damaged(attrs.evolve(e(1), structure=structure))
    # the armour it had when the battle began: entering with 80, 20 lost is a quarter
    entered = attrs.evolve(damaged(e(1), 20), start_armor=80)
    assert stats.damaged(damaged(entered, 20)) and not stats.damaged(damaged(entered, 19))
    # the Barrier's temporary armour is not the frame's armour, neither kept nor lost
    assert not stats.damaged(e(1, barrier=20))
    assert not stats.damaged(attrs.evolve(damaged(e(1), 24), barrier=20))
    assert stats.damaged(attrs.evolve(damaged(e(1), 25), barrier=30))
    # a report's "damaged" is any loss
    assert damaged(e(1), 1).damaged and not stats.damaged(damaged(e(1), 1))


def test_retreat_at_25_counts_frames_damaged_by_r14() -> None:
    # 75% of the survivors damaged: 24 points off each of four frames is a scratch (R14).
    scratched = tuple(damaged(e(i), 24) for i in range(1, 5))
    assert not withdrawal_tripped(enemies("at_25", *scratched), "enemy")
    hurt = (*(damaged(e(i), 25) for i in range(1, 4)), e(4))
    assert withdrawal_tripped(enemies("at_25", *hurt), "enemy")


def test_ai_side_withdraws_at_end_of_round_not_before() -> None:
    # One enemy frame, damaged, retreat at 25%: 1 of 1 damaged. P1 braces: the battle goes
    # on; when the round ends the enemy withdraws and the player wins (§1, R14).
    state = game(
        frame("P1", weapons=laser()),
        damaged(frame("E1", "enemy", "VG-45", col=6)),
        sides=(
            SideInfo(side="player", ai=False),
            SideInfo(side="enemy", ai=True, withdrawal="at_25"),
        ),
    )
    braced = ok(state, Brace())
    assert bat(braced.state).phase == "combat"
    after, events = play_round(braced.state)
    assert of(events, SideWithdrew) == [SideWithdrew(side="enemy", rule="at_25")]
    assert (bat(after).phase, bat(after).result) == ("over", "victory")
    assert of(events, BattleEnded)[0].reason == "the enemy side withdrew (at_25)"


def test_ai_player_side_withdrawal_is_a_withdrawal() -> None:
    state = game(
        damaged(frame("P1", weapons=laser())),
        frame("E1", "enemy", "VG-45", col=6, weapons=laser()),
        sides=(
            SideInfo(side="player", ai=True, withdrawal="at_25"),
            SideInfo(side="enemy", ai=True, withdrawal="never"),
        ),
    )
    after, events = play_round(state)
    assert of(events, SideWithdrew) == [SideWithdrew(side="player", rule="at_25")]
    assert bat(after).result == "withdrawal"


def test_a_person_playing_is_never_withdrawn_for_them() -> None:
    state = game(
        damaged(frame("P1", weapons=laser())),
        frame("E1", "enemy", "VG-45", col=6, weapons=laser()),
        sides=(
            SideInfo(side="player", ai=False, withdrawal="at_25"),
            SideInfo(side="enemy", ai=True, withdrawal="never"),
        ),
    )
    after, events = play_round(state)
    assert not of(events, SideWithdrew)
    assert (bat(after).phase, bat(after).round) == ("combat", 2)


@pytest.mark.parametrize(("round_", "over"), [(99, False), (100, True)])
def test_round_limit(round_: int, over: bool) -> None:
    state = game(
        frame("P1", weapons=laser()),
        frame("E1", "enemy", "VG-45", col=6, weapons=laser()),
        round_=round_,
    )
    after, events = play_round(state)
    if over:
        assert (bat(after).phase, bat(after).result, bat(after).round) == (
            "over",
            "withdrawal",
            100,
        )
        assert of(events, BattleEnded)[0].reason == "the round limit was reached"
    else:
        assert (bat(after).phase, bat(after).round) == ("combat", 100)


def test_nobody_able_to_fire_ends_the_battle_at_round_end() -> None:
    # D13: the only weapon is dry (an autocannon needs 5 a shot, has 4).
    dry = (weapon("autocannon_5", "left_arm", ammo=4),)
    state = game(frame("P1", weapons=dry), frame("E1", "enemy", "VG-45", col=6))
    after, events = play_round(state)
    assert (bat(after).phase, bat(after).result) == ("over", "withdrawal")
    assert of(events, BattleEnded)[0].reason == "no frame on either side can still fire"


# --- R30: stalemate --------------------------------------------------------------------------
def legless(u: Unit) -> Unit:
    structure = list(u.structure)
    structure[LEGS] = 0
    return attrs.evolve(u, structure=tuple(structure))


def standoff(enemy_col: int = 11, enemy_legs: bool = False) -> GameState:
    """P1 at column 0 and E1 at `enemy_col`, each with one Medium Laser (max range 10); P1's
    legs are gone, E1's too unless `enemy_legs`."""
    enemy = frame("E1", "enemy", col=enemy_col, weapons=laser())
    return game(legless(frame("P1", weapons=laser())), enemy if enemy_legs else legless(enemy))


def test_two_legless_frames_out_of_range_end_the_battle_as_withdrawal() -> None:
    battle = bat(standoff())
    ended, events = check_end(battle)
    assert (ended.phase, ended.result) == ("over", "withdrawal")
    assert events == [
        Stalemate(round=1, frames=(("P1", 10, 11), ("E1", 10, 11))),
        BattleEnded(
            result="withdrawal",
            reason="stalemate: no frame can move or reach an enemy (R30)",
            round=1,
        ),
    ]


def test_no_stalemate_while_a_frame_can_move_or_reach_an_enemy() -> None:
    for state in (standoff(enemy_legs=True), standoff(enemy_col=10)):
        battle = bat(state)
        assert check_end(battle) == (battle, [])
    # a frame with no weapon left reaches nobody (range 0); one that can still fire does
    dry = (weapon("autocannon_5", "left_arm", ammo=4),)
    near = game(legless(frame("P1", weapons=dry)), legless(frame("E1", "enemy", col=3)))
    assert of(check_end(bat(near))[1], Stalemate)


def test_a_stalemate_ends_the_battle_after_the_action_not_at_round_end() -> None:
    # R13 read for R30: end conditions are checked after every action; P1 braces, and the
    # battle is over at once, in round 1, before E1 acts or the round closes.
    out = ok(standoff(), Brace())
    assert (bat(out.state).phase, bat(out.state).result, bat(out.state).round) == (
        "over",
        "withdrawal",
        1,
    )
    assert [type(e).__name__ for e in out.events][-2:] == ["Stalemate", "BattleEnded"]
    assert not of(out.events, RoundStarted)


# --- setup (D12, D23) ------------------------------------------------------------------------
@pytest.mark.parametrize("difficulty", [1, 2, 3, 4, 5])
def test_enemy_withdrawal_rule_follows_the_difficulty(difficulty: int) -> None:
    # D23: a quick battle draws the enemy's rule with its difficulty's weights (AI stream):
    # over 40 seeds every rule of the difficulty shows up and no other; difficulty 1-2 enemies
    # never fight to the end.
    odds = withdrawal_odds(difficulty)
    seen = set()
    for seed in range(40):
        battle = bat(make_state(seed, difficulty))
        info = battle.side_info("enemy")
        assert info.ai
        seen.add(info.withdrawal)
        assert battle.side_info("player").withdrawal == "never"
    assert seen == {rule for rule, _ in odds}
    assert ("never" in seen) is (difficulty >= 3)


def test_the_withdrawal_ladder() -> None:
    # data/missions.toml, ruling D23: 1 retreats at 25%; 2 at 25% (2 in 3) or 50%; 3 at 25%,
    # 50% (2 in 4) or fights to the end; 4 at 50% (2 in 3) or to the end; 5 at 50% or to the
    # end, even odds.
    assert [withdrawal_odds(d) for d in range(1, 6)] == [
        (("at_25", 1),),
        (("at_50", 1), ("at_25", 2)),
        (("never", 1), ("at_50", 2), ("at_25", 1)),
        (("never", 1), ("at_50", 2)),
        (("never", 1), ("at_50", 1)),
    ]
    assert set(WITHDRAW_RULES) == {"never", "at_50", "at_25"}


def test_enemy_withdrawal_rule_can_be_given() -> None:
    battle = new_battle(
        Dice(RngState(seed=3)),
        difficulty=1,
        landscape="habitable",
        player=starting_lance(),
        enemy=starting_lance(),
        enemy_withdrawal="at_50",
    )
    assert battle.side_info("enemy").withdrawal == "at_50"


def test_enemy_chassis_of_a_class_without_a_universal_one() -> None:
    # D12: no universal heavy; with no faction every heavy can come up, and only heavies.
    picks = {pick_chassis(Dice(RngState(seed=s)), "heavy", None).designation for s in range(60)}
    assert picks == {"WD-60", "BR-70", "SN-75"}
    # The Crucible has no light chassis: the universal Scout.
    lights = {
        pick_chassis(Dice(RngState(seed=s)), "light", "crucible").designation for s in range(30)
    }
    assert lights == {"SC-20"}
