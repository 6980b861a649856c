"""Optional module O3, destructible terrain and smoke (optional-rules.md O3.1-O3.13).

Battles are drawn by hand as in `test_attack.py`: on row 1 of an odd-r map
``from_offset(col, 1) == Hex(col, 1)``, so a line along the row crosses the columns between.
Every expected number is worked out by hand in the comments, from the document's tables.
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.catalog import catalog
from mac_tui.combat import stats
from mac_tui.combat.actions import check_equipment
from mac_tui.combat.attack import hit_chance, resolve_attack
from mac_tui.combat.commands import (
    AutoDeploy,
    FireGroup,
    FireStructure,
    StartBattle,
    UseEquipment,
)
from mac_tui.combat.features import (
    Section,
    Smoke,
    feature_count,
    generate_features,
    joined,
    new_section,
    passable,
    section_at,
)
from mac_tui.combat.firing import BLOCKED, check_fire, plan_fire
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.mapgen import BattleMap, generate_map
from mac_tui.combat.movement import check_move, reach
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.smoke import SmokeCleared, SmokeLaid, charges_left, countdown, lay_smoke
from mac_tui.combat.state import Battle
from mac_tui.combat.structures import (
    Exploded,
    StructureAttacked,
    StructureCollapsed,
    after_hit,
    check_fire_structure,
    collapse,
    damage_to,
    environment,
    fire_structure,
    structure_chance,
)
from mac_tui.core import Accepted
from mac_tui.dice import MAP_FEATURES, Dice, RngState
from mac_tui.game import parse_command, refusal, step
from mac_tui.hexgrid import Hex, from_offset, line_steps
from mac_tui.players import battlelog

from .rulebook import SHARED, Doc
from .test_attack import OPEN_ROWS, at, battle, raider, shooter
from .test_damage import ScriptedDice, d100, gear, location_draw, make_unit, weapon

CAT = catalog()
DATA = CAT.structures
OPTIONAL = Doc(SHARED / "optional-rules.md", "optional-rules.md")
O3 = "## O3 Destructible terrain and smoke"


def o3(b: Battle, *sections: Section, smoke: tuple[Smoke, ...] = ()) -> Battle:
    """`b` under O3 with these sections (row-major, as generation leaves them) and smoke."""
    ordered = tuple(sorted(sections, key=lambda s: (s.hex.r, s.hex.q)))
    return attrs.evolve(b, ruleset=("O3",), structures=ordered, smoke=smoke)


def ghost(col: int = 0, **changes: Any) -> Any:
    """Ghost (gunnery 4: +8) in an Enforcer with a Heavy Laser (base 75, long range)."""
    return make_unit(
        "ghost",
        side="player",
        chassis="EN-50",
        gunnery=4,
        weapons=(weapon("heavy_laser", "right_torso"), weapon("autocannon_5", "left_arm", 2)),
        **{"pos": at(col), **changes},
    )


# --- O3.1-O3.2: the features, as the document's table ---------------------------------------------
def _number(cell: str) -> int:
    m = re.search(r"[+-−]?\d+", cell.replace("−", "-"))
    assert m is not None, cell
    return int(m[0])


def test_feature_table_is_the_documents() -> None:
    """O3.2's table, row by row: height, durability (O3.1: GV / 10), entering, cover, LOS."""
    rows = OPTIONAL.table(O3, after="**O3.2 Features**")
    names = {f.name.lower(): f for f in DATA.feature}
    assert len(rows) == len(DATA.feature)
    for row in rows:
        name = row["Feature"].split(" (")[0].lower()
        f = names[name]
        assert f.height == _number(row["Height (O2)"]), name
        durability = row["Durability"]
        assert f.durability == (0 if durability == "indestructible" else int(durability)), name
        entering = row["Entering"]
        if "cost 2" in entering:
            assert (f.enter, f.move_cost) == ("walk", 2), name
        elif entering == "never":
            assert f.enter == "never", name
        else:  # "O2 off: never; on: by height", "by height", "as High"
            assert f.enter == "roof", name
        cover = row["Cover in it"]
        assert f.cover == (0 if cover in ("0", "–") else -_number(cover)), name
        los = row["LOS through it"]
        if "per hex" in los:
            assert (f.los, f.los_penalty) == ("penalty", -_number(los)), name
        elif los == "0":
            assert f.los == "none", name
        else:
            assert f.los == "block", name
        becomes = row["At 0 becomes"]
        assert f.becomes == (
            "" if becomes == "–" else names[becomes.split(", then ")[-1].lower()].id
        )
        assert f.explodes == ("explodes" in becomes)
        assert f.o2_only == ("O2 only" in row["Feature"])


def test_generation_rates_are_the_documents() -> None:
    """O3.4's table: features per 100 interior hexes, per landscape."""
    rows = OPTIONAL.table(O3, after="**O3.4 Generation**")
    columns = {"High": "high_building", "Low": "low_building", "Gantry": "gantry"}
    columns |= {"Barricade": "barricade", "Fuel tank": "fuel_tank"}
    for row in rows:
        rate = DATA.rate_of(row["Landscape"].lower())
        for col, fid in columns.items():
            assert rate.of(fid) == int(row[col]), (row["Landscape"], col)


