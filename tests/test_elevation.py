"""Optional module O2, Elevation and falling (optional-rules.md O2.1-O2.10), rule by rule.

The maps are hand-drawn: three rows of fourteen Open hexes, as in `test_attack.py`, with a row
of ground levels laid over them. On row 1 of an odd-r map ``from_offset(col, 1) == Hex(col,
1)``, so a line along the row has the columns in between as its intervening hexes, step i at
column i. Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui import game
from mac_tui.catalog import catalog
from mac_tui.combat import elevation, stats
from mac_tui.combat.actions import check_equipment
from mac_tui.combat.attack import hit_chance, resolve_attack, spotter
from mac_tui.combat.commands import UseEquipment
from mac_tui.combat.elevation import (
    Fell,
    attack_distance,
    distance3,
    fall,
    generate_levels,
    height_at,
    height_line,
    height_modifier,
    jump_length,
    line_blocked,
    step_cost,
    walkable_joined,
)
from mac_tui.combat.firing import LINE_BLOCKED, overwatch_target, plan_fire
from mac_tui.combat.mapgen import BattleMap, interior_indices
from mac_tui.combat.movement import check_move, reach
from mac_tui.combat.preview import fire_preview
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import LOC_INDEX, Battle, SideInfo, Unit
from mac_tui.core import Accepted
from mac_tui.dice import MAP, MAP_ELEVATION, Dice, RngState
from mac_tui.hexgrid import Hex, distance, from_offset, line_steps
from mac_tui.players import battlelog
from mac_tui.players.ai import decide
from mac_tui.players.sim import play
from mac_tui.ruleset import PLAYABLE

from .test_damage import ScriptedDice, component, gear, make_unit, weapon

CAT = catalog()
O2 = ("O2",)
WIDTH = 14
OPEN_ROWS = ("." * WIDTH,) * 3
FLAT = "0" * WIDTH


def at(col: int, row: int = 1) -> Hex:
    return from_offset(col, row)


def levels(row1: str, row0: str = FLAT, row2: str = FLAT) -> tuple[int, ...]:
    """The ground levels of the three rows; `row1` the one the shots run along."""
    return tuple(int(c) for c in row0 + row1 + row2)


def battle(*units: Unit, row1: str = FLAT, rules: tuple[str, ...] = O2, **kw: Any) -> Battle:
    return battle_on(OPEN_ROWS, levels(row1), *units, rules=rules, **kw)


def battle_on(
    rows: Sequence[str],
    heights: Sequence[int],
    *units: Unit,
    rules: tuple[str, ...] = O2,
    **kw: Any,
) -> Battle:
    """A battle in combat on the hand-drawn terrain `rows` with the ground levels `heights`
    (row-major), played under `rules`."""
    bmap = attrs.evolve(BattleMap.from_rows(list(rows)), levels=tuple(heights))
    return Battle(
        map=bmap,
        units=units,
        sides=(SideInfo(side="player", ai=False), SideInfo(side="enemy", ai=True)),
        difficulty=1,
        landscape="habitable",
        phase="combat",
        ruleset=rules,
        **kw,
    )


def enforcer(col: int = 0, **changes: Any) -> Unit:
    """Ghost's Enforcer (gunnery 4, +8) with an AC-5 (Long, accuracy 80)."""
    return make_unit(
        "ghost",
        side="player",
        chassis="EN-50",
        gunnery=4,
        weapons=(weapon("autocannon_5", "left_arm"),),
        **{"pos": at(col), **changes},
    )


def raider(col: int = 6, uid: str = "raider", **changes: Any) -> Unit:
    """A Raider (evasion 22; legs: 15 armour, 6 structure)."""
    return make_unit(uid, **{"pos": at(col), **changes})


def chance(b: Battle, attacker: str = "ghost", target: str = "raider") -> Any:
    a = b.unit(attacker)
    return hit_chance(b, a, b.unit(target), a.weapons[0])


