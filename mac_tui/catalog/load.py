"""Load data/*.toml once into a frozen `Catalog` and check it whole.

Per-file checks (keys, types, ranges) live in `schema.py`; this module adds what needs several
rows or files: unique ids, dangling references, tables that must cover a range exactly.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs
from attrs import frozen

from ..memo import ByIdentity
from . import records as r
from .mods import check_mod, layer, parse
from .schema import Builder

T = TypeVar("T")

DATA_ENV = "MAC_TUI_DATA"
UNIVERSAL = "universal"
CONTESTED = "contested"
LOCATION_ORDER: tuple[r.LocationId, ...] = (
    "head",
    "center_torso",
    "left_torso",
    "right_torso",
    "left_arm",
    "right_arm",
    "legs",
)
SIZES: tuple[r.Size, ...] = ("small", "medium", "large")
OUTCOMES: tuple[r.Outcome, ...] = ("victory", "defeat", "withdrawal")


def data_dir() -> Path:
    """Where the rules tables are: $MAC_TUI_DATA, the wheel's copy, or the source checkout."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    package = Path(__file__).resolve().parent.parent
    shipped = package / "data"
    if shipped.is_dir():
        return shipped
    return package.parent / "data"


@frozen(kw_only=True)
class Catalog:
    """Every rules table, validated. Lookups by id; tuples keep the data files' order."""

    root: Path
    mods: tuple[Path, ...] = ()  # mod folders layered over root (`load_catalog`)
    weapons: Mapping[str, r.Weapon]
    chassis: Mapping[str, r.Chassis]
    equipment: Mapping[str, r.Equipment]
    terrain: Mapping[str, r.Terrain]
    classes: Mapping[str, r.FrameClass]
    ranges: r.RangesFile
    combat: r.CombatFile
    pilots: r.PilotsFile
    economy: r.EconomyFile
    factions: Mapping[str, r.Faction]
    galaxy: r.GalaxyFile
    systems: Mapping[str, r.StarSystem]
    places: Mapping[str, r.Place]
    maps: r.MapsFile
    structures: r.StructuresFile  # optional module O3 (data/structures.toml)
    missions: r.MissionsFile
    start: r.StartFile
    loadouts: Mapping[str, tuple[r.StockLoadout, ...]]
    modules: Mapping[str, r.Module]  # the optional rules modules (O0)
    excluded_modules: tuple[r.ExcludedPair, ...]  # O0.3, each pair sorted
    elevation: r.ElevationFile  # optional module O2 (read only while a battle plays O2)
    objectives: r.ObjectivesFile  # optional module O11 (data/objectives.toml)
    range_bands: r.RangeBandsFile  # optional module O1 (read only while a battle plays O1)
    formations: r.FormationsFile  # optional module O9 (read only while a battle plays O9)
    third_parties: r.ThirdPartiesFile  # optional module O10 (data/third_parties.toml)
    facing: r.FacingFile  # optional module O4 (read only while a battle plays O4)
    moving_fire: r.MovingFireFile  # optional module O5 (data/moving_fire.toml)
    kicks: r.KicksFile  # optional module O7 (data/kicks.toml)
    reaction: r.ReactionFile  # optional module O6 (read only while a battle plays O6)
    detection: r.DetectionFile  # optional module O8 (read only while a battle plays O8)

    # ---- lookups the engine and screens share ------------------------------------------
    def stock_loadouts(self, designation: str) -> tuple[r.StockLoadout, ...]:
        """The enemy stock loadouts of a chassis (R18), in file order, every module's
        included (to look one up by name); KeyError if unknown."""
        return self.loadouts[designation]

    def drawn_loadouts(
        self, designation: str, ruleset: tuple[str, ...] = ()
    ) -> tuple[r.StockLoadout, ...]:
        """The stock loadouts an enemy frame is drawn from (R18) under `ruleset`: a module's
        loadout only while that module is on (O0.11)."""
        stock = self.loadouts[designation]
        return tuple(lo for lo in stock if not lo.module or lo.module in ruleset)

    def range_class(self, range_id: str) -> r.RangeClass:
        """The range class with this id (KeyError if none)."""
        return _RANGE_CLASSES.get(self, lambda c: _by_id(c.ranges.range_class))[range_id]

    def location(self, location_id: str) -> r.Location:
        """The hit location with this id (KeyError if none)."""
        return _LOCATIONS.get(self, lambda c: _by_id(c.combat.location))[location_id]

    def frame_class(self, chassis: r.Chassis) -> r.FrameClass:
        return self.classes[chassis.class_]

    def chassis_price(self, chassis: r.Chassis) -> int:
        return self.classes[chassis.class_].price

    def standing_level(self, standing: int) -> r.StandingLevel:
        for level in self.economy.standing_level:
            if level.min <= standing <= level.max:
                return level
        levels = self.economy.standing_level
        return levels[0] if standing < levels[0].min else levels[-1]

    def standing_level_by_id(self, level_id: str) -> r.StandingLevel:
        return next(lv for lv in self.economy.standing_level if lv.id == level_id)

    def reward(self, difficulty: int) -> r.Reward:
        return next(rw for rw in self.economy.reward if rw.difficulty == difficulty)

    def payout_level(self, level: int) -> r.PayoutLevel:
        return next(p for p in self.economy.payout_level if p.level == level)

    def default_payout_level(self) -> r.PayoutLevel:
        return next(p for p in self.economy.payout_level if p.default)

    def market_tier(self, tier: str) -> r.MarketTier:
        return next(t for t in self.economy.market_tier if t.id == tier)

    def standing_change(self, outcome: str) -> r.StandingChange:
        return next(c for c in self.economy.standing_change if c.outcome == outcome)

    def enemy_force(self, difficulty: int) -> r.EnemyForce:
        return next(f for f in self.missions.enemy_force if f.difficulty == difficulty)

    def map_size(self, difficulty: int) -> r.MapSize:
        return next(
            m for m in self.maps.map_size if m.min_difficulty <= difficulty <= m.max_difficulty
        )

    def landscape(self, landscape_id: str) -> r.Landscape:
        return next(ls for ls in self.maps.landscape if ls.id == landscape_id)

    def places_in(self, system_id: str) -> tuple[r.Place, ...]:
        return tuple(p for p in self.galaxy.location if p.system == system_id)

    def arrival_place(self, system_id: str) -> r.Place:
        return self.places_in(system_id)[0]

    def routes_from(self, system_id: str) -> tuple[tuple[str, r.Route], ...]:
        out: list[tuple[str, r.Route]] = []
        for route in self.galaxy.route:
            if route.a == system_id:
                out.append((route.b, route))
            elif route.b == system_id:
                out.append((route.a, route))
        return tuple(out)

    def route(self, a: str, b: str) -> r.Route | None:
        for other, route in self.routes_from(a):
            if other == b:
                return route
        return None

    def territory(self, faction_id: str) -> tuple[str, ...]:
        return tuple(s.id for s in self.galaxy.system if s.faction == faction_id)

    def controller(self, place_id: str) -> str | None:
        """The controlling faction of a location's system, or None when contested."""
        faction = self.systems[self.places[place_id].system].faction
        return None if faction == CONTESTED else faction


