"""Optional module O4, Facing and arcs (optional-rules.md O4.1-O4.11), rule by rule.

The map is hand-drawn: nine rows of fourteen Open hexes. Positions are axial; the comments
give each vector v = X - P in cube coordinates (q, r, s) as the rules do. Expected numbers are
worked out by hand in the comments.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui import game, save
from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import facing, outcomes
from mac_tui.combat.attack import hit_chance, resolve_attack
from mac_tui.combat.commands import (
    AutoDeploy,
    Brace,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    Pivot,
    Sprint,
    StartBattle,
    Turn,
    UseEquipment,
)
from mac_tui.combat.events import Deployed, Moved
from mac_tui.combat.firing import OUT_OF_ARC, check_fire, overwatch_target, plan_fire
from mac_tui.combat.forecast import shot_steps
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.movement import reach
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle, Unit
from mac_tui.combat.threat import threat
from mac_tui.core import Accepted, Command, Refused, format_command
from mac_tui.hexgrid import Hex
from mac_tui.model import GameState
from mac_tui.players.ai import REPLANNED, decide
from mac_tui.players.ai.orient import orient
from mac_tui.players.sim import play
from mac_tui.snapshot import problems

from .test_damage import ScriptedDice, comp, d100, gear, make_unit, weapon
from .test_elevation import battle_on

CAT = catalog()
O4 = ("O4",)
ROWS = ("." * 14,) * 9
E, NE, NW, W, SW, SE = range(6)
ENFORCER_AT = Hex(5, 4)


def battle(*units: Unit, rules: tuple[str, ...] = O4, **kw: Any) -> Battle:
    """A battle in combat on open flat ground, played under `rules`."""
    return battle_on(ROWS, (0,) * (9 * 14), *units, rules=rules, **kw)


def enforcer(facing_: int | None = E, **changes: Any) -> Unit:
    """The example's Enforcer (evasion 13): AC-5 on the left arm (group 1), Medium Laser on the
    right torso (group 1), Light Laser in the head (group 2)."""
    return make_unit(
        "enforcer",
        side="enemy",
        chassis="EN-50",
        weapons=(
            weapon("autocannon_5", "left_arm"),
            weapon("medium_laser", "right_torso"),
            weapon("light_laser", "head", group=2),
        ),
        **{"pos": ENFORCER_AT, "facing": facing_, **changes},
    )


def falcon(pos: Hex, facing_: int | None = E, **changes: Any) -> Unit:
    """Falcon (gunnery 5, +10) in her Raider with a Medium Laser on the right arm."""
    return make_unit(
        "falcon",
        side="player",
        chassis="RD-30",
        gunnery=5,
        weapons=(weapon("medium_laser", "right_arm"),),
        **{"pos": pos, "facing": facing_, **changes},
    )


def off(v: tuple[int, int, int], p: Hex = ENFORCER_AT) -> Hex:
    """The hex at cube vector v from p."""
    return Hex(p.q + v[0], p.r + v[1])


# --- data (O4.8, O4.9) ------------------------------------------------------------------------
def test_every_number_of_o4_is_data_with_its_rule_id() -> None:
    f = CAT.facing
    assert f.module == "O4"
    assert (f.deployment.rule, f.deployment.player, f.deployment.enemy) == ("O4.1", "E", "W")
    assert (f.move.rule, f.move.spread) == ("O4.2", 1)
    assert (f.reverse.rule, f.reverse.steps) == ("O4.3", (2, 3, 4))
    assert (f.pivot.rule, f.pivot.hexsides, f.pivot.ap, f.pivot.energy) == ("O4.5", 1, 0, 0)
    assert (f.turn.rule, f.turn.ap, f.turn.energy) == ("O4.6", 1, 0)
    assert (f.rear.rule, f.rear.modifier) == ("O4.9", 10)
    assert {m.location: set(m.arcs) for m in f.mount} == {
        "head": {"front"},
        "center_torso": {"front"},
        "left_torso": {"front"},
        "right_torso": {"front"},
        "left_arm": {"front", "left"},
        "right_arm": {"front", "right"},
    }
    rows = {t.arc: tuple(t.weight(loc) for loc in LOCATION_ORDER) for t in f.hit_table}
    assert rows == {  # O4.9's table, HD CT LT RT LA RA LG
        "front": (5, 20, 15, 15, 10, 10, 25),
        "left": (4, 12, 26, 6, 22, 4, 26),
        "right": (4, 12, 6, 26, 4, 22, 26),
        "rear": (2, 30, 18, 18, 6, 6, 20),
    }


@pytest.mark.parametrize("arc", ["front", "left", "right", "rear"])
def test_each_arc_hit_table_sums_to_100(arc: str) -> None:
    assert sum(w for _, w in facing.hit_weights(arc)) == 100


def test_the_front_table_is_the_core_table() -> None:
    core = tuple((loc.id, loc.hit_weight) for loc in CAT.combat.location)
    assert facing.hit_weights("front") == core


# --- O4.7 arcs of an attack, O4.9 rear ----------------------------------------------------------
def test_the_o4_example_rear_arc_92_and_the_rear_table() -> None:
    # v = (-3, 0, 3) from the Enforcer facing E: c = 3 > b = 0 > a = -3, the rear arc.
    raider = falcon(off((-3, 0, 3)))
    b = battle(raider, enforcer(E))
    assert facing.attack_arc(b, raider, b.unit("enforcer")) == "rear"
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0])
    assert hc is not None
    # base 80, gunnery +10, evasion -13, range +5 (3 hexes, medium), rear +10 = 92
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("base", 80),
        ("gunnery", 10),
        ("evasion", -13),
        ("range", 5),
        ("rear", 10),
    ]
    assert hc.chance == 92
    # A hit rolls on the Rear row: a location draw of 2 (0-based) is past HD 2: the CT (30).
    dice = ScriptedDice(d100(40), d100(99), (100, 2))
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice)
    assert result.arc == "rear" and result.hit and result.location == "center_torso"


def test_the_same_draw_on_the_front_table_is_the_head() -> None:
    # v = (3, 0, -3): straight ahead of the Enforcer; the draw of 2 is under HD's 5 (the head's
    # armour is thin: the hit reaches structure and rolls a component).
    raider = falcon(off((3, 0, -3)), facing_=W)
    b = battle(raider, enforcer(E))
    dice = ScriptedDice(d100(40), d100(99), (100, 2), comp("no_effect"))
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice)
    assert result.arc == "front" and result.location == "head"
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0])
    assert hc is not None and hc.value("rear") is None


def test_a_called_shot_keeps_its_location_and_rear() -> None:
    raider = falcon(off((-3, 0, 3)))
    b = battle(raider, enforcer(E))
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0], called_shot=True)
    assert hc is not None and hc.value("rear") == 10 and hc.value("called shot") is not None
    dice = ScriptedDice(d100(10), d100(99))  # no location draw: the called one is kept
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice, called_location="legs")
    assert result.location == "legs" and result.arc == "rear" and dice.done


def test_with_o4_off_nothing_changes() -> None:
    raider = falcon(off((-3, 0, 3)), facing_=None)
    b = battle(raider, enforcer(None), rules=())
    assert facing.attack_arc(b, raider, b.unit("enforcer")) is None
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0])
    assert hc is not None and hc.chance == 82 and hc.value("rear") is None
    dice = ScriptedDice(d100(40), d100(99), (100, 2), comp("no_effect"))
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice)
    assert result.arc is None and result.location == "head"
    enf = b.unit("enforcer")
    assert all(facing.bears(b, enf, ws, raider.pos) for ws in enf.weapons)  # type: ignore[arg-type]


# --- O4.8 mount arcs ------------------------------------------------------------------------------
def test_the_o4_example_reply_only_the_left_arm_bears() -> None:
    # Falcon at v = (0, -3, 3): not front (c > 0), not rear, b < 0: the Enforcer's left side.
    raider = falcon(off((0, -3, 3)))
    b = battle(raider, enforcer(E))
    enf = b.unit("enforcer")
    assert facing.attack_arc(b, enf, raider) is not None
    assert [facing.bears(b, enf, ws, raider.pos) for ws in enf.weapons] == [  # type: ignore[arg-type]
        True,  # AC-5, left arm: front + left
        False,  # Medium Laser, right torso: front only
        False,  # Light Laser, head
    ]
    plan = plan_fire(b, enf, 1, raider, False)
    assert plan.shots == (0,) and plan.skipped == ((1, OUT_OF_ARC),)
    refused = check_fire(b, enf, 2, "falcon", None)
    assert refused == f"no weapon of group 2 can fire at FALCON: {OUT_OF_ARC}"
    # A free pivot to NE normalises v to (3, -3, 0): front, and all its weapons bear.
    turned = b.with_unit(facing_of(enf, NE))
    enf = turned.unit("enforcer")
    assert all(facing.bears(turned, enf, ws, raider.pos) for ws in enf.weapons)  # type: ignore[arg-type]


def facing_of(u: Unit, f: int) -> Unit:
    return attrs.evolve(u, facing=f)


def test_the_right_arm_bears_right_not_left() -> None:
    # Facing E, v = (0, 3, -3) (SE of the frame): a = 0, c = -3: front? a >= 0 and c <= 0: yes.
    # v = (-3, 3, 0): a = -3, b = 3 > 0 and not rear (c = 0 is not > b): the right side.
    right = off((-3, 3, 0))
    left = off((0, -3, 3))
    u = make_unit(
        "u",
        pos=ENFORCER_AT,
        facing=E,
        weapons=(weapon("light_laser", "right_arm"), weapon("light_laser", "left_arm")),
    )
    b = battle(u)
    assert [facing.bears(b, u, ws, right) for ws in u.weapons] == [True, False]
    assert [facing.bears(b, u, ws, left) for ws in u.weapons] == [False, True]
    behind = off((-3, 0, 3))
    assert not any(facing.bears(b, u, ws, behind) for ws in u.weapons)


def test_overwatch_takes_the_nearest_enemy_in_arc() -> None:
    # The Enforcer's group 2 (head: front only): Falcon 2 hexes behind, another Raider 4 ahead.
    behind = falcon(off((-2, 0, 2)))
    ahead = make_unit("ahead", side="player", pos=off((4, 0, -4)), facing=W)
    b = battle(behind, ahead, enforcer(E))
    target = overwatch_target(b, b.unit("enforcer"), 2)
    assert target is not None and target.id == "ahead"
    core = battle(behind, ahead, enforcer(E), rules=())
    target = overwatch_target(core, core.unit("enforcer"), 2)
    assert target is not None and target.id == "falcon"


# --- commands: deployment, Move, Sprint, reverse, jump, pivot, turn (O4.1-O4.6) ------------------
def acting(b: Battle) -> GameState:
    """A game whose battle is `b`, its first frame acting (in order of `b.units`)."""
    order = tuple(u.id for u in b.units)
    return attrs.evolve(make_state(0, 1), battle=attrs.evolve(b, order=order, turn=0))


def step(state: GameState, command: Command) -> tuple[GameState, tuple[Any, ...]]:
    out = game.step(state, command)
    assert isinstance(out, Accepted), out
    return out.state, out.events


def refused(state: GameState, command: Command) -> str:
    out = game.step(state, command)
    assert isinstance(out, Refused)
    assert game.refusal(state, command) == out.reason
    return out.reason


def test_deployment_facings_default_e_and_w_and_the_player_may_name_one() -> None:
    state = make_state(3, 1, ruleset=O4)
    assert state.battle is not None
    assert {(u.side, u.facing) for u in state.battle.units} == {("player", E), ("enemy", W)}
    zone = state.battle.map.deployment_hexes("player")
    state, events = step(state, Deploy("P1", zone[0], "NE"))
    assert events == (Deployed(unit="P1", hex=zone[0], facing=NE),)
    # turned where it stands; the same facing again is refused
    state, events = step(state, Deploy("P1", zone[0], "SE"))
    assert events == (Deployed(unit="P1", hex=zone[0], facing=SE),)
    assert "already there, facing SE" in refused(state, Deploy("P1", zone[0], "SE"))
    assert "no facing 'up'" in refused(state, Deploy("P1", zone[1], "up"))
    state, events = step(state, AutoDeploy())
    assert events == (Deployed(unit="P2", hex=events[0].hex, facing=E),)
    # core rules: no facing at all, and naming one is refused
    core = make_state(3, 1)
    assert core.battle is not None and {u.facing for u in core.battle.units} == {None}
    assert refused(core, Deploy("P1", zone[0], "NE")) == facing.OFF
    _, events = step(core, Deploy("P1", zone[0]))
    assert events == (Deployed(unit="P1", hex=zone[0]),)


def test_a_move_ends_facing_its_last_step_or_one_hexside_either_side() -> None:
    start = Hex(2, 4)
    state = acting(battle(falcon(start, E), enforcer(W)))
    # one step NE (1, -1): the default facing NE; NW and E may be named, W may not
    state, events = step(state, Move(Hex(3, 3)))
    moved = events[0]
    assert isinstance(moved, Moved) and moved.facing == NE and not moved.reverse
    assert state.battle is not None and state.battle.unit("falcon").facing == NE
    again = acting(battle(falcon(start, E), enforcer(W)))
    for name, want in (("NW", NW), ("E", E)):
        s, events = step(again, Move(Hex(3, 3), name))
        assert s.battle is not None and s.battle.unit("falcon").facing == want
    why = refused(again, Move(Hex(3, 3), "W"))
    assert why == "after this move FALCON may face NE, NW, E (O4.2), not W"
    # a Sprint too: two steps E end facing E; SE may be named
    s, events = step(again, Sprint(Hex(4, 4), "SE"))
    assert s.battle is not None and s.battle.unit("falcon").facing == SE


def test_a_reverse_move_steps_backwards_and_keeps_its_facing() -> None:
    # Facing E (i = 0) a reverse Move steps NW (2), W (3) or SW (4).
    state = acting(battle(falcon(Hex(5, 4), E), enforcer(W, pos=Hex(10, 4))))
    s, events = step(state, Move(Hex(3, 4), reverse=True))  # two steps W
    moved = events[0]
    assert isinstance(moved, Moved) and moved.reverse and moved.facing == E
    assert moved.path == (Hex(5, 4), Hex(4, 4), Hex(3, 4))
    assert moved.pullback  # R3: it ends farther from the nearest enemy
    assert s.battle is not None and s.battle.unit("falcon").facing == E
    assert "out of reverse move range" in refused(state, Move(Hex(6, 4), reverse=True))
    assert "out of reverse move range" in refused(state, Move(Hex(5, 5), reverse=True))  # SE
    assert "keeps the facing (E" in refused(state, Move(Hex(3, 4), "W", reverse=True))
    core = acting(battle(falcon(Hex(5, 4), None), enforcer(None), rules=()))
    assert refused(core, Move(Hex(3, 4), reverse=True)) == facing.OFF
    assert refused(core, Move(Hex(3, 4), "W")) == facing.OFF


def test_a_jump_lands_with_any_facing_and_keeps_it_by_default() -> None:
    pack = gear("thrust_pack")
    state = acting(battle(falcon(Hex(2, 4), E, equipment=(pack,)), enforcer(W)))
    s, events = step(state, UseEquipment("thrust_pack", None, Hex(4, 4), "SW"))
    assert s.battle is not None and s.battle.unit("falcon").facing == SW
    assert any(isinstance(e, Moved) and e.mode == "jump" and e.facing == SW for e in events)
    s, _ = step(state, UseEquipment("thrust_pack", None, Hex(4, 4)))
    assert s.battle is not None and s.battle.unit("falcon").facing == E  # ruling O4a


def test_the_free_pivot_once_per_activation_one_hexside_no_ap() -> None:
    state = acting(battle(falcon(Hex(2, 4), E), enforcer(W)))
    assert "from E to NE or SE" in refused(state, Pivot("W"))
    s, events = step(state, Pivot("SE"))
    assert events[0] == facing.Pivoted(unit="falcon", facing=SE)
    assert s.battle is not None
    f = s.battle.unit("falcon")
    assert (f.facing, f.ap, f.energy_used, f.pivoted) == (SE, 2, 0, True)
    assert "pivoted already" in refused(s, Pivot("E"))
    # the next activation of the frame may pivot again
    s, _ = step(s, EndActivation())
    s, _ = step(s, EndActivation())
    assert s.battle is not None and s.battle.round == 1
    active = s.battle.active_unit
    assert active is not None
    if active.id != "falcon":
        s, _ = step(s, EndActivation())
        assert s.battle is not None
    assert s.battle.active_unit is not None and s.battle.active_unit.id == "falcon"
    assert not s.battle.unit("falcon").pivoted
    step(s, Pivot("E"))


def test_turn_takes_any_facing_for_1_ap() -> None:
    state = acting(battle(falcon(Hex(2, 4), E), enforcer(W)))
    s, events = step(state, Turn("W"))
    assert events[0] == facing.Turned(unit="falcon", facing=W, ap=1)
    assert s.battle is not None
    f = s.battle.unit("falcon")
    assert (f.facing, f.ap, f.energy_used) == (W, 1, 0)
    assert refused(s, Turn("W")) == "FALCON already faces W"
    legless = attrs.evolve(state.battle.unit("falcon"), structure=(*f.structure[:6], 0))  # type: ignore[union-attr]
    s2 = acting(battle(legless, enforcer(W)))
    assert "cannot turn in place" in refused(s2, Turn("W"))
    step(s2, Pivot("NE"))  # a torso twist still pivots
    core = acting(battle(falcon(Hex(2, 4), None), enforcer(None), rules=()))
    assert refused(core, Turn("W")) == facing.OFF
    assert refused(core, Pivot("NE")) == facing.OFF


def test_the_text_forms_round_trip() -> None:
    for cmd in (
        Move(Hex(3, 3), "NE"),
        Move(Hex(3, 3), reverse=True),
        Sprint(Hex(1, 2), "SW"),
        Pivot("NW"),
        Turn("W"),
        Deploy("P1", Hex(0, 3), "SE"),
        UseEquipment("thrust_pack", None, Hex(4, 4), "SW"),
    ):
        text = format_command(cmd)
        assert game.parse_command(text) == cmd, text
    assert format_command(Move(Hex(3, 3))) == "move 3,3"
    assert format_command(Move(Hex(3, 3), reverse=True)) == "move 3,3 --reverse yes"


def test_legal_commands_are_all_accepted_with_o4_on() -> None:
    state = acting(battle(falcon(Hex(5, 4), E, equipment=(gear("thrust_pack"),)), enforcer(W)))
    cmds = legal_commands(state, called_shots=False)
    kinds = {type(c).__name__ for c in cmds}
    assert {"Move", "Sprint", "Pivot", "Turn", "UseEquipment"} <= kinds
    assert Pivot("NE") in cmds and Pivot("SE") in cmds and Turn("W") in cmds
    assert Move(Hex(4, 4), reverse=True) in cmds and Move(Hex(6, 4), "NE") in cmds
    for c in cmds:
        assert game.refusal(state, c) is None, c
    assert len(set(cmds)) == len(cmds)


# --- forecasts (O4.9 in the exact outcomes) ---------------------------------------------------
@pytest.mark.parametrize(
    ("table", "head"), [("", 0.05), ("front", 0.05), ("left", 0.04), ("rear", 0.02)]
)
def test_the_forecast_rolls_the_hit_location_on_the_arc_s_table(table: str, head: float) -> None:
    # A sure 30-point hit on a Raider (head 5 armour + 2 structure): the head is destroyed
    # exactly when the §4.1 roll lands there (nothing transfers into the head): its weight.
    raider = make_unit("raider", pos=Hex(1, 1))
    shot = outcomes.Shot(30, False, -1, (), (100,), table)
    summary = outcomes.walk(raider, (shot,))
    assert summary.p_destroyed[LOCATION_ORDER.index("head")] == pytest.approx(head)


def test_shot_steps_carry_the_arc_of_the_attack() -> None:
    raider = falcon(off((-3, 0, 3)))
    b = battle(raider, enforcer(E))
    shots, _ = shot_steps(b, raider, 1, b.unit("enforcer"))
    assert [s.table for s in shots] == ["rear"]
    core = battle(falcon(off((-3, 0, 3)), None), enforcer(None), rules=())
    shots, _ = shot_steps(core, core.unit("falcon"), 1, core.unit("enforcer"))
    assert [s.table for s in shots] == [""]


# --- the AI (O4.11) ---------------------------------------------------------------------------
def test_the_ai_pivots_to_bring_a_group_to_bear_before_it_fires() -> None:
    # The O4 example's reply: Falcon on the Enforcer's left side; group 1 has the AC-5 (left
    # arm, bears) and the Medium Laser (right torso, does not): a pivot to NE brings both.
    b = battle(enforcer(E), falcon(off((0, -3, 3))))
    state = acting(b)
    command, rest, note = orient(state, FireGroup(1, "falcon"), ())
    assert command == Pivot("NE") and rest == (FireGroup(1, "falcon"),) and "pivots NE" in note
    # facing it already: nothing to turn
    state = acting(battle(enforcer(NE), falcon(off((0, -3, 3)))))
    assert orient(state, FireGroup(1, "falcon"), ()) == (FireGroup(1, "falcon"), (), "")


def test_the_ai_ends_a_move_facing_its_target_and_backs_away_facing_it() -> None:
    # The Enforcer at (5, 4) facing W toward Falcon 4 hexes W; a Move one hex NE (away) pulls
    # back (R3): made in reverse it keeps facing W.
    b = battle(enforcer(W), falcon(off((-4, 0, 4)), W))
    state = acting(b)
    command, _, note = orient(state, Move(Hex(6, 3)), ())
    assert command == Move(Hex(6, 3), reverse=True) and "backs away" in note
    # a Move toward her ending on a step W: already the default facing
    assert orient(state, Move(Hex(4, 4)), ())[0] == Move(Hex(4, 4))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ai_battles_with_o4_end_deterministic_and_never_replanned(seed: int) -> None:
    logs = []
    for _ in range(2):
        log: list[str] = []
        end, _ = play(
            make_state(seed, seed, ruleset=O4), {"player": decide, "enemy": decide}, log=log
        )
        assert end.battle is not None and end.battle.phase == "over"
        logs.append(log)
    assert logs[0] == logs[1]
    assert '"facing":' in logs[0][0]
    assert not any(REPLANNED in line for line in logs[0])


def test_an_o4_game_saves_loads_and_checks_its_facings() -> None:
    state = make_state(2, 1, ruleset=O4)
    state, _ = step(state, AutoDeploy())
    state, _ = step(state, StartBattle())
    data = save.state_to_data(state)
    again = save.state_from_data(json.loads(json.dumps(data)))
    assert again == state and problems(again) == []
    assert again.battle is not None and {u.facing for u in again.battle.units} <= {E, W}
    b = again.battle
    wrong = attrs.evolve(b, units=(attrs.evolve(b.units[0], facing=7), *b.units[1:]))
    assert any("facing" in p for p in problems(attrs.evolve(again, battle=wrong)))
    core = attrs.evolve(b, ruleset=())
    assert any("needs optional module O4" in p for p in problems(attrs.evolve(again, battle=core)))
    # a core game stores no facing at all
    assert '"facing"' not in json.dumps(save.state_to_data(make_state(2, 1)))


def test_the_threat_view_turns_an_enemy_s_guns_with_its_free_pivot() -> None:
    # Falcon on the Enforcer's left side (the O4 example's reply): as it stands only the AC-5
    # bears, but its free pivot to NE brings the Medium Laser too; once the pivot is spent the
    # threat is the AC-5's alone.
    raider = falcon(off((0, -3, 3)))
    b = attrs.evolve(battle(raider, enforcer(E)), order=("falcon", "enforcer"), turn=0)
    free = threat(b, "falcon")
    spent = threat(b.with_unit(attrs.evolve(b.unit("enforcer"), pivoted=True)), "falcon")
    assert free.expected_damage > spent.expected_damage > 0
    shooter = facing.turned_toward(b, b.unit("enforcer"), ENFORCER_AT, (E, NE, SE), raider.pos)  # type: ignore[arg-type]
    assert shooter.facing == NE


@settings(max_examples=60, deadline=None)
@given(
    q=st.integers(2, 9),
    r=st.integers(1, 7),
    f=st.integers(0, 5),
    pick=st.integers(0, 10**6),
)
def test_every_legal_move_ends_facing_as_o4_2_and_o4_3_say(
    q: int, r: int, f: int, pick: int
) -> None:
    start = Hex(q - r // 2, r)
    foe = Hex(8, 8) if start != Hex(8, 8) else Hex(9, 8)
    b = battle(falcon(start, f), enforcer(W, pos=foe))
    state = acting(b)
    moves = [c for c in legal_commands(state, called_shots=False) if isinstance(c, Move | Sprint)]
    assert moves
    cmd = moves[pick % len(moves)]
    out = game.step(state, cmd)
    assert isinstance(out, Accepted)
    moved = next(e for e in out.events if isinstance(e, Moved))
    steps = [
        facing.step_direction(a, b_) for a, b_ in zip(moved.path, moved.path[1:], strict=False)
    ]
    if isinstance(cmd, Move) and cmd.reverse:
        assert moved.facing == f and all((d - f) % 6 in (2, 3, 4) for d in steps)
    else:
        assert moved.facing is not None and (moved.facing - steps[-1]) % 6 in (0, 1, 5)
    assert out.state.battle is not None
    assert out.state.battle.unit("falcon").facing == moved.facing


def test_with_o2_a_reverse_move_pays_the_climb_and_a_jump_still_names_its_facing() -> None:
    # O2 + O4: the hex behind Falcon (W of (5, 4)) is one level up: backing into it costs the
    # Open hex's 1 + the climb's 1 = 2 (O2.3); the jump's facing is named as without O2.
    heights = [0] * (9 * 14)
    behind = Hex(4, 4)
    heights[4 * 14 + (behind.q + 2)] = 1  # row 4, offset column q + 2
    b = battle_on(
        ROWS,
        heights,
        falcon(Hex(5, 4), E, equipment=(gear("thrust_pack"),)),
        enforcer(W),
        rules=("O2", "O4"),
    )
    reached = reach(b, b.unit("falcon"), False, True)
    assert reached[behind][0] == 2
    state = acting(b)
    s, _ = step(state, Move(behind, reverse=True))
    assert s.battle is not None and s.battle.unit("falcon").facing == E
    s, _ = step(state, UseEquipment("thrust_pack", None, Hex(5, 2), "NW"))
    assert s.battle is not None and s.battle.unit("falcon").facing == NW


def test_third_parties_face_as_the_side_they_stand_with() -> None:
    """Ruling O4f: with O10 on too, allies face E as the player's frames, neutrals W as the
    enemy's; with O4 off they have no facing."""
    seen: set[str] = set()
    for seed in range(1, 60):
        battle = make_state(seed=seed, difficulty=4, ruleset=("O4", "O10")).battle
        assert battle is not None
        for u in battle.units:
            assert u.facing == {"player": 0, "ally": 0, "enemy": 3, "neutral": 3}[u.side]
            seen.add(u.side)
        if {"ally", "neutral"} <= seen:
            break
    assert {"ally", "neutral"} <= seen
    plain = make_state(seed=1, difficulty=4, ruleset=("O10",)).battle
    assert plain is not None and all(u.facing is None for u in plain.units)


def test_the_ai_pivots_before_a_last_brace_to_face_the_enemy() -> None:
    # The Enforcer faces W; Falcon at v = (3, -3, 0) from it, normalised to W (three turns of
    # rot) (-3, 3, 0): its right side. A pivot to NW normalises v to (0, 3, -3): front. Its
    # last order, a brace, comes after that pivot.
    b = battle(enforcer(W), falcon(off((3, -3, 0)), W))
    state = acting(b)
    command, rest, note = orient(state, Brace(), ())
    assert command == Pivot("NW") and rest == (Brace(),) and "before it ends" in note
    # not before a brace that is not the last order
    assert orient(state, Brace(), (EndActivation(),))[0] == Brace()