def test_smoke_launcher_is_the_documents_o3_10() -> None:
    """O3.10: Space 2, Energy 2, Cost 15,000, a hex within 4, 3 rounds, 2 charges; an active
    item of module O3 (O0.11)."""
    item = CAT.equipment[DATA.smoke.launcher]
    assert (item.space, item.energy, item.price) == (2, 2, 15_000)
    assert (item.range, item.value, DATA.smoke.charges) == (4, 3, 2)
    assert (item.category, item.module) == ("active", "O3")
    assert (DATA.smoke.radius, DATA.smoke.penalty) == (1, 10)


# --- O3.3 variants --------------------------------------------------------------------------------
def test_weak_halves_durability_rounded_down() -> None:
    assert new_section(at(5), "high_building", "weak").durability == 50
    assert new_section(at(5), "low_building", "weak").durability == 25
    assert new_section(at(5), "gantry", "weak").durability == 10
    assert new_section(at(5), "high_building").durability == 100


def test_reinforced_takes_10_off_each_hit_never_below_0() -> None:
    reinforced = new_section(at(5), "low_building", "reinforced")
    assert damage_to(reinforced, "heavy_laser", 20) == 10
    assert damage_to(reinforced, "light_laser", 5) == 0


def test_volatile_doubles_energy_weapons_only() -> None:
    tank = new_section(at(5), "fuel_tank")
    assert damage_to(tank, "medium_laser", 10) == 20  # energy: doubled
    assert damage_to(tank, "autocannon_5", 10) == 10  # ballistic: as it is


def test_variant_rolls_tile_1_to_100() -> None:
    """01-25 Weak, 26-40 Reinforced, 41-00 standard."""
    spans = {v.id: (v.roll_min, v.roll_max) for v in DATA.variant}
    assert spans == {"weak": (1, 25), "reinforced": (26, 40), "standard": (41, 100)}


# --- O3.4 generation ------------------------------------------------------------------------------
def test_counts_round_half_up() -> None:
    # a small map has 8 x 10 = 80 interior hexes
    assert feature_count(1, 80) == 1  # 0.8 -> 1
    assert feature_count(3, 80) == 2  # 2.4 -> 2
    assert feature_count(2, 80) == 2  # 1.6 -> 2
    assert feature_count(3, 50) == 2  # 1.5 -> 2 (half up)


def test_habitable_small_map_gets_its_features_on_open_interior_hexes() -> None:
    """Habitable, 80 interior hexes: 1 High, 2 Low, 1 Barricade (no Gantry, no Fuel tank);
    a building is 1-3 sections."""
    dice = Dice(RngState(seed=11))
    bmap = generate_map(dice, 1, "habitable")
    sections = generate_features(dice, bmap, "habitable")
    kinds = [s.feature for s in sections]
    assert kinds.count("barricade") == 1
    assert 1 <= kinds.count("high_building") <= 3
    assert 2 <= kinds.count("low_building") <= 6
    assert set(kinds) <= {"high_building", "low_building", "barricade"}
    for s in sections:
        assert bmap.terrain_at(s.hex) == "open"
        assert not bmap.is_deployment(s.hex, "player") and not bmap.is_deployment(s.hex, "enemy")
    assert len({s.hex for s in sections}) == len(sections)  # one feature per hex


def test_gantries_only_with_o2() -> None:
    dice = Dice(RngState(seed=3))
    bmap = generate_map(dice, 5, "station")
    assert all(s.feature != "gantry" for s in generate_features(dice, bmap, "station"))


def test_a_placement_that_would_cut_the_map_is_skipped() -> None:
    """One row, 104 wide (100 interior hexes): any building or tank would cut the only path,
    so Industrial's 3 High, 3 Low and 2 Fuel tanks are all skipped; its 3 barricades stay."""
    bmap = BattleMap.from_rows(["." * 104])
    sections = generate_features(Dice(RngState(seed=5)), bmap, "industrial")
    assert [s.feature for s in sections] == ["barricade"] * 3


def test_o3_draws_only_from_map_features_and_keeps_the_core_terrain() -> None:
    """O0.6: the same seed gives the same terrain and deployment with O3 on or off."""
    core = make_state(21, 3, landscape="industrial")
    with_o3 = make_state(21, 3, landscape="industrial", ruleset=("O3",))
    assert core.battle is not None and with_o3.battle is not None
    assert core.battle.map == with_o3.battle.map
    # the same frames and deployment (an O3 stock loadout may be drawn instead: O0.11)
    assert [(u.id, u.chassis, u.pos) for u in core.battle.units] == [
        (u.id, u.chassis, u.pos) for u in with_o3.battle.units
    ]
    assert core.battle.structures == () and with_o3.battle.structures
    assert core.rng.counter(MAP_FEATURES) == 0
    assert with_o3.rng.counter(MAP_FEATURES) > 0
    for stream in ("map", "ai", "combat"):
        assert core.rng.counter(stream) == with_o3.rng.counter(stream)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    difficulty=st.integers(1, 5),
    landscape=st.sampled_from(["habitable", "industrial", "mining", "station", "outpost"]),
)
def test_generation_always_leaves_the_deployment_zones_joined(
    seed: int, difficulty: int, landscape: str
) -> None:
    dice = Dice(RngState(seed=seed))
    bmap = generate_map(dice, difficulty, landscape)
    sections = generate_features(dice, bmap, landscape)
    by_index = {
        s.hex.r * bmap.width + s.hex.q + (s.hex.r - (s.hex.r & 1)) // 2: s for s in sections
    }
    columns = CAT.maps.deployment.columns
    assert joined(bmap.width, bmap.height, columns, lambda i: passable(by_index.get(i)))