@frozen
class _Source:
    """Where the tables come from: the shipped folder and the mod folders layered over it."""

    root: Path
    mods: tuple[Path, ...] = ()


def _read(src: _Source, name: str) -> tuple[str, dict[str, Any]]:
    shown = f"data/{name}"
    raw = parse(src.root / name, shown, f"the file is missing (looked in {src.root}).")
    for mod in src.mods:
        path = mod / name
        if path.is_file():
            mod_shown = str(path)
            raw = layer(raw, parse(path, mod_shown, ""), mod_shown, "")
            shown = f"{mod_shown} (layered over {shown})"
    return shown, raw


def layered_file(cat: Catalog, name: str) -> dict[str, Any] | None:
    """The raw tables of `data/NAME` with the catalog's mods layered over it, unchecked, or
    None when the shipped folder has no such file (an optional module's file, shown by the
    rules reference)."""
    if not (cat.root / name).is_file():
        return None
    return _read(_Source(cat.root, cat.mods), name)[1]


def _file(src: _Source, name: str, cls: type[T]) -> tuple[Builder, T]:
    shown, raw = _read(src, name)
    builder = Builder(shown)
    return builder, builder.file(cls, raw)


def _index(builder: Builder, items: Iterable[T], attr: str, kind: str) -> dict[str, T]:
    out: dict[str, T] = {}
    for i, item in enumerate(items):
        ident = getattr(item, attr)
        if ident in out:
            builder.fail(f'{kind} "{ident}" (entry {i + 1})', f'duplicates the {attr} "{ident}".')
        out[ident] = item
    return out


def _ref(builder: Builder, where: str, field: str, value: str, allowed: Iterable[str]) -> None:
    options = sorted(set(allowed))
    if value not in options:
        builder.fail(
            f'{where}, field "{field}"',
            f'"{value}" does not name a known entry (known: {", ".join(options)}).',
        )


def _covers(builder: Builder, where: str, spans: list[tuple[int, int]], lo: int, hi: int) -> None:
    """Check that the inclusive spans, in order, tile lo..hi with no gap or overlap."""
    expect = lo
    for a, b in spans:
        if a != expect or b < a:
            builder.fail(where, f"rows must cover {lo} to {hi} in order without gaps or overlaps.")
        expect = b + 1
    if expect != hi + 1:
        builder.fail(where, f"rows must cover {lo} to {hi} in order without gaps or overlaps.")