# --- data -------------------------------------------------------------------------------------
def test_every_number_of_o2_is_data_with_its_rule_id() -> None:
    e = CAT.elevation
    assert e.module == "O2"
    assert (e.levels.rule, e.levels.min, e.levels.max) == ("O2.1", 0, 3)
    assert (e.movement.rule, e.movement.climb_cost, e.movement.max_step) == ("O2.3", 1, 1)
    assert (e.jump.rule, e.jump.reach_per_level_up) == ("O2.4", 1)
    assert (e.height_line.rule, e.height_line.eye, e.height_line.target) == ("O2.6", 2, 1)
    assert e.height_line.structure_target == -1
    assert (e.height_modifier.rule, e.height_modifier.per_level, e.height_modifier.clamp) == (
        "O2.7",
        5,
        10,
    )
    assert (e.falling.rule, e.falling.damage_per_level, e.falling.location) == ("O2.8", 5, "legs")
    table = {r.id: (r.hills, r.peak_min, r.peak_max, r.mesas, r.mesa_level) for r in e.landscape}
    assert table == {  # O2.2's table
        "habitable": (4, 1, 3, 0, 0),
        "industrial": (1, 1, 2, 2, 2),
        "mining": (3, 1, 3, 2, 2),
        "station": (0, 0, 0, 3, 1),
        "outpost": (3, 1, 2, 1, 2),
    }
    assert {r.rule for r in e.landscape} == {"O2.2"}
    assert "O2" in PLAYABLE


