"""Tests for mac_tui.combat.damage: the §4 cascade, component effects, transfer, head kills.

Expected numbers are worked out by hand from the rulebook (core-rules §4, §7.7.3) and the
rulings (R8, R11, R15, R16); the arithmetic is in the comments. Random draws are forced with
`ScriptedDice`, which answers each `below(n)` from a script and checks that the engine asks
for exactly the draws, in exactly the order, the rules call for.

A Raider (RD-30) is the usual target. Its §8.2/R26 armour split and §8.4 structure:
    armour    head 5, CT 14, LT 10, RT 10, LA 8, RA 8, legs 15   (total 70)
    structure head 2, CT 7,  LT 5,  RT 5,  LA 3, RA 3, legs 6
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import damage, stats
from mac_tui.combat.damage import (
    DamageReport,
    LocationDamage,
    apply_damage,
    component_for_roll,
    describe_effect,
)
from mac_tui.combat.state import LOC_INDEX, EquipmentState, PilotSkills, Unit, WeaponState
from mac_tui.dice import COMBAT, Dice, RngState
from mac_tui.hexgrid import Hex
from mac_tui.save import make_converter

CAT = catalog()
LA, LT, CT = LOC_INDEX["left_arm"], LOC_INDEX["left_torso"], LOC_INDEX["center_torso"]
RA, RT, HD, LG = (
    LOC_INDEX["right_arm"],
    LOC_INDEX["right_torso"],
    LOC_INDEX["head"],
    LOC_INDEX["legs"],
)
MOUNTS = ("head", "center_torso", "left_torso", "right_torso", "left_arm", "right_arm")


# --- forced dice ----------------------------------------------------------------------------
Draw = tuple[int, int]  # (n asked of below(n), value answered in 0 .. n-1)


class ScriptedDice(Dice):
    """A `Dice` whose every `below(COMBAT, n)` answers the next scripted ``(n, value)``."""

    def __init__(self, *draws: Draw) -> None:
        super().__init__(RngState(seed=0))
        self.script = list(draws)

    def below(self, stream: str, n: int) -> int:
        assert stream == COMBAT, f"drew from stream {stream!r}"
        assert self.script, f"unexpected draw below({n})"
        want, value = self.script.pop(0)
        assert want == n, f"expected a draw below({want}), got below({n})"
        assert 0 <= value < n
        return value

    @property
    def done(self) -> bool:
        return not self.script


def d100(roll: int) -> Draw:
    """A percentile roll of ``roll`` (1-100)."""
    return (100, roll - 1)


def component(roll: int) -> Draw:
    """A §4.3 component roll of ``roll`` (0-99)."""
    return (100, roll)


def effect_roll(effect: str) -> int:
    """The lowest component roll giving ``effect``."""
    return next(r.low for r in CAT.combat.component if r.id == effect)


def comp(effect: str) -> Draw:
    return component(effect_roll(effect))


def pick(index: int, of: int) -> Draw:
    """`Dice.choice` picking element ``index`` of ``of``."""
    return (of, index)


def explosion(amount: int) -> Draw:
    """`between(ammo_explosion_min, ammo_explosion_max)` answering ``amount``."""
    dmg = CAT.combat.damage
    return (dmg.ammo_explosion_max - dmg.ammo_explosion_min + 1, amount - dmg.ammo_explosion_min)


def location_draw(location: str) -> Draw:
    """The §4.1 weighted hit-location draw landing on ``location``."""
    weights = [(loc, CAT.location(loc).hit_weight) for loc in LOCATION_ORDER]
    total = sum(w for _, w in weights)
    offset = 0
    for loc, w in weights:
        if loc == location:
            return (total, offset)
        offset += w
    raise KeyError(location)


NO_EFFECT = comp("no_effect")


# --- units ----------------------------------------------------------------------------------
def weapon(wid: str, mount: str, group: int = 1, ammo: int | None = None) -> WeaponState:
    w = CAT.weapons[wid]
    shots = stats.starting_ammo(w, 0) if ammo is None else ammo
    return WeaponState(weapon=wid, mount=mount, group=group, ammo=shots)


def gear(eid: str, mount: str | None = None) -> EquipmentState:
    return EquipmentState(equipment=eid, mount=mount)


def make_unit(
    uid: str = "target",
    *,
    side: str = "enemy",
    chassis: str = "RD-30",
    pos: Hex | None = None,
    gunnery: int = 4,
    piloting: int = 4,
    weapons: tuple[WeaponState, ...] = (),
    equipment: tuple[EquipmentState, ...] = (),
    **changes: Any,
) -> Unit:
    """A fresh frame: full §8.2 armour and §8.4 structure of ``chassis``, 2 AP."""
    ch = CAT.chassis[chassis]
    armor = stats.armor_split(ch)
    structure = stats.full_structure(ch)
    unit = Unit(
        id=uid,
        side="enemy" if side == "enemy" else "player",
        label=uid.upper(),
        chassis=chassis,
        pilot=PilotSkills(callsign=uid, gunnery=gunnery, piloting=piloting, tactics=3),
        weapons=weapons,
        equipment=equipment,
        pos=pos,
        armor=armor,
        structure=structure,
        start_armor=sum(armor),
        start_structure=sum(structure),
        ap=CAT.combat.rounds.action_points,
    )
    return attrs.evolve(unit, **changes)


def set_loc(
    unit: Unit, loc: str, *, armor: int | None = None, structure: int | None = None
) -> Unit:
    i = LOC_INDEX[loc]
    a = list(unit.armor)
    s = list(unit.structure)
    if armor is not None:
        a[i] = armor
    if structure is not None:
        s[i] = structure
    return attrs.evolve(unit, armor=tuple(a), structure=tuple(s))


def hit(unit: Unit, loc: str, amount: int, *draws: Draw) -> tuple[Unit, DamageReport]:
    """Apply damage with exactly ``draws`` and check they were all used."""
    dice = ScriptedDice(*draws)
    out = apply_damage(unit, loc, amount, dice)
    assert dice.done, f"draws left over: {dice.script}"
    return out


def conserved(amount: int, report: DamageReport) -> bool:
    """amount + internal == barrier + armour + structure + reduced + lost (transfers inside)."""
    return amount + report.internal == (
        report.barrier_absorbed
        + report.armor_lost
        + report.structure_lost
        + report.reduced
        + report.lost
    )


def test_raider_numbers_used_here() -> None:
    raider = make_unit()
    assert raider.armor == (5, 14, 10, 10, 8, 8, 15)
    assert raider.structure == (2, 7, 5, 5, 3, 3, 6)


# --- §4.2 armour and structure --------------------------------------------------------------
def test_armour_only() -> None:
    # 6 damage on LT: armour 10 -> 4, nothing reaches structure, so no component roll.
    unit, report = hit(make_unit(), "left_torso", 6)
    assert unit.armor[LT] == 4
    assert unit.structure == make_unit().structure
    assert report.total == 6
    [loc] = report.locations
    assert (loc.armor_before, loc.armor_after) == (10, 4)
    assert (loc.structure_before, loc.structure_after) == (5, 5)
    assert loc.component_roll is None and loc.effects == ()
    assert not loc.destroyed and loc.transferred_to is None and loc.lost == 0
    assert conserved(6, report)


def test_armour_exactly_used_up_makes_no_component_roll() -> None:
    # 10 damage on LT: armour 10 -> 0, structure untouched.
    unit, report = hit(make_unit(), "left_torso", 10)
    assert (unit.armor[LT], unit.structure[LT]) == (0, 5)
    assert report.locations[0].component_roll is None


def test_zero_damage_changes_nothing() -> None:
    before = make_unit()
    unit, report = hit(before, "center_torso", 0)
    assert unit == before
    assert report.total == 0 and len(report.locations) == 1


def test_armour_then_structure_with_one_component_roll() -> None:
    # 12 on LT: armour 10 -> 0, 2 to structure 5 -> 3; one component roll (no effect).
    unit, report = hit(make_unit(), "left_torso", 12, NO_EFFECT)
    assert (unit.armor[LT], unit.structure[LT]) == (0, 3)
    [loc] = report.locations
    assert loc.component_roll == effect_roll("no_effect")
    assert loc.effects == ("no_effect",)
    assert not loc.destroyed
    assert loc.describe() == "LT for 12, armour 10 -> 0, structure 5 -> 3"
    assert conserved(12, report)


# --- §4.3 component table -------------------------------------------------------------------
EXPECTED_ROWS = [  # §4.3: roll range -> effect
    (0, 14, "weapon_destroyed"),
    (15, 24, "actuator_damaged"),
    (25, 29, "ammo_explosion"),
    (30, 34, "reactor_hit"),
    (35, 37, "gyro_hit"),
    (38, 39, "sensor_hit"),
    (40, 42, "cockpit_hit"),
    (43, 99, "no_effect"),
]


@pytest.mark.parametrize(("low", "high", "effect"), EXPECTED_ROWS)
def test_component_rows_match_the_rulebook(low: int, high: int, effect: str) -> None:
    for roll in (low, high):
        assert component_for_roll(roll).id == effect
    if low > 0:
        assert component_for_roll(low - 1).id != effect


def test_component_roll_out_of_table() -> None:
    with pytest.raises(ValueError):
        component_for_roll(100)


def arm_unit(**changes: Any) -> Unit:
    """Raider, left arm stripped to armour 0 / structure 3, with an ML and a loaded MG there."""
    unit = make_unit(
        weapons=(
            weapon("medium_laser", "left_arm"),
            weapon("machine_gun", "left_arm", ammo=80),
            weapon("light_laser", "right_arm"),
        ),
        **changes,
    )
    return set_loc(unit, "left_arm", armor=0)


def test_weapon_destroyed_picks_a_working_weapon_at_the_location() -> None:
    # 1 damage: LA structure 3 -> 2; roll 0-14 -> a weapon there is destroyed: the pick
    # chooses among the two working LA weapons, index 1 = the machine gun.
    unit, report = hit(arm_unit(), "left_arm", 1, comp("weapon_destroyed"), pick(1, 2))
    assert [w.destroyed for w in unit.weapons] == [False, True, False]
    loc = report.locations[0]
    assert loc.effects == ("weapon_destroyed:machine_gun",)
    assert loc.weapons_lost == ("machine_gun",)
    assert "Machine Gun destroyed" in loc.describe()


def test_weapon_destroyed_skips_already_destroyed_weapons() -> None:
    base = arm_unit()
    dead_ml = attrs.evolve(base.weapons[0], destroyed=True)
    start = attrs.evolve(base, weapons=(dead_ml, *base.weapons[1:]))
    unit, report = hit(start, "left_arm", 1, comp("weapon_destroyed"), pick(0, 1))
    assert unit.weapons[1].destroyed
    assert report.effects == ("weapon_destroyed:machine_gun",)


def test_weapon_destroyed_with_no_weapon_there_has_no_effect() -> None:
    # Left torso holds no weapon: no pick is drawn.
    start = set_loc(arm_unit(), "left_torso", armor=0)
    unit, report = hit(start, "left_torso", 1, comp("weapon_destroyed"))
    assert not any(w.destroyed for w in unit.weapons)
    assert report.effects == ("weapon_destroyed:none",)
    assert report.weapons_lost == ()


@pytest.mark.parametrize("loc", ["left_arm", "right_arm", "legs"])
def test_actuator_damaged_on_arms_and_legs(loc: str) -> None:
    start = set_loc(make_unit(), loc, armor=0)
    unit, report = hit(start, loc, 1, comp("actuator_damaged"))
    expected = [0] * 7
    expected[LOC_INDEX[loc]] = 1
    assert list(unit.actuator_hits) == expected
    assert report.effects == ("actuator_damaged",)


@pytest.mark.parametrize("loc", ["head", "center_torso", "left_torso", "right_torso"])
def test_actuator_damaged_on_head_and_torsos_has_no_effect(loc: str) -> None:
    start = set_loc(make_unit(), loc, armor=0)
    unit, report = hit(start, loc, 1, comp("actuator_damaged"))
    assert unit.actuator_hits == (0,) * 7
    assert report.effects == ("actuator_damaged:none",)


def test_actuator_hits_accumulate() -> None:
    start = set_loc(make_unit(), "legs", armor=0)
    once, _ = hit(start, "legs", 1, comp("actuator_damaged"))
    twice, _ = hit(once, "legs", 1, comp("actuator_damaged"))
    assert twice.actuator_hits[LG] == 2
    # §5.2/R3: +2 move energy per leg actuator hit.
    assert stats.move_energy(twice) == stats.move_energy(start) + 2 * 2


def test_ammo_explosion_destroys_the_location_and_transfers() -> None:
    # 1 damage: LA structure 3 -> 2; roll 25-29 -> ammo explosion. The loaded MG is the only
    # candidate; 14 internal damage: structure 2 -> 0 (2 absorbed), 12 overflow to LT.
    # LA destroyed: ML and MG lost. LT: armour 10 -> 0, 2 to structure 5 -> 3, its own
    # component roll (no effect). Conservation: 1 + 14 = 10 (armour) + 3 + 2 (structure).
    unit, report = hit(
        arm_unit(), "left_arm", 1, comp("ammo_explosion"), pick(0, 1), explosion(14), NO_EFFECT
    )
    la, lt = report.locations
    assert la.effects == ("ammo_explosion:14",)
    assert la.internal == 14
    assert (la.structure_before, la.structure_after) == (3, 0)
    assert la.destroyed
    assert la.transferred_to == "left_torso" and la.transferred == 12
    assert set(la.weapons_lost) == {"medium_laser", "machine_gun"}
    assert unit.weapons[1].ammo == 0
    assert unit.weapons[0].destroyed and unit.weapons[1].destroyed
    assert not unit.weapons[2].destroyed
    assert lt.incoming == 12
    assert (lt.armor_before, lt.armor_after, lt.structure_after) == (10, 0, 3)
    assert unit.structure[LA] == 0 and unit.structure[LT] == 3
    assert conserved(1, report)


def test_ammo_explosion_that_the_location_survives() -> None:
    # The arm given structure 20 by hand: 1 damage -> 19, 10 internal -> 9; the arm holds,
    # the machine gun stays but its ammo is gone.
    start = set_loc(arm_unit(), "left_arm", structure=20)
    unit, report = hit(start, "left_arm", 1, comp("ammo_explosion"), pick(0, 1), explosion(10))
    assert unit.structure[LA] == 9
    assert unit.weapons[1].ammo == 0 and not unit.weapons[1].destroyed
    assert not report.locations[0].destroyed
    assert conserved(1, report)


def test_ammo_explosion_ignores_reactive_armour() -> None:
    # Internal damage goes straight into structure: 20 - 1 - 14 = 5, nothing reduced.
    start = set_loc(arm_unit(equipment=(gear("reactive_armor"),)), "left_arm", structure=20)
    unit, report = hit(start, "left_arm", 1, comp("ammo_explosion"), pick(0, 1), explosion(14))
    assert unit.structure[LA] == 5
    assert report.reduced == 0


@pytest.mark.parametrize(
    "weapons",
    [
        (weapon("medium_laser", "left_arm"),),  # energy weapon: no ammo at all
        (weapon("machine_gun", "left_arm", ammo=0),),  # empty
        (attrs.evolve(weapon("machine_gun", "left_arm"), destroyed=True),),  # destroyed
        (weapon("machine_gun", "right_arm"),),  # ammo elsewhere
    ],
)
def test_ammo_explosion_without_ammo_there_has_no_effect(weapons: tuple[WeaponState]) -> None:
    start = set_loc(make_unit(weapons=weapons), "left_arm", armor=0)
    unit, report = hit(start, "left_arm", 1, comp("ammo_explosion"))
    assert report.effects == ("ammo_explosion:none",)
    assert unit.weapons == start.weapons
    assert report.internal == 0


def test_reactor_hit() -> None:
    # R8: stress += 25% of base output 11, rounded down = 2; one more reactor hit, which
    # §5.1 turns into -3 effective output.
    start = set_loc(make_unit(stress=1), "left_torso", armor=0)
    unit, report = hit(start, "left_torso", 1, comp("reactor_hit"))
    assert unit.stress == 1 + 11 * 25 // 100 == 3
    assert unit.reactor_hits == 1
    assert stats.effective_output(unit) == 11 - 3
    assert report.effects == ("reactor_hit",)


def test_gyro_hit() -> None:
    # §2/§4.3: max AP 1; AP left this activation capped at 1.
    start = set_loc(make_unit(), "left_torso", armor=0)
    assert start.ap == 2
    unit, report = hit(start, "left_torso", 1, comp("gyro_hit"))
    assert unit.gyro_hit and unit.ap == 1 and stats.max_ap(unit) == 1
    assert report.effects == ("gyro_hit",)


def test_gyro_hit_does_not_raise_spent_ap() -> None:
    start = set_loc(make_unit(ap=0), "left_torso", armor=0)
    unit, _ = hit(start, "left_torso", 1, comp("gyro_hit"))
    assert unit.ap == 0


def test_sensor_hit() -> None:
    start = set_loc(make_unit(), "left_torso", armor=0)
    unit, report = hit(start, "left_torso", 1, comp("sensor_hit"))
    assert unit.sensor_hit
    assert report.effects == ("sensor_hit",)


def test_cockpit_hit_is_a_flag_only() -> None:
    # R16: the pilot is injured after the battle; nothing else changes in combat.
    start = set_loc(make_unit(), "left_torso", armor=0)
    unit, report = hit(start, "left_torso", 1, comp("cockpit_hit"))
    assert unit.cockpit_hit
    assert attrs.evolve(unit, cockpit_hit=False) == set_loc(start, "left_torso", structure=4)
    assert report.effects == ("cockpit_hit",)
    assert stats.gunnery_bonus(unit) == stats.gunnery_bonus(start)


def test_no_effect() -> None:
    start = set_loc(make_unit(), "left_torso", armor=0)
    unit, report = hit(start, "left_torso", 1, NO_EFFECT)
    assert unit == set_loc(start, "left_torso", structure=4)
    assert describe_effect(report.effects[0]) == ""


# --- §4.4 transfer --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("src", "dest"),
    [
        ("left_arm", "left_torso"),
        ("right_arm", "right_torso"),
        ("left_torso", "center_torso"),
        ("right_torso", "center_torso"),
    ],
)
def test_transfer(src: str, dest: str) -> None:
    # Source armour 0, structure 1; 5 damage: structure 1 -> 0 (destroyed), 4 overflow to
    # the §4.4 neighbour, where armour absorbs it first.
    assert CAT.location(src).transfer_to == dest
    start = set_loc(set_loc(make_unit(), src, armor=0, structure=1), dest, armor=10)
    unit, report = hit(start, src, 5, NO_EFFECT)
    first, second = report.locations
    assert first.destroyed and first.transferred_to == dest and first.transferred == 4
    assert first.lost == 0
    assert second.location == dest and second.incoming == 4
    assert (second.armor_before, second.armor_after) == (10, 6)
    assert unit.structure[LOC_INDEX[src]] == 0
    assert conserved(5, report)
    assert report.describe().startswith(
        f"{CAT.location(src).abbrev} for 5, armour 0 -> 0, structure 1 -> 0, "
    )
    assert f"4 on to {CAT.location(dest).abbrev}; {CAT.location(dest).abbrev} for 4" in (
        report.describe()
    )


@pytest.mark.parametrize("loc", ["head", "center_torso", "legs"])
def test_no_transfer_from_head_ct_legs(loc: str) -> None:
    # Armour 0, structure 1, 5 damage: 1 to structure, 4 with nowhere to go: lost.
    assert CAT.location(loc).transfer_to is None
    start = set_loc(make_unit(), loc, armor=0, structure=1)
    draws = [NO_EFFECT]
    if loc == "head":
        draws.append(d100(1))  # §4.6 pilot survival roll
    unit, report = hit(start, loc, 5, *draws)
    [only] = report.locations
    assert only.destroyed and only.transferred_to is None and only.lost == 4
    assert unit.structure[LOC_INDEX[loc]] == 0
    assert conserved(5, report)


def test_transfer_chains_arm_to_torso_to_centre() -> None:
    # LA (armour 0, structure 1) takes 20: 1 absorbed, 19 to LT; LT armour 10 -> 0, 9 into
    # structure 5 -> 0, 4 on to CT; CT armour 14 -> 10.
    start = set_loc(make_unit(), "left_arm", armor=0, structure=1)
    unit, report = hit(start, "left_arm", 20, NO_EFFECT, NO_EFFECT)
    assert [loc.location for loc in report.locations] == [
        "left_arm",
        "left_torso",
        "center_torso",
    ]
    assert [loc.incoming for loc in report.locations] == [20, 19, 4]
    assert unit.armor[CT] == 10
    assert report.destroyed_locations == ("left_arm", "left_torso")
    assert conserved(20, report)


def test_hit_on_destroyed_location_transfers_everything() -> None:
    # LA already at structure 0: the whole 7 goes to LT; no component roll at LA.
    start = set_loc(make_unit(), "left_arm", armor=0, structure=0)
    unit, report = hit(start, "left_arm", 7)
    la, lt = report.locations
    assert not la.destroyed and la.component_roll is None
    assert la.transferred == 7 and la.transferred_to == "left_torso"
    assert (lt.armor_before, lt.armor_after) == (10, 3)
    assert "already destroyed" in la.describe()
    assert unit.structure[LA] == 0
    assert conserved(7, report)


def test_hit_on_destroyed_legs_is_lost() -> None:
    start = set_loc(make_unit(), "legs", armor=0, structure=0)
    unit, report = hit(start, "legs", 7)
    assert report.lost == 7
    assert unit == start


# --- §7.7.3 Reactive Armor ------------------------------------------------------------------
def test_reactive_armour_reduces_structure_damage() -> None:
    # LT armour 0, structure 5, 10 damage: 15% of 10 = 1 (rounded down) -> 9 structure
    # damage: 5 absorbed, 4 to CT, armour 14 -> 10. 10 = 1 reduced + 5 + 4.
    start = set_loc(make_unit(equipment=(gear("reactive_armor"),)), "left_torso", armor=0)
    _, report = hit(start, "left_torso", 10, NO_EFFECT)
    lt, ct = report.locations
    assert lt.reduced == 1
    assert lt.transferred == 4
    assert (ct.armor_before, ct.armor_after) == (14, 10)
    assert conserved(10, report)
    assert "reactive armour -1" in lt.describe()


def test_reactive_armour_does_not_touch_armour_damage() -> None:
    start = make_unit(equipment=(gear("reactive_armor"),))
    unit, report = hit(start, "left_torso", 10)
    assert unit.armor[LT] == 0 and report.reduced == 0


def test_reactive_armour_applies_again_after_transfer() -> None:
    # LA armour 0 / structure 3, 20 damage: 20*15//100 = 3 -> 17; 3 absorbed, 14 over.
    # LT armour 0 / structure 5: 14*15//100 = 2 -> 12; 5 absorbed, 7 over; CT 14 -> 7.
    # 20 = 3 + 2 reduced + 3 + 5 structure + 7 armour.
    start = make_unit(equipment=(gear("reactive_armor"),))
    start = set_loc(set_loc(start, "left_arm", armor=0), "left_torso", armor=0)
    unit, report = hit(start, "left_arm", 20, NO_EFFECT, NO_EFFECT)
    assert [loc.reduced for loc in report.locations] == [3, 2, 0]
    assert unit.armor[CT] == 7
    assert conserved(20, report)


def test_reactive_armour_small_hits() -> None:
    # 6 * 15 // 100 = 0: a 6-point structure hit is not reduced; 7 -> 1 reduced.
    start = set_loc(
        make_unit(equipment=(gear("reactive_armor"),)), "center_torso", armor=0, structure=20
    )
    unit6, r6 = hit(start, "center_torso", 6, NO_EFFECT)
    unit7, r7 = hit(start, "center_torso", 7, NO_EFFECT)
    assert (unit6.structure[CT], r6.reduced) == (14, 0)
    assert (unit7.structure[CT], r7.reduced) == (14, 1)


def test_reactive_armour_leaves_at_least_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # §7.7.3 "(minimum 1 damage)": with a 100% reduction a 6-point hit still does 1.
    monkeypatch.setattr(damage, "equipment_total", lambda equipment, effect: 100)
    start = set_loc(make_unit(), "left_torso", armor=0)
    unit, report = hit(start, "left_torso", 6, NO_EFFECT)
    assert unit.structure[LT] == 4
    assert report.reduced == 5
    assert conserved(6, report)


def test_destroyed_reactive_armour_does_nothing() -> None:
    dead = attrs.evolve(gear("reactive_armor"), destroyed=True)
    start = set_loc(make_unit(equipment=(dead,)), "center_torso", armor=0)
    unit, report = hit(start, "center_torso", 5, NO_EFFECT)
    assert unit.structure[CT] == 2 and report.reduced == 0


# --- R11 Barrier ----------------------------------------------------------------------------
def test_barrier_absorbs_first() -> None:
    # Barrier 20, 25 damage on LT: barrier 20 -> 0, 5 to armour 10 -> 5.
    unit, report = hit(make_unit(barrier=20), "left_torso", 25)
    assert unit.barrier == 0 and unit.armor[LT] == 5
    loc = report.locations[0]
    assert (loc.barrier_before, loc.barrier_after) == (20, 0)
    assert loc.describe() == "LT for 25, barrier 20 -> 0, armour 10 -> 5"
    assert conserved(25, report)


def test_barrier_left_over() -> None:
    unit, report = hit(make_unit(barrier=20), "left_torso", 8)
    assert unit.barrier == 12 and unit.armor == make_unit().armor
    assert report.barrier_absorbed == 8


def test_barrier_only_once_per_hit() -> None:
    # LA armour 0 / structure 1, barrier 3, 9 damage: barrier takes 3, structure 1, 5 to
    # LT (armour 10 -> 5); the LT record shows no barrier absorption.
    start = set_loc(make_unit(barrier=3), "left_arm", armor=0, structure=1)
    unit, report = hit(start, "left_arm", 9, NO_EFFECT)
    la, lt = report.locations
    assert la.barrier_absorbed == 3 and lt.barrier_absorbed == 0
    assert la.transferred == 5 and unit.armor[LT] == 5
    assert conserved(9, report)


# --- §4.5 / §7.6 location and frame destruction ---------------------------------------------
def test_destroyed_location_takes_its_weapons_and_slot_equipment() -> None:
    start = make_unit(
        weapons=(weapon("light_laser", "right_arm"), weapon("medium_laser", "right_torso")),
        equipment=(
            gear("sensor_array", "right_arm"),
            gear("point_defense", "left_torso"),
            gear("reactive_armor"),
        ),
    )
    start = set_loc(start, "right_arm", armor=0, structure=1)
    unit, report = hit(start, "right_arm", 1, NO_EFFECT)
    [ra] = report.locations
    assert ra.destroyed
    assert ra.weapons_lost == ("light_laser", "sensor_array")
    assert [w.destroyed for w in unit.weapons] == [True, False]
    assert [e.destroyed for e in unit.equipment] == [True, False, False]
    assert ra.transferred_to is None and ra.transferred == 0 and ra.lost == 0
    assert "lost Light Laser, Sensor Array" in ra.describe()


def test_centre_torso_destroyed_destroys_the_frame() -> None:
    # CT armour 0 / structure 2, 10 damage: 2 absorbed, 8 lost (no transfer); reactor
    # breached (§4.5).
    start = set_loc(make_unit(), "center_torso", armor=0, structure=2)
    unit, report = hit(start, "center_torso", 10, NO_EFFECT)
    assert unit.destroyed and unit.destroyed_by == "center_torso" and not unit.active
    assert report.frame_destroyed and report.destroyed_by == "center_torso"
    assert report.lost == 8
    assert report.pilot_roll is None
    assert report.describe().endswith("frame destroyed")


def test_centre_torso_damage_without_destruction() -> None:
    start = set_loc(make_unit(), "center_torso", armor=0)
    unit, report = hit(start, "center_torso", 6, NO_EFFECT)
    assert unit.structure[CT] == 1 and not unit.destroyed and not report.frame_destroyed


def head_unit(piloting: int = 4) -> Unit:
    return make_unit(piloting=piloting, weapons=(weapon("light_laser", "head"),))


def test_head_destroyed_pilot_survives() -> None:
    # 10 on the head: armour 5 -> 0, structure 2 -> 0, 3 lost (no transfer). §4.6 survival:
    # 50 + piloting 4 x 5 = 70; a roll of 70 survives. Cockpit breached (gunnery bonus 0),
    # sensors gone, pilot injured (cockpit hit); the frame fights on.
    unit, report = hit(head_unit(), "head", 10, NO_EFFECT, d100(70))
    assert report.head_destroyed
    assert (report.pilot_roll, report.pilot_needed, report.pilot_survived) == (70, 70, True)
    assert unit.cockpit_breached and unit.cockpit_hit and unit.sensor_hit
    assert unit.pilot_alive and unit.active and not unit.destroyed
    assert stats.gunnery_bonus(unit) == 0
    assert unit.weapons[0].destroyed
    assert report.destroyed_by == "none" and not report.frame_destroyed
    assert report.lost == 3
    assert "pilot survives, injured (rolls 70, needs 70)" in report.describe()


def test_head_destroyed_pilot_killed() -> None:
    # R15: a roll of 71 > 70 kills the pilot; the frame is out of the fight but not
    # destroyed (it can be recovered).
    unit, report = hit(head_unit(), "head", 10, NO_EFFECT, d100(71))
    assert report.pilot_survived is False
    assert not unit.pilot_alive and not unit.active
    assert not unit.destroyed and unit.destroyed_by == "pilot"
    assert report.destroyed_by == "pilot" and not report.frame_destroyed
    assert "pilot killed" in report.describe()


@pytest.mark.parametrize(("piloting", "needed"), [(1, 55), (3, 65), (5, 75)])
def test_head_survival_chance_examples(piloting: int, needed: int) -> None:
    # §4.6 examples: piloting 1 = 55%, 3 = 65%, 5 = 75%.
    _, report = hit(head_unit(piloting), "head", 10, NO_EFFECT, d100(needed))
    assert report.pilot_needed == needed and report.pilot_survived


def test_head_damaged_not_destroyed_rolls_nothing_for_the_pilot() -> None:
    unit, report = hit(head_unit(), "head", 6, NO_EFFECT)  # armour 5 -> 0, structure 2 -> 1
    assert unit.structure[HD] == 1 and report.pilot_roll is None and not report.head_destroyed


# --- properties -----------------------------------------------------------------------------
@st.composite
def units(draw: st.DrawFn) -> Unit:
    chassis = draw(st.sampled_from(sorted(CAT.chassis)))
    ch = CAT.chassis[chassis]
    full_a = stats.armor_split(ch)
    full_s = stats.full_structure(ch)
    armor = tuple(draw(st.integers(0, a)) for a in full_a)
    structure = tuple(draw(st.integers(0, s)) for s in full_s)
    wids = sorted(CAT.weapons)
    weapons = tuple(
        WeaponState(
            weapon=draw(st.sampled_from(wids)),
            mount=draw(st.sampled_from(MOUNTS)),
            group=1,
            ammo=draw(st.integers(0, 30)),
            destroyed=draw(st.integers(0, 3)) == 0,
        )
        for _ in range(draw(st.integers(0, 8)))
    )
    eids = draw(st.lists(st.sampled_from(sorted(CAT.equipment)), max_size=5))
    equipment = tuple(
        EquipmentState(
            equipment=e,
            mount=draw(st.sampled_from(MOUNTS)) if CAT.equipment[e].category == "slot" else None,
            destroyed=draw(st.booleans()) if CAT.equipment[e].category == "slot" else False,
        )
        for e in eids
    )
    return make_unit(
        chassis=chassis,
        piloting=draw(st.integers(1, 10)),
        weapons=weapons,
        equipment=equipment,
        armor=armor,
        structure=structure,
        barrier=draw(st.integers(0, 25)),
        stress=draw(st.integers(0, 10)),
        ap=draw(st.integers(0, 2)),
    )


seeds = st.integers(min_value=0, max_value=2**64 - 1)


class DataDice(Dice):
    """A `Dice` whose every draw hypothesis chooses (so rare component rows come up)."""

    def __init__(self, data: st.DataObject) -> None:
        super().__init__(RngState(seed=0))
        self.data = data

    def below(self, stream: str, n: int) -> int:
        assert stream == COMBAT
        # Lean d100s towards the 0-42 effect rows of the component table.
        rolls = st.integers(0, n - 1)
        if n == 100:
            rolls = st.one_of(st.integers(0, 42), rolls)
        value: int = self.data.draw(rolls)
        return value


@settings(max_examples=300, deadline=None)
@given(
    unit=units(),
    loc=st.sampled_from(LOCATION_ORDER),
    amount=st.integers(0, 80),
    seed=seeds,
)
def test_damage_properties(unit: Unit, loc: str, amount: int, seed: int) -> None:
    dice = Dice(RngState(seed=seed))
    after, report = check_damage(unit, loc, amount, dice)
    # Only the combat stream is used; the same seed gives the same result.
    assert {name for name, _ in dice.state().counters} <= {COMBAT}
    again = apply_damage(unit, loc, amount, Dice(RngState(seed=seed)))
    assert again == (after, report)


@settings(max_examples=300, deadline=None)
@given(
    unit=units(),
    loc=st.sampled_from(LOCATION_ORDER),
    amount=st.integers(0, 80),
    data=st.data(),
)
def test_damage_properties_any_rolls(
    unit: Unit, loc: str, amount: int, data: st.DataObject
) -> None:
    check_damage(unit, loc, amount, DataDice(data))


def check_damage(unit: Unit, loc: str, amount: int, dice: Dice) -> tuple[Unit, DamageReport]:
    copy = attrs.evolve(unit)
    after, report = apply_damage(unit, loc, amount, dice)

    # The input is untouched (frozen anyway).
    assert unit == copy

    # Conservation: every point of damage is absorbed, reduced or lost; transfers are
    # internal; ammo-explosion damage is extra and reported as internal.
    assert report.total == amount
    assert conserved(amount, report)
    if report.internal == 0:
        assert amount == (
            report.barrier_absorbed
            + report.armor_lost
            + report.structure_lost
            + report.reduced
            + report.lost
        )
    for i, rec in enumerate(report.locations):
        assert rec.incoming + rec.internal == (
            rec.barrier_absorbed
            + rec.armor_lost
            + rec.structure_lost
            + rec.reduced
            + rec.transferred
            + rec.lost
        )
        if i + 1 < len(report.locations):
            assert rec.transferred == report.locations[i + 1].incoming
            assert rec.transferred_to == report.locations[i + 1].location
        assert rec.transferred == 0 or rec.lost == 0
        assert min(rec.reduced, rec.internal, rec.transferred, rec.lost) >= 0
    assert report.locations[0].location == loc and report.locations[0].incoming == amount

    # Nothing negative, nothing restored.
    assert after.barrier >= 0 and after.barrier <= unit.barrier
    assert all(0 <= a <= b for a, b in zip(after.armor, unit.armor, strict=True))
    assert all(0 <= s <= b for s, b in zip(after.structure, unit.structure, strict=True))
    assert all(w.ammo >= 0 for w in after.weapons)
    assert all(b >= a for a, b in zip(unit.actuator_hits, after.actuator_hits, strict=True))
    assert after.stress >= unit.stress

    # Location destruction takes everything mounted there.
    for name in report.destroyed_locations:
        assert after.structure[LOC_INDEX[name]] == 0
        assert all(w.destroyed for w in after.weapons if w.mount == name)
        assert all(e.destroyed for e in after.equipment if e.mount == name)

    # The frame is destroyed by this hit exactly when its centre torso fell.
    fell = unit.structure[CT] > 0 and after.structure[CT] == 0
    assert report.frame_destroyed == (fell and not unit.destroyed)
    if fell:
        assert after.destroyed
    assert report.head_destroyed == (unit.structure[HD] > 0 and after.structure[HD] == 0)
    return after, report


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        apply_damage(make_unit(), "left_torso", -1, ScriptedDice())
    with pytest.raises(ValueError):
        apply_damage(make_unit(), "tail", 1, ScriptedDice())


def test_reports_are_plain_data() -> None:
    start = set_loc(make_unit(), "left_arm", armor=0, structure=1)
    _, report = hit(start, "left_arm", 9, NO_EFFECT)
    conv = make_converter()
    data = json.loads(json.dumps(conv.unstructure(report)))
    assert data["locations"][0]["location"] == "left_arm"
    assert conv.structure(data, DamageReport) == report
    assert isinstance(report.locations[0], LocationDamage)