def load_catalog(root: Path | None = None, mods: Sequence[Path] = ()) -> Catalog:
    """Read and validate every data file, each mod folder of `mods` layered over the tables
    in turn (`mods.py`); raise DataError naming file, entry and field."""
    root = root or data_dir()
    for mod in mods:
        check_mod(mod)
    src = _Source(root, tuple(mods))
    fb, factions_file = _file(src, "factions.toml", r.FactionsFile)
    factions = _index(fb, factions_file.faction, "id", "faction")
    owners = [*factions, UNIVERSAL]

    cb, classes_file = _file(src, "classes.toml", r.ClassesFile)
    classes = _index(cb, classes_file.class_, "id", "class")
    if sorted(classes) != sorted(["light", "medium", "heavy", "assault"]):
        cb.fail("class", "must list light, medium, heavy and assault once each.")

    wb, weapons_file = _file(src, "weapons.toml", r.WeaponsFile)
    weapons = _index(wb, weapons_file.weapon, "id", "weapon")
    for i, w in enumerate(weapons_file.weapon):
        where = f'weapon "{w.id}" (entry {i + 1})'
        _ref(wb, where, "faction", w.faction, owners)
        if w.exclusive and w.faction == UNIVERSAL:
            wb.fail(f'{where}, field "exclusive"', "a universal weapon cannot be exclusive.")
        if w.type == "energy" and w.uses_ammo:
            wb.fail(f'{where}, field "ammo_per_shot"', "energy weapons use no ammo (must be 0).")
        if w.type != "energy" and not w.uses_ammo:
            wb.fail(f'{where}, field "ammo_per_shot"', "ballistic and missile weapons use ammo.")

    hb, chassis_file = _file(src, "chassis.toml", r.ChassisFile)
    chassis = _index(hb, chassis_file.chassis, "designation", "chassis")
    for i, c in enumerate(chassis_file.chassis):
        where = f'chassis "{c.designation}" (entry {i + 1})'
        _ref(hb, where, "faction", c.faction, owners)

    eb, equipment_file = _file(src, "equipment.toml", r.EquipmentFile)
    equipment = _index(eb, equipment_file.equipment, "id", "equipment")
    for i, e in enumerate(equipment_file.equipment):
        where = f'equipment "{e.id}" (entry {i + 1})'
        if (e.category == "slot") != (e.slot_size != "none"):
            eb.fail(f'{where}, field "slot_size"', "slot equipment needs a size; others none.")
        if e.category != "active" and e.energy:
            eb.fail(f'{where}, field "energy"', "only active equipment draws energy.")

    tb, terrain_file = _file(src, "terrain.toml", r.TerrainFile)
    terrain = _index(tb, terrain_file.terrain, "id", "terrain")
    if "open" not in terrain:
        tb.fail("terrain", 'an "open" terrain is required (deployment zones).')

    rb, ranges = _file(src, "ranges.toml", r.RangesFile)
    _index(rb, ranges.range_class, "id", "range_class")
    for i, rc in enumerate(ranges.range_class):
        if not rc.optimal_min <= rc.optimal_max <= rc.max_range:
            rb.fail(
                f'range_class "{rc.id}" (entry {i + 1})',
                "needs optimal_min <= optimal_max <= max_range.",
            )

    mb, combat = _file(src, "combat.toml", r.CombatFile)
    locations = _index(mb, combat.location, "id", "location")
    if tuple(locations) != LOCATION_ORDER:
        mb.fail("location", f"must list the seven locations in order: {', '.join(LOCATION_ORDER)}.")
    if sum(loc.hit_weight for loc in combat.location) != 100:
        mb.fail("location", "hit_weight values must add up to 100 (§4.1).")
    if sum(loc.armor_permille for loc in combat.location) != 1000:
        mb.fail("location", "armor_permille values must add up to 1000 (§8.2).")
    _covers(mb, "component", [(c.low, c.high) for c in combat.component], 0, 99)
    _index(mb, combat.component, "id", "component")

    pb, pilots = _file(src, "pilots.toml", r.PilotsFile)
    for fname in ("gunnery_d6", "piloting_d6", "tactics_d6"):
        if len(getattr(pilots.hiring, fname)) != 6:
            pb.fail(f'[hiring], field "{fname}"', "needs one value per face of a d6 (6 values).")
    if len(set(pilots.callsigns.pool)) != len(pilots.callsigns.pool):
        pb.fail('[callsigns], field "pool"', "callsigns must be unique.")
    for i, sp in enumerate(pilots.starting_pilot):
        where = f'starting_pilot "{sp.callsign}" (entry {i + 1})'
        _ref(pb, where, "callsign", sp.callsign, pilots.callsigns.pool)

    xb, economy = _file(src, "economy.toml", r.EconomyFile)
    _covers(xb, "reward", [(rw.difficulty, rw.difficulty) for rw in economy.reward], 1, 5)
    levels = economy.standing_level
    _covers(
        xb,
        "standing_level",
        [(lv.min, lv.max) for lv in levels],
        economy.standing.min,
        economy.standing.max,
    )
    _ref(
        xb,
        "[standing]",
        "exclusive_level",
        economy.standing.exclusive_level,
        [lv.id for lv in levels],
    )
    if not economy.standing.min <= economy.standing.start <= economy.standing.max:
        xb.fail('[standing], field "start"', "must lie within min..max.")
    if sorted(c.outcome for c in economy.standing_change) != sorted(OUTCOMES):
        xb.fail("standing_change", "needs one row each for victory, defeat and withdrawal.")
    tiers = _index(xb, economy.market_tier, "id", "market_tier")
    if len(tiers) != 10:
        xb.fail("market_tier", "needs every tier of §11.8 once.")
    for i, t in enumerate(economy.market_tier):
        if t.qty_min > t.qty_max:
            xb.fail(f'market_tier "{t.id}" (entry {i + 1})', "qty_min exceeds qty_max.")
    _covers(xb, "payout_level", [(p.level, p.level) for p in economy.payout_level], 0, 4)
    if sum(p.default for p in economy.payout_level) != 1:
        xb.fail("payout_level", "exactly one level must be the default.")

    gb, galaxy = _file(src, "galaxy.toml", r.GalaxyFile)
    systems = _index(gb, galaxy.system, "id", "system")
    places = _index(gb, galaxy.location, "id", "location")
    for i, s in enumerate(galaxy.system):
        _ref(gb, f'system "{s.id}" (entry {i + 1})', "faction", s.faction, [*factions, CONTESTED])
        if not any(p.system == s.id for p in galaxy.location):
            gb.fail(f'system "{s.id}" (entry {i + 1})', "has no locations.")
    for i, p in enumerate(galaxy.location):
        where = f'location "{p.id}" (entry {i + 1})'
        _ref(gb, where, "system", p.system, systems)
        if p.min_difficulty > p.max_difficulty:
            gb.fail(f'{where}, field "min_difficulty"', "exceeds max_difficulty.")
    seen_routes: set[frozenset[str]] = set()
    for i, rt in enumerate(galaxy.route):
        where = f"route {rt.a}-{rt.b} (entry {i + 1})"
        _ref(gb, where, "a", rt.a, systems)
        _ref(gb, where, "b", rt.b, systems)
        pair = frozenset((rt.a, rt.b))
        if len(pair) != 2 or pair in seen_routes:
            gb.fail(where, "a route joins two different systems, once.")
        seen_routes.add(pair)

    ab, maps = _file(src, "maps.toml", r.MapsFile)
    _covers(ab, "map_size", [(m.min_difficulty, m.max_difficulty) for m in maps.map_size], 1, 5)
    _index(ab, maps.landscape, "id", "landscape")
    for i, ls in enumerate(maps.landscape):
        if ls.forest + ls.rocks + ls.rough + ls.sand > 100:
            ab.fail(f'landscape "{ls.id}" (entry {i + 1})', "shares add up to more than 100%.")
    for i, p in enumerate(galaxy.location):
        _ref(
            gb,
            f'location "{p.id}" (entry {i + 1})',
            "type",
            p.type,
            [ls.id for ls in maps.landscape],
        )
    if maps.forest_clusters.extra_min > maps.forest_clusters.extra_max:
        ab.fail("[forest_clusters]", "extra_min exceeds extra_max.")
    for i, m in enumerate(maps.map_size):
        if m.width <= 4 * maps.deployment.columns:
            ab.fail(
                f'map_size "{m.id}" (entry {i + 1}), field "width"',
                "leaves no interior between the deployment zones.",
            )

    structures = _check_structures(src, maps, equipment)

    nb, missions = _file(src, "missions.toml", r.MissionsFile)
    _covers(nb, "enemy_force", [(f.difficulty, f.difficulty) for f in missions.enemy_force], 1, 5)
    for i, f in enumerate(missions.enemy_force):
        odds = f.withdrawal
        if odds.never + odds.at_50 + odds.at_25 == 0:
            nb.fail(f'enemy_force (entry {i + 1}), field "withdrawal"', "needs a weight above 0.")

    sb, start = _file(src, "start.toml", r.StartFile)
    _ref(sb, "[company]", "location", start.company.location, places)
    if start.company.fuel > galaxy.travel.fuel_capacity:
        sb.fail('[company], field "fuel"', "exceeds the fuel capacity in galaxy.toml.")
    starters = [sp.callsign for sp in pilots.starting_pilot]
    for i, fr in enumerate(start.frame):
        where = f'frame "{fr.chassis}" (entry {i + 1})'
        _ref(sb, where, "chassis", fr.chassis, chassis)
        _ref(sb, where, "pilot", fr.pilot, starters)
        used: dict[tuple[str, str], int] = {}
        for j, entry in enumerate(fr.loadout):
            at = f"{where}, loadout item {j + 1}"
            _ref(sb, at, "weapon", entry.weapon, weapons)
            size = weapons[entry.weapon].size
            slot = (size, entry.mount)
            used[slot] = used.get(slot, 0) + 1
            if used[slot] > chassis[fr.chassis].hardpoints.of(size).count(entry.mount):
                sb.fail(
                    f'{at}, field "mount"',
                    f"{fr.chassis} has no free {size} hardpoint at {entry.mount}.",
                )

    lb, loadouts_file = _file(src, "loadouts.toml", r.LoadoutsFile)
    loadouts = _check_loadouts(
        lb, loadouts_file, chassis, weapons, equipment, combat.reactor.overload_percent
    )
    groups = combat.loadout.weapon_groups  # §7.2: every fit uses groups 1..weapon_groups
    for i, fr in enumerate(start.frame):
        for j, entry in enumerate(fr.loadout):
            if entry.group > groups:
                at = f'frame "{fr.chassis}" (entry {i + 1}), loadout item {j + 1}, field "group"'
                sb.fail(at, f"weapon groups run 1 to {groups} (combat.toml, §7.2).")
    for designation, stock in loadouts.items():
        for lo in stock:
            if any(entry.group > groups for entry in lo.weapons):
                lb.fail(
                    f'chassis "{designation}", loadout "{lo.name}", field "weapons"',
                    f"weapon groups run 1 to {groups} (combat.toml, §7.2).",
                )

    modules, excluded_modules = _load_modules(src)
    for i, e in enumerate(equipment_file.equipment):
        if e.module:  # O0.11: a module item names its module
            _ref(eb, f'equipment "{e.id}" (entry {i + 1})', "module", e.module, modules)
    elevation = _load_elevation(src, [ls.id for ls in maps.landscape])
    objectives = _load_objectives(src, modules)
    range_bands = _load_range_bands(src, combat)
    formations = _load_formations(src, combat)
    third_parties = _load_third_parties(src)
    facing = _load_facing(src, {loc.id: loc.hit_weight for loc in combat.location})
    moving_fire = _file(src, "moving_fire.toml", r.MovingFireFile)[1]
    kicks = _load_kicks(src)
    reaction = _file(src, "reaction.toml", r.ReactionFile)[1]  # O6: bounds in the schema
    detection = _load_detection(src, equipment)

    return Catalog(
        root=root,
        mods=tuple(mods),
        weapons=weapons,
        chassis=chassis,
        equipment=equipment,
        terrain=terrain,
        classes=classes,
        ranges=ranges,
        combat=combat,
        pilots=pilots,
        economy=economy,
        factions=factions,
        galaxy=galaxy,
        systems=systems,
        places=places,
        maps=maps,
        structures=structures,
        missions=missions,
        start=start,
        loadouts=loadouts,
        modules=modules,
        excluded_modules=excluded_modules,
        elevation=elevation,
        objectives=objectives,
        range_bands=range_bands,
        formations=formations,
        third_parties=third_parties,
        facing=facing,
        moving_fire=moving_fire,
        kicks=kicks,
        reaction=reaction,
        detection=detection,
    )