def test_a_broken_elevation_table_is_refused_with_its_file_entry_and_field(tmp_path: Any) -> None:
    from mac_tui.catalog import DataError, data_dir, load_catalog

    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "elevation.toml").write_text(
        '[[landscape]]\nrule = "O2.2"\nid = "mining"\npeak_max = 7\n', encoding="utf-8"
    )
    with pytest.raises(DataError, match=r'landscape "mining".*peak_min'):
        load_catalog(data_dir(), mods=[mod])
    (mod / "elevation.toml").write_text('[falling]\nrule = "O2.7"\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"falling.*rule"):
        load_catalog(data_dir(), mods=[mod])


# --- O2.1 levels and heights ------------------------------------------------------------------
def test_a_frame_stands_at_its_hexs_height_and_a_flat_map_is_level_0() -> None:
    b = battle(row1="0123" + "0" * 10)
    assert [height_at(b, at(c)) for c in range(5)] == [0, 1, 2, 3, 0]
    assert height_at(b, Hex(40, 40)) == 0  # off the map
    flat = attrs.evolve(b, map=attrs.evolve(b.map, levels=()))
    assert height_at(flat, at(3)) == 0


def test_a_map_refuses_levels_of_the_wrong_size() -> None:
    bmap = BattleMap.from_rows(list(OPEN_ROWS))
    with pytest.raises(ValueError, match="levels has 3 entries"):
        attrs.evolve(bmap, levels=(0, 1, 2))


# --- O2.2 generation --------------------------------------------------------------------------
class ScriptedMap(Dice):
    """Answers `choice` and `between` on `map.elevation` from a script of values."""

    def __init__(self, *values: int) -> None:
        super().__init__(RngState(seed=0))
        self.values = list(values)

    def below(self, stream: str, n: int) -> int:
        assert stream == MAP_ELEVATION
        value = self.values.pop(0)
        assert 0 <= value < n
        return value


def test_the_counts_are_rates_per_100_interior_hexes_rounded_half_up() -> None:
    # A small map (12 x 10) has 8 x 10 = 80 interior hexes.
    assert len(interior_indices(12, 10, 2)) == 80
    assert elevation._share(4, 80) == 3  # Habitable hills: (320 + 50) / 100 = 3.7 -> 3
    assert elevation._share(2, 80) == 2  # Mining mesas: (160 + 50) / 100 -> 2
    assert elevation._share(3, 80) == 2  # Station mesas: (240 + 50) / 100 -> 2
    assert elevation._share(1, 80) == 1  # Industrial hills: (80 + 50) / 100 -> 1
    assert elevation._share(2, 150) == 3  # 300 + 50 = 350 -> 3


def test_a_hill_is_a_cone_of_slope_1_capped_by_the_taper() -> None:
    # Habitable on a small map: 3 hills. The index into the 80 interior hexes (row-major:
    # 8 a row, columns 2-9) and the peak's offset in 1-3 are scripted. Hill 1 at interior index
    # 44 = row 5, column 2 + 4 = 6, peak 3; hills 2 and 3 at the same centre, peak 1 (no
    # change).
    dice = ScriptedMap(44, 2, 44, 0, 44, 0)
    got = generate_levels(dice, 12, 10, "habitable")
    centre = from_offset(6, 5)
    for i, h in enumerate(from_offset(c, r) for r in range(10) for c in range(12)):
        to_zone = min(min(h.q + (h.r - (h.r & 1)) // 2 - 1, 10 - (h.q + (h.r - (h.r & 1)) // 2)), 9)
        cone = max(3 - distance(h, centre), 0)
        assert got[i] == max(0, min(cone, to_zone)), h
    assert got[5 * 12 + 6] == 3  # the peak: 4 columns from either zone, so not capped
    assert max(got[r * 12 + c] for r in range(10) for c in (0, 1, 10, 11)) == 0
    assert not dice.values


def test_mesas_that_wall_the_zones_apart_are_removed_last_placed_first() -> None:
    # Station on a small map: 0 hills, 2 mesas of level 1 ("decks, climbable") never wall.
    # Walls need level 2: check the rule on hand-made levels instead.
    wall = [0] * 120
    for row in range(10):
        wall[row * 12 + 5] = 2
    assert not walkable_joined(wall, 12, 10)
    wall[9 * 12 + 5] = 1  # a ramp at the bottom row
    assert walkable_joined(wall, 12, 10)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32),
    st.sampled_from(["habitable", "industrial", "mining", "station", "outpost"]),
    st.sampled_from([(12, 10), (16, 12), (20, 14)]),
)
def test_generation_always_leaves_the_deployment_zones_joined(
    seed: int, landscape: str, size: tuple[int, int]
) -> None:
    width, height = size
    dice = Dice(RngState(seed=seed))
    got = generate_levels(dice, width, height, landscape)
    assert walkable_joined(got, width, height)
    assert all(0 <= v <= CAT.elevation.levels.max for v in got)
    for row in range(height):  # the deployment zones are level 0
        for col in (0, 1, width - 2, width - 1):
            assert got[row * width + col] == 0
    # only map.elevation was drawn from
    assert set(dict(dice.state().counters)) <= {MAP_ELEVATION}


def test_an_o2_battle_keeps_the_core_terrain_and_deployment_and_adds_levels() -> None:
    core = make_state(11, 3, landscape="mining")
    o2 = make_state(11, 3, landscape="mining", ruleset=O2)
    assert core.battle is not None and o2.battle is not None
    assert o2.battle.map.terrain == core.battle.map.terrain
    assert [u.pos for u in o2.battle.units] == [u.pos for u in core.battle.units]
    assert not core.battle.map.levels and len(o2.battle.map.levels) == 16 * 12
    counters = dict(o2.rng.counters)
    assert counters[MAP] == dict(core.rng.counters)[MAP]
    assert MAP_ELEVATION in counters and MAP_ELEVATION not in dict(core.rng.counters)
    assert o2.battle.ruleset == O2


# --- O2.3 movement ----------------------------------------------------------------------------
def test_climbing_one_level_costs_1_more_going_down_nothing_and_2_levels_never() -> None:
    b = battle(raider(1), enforcer(10), row1="0" + "0" + "1" + "2" + "1" + "0" * 9)
    u = b.unit("raider")
    assert step_cost(b, at(1), at(2)) == 1  # one up: +1
    assert step_cost(b, at(2), at(1)) == 0  # one down: free
    assert step_cost(b, at(1), at(3)) is None  # not adjacent, but 2 up: barred either way
    assert step_cost(b, at(3), at(2)) == 0
    assert step_cost(b, at(2), at(3)) == 1
    reached = reach(b, u)
    # Raider: a light frame moves 4 hexes; along row 1: 2 (open, +1 climb) costs 2, 3 costs 4.
    assert reached[at(2)][0] == 2
    assert reached[at(3)][0] == 4
    assert stats.hex_movement(u) == 4
    # and the core ruleset walks it flat
    assert reach(attrs.evolve(b, ruleset=()), u)[at(3)][0] == 2


def test_a_step_two_levels_up_or_down_cannot_be_walked_but_the_way_round_can() -> None:
    # Row 1: a level-2 mesa at column 3 beside level-0 ground; rows 0 and 2 flat.
    b = battle(raider(2), enforcer(10), row1="0002" + "0" * 10)
    u = b.unit("raider")
    reached = reach(b, u)
    assert at(3) not in reached
    why = check_move(b, u, at(3), False)
    assert isinstance(why, str) and "out of move range" in why
    # From the mesa, no step down either: a frame on it (placed) is stuck on row 1's column 3.
    top = attrs.evolve(u, pos=at(3))
    stuck = attrs.evolve(b, units=(top, b.unit("ghost")))
    assert set(reach(stuck, top)) == {at(3)}
    # Around it: column 4 of row 1 by rows 0/2 costs more than 2 steps
    assert reached[at(4)][0] == 3


# --- O2.4 jumps -------------------------------------------------------------------------------
def test_a_jump_counts_each_level_up_against_its_reach_and_any_drop_is_safe() -> None:
    pack = gear("thrust_pack")
    b = battle(
        raider(0, equipment=(pack,)), enforcer(12), row1="0" + "0" + "1" + "2" + "3" + "0" * 9
    )
    u = b.unit("raider")
    assert jump_length(b, at(0), at(2)) == 3  # 2 hexes + 1 level
    assert check_equipment(b, u, "thrust_pack", None, at(2)) is None
    assert jump_length(b, at(0), at(3)) == 5  # 3 hexes + 2 levels > 3
    why = check_equipment(b, u, "thrust_pack", None, at(3))
    assert why is not None and "reaches 3 hexes" in why and "level up" in why
    high = attrs.evolve(b, units=(attrs.evolve(u, pos=at(4)), b.unit("ghost")))
    assert jump_length(high, at(4), at(7)) == 3  # 3 levels down: the drop costs nothing
    assert check_equipment(high, high.unit("raider"), "thrust_pack", None, at(7)) is None
    # the jump ignores the step limit (O2.4) and does no damage
    state = make_state(0, 1)
    state = attrs.evolve(state, battle=attrs.evolve(high, order=("raider", "ghost")))
    out = game.step(state, UseEquipment(equipment="thrust_pack", hex=at(7)))
    assert isinstance(out, Accepted)
    assert out.state.battle is not None
    landed = out.state.battle.unit("raider")
    assert landed.pos == at(7) and landed.armor == u.armor
    assert not any(isinstance(e, Fell) for e in out.events)
    # O2 off: the plain hex distance
    assert jump_length(attrs.evolve(b, ruleset=()), at(0), at(3)) == 3


# --- O2.5 d3 ----------------------------------------------------------------------------------
def test_the_o2_example_d3_8_puts_the_ac5_in_its_optimal_band_and_hits_on_86() -> None:
    # Ghost's Enforcer on level 2, a Raider on level 0 at hex distance 6: d3 = 6 + 2 = 8, so
    # the AC-5 (Long: optimal 7-10) gets +10 (at 6 it would be +5). 80 + 8 - 22 + 10 + 10
    # (height: +5 x 2) = 86.
    b = battle(enforcer(0), raider(6), row1="2" + "0" * 13)
    assert distance3(b, at(0), at(6)) == 8
    hc = chance(b)
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("base", 80),
        ("gunnery", 8),
        ("evasion", -22),
        ("range", 10),
        ("height", 10),
    ]
    assert hc.chance == 86
    assert "d3 8 (6 hexes + 2 levels)" in hc.modifiers[3].detail
    flat = chance(attrs.evolve(b, ruleset=()))
    assert flat.value("range") == 5 and flat.value("height") is None and flat.chance == 71