# --- entering, cover, LOS (O3.2) ------------------------------------------------------------------
def test_buildings_and_tanks_cannot_be_entered_with_o2_off() -> None:
    b = o3(battle(shooter(), raider(9)), new_section(at(2), "high_building"))
    assert check_move(b, b.unit("shooter"), at(2), False) == (
        "hex 2,1 is a high building: frames cannot enter it"
    )
    b = o3(battle(shooter(), raider(9)), new_section(at(1), "fuel_tank"))
    assert "cannot enter" in str(check_move(b, b.unit("shooter"), at(1), False))


def test_ruin_barricade_and_debris_cost_2_to_enter() -> None:
    """Entering a Ruin, Barricade or Debris hex costs 2 (Debris "as Rough", CORE §6.2)."""
    for kind in ("ruin", "barricade", "debris"):
        b = o3(battle(shooter(), raider(9)), new_section(at(1), kind))
        cost, _ = reach(b, b.unit("shooter"))[at(1)]
        assert cost == 2, kind


def test_a_ruin_gives_cover_10_and_costs_lines_3() -> None:
    """Cover in it -10 (a frame in the ruin); LOS through it -3 per hex."""
    base = battle(shooter(), raider(5))
    plain = hit_chance(
        base, base.unit("shooter"), base.unit("raider-2"), base.unit("shooter").weapons[0]
    )
    b = o3(base, new_section(at(3), "ruin"), new_section(at(5), "barricade"))
    hc = hit_chance(b, b.unit("shooter"), b.unit("raider-2"), b.unit("shooter").weapons[0])
    assert plain is not None and hc is not None
    assert hc.value("LOS") == -3
    assert hc.value("cover") == -10
    assert hc.total == plain.total - 13


def test_a_building_blocks_the_line() -> None:
    b = o3(battle(shooter(), raider(5)), new_section(at(3), "low_building"))
    s, r = b.unit("shooter"), b.unit("raider-2")
    assert hit_chance(b, s, r, s.weapons[0]) is None
    plan = plan_fire(b, s, 1, r, False)
    assert plan.shots == () and plan.skipped == ((0, BLOCKED),)
    assert check_fire(b, s, 1, "raider-2", None) == (
        f"no weapon of group 1 can fire at RAIDER-2: {BLOCKED}"
    )
    state = attrs.evolve(make_state(1, 1), battle=attrs.evolve(b, order=("shooter",), turn=0))
    assert FireGroup(1, "raider-2") not in legal_commands(state)


def test_indirect_fire_passes_a_blocked_line_at_its_flat_20() -> None:
    """R10 with O3.2: the LRM-15 fires at -20 over a building when a spotter sees the target."""
    b = o3(
        battle(shooter(), raider(6), make_unit("spotter", side="player", pos=at(6, 2))),
        new_section(at(3), "high_building"),
    )
    s = b.unit("shooter")
    hc = hit_chance(b, s, b.unit("raider-2"), s.weapons[4])
    assert hc is not None and hc.value("indirect") == -20 and hc.value("LOS") is None
    assert hit_chance(b, s, b.unit("raider-2"), s.weapons[0]) is None


# --- O3.6-O3.7: attacking a structure (the document's example) ------------------------------------
def test_the_documents_example() -> None:
    """Ghost's Enforcer fires its Heavy Laser at a standard High building 6 hexes away:
    75 + 8 + 5 = 88; rolls 93 (miss), re-rolls 41: hit for 20. 20 x 5 = 100 is not > 100,
    so 100 -> 80. Next round 100 > 80: 0, and at the end of that round it becomes a Ruin (75)."""
    b = o3(battle(ghost(), raider(9)), new_section(at(6), "high_building"))
    g = b.unit("ghost")
    hc = structure_chance(b, g, g.weapons[0], at(6))
    assert hc is not None
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("structure", 75),
        ("gunnery", 8),
        ("range", 5),
    ]
    assert hc.chance == 88
    out = fire_structure(b, g, 1, at(6), ScriptedDice(d100(93), d100(41)))
    assert not isinstance(out, str)
    b, events = out
    (shot,) = events
    assert isinstance(shot, StructureAttacked)
    assert (shot.rolls, shot.hit, shot.damage, shot.before, shot.after) == (
        (93, 41),
        True,
        20,
        100,
        80,
    )
    assert not shot.collapse
    assert shot.describe() == (
        "HL -> High building at 6,1: needs 88, rolls 93 (miss), re-rolls 41: hit for 20, "
        "durability 100 -> 80"
    )
    # next round: 20 x 5 = 100 > 80, so 0 at once
    b = b.with_unit(attrs.evolve(b.unit("ghost"), ap=2, fired_groups=(), energy_used=0))
    out = fire_structure(b, b.unit("ghost"), 1, at(6), ScriptedDice(d100(10)))
    assert not isinstance(out, str)
    b, (shot,) = out
    assert isinstance(shot, StructureAttacked)
    assert (shot.rolls, shot.before, shot.after, shot.collapse) == ((10,), 80, 0, True)
    # step 5a: it becomes a Ruin at full durability
    b, events = collapse(b, ScriptedDice())
    assert events == [
        StructureCollapsed(hex=at(6), feature="high_building", becomes="ruin", durability=75)
    ]
    assert section_at(b.structures, at(6)) == Section(hex=at(6), feature="ruin", durability=75)


