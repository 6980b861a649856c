"""Tests for mac_tui.combat.preview: the fire and move previews of the battle screen.

The usual shot (as in test_attack.py): a Vanguard (VG-45, reactor 15, overload limit 22)
piloted at gunnery 5 fires group 1 (Medium Laser in the right torso, Light Laser in the head,
Small Missile Rack in the left arm) at a Raider (RD-30, evasion 22) five hexes along row 1 of
a hand-drawn map. Expected numbers are worked out by hand from the rulebook in the comments.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import stats
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.events import StressChanged
from mac_tui.combat.firing import check_fire, plan_fire
from mac_tui.combat.flow import end_of_round
from mac_tui.combat.mapgen import BattleMap
from mac_tui.combat.movement import check_move, reach
from mac_tui.combat.preview import (
    FirePreview,
    LosStep,
    expected_damage,
    fire_preview,
    move_preview,
    projected_stress,
    reach_hexes,
    shots_left,
    shutdown_thresholds,
    stress_outlook,
    targets,
)
from mac_tui.combat.state import Battle, SideInfo, Unit
from mac_tui.dice import Dice, RngState
from mac_tui.hexgrid import Hex, from_offset
from mac_tui.players import ai_v1

from .test_damage import gear, make_unit, weapon

CAT = catalog()
ML, LL, SMR, AC5 = range(4)  # the shooter's weapon indices
#: Row 1: the shooter on column 0, then Forest, Rocks, Rough, Open, and the target's Forest.
COVER_ROWS = ("." * 14, ".T^%.T........", "." * 14)
OPEN_ROWS = ("." * 14,) * 3


def at(col: int, row: int = 1) -> Hex:
    return from_offset(col, row)


def shooter(**changes: Any) -> Unit:
    weapons = (
        weapon("medium_laser", "right_torso"),
        weapon("light_laser", "head"),
        weapon("small_missile_rack", "left_arm"),
        weapon("autocannon_5", "left_arm", group=2),
    )
    return make_unit(
        "shooter",
        side="player",
        chassis="VG-45",
        gunnery=5,
        **{"weapons": weapons, "pos": at(0), **changes},
    )


def raider(uid: str = "raider-2", col: int = 5, row: int = 1, **changes: Any) -> Unit:
    return make_unit(uid, **{"pos": at(col, row), **changes})


def battle(*units: Unit, rows: tuple[str, ...] = COVER_ROWS) -> Battle:
    return Battle(
        map=BattleMap.from_rows(list(rows)),
        units=units,
        sides=(SideInfo(side="player", ai=False), SideInfo(side="enemy", ai=True)),
        difficulty=1,
        landscape="habitable",
        phase="combat",
        round=1,
        order=tuple(u.id for u in units),
    )


def preview(b: Battle, group: int = 1, location: str | None = None) -> FirePreview:
    return fire_preview(b, b.unit("shooter"), group, "raider-2", location)


# ---- the fire preview, by hand ------------------------------------------------------------
def test_fire_preview_hand_computed() -> None:
    p = preview(battle(shooter(), raider()))
    # §3.6: the four hexes between, in order from the shooter: Forest -5, Rocks -3, Rough 0,
    # Open 0.
    assert p.los == (
        LosStep(at(1), "forest", 5),
        LosStep(at(2), "rocks", 3),
        LosStep(at(3), "rough", 0),
        LosStep(at(4), "open", 0),
    )
    assert p.distance == 5 and p.group == 1 and p.location is None
    chances = {w.abbrev: w.chance.chance for w in p.weapons if w.chance is not None}
    # ML: 80 + 10 (gunnery 5) - 22 (Raider) + 10 (5 hexes, medium optimal) - 15 (target in
    # Forest) - 8 (LOS) = 55.  LL: 85 + 10 - 22 + 10 - 15 - 8 = 60.
    # SMR: 5 hexes is past the short optimal band (2-4): 10 + (-25 - 10) x 1/3 = -1.67 -> -2;
    # 80 + 10 - 22 - 2 - 15 - 8 = 43.
    assert chances == {"ML": 55, "LL": 60, "SMR": 43}
    ml = p.weapons[0].chance
    assert ml is not None
    assert [(m.name, m.value) for m in ml.modifiers] == [
        ("base", 80),
        ("gunnery", 10),
        ("evasion", -22),
        ("range", 10),
        ("cover", -15),
        ("LOS", -8),
    ]
    # Expected: 0.55 x 10 + 0.60 x 5 + 0.43 x 6 = 5.5 + 3.0 + 2.58 = 11.08.
    assert [w.expected for w in p.weapons] == pytest.approx([5.5, 3.0, 2.58])
    assert p.expected == pytest.approx(11.08)
    assert all(w.skipped is None for w in p.weapons)
    # Energy: 8 + 4 + 1 = 13 of the 22 a Vanguard may spend (15 x 150%); within its output.
    assert (p.energy, p.energy_left, p.energy_after, p.overload_after) == (13, 22, 9, 0)
    assert p.ap_cost == 1 and p.refusal is None
    # Ammo in shots: the SMR starts with 8 x 8 rounds, 8 a shot; lasers carry none.
    assert [w.ammo for w in p.weapons] == [None, None, 8]


def test_point_defense_halves_a_missile_expected_damage() -> None:
    target = raider(equipment=(gear("point_defense", "left_torso"),))
    p = preview(battle(shooter(), target))
    # SMR: 0.43 x 6 x 50% = 1.29; the lasers are not missiles: 5.5 + 3.0 + 1.29 = 9.79.
    assert [w.expected for w in p.weapons] == pytest.approx([5.5, 3.0, 1.29])
    assert p.expected == pytest.approx(9.79)
    smr = CAT.weapons["small_missile_rack"]
    assert expected_damage(43, smr, target) == pytest.approx(1.29)
    assert expected_damage(43, smr, raider()) == pytest.approx(2.58)
    # Two systems each roll 50% (§7.7.3): 25% of the missiles get through, not none.
    twice = raider(
        equipment=(gear("point_defense", "left_torso"), gear("point_defense", "right_torso"))
    )
    assert expected_damage(43, smr, twice) == pytest.approx(0.645)  # 0.43 x 6 x 25%
    assert expected_damage(43, CAT.weapons["medium_laser"], twice) == pytest.approx(4.3)


def test_called_shot_costs_two_ap_and_fifteen_points() -> None:
    p = preview(battle(shooter(), raider()), location="head")
    # §3.5: -15 for the called shot: ML 55 - 15 = 40.
    assert p.ap_cost == 2 and p.location == "head"
    assert [w.chance.chance for w in p.weapons if w.chance] == [40, 45, 28]


def test_energy_short_weapon_is_skipped_with_the_reason() -> None:
    # 12 energy already used: 10 left of 22. ML draws 8 (2 left); LL needs 4: skipped;
    # SMR draws 1. The group draws 9: 12 + 9 = 21, 6 over the output of 15 (§5.3).
    p = preview(battle(shooter(energy_used=12), raider()))
    assert [(w.abbrev, w.skipped) for w in p.weapons] == [
        ("ML", None),
        ("LL", "needs 4 energy, 2 left"),
        ("SMR", None),
    ]
    assert p.weapons[1].expected == 0.0 and p.weapons[1].chance is not None
    assert p.expected == pytest.approx(5.5 + 2.58)
    assert (p.energy, p.energy_left, p.energy_after, p.overload_after) == (9, 10, 1, 6)


def test_out_of_ammo_and_destroyed_weapons_are_listed_as_skipped() -> None:
    s = shooter()
    weapons = list(s.weapons)
    weapons[LL] = attrs.evolve(weapons[LL], destroyed=True)
    weapons[SMR] = attrs.evolve(weapons[SMR], ammo=7)  # less than one 8-round shot
    p = preview(battle(attrs.evolve(s, weapons=tuple(weapons)), raider()))
    assert [(w.abbrev, w.skipped, w.ammo) for w in p.weapons] == [
        ("ML", None, None),
        ("LL", "destroyed", None),
        ("SMR", "out of ammo", 0),
    ]
    assert p.energy == 8 and p.expected == pytest.approx(5.5)


def test_out_of_range_group_is_refused_with_check_fires_reason() -> None:
    # 12 hexes: beyond the lasers' 10 and the rack's 7.
    b = battle(shooter(), raider(col=12), rows=OPEN_ROWS)
    p = preview(b)
    reason = check_fire(b, b.unit("shooter"), 1, "raider-2", None)
    assert isinstance(reason, str)
    assert p.refusal == reason == "no weapon of group 1 can fire at RAIDER-2: out of range"
    assert all(w.chance is None and w.skipped == "out of range" for w in p.weapons)
    assert p.energy == 0 and p.expected == 0.0


@pytest.mark.parametrize(
    ("changes", "location", "reason"),
    [
        ({"fired_groups": (1,)}, None, "group 1 has already fired this round"),
        ({"ap": 0}, None, "needs 1 AP, 0 left"),
        ({"ap": 1}, "head", "needs 2 AP, 1 left"),
    ],
)
def test_refused_preview_carries_check_fires_reason(
    changes: dict[str, Any], location: str | None, reason: str
) -> None:
    b = battle(shooter(**changes), raider())
    assert check_fire(b, b.unit("shooter"), 1, "raider-2", location) == reason
    p = preview(b, location=location)
    assert p.refusal == reason
    # The weapons are still previewed, as the plan would go.
    assert [w.chance.chance for w in p.weapons if w.chance] == (
        [40, 45, 28] if location else [55, 60, 43]
    )


def test_refused_preview_of_an_ally_and_an_unknown_frame() -> None:
    ally = make_unit("buddy", side="player", pos=at(3))
    b = battle(shooter(), raider(), ally)
    assert fire_preview(b, b.unit("shooter"), 1, "buddy").refusal == "BUDDY is on your side"
    p = fire_preview(b, b.unit("shooter"), 1, "nobody")
    assert p.refusal == "no frame 'nobody'" and p.weapons == () and p.los == ()


def test_ai_v1_expected_group_is_the_previews_expected_damage() -> None:
    b = battle(shooter(), raider(equipment=(gear("point_defense", "left_torso"),)))
    s, t = b.unit("shooter"), b.unit("raider-2")
    for called in (None, "head"):
        expected, energy = ai_v1._expected_group(b, s, 1, t, called)
        p = fire_preview(b, s, 1, "raider-2", called)
        assert (expected, energy) == (p.expected, p.energy)


# ---- targets -------------------------------------------------------------------------------
def test_targets_nearest_first_ties_by_id() -> None:
    b = battle(
        shooter(),
        raider("r-b", col=4),
        raider("r-a", col=4, row=2),  # also 4 hexes: the id breaks the tie
        raider("r-far", col=9),
        raider("r-dead", col=2, destroyed=True),
        raider("r-unplaced", pos=None),
        make_unit("buddy", side="player", pos=at(1)),
    )
    got = targets(b, b.unit("shooter"))
    assert [u.id for u in got] == ["r-a", "r-b", "r-far"]


# ---- reactor -------------------------------------------------------------------------------
def test_shutdown_thresholds() -> None:
    # §5.4: 25% at stress >= output (15); automatic at 15 x 150% = 22.5 -> 23.
    assert shutdown_thresholds(shooter()) == (15, 23)
    # A Raider (11): 16.5 -> 17.
    assert shutdown_thresholds(raider()) == (11, 17)


def test_stress_outlook_names_the_numbers() -> None:
    s = shooter(energy_used=12)
    assert stress_outlook(s, 3) is None  # 15: at the output, no overload
    # 12 + 9 = 21: 6 over; end of round 0 + 6 - max(1, 15 / 10) = 5.
    assert stress_outlook(s, 9) == (
        "overload +6 (21/15 energy): stress 0 -> 5 (shutdown risk at 15)"
    )
    # Stress 10 already: 10 + 6 - 1 = 15 >= 15: the 25% roll.
    assert stress_outlook(attrs.evolve(s, stress=10), 9) == (
        "overload +6 (21/15 energy): stress 10 -> 15, 25% shutdown risk (at 15+)"
    )
    # Stress 18: 18 + 6 - 1 = 23 >= 23: automatic.
    assert stress_outlook(attrs.evolve(s, stress=18), 9) == (
        "overload +6 (21/15 energy): stress 18 -> 23, AUTOMATIC SHUTDOWN and reactor hit (at 23)"
    )
    # Already 2 over: spending 1 more adds 1; end of round 3 - 1 = 2.
    outlook = stress_outlook(shooter(energy_used=17), 1)
    assert outlook == "overload +1 (18/15 energy): stress 0 -> 2 (shutdown risk at 15)"


@settings(max_examples=60, deadline=None)
@given(
    used=st.integers(0, 22),
    extra=st.integers(0, 10),
    stress=st.integers(0, 30),
    reactor_hits=st.integers(0, 2),
    seed=st.integers(0, 2**32 - 1),
)
def test_projected_stress_agrees_with_the_end_of_round(
    used: int, extra: int, stress: int, reactor_hits: int, seed: int
) -> None:
    unit = shooter(stress=stress, reactor_hits=reactor_hits, energy_used=used)
    spent = attrs.evolve(unit, energy_used=used + extra)
    after, events = end_of_round(battle(spent, raider()), Dice(RngState(seed=seed)))
    got = after.unit("shooter")
    assert projected_stress(unit, extra) == got.stress
    chance_at, auto_at = shutdown_thresholds(unit)
    change = [e for e in events if isinstance(e, StressChanged) and e.unit == "shooter"]
    rolled = bool(change) and change[0].shutdown_roll is not None
    assert (got.reactor_hits > reactor_hits) == (got.stress >= auto_at)
    assert got.shutdown == (got.stress >= auto_at or (rolled and change[0].shutdown))
    assert rolled == (chance_at <= got.stress < auto_at)


# ---- movement ------------------------------------------------------------------------------
def test_move_preview_hand_computed() -> None:
    # Open row 1: 3 hexes east of column 0, towards the Raider at 8: a Medium moves 3 hexes,
    # 5 energy (§6.4, VG-45 move energy 5).
    b = battle(shooter(), raider(col=8), rows=OPEN_ROWS)
    m = move_preview(b, b.unit("shooter"), at(3), False)
    assert m.refusal is None and m.path == (at(0), at(1), at(2), at(3))
    assert (m.hexes, m.energy, m.ap_cost, m.energy_after, m.pullback) == (3, 5, 1, 17, False)
    # Too far for a Move; a Sprint (2 AP, 10 energy) gets there.
    far = move_preview(b, b.unit("shooter"), at(5), False)
    assert far.refusal == "hex 5,1 is out of move range" and far.path == ()
    sprint = move_preview(b, b.unit("shooter"), at(5), True)
    assert (sprint.refusal, sprint.energy, sprint.ap_cost) == (None, 10, 2)
    # Backing away from the Raider costs 5 x 1.5 = 7.5 -> 8 (§5.2).
    back = move_preview(b, attrs.evolve(b.unit("shooter"), pos=at(3)), at(1), False)
    assert (back.pullback, back.energy) == (True, 8)


def test_move_preview_warns_of_an_overload() -> None:
    b = battle(shooter(energy_used=14), raider(col=8), rows=OPEN_ROWS)
    m = move_preview(b, b.unit("shooter"), at(1), False)
    # 14 + 5 = 19: 4 over the output; end of round 4 - 1 = 3.
    assert m.overload_after == 4
    assert m.warning == "overload +4 (19/15 energy): stress 0 -> 3 (shutdown risk at 15)"


def test_reach_hexes_is_empty_without_ap_or_legs() -> None:
    b = battle(shooter(ap=0), raider(col=8), rows=OPEN_ROWS)
    assert reach_hexes(b, b.unit("shooter"), False) == frozenset()
    s = shooter()
    legless = attrs.evolve(s, structure=(*s.structure[:-1], 0))
    b = battle(legless, raider(col=8), rows=OPEN_ROWS)
    assert reach_hexes(b, b.unit("shooter"), False) == frozenset()
    # One AP: a Move but no Sprint.
    b = battle(shooter(ap=1), raider(col=8), rows=OPEN_ROWS)
    assert reach_hexes(b, b.unit("shooter"), True) == frozenset()
    assert len(reach_hexes(b, b.unit("shooter"), False)) > 0


GLYPHS = ".T^%:"


@st.composite
def small_battles(draw: st.DrawFn) -> tuple[Battle, bool]:
    width, height = 8, 6
    rows = tuple(
        "".join(draw(st.sampled_from(GLYPHS)) for _ in range(width)) for _ in range(height)
    )
    cells = [(c, r) for r in range(height) for c in range(width)]
    spots = draw(st.lists(st.sampled_from(cells), min_size=3, max_size=3, unique=True))
    me = shooter(
        pos=from_offset(*spots[0]),
        energy_used=draw(st.integers(0, 22)),
        ap=draw(st.integers(0, 2)),
        actuator_hits=(0, 0, 0, 0, 0, 0, draw(st.integers(0, 2))),
    )
    units = (me, raider("e1", *spots[1]), raider("e2", *spots[2]))
    return battle(*units, rows=rows), draw(st.booleans())


@settings(max_examples=40, deadline=None)
@given(small_battles())
def test_move_preview_agrees_with_check_move_everywhere(case: tuple[Battle, bool]) -> None:
    b, sprint = case
    unit = b.unit("shooter")
    legal = set()
    for h in b.map.grid.hexes():
        plan = check_move(b, unit, h, sprint)
        m = move_preview(b, unit, h, sprint)
        assert m.hex == h and m.sprint == sprint
        if isinstance(plan, str):
            assert m.refusal == plan and m.path == () and m.energy == 0
        else:
            legal.add(h)
            assert m.refusal is None
            assert (m.path, m.energy, m.pullback) == (plan.path, plan.energy, plan.pullback)
            assert m.energy_after == stats.energy_left(unit) - plan.energy
    assert reach_hexes(b, unit, sprint) == frozenset(legal)
    assert legal <= set(reach(b, unit, sprint))


# ---- the fire preview against the engine, at random --------------------------------------
@st.composite
def shots(draw: st.DrawFn) -> tuple[Battle, int, str | None]:
    row = "".join(draw(st.sampled_from(GLYPHS)) for _ in range(14))
    col = draw(st.integers(1, 13))
    target_row = draw(st.integers(0, 2))
    weapons = list(shooter().weapons)
    for i in range(len(weapons)):
        weapons[i] = attrs.evolve(
            weapons[i],
            destroyed=draw(st.booleans()) and draw(st.booleans()),
            ammo=draw(st.sampled_from([weapons[i].ammo, 0, 7])),
        )
    me = shooter(
        weapons=tuple(weapons),
        energy_used=draw(st.integers(0, 22)),
        sensor_hit=draw(st.booleans()),
        ap=draw(st.integers(0, 2)),
        fired_groups=draw(st.sampled_from([(), (1,), (2,)])),
    )
    target = raider(
        col=col,
        row=target_row,
        braced=draw(st.booleans()),
        equipment=draw(st.sampled_from([(), (gear("point_defense", "left_torso"),)])),
    )
    rows = (row, draw(st.sampled_from([row, "." * 14])), row[::-1])
    location = draw(st.sampled_from([None, *LOCATION_ORDER]))
    return battle(me, target, rows=rows), draw(st.sampled_from([1, 2])), location


@settings(max_examples=80, deadline=None)
@given(shots())
def test_fire_preview_agrees_with_the_engine(case: tuple[Battle, int, str | None]) -> None:
    b, group, location = case
    me, target = b.unit("shooter"), b.unit("raider-2")
    p = fire_preview(b, me, group, "raider-2", location)
    called = location is not None
    # Every weapon of the group, in mount order, with hit_chance's own breakdown.
    assert [w.index for w in p.weapons] == [
        i for i, ws in enumerate(me.weapons) if ws.group == group
    ]
    for w in p.weapons:
        ws = me.weapons[w.index]
        assert w.chance == hit_chance(b, me, target, ws, called_shot=called)
        assert w.ammo == shots_left(me, w.index)
    # The plan's shots fire, the rest are skipped with the plan's reason.
    plan = plan_fire(b, me, group, target, called)
    assert [w.index for w in p.firing] == list(plan.shots)
    reasons = dict(plan.skipped)
    for w in p.weapons:
        if w.skipped is not None:
            assert w.skipped == ("destroyed" if me.weapons[w.index].destroyed else reasons[w.index])
            assert w.expected == 0.0
    assert p.energy == plan.energy
    assert p.energy_after == p.energy_left - p.energy
    assert p.energy_left == stats.energy_left(me)
    assert p.overload_after == max(0, me.energy_used + p.energy - stats.effective_output(me))
    assert p.expected == pytest.approx(sum(w.expected for w in p.firing))
    check = check_fire(b, me, group, "raider-2", location)
    assert p.refusal == (check if isinstance(check, str) else None)
    assert p.ap_cost == (2 if called else 1)
    assert sum(s.penalty for s in p.los) <= 5 * len(p.los)