def test_d3_serves_the_spotter_the_uplink_and_overwatchs_nearest() -> None:
    spot_range = CAT.combat.accuracy.indirect_spotter_range
    # A spotter `spot_range` hexes away on level 1 is 1 too far by d3.
    row1 = "0" * spot_range + "1" + "0" * (WIDTH - spot_range - 1)
    lrm = make_unit(
        "lrm", side="player", chassis="EN-50", weapons=(weapon("lrm_15", "left_torso"),)
    )
    target = raider(0)
    near = make_unit("spot", side="player", pos=at(spot_range))
    b = battle(target, attrs.evolve(lrm, pos=at(13, 2)), near, row1=row1)
    assert spotter(b, b.unit("lrm"), b.unit("raider")) is None
    assert spotter(attrs.evolve(b, ruleset=()), b.unit("lrm"), b.unit("raider")) is not None
    # The uplink (R11, range 4) measures d3 too.
    uplink = CAT.equipment["targeting_uplink"]
    up = make_unit(
        "up", side="player", chassis="RD-30", pos=at(uplink.range), equipment=(gear(uplink.id),)
    )
    b2 = battle(target, up, row1="0" * uplink.range + "1" + "0" * (WIDTH - uplink.range - 1))
    why = check_equipment(b2, b2.unit("up"), uplink.id, "raider", None)
    assert why is not None and "beyond" in why
    assert (
        check_equipment(attrs.evolve(b2, ruleset=()), b2.unit("up"), uplink.id, "raider", None)
        is None
    )
    # R4: overwatch fires at the nearest by d3. Ghost on level 3 at column 0 (its own hill,
    # columns 1-2 level 3 too so nothing blocks), `low` at column 3 on level 0: d3 3 + 3 = 6;
    # `far` at column 5 on level 3: d3 5 + 0 = 5, nearer.
    g = enforcer(0)
    low, far = raider(3, uid="low"), raider(5, uid="far")
    b3 = battle(g, low, far, row1="3330033" + "0" * 7)
    assert attack_distance(b3, at(0), at(3)) == 6 and attack_distance(b3, at(0), at(5)) == 5
    target3 = overwatch_target(b3, b3.unit("ghost"), 1)
    assert target3 is not None and target3.id == "far"


