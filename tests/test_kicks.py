"""Optional module O7, Kicks and stun (optional-rules.md O7.1-O7.9), rule by rule.

Same hand-drawn map as `test_moving_fire.py`: three rows of fourteen Open hexes; frames on row 1
stand `col` apart. Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui import game
from mac_tui.catalog import catalog
from mac_tui.combat import kicks, stats, stun
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.commands import EndActivation, Kick, Move
from mac_tui.combat.kicks import Kicked, KickPlan, check_kick, do_kick
from mac_tui.combat.refusals import order_refusal
from mac_tui.combat.state import Battle, Unit

from .test_damage import ScriptedDice, d100, gear, make_unit, set_loc, weapon
from .test_elevation import OPEN_ROWS, battle_on, levels
from .test_moving_fire import at, battle, enforcer, falcon, names, run, state_of

CAT = catalog()
O7 = ("O7",)


def test_data_file_names_its_rules() -> None:
    data = CAT.kicks
    assert (data.kick.rule, data.chance.rule, data.damage.rule) == ("O7.1", "O7.2", "O7.3")
    assert sum(row.weight for row in data.location) == 100
    assert CAT.modules["O7"].data == "kicks.toml"


# --- O7.6: the entries and the movement ---------------------------------------------------------
@pytest.mark.parametrize(("state", "value"), [("stunned", -50), ("dazed", -20)])
def test_stunned_and_dazed_entries(state: str, value: int) -> None:
    # 80 + 10 - 13 + 10 = 87, then the stun's entry last
    b = battle(falcon(stun=state), enforcer(), rules=O7)
    a = b.unit("falcon")
    hc = hit_chance(b, a, b.unit("enforcer"), a.weapons[0])
    assert hc is not None and names(hc)[-1] == state and hc.value(state) == value
    assert hc.chance == 87 + value


def test_stun_after_the_o5_entries() -> None:
    b = battle(falcon(stun="stunned", moved_hexes=1), enforcer(moved_hexes=8), rules=("O5", "O7"))
    a = b.unit("falcon")
    hc = hit_chance(b, a, b.unit("enforcer"), a.weapons[0])
    assert hc is not None and names(hc)[-3:] == ["moving", "fast target", "stunned"]
    # 87 - 25 - 5 - 50 = 7
    assert hc.chance == 7


@pytest.mark.parametrize(
    ("chassis", "normal", "stunned"),
    [("RD-30", 4, 2), ("EN-50", 3, 1), ("BR-70", 2, 1), ("CL-100", 1, 1)],
)
def test_stunned_movement_halved_at_least_1(chassis: str, normal: int, stunned: int) -> None:
    unit = make_unit(chassis=chassis)
    assert stats.hex_movement(unit) == normal
    assert stats.hex_movement(attrs.evolve(unit, stun="stunned")) == stunned
    assert stats.hex_movement(attrs.evolve(unit, stun="stunned"), sprint=True) == 2 * stunned
    assert stats.hex_movement(attrs.evolve(unit, stun="dazed")) == normal


# --- O7.7: the threshold ------------------------------------------------------------------------
@pytest.mark.parametrize(("chassis", "threshold"), [("SC-20", 7), ("EN-50", 12), ("CL-100", 24)])
def test_threshold_is_a_quarter_of_the_structure_rounded_up(chassis: str, threshold: int) -> None:
    assert stun.threshold(make_unit(chassis=chassis)) == threshold


def hurt(unit: Unit, lost: int) -> Unit:
    """`unit` (round counter started at full structure) with `lost` structure gone from CT."""
    started = attrs.evolve(unit, round_structure=unit.total_structure)
    ct = started.structure[1]
    return set_loc(started, "center_torso", structure=ct - lost)


def test_threshold_stuns_at_12_for_an_enforcer() -> None:
    b = battle(falcon(), hurt(enforcer(), 11), rules=O7)
    b, events = stun.check_threshold(b)
    assert events == [] and b.unit("enforcer").stun == ""
    b = b.with_unit(hurt(enforcer(), 12))
    b, events = stun.check_threshold(b)
    assert events == [stun.Stunned(unit="enforcer", cause="threshold", lost=12, threshold=12)]
    assert b.unit("enforcer").stun == "stunned" and not b.unit("enforcer").stun_running


def test_no_threshold_with_o7_off() -> None:
    b = battle(falcon(), hurt(enforcer(), 20), rules=())
    assert stun.check_threshold(b) == (b, [])


# --- O7.6: stun never stacks ------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(
    start=st.sampled_from(["", "stunned", "dazed"]),
    running=st.booleans(),
    steps=st.lists(st.sampled_from(["kick", "threshold", "start", "end"]), max_size=12),
)
def test_stun_never_stacks(start: str, running: bool, steps: list[str]) -> None:
    """Whatever happens, a frame holds one state; a stun lands only on a frame in none, and a
    stun runs exactly: stunned -> (an activation starts, ends) -> dazed -> (again) -> none."""
    b = battle(falcon(), enforcer(stun=start, stun_running=running and bool(start)), rules=O7)
    for step in steps:
        before = b.unit("enforcer")
        if step in ("kick", "threshold"):
            b, events = stun.stun(b, "enforcer", step)  # type: ignore[arg-type]
            assert bool(events) == (before.stun == "")
        elif step == "start":
            b = b.with_unit(stun.activation_started(before))
        else:
            b, events = stun.activation_ended(b, "enforcer")
            if before.stun and before.stun_running:
                want = {"stunned": stun.StunEased, "dazed": stun.StunEnded}[before.stun]
                assert [type(e) for e in events] == [want]
            else:
                assert events == []
        after = b.unit("enforcer")
        assert after.stun in ("", "stunned", "dazed")
        if before.stun and step in ("kick", "threshold"):
            assert after == before  # never stacks, never restarts


def test_a_stun_lasts_to_the_end_of_the_first_activation_that_starts_after_it() -> None:
    b = battle(falcon(), enforcer(), rules=O7)
    b, _ = stun.stun(b, "enforcer", "kick")
    b, events = stun.activation_ended(b, "enforcer")  # landed during its own activation
    assert events == [] and b.unit("enforcer").stun == "stunned"
    b = b.with_unit(stun.activation_started(b.unit("enforcer")))
    b, events = stun.activation_ended(b, "enforcer")
    assert events == [stun.StunEased(unit="enforcer")] and b.unit("enforcer").stun == "dazed"
    b = b.with_unit(stun.activation_started(b.unit("enforcer")))
    assert b.unit("enforcer").stun == "dazed"
    b, events = stun.activation_ended(b, "enforcer")
    assert events == [stun.StunEnded(unit="enforcer")] and b.unit("enforcer").stun == ""


# --- O7.1-O7.5: the kick ------------------------------------------------------------------------
def kick_battle(*units: Unit, rules: tuple[str, ...] = O7, **kw: Any) -> Battle:
    return battle(*units, rules=rules, **kw)


def test_o7_example_63_then_9_to_the_legs_and_stunned() -> None:
    # Falcon (Piloting 3) moved her 30 t Raider 3 hexes: `kick` 70 + `piloting` 6 - `evasion`
    # 13 = 63; rolls 40: a hit for 3 + 2 x 3 = 9; location draw 60 of 100 -> legs (head 0,
    # CT 10, LT 15, RT 15, LA 10, RA 10, then legs 40); 9 into the legs' 24 armour.
    b = kick_battle(falcon(3, moved_hexes=3), enforcer(4))
    plan = check_kick(b, b.unit("falcon"), "enforcer")
    assert isinstance(plan, KickPlan)
    assert [m.name for m in plan.chance.modifiers] == ["kick", "piloting", "evasion"]
    assert plan.chance.chance == 63 and plan.damage == 9 and plan.energy == 2
    dice = ScriptedDice(d100(40), (100, 60))
    out = do_kick(b, b.unit("falcon"), "enforcer", dice)
    assert not isinstance(out, str) and dice.done
    after, events = out
    kicked, stunned = events
    assert isinstance(kicked, Kicked) and kicked.result.kick and kicked.hexes_moved == 3
    assert kicked.result.hit and kicked.result.location == "legs"
    assert kicked.result.damage is not None and kicked.result.damage.total == 9
    assert kicked.result.describe().startswith("KICK -> ENFORCER: needs 63, rolls 40: hit")
    assert stunned == stun.Stunned(unit="enforcer", cause="kick", lost=0, threshold=12)
    target = after.unit("enforcer")
    assert target.armor[-1] == 24 - 9 and target.stun == "stunned"
    kicker = after.unit("falcon")
    assert kicker.kicked and kicker.ap == b.unit("falcon").ap - 1 and kicker.energy_used == 2


def test_a_missed_kick_stuns_nobody() -> None:
    b = kick_battle(falcon(3), enforcer(4))
    dice = ScriptedDice(d100(64))  # 70 + 6 - 13 = 63: 64 misses
    out = do_kick(b, b.unit("falcon"), "enforcer", dice)
    assert not isinstance(out, str)
    after, events = out
    assert len(events) == 1 and not events[0].result.hit
    assert after.unit("enforcer").stun == ""


def test_kick_damage_counts_at_most_8_hexes() -> None:
    # O7.3: Raider 3 + 2 x min(H, 8); Colossus 10 + 2 x 1 after its full Move
    assert kicks.kick_damage(falcon(moved_hexes=0)) == 3
    assert kicks.kick_damage(falcon(moved_hexes=8)) == 19
    assert kicks.kick_damage(falcon(moved_hexes=10)) == 19
    assert kicks.kick_damage(make_unit(chassis="CL-100", moved_hexes=1)) == 12


def test_the_kick_chance_takes_exactly_its_entries() -> None:
    # O7.2 with everything on: brace -10 (combat.toml), 2 leg actuator hits -20, Forest cover,
    # the target's Stealth Plating -20 and active Countermeasure Suite -20, the kicker's Gyro
    # Stabilizer +10; no `moving` even under O5; `stunned` last. Never range, LOS or sensor.
    kicker = falcon(
        3,
        moved_hexes=3,
        actuator_hits=(0, 0, 0, 0, 0, 0, 2),
        equipment=(gear("gyro_stabilizer"),),
        sensor_hit=True,
        stun="stunned",
    )
    target = enforcer(
        4,
        braced=True,
        ecm_active=True,
        moved_hexes=9,
        equipment=(gear("stealth_plating", "left_torso"), gear("countermeasure_suite")),
    )
    b = kick_battle(kicker, target, rules=("O5", "O7"))
    hc = kicks.kick_chance(b, b.unit("falcon"), b.unit("enforcer"))
    assert [m.name for m in hc.modifiers] == [
        "kick",
        "piloting",
        "evasion",
        "brace",
        "actuator",
        "gyro stabilizer",
        "stealth plating",
        "countermeasure suite",
        "stunned",
    ]
    assert hc.value("actuator") == -20 and hc.value("stunned") == -50


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"ap": 0}, "a kick needs 1 AP, 0 left"),
        ({"kicked": True}, "FALCON has already kicked this activation"),
        ({"energy_used": 99}, "a kick needs 2 energy"),
    ],
)
def test_kick_refusals_of_the_kicker(changes: dict[str, Any], reason: str) -> None:
    b = kick_battle(falcon(3, **changes), enforcer(4))
    got = check_kick(b, b.unit("falcon"), "enforcer")
    assert isinstance(got, str) and got.startswith(reason)


def test_kick_refusals() -> None:
    b = kick_battle(falcon(3), enforcer(5), make_unit("wing", side="player", pos=at(4)))
    assert check_kick(b, b.unit("falcon"), "enforcer") == "ENFORCER is not adjacent"
    assert check_kick(b, b.unit("falcon"), "wing") == "WING is not an enemy"
    assert check_kick(b, b.unit("falcon"), "nobody") == "no frame 'nobody'"
    off = kick_battle(falcon(3), enforcer(4), rules=())
    assert "optional module O7" in str(check_kick(off, off.unit("falcon"), "enforcer"))
    legless = kick_battle(set_loc(falcon(3), "legs", structure=0), enforcer(4))
    assert check_kick(legless, legless.unit("falcon"), "enforcer") == (
        "the legs are destroyed: this frame cannot kick"
    )


def test_kick_front_arc_under_o4() -> None:
    # O0.3 with O4: the target must be in the kicker's front arc (hexgrid.arc); facing E (0)
    # the enforcer one hex E is in front, facing W (3) it is behind.
    front = kick_battle(falcon(3, facing=0), enforcer(4))
    assert isinstance(check_kick(front, front.unit("falcon"), "enforcer"), KickPlan)
    behind = kick_battle(falcon(3, facing=3), enforcer(4))
    assert check_kick(behind, behind.unit("falcon"), "enforcer") == (
        "ENFORCER is not in FALCON's front arc"
    )


def test_kick_levels_under_o2() -> None:
    # O0.3 with O2: a height difference of 2 is out of reach; from 1 level higher the CORE §4.1
    # table (head 5 ...) instead of O7.4's.
    row = "00002" + "0" * 9
    b = battle_on(OPEN_ROWS, levels(row), falcon(3), enforcer(4), rules=("O2", "O7"))
    assert check_kick(b, b.unit("falcon"), "enforcer") == (
        "ENFORCER is 2 levels away: a kick reaches 1"
    )
    high = "00010" + "0" * 9
    b = battle_on(OPEN_ROWS, levels(high), falcon(3), enforcer(4), rules=("O2", "O7"))
    f, e = b.unit("falcon"), b.unit("enforcer")
    assert kicks.kick_locations(b, f, e) == tuple(
        (loc.id, loc.hit_weight) for loc in CAT.combat.location
    )
    assert dict(kicks.kick_locations(b, e, f))["head"] == 0  # from below: O7.4's table
    plan = check_kick(b, e, "falcon")
    assert isinstance(plan, KickPlan) and plan.chance.value("height") == -5


def test_legal_commands_and_refusal_agree_on_kicks() -> None:
    b = kick_battle(falcon(3), enforcer(4), make_unit("far", pos=at(8)))
    state = state_of(b)
    kicks_listed = [c for c in game.legal_commands(state) if isinstance(c, Kick)]
    assert kicks_listed == [Kick("enforcer")]
    assert game.refusal(state, Kick("far")) == "FAR is not adjacent"
    assert order_refusal(b, Kick) is None
    alone = kick_battle(falcon(3), make_unit("far", pos=at(8)))
    assert order_refusal(alone, Kick) == "no enemy frame is adjacent"
    off = kick_battle(falcon(3), enforcer(4), rules=())
    assert not [c for c in game.legal_commands(state_of(off)) if isinstance(c, Kick)]


def test_kick_then_the_stun_runs_its_course() -> None:
    # The O7 example through `step`: Falcon moves 3 and kicks (seeded rolls, whatever they
    # are, decide whether it hits; we force the stun on the enforcer to follow its clock).
    b = kick_battle(falcon(0, ap=2), enforcer(4, ap=2), rules=("O5", "O7"))
    state, events = run(state_of(b), Move(hex=at(3)), Kick("enforcer"))
    kicked = next(e for e in events if isinstance(e, Kicked))
    assert kicked.hexes_moved == 3 and kicked.result.chance == 63
    assert state.battle is not None
    assert state.battle.unit("falcon").moved_hexes == 3
    enforcer_now = state.battle.unit("enforcer")
    if kicked.result.hit:
        assert enforcer_now.stun == "stunned"
    else:
        state = attrs.evolve(
            state, battle=state.battle.with_unit(attrs.evolve(enforcer_now, stun="stunned"))
        )
    assert state.battle is not None and state.battle.active_unit is not None
    assert state.battle.active_unit.id == "enforcer"  # its activation started after the stun
    assert state.battle.unit("enforcer").stun_running
    assert stats.hex_movement(state.battle.unit("enforcer")) == 1  # floor(3 / 2)
    state, events = run(state, EndActivation())
    assert state.battle is not None
    assert any(isinstance(e, stun.StunEased) for e in events)
    assert state.battle.unit("enforcer").stun == "dazed"


# --- O7.9: the AI -------------------------------------------------------------------------------
def planner_for(b: Battle, uid: str = "falcon") -> Any:
    from mac_tui.players.ai.plans import Planner
    from mac_tui.players.ai.situation import Situation
    from mac_tui.players.ai.skill import skill

    return Planner(Situation(b, b.unit(uid), skill(6)))


def test_the_ai_kicks_when_it_has_nothing_better() -> None:
    from mac_tui.players.ai import plan_activation

    unarmed = falcon(
        3, ap=2, weapons=(attrs.evolve(weapon("medium_laser", "right_arm"), destroyed=True),)
    )
    for rules, kicks_ in ((O7, True), ((), False)):
        b = battle(unarmed, enforcer(4), rules=rules)
        chosen = plan_activation(state_of(b), tactics=6).chosen
        assert any(isinstance(c, Kick) for c in chosen.commands) == kicks_, chosen.text()


def test_the_ai_values_the_stun_and_never_overloads_to_kick() -> None:
    from mac_tui.players.ai.plan_types import Spot

    guns = (weapon("medium_laser", "right_arm"),)
    b = battle(falcon(3), enforcer(4, weapons=guns), rules=O7)
    pl = planner_for(b)
    here = Spot(at(3), None, 0, 0)
    [(cmd, fresh, energy, target)] = pl.kicks_from(here, 2, 0.0)
    assert cmd == Kick("enforcer") and energy == 2 and target == "enforcer"
    dazed = battle(falcon(3), enforcer(4, weapons=guns, stun="dazed"), rules=O7)
    [(_, already, _, _)] = planner_for(dazed).kicks_from(here, 2, 0.0)
    assert 0 < already < fresh  # a Dazed frame cannot be stunned: only the damage counts
    output = stats.effective_output(b.unit("falcon"))
    hot = battle(falcon(3, energy_used=output - 1), enforcer(4), rules=O7)
    assert planner_for(hot).kicks_from(here, 2, 0.0) == []  # 2 energy would overload


def test_the_ai_closes_in_to_kick_only_with_a_close_range_stance() -> None:
    aggressive = battle(falcon(0, stance="aggressive"), enforcer(4), rules=O7)
    defensive = battle(falcon(0, stance="defensive"), enforcer(4), rules=O7)
    assert planner_for(aggressive).closes_to_kick()
    assert not planner_for(defensive).closes_to_kick()


# --- O7.6, O7.7 in the round ------------------------------------------------------------------
def test_a_round_spent_shut_down_counts_as_an_activation() -> None:
    from mac_tui.combat import flow
    from mac_tui.dice import Dice, RngState

    b = battle(falcon(0, shutdown=True, ap=0, stun="stunned"), enforcer(8, ap=0), rules=O7)
    b, events = flow.close_round(b, Dice(RngState(seed=1)), [])
    assert stun.StunEased(unit="falcon") in events
    assert b.unit("falcon").stun == "dazed"


def test_a_frame_shut_down_for_the_round_has_moved_no_hexes() -> None:
    from mac_tui.combat import flow
    from mac_tui.dice import Dice, RngState

    b = battle(falcon(0, shutdown=True, moved_hexes=4), enforcer(8, moved_hexes=3), rules=O7)
    b, _ = flow.start_round(b, Dice(RngState(seed=1)))
    assert b.unit("falcon").moved_hexes == 0  # ruling O5a
    assert b.active_unit is not None and b.active_unit.id == "enforcer"
    assert b.unit("enforcer").moved_hexes == 0  # its activation has begun: 0 again (O5.1)


def test_the_threshold_is_checked_after_every_action() -> None:
    from mac_tui.combat import flow
    from mac_tui.dice import Dice, RngState

    b = battle(falcon(0, ap=1), hurt(enforcer(8), 12), rules=O7)
    b, events = flow.advance(b, Dice(RngState(seed=1)))
    assert events[0] == stun.Stunned(unit="enforcer", cause="threshold", lost=12, threshold=12)
    assert b.unit("enforcer").stun == "stunned"


@settings(max_examples=100, deadline=None)
@given(
    piloting=st.integers(0, 10),
    legs=st.integers(0, 4),
    braced=st.booleans(),
    kicker_stun=st.sampled_from(["", "stunned", "dazed"]),
    moved=st.integers(0, 12),
)
def test_a_kicks_chance_is_always_clamped_once_to_5_95(
    piloting: int, legs: int, braced: bool, kicker_stun: str, moved: int
) -> None:
    kicker = falcon(
        3,
        piloting=piloting,
        actuator_hits=(0, 0, 0, 0, 0, 0, legs),
        stun=kicker_stun,
        moved_hexes=moved,
    )
    b = battle(kicker, enforcer(4, braced=braced, moved_hexes=moved), rules=("O5", "O7"))
    hc = kicks.kick_chance(b, b.unit("falcon"), b.unit("enforcer"))
    assert 5 <= hc.chance <= 95
    assert hc.chance == max(5, min(95, sum(m.value for m in hc.modifiers)))
    assert not {"moving", "fast target", "range", "LOS", "sensor"} & {m.name for m in hc.modifiers}


def test_o9_impossible_turn_forbids_a_kick_too() -> None:
    # ruling O9f: a frame under Impossible Turn cannot fire, go on overwatch or (O7) kick
    b = battle(falcon(3, dodging=True), enforcer(4), rules=("O7", "O9"))
    assert "Impossible Turn" in str(check_kick(b, b.unit("falcon"), "enforcer"))


def test_a_kick_on_a_neutral_starts_a_grudge() -> None:
    """O7 with O10 (O10.5, ruling O10a): a neutral frame may be kicked, and the armour and
    structure the kick takes off it are the kicking side's grudge, as a shot's are."""
    neutral = attrs.evolve(enforcer(4), side="neutral")
    b = kick_battle(falcon(3, moved_hexes=3), neutral, rules=("O7", "O10"))
    assert isinstance(check_kick(b, b.unit("falcon"), "enforcer"), KickPlan)
    assert [e.id for e, _ in kicks.kick_targets(b, b.unit("falcon"))] == ["enforcer"]
    out = do_kick(b, b.unit("falcon"), "enforcer", ScriptedDice(d100(40), (100, 60)))
    assert not isinstance(out, str)
    after, events = out
    grudges = [e for e in events if type(e).__name__ == "Grudge"]
    assert len(grudges) == 1 and grudges[0].side == "player" and grudges[0].added == 9
    assert after.grudge("player") == 9 and after.grudge_target() == "player"


def test_a_kick_on_a_frame_making_an_impossible_turn_is_dodged() -> None:
    """O7 with O9 (O9.9d, ruling O9f): the kick's d100 is rolled, the hit is dodged, nothing
    more is drawn: no location, damage or stun."""
    b = kick_battle(falcon(3, moved_hexes=3), enforcer(4, dodging=True), rules=("O7", "O9"))
    dice = ScriptedDice(d100(40))
    out = do_kick(b, b.unit("falcon"), "enforcer", dice)
    assert not isinstance(out, str) and dice.done
    after, (kicked, dodged) = out
    assert kicked.result.hit and kicked.result.dodged and kicked.result.damage is None
    assert type(dodged).__name__ == "Dodged" and dodged.unit == "enforcer"
    assert after.unit("enforcer").armor == b.unit("enforcer").armor
    assert after.unit("enforcer").stun == ""


def test_a_kick_costs_no_mission_costs() -> None:
    """O7 with O11 (O11.5 "Kicks cost nothing"): a kick that hits adds no shot to the tally,
    while the same hit from a Medium Laser adds a medium shot."""
    from mac_tui.combat import objectives
    from mac_tui.combat.events import Attacked
    from mac_tui.combat.state import Tally

    b = kick_battle(falcon(3, moved_hexes=3), enforcer(4), rules=("O7", "O11"))
    b = attrs.evolve(b, tally=Tally())
    out = do_kick(b, b.unit("falcon"), "enforcer", ScriptedDice(d100(40), (100, 60)))
    assert not isinstance(out, str)
    after, events = out
    assert isinstance(events[0], Kicked) and events[0].result.hit
    tracked, _ = objectives.track_battle(after, events)
    assert tracked.tally == Tally()
    laser = attrs.evolve(events[0].result, weapon="medium_laser")
    tracked, _ = objectives.track_battle(after, [Attacked(result=laser)])
    assert tracked.tally is not None and tracked.tally.shots == (0, 1, 0)


def test_the_ai_never_kicks_a_neutral_it_holds_no_grudge_with() -> None:
    """O7 with O10: a neutral next to the AI's frame may be kicked by the rules (ruling O10a),
    but the AI fights only the frames hostile to it (O10.5): it plans around the neutral (the
    planner once failed on a kick target outside its enemies)."""
    from mac_tui.players.ai import plan_activation

    unarmed = falcon(
        3, ap=2, weapons=(attrs.evolve(weapon("medium_laser", "right_arm"), destroyed=True),)
    )
    neutral = attrs.evolve(enforcer(4), side="neutral")
    foe = make_unit("foe", chassis="EN-50", pos=at(9))
    b = battle(unarmed, neutral, foe, rules=("O7", "O10"))
    assert [e.id for e, _ in kicks.kick_targets(b, b.unit("falcon"))] == ["enforcer"]
    chosen = plan_activation(state_of(b), tactics=6).chosen
    assert not any(isinstance(c, Kick) for c in chosen.commands), chosen.text()