def test_structure_attacks_drop_evasion_brace_cover_and_target_equipment() -> None:
    """O3.6: no evasion, brace, cover, target equipment or Gyro Stabilizer; sensor and
    actuator count; a second miss stands (both rolls logged)."""
    g = ghost(sensor_hit=True, equipment=(gear("gyro_stabilizer"),))
    b = o3(battle(g, raider(9)), new_section(at(4), "barricade"))
    hc = structure_chance(b, b.unit("ghost"), b.unit("ghost").weapons[0], at(4))
    assert hc is not None
    # 75 structure + 8 gunnery - 5 range (the Heavy Laser is long-ranged: 4 hexes is the short
    # band's -5) - 10 sensor = 68; the Gyro Stabilizer and the target's nothing do not count
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("structure", 75),
        ("gunnery", 8),
        ("range", -5),
        ("sensor", -10),
    ]
    assert hc.chance == 68
    out = fire_structure(b, b.unit("ghost"), 1, at(4), ScriptedDice(d100(99), d100(98)))
    assert not isinstance(out, str)
    _, (shot,) = out
    assert isinstance(shot, StructureAttacked)
    assert (shot.rolls, shot.hit, shot.after) == ((99, 98), False, 20)
    assert shot.describe().endswith("rolls 99 (miss), re-rolls 98: miss")


def test_instant_collapse_is_strictly_greater() -> None:
    assert after_hit(100, 20) == (80, False)  # 100 is not > 100
    assert after_hit(80, 20) == (0, True)  # 100 > 80
    assert after_hit(15, 3) == (12, False)  # 15 is not > 15
    assert after_hit(16, 3) == (13, False)
    assert after_hit(14, 3) == (0, True)
    assert after_hit(20, 0) == (20, False)  # a Reinforced section shrugging a light hit


def test_fire_at_refusals_give_reasons() -> None:
    b = o3(battle(ghost(), raider(9)), new_section(at(3), "debris"), new_section(at(12), "ruin"))
    g = b.unit("ghost")
    assert check_fire_structure(b, g, 1, at(5)) == "there is no structure at 5,1"
    assert check_fire_structure(b, g, 1, at(3)) == "the debris at 3,1 cannot be destroyed"
    assert check_fire_structure(b, g, 3, at(12)) == "group 3 has no working weapon"
    assert check_fire_structure(attrs.evolve(b, ruleset=()), g, 1, at(12)) == (
        "there are no structures to fire at: optional module O3 is off"
    )
    b0 = o3(battle(ghost(), raider(9)), Section(hex=at(4), feature="ruin", durability=0))
    assert "collapses at the end of the round" in str(check_fire_structure(b0, g, 1, at(4)))


