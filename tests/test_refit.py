"""The refit bay (§7.1-§7.8, §5.1-§5.3): loadout legality, change counting, the `refit` and
`regroup` commands, and the reactor budget panel's numbers.

Chassis facts used below (data/chassis.toml, setup-facts):
  EN-50 Enforcer: small H, RA · medium RA, LA · large CT, RT · space 60 · reactor 17, move 5.
  RD-30 Raider:   small H, RA, LA · medium RA, LA, RT · no large · space 40.
  CL-100 Colossus: large CT, RT, LT, CT (two at CT).
Weapons (§7.4): LL small 2 space 4 energy 5 dmg · ML medium 5 space 8 energy 10 dmg ·
AC5 medium 6 space 1 energy 8 dmg · HL large 10 space 14 energy 20 dmg · GR medium 7 space ·
GC large 14 space. Refit: 500 credits and 1 day per install or removal (§7.8).
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.campaign import ledger
from mac_tui.campaign.refit import (
    budget,
    changes,
    check_loadout,
    frame_budget,
    inventory_delta,
    loadout_text,
    parse_loadout,
    plan_refit,
)
from mac_tui.campaign.state import (
    Campaign,
    Contract,
    Fitting,
    Mission,
    Mount,
    add_count,
    count_of,
)
from mac_tui.catalog import LOCATION_ORDER, SIZES, DataError, catalog, load_catalog
from mac_tui.game import Accepted, Refused, parse_command, step
from mac_tui.model import GameState, initial_state

from .conftest import ROOT

ENFORCER = "EN-50"
RAIDER = "RD-30"
START_CREDITS = 500_000  # §13.3
ENFORCER_START = "medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2+light_laser@HD:1"


# ---- helpers ---------------------------------------------------------------------------
def new_game(seed: int = 11) -> GameState:
    out = step(initial_state(seed), parse_command("new-campaign 'Test Company'"))
    assert isinstance(out, Accepted)
    return out.state


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def run(state: GameState, line: str) -> Accepted:
    out = step(state, parse_command(line))
    assert isinstance(out, Accepted), getattr(out, "reason", out)
    return out


def refuse(state: GameState, line: str) -> str:
    out = step(state, parse_command(line))
    assert isinstance(out, Refused), f"{line!r} was accepted"
    assert out.reason
    return out.reason


def with_campaign(state: GameState, **changes_: Any) -> GameState:
    return attrs.evolve(state, campaign=attrs.evolve(camp(state), **changes_))


def stocked(state: GameState, weapons: dict[str, int], equipment: dict[str, int]) -> GameState:
    c = camp(state)
    w, e = c.weapons, c.equipment
    for item, n in weapons.items():
        w = add_count(w, item, n)
    for item, n in equipment.items():
        e = add_count(e, item, n)
    return with_campaign(state, weapons=w, equipment=e)


def mounts(text: str, equipment: str = "-") -> tuple[tuple[Mount, ...], tuple[Fitting, ...]]:
    parsed = parse_loadout(text, equipment)
    assert not isinstance(parsed, str), parsed
    return parsed


def check(designation: str, weapons: str, equipment: str = "-") -> str | None:
    ms, fs = mounts(weapons, equipment)
    return check_loadout(catalog().chassis[designation], ms, fs)


# ---- parsing -----------------------------------------------------------------------------
def test_parse_loadout_reads_ids_and_abbreviations() -> None:
    ms, fs = mounts("medium_laser@right_arm:1+light_laser@hd:2", "cooling_vents+sensor_array@RA")
    assert ms == (
        Mount(weapon="medium_laser", mount="right_arm", group=1),
        Mount(weapon="light_laser", mount="head", group=2),
    )
    assert fs == (
        Fitting(equipment="cooling_vents"),
        Fitting(equipment="sensor_array", mount="right_arm"),
    )
    assert parse_loadout("-", "-") == ((), ())


def test_parse_loadout_explains_bad_syntax() -> None:
    for text in ("medium_laser", "medium_laser@RA", "@RA:1", "medium_laser@:1", "a++b"):
        reason = parse_loadout(text, "-")
        assert isinstance(reason, str) and "weapon@location:group" in reason, text
    assert "no location 'XX'" in str(parse_loadout("medium_laser@XX:1", "-"))
    assert "whole number" in str(parse_loadout("medium_laser@RA:one", "-"))
    assert "id@location" in str(parse_loadout("-", "sensor_array@"))
    assert "no location 'arm'" in str(parse_loadout("-", "sensor_array@arm"))


def test_loadout_text_round_trips() -> None:
    frame = camp(new_game()).frame("F1")
    weapons, equipment = loadout_text(frame.weapons, frame.equipment)
    assert equipment == "-"
    assert parse_loadout(weapons, equipment) == (frame.weapons, frame.equipment)
    fs = (Fitting(equipment="cooling_vents"), Fitting(equipment="sensor_array", mount="head"))
    assert loadout_text((), fs) == ("-", "cooling_vents+sensor_array@head")


# ---- legality (§7.1-§7.7) ----------------------------------------------------------------
def test_starting_loadouts_are_legal() -> None:
    c = camp(new_game())
    for frame in c.frames:
        assert (
            check_loadout(catalog().chassis[frame.chassis], frame.weapons, frame.equipment) is None
        )


def test_each_size_only_on_its_own_hardpoints() -> None:
    # §7.1: no cross-fitting.
    assert check(ENFORCER, "light_laser@RA:1+medium_laser@RA:1+heavy_laser@CT:1") is None
    reason = check(ENFORCER, "light_laser@LA:1")  # LA has only a medium hardpoint
    assert reason and "Light Laser needs a small hardpoint" in reason and "Left Arm" in reason
    assert check(ENFORCER, "medium_laser@HD:1")  # head: small only
    assert check(ENFORCER, "heavy_laser@RA:1")  # right arm: small + medium, no large
    assert check(RAIDER, "heavy_laser@RT:1")  # the Raider has no large hardpoint at all
    reason = check(RAIDER, "heavy_laser@CT:1")
    assert reason and "has no large hardpoints" in reason
    # D1: the exclusive weapons are large.
    assert check(ENFORCER, "fusion_lance@CT:1") is None


def test_locations_the_chassis_does_not_list_and_never_the_legs() -> None:
    # §7.6: only the listed locations; no chassis lists the legs.
    for designation, ch in catalog().chassis.items():
        for size in SIZES:
            assert "legs" not in ch.hardpoints.of(size), designation
    for weapon in ("light_laser", "medium_laser", "heavy_laser"):
        reason = check(ENFORCER, f"{weapon}@LG:1")
        assert reason and "Legs" in reason
    assert check(ENFORCER, "medium_laser@LT:1")  # the Enforcer has nothing on the left torso
    assert check(ENFORCER, "light_laser@CT:1")
    assert check(ENFORCER, "-", "sensor_array@LG")


def test_no_more_items_than_hardpoints_per_location_and_size() -> None:
    reason = check(ENFORCER, "medium_laser@RA:1+autocannon_5@RA:1")  # one medium at RA
    assert reason and "only 1 medium hardpoint(s) at Right Arm" in reason
    # The Colossus lists two large hardpoints at CT (setup-facts).
    assert check("CL-100", "heavy_laser@CT:1+heavy_laser@CT:2") is None
    assert check("CL-100", "heavy_laser@CT:1+heavy_laser@CT:2+lrm_15@CT:3")


def test_the_number_of_groups_is_data() -> None:
    # §7.2: groups 1-4, from data/combat.toml; the loader refuses fits beyond it.
    assert catalog().combat.loadout.weapon_groups == 4


def test_loader_refuses_loadouts_beyond_the_group_count(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(ROOT / "data", root)
    combat = root / "combat.toml"
    combat.write_text(combat.read_text().replace("weapon_groups = 4", "weapon_groups = 1"))
    with pytest.raises(DataError) as err:
        load_catalog(root)
    assert "data/start.toml" in str(err.value) and "weapon groups run 1 to 1" in str(err.value)


def test_groups_run_1_to_4() -> None:
    assert check(ENFORCER, "medium_laser@RA:4") is None
    for group in (0, 5, -1):
        reason = check(ENFORCER, f"medium_laser@RA:{group}")
        assert reason and "groups run 1 to 4" in reason


def test_space_budget() -> None:
    # Weapons 14 + 14 + 7 + 7 + 2 + 2 = 46; + Reactive Armor 6 + Cooling Vents 4 = 56.
    weapons = (
        "gauss_cannon@CT:1+gauss_cannon@RT:2+gauss_rifle@RA:3"
        "+gauss_rifle@LA:3+light_laser@HD:4+light_laser@RA:4"
    )
    assert check(ENFORCER, weapons, "reactive_armor+cooling_vents") is None
    # + another Cooling Vents (4) = 60, exactly the Enforcer's space: allowed.
    assert check(ENFORCER, weapons, "reactive_armor+cooling_vents+cooling_vents") is None
    # + Gyro Stabilizer (5) instead = 61 > 60.
    reason = check(ENFORCER, weapons, "reactive_armor+cooling_vents+gyro_stabilizer")
    assert reason == "the loadout needs 61 space; the Enforcer has 60"


def test_slot_equipment_needs_a_hardpoint_of_its_size_and_competes_with_weapons() -> None:
    assert check(ENFORCER, "-", "sensor_array@HD") is None  # small slot item on small H
    assert check(ENFORCER, "-", "stealth_plating@CT") is None  # large on large CT
    assert check(ENFORCER, "-", "phantom_emitter@LA") is None  # medium on medium LA
    reason = check(ENFORCER, "-", "sensor_array")
    assert reason and "slot equipment" in reason
    assert check(ENFORCER, "-", "phantom_emitter@HD")  # medium item, small hardpoint
    reason = check(ENFORCER, "light_laser@HD:1", "sensor_array@HD")  # one small H
    assert reason and "only 1 small hardpoint(s) at Head" in reason
    assert check(ENFORCER, "light_laser@HD:1", "point_defense@RA") is None


def test_passive_and_active_equipment_take_no_hardpoint() -> None:
    assert check(ENFORCER, "-", "cooling_vents+thrust_pack") is None
    for item in ("cooling_vents@CT", "thrust_pack@RA"):
        reason = check(ENFORCER, "-", item)
        assert reason and "takes no hardpoint" in reason


def test_unknown_and_misplaced_ids() -> None:
    assert check(ENFORCER, "death_ray@RA:1") == "no weapon 'death_ray'"
    assert check(ENFORCER, "-", "flux_capacitor") == "no equipment 'flux_capacitor'"
    reason = check(ENFORCER, "cooling_vents@RA:1")
    assert reason and "is equipment" in reason
    reason = check(ENFORCER, "-", "medium_laser")
    assert reason and "is a weapon" in reason


# ---- counting changes (§7.8) -------------------------------------------------------------
def test_group_changes_are_free() -> None:
    frame = camp(new_game()).frame("F1")
    # Every weapon regrouped: same ids at the same locations.
    ms, fs = mounts("medium_laser@RA:4+autocannon_5@LA:3+heavy_laser@RT:1+light_laser@HD:2")
    assert changes(frame, ms, fs) == 0


def test_installs_and_removals_are_counted() -> None:
    frame = camp(new_game()).frame("F1")
    ms, fs = mounts("medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2")
    assert changes(frame, ms, fs) == 1  # the Light Laser comes off
    ms, fs = mounts(ENFORCER_START, "cooling_vents")
    assert changes(frame, ms, fs) == 1  # Cooling Vents go in
    # Light Laser out of the head, Sensor Array in: 2 changes.
    ms, fs = mounts("medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2", "sensor_array@HD")
    assert changes(frame, ms, fs) == 2
    # ML and AC5 swap arms: each is unbolted and mounted again = 2 removals + 2 installs.
    ms, fs = mounts("medium_laser@LA:1+autocannon_5@RA:1+heavy_laser@RT:2+light_laser@HD:1")
    assert changes(frame, ms, fs) == 4
    assert changes(frame, (), ()) == 4  # strip everything


def test_duplicates_at_one_location_match_as_multisets() -> None:
    frame = attrs.evolve(
        camp(new_game()).frame("F1"),
        chassis="CL-100",
        weapons=mounts("heavy_laser@CT:1+heavy_laser@CT:2")[0],
    )
    assert changes(frame, *mounts("heavy_laser@CT:2+heavy_laser@CT:1")) == 0
    assert changes(frame, *mounts("heavy_laser@CT:3+heavy_laser@CT:3")) == 0
    assert changes(frame, *mounts("heavy_laser@CT:1")) == 1
    assert changes(frame, *mounts("heavy_laser@CT:1+heavy_laser@RT:2")) == 2


def test_inventory_sees_only_the_net_change_per_item() -> None:
    # A weapon moved from one hardpoint to another needs no spare copy.
    assert inventory_delta(["medium_laser", "light_laser"], ["medium_laser"]) == {"light_laser": 1}
    assert inventory_delta(["medium_laser"], ["medium_laser"]) == {}
    assert inventory_delta([], ["heavy_laser", "heavy_laser"]) == {"heavy_laser": -2}


# ---- the refit command ---------------------------------------------------------------------
def test_group_only_refit_is_free_and_instant() -> None:
    state = new_game()
    out = run(
        state, "refit F1 medium_laser@RA:2+autocannon_5@LA:1+heavy_laser@RT:2+light_laser@HD:1"
    )
    c = camp(out.state)
    f1 = c.frame("F1")
    assert f1.weapons[0].group == 2 and f1.busy_days == 0 and f1.status == "ready"
    assert c.credits == START_CREDITS and c.ledger == camp(state).ledger
    assert c.weapons == () and c.equipment == ()


def test_removal_returns_the_item_and_costs_500_and_a_day() -> None:
    state = new_game()
    out = run(state, "refit F1 medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2")
    c = camp(out.state)
    assert count_of(c.weapons, "light_laser") == 1
    assert c.credits == START_CREDITS - 500  # 1 change x 500
    assert c.ledger[-1].category == "refit" and c.ledger[-1].amount == -500
    f1 = c.frame("F1")
    assert f1.busy_days == 1 and f1.status == "ready"  # status stays; busy for 1 day
    assert len(f1.weapons) == 3


def test_installs_come_from_the_inventory() -> None:
    state = new_game()
    line = f"refit F1 {ENFORCER_START}+heavy_laser@CT:3 cooling_vents"
    reason = refuse(state, line)
    assert "needs 1 Heavy Laser from the inventory; it holds 0" in reason
    state = stocked(state, {"heavy_laser": 1}, {})
    reason = refuse(state, line)
    assert "needs 1 Cooling Vents from the inventory; it holds 0" in reason
    state = stocked(state, {}, {"cooling_vents": 2})
    c = camp(run(state, line).state)
    assert count_of(c.weapons, "heavy_laser") == 0
    assert count_of(c.equipment, "cooling_vents") == 1
    assert c.credits == START_CREDITS - 1_000  # 2 installs x 500
    assert c.frame("F1").busy_days == 2  # 2 changes x 1 day
    assert c.frame("F1").equipment == (Fitting(equipment="cooling_vents"),)


def test_moving_a_weapon_is_two_changes_but_needs_no_spare() -> None:
    # Raider: the Medium Laser goes from the right arm to the right torso (both medium).
    state = new_game()
    out = run(state, "refit F2 medium_laser@RT:1+light_laser@RA:1+autocannon_5@LA:2")
    c = camp(out.state)
    assert c.weapons == ()  # nothing taken from or left in the inventory
    assert c.credits == START_CREDITS - 1_000  # removal + install = 2 x 500
    assert c.frame("F2").busy_days == 2
    assert c.frame("F2").weapons[0] == Mount(weapon="medium_laser", mount="right_torso", group=1)


def test_refit_cost_and_days_then_the_bay_releases_the_frame() -> None:
    # Strip the Enforcer: 4 removals = 2,000 credits and 4 days.
    state = new_game()
    state = run(state, "refit F1 -").state
    c = camp(state)
    assert c.credits == START_CREDITS - 2_000
    assert c.frame("F1").weapons == () and c.frame("F1").busy_days == 4
    assert dict(c.weapons) == {
        "autocannon_5": 1,
        "heavy_laser": 1,
        "light_laser": 1,
        "medium_laser": 1,
    }
    state = run(state, "advance-day 3").state
    assert camp(state).frame("F1").busy_days == 1
    state = run(state, "advance-day").state
    assert camp(state).frame("F1").busy_days == 0
    assert camp(state).frame("F1").status == "ready"


def test_busy_frames_refuse_work_but_not_group_changes() -> None:
    state = run(new_game(), "refit F1 medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2").state
    reason = refuse(state, "refit F1 medium_laser@RA:1+autocannon_5@LA:1")
    assert reason == "Enforcer is in the refit bay for 1 more day(s)"
    out = run(state, "refit F1 medium_laser@RA:3+autocannon_5@LA:1+heavy_laser@RT:2")
    assert camp(out.state).frame("F1").weapons[0].group == 3
    assert camp(out.state).credits == camp(state).credits
    assert camp(out.state).frame("F1").busy_days == 1


def test_nothing_to_change_is_refused() -> None:
    state = new_game()
    assert refuse(state, f"refit F1 {ENFORCER_START}") == "nothing to change"
    # The same loadout in another order is still no change.
    shuffled = "light_laser@HD:1+heavy_laser@RT:2+autocannon_5@LA:1+medium_laser@RA:1"
    assert refuse(state, f"refit F1 {shuffled}") == "nothing to change"


def test_refit_refusals() -> None:
    state = new_game()
    assert refuse(state, "refit F9 -") == "no frame F9"
    assert refuse(state, "refit F9 nonsense") == "no frame F9"
    assert "weapon@location:group" in refuse(state, "refit F1 nonsense")
    assert "needs a large hardpoint" in refuse(state, "refit F1 heavy_laser@RA:1")
    wrecked = with_campaign(
        state,
        frames=tuple(
            attrs.evolve(f, status="destroyed", pilot=None) if f.id == "F1" else f
            for f in camp(state).frames
        ),
    )
    assert "destroyed" in refuse(wrecked, "refit F1 -")
    c = camp(state)
    c, _ = ledger.post(c, "market", -(c.credits - 499), "test: spend down to 499")
    poor = attrs.evolve(state, campaign=c)
    assert refuse(poor, "refit F1 -") == "costs 2,000 credits; the company has 499"
    # Group changes stay free even without money.
    run(poor, "refit F1 medium_laser@RA:2+autocannon_5@LA:1+heavy_laser@RT:2+light_laser@HD:1")


def test_damaged_frames_keep_their_status() -> None:
    state = new_game()
    state = with_campaign(
        state,
        frames=tuple(
            attrs.evolve(f, status="damaged") if f.id == "F1" else f for f in camp(state).frames
        ),
    )
    c = camp(run(state, "refit F1 medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2").state)
    assert c.frame("F1").status == "damaged" and c.frame("F1").busy_days == 1


def test_deployed_frames_cannot_be_refitted() -> None:
    contract = Contract(
        id="C1",
        employer="crucible",
        opponent="directorate",
        difficulty=1,
        base=50_000,
        bonus=0,
        landscape="station",
        enemies=(),
        place="junction_station",
        enemy_withdrawal="at_25",
    )
    c = attrs.evolve(
        camp(new_game()),
        mission=Mission(contract=contract, payout_level=2, frames=(("P1", "F1"),)),
    )
    assert plan_refit(c, "F1", (), ()) == "Enforcer is deployed on a mission"
    assert not isinstance(plan_refit(c, "F2", (), ()), str)


# ---- regroup (§7.2) ------------------------------------------------------------------------
def test_regroup_is_free_instant_and_one_based() -> None:
    state = new_game()
    c = camp(run(state, "regroup F1 3 4").state)  # weapon 3 = the Heavy Laser
    assert c.frame("F1").weapons[2] == Mount(weapon="heavy_laser", mount="right_torso", group=4)
    assert c.credits == START_CREDITS and c.frame("F1").busy_days == 0
    assert refuse(state, "regroup F1 0 1") == "Enforcer has weapons 1 to 4, not 0"
    assert refuse(state, "regroup F1 5 1") == "Enforcer has weapons 1 to 4, not 5"
    assert refuse(state, "regroup F1 1 5") == "weapon groups run 1 to 4, not 5"
    assert refuse(state, "regroup F1 1 1") == "Medium Laser is already in group 1"
    assert refuse(state, "regroup F7 1 1") == "no frame F7"


def test_regroup_works_while_the_frame_is_busy() -> None:
    state = run(new_game(), "refit F1 medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2").state
    c = camp(run(state, "regroup F1 1 2").state)
    assert c.frame("F1").weapons[0].group == 2 and c.frame("F1").busy_days == 1


# ---- reactor budget (§5.1-§5.3, §7.2, §7.8) --------------------------------------------------
def test_budget_of_the_starting_enforcer() -> None:
    b = frame_budget(camp(new_game()).frame("F1"))
    assert (b.reactor, b.boost, b.output, b.overload_limit, b.move_energy) == (17, 0, 17, 25, 5)
    # 17 x 150% = 25.5, rounded down to 25.
    assert (b.space_used, b.space) == (23, 60)  # 5 + 6 + 10 + 2
    g1, g2, g3, g4 = b.groups
    assert (g1.energy, g1.damage) == (13, 23)  # ML 8 + AC5 1 + LL 4; 10 + 8 + 5
    assert g1.weapons == ("medium_laser", "autocannon_5", "light_laser")
    assert (g2.energy, g2.damage, g2.weapons) == (14, 20, ("heavy_laser",))
    assert (g3.energy, g4.energy, g3.weapons) == (0, 0, ())
    assert b.warnings == (
        "group 1 plus a Move needs 13+5 = 18 energy, more than the output 17",
        "group 2 plus a Move needs 14+5 = 19 energy, more than the output 17",
    )
    used = {(h.size, h.location): (h.used, h.total) for h in b.hardpoints}
    assert used == {
        ("small", "head"): (1, 1),
        ("small", "right_arm"): (0, 1),
        ("medium", "right_arm"): (1, 1),
        ("medium", "left_arm"): (1, 1),
        ("large", "center_torso"): (0, 1),
        ("large", "right_torso"): (1, 1),
    }


def test_cooling_vents_raise_the_output_and_clear_the_warnings() -> None:
    frame = camp(new_game()).frame("F1")
    b = budget(ENFORCER, frame.weapons, (Fitting(equipment="cooling_vents"),))
    assert (b.boost, b.output, b.overload_limit) == (3, 20, 30)  # 17 + 3; 20 x 150%
    assert b.warnings == ()  # 18 and 19 both fit in 20


def test_budget_warns_over_output_and_over_overload() -> None:
    ms, fs = mounts("heavy_laser@RT:1+medium_laser@RA:1")
    assert budget(ENFORCER, ms, fs).warnings == (
        "group 1 needs 22 energy, more than the output 17",  # 14 + 8
    )
    ms, fs = mounts("heavy_laser@RT:1+heavy_laser@CT:1+medium_laser@RA:1")
    assert budget(ENFORCER, ms, fs).warnings == (
        "group 1 needs 36 energy, more than the overload limit 25: some weapons will be skipped",
    )


# ---- properties ----------------------------------------------------------------------------
CAT = catalog()
WEAPONS_BY_SIZE = {
    size: sorted(w.id for w in CAT.weapons.values() if w.size == size) for size in SIZES
}
SLOTS_BY_SIZE = {
    size: sorted(e.id for e in CAT.equipment.values() if e.slot_size == size) for size in SIZES
}
BARE = sorted(e.id for e in CAT.equipment.values() if e.category != "slot")
ALL_WEAPONS = sorted(CAT.weapons)


@st.composite
def refit_lines(draw: st.DrawFn) -> str:
    """A refit of F1 or F2 that fills some of the chassis' hardpoints (sometimes wrongly)."""
    frame_id = draw(st.sampled_from(["F1", "F2"]))
    ch = CAT.chassis[ENFORCER if frame_id == "F1" else RAIDER]
    weapons: list[str] = []
    equipment: list[str] = []
    for size in SIZES:
        for loc in ch.hardpoints.of(size):
            pick = draw(st.sampled_from(["empty", "weapon", "weapon", "slot", "any"]))
            group = draw(st.integers(0, 5) if draw(st.booleans()) else st.integers(1, 4))
            if pick == "weapon":
                weapons.append(f"{draw(st.sampled_from(WEAPONS_BY_SIZE[size]))}@{loc}:{group}")
            elif pick == "any":
                loc = draw(st.sampled_from(LOCATION_ORDER))
                weapons.append(f"{draw(st.sampled_from(ALL_WEAPONS))}@{loc}:{group}")
            elif pick == "slot" and SLOTS_BY_SIZE[size]:
                equipment.append(f"{draw(st.sampled_from(SLOTS_BY_SIZE[size]))}@{loc}")
    equipment += draw(st.lists(st.sampled_from(BARE), max_size=3))
    w = "+".join(draw(st.permutations(weapons))) or "-"
    e = "+".join(equipment) or "-"
    return f"refit {frame_id} {w} {e}"