def _check_structures(
    src: _Source, maps: r.MapsFile, equipment: Mapping[str, r.Equipment]
) -> r.StructuresFile:
    """data/structures.toml (optional module O3): references between its tables, the O3.3
    rolls tiling 1-100, one generation rate per landscape, rule ids of O3."""
    sb, st = _file(src, "structures.toml", r.StructuresFile)
    kinds = _index(sb, st.feature, "id", "feature")
    for i, f in enumerate(st.feature):
        where = f'feature "{f.id}" (entry {i + 1})'
        if f.becomes:
            _ref(sb, where, "becomes", f.becomes, kinds)
        if (f.durability == 0) != (not f.becomes):
            sb.fail(f'{where}, field "becomes"', "only an indestructible feature (0) has none.")
        if (f.los == "penalty") != (f.los_penalty > 0):
            sb.fail(f'{where}, field "los_penalty"', 'only los = "penalty" has a penalty.')
    _index(sb, st.variant, "id", "variant")
    _covers(sb, "variant", [(v.roll_min, v.roll_max) for v in st.variant], 1, 100)
    for section, ids in (("order", st.generation.order), ("buildings", st.generation.buildings)):
        for fid in ids:
            _ref(sb, "[generation]", section, fid, kinds)
    if len(st.generation.extra_sections) != 6:
        sb.fail('[generation], field "extra_sections"', "needs one entry per face of a d6.")
    rates = _index(sb, st.rate, "landscape", "rate")
    if sorted(rates) != sorted(ls.id for ls in maps.landscape):
        sb.fail("rate", "needs exactly one row per landscape of data/maps.toml.")
    launcher = equipment.get(st.smoke.launcher)
    if launcher is None or launcher.effect != "smoke":
        sb.fail('[smoke], field "launcher"', "must name equipment whose effect is smoke.")
    rules = [f.rule for f in st.feature] + [v.rule for v in st.variant]
    rules += [st.volatile.rule, st.generation.rule, st.attack.rule]
    rules += [st.explosion.rule, st.smoke.rule]
    for rule in rules:
        if not rule.startswith("O3."):
            sb.fail("rule", f'"{rule}" is not a rule id of module O3.')
    return st