def test_fire_at_through_the_engine_and_legal_commands() -> None:
    """`fire-at GROUP HEX` is a command: listed by legal_commands exactly when `refusal` says
    nothing, and it parses from its text form."""
    state = make_state(4, 3, landscape="industrial", ruleset=("O3",))
    for cmd in (AutoDeploy(), StartBattle()):
        out = step(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state
    battle_ = state.battle
    assert battle_ is not None
    listed = [c for c in legal_commands(state) if isinstance(c, FireStructure)]
    assert listed  # seed 4: the first frame has sections in reach
    for c in listed:
        assert refusal(state, c) is None
    for s in battle_.structures:
        for group in (1, 2, 3, 4):
            c = FireStructure(group, s.hex)
            assert (c in listed) == (refusal(state, c) is None)
    assert FireStructure(1, Hex(3, 4)).to_text() == "fire-at 1 3,4"
    assert parse_command("fire-at 1 3,4") == FireStructure(1, Hex(3, 4))


# --- O3.8 no splash -------------------------------------------------------------------------------
def test_a_miss_at_a_frame_leaves_structures_alone() -> None:
    b = o3(
        battle(shooter(), raider(5)), new_section(at(3), "ruin"), new_section(at(6), "barricade")
    )
    after, result = resolve_attack(b, "shooter", "raider-2", 0, ScriptedDice(d100(100)))
    assert not result.hit
    assert after.structures == b.structures


# --- O3.9 collapse and explosions -----------------------------------------------------------------
def test_each_stage_drops_one_step_a_round() -> None:
    b = o3(
        battle(shooter(), raider(9)),
        Section(hex=at(3), feature="ruin", durability=0),
        Section(hex=at(4), feature="low_building", variant="weak", durability=0),
        Section(hex=at(5), feature="debris", durability=0),
    )
    b, events = collapse(b, ScriptedDice())
    assert [
        (e.feature, e.becomes, e.durability) for e in events if isinstance(e, StructureCollapsed)
    ] == [
        ("ruin", "debris", 0),
        ("low_building", "debris", 0),
    ]
    assert [s.feature for s in b.structures] == ["debris", "debris", "debris"]


def test_a_fuel_tank_explodes_for_10_as_it_collapses() -> None:
    """A frame beside the tank takes one hit of 10 (location by §4.1: here the legs, whose
    armour takes it all); the barricade beside it loses 10 (20 -> 10) and the ruin at 0
    beside it... changes stage only at a later end of round if it reaches 0 now."""
    target = raider(4, 1)
    legs = target.armor[6]
    b = o3(
        battle(shooter(), target),
        Section(hex=at(5), feature="fuel_tank", durability=0),
        new_section(at(6), "barricade"),
        Section(hex=at(5, 2), feature="ruin", durability=5),
    )
    b, events = collapse(b, ScriptedDice(location_draw("legs")))
    kinds = [type(e) for e in events]
    assert kinds == [StructureCollapsed, Exploded]
    boom = events[1]
    assert isinstance(boom, Exploded)
    assert [(u, loc) for u, loc, _ in boom.hits] == [("raider-2", "legs")]
    assert b.unit("raider-2").armor[6] == legs - 10
    assert boom.sections == ((at(6), 20, 10), (at(5, 2), 5, 0))
    assert section_at(b.structures, at(5, 2)) == Section(hex=at(5, 2), feature="ruin", durability=0)
    assert section_at(b.structures, at(5)) == Section(hex=at(5), feature="debris", durability=0)
    assert "explodes for 10" in boom.describe()
    json.dumps(battlelog.event_record(boom))  # it goes into the battle log


# --- O3.10-O3.11 smoke ----------------------------------------------------------------------------
def _with_launcher(**changes: Any) -> Any:
    return shooter(equipment=(gear("smoke_launcher"),), **changes)


def test_smoke_launcher_checks() -> None:
    b = o3(battle(_with_launcher(), raider(9)))
    s = b.unit("shooter")
    assert check_equipment(b, s, "smoke_launcher", None, at(4)) is None
    assert check_equipment(b, s, "smoke_launcher", None, at(5)) == "Smoke Launcher reaches 4 hexes"
    assert (
        check_equipment(b, s, "smoke_launcher", None, None) == "Smoke Launcher needs a hex to smoke"
    )
    assert check_equipment(b, s, "smoke_launcher", "raider-2", None) == (
        "Smoke Launcher takes a hex, not a target frame"
    )
    spent = s.__class__(**{**attrs.asdict(s, recurse=False), "smoke_used": 2})
    assert charges_left(spent) == 0
    assert (
        check_equipment(b, spent, "smoke_launcher", None, at(4))
        == "Smoke Launcher has no charge left"
    )
    core = attrs.evolve(b, ruleset=())
    assert "optional module O3" in str(check_equipment(core, s, "smoke_launcher", None, at(4)))


def test_a_cloud_covers_the_hex_and_its_neighbours_for_3_rounds() -> None:
    b = o3(battle(_with_launcher(), raider(9)), smoke=(Smoke(hex=at(4), rounds=1),))
    item = CAT.equipment["smoke_launcher"]
    b, (laid,) = lay_smoke(b, b.unit("shooter"), item, at(4))
    assert isinstance(laid, SmokeLaid)
    assert len(laid.hexes) == 7 and laid.rounds == 3 and laid.charges_left == 1
    assert {s.hex: s.rounds for s in b.smoke} == {h: 3 for h in laid.hexes}  # higher kept
    # and counts down 3, 2, 1, then gone
    for left in (2, 1):
        b, events = countdown(b)
        assert events == [] and {s.rounds for s in b.smoke} == {left}
    b, events = countdown(b)
    assert b.smoke == () and events == [SmokeCleared(hexes=laid.hexes)]


def test_the_documents_smoke_example() -> None:
    """An enemy's line crosses 2 smoke hexes and ends in a third: smoke -30."""
    clouds = tuple(Smoke(hex=at(c), rounds=3) for c in (3, 4, 5))
    base = battle(shooter(), raider(5))
    b = o3(base, smoke=clouds)
    hc = hit_chance(b, b.unit("shooter"), b.unit("raider-2"), b.unit("shooter").weapons[0])
    plain = hit_chance(
        base, base.unit("shooter"), base.unit("raider-2"), base.unit("shooter").weapons[0]
    )
    assert hc is not None and plain is not None
    assert hc.modifiers[-1].name == "smoke" and hc.value("smoke") == -30
    assert hc.total == plain.total - 30


def test_smoke_through_the_engine() -> None:
    """`use smoke_launcher HEX` spends 1 AP, 2 energy and a charge."""
    b = o3(battle(_with_launcher(), raider(9)), new_section(at(7), "ruin"))
    b = attrs.evolve(b, order=("shooter", "raider-2"), turn=0)
    state = attrs.evolve(make_state(1, 1), battle=b)
    cmd = UseEquipment("smoke_launcher", None, at(3))
    assert cmd in legal_commands(state)
    out = step(state, cmd)
    assert isinstance(out, Accepted)
    after = out.state.battle
    assert after is not None
    user = after.unit("shooter")
    assert user.smoke_used == 1 and user.energy_used == 2 and user.ap == b.unit("shooter").ap - 1
    assert len(after.smoke) == 7


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 2), st.integers(1, 3)), max_size=20))
def test_smoke_counters_fall_to_zero(clouds: list[tuple[int, int, int]]) -> None:
    """Whatever the clouds, step 5a's countdown empties the smoke within 3 rounds, each
    counter falling by exactly 1 a round."""
    kept: dict[Hex, int] = {}
    for col, row, rounds in clouds:
        h = from_offset(col, row)
        kept[h] = max(kept.get(h, 0), rounds)
    b = o3(
        battle(shooter(), raider(9)), smoke=tuple(Smoke(hex=h, rounds=n) for h, n in kept.items())
    )
    for _ in range(3):
        before = {s.hex: s.rounds for s in b.smoke}
        b, _ = environment(b, ScriptedDice())
        assert {s.hex: s.rounds for s in b.smoke} == {h: n - 1 for h, n in before.items() if n > 1}
    assert b.smoke == ()