# --- O2.6 the height line ---------------------------------------------------------------------
def test_the_o2_example_a_level_1_hex_at_step_4_is_clear_a_level_2_one_blocks() -> None:
    # E = 2 x 2 + 2 = 6, T = 2 x 0 + 1 = 1, N = 6; at i = 4: 2 x 1 x 6 = 12 > 6 x 2 + 1 x 4 =
    # 16 is false: clear; 2 x 2 x 6 = 24 > 16: blocks.
    clear = battle(enforcer(0), raider(6), row1="2" + "000" + "1" + "0" * 9)
    steps = height_line(clear, at(0), at(6))
    assert [(s.index, s.height, s.blocks) for s in steps] == [
        (1, 0, False),
        (2, 0, False),
        (3, 0, False),
        (4, 1, False),
        (5, 0, False),
    ]
    blocked = battle(enforcer(0), raider(6), row1="2" + "000" + "2" + "0" * 9)
    assert [s.blocks for s in height_line(blocked, at(0), at(6))] == [False] * 3 + [True, False]
    assert line_blocked(blocked, at(0), at(6))
    # no direct attack past it: the AC-5 is skipped with the reason, and no hit chance
    g = blocked.unit("ghost")
    assert chance(blocked) is None
    plan = plan_fire(blocked, g, 1, blocked.unit("raider"), False)
    assert plan.shots == () and plan.skipped == ((0, LINE_BLOCKED),)
    # the targeting preview marks the blocking hex
    preview = fire_preview(blocked, g, 1, "raider")
    assert [s.blocks for s in preview.los] == [False] * 3 + [True, False]
    assert [s.height for s in preview.los] == [0, 0, 0, 2, 0]


def test_a_level_1_hill_hides_two_level_0_frames_from_each_other() -> None:
    b = battle(enforcer(0), raider(2), row1="010" + "0" * 11)
    # N = 2, E = 2, T = 1; i = 1, H = 1: 4 > 2 + 1 = 3
    assert line_blocked(b, at(0), at(2)) and line_blocked(b, at(2), at(0))
    # a frame on level 1 sees over level-1 ground in the nearer two-thirds of the line:
    # E = 4, T = 1, N = 6, H = 1: 12 > 4 (6 - i) + i = 24 - 3i  <=>  i > 4
    for i in range(1, 6):
        row1 = "1" + "0" * (i - 1) + "1" + "0" * (WIDTH - i - 1)
        hill = battle(enforcer(0), raider(6), row1=row1)
        assert line_blocked(hill, at(0), at(6)) == (i == 5), i
    # frames never block
    b2 = battle(enforcer(0), raider(6), raider(3, uid="between"))
    assert not line_blocked(b2, at(0), at(6))