def _load_modules(src: _Source) -> tuple[dict[str, r.Module], tuple[r.ExcludedPair, ...]]:
    """modules.toml: unique ids of the form O<n>, and excluded pairs of two known, distinct
    modules (stored sorted, O0.3)."""
    ob, modules_file = _file(src, "modules.toml", r.ModulesFile)
    modules = _index(ob, modules_file.module, "id", "module")
    for i, m in enumerate(modules_file.module):
        if not (m.id[:1] == "O" and m.id[1:].isdigit() and str(int(m.id[1:])) == m.id[1:]):
            ob.fail(f'module "{m.id}" (entry {i + 1}), field "id"', 'must be "O" and a number.')
        if m.data and not (m.data.endswith(".toml") and Path(m.data).name == m.data):
            ob.fail(f'module "{m.id}" (entry {i + 1}), field "data"', "must name a .toml file.")
    pairs: list[r.ExcludedPair] = []
    for i, pair in enumerate(modules_file.excluded):
        where = f"excluded (entry {i + 1})"
        if len(pair.modules) != 2 or pair.modules[0] == pair.modules[1]:
            ob.fail(f'{where}, field "modules"', "must name two different modules.")
        for m_id in pair.modules:
            _ref(ob, where, "modules", m_id, modules)
        pairs.append(attrs.evolve(pair, modules=tuple(sorted(pair.modules, key=module_order))))
    return modules, tuple(pairs)