@settings(max_examples=60, deadline=None)
@given(
    feature=st.sampled_from(["high_building", "low_building", "fuel_tank", "ruin", "barricade"]),
    variant=st.sampled_from(["standard", "weak", "reinforced"]),
    hits=st.lists(
        st.tuples(
            st.sampled_from(["medium_laser", "autocannon_5", "heavy_laser"]), st.integers(0, 40)
        ),
        max_size=12,
    ),
    booms=st.integers(0, 3),
)
def test_durability_never_goes_negative(
    feature: str, variant: str, hits: list[tuple[str, int]], booms: int
) -> None:
    section = new_section(at(5), feature, variant if DATA.kind(feature).variants else "standard")
    for weapon_id, damage in hits:
        after, _ = after_hit(section.durability, damage_to(section, weapon_id, damage))
        assert 0 <= after <= section.durability
        section = attrs.evolve(section, durability=after)
    b = o3(
        battle(shooter(), raider(9)), section, Section(hex=at(4), feature="fuel_tank", durability=0)
    )
    for _ in range(booms):
        b, _ = collapse(b, ScriptedDice())
        b = o3(b, *b.structures, Section(hex=at(4), feature="fuel_tank", durability=0))
        assert all(s.durability >= 0 for s in b.structures)


# --- O3.12 logs -----------------------------------------------------------------------------------
def test_the_battle_line_lists_the_features_only_under_o3() -> None:
    state = make_state(8, 1, landscape="habitable", ruleset=("O3",))
    assert state.battle is not None
    head = battlelog.header(state.battle, 8)
    features = head["map"]["features"]
    assert len(features) == len(state.battle.structures) > 0
    first = state.battle.structures[0]
    assert features[0] == {
        "hex": [first.hex.q, first.hex.r],
        "feature": first.feature,
        "variant": first.variant,
        "durability": first.durability,
    }
    core = make_state(8, 1, landscape="habitable")
    assert core.battle is not None
    assert "features" not in battlelog.header(core.battle, 8)["map"]


def test_structure_events_go_into_the_battle_log() -> None:
    b = o3(battle(ghost(), raider(9)), new_section(at(6), "high_building"))
    out = fire_structure(b, b.unit("ghost"), 1, at(6), ScriptedDice(d100(93), d100(41)))
    assert not isinstance(out, str)
    record = battlelog.event_record(out[1][0])
    assert record["type"] == "StructureAttacked"
    assert record["rolls"] == [93, 41] and record["after"] == 80
    assert [m["name"] for m in record["modifiers"]] == ["structure", "gunnery", "range"]
    json.dumps(record)


# --- O0.2: the empty ruleset ----------------------------------------------------------------------
def test_the_core_game_has_no_structures_smoke_or_new_keys() -> None:
    from mac_tui.save import CONVERTER

    state = make_state(8, 3)
    assert state.battle is not None and state.battle.structures == () and state.battle.smoke == ()
    data = CONVERTER.unstructure(state.battle)
    assert "structures" not in data and "smoke" not in data
    assert all("smoke_used" not in u for u in data["units"])


def test_an_o3_battle_plays_to_its_end_deterministically() -> None:
    from mac_tui.players.ai import decide
    from mac_tui.players.sim import play

    logs = []
    for _ in range(2):
        log: list[str] = []
        state = make_state(2, 3, landscape="industrial", ruleset=("O3",))
        end, _ = play(state, {"player": decide, "enemy": decide}, log=log)
        assert end.battle is not None and end.battle.phase == "over"
        logs.append(log)
    assert logs[0] == logs[1]
    assert "features" in json.loads(logs[0][0])["map"]


def test_stats_unchanged_names() -> None:
    """The module's weapons data the tests lean on: a Heavy Laser is an energy weapon of
    base accuracy 75 and damage 20 (O3 example)."""
    hl = CAT.weapons["heavy_laser"]
    assert (hl.type, hl.accuracy, hl.damage) == ("energy", 75, 20)
    assert stats.weapon_of(weapon("heavy_laser", "right_torso")) is hl


def test_o3_stock_loadouts_are_drawn_only_under_o3() -> None:
    """O0.11: the Screener loadouts carry the Smoke Launcher and exist only while O3 is on."""
    core = [lo.name for lo in CAT.drawn_loadouts("SC-20")]
    with_o3 = [lo.name for lo in CAT.drawn_loadouts("SC-20", ("O3",))]
    assert "Screener" not in core and with_o3 == [*core, "Screener"]
    screener = next(lo for lo in CAT.stock_loadouts("SC-20") if lo.name == "Screener")
    assert screener.module == "O3" and "smoke_launcher" in screener.equipment
    for designation in CAT.chassis:
        for lo in CAT.drawn_loadouts(designation):
            assert "smoke_launcher" not in lo.equipment


