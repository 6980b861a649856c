"""The rules tables as plain rows: JSON for tools, Rich tables for players (`mac-tui rules`).

Rows are built from the catalog only; nothing here restates a rule number. The optional rules
modules are listed (`modules`), and each module's own data file, when it has one, gives tables
of its own (`module_tables`), read generically.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from .catalog import Catalog
from .catalog.load import layered_file, module_order
from .catalog.records import Chassis

Row = dict[str, Any]


def _plain(record: Any, drop: tuple[str, ...] = ()) -> Row:
    out: Row = {}
    for f in attrs.fields(type(record)):
        if f.name in drop:
            continue
        name = f.name.rstrip("_")
        value = getattr(record, f.name)
        out[name] = (
            _plain(value)
            if attrs.has(type(value))
            else (list(value) if isinstance(value, tuple) else value)
        )
    return out


def weapons(cat: Catalog) -> list[Row]:
    return [_plain(w) for w in cat.weapons.values()]


def chassis(cat: Catalog) -> list[Row]:
    rows = []
    for c in cat.chassis.values():
        row = _plain(c, drop=("hardpoints",))
        row["hardpoints"] = {
            size: len(c.hardpoints.of(size)) for size in ("small", "medium", "large")
        }
        row["mounts"] = {size: list(c.hardpoints.of(size)) for size in ("small", "medium", "large")}
        row["price"] = cat.chassis_price(c)
        row["armor_split"] = armor_split(cat, c)
        rows.append(row)
    return rows


def armor_split(cat: Catalog, c: Chassis) -> dict[str, int]:
    """§8.2 with R26, by location id (the engine's `combat.stats.armor_split`)."""
    from .combat.stats import armor_split as split

    return {loc.id: p for loc, p in zip(cat.combat.location, split(c), strict=True)}


def _records(getter: Callable[[Catalog], Any]) -> Callable[[Catalog], list[Row]]:
    return lambda cat: [_plain(x) for x in getter(cat)]


def _single(getter: Callable[[Catalog], Any]) -> Callable[[Catalog], list[Row]]:
    return lambda cat: [_plain(getter(cat))]


def _routes(cat: Catalog) -> list[Row]:
    names = {s.id: s.name for s in cat.galaxy.system}
    return [
        {"a": names[r.a], "b": names[r.b], "fuel": r.fuel, "days": r.days} for r in cat.galaxy.route
    ]


def _factions(cat: Catalog) -> list[Row]:
    rows = []
    for f in cat.factions.values():
        row = _plain(f)
        row["territory"] = [cat.systems[s].name for s in cat.territory(f.id)]
        row["gear"] = [w.name for w in cat.weapons.values() if w.faction == f.id] + [
            c.name for c in cat.chassis.values() if c.faction == f.id
        ]
        rows.append(row)
    return rows


def _combat(cat: Catalog) -> list[Row]:
    c = cat.combat
    rows = []
    for part in (c.rounds, c.ap_costs, c.accuracy, c.damage, c.reactor, c.movement, c.ammo):
        section = type(part).__toml_name__
        for k, v in _plain(part).items():
            rows.append({"section": section, "rule": k, "value": v})
    return rows


def _modules(cat: Catalog) -> list[Row]:
    """The optional rules modules (O0): id, name, whether this version plays it, the modules
    it cannot be played with (O0.3) and what it does."""
    from . import ruleset

    rows = []
    for m in sorted(cat.modules, key=module_order):
        record = cat.modules[m]
        rows.append(
            {
                "module": record.id,
                "name": record.name,
                "playable": m in ruleset.PLAYABLE,
                "excluded_with": [
                    other
                    for pair in cat.excluded_modules
                    if m in pair.modules
                    for other in pair.modules
                    if other != m
                ],
                "summary": record.summary,
            }
        )
    return rows


Table = tuple[str, Callable[[Catalog], list[Row]]]


def _fixed(rows: list[Row]) -> Callable[[Catalog], list[Row]]:
    return lambda _: rows


def module_tables(cat: Catalog) -> dict[str, Table]:
    """The tables of each optional module's own data file (`data` in modules.toml) that
    exists, read as they are written: one table per list of rows (`o2-landscape`), and one
    of the module's single numbers (`o2`: section, its rule id when it names one with a
    `rule` key, the number's name and value). Nothing here knows a module's
    fields, so a module's file shows up as soon as it is there."""
    out: dict[str, Table] = {}
    for m in sorted(cat.modules, key=module_order):
        record = cat.modules[m]
        raw = layered_file(cat, record.data) if record.data else None
        if not raw:
            continue
        key = m.lower()
        where = f"{m} {record.name}"
        singles: list[Row] = []
        for name, value in raw.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                out[f"{key}-{name}"] = (f"{where}: {name}", _fixed([dict(v) for v in value]))
            elif isinstance(value, dict):
                rule_id = value.get("rule") if isinstance(value.get("rule"), str) else ""
                singles += [
                    {"section": name, "rule_id": rule_id, "rule": k, "setting": v}
                    for k, v in value.items()
                    if not (k == "rule" and rule_id)
                ]
            else:
                singles.append({"section": "", "rule_id": "", "rule": name, "setting": value})
        if singles:
            out[key] = (f"{where}, data/{record.data}", _fixed(singles))
    return out


TABLES: dict[str, Table] = {
    "weapons": ("Weapons (§7.4, §3.1)", weapons),
    "chassis": ("Chassis (§8.3, §8.4)", chassis),
    "equipment": ("Equipment (§7.7)", _records(lambda c: c.equipment.values())),
    "terrain": ("Terrain (§6.2, §3.6)", _records(lambda c: c.terrain.values())),
    "classes": ("Frame classes (§6.4, §11)", _records(lambda c: c.classes.values())),
    "ranges": ("Range classes (§3.4, §6.5)", _records(lambda c: c.ranges.range_class)),
    "locations": (
        "Hit locations and armour split (§4.1, §4.4, §8.2)",
        _records(lambda c: c.combat.location),
    ),
    "components": ("Component damage (§4.3)", _records(lambda c: c.combat.component)),
    "combat": ("Combat rule numbers (§1-§5)", _combat),
    "pilots": ("Starting pilots (§9.5)", _records(lambda c: c.pilots.starting_pilot)),
    "hiring": ("Hiring (§9.3)", _single(lambda c: c.pilots.hiring)),
    "callsigns": (
        "Callsign pool (§9.3)",
        lambda c: [{"callsign": n} for n in c.pilots.callsigns.pool],
    ),
    "xp": ("Experience (§9.4)", _single(lambda c: c.pilots.xp)),
    "training": ("Training: XP buys skill levels (P1)", _single(lambda c: c.pilots.training)),
    "rewards": ("Mission rewards (§11.6)", _records(lambda c: c.economy.reward)),
    "outcomes": ("Reward by outcome (§11.6, R23)", _single(lambda c: c.economy.outcome)),
    "standing": (
        "Standing levels (§15.1, §11.6, §11.7)",
        _records(lambda c: c.economy.standing_level),
    ),
    "standing-changes": ("Standing changes (§15.2)", _records(lambda c: c.economy.standing_change)),
    "market": ("Market stock (§11.8)", _records(lambda c: c.economy.market_tier)),
    "payout": ("Payout levels (§12.2)", _records(lambda c: c.economy.payout_level)),
    "salvage": ("Salvage (§12)", _single(lambda c: c.economy.salvage)),
    "repair": ("Repairs (§11.2, §11.3)", _single(lambda c: c.economy.repair)),
    "prices": ("Prices (§11, §7.8, §14.3)", _single(lambda c: c.economy.prices)),
    "factions": ("Factions (§15.3)", _factions),
    "systems": ("Star systems (§14.1)", _records(lambda c: c.galaxy.system)),
    "places": ("Planets and stations (§14.2)", _records(lambda c: c.galaxy.location)),
    "routes": ("Jump routes (§14.3)", _routes),
    "travel": ("Travel (§14.3)", _single(lambda c: c.galaxy.travel)),
    "maps": ("Map sizes (§6.1)", _records(lambda c: c.maps.map_size)),
    "landscapes": ("Battle landscapes (§6.2)", _records(lambda c: c.maps.landscape)),
    "missions": ("Enemy forces (§16.1)", _records(lambda c: c.missions.enemy_force)),
    "difficulty": ("Mission difficulty (§16.2)", _single(lambda c: c.missions.difficulty)),
    "start": ("Starting conditions (§13.3)", _single(lambda c: c.start.company)),
    "modules": ("Optional rules modules (O0)", _modules),
}


def all_tables(cat: Catalog) -> dict[str, Table]:
    """Every rules table: the core game's, the modules', then each module's own."""
    return {**TABLES, **module_tables(cat)}


def rows(cat: Catalog, table: str) -> list[Row]:
    return all_tables(cat)[table][1](cat)


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "-"
    if value is None:
        return "-"
    if isinstance(value, dict):
        return " ".join(f"{k}:{_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value) or "-"
    if isinstance(value, int) and abs(value) >= 1000:
        return f"{value:,}"
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


# Short headers so the common tables fit 80 columns; anything else shows its key.
HEADERS = {
    "name": "Name",
    "type": "Type",
    "damage": "Dmg",
    "energy": "En",
    "ammo_per_shot": "Ammo",
    "space": "Spc",
    "range": "Range",
    "accuracy": "Acc%",
    "price": "Price",
    "faction": "Fac",
    "exclusive": "Excl",
    "size": "Sz",
    "designation": "Model",
    "class": "Cl",
    "tonnage": "Tons",
    "armor": "Arm",
    "reactor": "Reac",
    "move_energy": "MvE",
    "speed": "Spd",
    "evasion": "Eva%",
    "hardpoints": "S/M/L",
    "structure": "Structure",
    "category": "Category",
    "slot_size": "Slot",
    "description": "Effect",
    "special": "Special",
    "min_difficulty": "Min",
    "max_difficulty": "Max",
    "market": "Mkt",
    "hiring": "Hire",
    "system": "System",
    "module": "Module",
    "playable": "Plays",
    "excluded_with": "Not with",
    "summary": "What it does",
    "rule_id": "Id",
    "setting": "Value",
}
# Only these columns wrap when a table is wider than the terminal; the rest stay whole.
WRAPPING = {
    "name",
    "description",
    "identity",
    "territory",
    "gear",
    "notes",
    "summary",
    "excluded_with",
}
# Columns that only tools need (ids, engine mechanism names) are left out of the Rich view.
HIDDEN = {
    "id",
    "abbrev",
    "effect",
    "value",
    "range_",
    "move_penalty",
    "stress_on_hit",
    "indirect",
    "mounts",
    "armor_split",
    "unicode",
}


def _display_rows(cat: Catalog, table: str) -> list[Row]:
    data = rows(cat, table)
    if table == "weapons":
        for row in data:
            special = []
            if row["stress_on_hit"]:
                special.append(f"+{row['stress_on_hit']} stress")
            if row["indirect"]:
                special.append("indirect")
            if row.pop("exclusive"):
                special.append("excl.")
            row["special"] = ", ".join(special) or "-"
            row["size"] = row["size"][0].upper()
            row["type"] = row["type"][:3]
    if table == "chassis":
        for row in data:
            row["hardpoints"] = "{small}/{medium}/{large}".format(**row["hardpoints"])
            row["structure"] = "/".join(str(v) for v in row["structure"].values())
            row["class"] = cat.classes[row["class"]].letter
            del row["price"]  # the class price: `mac-tui rules classes`
    if table == "places":
        for row in data:
            row["system"] = cat.systems[row["system"]].name
    if table == "equipment":
        for row in data:
            row.pop("range", None)
    for row in data:
        if table in ("weapons", "chassis"):
            faction = cat.factions.get(row["faction"])
            row["faction"] = faction.abbrev if faction else "-"
        elif isinstance(row.get("faction"), str) and row["faction"] in cat.factions:
            row["faction"] = cat.factions[row["faction"]].short
    return data


def render(cat: Catalog, table: str) -> Any:
    """A Rich Table of one rules table (Rich is imported here, only when drawing)."""
    from rich import box
    from rich.table import Table

    title, _ = all_tables(cat)[table]
    data = _display_rows(cat, table)
    out = Table(
        title=title,
        box=box.SIMPLE_HEAD,
        header_style="bold",
        pad_edge=False,
        collapse_padding=True,
        padding=0,
        show_edge=False,
    )
    first = data[0] if data else {}
    module = table not in TABLES  # a module's own table: read from its file, any width
    # ids are for tools, but a module's table without names shows them: they name its rows
    columns = [
        c
        for c in first
        if c not in HIDDEN or len(first) <= 3 or (c == "id" and module and "name" not in first)
    ]
    for col in columns:
        numeric = all(
            isinstance(r.get(col), int) and not isinstance(r.get(col), bool) for r in data
        )
        header = HEADERS.get(col, col.replace("_", " "))
        wraps = col in WRAPPING
        if module and col == "name":  # a module's wide table cuts other columns, never names
            longest = max(len(_cell(r.get(col))) for r in data)
            out.add_column(header, no_wrap=True, min_width=longest)
            continue
        out.add_column(
            header,
            justify="right" if numeric else "left",
            no_wrap=not wraps,
            min_width=None if wraps else len(header),
        )
    for row in data:
        out.add_row(*(_cell(row.get(col)) for col in columns))
    if table in ("weapons", "chassis"):
        legend = " · ".join(f"{f.abbrev} {f.short}" for f in cat.factions.values())
        out.caption = f"{legend} · - universal"
    return out