def module_order(module_id: str) -> int:
    """The sort key of a module id: O2 before O10."""
    return int(module_id[1:]) if module_id[1:].isdigit() else 10**6


def _load_objectives(src: _Source, modules: Mapping[str, r.Module]) -> r.ObjectivesFile:
    """data/objectives.toml (O11): every catalogue entry once, each `needs` "none", "map" or a
    known module."""
    jb, objectives = _file(src, "objectives.toml", r.ObjectivesFile)
    _index(jb, objectives.objective, "id", "objective")
    for i, row in enumerate(objectives.objective):
        where = f'objective "{row.id}" (entry {i + 1})'
        _ref(jb, where, "needs", row.needs, [*r.OBJECTIVE_NEEDS, *modules])
    return objectives


def _load_kicks(src: _Source) -> r.KicksFile:
    """data/kicks.toml (O7): the O7.4 table names every location once and sums to 100."""
    kb, kicks = _file(src, "kicks.toml", r.KicksFile)
    _index(kb, kicks.location, "id", "location")
    if {row.id for row in kicks.location} != set(LOCATION_ORDER):
        kb.fail('[[location]], field "id"', "must name every hit location once (O7.4).")
    total = sum(row.weight for row in kicks.location)
    if total != 100:
        kb.fail('[[location]], field "weight"', f"must sum to 100 (O7.4), not {total}.")
    return kicks


def _load_elevation(src: _Source, landscapes: Sequence[str]) -> r.ElevationFile:
    """data/elevation.toml (O2): one row per landscape of maps.toml, each range in order."""
    vb, elevation = _file(src, "elevation.toml", r.ElevationFile)
    rows = _index(vb, elevation.landscape, "id", "landscape")
    if sorted(rows) != sorted(landscapes):
        vb.fail("landscape", f"needs one O2.2 row per landscape: {', '.join(landscapes)}.")
    top = elevation.levels.max
    for i, row in enumerate(elevation.landscape):
        where = f'landscape "{row.id}" (entry {i + 1})'
        if row.hills and not 1 <= row.peak_min <= row.peak_max <= top:
            vb.fail(f'{where}, field "peak_min"', f"hills need 1 <= peak_min <= peak_max <= {top}.")
        if row.mesas and not 1 <= row.mesa_level <= top:
            vb.fail(f'{where}, field "mesa_level"', f"mesas need a level from 1 to {top}.")
    gen = elevation.generation
    if gen.mesa_extra_min > gen.mesa_extra_max:
        vb.fail("[generation]", "mesa_extra_min exceeds mesa_extra_max.")
    if elevation.falling.location == elevation.falling.fallback:
        vb.fail('[falling], field "fallback"', "must differ from location.")
    return elevation


def _load_range_bands(src: _Source, combat: r.CombatFile) -> r.RangeBandsFile:
    """data/range_bands.toml (O1): the start lines on the track, two distinct ends of it."""
    tb, bands = _file(src, "range_bands.toml", r.RangeBandsFile)
    track = bands.track
    last = track.positions - 1
    for field in ("player_start", "enemy_start"):
        if getattr(track, field) not in (0, last):
            where = f'[track], field "{field}"'
            tb.fail(where, f"a start line is an end of the track: 0 or {last}.")
    if track.player_start == track.enemy_start:
        tb.fail('[track], field "enemy_start"', "the two start lines must differ.")
    sprint = bands.moving.move * combat.movement.sprint_range_multiplier
    if sprint > last:
        tb.fail('[moving], field "move"', f"a Sprint ({sprint} positions) must fit the track.")
    return bands


def _load_third_parties(src: _Source) -> r.ThirdPartiesFile:
    """data/third_parties.toml (O10): the d100 bands in order, the four segments once each,
    a class to draw neutrals from, an allied class row of §16.1 past the small rows."""
    tb, third = _file(src, "third_parties.toml", r.ThirdPartiesFile)
    gen = third.generation
    if gen.ally_max > gen.neutral_max:
        tb.fail('[generation], field "neutral_max"', "must be at least ally_max.")
    if sorted(third.initiative.segments) != sorted(("player", "ally", "neutral", "enemy")):
        tb.fail('[initiative], field "segments"', "must name the four sides once each.")
    if not third.neutral.classes:
        tb.fail('[neutral], field "classes"', "needs at least one class.")
    if third.ally.small_max_difficulty + 1 - third.ally.class_row_offset < 1:
        tb.fail('[ally], field "class_row_offset"', "must leave a 16.1 row above the small rows.")
    return third