def test_an_o3_battle_saves_loads_and_replays_mid_fight() -> None:
    """Sections, smoke and spent charges are in the save and the hash, load back checked
    (`snapshot.problems`) and replay from the commands; a core save carries none of them."""
    from mac_tui.combat.skirmish import NewSkirmish
    from mac_tui.players.ai import decide
    from mac_tui.players.driver import drive
    from mac_tui.save import from_json, to_json
    from mac_tui.session import Session
    from mac_tui.snapshot import problems

    session = Session.new(6)
    session.apply(NewSkirmish(3, "industrial", "O3"))
    session.apply(AutoDeploy())
    session.apply(StartBattle())
    state = session.state
    assert state.battle is not None
    seats = {"player": decide, "enemy": decide}
    drive(
        state,
        seats,
        apply=lambda _, cmd: session.apply(cmd),
        until=lambda s: s.battle is None or s.battle.round >= 3,
    )
    battle = session.state.battle
    assert battle is not None and battle.structures
    loaded = from_json(to_json(session.to_save()))
    assert loaded.state == session.state and problems(loaded.state) == []
    broken = attrs.evolve(
        battle, structures=(attrs.evolve(battle.structures[0], durability=10_000),)
    )
    assert any("durability" in p for p in problems(attrs.evolve(session.state, battle=broken)))
    core = attrs.evolve(battle, ruleset=())
    assert "structures and smoke need optional module O3" in " ".join(
        problems(attrs.evolve(session.state, battle=core))
    )


# --- O3.13 the AI ---------------------------------------------------------------------------------
def _ai_state(b: Battle) -> Any:
    b = attrs.evolve(b, order=tuple(u.id for u in b.units), turn=0)
    return attrs.evolve(make_state(1, 1), battle=b)


def test_the_ai_fires_at_the_wall_between_it_and_its_target() -> None:
    """No frame is targetable (a Low building blocks the only line), so the wall is the shot;
    with the enemy in the open, no structure is."""
    from mac_tui.players.ai.structures import structure_shot

    walled = o3(battle(ghost(), raider(6)), new_section(at(3), "low_building"))
    assert structure_shot(_ai_state(walled)) == FireStructure(1, at(3))
    open_field = o3(battle(ghost(), raider(6)), new_section(at(3, 2), "low_building"))
    assert structure_shot(_ai_state(open_field)) is None


@pytest.mark.parametrize("wall", [Hex(3, 0), Hex(3, 1)])
def test_the_ai_fires_at_a_wall_the_line_runs_beside(wall: Hex) -> None:
    """From (1,1) to (5,0) the line runs exactly between (3,0) and (3,1) (R29/G5: the one worse
    for the shooter counts, for the O2.6 height line the higher); a High building on either
    hex walls the target off, so that hex is the shot, whichever of the two the line's step
    names first (with O2 on the step is named by its first hex and blocks by the higher)."""
    from mac_tui.players.ai.structures import structure_shot

    assert [len(step) for step in line_steps(Hex(1, 1), Hex(5, 0))] == [1, 1, 2, 1, 1]
    for rules in (("O3",), ("O2", "O3")):
        b = o3(
            battle(ghost(pos=Hex(1, 1)), raider(pos=Hex(5, 0))), new_section(wall, "high_building")
        )
        b = attrs.evolve(b, ruleset=rules)
        assert structure_shot(_ai_state(b)) == FireStructure(1, wall), rules


def test_the_ais_way_round_high_ground_walks_as_frames_may() -> None:
    """O2.10 with O3: the AI's walk graph (its way to a line of fire) enters features as
    `movement.reach` does: never a fuel tank, a ruin at its cost of 2, open ground at 1."""
    from mac_tui.players.ai.tables import MapTables

    b = o3(battle(ghost(), raider(6)), new_section(at(3), "fuel_tank"), new_section(at(4), "ruin"))
    walks = MapTables(b.map, b.structures, b.smoke, True).walks()
    assert walks[at(3)] == ()
    assert walks[at(4)] and {cost for _, cost in walks[at(4)]} == {2}
    assert {cost for _, cost in walks[at(5)]} == {1}


def test_the_ai_never_shoots_a_fuel_tank_beside_its_own_frames() -> None:
    from mac_tui.players.ai.structures import structure_shot

    friend = make_unit("friend", side="player", pos=at(4, 2))  # beside the tank on (3, 1)
    b = o3(battle(ghost(), raider(6), friend), new_section(at(3), "fuel_tank"))
    assert structure_shot(_ai_state(b)) is None
    far = attrs.evolve(friend, pos=at(9, 2))
    b = o3(battle(ghost(), raider(6), far), new_section(at(3), "fuel_tank"))
    assert structure_shot(_ai_state(b)) == FireStructure(1, at(3))


def test_the_ai_smokes_its_own_hex_when_exposed() -> None:
    from mac_tui.players.ai.structures import smoke_cover

    g = ghost(equipment=(gear("smoke_launcher"),))
    b = o3(battle(g, raider(6, weapons=(weapon("medium_laser", "right_arm"),))))
    assert smoke_cover(_ai_state(b)) == UseEquipment("smoke_launcher", None, at(0))
    smoked = o3(b, smoke=(Smoke(hex=at(0), rounds=2),))
    assert smoke_cover(_ai_state(smoked)) is None  # already in smoke
    unarmed = o3(battle(g, raider(6)))
    assert smoke_cover(_ai_state(unarmed)) is None  # nobody can fire at it


# --- O3 with O2 (O0.3 "opt.: heights, roofs, falls") ---------------------------------------------
O2O3 = ("O2", "O3")


def both(*units: Any, sections: tuple[Section, ...] = (), ground: int = 0) -> Battle:
    """Rows of 14 Open hexes, every ground level `ground`, under O2 and O3."""
    from .test_elevation import battle_on

    b = battle_on(OPEN_ROWS, [ground] * (14 * 3), *units, rules=O2O3)
    return attrs.evolve(o3(b, *sections), ruleset=O2O3)