def _totals(c: Campaign) -> Counter[str]:
    """Every item the company owns, fitted or in the inventory."""
    total: Counter[str] = Counter(dict(c.weapons)) + Counter(dict(c.equipment))
    for f in c.frames:
        total.update(m.weapon for m in f.weapons)
        total.update(x.equipment for x in f.equipment)
    return total


STOCK_STATE = stocked(
    new_game(5),
    {w: 2 for w in ALL_WEAPONS},
    {e: 2 for e in CAT.equipment},
)


@settings(max_examples=40)
@given(st.lists(st.one_of(refit_lines(), st.just("advance-day 5")), min_size=1, max_size=6))
def test_accepted_refits_keep_every_frame_legal_and_items_conserved(lines: list[str]) -> None:
    state = STOCK_STATE
    owned = _totals(camp(state))
    for line in lines:
        before = state
        out = step(state, parse_command(line))
        if isinstance(out, Refused):
            assert out.reason
            continue
        state = out.state
        c = camp(state)
        for f in c.frames:
            ch = CAT.chassis[f.chassis]
            assert check_loadout(ch, f.weapons, f.equipment) is None
            assert budget(f.chassis, f.weapons, f.equipment).space_used <= ch.space
        assert all(n > 0 for _, n in (*c.weapons, *c.equipment))
        assert _totals(c) == owned
        assert c.credits == ledger.starting_credits(c) + sum(e.amount for e in c.ledger)
        if line.startswith("refit"):
            frame_id = line.split()[1]
            spent = camp(before).credits - c.credits
            days = c.frame(frame_id).busy_days - camp(before).frame(frame_id).busy_days
            assert spent == 500 * days  # 500 credits per day of bay time, 0 for groups


def test_refit_without_an_equipment_list_keeps_the_equipment() -> None:
    # The EQUIPMENT argument left out means "keep what is fitted": only the weapon change
    # (one removal: the Light Laser from the head) is charged.
    state = stocked(new_game(), {}, {"cooling_vents": 1})
    weapons = "medium_laser@right_arm:1+autocannon_5@left_arm:1+heavy_laser@right_torso:2"
    with_vents = run(state, f"refit F1 {weapons}+light_laser@head:1 cooling_vents").state
    c = camp(with_vents)
    assert [f.equipment for f in c.frame("F1").equipment] == ["cooling_vents"]
    busy = attrs.evolve(c.frame("F1"), busy_days=0)
    ready = attrs.evolve(with_vents, campaign=c.with_frame(busy))
    out = run(ready, f"refit F1 {weapons}")
    after = camp(out.state)
    assert [f.equipment for f in after.frame("F1").equipment] == ["cooling_vents"]
    assert after.credits == camp(ready).credits - 500