def _load_facing(src: _Source, core_weights: Mapping[str, int]) -> r.FacingFile:
    """data/facing.toml (O4): one O4.8 row per mount location, its arcs named once each; one
    O4.9 row per arc, each summing to 100, the front row the core table (CORE 4.1); the reverse
    steps distinct directions off the front."""
    fb, facing = _file(src, "facing.toml", r.FacingFile)
    mounts = _index(fb, facing.mount, "location", "mount")
    locations = [loc for loc in core_weights if loc != "legs"]
    if sorted(mounts) != sorted(locations):
        fb.fail("mount", f"needs one O4.8 row per mount location: {', '.join(locations)}.")
    for i, row in enumerate(facing.mount):
        if not row.arcs or len(set(row.arcs)) != len(row.arcs):
            fb.fail(f'mount "{row.location}" (entry {i + 1}), field "arcs"', "names each arc once.")
    rows = _index(fb, facing.hit_table, "arc", "hit_table")
    arcs = ("front", "left", "right", "rear")
    if sorted(rows) != sorted(arcs):
        fb.fail("hit_table", f"needs one O4.9 row per arc: {', '.join(arcs)}.")
    for i, t in enumerate(facing.hit_table):
        total = sum(t.weight(loc) for loc in core_weights)
        if total != 100:
            fb.fail(f'hit_table "{t.arc}" (entry {i + 1})', f"weights sum to {total}, not 100.")
    front = rows["front"]
    if any(front.weight(loc) != w for loc, w in core_weights.items()):
        fb.fail('hit_table "front"', "must be the core hit location table (data/combat.toml).")
    steps = facing.reverse.steps
    if not steps or len(set(steps)) != len(steps) or any(k in (0, 1, 5) for k in steps):
        fb.fail('[reverse], field "steps"', "names distinct directions behind the front (2-4).")
    return facing


def _load_detection(src: _Source, equipment: Mapping[str, r.Equipment]) -> r.DetectionFile:
    """data/detection.toml (O8): its equipment names exist in equipment.toml."""
    db, detection = _file(src, "detection.toml", r.DetectionFile)
    seen = detection.visual_range
    for field in ("sensor_array", "stealth", "phantom"):
        _ref(db, "[visual_range]", field, getattr(seen, field), equipment)
    _ref(
        db,
        "[targeting]",
        "spotter_sensor_array",
        detection.targeting.spotter_sensor_array,
        equipment,
    )
    return detection


def _load_formations(src: _Source, combat: r.CombatFile) -> r.FormationsFile:
    """data/formations.toml (O9): the O9.8 rows tile Tactics 1-10, each ability once, the
    Breach Shot's range only component rows with an effect (O9.9a), rule ids of O9."""
    fb, formations = _file(src, "formations.toml", r.FormationsFile)
    _covers(fb, "command", [(c.tactics_min, c.tactics_max) for c in formations.command], 1, 10)
    _index(fb, formations.ability, "id", "ability")
    for i, ab in enumerate(formations.ability):
        if not ab.rule.startswith("O9.9"):
            fb.fail(f'ability "{ab.id}" (entry {i + 1}), field "rule"', "must be an O9.9 rule.")
    high = formations.breach_shot.component_high
    if any(row.low <= high and row.id == "no_effect" for row in combat.component):
        fb.fail('[breach_shot], field "component_high"', "reaches a row without an effect.")
    if formations.screen.screens_min > formations.screen.screens_max:
        fb.fail("[screen]", "screens_min exceeds screens_max.")
    return formations


def _check_loadouts(
    lb: Builder,
    file: r.LoadoutsFile,
    chassis: Mapping[str, r.Chassis],
    weapons: Mapping[str, r.Weapon],
    equipment: Mapping[str, r.Equipment],
    overload_percent: int,
) -> dict[str, tuple[r.StockLoadout, ...]]:
    """Enemy stock loadouts (R18, D10): every chassis has two or more, and each one obeys the
    rules a player's refit must obey (§7.1, §7.5, §7.7) with its chassis' faction's weapons."""
    by_chassis = _index(lb, file.chassis, "designation", "chassis")
    for i, entry in enumerate(file.chassis):
        cw = f'chassis "{entry.designation}" (entry {i + 1})'
        _ref(lb, cw, "designation", entry.designation, chassis)
        frame = chassis[entry.designation]
        if len([lo for lo in entry.loadout if not lo.module]) < 2:
            lb.fail(f'{cw}, field "loadout"', "needs at least two stock loadouts (R18).")
        names: set[str] = set()
        for j, lo in enumerate(entry.loadout):
            lw = f'{cw}, field "loadout", loadout "{lo.name}" (entry {j + 1})'
            if lo.name in names:
                lb.fail(f'{lw}, field "name"', f'duplicates the name "{lo.name}" for this chassis.')
            names.add(lo.name)
            _check_stock_loadout(lb, lw, frame, lo, weapons, equipment, overload_percent)
            for eid in (*lo.equipment, *(f.equipment for f in lo.slots)):
                item = equipment.get(eid)
                if item is not None and item.module and item.module != lo.module:
                    lb.fail(
                        f'{lw}, field "module"',
                        f'"{eid}" is an item of module {item.module}: the loadout must be too.',
                    )
    for designation in chassis:
        if designation not in by_chassis:
            lb.fail(
                f'chassis "{designation}"',
                "has no stock loadouts; every chassis needs at least two (R18).",
            )
    return {c.designation: c.loadout for c in file.chassis}