def test_a_features_height_adds_to_its_hex() -> None:
    """O2.1: a hex's height is its ground level plus its feature's: High +2, Low +1, Ruin +1,
    Barricade 0."""
    from mac_tui.combat.elevation import height_at

    b = both(
        sections=(
            new_section(at(2), "high_building"),
            new_section(at(3), "low_building"),
            new_section(at(4), "ruin"),
            new_section(at(5), "barricade"),
        ),
        ground=1,
    )
    assert [height_at(b, at(c)) for c in (1, 2, 3, 4, 5)] == [1, 3, 2, 2, 1]


def test_roofs_are_reached_by_climbing_or_jumping() -> None:
    """O3.5: with O2 on a frame may stand on a Low building one level up (a Move: 1 + the climb
    1 = 2), not on a High building two levels up (O2.3), which a Thrust Pack reaches: hex
    distance 2 + 2 levels up = 4 > 3, so only from next door (1 + 2 = 3). A fuel tank stays
    closed."""
    frame = shooter(equipment=(gear("thrust_pack"),))
    b = both(
        frame,
        raider(12),
        sections=(
            new_section(at(1), "low_building"),
            new_section(at(2, 0), "high_building"),
            new_section(at(1, 2), "fuel_tank"),
        ),
    )
    s = b.unit("shooter")
    cost, _ = reach(b, s)[at(1)]
    assert cost == 2
    assert at(2, 0) not in reach(b, s)
    assert "cannot enter" in str(check_move(b, s, at(1, 2), False))
    assert check_equipment(b, s, "thrust_pack", None, at(2, 0)) is not None  # 2 hexes + 2 up
    next_door = b.with_unit(attrs.evolve(s, pos=at(1, 0)))
    assert (
        check_equipment(next_door, next_door.unit("shooter"), "thrust_pack", None, at(2, 0)) is None
    )


def test_a_frame_on_a_collapsing_roof_falls_the_height_lost() -> None:
    """The O3 example's end: a Raider on a High building's roof at 0; at the end of the round
    it becomes a Ruin (+2 -> +1): the Raider falls 1 level, 5 to its legs (15 -> 10 armour)."""
    from mac_tui.combat.elevation import Fell

    on_roof = raider(6)
    legs = on_roof.armor[6]
    b = both(
        shooter(), on_roof, sections=(Section(hex=at(6), feature="high_building", durability=0),)
    )
    b, events = collapse(b, ScriptedDice())  # 5 on 15 armour: no cascade draw
    assert [type(e) for e in events] == [StructureCollapsed, Fell]
    fell = events[1]
    assert isinstance(fell, Fell) and fell.levels == 1
    assert (legs, b.unit("raider-2").armor[6]) == (15, 10)


def test_buildings_block_by_the_height_line_with_o2_on() -> None:
    """With O2 on a building is high ground: a Low building (+1) between two frames on level 0
    blocks them (O2.6: 2·1·N > E·(N−i) + T·i for a level-1 hex at i=2, N=4: 8 > 2·2 + 1·2 = 6);
    a frame on a level-2 roof sees over it."""
    wall = new_section(at(2), "low_building")
    b = both(shooter(), raider(4), sections=(wall,))
    s = b.unit("shooter")
    assert hit_chance(b, s, b.unit("raider-2"), s.weapons[0]) is None
    high = both(
        shooter(pos=at(0)),
        raider(4),
        sections=(wall, new_section(at(0), "high_building")),
    )
    hc = hit_chance(
        high, high.unit("shooter"), high.unit("raider-2"), high.unit("shooter").weapons[0]
    )
    assert hc is not None and hc.value("height") == 10  # 2 levels over: +5 x 2


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    difficulty=st.integers(1, 5),
    landscape=st.sampled_from(["habitable", "industrial", "mining", "station", "outpost"]),
)
def test_with_o2_generation_leaves_the_zones_joined_by_steps_of_one_level(
    seed: int, difficulty: int, landscape: str
) -> None:
    """O3.4 with O2: no placement cuts the walkable (O2.3) path between the zones; gantries
    appear."""
    from mac_tui.combat.elevation import height_at
    from mac_tui.combat.state import Battle as B

    state = make_state(seed, difficulty, landscape=landscape, ruleset=O2O3)
    b = state.battle
    assert b is not None
    width, height = b.map.width, b.map.height
    hexes = [from_offset(i % width, i // width) for i in range(width * height)]

    def ok(i: int) -> bool:
        return passable(section_at(b.structures, hexes[i]), True)

    def step(i: int, j: int) -> bool:
        return abs(height_at(b, hexes[i]) - height_at(b, hexes[j])) <= 1

    assert isinstance(b, B)
    assert joined(width, height, CAT.maps.deployment.columns, ok, step)


def test_with_o2_the_ai_shoots_the_building_its_height_line_meets() -> None:
    """O3.13 with O2 on: the Low building (+1) between two frames on level 0 blocks by the
    height line, and it is the wall the AI fires at."""
    from mac_tui.players.ai.structures import structure_shot

    b = both(ghost(), raider(4), sections=(new_section(at(2), "low_building"),))
    assert structure_shot(_ai_state(b)) == FireStructure(1, at(2))