def test_grazing_does_not_block() -> None:
    # E = 2 x 1 + 2 = 4, T = 2 x 0 + 1 = 1, N = 3; i = 2, H = 1: 2 x 1 x 3 = 6 > 4 + 2 = 6 no
    b = battle(enforcer(0), raider(3), row1="101" + "0" * 11)
    assert [(s.index, s.height, s.blocks) for s in height_line(b, at(0), at(3))] == [
        (1, 0, False),
        (2, 1, False),
    ]


def test_where_the_line_runs_along_an_edge_the_higher_hex_counts() -> None:
    # The first line from column 1 of row 1 that runs along an edge somewhere: put level 3 on
    # one of the two hexes of that step (from level 0 to level 0, it blocks both ways).
    src = from_offset(1, 1)
    grid = BattleMap.from_rows(list(OPEN_ROWS))
    for dst in grid.grid.hexes():
        steps = line_steps(src, dst)
        doubles = [s for s in steps[1:-1] if len(s) == 2]
        if doubles and all(grid.contains(h) for s in steps for h in s):
            break
    pair = doubles[0]
    rows = [list(FLAT) for _ in range(3)]
    hi = pair[1]
    col = hi.q + (hi.r - (hi.r & 1)) // 2
    rows[hi.r][col] = "3"
    b = battle_on(OPEN_ROWS, [int(c) for r in rows for c in r])
    step = next(s for s in height_line(b, src, dst) if set(s.hexes) == set(pair))
    assert step.height == 3 and step.blocks
    assert line_blocked(b, src, dst) and line_blocked(b, dst, src)


LEVEL_ROWS = st.lists(st.integers(0, 3), min_size=3 * WIDTH, max_size=3 * WIDTH)


@settings(max_examples=60, deadline=None)
@given(
    LEVEL_ROWS,
    st.tuples(st.integers(0, WIDTH - 1), st.integers(0, 2)),
    st.tuples(st.integers(0, WIDTH - 1), st.integers(0, 2)),
)
def test_the_height_line_is_symmetric_where_the_document_says(
    grid: list[int], p: tuple[int, int], q: tuple[int, int]
) -> None:
    """G5: the same hexes and heights both ways. O2.6: between two frames on the same height a
    hex blocks exactly when it is higher than they are, so they see each other or not alike."""
    b = battle_on(OPEN_ROWS, grid)
    a, z = from_offset(*p), from_offset(*q)
    there = height_line(b, a, z)
    back = height_line(b, z, a)
    assert [(set(s.hexes), s.height) for s in there] == [
        (set(s.hexes), s.height) for s in reversed(back)
    ]
    # the quick verdict is the steps' verdict, both ways
    assert line_blocked(b, a, z) == any(s.blocks for s in there)
    assert line_blocked(b, z, a) == any(s.blocks for s in back)
    if height_at(b, a) == height_at(b, z):
        higher = any(s.height > height_at(b, a) for s in there)
        assert line_blocked(b, a, z) == line_blocked(b, z, a) == higher


def test_indirect_fire_ignores_blocking_at_its_flat_minus_20_if_its_spotter_sees() -> None:
    lrm = make_unit(
        "lrm",
        side="player",
        chassis="EN-50",
        gunnery=4,
        weapons=(weapon("lrm_15", "left_torso"),),
        pos=at(0),
    )
    target = raider(8)
    wall = "0000" + "2" + "0" * 9
    b = battle(lrm, target, row1=wall)
    assert line_blocked(b, at(0), at(8))
    assert hit_chance(b, b.unit("lrm"), b.unit("raider"), b.unit("lrm").weapons[0]) is None
    # a spotter at column 10 (2 hexes from the target, level 0, nothing between): allowed
    spot = make_unit("spot", side="player", pos=at(10))
    b2 = battle(lrm, target, spot, row1=wall)
    hc = hit_chance(b2, b2.unit("lrm"), b2.unit("raider"), b2.unit("lrm").weapons[0])
    assert hc is not None
    assert hc.value("indirect") == -CAT.combat.accuracy.indirect_fire
    assert hc.value("LOS") is None
    # a spotter whose own line is blocked does not count
    b3 = battle(lrm, target, attrs.evolve(spot, pos=at(10)), row1=wall[:9] + "2" + wall[10:])
    assert spotter(b3, b3.unit("lrm"), b3.unit("raider")) is None


