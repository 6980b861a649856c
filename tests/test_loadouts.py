"""Enemy stock loadouts (R18, D10): every chassis has some, and none breaks a refit rule.

The shipped loadouts are re-checked here from the catalog records alone (not through the
loader's own checks); broken copies of data/loadouts.toml must be refused with a message that
names the file, the entry and the field.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from mac_tui.catalog import UNIVERSAL, DataError, catalog, load_catalog
from mac_tui.catalog.records import Chassis, StockLoadout

from .conftest import ROOT

FILE = "data/loadouts.toml"
OVERLOAD_PERCENT = 150  # §5.3: a frame may spend up to 150% of its reactor output a round
VENTS_BOOST = 3  # §7.7.2: Cooling Vents, +3 effective reactor output


def _all() -> list[tuple[Chassis, StockLoadout]]:
    cat = catalog()
    return [(cat.chassis[d], lo) for d, los in cat.loadouts.items() for lo in los]


ALL = _all()
IDS = [f"{c.designation}-{lo.name}" for c, lo in ALL]


def _group_energy(lo: StockLoadout) -> dict[int, int]:
    weapons = catalog().weapons
    energy: Counter[int] = Counter()
    for entry in lo.weapons:
        energy[entry.group] += weapons[entry.weapon].energy
    return dict(energy)


# ---- the shipped data -------------------------------------------------------------------
def test_every_chassis_has_two_or_more_named_loadouts() -> None:
    cat = catalog()
    assert list(cat.loadouts) == list(cat.chassis)  # every chassis, in chassis.toml order
    for designation, loadouts in cat.loadouts.items():
        assert len(loadouts) >= 2, designation
        names = [lo.name for lo in loadouts]
        assert len(set(names)) == len(names), designation
        assert cat.stock_loadouts(designation) == loadouts


def test_unknown_chassis_has_no_stock_loadouts() -> None:
    with pytest.raises(KeyError):
        catalog().stock_loadouts("XX-00")


@pytest.mark.parametrize(("chassis", "loadout"), ALL, ids=IDS)
def test_weapons_are_of_the_chassis_faction_or_universal_and_not_exclusive(
    chassis: Chassis, loadout: StockLoadout
) -> None:
    weapons = catalog().weapons
    assert loadout.weapons, "a stock loadout carries at least one weapon"
    for entry in loadout.weapons:
        weapon = weapons[entry.weapon]
        assert weapon.faction in (chassis.faction, UNIVERSAL), entry
        assert not weapon.exclusive, entry


@pytest.mark.parametrize(("chassis", "loadout"), ALL, ids=IDS)
def test_weapons_and_slots_fit_the_hardpoints(chassis: Chassis, loadout: StockLoadout) -> None:
    cat = catalog()
    used: Counter[tuple[str, str]] = Counter()
    for entry in loadout.weapons:
        used[cat.weapons[entry.weapon].size, entry.mount] += 1
    for fit in loadout.slots:
        item = cat.equipment[fit.equipment]
        assert item.category == "slot", fit
        used[item.slot_size, fit.mount] += 1
    for (size, mount), count in used.items():
        listed = getattr(chassis.hardpoints, size)
        assert count <= listed.count(mount), f"{count} {size} at {mount}, listed {listed}"


@pytest.mark.parametrize(("chassis", "loadout"), ALL, ids=IDS)
def test_equipment_exists_and_space_fits(chassis: Chassis, loadout: StockLoadout) -> None:
    cat = catalog()
    for eid in loadout.equipment:
        assert cat.equipment[eid].category in ("passive", "active"), eid
    space = sum(cat.weapons[e.weapon].space for e in loadout.weapons)
    space += sum(cat.equipment[eid].space for eid in loadout.equipment)
    space += sum(cat.equipment[fit.equipment].space for fit in loadout.slots)
    assert space <= chassis.space


@pytest.mark.parametrize(("chassis", "loadout"), ALL, ids=IDS)
def test_groups_are_one_to_four_and_fit_the_overloaded_reactor(
    chassis: Chassis, loadout: StockLoadout
) -> None:
    assert catalog().combat.reactor.overload_percent == OVERLOAD_PERCENT
    energy = _group_energy(loadout)
    assert 1 in energy, "group 1 is the main group"
    assert set(energy) <= {1, 2, 3, 4}
    for group, spent in energy.items():
        assert spent <= chassis.reactor * OVERLOAD_PERCENT // 100, f"group {group}: {spent}"


@pytest.mark.parametrize(("chassis", "loadout"), ALL, ids=IDS)
def test_design_aims_each_group_fits_the_reactor_and_group_1_fires_after_a_move(
    chassis: Chassis, loadout: StockLoadout
) -> None:
    energy = _group_energy(loadout)
    assert max(energy.values()) <= chassis.reactor
    output = chassis.reactor + VENTS_BOOST * loadout.equipment.count("cooling_vents")
    assert energy[1] + chassis.move_energy <= output


def test_loadouts_leave_at_most_one_usable_hardpoint_empty() -> None:
    cat = catalog()
    for chassis, loadout in ALL:
        total = sum(len(chassis.hardpoints.of(size)) for size in ("small", "medium", "large"))
        used = len(loadout.weapons) + len(loadout.slots)
        usable = total
        if chassis.faction == UNIVERSAL:  # no universal large weapon exists
            assert not any(
                w.size == "large" and w.faction == UNIVERSAL for w in cat.weapons.values()
            )
            usable = total - len(chassis.hardpoints.large)
        assert used >= min(usable, total - 1), f"{chassis.designation} {loadout.name}"


# ---- broken data ------------------------------------------------------------------------
Edit = Callable[[str], str]


def _sub(pattern: str, repl: str) -> Edit:
    return lambda t: re.sub(pattern, repl, t, count=1, flags=re.DOTALL)


def _drop(name: str) -> Edit:
    """Remove the first loadout called `name` (up to the next comment line)."""
    return _sub(r'\[\[chassis\.loadout\]\]\nname = "' + name + r'".*?(?=\n#)', "")


def _swap(old: str, new: str) -> Edit:
    return lambda t: t.replace(old, new, 1)


SC20 = 'chassis "SC-20" (entry 1)'
SC20_STANDARD = f'{SC20}, field "loadout", loadout "Standard" (entry 1)'
SC20_HARASSER = f'{SC20}, field "loadout", loadout "Harasser" (entry 2)'
ML_RA_1 = '{ weapon = "medium_laser", mount = "right_arm", group = 1 }'

CASES: list[tuple[str, Edit, tuple[str, ...]]] = [
    (
        "unknown chassis",
        _swap('designation = "SC-20"', 'designation = "SC-21"'),
        ('chassis "SC-21" (entry 1), field "designation"', '"SC-21" does not name'),
    ),
    (
        "chassis listed twice",
        _swap('designation = "RD-30"', 'designation = "SC-20"'),
        ('chassis "SC-20" (entry 2)', 'duplicates the designation "SC-20"'),
    ),
    (
        "chassis without loadouts",
        _sub(r'\[\[chassis\]\]\ndesignation = "EN-50".*?(?=\n# -)', ""),
        ('chassis "EN-50"', "has no stock loadouts"),
    ),
    (
        "only one loadout",
        lambda t: _drop("Brawler")(_drop("Harasser")(t)),
        (f'{SC20}, field "loadout"', "at least two stock loadouts"),
    ),
    (
        "loadout name used twice",
        _swap('name = "Harasser"', 'name = "Standard"'),
        (f'{SC20}, field "loadout", loadout "Standard" (entry 2), field "name"', "duplicates"),
    ),
    (
        "no weapons",
        _sub(r"weapons = \[\n.*?\n\]", "weapons = []"),
        (f'{SC20_STANDARD}, field "weapons"', "at least one weapon"),
    ),
    (
        "unknown weapon",
        _swap('weapon = "medium_laser"', 'weapon = "medium_lazer"'),
        (f'{SC20_STANDARD}, field "weapons", loadout entry 1, field "weapon"', '"medium_lazer"'),
    ),
    (
        "weapon of another faction",
        _swap(ML_RA_1, ML_RA_1.replace("medium_laser", "srm_6")),
        (f'{SC20_STANDARD}, field "weapons", loadout entry 1, field "weapon"', "outer_reach"),
    ),
    (
        "faction-exclusive weapon",
        _swap(
            '{ weapon = "gauss_cannon", mount = "center_torso"',
            '{ weapon = "precision_gauss", mount = "center_torso"',
        ),
        (
            'chassis "WD-60" (entry 7), field "loadout", loadout "Standard" (entry 1), '
            'field "weapons", loadout entry 1, field "weapon"',
            "faction-exclusive",
        ),
    ),
    (
        "no hardpoint of that size at the mount",
        _swap(ML_RA_1, ML_RA_1.replace("right_arm", "head")),
        (
            f'{SC20_STANDARD}, field "weapons", loadout entry 1, field "mount"',
            "no free medium hardpoint at head",
        ),
    ),
    (
        "more weapons at a mount than hardpoints",
        _swap('mount = "right_torso", group = 2 }', 'mount = "head", group = 2 }'),
        (
            f'{SC20_STANDARD}, field "weapons", loadout entry 5, field "mount"',
            "no free small hardpoint at head",
        ),
    ),
    (
        "slot equipment on a taken hardpoint",
        _swap(
            '{ equipment = "sensor_array", mount = "right_arm" }',
            '{ equipment = "sensor_array", mount = "left_arm" }',
        ),
        (
            f'{SC20_HARASSER}, field "slots", slot entry 1, field "mount"',
            "no free small hardpoint at left_arm",
        ),
    ),
    (
        "mount where weapons never go",
        _swap(ML_RA_1, ML_RA_1.replace("right_arm", "legs")),
        (f'{SC20_STANDARD}, field "weapons", loadout entry 1, field "mount"', "not one of"),
    ),
    (
        "over the space budget",
        _swap(
            'equipment = ["ammo_bin", "reactive_armor"]',
            'equipment = ["ammo_bin", "reactive_armor", "cooling_vents"]',
        ),
        (
            'chassis "HR-35" (entry 3), field "loadout", loadout "Striker" (entry 2), '
            'field "equipment", item 3',
            "space used to 49; HR-35 has 45",
        ),
    ),
    (
        "group out of range",
        _swap("group = 3 }", "group = 5 }"),
        (f'{SC20_STANDARD}, field "weapons", loadout entry 6, field "group"', "out of range"),
    ),
    (
        "group beyond the overloaded reactor",
        _swap(
            '{ weapon = "medium_laser", mount = "left_arm", group = 2 }',
            '{ weapon = "medium_laser", mount = "left_arm", group = 1 }',
        ),
        (
            f'{SC20}, field "loadout", loadout "Brawler" (entry 3), field "weapons", '
            'loadout entry 4, field "group"',
            "group 1 draws 16 energy; SC-20 can spend at most 15",
        ),
    ),
    (
        "unknown equipment",
        _swap('equipment = ["cooling_vents"]', 'equipment = ["cooling_vent"]'),
        (f'{SC20_STANDARD}, field "equipment"', '"cooling_vent" does not name'),
    ),
    (
        "slot equipment without a mount",
        _swap('equipment = ["cooling_vents"]', 'equipment = ["sensor_array"]'),
        (f'{SC20_STANDARD}, field "equipment", item 1', "slot equipment"),
    ),
    (
        "unknown slot equipment id",
        _swap(
            '{ equipment = "sensor_array", mount = "right_arm" }',
            '{ equipment = "sonar", mount = "right_arm" }',
        ),
        (f'{SC20_HARASSER}, field "slots", slot entry 1, field "equipment"', '"sonar"'),
    ),
    (
        "passive equipment in a slot",
        _swap(
            '{ equipment = "sensor_array", mount = "right_arm" }',
            '{ equipment = "gyro_stabilizer", mount = "right_arm" }',
        ),
        (
            f'{SC20_HARASSER}, field "slots", slot entry 1, field "equipment"',
            "passive equipment",
        ),
    ),
    (
        "typo in a key",
        _swap("equipment = [", "equipmnt = ["),
        (SC20_STANDARD, 'unknown field "equipmnt"'),
    ),
]


@pytest.mark.parametrize(("label", "edit", "expected"), CASES, ids=[c[0] for c in CASES])
def test_broken_loadouts_name_file_entry_and_field(
    tmp_path: Path, label: str, edit: Edit, expected: tuple[str, ...]
) -> None:
    root = tmp_path / "data"
    shutil.copytree(ROOT / "data", root)
    path = root / "loadouts.toml"
    text = path.read_text()
    new = edit(text)
    assert new != text, "the edit must change the file"
    path.write_text(new)
    with pytest.raises(DataError) as info:
        load_catalog(root)
    message = str(info.value)
    assert message.startswith(f"{FILE}, ") or message.startswith(f"{FILE}: "), message
    for part in expected:
        assert part in message, f"{label}: {part!r} not in {message!r}"
    assert "\n" not in message


def test_missing_loadouts_file_is_named(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(ROOT / "data", root)
    (root / "loadouts.toml").unlink()
    with pytest.raises(DataError, match=r"data/loadouts\.toml: the file is missing"):
        load_catalog(root)
