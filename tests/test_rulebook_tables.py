"""Every value in data/*.toml against the rulebook, read from the markdown at test time.

The expectations are parsed out of ../shared/rules/core-rules.md (and setup-facts.md and
rulings.md for what the core rules leave out), so a change to either side that makes them
disagree fails here with the table, row and field named. See tests/rulebook.py for the parser.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from mac_tui.catalog import CONTESTED, UNIVERSAL, catalog

from .rulebook import (
    Doc,
    attr,
    bare_name,
    chassis_by_name,
    chassis_named,
    check,
    class_named,
    clean,
    equipment_named,
    faction_named,
    formula,
    gear_named,
    ident,
    lead_int,
    location_named,
    missing_documents,
    mounts,
    num,
    number,
    paren_name,
    percent,
    rules,
    rulings,
    setup,
    span,
    standing_named,
    system_named,
    terrain_named,
    transposed,
    weapon_named,
)

if missing_documents():
    pytest.skip(missing_documents(), allow_module_level=True)

BOOK = rules()
SETUP = setup()
RULINGS = rulings()
CAT = catalog()

# The difficulties the book prices (§11.6); formulas "of Difficulty" are checked at each.
DIFFICULTIES = [lead_int(row["Difficulty"]) for row in BOOK.table("### 11.6 Mission Rewards")]


def _params(rows: list[dict[str, str]], key: str) -> list[Any]:
    return [pytest.param(row, id=clean(row[key])) for row in rows]


# ============================================================================================
# §7.4 weapons, §3.1 base accuracy
# ============================================================================================
WEAPONS_HEADING = "### 7.4 Complete Weapon Reference"
EXCLUSIVE_HEADING = "#### Faction Exclusive Weapons"
WEAPON_ROWS = [
    pytest.param(heading, row, id=row["Weapon"])
    for heading in BOOK.subheadings(WEAPONS_HEADING)
    for row in BOOK.table(heading)
]


def _size_of(heading: str) -> tuple[str, bool]:
    """(size, exclusive) from a §7.4 sub-heading. The exclusive table gives no size: by the
    project ruling (weapons.toml, docs/rulings.md D1) those weapons are Large."""
    if heading.startswith(EXCLUSIVE_HEADING):
        return "large", True
    m = re.fullmatch(r"#### (Small|Medium|Large) Hardpoint Weapons", heading)
    assert m, f"§7.4: unexpected sub-heading {heading!r}"
    return m.group(1).lower(), False


@pytest.mark.parametrize(("heading", "row"), WEAPON_ROWS)
def test_weapon_reference(heading: str, row: dict[str, str]) -> None:
    weapon = weapon_named(CAT, row["Weapon"])
    size, exclusive = _size_of(heading)
    where = f"§7.4 {heading.lstrip('# ')!r} row {row['Weapon']!r}"
    # The data may drop the book's gloss: "LRM-15 (Long Range Missiles)" -> "LRM-15".
    assert weapon.name in (row["Weapon"], bare_name(row["Weapon"])), (
        f'{where}: data/weapons.toml weapon "{weapon.id}" name = {weapon.name!r}'
    )
    check(
        where,
        f'data/weapons.toml weapon "{weapon.id}"',
        weapon,
        {
            "size": size,
            "exclusive": exclusive,
            "type": ident(row["Type"]),
            "damage": num(row["Damage"]),
            "energy": num(row["Energy"]),
            "ammo_per_shot": num(row["Ammo/Shot"]),
            "space": num(row["Space"]),
            "range": ident(row["Range"]),
            "accuracy": num(row["Accuracy"]),
            "price": num(row["Price"]),
            "faction": ident(row["Faction"]),
        },
    )


def test_weapon_ids_follow_book_names() -> None:
    """A weapon id is its §7.4 name (or the part in brackets, "SRM-6") or its §15.3 name
    ("HAC-10") written as an id."""
    gear = {
        ident(item)
        for row in BOOK.table("### 15.3 The Three Factions")
        for item in row["Exclusive Gear"].split(",")
    }
    for p in WEAPON_ROWS:
        name = p.values[1]["Weapon"]
        weapon = weapon_named(CAT, name)
        spellings = {ident(bare_name(name)), ident(paren_name(name) or "")} | gear
        assert weapon.id in spellings, (
            f"§7.4 row {name!r}: data/weapons.toml id {weapon.id!r} is none of the book's "
            f"names for it as an id"
        )


def test_weapon_reference_lists_every_catalog_weapon() -> None:
    book = sorted(weapon_named(CAT, p.values[1]["Weapon"]).id for p in WEAPON_ROWS)
    assert book == sorted(CAT.weapons), (
        f"§7.4 lists weapons {book}, data/weapons.toml has {sorted(CAT.weapons)}"
    )


@pytest.mark.parametrize("row", _params(BOOK.table("### 3.1 Base Accuracy"), "Weapon"))
def test_base_accuracy(row: dict[str, str]) -> None:
    weapon = weapon_named(CAT, row["Weapon"])
    check(
        f"§3.1 Base Accuracy row {row['Weapon']!r}",
        f'data/weapons.toml weapon "{weapon.id}"',
        weapon,
        {"accuracy": num(row["Base Accuracy"])},
    )


def test_weapon_special_effects() -> None:
    """§7.4 "Special Effects" and rulings R9/R10: only the Flamer stresses, only the LRM-15
    fires indirectly, and the Flamer adds the stress R9 gives."""
    stresser = BOOK.search(WEAPONS_HEADING, r"\*\*Special Effects\*\*: ([\w -]+?) increases")
    indirect = BOOK.search(WEAPONS_HEADING, r"\. ([\w-]+) is indirect fire capable")
    flamer = weapon_named(CAT, stresser.group(1))
    stress = RULINGS.search("## Combat", rf"each {flamer.name} hit adds (\d+) reactor stress")
    want_stress = {w: (num(stress.group(1)) if w == flamer.id else 0) for w in CAT.weapons}
    got_stress = {w.id: w.stress_on_hit for w in CAT.weapons.values()}
    assert got_stress == want_stress, (
        f"§7.4 Special Effects / R9 give stress_on_hit {want_stress}; data/weapons.toml has "
        f"{got_stress}"
    )
    lrm = weapon_named(CAT, indirect.group(1))
    got_indirect = sorted(w.id for w in CAT.weapons.values() if w.indirect)
    assert got_indirect == [lrm.id], (
        f"§7.4 Special Effects: only {lrm.id} is indirect; data/weapons.toml has {got_indirect}"
    )


# ============================================================================================
# §8 chassis: stat blocks, class ranges, structure; setup-facts hardpoint mounts
# ============================================================================================
STATS_HEADING = "### 8.3 Chassis Stat Blocks"
CHASSIS_BLOCKS = [
    pytest.param(heading, label, stats, id=label.split()[0])
    for heading in BOOK.subheadings(STATS_HEADING)
    for label, stats in transposed(BOOK.table(heading)).items()
]


@pytest.mark.parametrize(("heading", "label", "stats"), CHASSIS_BLOCKS)
def test_chassis_stat_block(heading: str, label: str, stats: dict[str, str]) -> None:
    chassis = chassis_named(CAT, label)
    name = re.fullmatch(r'\S+ "(.+)"', label)
    hardpoints = re.fullmatch(r"(\d+)S/(\d+)M/(\d+)L", stats["Hardpoints"])
    assert name and hardpoints, f"§8.3 column {label!r}: cannot read name / hardpoints"
    cls = re.match(r"#### (\w+) Class", heading)
    assert cls, f"§8.3: unexpected sub-heading {heading!r}"
    where = f"§8.3 {heading.lstrip('# ')!r} column {label!r}"
    check(
        where,
        f'data/chassis.toml chassis "{chassis.designation}"',
        chassis,
        {
            "name": name.group(1),
            "class_": ident(cls.group(1)),
            "faction": ident(stats["Faction"]),
            "tonnage": num(stats["Tonnage"]),
            "armor": num(stats["Total Armor"]),
            "reactor": num(stats["Reactor Output"]),
            "move_energy": num(stats["Move Energy"]),
            "speed": num(stats["Speed"]),
            "evasion": num(stats["Evasion"]),
            "space": num(stats["Total Space"]),
        },
    )
    counts = {size: len(chassis.hardpoints.of(size)) for size in ("small", "medium", "large")}
    want = dict(zip(("small", "medium", "large"), map(int, hardpoints.groups()), strict=True))
    assert counts == want, f"{where} Hardpoints: data/chassis.toml has {counts}, book {want}"
    price = CAT.chassis_price(chassis)
    assert price == num(stats["Price"]), (
        f"{where} Price: catalog.chassis_price() (data/classes.toml "
        f'"{chassis.class_}".price) = {price}, book {num(stats["Price"])}'
    )


def test_stat_blocks_list_every_catalog_chassis() -> None:
    book = sorted(chassis_named(CAT, p.values[1]).designation for p in CHASSIS_BLOCKS)
    assert book == sorted(CAT.chassis), (
        f"§8.3 lists chassis {book}, data/chassis.toml has {sorted(CAT.chassis)}"
    )


CLASS_RANGES = {  # data field -> (table heading, column)
    "tonnage": ("### 8.1 Class Overview", "Tonnage"),
    "armor": ("### 8.1 Class Overview", "Armor"),
    "reactor": ("### 8.1 Class Overview", "Reactor"),
    "speed": ("### 8.1 Class Overview", "Speed"),
    "evasion": ("### 8.1 Class Overview", "Evasion"),
    "move_energy": ("### 6.4 Hex Movement", "Move Energy"),
}


@pytest.mark.parametrize("field", list(CLASS_RANGES))
def test_chassis_within_class_ranges(field: str) -> None:
    heading, column = CLASS_RANGES[field]
    ranges = {ident(row["Class"]): span(row[column]) for row in BOOK.table(heading)}
    outside = [
        f"{c.designation} {field}={attr(c, field)} not in {c.class_} {ranges[c.class_]}"
        for c in CAT.chassis.values()
        if not ranges[c.class_][0] <= attr(c, field) <= ranges[c.class_][1]
    ]
    assert not outside, f"{heading} column {column!r} vs data/chassis.toml: {outside}"


@pytest.mark.parametrize("row", _params(BOOK.table("### 8.4 Structure Per Location"), "Chassis"))
def test_structure_per_location(row: dict[str, str]) -> None:
    chassis = chassis_named(CAT, row["Chassis"])
    check(
        f"§8.4 Structure row {row['Chassis']!r}",
        f'data/chassis.toml chassis "{chassis.designation}" structure',
        chassis.structure,
        {
            "head": num(row["Head"]),
            "center_torso": num(row["CT"]),
            "side_torso": num(row["Side Torso"]),
            "arm": num(row["Arm"]),
            "legs": num(row["Legs"]),
        },
    )


def test_structure_table_lists_every_catalog_chassis() -> None:
    rows = BOOK.table("### 8.4 Structure Per Location")
    book = sorted(chassis_named(CAT, row["Chassis"]).designation for row in rows)
    assert book == sorted(CAT.chassis), (
        f"§8.4 lists {book}, data/chassis.toml {sorted(CAT.chassis)}"
    )


MOUNTS_HEADING = "## Hardpoint mount locations per chassis"


@pytest.mark.parametrize("row", _params(SETUP.table(MOUNTS_HEADING), "Chassis"))
def test_hardpoint_mount_locations(row: dict[str, str]) -> None:
    chassis = chassis_named(CAT, row["Chassis"])
    check(
        f"setup-facts {MOUNTS_HEADING.lstrip('# ')!r} row {row['Chassis']!r}",
        f'data/chassis.toml chassis "{chassis.designation}" hardpoints',
        chassis.hardpoints,
        {size: mounts(row[size.title()]) for size in ("small", "medium", "large")},
    )


def test_mount_table_lists_every_catalog_chassis() -> None:
    book = sorted(
        chassis_named(CAT, row["Chassis"]).designation for row in SETUP.table(MOUNTS_HEADING)
    )
    assert book == sorted(CAT.chassis), (
        f"setup-facts mount table lists {book}, data/chassis.toml {sorted(CAT.chassis)}"
    )


# ============================================================================================
# §7.7.2 equipment
# ============================================================================================
EQUIPMENT_HEADING = "#### 7.7.2 Equipment List"
EQUIPMENT_ROWS = [
    pytest.param(category, row, id=row["Equipment"])
    for category in ("Passive", "Active", "Slot")
    for row in BOOK.table(EQUIPMENT_HEADING, after=f"**{category} Equipment**")
]


@pytest.mark.parametrize(("category", "row"), EQUIPMENT_ROWS)
def test_equipment_list(category: str, row: dict[str, str]) -> None:
    item = equipment_named(CAT, row["Equipment"])
    first_number = re.search(r"\d+", row["Effect"])
    assert first_number, f"§7.7.2 row {row['Equipment']!r}: no number in Effect"
    check(
        f"§7.7.2 {category} Equipment row {row['Equipment']!r}",
        f'data/equipment.toml equipment "{item.id}"',
        item,
        {
            "category": ident(category),
            "slot_size": ident(row["Size"]) if "Size" in row else "none",
            "space": num(row["Space"]),
            "energy": num(row["Energy"]) if "Energy" in row else 0,
            "price": num(row["Cost"]),
        },
    )
    # The size of the effect (its sign is the engine's convention, e.g. Gyro Stabilizer's
    # "-10% target evasion" is a +10 accuracy bonus per §7.7.3).
    assert abs(item.value) == int(first_number.group()), (
        f"§7.7.2 {category} Equipment row {row['Equipment']!r} Effect {row['Effect']!r}: "
        f'data/equipment.toml equipment "{item.id}" value = {item.value}'
    )


def test_equipment_list_covers_every_catalog_item() -> None:
    book = sorted(equipment_named(CAT, p.values[1]["Equipment"]).id for p in EQUIPMENT_ROWS)
    core = sorted(e.id for e in CAT.equipment.values() if not e.module)  # O0.11: module items
    assert book == core, f"§7.7.2 lists {book}, data/equipment.toml has {core}"


def test_equipment_ranges_and_move_penalty() -> None:
    """Distances in the effects: "beyond 5 hexes" and "-1 hex movement" (§7.7.2); the Targeting
    Uplink's "within 4 hexes of the user" and the Barrier Projector's "adjacent" ally (R11).
    Every other item has range 0 and no move penalty."""
    effects = {clean(p.values[1]["Equipment"]): p.values[1]["Effect"] for p in EQUIPMENT_ROWS}
    want_range = {equipment_named(CAT, name).id: 0 for name in effects}
    want_penalty = dict(want_range)
    for name, effect in effects.items():
        item = equipment_named(CAT, name)
        beyond = re.search(r"beyond (\d+) hexes", effect)
        penalty = re.search(r"-(\d+) hex movement", effect)
        if beyond:
            want_range[item.id] = int(beyond[1])
        if penalty:
            want_penalty[item.id] = int(penalty[1])
    for pattern in (
        r"([A-Z]\w+ [A-Z]\w+): [^.]*? it designates \(within (\d+) hexes of the user\)",
        r"([A-Z]\w+ [A-Z]\w+): \+\d+ temporary armour on an (adjacent) ally",
    ):
        m = RULINGS.search("## Combat", pattern)
        want_range[equipment_named(CAT, m[1]).id] = WORDS.get(m[2]) or int(m[2])
    core = [e for e in CAT.equipment.values() if not e.module]  # O0.11: module items apart
    got_range = {e.id: e.range for e in core}
    got_penalty = {e.id: e.move_penalty for e in core}
    assert got_range == want_range, (
        f"§7.7.2 / R11 give equipment ranges {want_range}; data/equipment.toml {got_range}"
    )
    assert got_penalty == want_penalty, (
        f"§7.7.2 gives move penalties {want_penalty}; data/equipment.toml {got_penalty}"
    )


# ============================================================================================
# §6.2 terrain, §3.5 terrain defence, §3.6 LOS
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("### 6.2 Terrain Types"), "Terrain"))
def test_terrain_types(row: dict[str, str]) -> None:
    terrain = terrain_named(CAT, row["Terrain"])
    check(
        f"§6.2 Terrain Types row {row['Terrain']!r}",
        f'data/terrain.toml terrain "{terrain.id}"',
        terrain,
        {
            "id": ident(row["Terrain"]),
            "move_cost": num(row["Move Cost"]),
            "defense": num(row["Defense Bonus"]),
            "los_penalty": abs(num(row["LOS Penalty"].removesuffix("/hex"))),
        },
    )


def test_terrain_table_covers_every_catalog_terrain() -> None:
    book = sorted(ident(row["Terrain"]) for row in BOOK.table("### 6.2 Terrain Types"))
    assert book == sorted(CAT.terrain), (
        f"§6.2 lists {book}, data/terrain.toml {sorted(CAT.terrain)}"
    )


@pytest.mark.parametrize("row", _params(BOOK.table("### 3.6 Line of Sight"), "Intervening Terrain"))
def test_los_penalty_per_hex(row: dict[str, str]) -> None:
    for name in row["Intervening Terrain"].split("/"):
        terrain = terrain_named(CAT, name)
        check(
            f"§3.6 LOS row {row['Intervening Terrain']!r}",
            f'data/terrain.toml terrain "{terrain.id}"',
            terrain,
            {"los_penalty": abs(num(row["Penalty per Hex"]))},
        )


# §3.5 modifier rows -> data/combat.toml [accuracy] field
ACCURACY_MODIFIERS = {
    "Brace bonus": "brace",
    "Sensor damage": "sensor_hit",
    "Called shot penalty": "called_shot",
    "Arm actuator damage": "arm_actuator",
}


@pytest.mark.parametrize("row", _params(BOOK.table("### 3.5 Other Modifiers"), "Modifier"))
def test_other_modifiers(row: dict[str, str]) -> None:
    label = row["Modifier"]
    terrain = re.fullmatch(r"Terrain defense \((\w+)\)", label)
    if terrain:
        record = terrain_named(CAT, terrain.group(1))
        check(
            f"§3.5 row {label!r}",
            f'data/terrain.toml terrain "{record.id}"',
            record,
            {"defense": abs(num(row["Effect"]))},
        )
    elif label in ACCURACY_MODIFIERS:
        check(
            f"§3.5 row {label!r}",
            "data/combat.toml [accuracy]",
            CAT.combat.accuracy,
            {ACCURACY_MODIFIERS[label]: abs(num(row["Effect"]))},
        )
    else:
        assert row["Effect"] == "Varies", f"§3.5 row {label!r} is not checked by this test"


# ============================================================================================
# §2 AP costs
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("## 2. Action Economy"), "Action"))
def test_action_costs(row: dict[str, str]) -> None:
    fields = [ident(row["Action"]), ident(row["Action"].split()[0])]  # "Vent Reactor" -> vent
    field = next((f for f in fields if hasattr(CAT.combat.ap_costs, f)), None)
    assert field, f"§2 row {row['Action']!r} names no data/combat.toml [ap_costs] field"
    check(
        f"§2 Action Economy row {row['Action']!r}",
        "data/combat.toml [ap_costs]",
        CAT.combat.ap_costs,
        {field: num(row["AP Cost"])},
    )


# ============================================================================================
# Classes: §6.4 movement, §11.1 price, §11.4 upkeep, §11.5 deployment, §17.4 cheat sheet
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("### 6.4 Hex Movement"), "Class"))
def test_hex_movement(row: dict[str, str]) -> None:
    cls = class_named(CAT, row["Class"])
    check(
        f"§6.4 Hex Movement row {row['Class']!r}",
        f'data/classes.toml class "{cls.id}"',
        cls,
        {"id": ident(row["Class"]), "hex_movement": num(row["HexMovement"])},
    )
    sprint = cls.hex_movement * CAT.combat.movement.sprint_range_multiplier
    assert sprint == num(row["Sprint Range"]), (
        f"§6.4 row {row['Class']!r} Sprint Range {row['Sprint Range']}: hex_movement x "
        f"data/combat.toml [movement].sprint_range_multiplier = {sprint}"
    )
    lo, hi = span(row["Move Energy"])
    mult = CAT.combat.movement.sprint_energy_multiplier
    assert span(row["Sprint Energy"]) == (lo * mult, hi * mult), (
        f"§6.4 row {row['Class']!r} Sprint Energy {row['Sprint Energy']} is not Move Energy x "
        f"data/combat.toml [movement].sprint_energy_multiplier ({mult})"
    )


def test_chassis_pricing() -> None:
    heading = "### 11.1 Chassis Pricing"
    rows = BOOK.table(heading)
    sell_header = next(h for h in rows[0] if h.startswith("Sell Price"))
    sell = re.search(r"\((\d+)%\)", sell_header)
    assert sell, f"§11.1: no percentage in header {sell_header!r}"
    check(heading, "data/economy.toml [prices]", CAT.economy.prices, {"sell_percent": num(sell[1])})
    for row in rows:
        cls = class_named(CAT, row["Class"])
        check(
            f"§11.1 row {row['Class']!r}",
            f'data/classes.toml class "{cls.id}"',
            cls,
            {"price": num(row["Purchase Price"])},
        )
        sold = cls.price * CAT.economy.prices.sell_percent // 100
        assert sold == num(row[sell_header]), (
            f"§11.1 row {row['Class']!r} {sell_header} {row[sell_header]}: data price x "
            f"sell_percent = {sold}"
        )


def test_daily_upkeep() -> None:
    rows = BOOK.table("### 11.4 Daily Maintenance")
    monthly_header = next(h for h in rows[0] if h.startswith("Monthly"))
    days = re.search(r"\((\d+) days\)", monthly_header)
    assert days, f"§11.4: no day count in header {monthly_header!r}"
    for row in rows:
        cls = class_named(CAT, row["Class"])
        check(
            f"§11.4 Daily Maintenance row {row['Class']!r}",
            f'data/classes.toml class "{cls.id}"',
            cls,
            {"upkeep": num(row["Daily Cost"])},
        )
        assert cls.upkeep * int(days[1]) == num(row[monthly_header]), (
            f"§11.4 row {row['Class']!r}: {monthly_header} {row[monthly_header]} != data "
            f"upkeep {cls.upkeep} x {days[1]}"
        )


def test_deployment_costs() -> None:
    for row in BOOK.table("### 11.5 Deployment Costs"):
        cls = class_named(CAT, row["Class"])
        check(
            f"§11.5 Deployment Costs row {row['Class']!r}",
            f'data/classes.toml class "{cls.id}"',
            cls,
            {"deployment_cost": num(row["Deployment Cost"])},
        )


def test_classes_tables_cover_every_catalog_class() -> None:
    for heading in ("### 6.4 Hex Movement", "### 11.1 Chassis Pricing", "### 11.4 Daily"):
        book = sorted(ident(row["Class"]) for row in BOOK.table(heading))
        assert book == sorted(CAT.classes), f"{heading} lists {book}, data/classes.toml differs"


CHEAT_SHEET = {  # §17.4 row pattern -> (data file, value getter from the captured group)
    r"Buy (\w+) frame": ("data/classes.toml price", lambda g: class_named(CAT, g).price),
    r"Daily upkeep \((\w+)\)": ("data/classes.toml upkeep", lambda g: class_named(CAT, g).upkeep),
    r"Deploy \((\w+)\)": (
        "data/classes.toml deployment_cost",
        lambda g: class_named(CAT, g).deployment_cost,
    ),
    r"Hire pilot": ("data/pilots.toml [hiring].cost", lambda g: CAT.pilots.hiring.cost),
    r"Fuel \(per unit\)": ("data/economy.toml fuel_price", lambda g: CAT.economy.prices.fuel_price),
}


@pytest.mark.parametrize("row", _params(BOOK.table("### 17.4 Economy Cheat Sheet"), "Action"))
def test_economy_cheat_sheet(row: dict[str, str]) -> None:
    action, cost = row["Action"], row["Cost"]
    where = f"§17.4 Economy Cheat Sheet row {action!r} ({cost})"
    if action == "Weapon group change":
        assert cost == "Free", where
        return
    refit = re.fullmatch(r"([\d,]+) \+ (\d+) day", cost)
    if action.startswith("Refit") and refit:
        prices = CAT.economy.prices
        got = (prices.refit_cost, prices.refit_days)
        want = (num(refit[1]), num(refit[2]))
        assert got == want, f"{where}: data/economy.toml refit_cost/refit_days {got}"
        return
    if action == "Intra-system travel":
        m = re.fullmatch(r"(\d+) fuel, (\d+) day", cost)
        travel = CAT.galaxy.travel
        got = (travel.intra_system_fuel, travel.intra_system_days)
        assert m and got == (int(m[1]), int(m[2])), f"{where}: data/galaxy.toml [travel] {got}"
        return
    if action == "Inter-system jump":
        _check_route_ranges(where, cost)
        return
    for pattern, (data, getter) in CHEAT_SHEET.items():
        m = re.fullmatch(pattern, action)
        if m:
            got = getter(m.group(1) if m.groups() else None)
            want = num(cost.removesuffix("/day"))
            assert got == want, f"{where}: {data} = {got}"
            return
    pytest.fail(f"{where}: row not checked by this test")


def _check_route_ranges(where: str, cell: str) -> None:
    m = re.fullmatch(r"(\d+)-(\d+) fuel, (\d+)-(\d+) days", cell)
    assert m, f"{where}: cannot read {cell!r}"
    fuel, days = (int(m[1]), int(m[2])), (int(m[3]), int(m[4]))
    outside = [
        f"{r.a}-{r.b} {r.fuel}/{r.days}"
        for r in CAT.galaxy.route
        if not (fuel[0] <= r.fuel <= fuel[1] and days[0] <= r.days <= days[1])
    ]
    assert not outside, f"{where}: data/galaxy.toml routes outside the range: {outside}"


# ============================================================================================
# §4 / §8.2 hit locations, armour split, transfers, component table
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("### 8.2 Armor Distribution"), "Location"))
def test_armor_distribution(row: dict[str, str]) -> None:
    loc = location_named(CAT, row["Location"])
    check(
        f"§8.2 Armor Distribution row {row['Location']!r}",
        f'data/combat.toml location "{loc.id}"',
        loc,
        {"armor_permille": int(number(row["Percentage"]) * 10)},
    )


@pytest.mark.parametrize("row", _params(BOOK.table("### 4.1 Hit Location Table"), "Location"))
def test_hit_location_weights(row: dict[str, str]) -> None:
    loc = location_named(CAT, row["Location"])
    check(
        f"§4.1 Hit Location Table row {row['Location']!r}",
        f'data/combat.toml location "{loc.id}"',
        loc,
        {"id": ident(row["Location"]), "hit_weight": num(row["Weight"])},
    )


def test_location_tables_cover_every_catalog_location() -> None:
    want = [loc.id for loc in CAT.combat.location]
    for heading in ("### 4.1 Hit Location Table", "### 8.2 Armor Distribution"):
        book = [location_named(CAT, row["Location"]).id for row in BOOK.table(heading)]
        assert book == want, f"{heading} lists {book}, data/combat.toml locations {want}"


def test_location_structure_columns() -> None:
    """Each location reads its structure from the §8.4 column named for it: by name ("Head"),
    abbreviation ("CT") or last word ("Left Torso" -> "Side Torso", "Left Arm" -> "Arm")."""
    headers = [h for h in BOOK.table("### 8.4 Structure Per Location")[0] if h != "Chassis"]
    for loc in CAT.combat.location:
        exact = [h for h in headers if h in (loc.name, loc.abbrev)]
        same_part = [h for h in headers if h.split()[-1] == loc.name.split()[-1]]
        column = (exact or same_part or [None])[0]
        assert column, f"§8.4 has no structure column for {loc.name!r}"
        want = location_named(CAT, column).id if column == loc.abbrev else ident(column)
        assert loc.structure_key == want, (
            f"§8.4 column {column!r}: data/combat.toml location {loc.id!r} structure_key = "
            f"{loc.structure_key!r}, expected {want!r}"
        )


def test_damage_transfer() -> None:
    want: dict[str, str | None] = {}
    for row in BOOK.table("### 4.4 Damage Transfer"):
        target = row["Transfers To"]
        to = None if target == "No transfer" else location_named(CAT, target).id
        for name in row["Destroyed Location"].split("/"):
            want[location_named(CAT, name).id] = to
    got = {loc.id: loc.transfer_to for loc in CAT.combat.location}
    assert got == want, f"§4.4 Damage Transfer gives {want}; data/combat.toml transfer_to {got}"


COMPONENT_HEADING = "### 4.3 Component Damage"


@pytest.mark.parametrize("row", _params(BOOK.table(COMPONENT_HEADING), "Effect"))
def test_component_damage_table(row: dict[str, str]) -> None:
    lo, hi = span(row["Roll Range"])
    rows = {c.name: c for c in CAT.combat.component}
    assert row["Effect"] in rows, f"§4.3 row {row['Effect']!r} has no data/combat.toml component"
    comp = rows[row["Effect"]]
    check(
        f"§4.3 Component Damage row {row['Effect']!r}",
        f'data/combat.toml component "{comp.id}"',
        comp,
        {"id": ident(row["Effect"]), "low": lo, "high": hi},
    )


def test_component_table_covers_every_catalog_row() -> None:
    book = [ident(row["Effect"]) for row in BOOK.table(COMPONENT_HEADING)]
    data = [c.id for c in CAT.combat.component]
    assert book == data, f"§4.3 rows {book}, data/combat.toml components {data}"
    chance = BOOK.search(COMPONENT_HEADING, r"there is a \*\*(\d+)% chance\*\* of a component")
    effects = sum(c.high - c.low + 1 for c in CAT.combat.component if c.id != "no_effect")
    assert effects == int(chance[1]), (
        f"§4.3 '{chance[0]}': data/combat.toml component rows other than no_effect cover "
        f"{effects} of 100 rolls"
    )


# Numbers in the Description column of §4.3: row -> (pattern, [(combat.toml path, group)])
COMPONENT_DESCRIPTIONS = {
    "Actuator Damaged": (
        r"Arm: -(\d+)% weapon accuracy\. Legs: \+(\d+) move energy",
        [("accuracy.arm_actuator", 1), ("movement.leg_actuator_energy", 2)],
    ),
    "Ammo Explosion": (
        r"(\d+)-(\d+) internal damage",
        [("damage.ammo_explosion_min", 1), ("damage.ammo_explosion_max", 2)],
    ),
    "Reactor Hit": (
        r"\+(\d+)% reactor stress, -(\d+) effective reactor output",
        [("reactor.reactor_hit_stress_percent", 1), ("reactor.reactor_hit_output", 2)],
    ),
    "Gyro Hit": (r"Max AP reduced to (\d+)", [("rounds.gyro_hit_action_points", 1)]),
    "Sensor Hit": (r"-(\d+)% accuracy on all weapons", [("accuracy.sensor_hit", 1)]),
}


@pytest.mark.parametrize("effect", list(COMPONENT_DESCRIPTIONS))
def test_component_descriptions(effect: str) -> None:
    row = next(r for r in BOOK.table(COMPONENT_HEADING) if r["Effect"] == effect)
    pattern, fields = COMPONENT_DESCRIPTIONS[effect]
    m = re.search(pattern, row["Description"])
    assert m, f"§4.3 row {effect!r}: Description {row['Description']!r} !~ /{pattern}/"
    for path, group in fields:
        got = attr(CAT.combat, path)
        assert got == int(m[group]), (
            f"§4.3 row {effect!r} Description {row['Description']!r}: data/combat.toml {path} "
            f"= {got}, book {m[group]}"
        )


# ============================================================================================
# §3.4 / §6.5 range classes, R1 distance bands
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("### 3.4 Range Accuracy"), "Weapon Range"))
def test_range_band_modifiers(row: dict[str, str]) -> None:
    rc = CAT.range_class(ident(row["Weapon Range"]))
    check(
        f"§3.4 Range Accuracy Modifiers row {row['Weapon Range']!r}",
        f'data/ranges.toml range_class "{rc.id}"',
        rc,
        {ident(band): num(cell) for band, cell in row.items() if band != "Weapon Range"},
    )


@pytest.mark.parametrize("row", _params(BOOK.table("### 6.5 Distance-Based"), "Weapon Range"))
def test_distance_based_accuracy(row: dict[str, str]) -> None:
    rc = CAT.range_class(ident(row["Weapon Range"]))
    lo, hi = span(row["Optimal Hexes"])
    check(
        f"§6.5 Distance-Based Accuracy row {row['Weapon Range']!r}",
        f'data/ranges.toml range_class "{rc.id}"',
        rc,
        {
            "name": row["Weapon Range"],
            "optimal_min": lo,
            "optimal_max": hi,
            "max_range": num(row["Max Range"]),
            "modifier_at_optimal": num(row["Modifier at Optimal"]),
            "modifier_at_max": num(row["Modifier at Max"]),
        },
    )


def test_range_tables_cover_every_range_class() -> None:
    data = [rc.id for rc in CAT.ranges.range_class]
    for heading in ("### 3.4 Range Accuracy", "### 6.5 Distance-Based"):
        book = [ident(row["Weapon Range"]) for row in BOOK.table(heading)]
        assert book == data, f"{heading} rows {book}, data/ranges.toml range classes {data}"


def test_distance_bands() -> None:
    m = RULINGS.search(
        "## Combat",
        r"distance ≤(\d+) Point Blank, (\d+)–(\d+) Short, (\d+)–(\d+) Medium",
    )
    b = CAT.ranges.bands
    check(
        f"rulings R1 '{m[0]}'",
        "data/ranges.toml [bands]",
        b,
        {"point_blank_max": int(m[1]), "short_max": int(m[3]), "medium_max": int(m[5])},
    )
    assert (int(m[2]), int(m[4])) == (b.point_blank_max + 1, b.short_max + 1), (
        f"rulings R1 '{m[0]}': bands do not follow on from each other"
    )


# ============================================================================================
# §9 pilots
# ============================================================================================
def test_callsign_pool() -> None:
    m = BOOK.search("### 9.3 Hiring", r"pool of (\d+) names — ([^.]+)\.")
    names = [n.strip() for n in m[2].split(",")]
    assert len(names) == int(m[1]), f"§9.3 says {m[1]} names but lists {len(names)}"
    assert list(CAT.pilots.callsigns.pool) == names, (
        f"§9.3 callsign pool {names}; data/pilots.toml [callsigns].pool "
        f"{list(CAT.pilots.callsigns.pool)}"
    )
    overflow = BOOK.search("### 9.3 Hiring", r'overflow generates "([A-Za-z]+-)X+"')
    assert CAT.pilots.hiring.overflow_prefix == overflow[1], (
        f"§9.3 '{overflow[0]}': data/pilots.toml overflow_prefix "
        f"{CAT.pilots.hiring.overflow_prefix!r}"
    )


def _d6(method: str) -> list[int]:
    """ "1d6: 1-2=2, 3-4=3, 5-6=4" -> the stat for faces 1..6."""
    faces: dict[int, int] = {}
    for lo, hi, value in re.findall(r"(\d)-(\d)=(\d+)", method):
        for face in range(int(lo), int(hi) + 1):
            faces[face] = int(value)
    assert sorted(faces) == [1, 2, 3, 4, 5, 6], f"§9.3 method {method!r} misses d6 faces"
    return [faces[f] for f in range(1, 7)]


@pytest.mark.parametrize("row", _params(BOOK.table("### 9.3 Hiring"), "Stat"))
def test_hiring_rolls(row: dict[str, str]) -> None:
    hiring = CAT.pilots.hiring
    stat, method = row["Stat"], row["Method (tabletop)"]
    where = f"§9.3 Hiring row {stat!r} ({method})"
    morale = re.fullmatch(r"(\d+) \+ 1d(\d+)", method)
    if morale:
        check(
            where,
            "data/pilots.toml [hiring]",
            hiring,
            {"morale_base": int(morale[1]), "morale_die": int(morale[2])},
        )
        return
    faces = _d6(method)
    check(where, "data/pilots.toml [hiring]", hiring, {f"{ident(stat)}_d6": tuple(faces)})
    assert (min(faces), max(faces)) == span(row["Roll Range"]), (
        f"{where}: Roll Range {row['Roll Range']} does not match the d6 method"
    )


@pytest.mark.parametrize("row", _params(BOOK.table("### 9.5 Starting Pilots"), "Callsign"))
def test_starting_pilots(row: dict[str, str]) -> None:
    pilots = {p.callsign: p for p in CAT.pilots.starting_pilot}
    assert row["Callsign"] in pilots, f"§9.5 {row['Callsign']!r} missing from data/pilots.toml"
    check(
        f"§9.5 Starting Pilots row {row['Callsign']!r}",
        f'data/pilots.toml starting_pilot "{row["Callsign"]}"',
        pilots[row["Callsign"]],
        {
            "gunnery": num(row["Gunnery"]),
            "piloting": num(row["Piloting"]),
            "tactics": num(row["Tactics"]),
            "morale": num(row["Morale"]),
            "notes": row["Notes"],
        },
    )


def test_starting_pilots_cover_every_catalog_pilot() -> None:
    book = [row["Callsign"] for row in BOOK.table("### 9.5 Starting Pilots")]
    data = [p.callsign for p in CAT.pilots.starting_pilot]
    assert book == data, f"§9.5 lists {book}, data/pilots.toml starting_pilot {data}"


def test_experience_points() -> None:
    rows = {row["Condition"]: row["XP Earned"] for row in BOOK.table("### 9.4 Experience")}
    base = formula(rows["Base XP"])
    xp = CAT.pilots.xp
    for d in DIFFICULTIES:
        assert xp.per_difficulty * d == base(d), (
            f"§9.4 Base XP {rows['Base XP']!r} at difficulty {d} = {base(d)}; data/pilots.toml "
            f"[xp].per_difficulty x {d} = {xp.per_difficulty * d}"
        )
    check(
        "§9.4 row 'Victory bonus'",
        "data/pilots.toml [xp]",
        xp,
        {"victory_bonus": num(rows["Victory bonus"])},
    )


def test_pilot_skill_range() -> None:
    ranges = {span(row["Range"]) for row in BOOK.table("### 9.1 Pilot Skills")}
    assert len(ranges) == 1, f"§9.1 skills have different ranges {ranges}"
    (lo, hi) = ranges.pop()
    check(
        "§9.1 Pilot Skills Range",
        "data/pilots.toml [skills]",
        CAT.pilots.skills,
        {"min": lo, "max": hi},
    )


def test_injury_days() -> None:
    rows = {row["Status"]: row["Effect"] for row in BOOK.table("### 9.2 Pilot Status")}
    m = re.search(r"\((\d+) \+ random (\d+)-(\d+)\)", rows["Injured"])
    assert m and m[2] == "0", f"§9.2 Injured {rows['Injured']!r}: cannot read the days"
    check(
        f"§9.2 row 'Injured' ({rows['Injured']})",
        "data/pilots.toml [injury]",
        CAT.pilots.injury,
        {"base_days": int(m[1]), "extra_days_max": int(m[3])},
    )


# ============================================================================================
# §11.6 rewards, §11.7 discounts, §15 standing
# ============================================================================================
REWARDS_HEADING = "### 11.6 Mission Rewards"


@pytest.mark.parametrize("row", _params(BOOK.table(REWARDS_HEADING), "Difficulty"))
def test_mission_rewards(row: dict[str, str]) -> None:
    d = lead_int(row["Difficulty"])
    reward = CAT.reward(d)
    lo, hi = span(row["Random Bonus"])
    assert lo == 0, f"§11.6 row {row['Difficulty']!r}: bonus does not start at 0"
    check(
        f"§11.6 Mission Rewards row {row['Difficulty']!r}",
        f"data/economy.toml reward difficulty {d}",
        reward,
        {"base": num(row["Base Reward"]), "bonus_max": hi},
    )


def test_difficulty_scale() -> None:
    rewards = [rw.difficulty for rw in CAT.economy.reward]
    assert rewards == DIFFICULTIES, f"§11.6 difficulties {DIFFICULTIES}, data rewards {rewards}"
    check(
        "§11.6 Difficulty column",
        "data/missions.toml [difficulty]",
        CAT.missions.difficulty,
        {"min": min(DIFFICULTIES), "max": max(DIFFICULTIES)},
    )


def test_reputation_gain() -> None:
    """R21: reputation grows by "+Difficulty" on Victory (its defeat step and floor are prose
    numbers, see test_prose_number)."""
    m = RULINGS.search("## Campaign", r"one non-negative number: ([^,]+) on Victory")
    gain = formula(m[1])
    per = CAT.missions.reputation.victory_per_difficulty
    for d in DIFFICULTIES:
        assert per * d == gain(d), (
            f"rulings R21 '{m[0]}' at difficulty {d} = {gain(d)}; data/missions.toml "
            f"[reputation].victory_per_difficulty x {d} = {per * d}"
        )


def _levels(cell: str) -> list[Any]:
    """ "Trusted (400+)" -> [trusted]; "Neutral / Hostile" -> [neutral, hostile]."""
    names = re.sub(r"\(.*\)", "", cell).split("/")
    return [standing_named(CAT, n) for n in names]


def test_standing_reward_multipliers() -> None:
    rows = BOOK.table(REWARDS_HEADING, after="**Standing Bonus Multiplier**")
    for row in rows:
        for level in _levels(row["Standing Level"]):
            check(
                f"§11.6 Standing Bonus Multiplier row {row['Standing Level']!r}",
                f'data/economy.toml standing_level "{level.id}"',
                level,
                {"reward_percent": percent(row["Multiplier"])},
            )


def test_price_modifiers() -> None:
    for row in BOOK.table("### 11.7 Price Modifiers"):
        factor = re.search(r"\(([\d.]+)×\)", row["Discount"])
        assert factor, f"§11.7 row {row['Standing Level']!r}: no multiplier in {row['Discount']!r}"
        for level in _levels(row["Standing Level"]):
            check(
                f"§11.7 Price Modifiers row {row['Standing Level']!r} ({row['Discount']})",
                f'data/economy.toml standing_level "{level.id}"',
                level,
                {"price_percent": percent(factor[1])},
            )


STANDING_HEADING = "### 15.1 Standing Scale"


@pytest.mark.parametrize("row", _params(BOOK.table(STANDING_HEADING), "Level"))
def test_standing_levels(row: dict[str, str]) -> None:
    level = standing_named(CAT, row["Level"])
    scale = CAT.economy.standing
    below = re.fullmatch(r"< (-?\d+)", row["Range"])
    between = re.fullmatch(r"(-?\d+) to (-?\d+)", row["Range"])
    if below:
        lo, hi = scale.min, int(below[1]) - 1
    else:
        assert between, f"§15.1 row {row['Level']!r}: cannot read Range {row['Range']!r}"
        lo, hi = int(between[1]), int(between[2])
    want: dict[str, Any] = {"id": ident(row["Level"]), "min": lo, "max": hi}
    discount = re.search(r"(\d+)% market discount", row["Effects"])
    if discount:
        want["price_percent"] = 100 - int(discount[1])
    elif "Full prices" in row["Effects"]:
        want["price_percent"] = 100
    rewards = re.search(r"([\d.]+)× (?:mission )?rewards", row["Effects"])
    if rewards:
        want["reward_percent"] = percent(rewards[1])
    check(
        f"§15.1 Standing Scale row {row['Level']!r} ({row['Range']}: {row['Effects']})",
        f'data/economy.toml standing_level "{level.id}"',
        level,
        want,
    )


def test_standing_level_order_and_exclusive_gate() -> None:
    rows = BOOK.table(STANDING_HEADING)
    book = [ident(row["Level"]) for row in rows]
    data = [lv.id for lv in CAT.economy.standing_level]
    assert book == data, f"§15.1 levels {book}; data/economy.toml standing_level {data}"
    unlock = [ident(row["Level"]) for row in rows if "exclusive weapons unlocked" in row["Effects"]]
    assert unlock == [CAT.economy.standing.exclusive_level], (
        f"§15.1: exclusive weapons unlock at {unlock}; data/economy.toml [standing]."
        f"exclusive_level = {CAT.economy.standing.exclusive_level!r}"
    )
    gate = BOOK.search(
        "### 11.8 Market Stock System", r"behind the (\w+) standing gate \((\d+)\+\)"
    )
    level = CAT.standing_level_by_id(CAT.economy.standing.exclusive_level)
    assert (level.name, level.min) == (gate[1], int(gate[2])), (
        f"§11.8 '{gate[0]}': data exclusive level {level.name!r} starts at {level.min}"
    )


@pytest.mark.parametrize("row", _params(BOOK.table("### 15.2 Standing Changes"), "Outcome"))
def test_standing_changes(row: dict[str, str]) -> None:
    change = CAT.standing_change(ident(row["Outcome"]))
    employer = formula(row["Employer Faction"])
    others = formula(row["All Other Factions"])
    for d in DIFFICULTIES:
        got = (
            change.employer_base + change.employer_per_difficulty * d,
            change.others_base + change.others_per_difficulty * d,
        )
        want = (employer(d), others(d))
        assert got == want, (
            f"§15.2 Standing Changes row {row['Outcome']!r} at difficulty {d}: book "
            f"employer/others {want}, data/economy.toml standing_change "
            f'"{change.outcome}" gives {got}'
        )


# ============================================================================================
# §11.8 market, §12 salvage and payout
# ============================================================================================
MARKET_HEADING = "### 11.8 Market Stock System"


@pytest.mark.parametrize("row", _params(BOOK.table(MARKET_HEADING), "Item Type"))
def test_market_tiers(row: dict[str, str]) -> None:
    tier_id = ident(row["Item Type"]).replace("_weapons", "_weapon")
    tier = CAT.market_tier(tier_id)
    roll = re.fullmatch(r"roll ≥ (\d+)", row["Threshold"])
    assert roll or row["Threshold"] == "Always", f"§11.8: cannot read {row['Threshold']!r}"
    lo, hi = span(row["Stock Qty"])
    check(
        f"§11.8 Market Stock row {row['Item Type']!r}",
        f'data/economy.toml market_tier "{tier.id}"',
        tier,
        {"threshold": int(roll[1]) if roll else 0, "qty_min": lo, "qty_max": hi},
    )


def test_market_table_covers_every_tier() -> None:
    book = [
        ident(r["Item Type"]).replace("_weapons", "_weapon") for r in BOOK.table(MARKET_HEADING)
    ]
    data = [t.id for t in CAT.economy.market_tier]
    assert book == data, f"§11.8 tiers {book}; data/economy.toml market_tier {data}"


@pytest.mark.parametrize("row", _params(BOOK.table("### 12.2 Payout Slider"), "Label"))
def test_payout_levels(row: dict[str, str]) -> None:
    level = CAT.payout_level(num(row["Level"]))
    picks = row["Salvage Picks Modifier"]
    multiplier = re.match(r"([\d.]+)×", picks)
    assert multiplier, f"§12.2 row {row['Label']!r}: cannot read {picks!r}"
    check(
        f"§12.2 Payout Slider row {row['Label']!r}",
        f"data/economy.toml payout_level {level.level}",
        level,
        {
            "name": row["Label"],
            "credit_percent": num(row["Credit Modifier"]),
            "picks_halves": int(Decimal(multiplier[1]) * 2),
            "rounding": "up" if "round up" in picks else "down",
        },
    )


def test_payout_default() -> None:
    m = BOOK.search("### 12.2 Payout Slider", r"\*\*Default\*\*: (\w[\w ]*?) \(")
    default = CAT.default_payout_level()
    assert default.name == m[1], f"§12.2 '{m[0]}': data default payout level is {default.name!r}"
    book = [num(row["Level"]) for row in BOOK.table("### 12.2 Payout Slider")]
    data = [p.level for p in CAT.economy.payout_level]
    assert book == data, f"§12.2 levels {book}; data/economy.toml payout_level {data}"


def test_salvage_allowance() -> None:
    rows = {row["Outcome"]: row["Picks Allowed"] for row in BOOK.table("### 12.1 Salvage")}
    salvage = CAT.economy.salvage
    victory = rows["Victory"]
    assert victory.endswith(", rounded down"), f"§12.1 Victory {victory!r}: unknown rounding"
    picks = formula(victory.removesuffix(", rounded down"))
    for d in DIFFICULTIES:
        got = salvage.victory_base_picks + d // salvage.victory_picks_divisor
        assert got == math.floor(picks(d)), (
            f"§12.1 Victory {victory!r} at difficulty {d} = {math.floor(picks(d))}; "
            f"data/economy.toml [salvage] gives {got}"
        )
    check(
        "§12.1 Salvage Allowance",
        "data/economy.toml [salvage]",
        salvage,
        {
            "withdrawal_picks": lead_int(rows["Withdrawal"]),
            "defeat_picks": lead_int(rows["Defeat"]),
        },
    )


@pytest.mark.parametrize(
    ("heading", "pattern"),
    [
        ("### 12.1 Salvage Allowance", r"has a \*\*(\d+% \+ \(Difficulty × \d+\)%)\*\* chance"),
        ("### 12.3 Scavenge Rolls", r"\*\*Salvage Chance\*\* \((\d+% \+ Difficulty × \d+%)\)"),
    ],
    ids=["12.1", "12.3"],
)
def test_salvage_chance(heading: str, pattern: str) -> None:
    m = BOOK.search(heading, pattern)
    chance = formula(m[1])
    salvage = CAT.economy.salvage
    for d in DIFFICULTIES:
        got = salvage.chance_base + salvage.chance_per_difficulty * d
        assert got == chance(d), (
            f"{heading} '{m[0]}' at difficulty {d} = {chance(d)}; data/economy.toml [salvage] "
            f"chance_base + chance_per_difficulty x d = {got}"
        )


# ============================================================================================
# Numbers stated in prose. Per (document, heading): catalog path -> a pattern anchored on the
# nearby words whose group 1 is the number. CONVERT turns the text into the data's unit.
# ============================================================================================
PROSE: dict[tuple[Callable[[], Doc], str], dict[str, str]] = {
    # §1-§7 combat (data/combat.toml)
    (rules, "## 1. Combat Round Structure"): {
        "combat.rounds.round_limit": r"(\d+) rounds exceeded = forced",
        "combat.accuracy.overwatch": r"\(reaction fire, -(\d+)% accuracy\)",
    },
    (rules, "## 2. Action Economy"): {
        "combat.rounds.action_points": r"has \*\*(\d+) Action Points\*\* per round",
        "combat.rounds.gyro_hit_action_points": r"reduced to \*\*(\d+) AP\*\* if gyro is damaged",
        "combat.movement.sprint_range_multiplier": (
            r"Sprint\s*\|\s*\d+\s*\|\s*Move up to (\d+)x HexMovement hexes"
        ),
    },
    (rules, "## 3. Accuracy & To-Hit Resolution"): {
        "combat.accuracy.min_chance": r"clamped to \[(\d+)%, \d+%\]",
        "combat.accuracy.max_chance": r"clamped to \[\d+%, (\d+)%\]",
    },
    (rules, "### 3.2 Gunnery Skill Bonus"): {
        "combat.accuracy.gunnery_per_point": r"GunneryBonus = PilotGunnery \* (\d+)",
    },
    (rules, "### 3.8 Critical Hits"): {
        "combat.accuracy.critical_chance": r"has a \*\*(\d+)% chance\*\* of being a critical hit",
    },
    (rules, "### 4.6 Head Destruction"): {
        "combat.damage.head_survival_base": r"`(\d+)% \+ \(PilotPiloting \* \d+%\)` chance",
        "combat.damage.head_survival_per_piloting": r"`\d+% \+ \(PilotPiloting \* (\d+)%\)` chance",
    },
    (rules, "### 5.1 Energy Budget"): {
        "combat.reactor.min_output": r"Minimum effective output is (\d+)\.",
        "combat.reactor.reactor_hit_output": r"- \(ReactorHits \* (\d+)\)",
    },
    (rules, "### 5.2 Energy Consumers"): {
        "combat.movement.sprint_energy_multiplier": r"Sprint\s*\|\s*MovementEnergyCost \* (\d+)",
        "combat.movement.pullback_energy_percent": (
            r"MovementEnergyCost \* ([\d.]+) \(retreating penalty\)"
        ),
        "combat.movement.leg_actuator_energy": r"\+(\d+) per hit to movement cost",
    },
    (rules, "### 5.3 Overloading"): {
        "combat.reactor.overload_percent": r"up to \*\*(\d+)% of effective reactor output\*\*",
    },
    (rules, "### 5.4 Reactor Stress"): {
        "combat.reactor.shutdown_chance": r"Stress >= Output\s*\|\s*(\d+)% chance of shutdown",
        "combat.reactor.auto_shutdown_percent": (
            r"Stress >= Output \* ([\d.]+)\s*\|\s*Automatic shutdown"
        ),
        "combat.reactor.shutdown_stress_keep_percent": r"Stress reduced by (\d+)%",
        "combat.reactor.dissipation_min": r"stress decreases by max\((\d+), EffectiveOutput /",
        "combat.reactor.dissipation_divisor": (
            r"stress decreases by max\(\d+, EffectiveOutput / (\d+)\)"
        ),
    },
    (rules, "### 5.5 Vent Reactor Action"): {
        "combat.reactor.vent_min": r"Reduces reactor stress by max\((\d+), EffectiveOutput /",
        "combat.reactor.vent_divisor": r"stress by max\(\d+, EffectiveOutput / (\d+)\)",
    },
    (rules, "### 7.2 Weapon Groups"): {
        "combat.loadout.weapon_groups": r"\*\*numbered groups\*\* \(1–(\d+)\)",
    },
    (rules, "### 7.3 Weapon Types"): {
        "combat.ammo.reloads": r"starts combat with \*\*(\d+) reloads\*\*",
    },
    (rules, "### 9.2 Pilot Status"): {
        "combat.damage.destroyed_pilot_kia_chance": (
            r"the pilot has a \*\*(\d+)% chance\*\* of being killed"
        ),
    },
    (rulings, "## Combat"): {
        "combat.accuracy.indirect_fire": r"LOS penalty \(§3\.6\) is replaced by a flat [−-](\d+)%",
        "combat.accuracy.indirect_spotter_range": (
            r"when an allied frame is within (\d+) hexes of the target"
        ),
        "combat.reactor.reactor_hit_stress_percent": (
            r"stress \+= (\d+)% of the frame's base ReactorOutput"
        ),
        "combat.ap_costs.equipment": r"Active equipment \(§7\.7\): each use costs (\d+) AP",
    },
    # §7.8, §9, §11, §12, §14, §15 (data/pilots.toml, data/economy.toml, data/galaxy.toml)
    (rules, "### 7.4 Complete Weapon Reference"): {
        "economy.prices.sell_percent": r"\*\*Salvage Values\*\*: .*? worth (\d+)% of purchase",
    },
    (rules, "### 7.8 Refit Costs"): {
        "economy.prices.refit_cost": r"\*\*([\d,]+) credits\*\* per weapon or equipment change",
        "economy.prices.refit_days": r"\*\*(\d+) day\*\* per weapon or equipment change",
    },
    (rules, "### 9.3 Hiring"): {
        "pilots.hiring.cost": r"New pilots cost \*\*([\d,]+) credits\*\*",
    },
    (rules, "### 11.2 Repair Costs"): {
        "economy.repair.chassis_percent": r"ChassisPrice \* ([\d.]+) \* DamageRatio",
        "economy.repair.per_component": r"ComponentDamageCount \* ([\d,]+)\)",
        "economy.repair.ready_threshold_percent": r"less than (\d+)% damage ratio are marked Ready",
    },
    (rules, "### 11.3 Repair Time"): {
        "economy.repair.days_per_ratio": r"RepairTime = DamageRatio \* (\d+) days",
        "economy.repair.min_days": r"days\s+\(minimum (\d+) day\)",
        "economy.repair.rush_cost_multiplier": r"\*\*Rush Repair\*\*: Costs (\d+)× the normal",
        "economy.repair.rush_time_divisor": r"normal repair cost but takes (half) the time",
        "economy.repair.rebuild_days": r"\*\*Destroyed Frames\*\*: (\d+) days for full rebuild",
    },
    (rules, "### 11.5 Deployment Costs"): {
        "missions.lance.max_frames": r"A full (\d+)-frame lance of Assaults",
    },
    (rules, "### 11.6 Mission Rewards"): {
        "economy.outcome.victory": r"\*\*Victory\*\*: (Full) reward × standing multiplier",
        "economy.outcome.zero_losses_bonus": (
            r"\*\*Victory \+ Zero Losses\*\*: Full reward \+ (\d+)% bonus"
        ),
        "economy.outcome.withdrawal": r"\*\*Withdrawal\*\*: (\d+)% of base reward",
        "economy.outcome.defeat": r"\*\*Defeat\*\*: (\d+)% of base reward",
    },
    (rules, "### 11.8 Market Stock System"): {
        "economy.standing.market_bonus_divisor": r"standingBonus = factionStanding / (\d+)",
        "economy.market.refresh_days": r"regenerates every \*\*(\d+) game days\*\*",
    },
    (rules, "### 12.3 Scavenge Rolls"): {
        "economy.salvage.bonus_find_chance": r"Each destroyed enemy has a \*\*(\d+)% flat chance",
    },
    (rules, "### 12.4 Frame Salvage"): {
        "economy.salvage.frame_price_percent": r"\*\*Price\*\*: (\d+)% of the chassis base",
        "economy.salvage.frame_repair_percent": r"with repair cost \((\d+)% of salvage price\)",
        "economy.salvage.frame_repair_days": r"of salvage price\) and (\d+) days repair time",
    },
    (rules, "## 13. Campaign Loop"): {
        "missions.lance.max_frames": r"Deploy Lance \(1-(\d+) frames\)",
    },
    (rules, "### 13.3 Starting Conditions"): {
        "start.company.credits": r"- Credits: ([\d,]+)",
        "start.company.year": r"- Starting date: 1 January (\d+)",
        "start.company.fuel": r"- Starting fuel: (\d+) / \d+",
        "galaxy.travel.fuel_capacity": r"- Starting fuel: \d+ / (\d+)",
    },
    (rules, "### 14.3 Travel Mechanics"): {
        "galaxy.travel.fuel_capacity": r"\*\*Fuel capacity\*\*: (\d+) units maximum",
        "economy.prices.fuel_price": r"\*\*Fuel price\*\*: \$([\d,]+) per unit",
    },
    (rules, "### 15.1 Standing Scale"): {
        "economy.standing.min": r"on a scale from \*\*(-?\d+) to -?\d+\*\*",
        "economy.standing.max": r"on a scale from \*\*-?\d+ to (-?\d+)\*\*",
        "economy.standing.start": r"\*\*Starting Standing\*\*: (-?\d+) \(Neutral\)",
    },
    (rulings, "## Campaign"): {
        "economy.failure.negative_credit_days": r"credits stay below zero for (\d+) days in a row",
        "missions.reputation.defeat": r"\+Difficulty on Victory, ([−-]\d+) on Defeat",
        "missions.reputation.min": r"on Defeat \(never below (\d+)\)",
    },
    # §14.4, §16 missions (data/missions.toml)
    (rules, "### 14.4 Location-Based Contracts"): {
        "missions.contracts.employer_controller_chance": (
            r"(\d+)% chance employer is the controlling faction"
        ),
    },
    (rules, "### 16.1 Enemy Force Composition"): {
        "missions.contracts.faction_chassis_chance": (
            r"(\d+)% chance enemy frames use the controlling faction's chassis"
        ),
    },
    (rules, "### 16.2 Difficulty Determination"): {
        "missions.difficulty.base": r"BaseDifficulty = (\d+) \+ \(Reputation / \d+\)",
        "missions.difficulty.reputation_divisor": r"BaseDifficulty = \d+ \+ \(Reputation / (\d+)\)",
        "missions.difficulty.base_min": r"\(Reputation / \d+\), clamped to (\d+)–\d+",
        "missions.difficulty.base_max": r"\(Reputation / \d+\), clamped to \d+–(\d+)",
        "missions.difficulty.roll_min": r"BaseDifficulty \+ random\((-?\d+), \+?\d+\)",
        "missions.difficulty.roll_max": r"BaseDifficulty \+ random\(-?\d+, \+?(\d+)\)",
    },
    # §6 and setup-facts maps (data/maps.toml)
    (rules, "### 6.2 Terrain Types"): {
        "maps.deployment.columns": r"Deployment zones \(first/last (\d+) columns\)",
    },
    (rules, "### 6.3 Deployment Phase"): {
        "maps.deployment.columns": r"placed automatically in the rightmost (\d+) columns",
    },
    (setup, "## Battle landscapes"): {
        "maps.forest_clusters.extra_min": r"a seed hex plus (\d+)–\d+ neighbours",
        "maps.forest_clusters.extra_max": r"a seed hex plus \d+–(\d+) neighbours",
    },
}

# Words the book uses for a number, in the unit of the data field that reads them.
WORDS = {"half": 2, "Full": 100, "adjacent": 1}  # "adjacent": 1 hex
CONVERT: dict[str, Callable[[str], int]] = {
    "combat.reactor.auto_shutdown_percent": percent,  # "Output * 1.5" -> 150
    "combat.reactor.shutdown_stress_keep_percent": lambda s: 100 - num(s),  # "reduced by 50%"
    "combat.movement.pullback_energy_percent": percent,  # "* 1.5" -> 150
    "economy.repair.chassis_percent": percent,  # "* 0.30" -> 30
    "economy.outcome.zero_losses_bonus": lambda s: 100 + num(s),  # "Full reward + 25%"
}


@pytest.mark.parametrize(
    ("doc", "heading", "path", "pattern"),
    [
        pytest.param(doc, heading, path, pattern, id=f"{path}@{heading.lstrip('# ').split()[0]}")
        for (doc, heading), fields in PROSE.items()
        for path, pattern in fields.items()
    ],
)
def test_prose_number(doc: Callable[[], Doc], heading: str, path: str, pattern: str) -> None:
    m = doc().search(heading, pattern)
    text = m[1].translate(str.maketrans({"−": "-"}))
    want = WORDS[text] if text in WORDS else CONVERT.get(path, num)(text)
    got = attr(CAT, path)
    file, _, field = path.partition(".")
    assert got == want, (
        f"{doc().label} {heading.lstrip('# ')!r} says '{m[0]}' ({want}); "
        f"data/{file}.toml {field} = {got!r}"
    )


# ============================================================================================
# §14 galaxy: systems, locations, routes, star map, travel
# ============================================================================================
SYSTEMS_HEADING = "### 14.1 Star Systems"


@pytest.mark.parametrize("row", _params(BOOK.table(SYSTEMS_HEADING), "System"))
def test_star_systems(row: dict[str, str]) -> None:
    system = system_named(CAT, row["System"])
    check(
        f"§14.1 Star Systems row {row['System']!r}",
        f'data/galaxy.toml system "{system.id}"',
        system,
        {
            "id": ident(row["System"]),
            "faction": ident(row["Faction"]),
            "type": ident(row["Type"]),
            "description": row["Description"],
        },
    )
    if system.faction != CONTESTED:
        short = CAT.factions[system.faction].short
        assert short == row["Faction"], (
            f"§14.1 row {row['System']!r} Faction {row['Faction']!r}: data/factions.toml "
            f'faction "{system.faction}".short = {short!r}'
        )


def test_star_systems_cover_every_catalog_system() -> None:
    book = [ident(row["System"]) for row in BOOK.table(SYSTEMS_HEADING)]
    data = [s.id for s in CAT.galaxy.system]
    assert book == data, f"§14.1 systems {book}; data/galaxy.toml systems {data}"
    count = BOOK.search(SYSTEMS_HEADING, r"Human space spans (\d+) star systems")
    assert len(data) == int(count[1]), f"§14.1 '{count[0]}': data has {len(data)} systems"


PLACES_HEADING = "## Galaxy: planets and stations"
PLACE = re.compile(
    r'(?:"(?P<name>[^"]+)"(?: \((?P<flag>\w+)\))?: )?'
    r"(?P<type>\w+) (?P<market>[YN]) (?P<hiring>[YN]) (?P<lo>\d+)–(?P<hi>\d+)"
)


@pytest.mark.parametrize("row", _params(SETUP.table(PLACES_HEADING), "System"))
def test_system_locations(row: dict[str, str]) -> None:
    system = system_named(CAT, row["System"])
    places = CAT.places_in(system.id)
    entries = [e.strip() for e in row["Locations"].split("·")]
    assert len(places) == len(entries), (
        f"setup-facts locations row {row['System']!r} lists {len(entries)}; data/galaxy.toml "
        f"has {len(places)} locations in {system.id}: {[p.id for p in places]}"
    )
    for n, (entry, place) in enumerate(zip(entries, places, strict=True), start=1):
        m = PLACE.fullmatch(entry)
        assert m, f"setup-facts locations row {row['System']!r}: cannot read {entry!r}"
        want: dict[str, Any] = {
            "type": ident(m["type"]),
            "market": m["market"] == "Y",
            "hiring": m["hiring"] == "Y",
            "min_difficulty": int(m["lo"]),
            "max_difficulty": int(m["hi"]),
        }
        if m["name"]:
            want["name"] = m["name"]
        check(
            f"setup-facts locations row {row['System']!r} entry {n} ({entry})",
            f'data/galaxy.toml location "{place.id}"',
            place,
            want,
        )
        if m["flag"] == "start":
            assert CAT.start.company.location == place.id, (
                f"setup-facts marks {entry!r} as the start; data/start.toml [company].location "
                f"= {CAT.start.company.location!r}"
            )


def test_location_count() -> None:
    count = re.search(r"\((\d+)\)", SETUP.heading(PLACES_HEADING))
    assert count, "setup-facts locations heading gives no count"
    book_systems = [ident(row["System"]) for row in SETUP.table(PLACES_HEADING)]
    assert book_systems == [s.id for s in CAT.galaxy.system], (
        f"setup-facts locations table systems {book_systems} differ from data/galaxy.toml"
    )
    assert len(CAT.galaxy.location) == int(count[1]), (
        f"setup-facts: {count[1]} planets and stations; data/galaxy.toml has "
        f"{len(CAT.galaxy.location)}"
    )


ROUTES_HEADING = "## Jump routes"


def test_jump_routes() -> None:
    text = SETUP.prose(ROUTES_HEADING)
    found = re.findall(r"([A-Z][A-Za-z ]*?)–([A-Z][A-Za-z ]*?) (\d+)/(\d+)", text)
    book = {
        frozenset((system_named(CAT, a).id, system_named(CAT, b).id)): (int(f), int(d))
        for a, b, f, d in found
    }
    data = {frozenset((r.a, r.b)): (r.fuel, r.days) for r in CAT.galaxy.route}
    assert len(book) == len(found), "setup-facts lists a route twice"
    diff = {
        "-".join(sorted(k)): (data.get(k), book.get(k))
        for k in book.keys() | data.keys()
        if data.get(k) != book.get(k)
    }
    assert not diff, f"setup-facts jump routes: (data/galaxy.toml, book) fuel/days differ: {diff}"
    count = re.search(r"\((\d+), both ways\)", SETUP.heading(ROUTES_HEADING))
    assert count and len(data) == int(count[1]), (
        f"setup-facts '{SETUP.heading(ROUTES_HEADING)}': data/galaxy.toml has {len(data)} routes"
    )


def test_star_map_positions() -> None:
    sketch = SETUP.search(ROUTES_HEADING, r"A star-map sketch \([^)]*\): ([^.]+)\.")
    book = {
        system_named(CAT, name.strip()).id: (int(x), int(y))
        for name, x, y in re.findall(r"([A-Z][A-Za-z ]*?) (\d+),(\d+)", sketch[1])
    }
    data = {s.id: (s.x, s.y) for s in CAT.galaxy.system}
    assert data == book, f"setup-facts star map {book}; data/galaxy.toml system x, y {data}"


def test_travel_mechanics() -> None:
    rows = {row["Travel Type"]: row for row in BOOK.table("### 14.3 Travel Mechanics")}
    intra = rows["Intra-system"]
    check(
        f"§14.3 row 'Intra-system' ({intra['Fuel Cost']}, {intra['Time']})",
        "data/galaxy.toml [travel]",
        CAT.galaxy.travel,
        {
            "intra_system_fuel": lead_int(intra["Fuel Cost"]),
            "intra_system_days": lead_int(intra["Time"]),
        },
    )
    jump = rows["Inter-system jump"]
    _check_route_ranges(
        "§14.3 row 'Inter-system jump'",
        f"{jump['Fuel Cost'].replace(' fuel', '')} fuel, {jump['Time']}",
    )


# ============================================================================================
# §15.3 factions
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("### 15.3 The Three Factions"), "Faction"))
def test_factions(row: dict[str, str]) -> None:
    faction = faction_named(CAT, row["Faction"])
    where = f"§15.3 row {row['Faction']!r}"
    check(
        where, f'data/factions.toml faction "{faction.id}"', faction, {"identity": row["Identity"]}
    )
    territory = sorted(system_named(CAT, n.strip()).id for n in row["Territory"].split(","))
    assert sorted(CAT.territory(faction.id)) == territory, (
        f"{where} Territory {territory}; data/galaxy.toml systems of {faction.id}: "
        f"{sorted(CAT.territory(faction.id))}"
    )
    gear = [gear_named(CAT, n.strip()) for n in row["Exclusive Gear"].split(",")]
    wrong = [f"{getattr(g, 'id', None) or g.designation}: {g.faction}" for g in gear]
    wrong = [w for w, g in zip(wrong, gear, strict=True) if g.faction != faction.id]
    assert not wrong, f"{where} Exclusive Gear: data gives these items another faction: {wrong}"
    book = sorted(getattr(g, "id", None) or g.designation for g in gear)
    owned = sorted(
        [w.id for w in CAT.weapons.values() if w.faction == faction.id]
        + [c.designation for c in CAT.chassis.values() if c.faction == faction.id]
    )
    assert owned == book, (
        f"{where}: the book's gear list {book}; data/weapons.toml + chassis.toml give "
        f"{faction.id} {owned}"
    )


def test_factions_cover_every_catalog_faction() -> None:
    rows = BOOK.table("### 15.3 The Three Factions")
    book = sorted(faction_named(CAT, row["Faction"]).id for row in rows)
    assert book == sorted(CAT.factions), f"§15.3 factions {book}; data {sorted(CAT.factions)}"
    owners = {w.faction for w in CAT.weapons.values()} | {c.faction for c in CAT.chassis.values()}
    assert owners <= {*CAT.factions, UNIVERSAL}, f"unknown gear owners {owners}"


# ============================================================================================
# §16.1 enemy forces, §6.1 map sizes, setup-facts landscapes
# ============================================================================================
@pytest.mark.parametrize("row", _params(BOOK.table("### 16.1 Enemy Force"), "Difficulty"))
def test_enemy_forces(row: dict[str, str]) -> None:
    d = lead_int(row["Difficulty"])
    force = CAT.enemy_force(d)
    classes: list[str] = []
    for count, name in re.findall(r"(\d+)× (\w+)", row["Enemy Force"]):
        classes += [class_named(CAT, name).id] * int(count)
    skills = dict(re.findall(r"(\w+) (\d+)", row["Enemy Pilot Skills"]))
    check(
        f"§16.1 Enemy Force row {row['Difficulty']!r}",
        f"data/missions.toml enemy_force difficulty {d}",
        force,
        {"classes": tuple(classes), **{ident(k): int(v) for k, v in skills.items()}},
    )


def test_enemy_force_table_covers_every_difficulty() -> None:
    book = [lead_int(row["Difficulty"]) for row in BOOK.table("### 16.1 Enemy Force")]
    data = [f.difficulty for f in CAT.missions.enemy_force]
    assert book == data, f"§16.1 difficulties {book}; data/missions.toml enemy_force {data}"


@pytest.mark.parametrize("row", _params(BOOK.table("### 6.1 Map Sizes"), "Map Size"))
def test_map_sizes(row: dict[str, str]) -> None:
    lo, hi = span(row["Mission Difficulty"])
    dims = re.fullmatch(r"(\d+) x (\d+)", row["Dimensions"])
    assert dims, f"§6.1 row {row['Map Size']!r}: cannot read {row['Dimensions']!r}"
    size = CAT.map_size(lo)
    check(
        f"§6.1 Map Sizes row {row['Map Size']!r}",
        f'data/maps.toml map_size "{size.id}"',
        size,
        {
            "id": ident(row["Map Size"]),
            "name": row["Map Size"],
            "min_difficulty": lo,
            "max_difficulty": hi,
            "width": int(dims[1]),
            "height": int(dims[2]),
        },
    )


def test_map_size_table_covers_every_catalog_size() -> None:
    book = [ident(row["Map Size"]) for row in BOOK.table("### 6.1 Map Sizes")]
    data = [m.id for m in CAT.maps.map_size]
    assert book == data, f"§6.1 map sizes {book}; data/maps.toml map_size {data}"


LANDSCAPES_HEADING = "## Battle landscapes"


def test_landscape_shares() -> None:
    columns = re.search(r"\(([a-z, ]+)\)", SETUP.heading(LANDSCAPES_HEADING))
    assert columns, "setup-facts landscapes heading does not name the terrain columns"
    terrains = [t.strip() for t in columns[1].split(",")]
    found = re.findall(r"([A-Z]\w+) (\d+(?:/\d+)+)", SETUP.prose(LANDSCAPES_HEADING))
    book = {
        ident(name): dict(zip(terrains, map(int, shares.split("/")), strict=True))
        for name, shares in found
    }
    data = {ls.id: {t: ls.share(t) for t in terrains} for ls in CAT.maps.landscape}
    assert data == book, f"setup-facts landscape shares {book}; data/maps.toml {data}"
    names = {ls.id: ls.name for ls in CAT.maps.landscape}
    assert names == {ident(n): n for n, _ in found}, f"landscape names differ: {names}"
    assert all(t in CAT.terrain for t in terrains), f"unknown terrains {terrains}"


# ============================================================================================
# §13.3 starting conditions, setup-facts starting frames
# ============================================================================================
START_HEADING = "### 13.3 Starting Conditions"


def test_starting_location() -> None:
    m = BOOK.search(START_HEADING, r"- Starting location: ([\w ]+) system, ([\w ]+?) -")
    place = CAT.places[CAT.start.company.location]
    assert (CAT.systems[place.system].name, place.name) == (m[1], m[2]), (
        f"§13.3 '{m[0]}': data/start.toml location {place.id!r} is {place.name!r} in "
        f"{CAT.systems[place.system].name!r}"
    )


def test_starting_pilots_named_in_section_13() -> None:
    m = BOOK.search(START_HEADING, r"- Starting pilots: (\d+) \(([\w, ]+) —")
    names = [n.strip() for n in m[2].split(",")]
    data = [p.callsign for p in CAT.pilots.starting_pilot]
    assert len(names) == int(m[1]) and names == data, (
        f"§13.3 '{m[0]}': data/pilots.toml starting pilots {data}"
    )


def test_starting_frames_named_in_section_13() -> None:
    m = BOOK.search(START_HEADING, r"- Starting frames: (\d+) \(([^)]*)\)")
    want: list[str] = []
    for count, cls, name in re.findall(r"(\d+) (\w+) (\w+)", m[2]):
        chassis = chassis_by_name(CAT, name)
        assert chassis.class_ == ident(cls), f"§13.3 calls {name} {cls}; data {chassis.class_}"
        want += [chassis.designation] * int(count)
    data = [f.chassis for f in CAT.start.frame]
    assert len(want) == int(m[1]) and sorted(want) == sorted(data), (
        f"§13.3 '{m[0]}': data/start.toml frames {data}"
    )


FRAME = re.compile(r"- (\S+) (\w+): (.*?)\. Pilot (\w+)\.")
LOADOUT = re.compile(r"([A-Z][\w\- ]*?) \((\w+)(?: \w+)?, group (\d+)\)")


def test_starting_frames_loadouts() -> None:
    text = SETUP.prose("## Starting frames")
    frames = FRAME.findall(text)
    assert frames, "setup-facts 'Starting frames': no frame found"
    data = {f.chassis: f for f in CAT.start.frame}
    assert [d for d, *_ in frames] == [f.chassis for f in CAT.start.frame], (
        f"setup-facts starting frames {[d for d, *_ in frames]}; data/start.toml "
        f"{[f.chassis for f in CAT.start.frame]}"
    )
    for designation, name, items, pilot in frames:
        frame = data[designation]
        where = f"setup-facts starting frame {designation} {name}"
        assert CAT.chassis[designation].name == name, f"{where}: data chassis name differs"
        want = tuple(
            (weapon_named(CAT, w).id, mounts(m)[0], int(g)) for w, m, g in LOADOUT.findall(items)
        )
        got = tuple((e.weapon, e.mount, e.group) for e in frame.loadout)
        assert got == want, f"{where}: book loadout {want}; data/start.toml {got}"
        assert frame.pilot == pilot, f"{where}: pilot {pilot}; data/start.toml {frame.pilot}"


def test_ai_withdrawal_thresholds() -> None:
    """§10.4: 'Retreat at 50%' and 'Retreat at 25%' rows against data/combat.toml."""
    rows = {r["Threshold"]: r["Triggers When"] for r in rules().table("### 10.4 Withdrawal")}
    fifty = [int(n) for n in re.findall(r"(\d+)%", rows["Retreat at 50%"])]
    quarter = [int(n) for n in re.findall(r"(\d+)%", rows["Retreat at 25%"])]
    w = catalog().combat.withdrawal
    assert fifty == [
        w.at_50_lost_percent,
        w.at_50_weak_share_percent,
        w.at_50_weak_armor_percent,
    ], rows["Retreat at 50%"]
    assert quarter == [w.at_25_lost_percent, w.at_25_damaged_share_percent], rows["Retreat at 25%"]