# --- O2.7 the height modifier -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [(2, 0, 10), (1, 0, 5), (0, 1, -5), (3, 0, 10), (0, 3, -10), (2, 2, 0)],
)
def test_height_is_5_a_level_clamped_to_10(mine: int, theirs: int, expected: int) -> None:
    b = battle(enforcer(0), raider(3), row1=f"{mine}00{theirs}" + "0" * 10)
    assert height_modifier(b, at(0), at(3)) == expected
    hc = chance(b)
    assert hc.value("height") == (expected or None)
    assert hc.modifiers[-1].name == ("height" if expected else hc.modifiers[-1].name)


def test_height_comes_after_every_core_entry_overwatch_included() -> None:
    b = battle(enforcer(0), raider(3, braced=True), row1="1" + "0" * 13)
    a = b.unit("ghost")
    hc = hit_chance(b, a, b.unit("raider"), a.weapons[0], overwatch=True)
    assert hc is not None
    assert [m.name for m in hc.modifiers][-2:] == ["overwatch", "height"]


# --- O2.8 falling -----------------------------------------------------------------------------
def test_a_1_level_fall_deals_5_to_the_legs_as_one_hit() -> None:
    # O2 example: on a collapsing Low roof the Raider falls 1 level: 5 to its legs, 15 -> 10.
    b = battle(raider(3), row1="0001" + "0" * 10)
    dice = ScriptedDice()  # armour only: no component roll, no draw
    after, events = fall(b, "raider", 1, dice)
    legs = LOC_INDEX["legs"]
    assert after.unit("raider").armor[legs] == 10
    assert len(events) == 1 and isinstance(events[0], Fell)
    ev = events[0]
    assert (ev.unit, ev.levels, ev.damage.total) == ("raider", 1, 5)
    assert "falls 1 level" in ev.describe()


def test_a_frame_without_legs_falls_on_its_centre_torso_and_the_cascade_rolls() -> None:
    legs, ct = LOC_INDEX["legs"], LOC_INDEX["center_torso"]
    r = raider(3)
    armor = list(r.armor)
    structure = list(r.structure)
    structure[legs] = 0
    armor[legs] = 0
    armor[ct] = 4
    r = attrs.evolve(r, armor=tuple(armor), structure=tuple(structure))
    b = battle(r)
    # 2 levels: 10 to the centre torso: 4 armour, then 6 into 7 structure -> a component roll
    dice = ScriptedDice(component(99))
    after, events = fall(b, "raider", 2, dice)
    got = after.unit("raider")
    assert got.armor[ct] == 0 and got.structure[ct] == r.structure[ct] - 6
    assert events[0].damage.total == 10  # type: ignore[attr-defined]


def test_no_fall_no_event_no_draw() -> None:
    b = battle(raider(3))
    assert fall(b, "raider", 0, ScriptedDice()) == (b, [])


# --- O2.9 logs --------------------------------------------------------------------------------
def test_the_battle_log_carries_levels_heights_and_blocks_only_with_o2() -> None:
    b = battle(enforcer(0), raider(6), row1="2" + "0" * 13)
    head = battlelog.header(b, 7)
    assert head["map"]["levels"] == [FLAT, "2" + "0" * 13, FLAT]
    after, result = resolve_attack(b, "ghost", "raider", 0, ScriptedDice((100, 99)))
    del after
    data = json.loads(battlelog.dumps(battlelog.event_record(_attacked(result))))["result"]
    assert data["distance"] == 8 and data["height"] == [2, 0]
    assert [(e["height"], e.get("blocks", False)) for e in data["intervening"]] == [(0, False)] * 5
    # the core game: none of these keys, the plain distance
    core = attrs.evolve(b, ruleset=(), map=attrs.evolve(b.map, levels=()))
    assert "levels" not in battlelog.header(core, 7)["map"]
    _, flat = resolve_attack(core, "ghost", "raider", 0, ScriptedDice((100, 99)))
    data = json.loads(battlelog.dumps(battlelog.event_record(_attacked(flat))))["result"]
    assert "height" not in data and data["distance"] == 6
    assert all("height" not in e and "blocks" not in e for e in data["intervening"])


def _attacked(result: Any) -> Any:
    from mac_tui.combat.events import Attacked

    return Attacked(result=result)