def _check_stock_loadout(
    lb: Builder,
    lw: str,
    frame: r.Chassis,
    lo: r.StockLoadout,
    weapons: Mapping[str, r.Weapon],
    equipment: Mapping[str, r.Equipment],
    overload_percent: int,
) -> None:
    d = frame.designation
    if not lo.weapons:
        lb.fail(f'{lw}, field "weapons"', "a stock loadout carries at least one weapon.")
    used: dict[tuple[str, str], int] = {}

    def take(at: str, size: str, mount: str) -> None:
        used[size, mount] = used.get((size, mount), 0) + 1
        if used[size, mount] > frame.hardpoints.of(size).count(mount):
            lb.fail(f'{at}, field "mount"', f"{d} has no free {size} hardpoint at {mount}.")

    space = 0

    def spend(at: str, what: str, cost: int) -> None:
        nonlocal space
        space += cost
        if space > frame.space:
            lb.fail(at, f"{what} brings the space used to {space}; {d} has {frame.space} (§7.5).")

    cap = frame.reactor * overload_percent // 100
    energy: dict[int, int] = {}
    for k, entry in enumerate(lo.weapons):
        at = f'{lw}, field "weapons", loadout entry {k + 1}'
        _ref(lb, at, "weapon", entry.weapon, weapons)
        w = weapons[entry.weapon]
        if w.faction not in (frame.faction, UNIVERSAL):
            lb.fail(
                f'{at}, field "weapon"',
                f'"{w.id}" belongs to {w.faction}; a {frame.faction} chassis carries only '
                f"its own faction's and universal weapons (R18).",
            )
        if w.exclusive:
            lb.fail(
                f'{at}, field "weapon"',
                f'"{w.id}" is faction-exclusive; stock loadouts carry none (R18).',
            )
        take(at, w.size, entry.mount)
        spend(f'{at}, field "weapon"', f'"{w.id}"', w.space)
        energy[entry.group] = energy.get(entry.group, 0) + w.energy
        if energy[entry.group] > cap:
            lb.fail(
                f'{at}, field "group"',
                f"group {entry.group} draws {energy[entry.group]} energy; {d} can spend at most "
                f"{cap} a round (reactor {frame.reactor} at {overload_percent}%, §5.3).",
            )
    for k, eid in enumerate(lo.equipment):
        at = f'{lw}, field "equipment", item {k + 1}'
        _ref(lb, lw, "equipment", eid, equipment)
        if equipment[eid].category == "slot":
            lb.fail(at, f'"{eid}" is slot equipment: list it under "slots" with a mount.')
        spend(at, f'"{eid}"', equipment[eid].space)
    for k, fit in enumerate(lo.slots):
        at = f'{lw}, field "slots", slot entry {k + 1}'
        _ref(lb, at, "equipment", fit.equipment, equipment)
        e = equipment[fit.equipment]
        if e.category != "slot":
            lb.fail(
                f'{at}, field "equipment"',
                f'"{e.id}" is {e.category} equipment: list it under "equipment".',
            )
        take(at, e.slot_size, fit.mount)
        spend(f'{at}, field "equipment"', f'"{e.id}"', e.space)


#: Rows by id of a catalog's tables (`Catalog.range_class`, `.location`: the engine asks for
#: them at every shot), per catalog.
_RANGE_CLASSES: ByIdentity[Catalog, dict[str, r.RangeClass]] = ByIdentity(64)
_LOCATIONS: ByIdentity[Catalog, dict[str, r.Location]] = ByIdentity(64)


def _by_id(rows: Iterable[Any]) -> dict[str, Any]:
    by_id: dict[str, Any] = {}
    for row in rows:
        by_id.setdefault(row.id, row)  # the first of a repeated id, as a scan finds it
    return by_id


@functools.cache
def installed_catalog() -> Catalog:
    """The catalog of the installed data, loaded once per process."""
    return load_catalog()


_active: Catalog | None = None


def catalog() -> Catalog:
    """The catalog in force: the installed data's, or the one `use_catalog` put in force
    (one global read on the hot path: every rule looks its numbers up here)."""
    global _active
    cat = _active
    if cat is None:
        cat = _active = installed_catalog()
    return cat


def use_catalog(cat: Catalog | None) -> Catalog | None:
    """Put `cat` in force for this process (None: the installed data again) and return the
    one put in force before (None: the installed data). Tools that measure mods (`mac-tui
    lab`) switch catalogs between runs; the game never does."""
    global _active
    previous, _active = _active, cat
    return None if previous is installed_catalog() else previous


def per_catalog(make: Callable[[], T]) -> Callable[[], T]:
    """`make()` computed once per catalog in force (a cache that follows `use_catalog`)."""
    last: list[tuple[Catalog, T]] = []

    def get() -> T:
        cat = catalog()
        if not last or last[0][0] is not cat:
            last[:] = [(cat, make())]
        return last[0][1]

    return get
