"""Tests for mac_tui.combat.attack: hit chance (§3, §6.5, R1, R10, §7.7.3) and the attack.

The usual shot: a Vanguard (VG-45) piloted at gunnery 5 fires a Medium Laser mounted in its
right torso at a Raider (RD-30, evasion 22) on row 1 of a hand-drawn map. On row 1 of an
odd-r map ``from_offset(col, 1) == Hex(col, 1)``, so the line of fire runs along the row and
the intervening hexes are simply the columns in between. Expected numbers are worked out by
hand from the rulebook in the comments.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import stats
from mac_tui.combat.attack import (
    AttackResult,
    HitChance,
    LosHex,
    Modifier,
    clamp_chance,
    distance_band,
    hit_chance,
    hit_location_weights,
    line_of_sight,
    los_penalty,
    range_modifier,
    resolve_attack,
    spotter,
)
from mac_tui.combat.mapgen import BattleMap
from mac_tui.combat.state import LOC_INDEX, SIDES, Battle, SideInfo, Unit, Uplink
from mac_tui.dice import COMBAT, Dice, RngState
from mac_tui.hexgrid import Hex, distance, from_offset, line, to_offset
from mac_tui.save import make_converter

from .test_damage import (
    NO_EFFECT,
    Draw,
    ScriptedDice,
    d100,
    gear,
    location_draw,
    make_unit,
    set_loc,
    weapon,
)

CAT = catalog()
OPEN_ROWS = ("." * 14,) * 3

ML, FL, SMR, AC5, LRM, LL = range(6)  # weapon indices of the shooter


def at(col: int, row: int = 1) -> Hex:
    return from_offset(col, row)


def shooter(**changes: Any) -> Unit:
    """The Vanguard: gunnery 5 (+10), player side, at column 0 of row 1."""
    return make_unit(
        "shooter",
        side="player",
        chassis="VG-45",
        gunnery=5,
        weapons=(
            weapon("medium_laser", "right_torso"),
            weapon("flamer", "right_arm", group=2),
            weapon("small_missile_rack", "left_arm", group=2),
            weapon("autocannon_5", "left_arm", group=3),
            weapon("lrm_15", "center_torso", group=4),
            weapon("light_laser", "head", group=4),
        ),
        **{"pos": at(0), **changes},
    )


def raider(col: int = 5, row: int = 1, **changes: Any) -> Unit:
    return make_unit("raider-2", **{"pos": at(col, row), **changes})


def battle(*units: Unit, rows: tuple[str, ...] = OPEN_ROWS, **changes: Any) -> Battle:
    b = Battle(
        map=BattleMap.from_rows(list(rows)),
        units=units,
        sides=(SideInfo(side="player", ai=False), SideInfo(side="enemy", ai=True)),
        difficulty=1,
        landscape="habitable",
        phase="combat",
    )
    return attrs.evolve(b, **changes)


def chance_of(
    b: Battle,
    index: int = ML,
    *,
    attacker: str = "shooter",
    target: str = "raider-2",
    called_shot: bool = False,
    overwatch: bool = False,
) -> HitChance:
    a = b.unit(attacker)
    hc = hit_chance(
        b, a, b.unit(target), a.weapons[index], called_shot=called_shot, overwatch=overwatch
    )
    assert hc is not None
    return hc


def names(hc: HitChance) -> list[str]:
    return [m.name for m in hc.modifiers]


# --- R1 range modifier ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("range_id", "dist", "expected"),
    [
        # R1 worked examples.
        ("medium", 1, -5),
        ("medium", 3, 5),
        ("medium", 9, -3),  # 10 + (-10 - 10) x 2/3 = -3.33 -> -3
        ("long", 6, 5),
        ("long", 12, 3),  # 10 + (-5 - 10) x 2/4 = 2.5 -> 3 (half away from zero)
        # Inside the optimal band: +10.
        ("short", 2, 10),
        ("short", 4, 10),
        ("medium", 4, 10),
        ("medium", 7, 10),
        ("long", 7, 10),
        ("long", 10, 10),
        # At max range: "modifier at max".
        ("short", 7, -25),
        ("medium", 10, -10),
        ("long", 14, -5),
        # Between: short 5 = 10 - 35/3 = -1.67 -> -2; short 6 = 10 - 70/3 = -13.3 -> -13;
        # medium 8 = 10 - 20/3 = 3.33 -> 3; long 11 = 10 - 15/4 = 6.25 -> 6;
        # long 13 = 10 - 45/4 = -1.25 -> -1.
        ("short", 5, -2),
        ("short", 6, -13),
        ("medium", 8, 3),
        ("long", 11, 6),
        ("long", 13, -1),
        # Closer than the optimal band: the §3.4 column (<=1 point blank, 2-4 short, 5-7
        # medium).
        ("short", 1, 5),
        ("long", 1, -15),
        ("long", 2, -5),
        ("long", 4, -5),
        ("long", 5, 5),
    ],
)
def test_range_modifier(range_id: str, dist: int, expected: int) -> None:
    assert range_modifier(range_id, dist) == expected


@pytest.mark.parametrize(("range_id", "beyond"), [("short", 8), ("medium", 11), ("long", 15)])
def test_range_modifier_beyond_max_range(range_id: str, beyond: int) -> None:
    assert range_modifier(range_id, beyond) is None
    assert range_modifier(range_id, beyond + 5) is None


@pytest.mark.parametrize("range_id", ["short", "medium", "long"])
def test_range_modifier_distance_zero_is_impossible(range_id: str) -> None:
    # R2: two frames never share a hex.
    assert range_modifier(range_id, 0) is None
    assert range_modifier(range_id, -1) is None


def test_distance_bands() -> None:
    # §3.4 bands: <=1 point blank, 2-4 short, 5-7 medium, beyond long.
    assert [distance_band(d) for d in range(1, 10)] == [
        "point_blank",
        *["short"] * 3,
        *["medium"] * 3,
        "long",
        "long",
    ]


# --- §3.6 line of sight ---------------------------------------------------------------------
def test_line_of_sight_lists_every_intervening_hex() -> None:
    rows = ("." * 14, ".T^%:T........", "." * 14)
    los = line_of_sight(BattleMap.from_rows(list(rows)), at(0), at(6))
    assert los == (
        LosHex(at(1), "forest", 5),
        LosHex(at(2), "rocks", 3),
        LosHex(at(3), "rough", 0),
        LosHex(at(4), "sand", 0),
        LosHex(at(5), "forest", 5),
    )


def test_line_of_sight_adjacent_is_empty() -> None:
    assert line_of_sight(BattleMap.from_rows(list(OPEN_ROWS)), at(0), at(1)) == ()


# --- R29: a line running along the edge between two hexes -----------------------------------
# From Hex(2, 1) to Hex(4, 3) the line passes between Hex(2, 2) and Hex(3, 1), crosses the
# centre of Hex(3, 2), then passes between Hex(3, 3) and Hex(4, 2). Hex(3, 1) is forest.
EDGE_ROWS = ("........", "...T....", "........", "........", "........")
EDGE_FROM, EDGE_TO = Hex(2, 1), Hex(4, 3)


def test_an_edge_on_line_counts_the_forest_both_ways() -> None:
    bmap = BattleMap.from_rows(list(EDGE_ROWS))
    assert to_offset(Hex(3, 1)) == (3, 1) and bmap.terrain_at(Hex(3, 1)) == "forest"
    there = line_of_sight(bmap, EDGE_FROM, EDGE_TO)
    assert there == (
        LosHex(Hex(3, 1), "forest", 5, beside=Hex(2, 2)),  # the worse of the two counts
        LosHex(Hex(3, 2), "open", 0),
        LosHex(Hex(3, 3), "open", 0, beside=Hex(4, 2)),  # equal: the first in (q, r) order
    )
    assert line_of_sight(bmap, EDGE_TO, EDGE_FROM) == there[::-1]
    assert los_penalty(bmap, EDGE_FROM, EDGE_TO) == los_penalty(bmap, EDGE_TO, EDGE_FROM) == 5
    # the drawing line's fixed nudge would have taken the open hex, in both directions
    assert line(EDGE_FROM, EDGE_TO)[1] == line(EDGE_TO, EDGE_FROM)[3] == Hex(2, 2)


def test_an_edge_on_line_costs_each_shooter_the_forest() -> None:
    a = shooter(pos=EDGE_FROM)
    b = raider(pos=EDGE_TO, weapons=(weapon("medium_laser", "right_arm"),))
    duel = battle(a, b, rows=EDGE_ROWS)
    for attacker, target in ((a, b), (b, a)):
        mods = chance_of(duel, ML, attacker=attacker.id, target=target.id).modifiers
        assert Modifier("LOS", -5, "1 forest") in mods


terrain_glyphs = st.sampled_from([t.glyph for t in CAT.terrain.values()])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=9).flatmap(
        lambda width: st.lists(
            st.text(terrain_glyphs, min_size=width, max_size=width), min_size=2, max_size=7
        )
    ),
    st.data(),
)
def test_line_of_sight_is_the_same_both_ways(rows: list[str], data: st.DataObject) -> None:
    """R29: from A to B and from B to A the same hexes count, with the same penalties; at an
    edge the one counted is never better for the shooter than the one beside it."""
    bmap = BattleMap.from_rows(rows)
    hexes = st.sampled_from(list(bmap.grid.hexes()))
    a, b = data.draw(hexes), data.draw(hexes)
    there = line_of_sight(bmap, a, b)
    assert line_of_sight(bmap, b, a) == there[::-1]
    assert los_penalty(bmap, a, b) == los_penalty(bmap, b, a) == sum(h.penalty for h in there)
    for lh in there:
        if lh.beside is not None:
            assert CAT.terrain[bmap.terrain_at(lh.beside)].los_penalty <= lh.penalty


# --- §3 the worked examples -----------------------------------------------------------------
def test_medium_laser_example_78() -> None:
    # 80 (ML) + 10 (gunnery 5 x 2) - 22 (Raider evasion) + 10 (5 hexes, medium optimal) = 78.
    hc = chance_of(battle(shooter(), raider()))
    assert hc.modifiers == (
        Modifier("base", 80, "Medium Laser"),
        Modifier("gunnery", 10, "gunnery 5"),
        Modifier("evasion", -22, "Raider"),
        Modifier("range", 10, "5 hexes, medium"),
    )
    assert (hc.total, hc.chance) == (78, 78)


def test_forest_target_behind_two_forest_hexes_53() -> None:
    # §3.6 note: in Forest (-15 cover) behind 2 Forest hexes (-10 LOS): 78 - 25 = 53.
    rows = ("." * 14, "..TT.T........", "." * 14)
    hc = chance_of(battle(shooter(), raider(), rows=rows))
    assert hc.value("cover") == -15
    assert hc.value("LOS") == -10
    assert [m.detail for m in hc.modifiers if m.name in ("cover", "LOS")] == ["Forest", "2 forest"]
    assert hc.chance == 53


def test_clamped_to_95() -> None:
    # Flamer 95 + 10 (gunnery) - 5 (Colossus) + 10 (3 hexes, short optimal) = 110 -> 95.
    b = battle(shooter(), make_unit("raider-2", chassis="CL-100", pos=at(3)))
    hc = chance_of(b, FL)
    assert hc.total == 110 and hc.chance == 95


def test_clamped_to_5() -> None:
    # ML 80 + 2 (gunnery 1) - 25 (Scout) - 10 (10 hexes, max range) - 20 (brace) - 15 (called)
    # - 10 (overwatch) = 2 -> 5.
    b = battle(
        shooter(pilot=attrs.evolve(shooter().pilot, gunnery=1)),
        make_unit("raider-2", chassis="SC-20", pos=at(10), braced=True),
    )
    hc = chance_of(b, ML, called_shot=True, overwatch=True)
    assert hc.total == 2 and hc.chance == 5


def test_clamp_chance() -> None:
    assert [clamp_chance(t) for t in (-50, 4, 5, 50, 95, 96, 200)] == [5, 5, 5, 50, 95, 95, 95]


# --- §3.5 and §7.7.3 one modifier at a time -------------------------------------------------
CASES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, bool], str, int]] = [
    # (id, shooter changes, target changes, hit_chance flags, modifier, value)
    ("brace", {}, {"braced": True}, {}, "brace", -20),
    ("sensor", {"sensor_hit": True}, {}, {}, "sensor", -10),
    ("called shot", {}, {}, {"called_shot": True}, "called shot", -15),
    ("overwatch", {}, {}, {"overwatch": True}, "overwatch", -10),
    ("gyro", {"equipment": (gear("gyro_stabilizer"),)}, {}, {}, "gyro stabilizer", 10),
    (
        "stealth",
        {},
        {"equipment": (gear("stealth_plating", "center_torso"),)},
        {},
        "stealth plating",
        -20,
    ),
    (
        "ecm",
        {},
        {"equipment": (gear("countermeasure_suite"),), "ecm_active": True},
        {},
        "countermeasure suite",
        -20,
    ),
]


@pytest.mark.parametrize(
    ("mine", "theirs", "flags", "name", "value"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_one_modifier(
    mine: dict[str, Any], theirs: dict[str, Any], flags: dict[str, bool], name: str, value: int
) -> None:
    hc = chance_of(
        battle(shooter(**mine), raider(**theirs)),
        ML,
        called_shot=flags.get("called_shot", False),
        overwatch=flags.get("overwatch", False),
    )
    assert hc.value(name) == value
    assert names(hc)[:4] == ["base", "gunnery", "evasion", "range"]
    assert len(hc.modifiers) == 5
    assert hc.total == 78 + value


def test_no_optional_modifier_without_its_condition() -> None:
    # ECM fitted but not active; Countermeasures flag without the suite; destroyed slot gear.
    dead_stealth = attrs.evolve(gear("stealth_plating", "center_torso"), destroyed=True)
    b = battle(
        shooter(),
        raider(equipment=(gear("countermeasure_suite"), dead_stealth)),
    )
    assert len(chance_of(b).modifiers) == 4
    b2 = battle(shooter(), raider(ecm_active=True))
    assert len(chance_of(b2).modifiers) == 4


def test_arm_actuator_per_hit() -> None:
    # §3.5: -10 per actuator hit on the weapon's arm. Two hits on the left arm: the
    # SMR mounted there takes -20; the flamer in the right arm and the laser in the torso
    # take nothing.
    hits = [0] * 7
    hits[LOC_INDEX["left_arm"]] = 2
    b = battle(shooter(actuator_hits=tuple(hits)), raider(3))
    smr = chance_of(b, SMR)
    assert smr.value("actuator") == -20
    assert [m.detail for m in smr.modifiers if m.name == "actuator"] == ["2 on left arm"]
    assert chance_of(b, FL).value("actuator") is None
    assert chance_of(b, ML).value("actuator") is None


def test_no_actuator_modifier_for_torso_mount_even_with_hits_recorded() -> None:
    hits = tuple(1 for _ in range(7))
    b = battle(shooter(actuator_hits=hits), raider())
    assert chance_of(b, ML).value("actuator") is None  # ML in the right torso
    assert chance_of(b, LL).value("actuator") is None  # LL in the head


@pytest.mark.parametrize(
    ("glyph", "cover"), [("T", -15), ("^", -10), ("%", None), (":", None), (".", None)]
)
def test_cover_by_target_terrain(glyph: str, cover: int | None) -> None:
    # §3.5: Forest -15, Rocks -10; Open, Rough and Sand give no cover.
    rows = ("." * 14, "....." + glyph + "." * 8, "." * 14)
    assert chance_of(battle(shooter(), raider(), rows=rows)).value("cover") == cover


def test_shooters_own_hex_gives_nothing() -> None:
    rows = ("." * 14, "T" + "." * 13, "." * 14)
    hc = chance_of(battle(shooter(), raider(), rows=rows))
    assert hc.chance == 78


def test_los_mixed_terrain() -> None:
    # §3.6: 2 Forest (-5 each) and 1 Rocks (-3) between: -13.
    rows = ("." * 14, ".T^T..........", "." * 14)
    hc = chance_of(battle(shooter(), raider(), rows=rows))
    assert hc.value("LOS") == -13
    assert [m.detail for m in hc.modifiers if m.name == "LOS"] == ["2 forest, 1 rocks"]
    assert hc.chance == 78 - 13


def test_sensor_array_only_with_long_range_weapons() -> None:
    # §7.7.3: +10 when the attacker fires a Long-range weapon. AC5 (long, 80) at 5 hexes:
    # band medium +5: 80 + 10 - 22 + 5 + 10 = 83. The Medium Laser gets nothing.
    b = battle(shooter(equipment=(gear("sensor_array", "head"),)), raider())
    ac5 = chance_of(b, AC5)
    assert ac5.value("sensor array") == 10 and ac5.chance == 83
    assert chance_of(b, ML).value("sensor array") is None
    dead = attrs.evolve(gear("sensor_array", "head"), destroyed=True)
    assert (
        chance_of(battle(shooter(equipment=(dead,)), raider()), AC5).value("sensor array") is None
    )


def test_phantom_emitter_beyond_five_hexes() -> None:
    # §7.7.3: -25 when the attacker is more than 5 hexes away.
    pe = (gear("phantom_emitter", "right_torso"),)
    near = chance_of(battle(shooter(), raider(5, equipment=pe)))
    far = chance_of(battle(shooter(), raider(6, equipment=pe)))
    assert near.value("phantom emitter") is None
    assert far.value("phantom emitter") == -25
    assert far.chance == 78 - 25  # 6 hexes is still +10 for a medium weapon


def test_targeting_uplink() -> None:
    # R11: +15 to the designating side's attacks on the designated enemy.
    mark = Uplink(side="player", target="raider-2")
    hc = chance_of(battle(shooter(), raider(), uplinks=(mark,)))
    assert hc.value("targeting uplink") == 15 and hc.chance == 93
    theirs = Uplink(side="enemy", target="raider-2")
    other = Uplink(side="player", target="someone-else")
    hc2 = chance_of(battle(shooter(), raider(), uplinks=(theirs, other)))
    assert hc2.value("targeting uplink") is None
    twice = chance_of(battle(shooter(), raider(), uplinks=(mark, mark)))
    assert twice.value("targeting uplink") == 15


def test_gunnery_zeroed_by_breached_cockpit() -> None:
    hc = chance_of(battle(shooter(cockpit_breached=True), raider()))
    assert hc.modifiers[1] == Modifier("gunnery", 0, "cockpit breached")
    assert hc.chance == 68


def test_every_modifier_in_order() -> None:
    # AC5 in the left arm (2 actuator hits) at 6 hexes (long weapon, medium band +5) at a
    # braced Raider in rocks behind forest, everything fitted and flagged:
    # 80 + 10 - 22 + 5 - 20 - 10 - 15 - 20 - 10 - 5 + 10 + 10 - 20 - 25 - 20 + 15 - 10 = -47.
    hits = [0] * 7
    hits[LOC_INDEX["left_arm"]] = 2
    me = shooter(
        sensor_hit=True,
        actuator_hits=tuple(hits),
        equipment=(gear("gyro_stabilizer"), gear("sensor_array", "head")),
    )
    them = raider(
        6,
        braced=True,
        ecm_active=True,
        equipment=(
            gear("stealth_plating", "center_torso"),
            gear("phantom_emitter", "right_torso"),
            gear("countermeasure_suite"),
        ),
    )
    rows = ("." * 14, "..T...^.......", "." * 14)
    b = battle(me, them, rows=rows, uplinks=(Uplink(side="player", target="raider-2"),))
    hc = chance_of(b, AC5, called_shot=True, overwatch=True)
    assert names(hc) == [
        "base",
        "gunnery",
        "evasion",
        "range",
        "brace",
        "sensor",
        "called shot",
        "actuator",
        "cover",
        "LOS",
        "gyro stabilizer",
        "sensor array",
        "stealth plating",
        "phantom emitter",
        "countermeasure suite",
        "targeting uplink",
        "overwatch",
    ]
    assert [m.value for m in hc.modifiers] == [
        80, 10, -22, 5, -20, -10, -15, -20, -10, -5, 10, 10, -20, -25, -20, 15, -10
    ]  # fmt: skip
    assert hc.total == -47 and hc.chance == 5


# --- R10 indirect fire ----------------------------------------------------------------------
FIVE_FOREST = ("." * 14, ".TTTTT........", "." * 14)
TWO_FOREST = ("." * 14, ".TT...........", "." * 14)


def lrm_battle(rows: tuple[str, ...], *others: Unit) -> Battle:
    # LRM-15 (70, long) at 8 hexes (optimal +10): 70 + 10 - 22 + 10 = 68 before LOS.
    return battle(shooter(), raider(8), *others, rows=rows)


def ally(col: int, row: int = 1, uid: str = "spotter", **changes: Any) -> Unit:
    return make_unit(uid, side="player", pos=at(col, row), **changes)


def test_indirect_replaces_a_worse_los_penalty() -> None:
    # 5 Forest between: LOS -25; an ally 2 hexes from the target: indirect -20 is better.
    hc = chance_of(lrm_battle(FIVE_FOREST, ally(10)), LRM)
    assert hc.value("indirect") == -20 and hc.value("LOS") is None
    assert [m.detail for m in hc.modifiers if m.name == "indirect"] == [
        "spotter SPOTTER, instead of LOS -25 (5 forest)"
    ]
    assert hc.chance == 68 - 20


def test_los_kept_when_better_than_indirect() -> None:
    # 2 Forest between: LOS -10 beats indirect -20; the detail says indirect was considered.
    hc = chance_of(lrm_battle(TWO_FOREST, ally(10)), LRM)
    assert hc.value("LOS") == -10 and hc.value("indirect") is None
    assert [m.detail for m in hc.modifiers if m.name == "LOS"] == [
        "2 forest (better than indirect -20)"
    ]
    assert hc.chance == 58


def test_indirect_never_used_with_clear_los() -> None:
    hc = chance_of(lrm_battle(OPEN_ROWS, ally(10)), LRM)
    assert hc.chance == 68 and len(hc.modifiers) == 4


def test_indirect_spotter_at_exactly_four_hexes() -> None:
    spot = ally(12)
    assert distance(at(12), at(8)) == 4
    assert chance_of(lrm_battle(FIVE_FOREST, spot), LRM).value("indirect") == -20


@pytest.mark.parametrize(
    "other",
    [
        ally(13),  # 5 hexes from the target: too far
        ally(10, destroyed=True),  # destroyed
        ally(10, pilot_alive=False),  # pilot dead
        make_unit("enemy-ally", side="enemy", pos=at(10)),  # the target's side
    ],
    ids=["too-far", "destroyed", "pilot-dead", "enemy"],
)
def test_no_spotter_no_indirect(other: Unit) -> None:
    hc = chance_of(lrm_battle(FIVE_FOREST, other), LRM)
    assert hc.value("LOS") == -25 and hc.value("indirect") is None


def test_only_indirect_weapons_fire_indirectly() -> None:
    # AC5 (long, not indirect) at 8: 80 + 10 - 22 + 10 - 25 (LOS) = 53.
    hc = chance_of(lrm_battle(FIVE_FOREST, ally(10)), AC5)
    assert hc.value("LOS") == -25 and hc.value("indirect") is None


def test_the_attacker_is_not_its_own_spotter() -> None:
    b = battle(shooter(pos=at(4)), raider(8))
    assert spotter(b, b.unit("shooter"), b.unit("raider-2")) is None
    # The nearest ally to the target spots; ties go to the first listed.
    b2 = battle(shooter(pos=at(4)), raider(8), ally(11, uid="far"), ally(10), ally(6, uid="tie"))
    found = spotter(b2, b2.unit("shooter"), b2.unit("raider-2"))
    assert found is not None and found.id == "spotter"


# --- no chance ------------------------------------------------------------------------------
def test_out_of_range_or_no_position() -> None:
    b = battle(shooter(), raider(11))  # ML max range 10
    s, r = b.unit("shooter"), b.unit("raider-2")
    assert hit_chance(b, s, r, s.weapons[ML]) is None
    assert hit_chance(b, s, r, s.weapons[LRM]) is not None
    b2 = battle(shooter(), raider(pos=None))
    assert hit_chance(b2, b2.unit("shooter"), b2.unit("raider-2"), s.weapons[ML]) is None
    b3 = battle(shooter(), raider(pos=Hex(40, 1)))
    assert hit_chance(b3, b3.unit("shooter"), b3.unit("raider-2"), s.weapons[ML]) is None


# --- resolve_attack -------------------------------------------------------------------------
def fire(b: Battle, index: int, *draws: Draw, **kw: Any) -> tuple[Battle, AttackResult]:
    dice = ScriptedDice(*draws)
    out = resolve_attack(b, "shooter", "raider-2", index, dice, **kw)
    assert dice.done, f"draws left over: {dice.script}"
    return out


NO_CRIT = d100(CAT.combat.accuracy.critical_chance + 1)


def test_miss() -> None:
    b = battle(shooter(), raider())
    after, result = fire(b, ML, d100(79))  # needs 78
    assert after is b
    assert not result.hit and result.roll == 79 and result.chance == 78
    assert result.damage is None and result.location is None
    assert result.describe() == "ML -> RAIDER-2: needs 78, rolls 79: miss"


def test_hit_with_location_roll() -> None:
    # Roll 78 <= 78 hits; no critical; location LT; 10 damage: armour 10 -> 0.
    b = battle(shooter(), raider())
    after, result = fire(b, ML, d100(78), NO_CRIT, location_draw("left_torso"))
    assert result.hit and not result.critical and result.location == "left_torso"
    assert result.damage is not None and result.damage.armor_lost == 10
    assert after.unit("raider-2").armor[LOC_INDEX["left_torso"]] == 0
    assert after.unit("shooter") == b.unit("shooter")  # nothing paid here
    assert result.describe() == "ML -> RAIDER-2: needs 78, rolls 78: hit LT for 10, armour 10 -> 0"
    assert result.distance == 5 and len(result.intervening) == 4
    assert result.weapon == "medium_laser" and result.weapon_index == ML
    assert result.modifiers == chance_of(b).modifiers


def test_hit_into_structure_describes_the_cascade() -> None:
    # LT armour 4 left, 10 damage: armour 4 -> 0, structure 5 -> 0 (6 -> 5 absorbed), 1 to
    # CT (armour 14 -> 13); LT component roll: actuator on a torso, nothing.
    target = set_loc(raider(), "left_torso", armor=4)
    b = battle(shooter(), target)
    actuator = (100, 15)
    _, result = fire(b, ML, d100(40), NO_CRIT, location_draw("left_torso"), actuator)
    assert result.describe() == (
        "ML -> RAIDER-2: needs 78, rolls 40: hit LT for 10, armour 4 -> 0, structure 5 -> 0, "
        "actuator damaged (nothing there), Left Torso destroyed, 1 on to CT; "
        "CT for 1, armour 14 -> 13"
    )


def test_critical_is_cosmetic() -> None:
    b = battle(shooter(), raider())
    crit = d100(CAT.combat.accuracy.critical_chance)
    after, result = fire(b, ML, d100(1), crit, location_draw("legs"))
    assert result.critical
    plain, _ = fire(b, ML, d100(1), NO_CRIT, location_draw("legs"))
    assert after == plain
    assert "critical hit" in result.describe()


def test_called_shot() -> None:
    # 78 - 15 (called shot) = 63; no location roll; the head: armour 5 -> 0, structure 2 -> 0,
    # 3 lost; component roll; pilot survival (piloting 4: needs 70, rolls 1).
    b = battle(shooter(), raider())
    after, result = fire(b, ML, d100(63), NO_CRIT, NO_EFFECT, d100(1), called_location="head")
    assert result.chance == 63 and result.called == "head" and result.location == "head"
    assert result.damage is not None and result.damage.head_destroyed
    assert after.unit("raider-2").cockpit_breached
    assert "(called HD)" in result.describe()


def test_flamer_adds_stress() -> None:
    # R9: Flamer at 3 hexes: 95 + 10 - 22 + 10 = 93; 2 damage on CT; stress +3.
    b = battle(shooter(), raider(3, stress=1))
    after, result = fire(b, FL, d100(93), NO_CRIT, location_draw("center_torso"))
    assert after.unit("raider-2").stress == 1 + 3
    assert result.stress == 3
    assert result.describe().endswith("CT for 2, armour 14 -> 12, stress +3")


def test_flamer_miss_adds_no_stress() -> None:
    b = battle(shooter(), raider(3))
    after, result = fire(b, FL, d100(94))
    assert after.unit("raider-2").stress == 0 and result.stress == 0


PDS = gear("point_defense", "left_torso")


def test_point_defense_intercepts() -> None:
    # SMR (80, short) at 3 hexes: 80 + 10 - 22 + 10 = 78. Hit; intercept roll 50 <= 50: the
    # hit is negated, no location roll, no damage.
    b = battle(shooter(), raider(3, equipment=(PDS,)))
    after, result = fire(b, SMR, d100(10), NO_CRIT, d100(50))
    assert result.hit and result.intercepted
    assert result.damage is None and result.location is None
    assert after == b
    assert result.describe() == (
        "SMR -> RAIDER-2: needs 78, rolls 10: hit intercepted by point defense system"
    )


def test_point_defense_fails() -> None:
    b = battle(shooter(), raider(3, equipment=(PDS,)))
    after, result = fire(b, SMR, d100(10), NO_CRIT, d100(51), location_draw("legs"))
    assert not result.intercepted and result.location == "legs"
    assert after.unit("raider-2").armor[LOC_INDEX["legs"]] == 15 - 6


def test_two_point_defense_systems_roll_separately() -> None:
    b = battle(shooter(), raider(3, equipment=(PDS, gear("point_defense", "right_torso"))))
    _, result = fire(b, SMR, d100(10), NO_CRIT, d100(51), d100(50))
    assert result.intercepted


def test_point_defense_ignores_other_weapons_and_needs_to_work() -> None:
    b = battle(shooter(), raider(3, equipment=(PDS,)))
    _, result = fire(b, FL, d100(10), NO_CRIT, location_draw("legs"))  # energy: no roll
    assert not result.intercepted
    dead = attrs.evolve(PDS, destroyed=True)
    b2 = battle(shooter(), raider(3, equipment=(dead,)))
    _, result2 = fire(b2, SMR, d100(10), NO_CRIT, location_draw("legs"))
    assert not result2.intercepted


def test_overwatch_penalty_reaches_the_roll() -> None:
    b = battle(shooter(), raider())
    _, result = fire(b, ML, d100(69), overwatch=True)  # needs 78 - 10 = 68
    assert result.chance == 68 and not result.hit


def test_kill_shot_destroys_the_frame() -> None:
    target = set_loc(raider(), "center_torso", armor=0, structure=3)
    b = battle(shooter(), target)
    after, result = fire(b, ML, d100(1), NO_CRIT, location_draw("center_torso"), NO_EFFECT)
    assert after.unit("raider-2").destroyed
    assert result.damage is not None and result.damage.frame_destroyed
    assert result.describe().endswith("7 damage lost; frame destroyed")


@pytest.mark.parametrize(
    ("b", "index", "kw"),
    [
        (battle(shooter(), raider(11)), ML, {}),  # out of range
        (battle(shooter(), raider(pos=None)), ML, {}),  # not deployed
        (battle(shooter(), raider()), 99, {}),  # no such weapon
        (battle(shooter(), raider()), ML, {"called_location": "tail"}),
    ],
    ids=["range", "position", "index", "called"],
)
def test_impossible_attacks_raise(b: Battle, index: int, kw: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        resolve_attack(b, "shooter", "raider-2", index, ScriptedDice(), **kw)


def test_destroyed_weapon_cannot_fire() -> None:
    me = shooter()
    dead = attrs.evolve(me.weapons[ML], destroyed=True)
    b = battle(attrs.evolve(me, weapons=(dead, *me.weapons[1:])), raider())
    with pytest.raises(ValueError):
        resolve_attack(b, "shooter", "raider-2", ML, ScriptedDice())


def test_hit_location_weights_follow_section_4_1() -> None:
    assert hit_location_weights() == (
        ("head", 5),
        ("center_torso", 20),
        ("left_torso", 15),
        ("right_torso", 15),
        ("left_arm", 10),
        ("right_arm", 10),
        ("legs", 25),
    )


def test_results_are_plain_data() -> None:
    # The save converter (Hex hooks) turns a result into JSON and back unchanged.
    b = battle(shooter(), raider(), rows=("." * 14, "..TT.T........", "." * 14))
    _, result = fire(b, ML, d100(1), NO_CRIT, location_draw("left_arm"), NO_EFFECT)
    conv = make_converter()
    data = json.loads(json.dumps(conv.unstructure(result)))
    assert data["target"] == "raider-2" and data["location"] == "left_arm"
    assert data["intervening"][1] == {
        "hex": [2, 1],
        "terrain": "forest",
        "penalty": 5,
        "beside": None,
    }
    assert conv.structure(data, AttackResult) == result


def test_real_dice_are_deterministic_and_use_only_the_combat_stream() -> None:
    b = battle(shooter(), raider())
    outs = []
    for _ in range(2):
        dice = Dice(RngState(seed=1234))
        outs.append((resolve_attack(b, "shooter", "raider-2", ML, dice), dice.state()))
    assert outs[0] == outs[1]
    state = outs[0][1]
    assert [name for name, _ in state.counters] == [COMBAT]


# --- properties -----------------------------------------------------------------------------
TERRAIN = sorted(CAT.terrain)
EQUIPMENT = sorted(CAT.equipment)
W, H = 10, 5


@st.composite
def gear_list(draw: st.DrawFn) -> tuple[Any, ...]:
    out = []
    for eid in draw(st.lists(st.sampled_from(EQUIPMENT), max_size=4)):
        slot = CAT.equipment[eid].category == "slot"
        mount = draw(st.sampled_from(LOCATION_ORDER[:-1])) if slot else None
        out.append(attrs.evolve(gear(eid, mount), destroyed=slot and draw(st.booleans())))
    return tuple(out)


@st.composite
def battles(draw: st.DrawFn) -> tuple[Battle, int, bool, bool]:
    terrain = tuple(draw(st.sampled_from(TERRAIN)) for _ in range(W * H))
    cells = draw(
        st.lists(
            st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)),
            min_size=3,
            max_size=3,
            unique=True,
        )
    )
    (ac, ar), (tc, tr), (sc, sr) = cells
    hits = tuple(draw(st.integers(0, 3)) for _ in range(7))
    me = shooter(
        pos=from_offset(ac, ar),
        pilot=attrs.evolve(shooter().pilot, gunnery=draw(st.integers(0, 10))),
        sensor_hit=draw(st.booleans()),
        cockpit_breached=draw(st.booleans()),
        actuator_hits=hits,
        equipment=draw(gear_list()),
    )
    them = make_unit(
        "raider-2",
        chassis=draw(st.sampled_from(sorted(CAT.chassis))),
        pos=from_offset(tc, tr),
        braced=draw(st.booleans()),
        ecm_active=draw(st.booleans()),
        equipment=draw(gear_list()),
    )
    friend = make_unit(
        "spotter", side="player", pos=from_offset(sc, sr), destroyed=draw(st.booleans())
    )
    uplinks = tuple(
        Uplink(side=side, target="raider-2")
        for side in draw(st.lists(st.sampled_from(SIDES), max_size=2))
    )
    b = Battle(
        map=BattleMap(W, H, terrain),
        units=(me, them, friend),
        sides=(SideInfo(side="player", ai=False), SideInfo(side="enemy", ai=True)),
        difficulty=1,
        landscape="habitable",
        phase="combat",
        uplinks=uplinks,
    )
    return b, draw(st.integers(0, len(me.weapons) - 1)), draw(st.booleans()), draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(case=battles())
def test_hit_chance_properties(case: tuple[Battle, int, bool, bool]) -> None:
    b, index, called, overwatch = case
    me, them = b.unit("shooter"), b.unit("raider-2")
    ws = me.weapons[index]
    hc = hit_chance(b, me, them, ws, called_shot=called, overwatch=overwatch)
    assert me.pos is not None and them.pos is not None
    in_range = distance(me.pos, them.pos) <= stats.weapon_range(stats.weapon_of(ws))
    assert (hc is not None) == in_range
    if hc is None:
        return
    acc = CAT.combat.accuracy
    total = sum(m.value for m in hc.modifiers)
    assert hc.total == total
    assert acc.min_chance <= hc.chance <= acc.max_chance
    assert hc.chance == max(acc.min_chance, min(acc.max_chance, total))
    assert names(hc)[:4] == ["base", "gunnery", "evasion", "range"]
    assert len(set(names(hc))) == len(hc.modifiers)
    assert all(m.value != 0 for m in hc.modifiers[4:])
    assert not ("LOS" in names(hc) and "indirect" in names(hc))


@settings(max_examples=200, deadline=None)
@given(case=battles(), seed=st.integers(0, 2**64 - 1))
def test_resolve_attack_properties(case: tuple[Battle, int, bool, bool], seed: int) -> None:
    b, index, called, overwatch = case
    copy = attrs.evolve(b)
    me, them = b.unit("shooter"), b.unit("raider-2")
    hc = hit_chance(b, me, them, me.weapons[index], called_shot=called, overwatch=overwatch)
    if hc is None:
        return
    where = "center_torso" if called else None
    after, result = resolve_attack(
        b,
        "shooter",
        "raider-2",
        index,
        Dice(RngState(seed=seed)),
        called_location=where,
        overwatch=overwatch,
    )
    assert b == copy
    assert result.chance == hc.chance and result.modifiers == hc.modifiers
    assert result.hit == (result.roll <= result.chance)
    assert 1 <= result.roll <= 100
    assert (result.damage is not None) == (result.hit and not result.intercepted)
    assert result.intercepted <= (stats.weapon_of(me.weapons[index]).type == "missile")
    if called and result.location is not None:
        assert result.location == "center_torso"
    if result.damage is None:
        assert after == b
    else:
        assert after.unit("shooter") == me
        assert after.units[2] == b.units[2]
    assert isinstance(result.describe(), str)