# --- whole battles ----------------------------------------------------------------------------
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([1, 3, 5]))
def test_o2_battles_between_ais_end_and_replay_to_the_same_log(seed: int, difficulty: int) -> None:
    logs = []
    for _ in range(2):
        log: list[str] = []
        end, _ = play(
            make_state(seed, difficulty, ruleset=O2), {"player": decide, "enemy": decide}, log=log
        )
        assert end.battle is not None and end.battle.phase == "over"
        logs.append(log)
    assert logs[0] == logs[1]
    assert '"levels"' in logs[0][0]


def test_the_o0_example_d3_5_and_height_plus_5() -> None:
    # O0's example, its O2 entries: Falcon (gunnery 5, +10) in her Raider on level 1 fires a
    # Medium Laser (accuracy 80, Medium: optimal 4-7) at an Enforcer (evasion 13) on level 0,
    # 4 hexes away: d3 = 5, range +10, height +5. (Her `rear` +10 and `moving` -25 belong to
    # O4 and O5.) Standing: 80 + 10 - 13 + 10 + 5 = 92.
    falcon = make_unit(
        "falcon",
        side="player",
        chassis="RD-30",
        gunnery=5,
        weapons=(weapon("medium_laser", "right_torso"),),
        pos=at(0),
    )
    enforcer_ = make_unit("enforcer", chassis="EN-50", pos=at(4))
    b = battle(falcon, enforcer_, row1="1" + "0" * 13)
    hc = chance(b, "falcon", "enforcer")
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("base", 80),
        ("gunnery", 10),
        ("evasion", -13),
        ("range", 10),
        ("height", 5),
    ]
    assert hc.chance == 92 and distance3(b, at(0), at(4)) == 5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=3 * WIDTH, max_size=3 * WIDTH), st.integers(0, 8))
def test_reachable_steps_with_a_cost_that_ignores_the_way_in_is_reachable(
    costs: list[int], budget: int
) -> None:
    """`hexgrid.reachable_steps` (O2.3's edge costs) settles as `reachable` does."""
    from mac_tui.hexgrid import reachable, reachable_steps

    grid = BattleMap.from_rows(list(OPEN_ROWS))

    def cost(h: Hex) -> int | None:
        if not grid.contains(h):
            return None
        q, r = h
        c = costs[r * WIDTH + q + (r - (r & 1)) // 2]
        return None if c == 0 else c

    start = at(5)
    assert reachable_steps(start, budget, lambda _, h: cost(h)) == reachable(start, budget, cost)


# --- R30 under O2 (ruling O2d) ----------------------------------------------------------------
def _legless(u: Unit) -> Unit:
    structure = list(u.structure)
    structure[LOC_INDEX["legs"]] = 0
    return attrs.evolve(u, structure=tuple(structure))


def test_two_legless_frames_a_hill_hides_from_each_other_are_a_stalemate() -> None:
    """Ruling O2d: a level-1 hill hides two level-0 frames from each other (O2.6: 2*1*6 = 12 >
    2*3 + 1*3 = 9 at step 3), for good when neither can move: R30 ends the battle, though each
    is within the other's range by hex distance. Flat ground, or a weapon that fires
    indirectly (R10), keeps it going."""
    from mac_tui.combat.flow import check_end, stalemate

    laser = (weapon("medium_laser", "right_arm"),)
    pair = (_legless(enforcer(0)), _legless(raider(6, weapons=laser)))
    hill = "000" + "1" + "0" * (WIDTH - 4)
    hidden = attrs.evolve(battle(*pair, row1=hill), round=3)
    assert elevation.ground_blocked(hidden, at(0), at(6))
    found = stalemate(hidden)
    assert found is not None and [f[0] for f in found.frames] == ["ghost", "raider"]
    assert check_end(hidden)[0].result == "withdrawal"
    assert stalemate(battle(*pair)) is None  # flat: each reaches the other
    assert stalemate(battle(*pair, row1=hill, rules=())) is None  # O2 off: no hill
    lrm = _legless(attrs.evolve(enforcer(0), weapons=(weapon("lrm_15", "left_torso"),)))
    assert stalemate(battle(lrm, pair[1], row1=hill)) is None  # indirect fire may still reach
