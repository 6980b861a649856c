"""The planner's fast tables: per map (cover, lines of sight), per frame (its weapons and what it
brings to a shot), and the shot model, which gives the engine's own hit chance
(`combat.attack.hit_chance`) for any pair of positions without building a battle.

The map tables live as long as the map: a battle keeps one `BattleMap` object from state to
state, so lines of sight traced for one decision serve every later one (`map_tables`). A `Kit`
is built once per frame state (frames are immutable values; `kit_of` caches by identity).

The shot model is the engine's formula split by what changes while the planner searches:
`Kit` holds the parts fixed for a frame (base accuracy, gunnery, sensor, actuators, evasion,
equipment), the call passes the parts fixed for a position (distance, line of sight, cover,
spotter) and for an activation (brace, countermeasures, uplink, called shot, overwatch).
`tests/test_ai_planner.py` checks that it agrees with `hit_chance` over random battles.

Optional module O2 (elevation) enters through the map tables, always traced from the shooter:
`dist` is d3 (O2.5), `los` adds `BLOCKED` for a blocked height line (O2.6: `shot_chance` then
gives None, unless R10 indirect fire's relief takes it back), and `lift` is the `height`
modifier (O2.7), which every caller adds to the shift. On a flat map they are the core's
distance, line of sight and 0.

Optional module O1 (range-band battles) enters through the kits: a frame's kit on the track
(`kit_of(unit, on_track=True)`) holds the §3.4 column of each band as its range table (every
band, no maximum: O1.5), the Phantom Emitter from range 2 (O1.7), a Move's one position as its
movement, and `closest` 0 (frames may share a position); the track's map tables are those of
four open hexes in a row, whose distance is the range.
"""

from __future__ import annotations

import copy
import functools
from itertools import islice
from typing import Final, NamedTuple, TypeVar

from ...catalog import LOCATION_ORDER, catalog
from ...combat import elevation, stats, track
from ...combat.attack import (
    ECM,
    EVASION_REDUCTION,
    LONG_RANGE,
    LONG_RANGE_BONUS,
    MISSILE,
    RANGED_ECM,
    STEALTH,
    range_modifier,
)
from ...combat.features import Section, Smoke, entry_cost, kind_of, section_at
from ...combat.mapgen import BattleMap
from ...combat.preview import missile_pass_chance
from ...combat.state import LOC_INDEX, Battle, Unit
from ...hexgrid import Hex, distance, line_steps

_MAX_DISTANCE: Final = 64
#: What a blocked line (O2.6's height line, O3.2's building) costs a shot in the model: no
#: chance survives it.
BLOCKED: Final = 10_000
_MAPS_KEPT: Final = 4
_KITS_KEPT: Final = 4096


#: A full cache gives up this share of its entries, the oldest first (`make_room`).
_EVICTED: Final = 16


_K = TypeVar("_K")
_V = TypeVar("_V")


def make_room(cache: dict[_K, _V], kept: int) -> None:
    """Keep `cache` below `kept` entries: once full, drop its oldest sixteenth (dicts keep
    insertion order). Emptying a full cache at once made the next decision work everything out
    afresh (a 60 ms decision where most take a few); dropping a slice costs a millisecond or
    two, and the entries dropped are mostly from battles long over."""
    if len(cache) >= kept:
        for key in list(islice(cache, max(1, kept // _EVICTED))):
            cache.pop(key, None)  # another thread (a threat worker) may have dropped it


# ---- per map -------------------------------------------------------------------------------
class MapTables:
    """Cover per hex, and lines of sight traced on demand and kept. Under O3 the map's
    features and smoke are part of the tables: a feature's cover and LOS penalty add to its
    hex's, a smoke hex costs the line `smoke.penalty` (its ends too, O3.11), and a line a
    building or prop blocks (O3.2) costs `BLOCKED`, which no shot survives (`shot_chance`)."""

    __slots__ = (
        "battle",
        "cover",
        "ends",
        "los_cache",
        "map",
        "penalty",
        "raised",
        "sights",
        "smoke",
        "structures",
        "walk_graph",
        "ways",
    )

    def __init__(
        self,
        bmap: BattleMap,
        structures: tuple[Section, ...] = (),
        smoke: tuple[Smoke, ...] = (),
        raised: bool = False,
    ) -> None:
        terrain = catalog().terrain
        self.map = bmap
        self.structures = structures
        self.smoke = smoke
        hexes = bmap.grid.hexes()
        self.cover: dict[Hex, int] = {h: terrain[bmap.terrain_at(h)].defense for h in hexes}
        # the hexes that cost a line of sight something (§3.6); off the map: nothing
        self.penalty: dict[tuple[int, int], int] = {}
        for h in hexes:
            cost = terrain[bmap.terrain_at(h)].los_penalty
            if cost:
                self.penalty[h] = cost
        # O3: smoke on the line's end hexes (O3.11 counts both)
        self.ends: dict[tuple[int, int], int] = {}
        if structures or smoke:
            self._layer(structures, smoke, raised)
        self.los_cache: dict[tuple[Hex, Hex], int] = {}
        #: the battle the tables last served (its heights: O2); a map has levels only in O2
        self.battle: Battle | None = None
        self.raised = raised or bool(bmap.levels)
        #: O2: the planner's fields of the way to a line of fire (`Situation.way_to_sight`)
        self.ways: dict[tuple[tuple[Hex, ...], int, int], dict[Hex, int]] = {}
        self.walk_graph: dict[Hex, tuple[tuple[Hex, int], ...]] | None = None
        #: O2: (d3, `height` modifier) of a shot from one hex at another, as worked out once
        self.sights: dict[tuple[Hex, Hex], tuple[int, int]] = {}

    def _layer(
        self, structures: tuple[Section, ...], smoke: tuple[Smoke, ...], raised: bool
    ) -> None:
        for s in structures:
            kind = kind_of(s)
            self.cover[s.hex] = self.cover.get(s.hex, 0) + kind.cover
            if kind.los == "block" and not raised:  # with O2 on, the height line decides
                self.penalty[s.hex] = BLOCKED
            elif kind.los_penalty:
                self.penalty[s.hex] = self.penalty.get(s.hex, 0) + kind.los_penalty
        per = catalog().structures.smoke.penalty
        for c in smoke:
            if self.penalty.get(c.hex, 0) < BLOCKED:
                self.penalty[c.hex] = self.penalty.get(c.hex, 0) + per
            self.ends[c.hex] = per

    def los(self, a: Hex, b: Hex) -> int:
        """§3.6, R29: the LOS penalty of a shot from `a` at `b`: the penalties of the hexes
        `combat.attack.line_of_sight` lists (the intervening hexes on the map; where the line
        runs along an edge, the worse of the two); with O2, `BLOCKED` more when the height
        line from `a` to `b` is blocked (O2.6)."""
        key = (a, b)
        value = self.los_cache.get(key)
        if value is None:
            penalty = self.penalty
            value = 0
            if penalty:
                aq, ar = a
                for step in _steps(b[0] - aq, b[1] - ar):
                    value += max(penalty.get((aq + dq, ar + dr), 0) for dq, dr in step)
            if self.ends:
                value += self.ends.get(a, 0) + self.ends.get(b, 0)
            if self.raised and self.battle and elevation.line_blocked(self.battle, a, b):
                value += BLOCKED
            self.los_cache[key] = value
        return value

    def walks(self) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
        """O2: per hex, the neighbours a frame may walk in from and the movement it costs
        (terrain, §6.4, O3's features, O3.2 "Entering", and the climb, `elevation.step_cost`,
        O2.3): worked out once per map and its features, as `movement.reach` would."""
        if self.walk_graph is None:
            terrain = catalog().terrain
            bmap = self.map
            graph: dict[Hex, tuple[tuple[Hex, int], ...]] = {}
            for h in bmap.grid.hexes():
                section = section_at(self.structures, h) if self.structures else None
                enter = entry_cost(section, terrain[bmap.terrain_at(h)].move_cost, self.raised)
                if enter is None:  # O3.2: a fuel tank, say
                    graph[h] = ()
                    continue
                ways = []
                for n in bmap.grid.neighbours(h):
                    climb = elevation.step_cost(self.battle, n, h) if self.battle else 0
                    if climb is not None:
                        ways.append((n, enter + climb))
                graph[h] = tuple(ways)
            self.walk_graph = graph
        return self.walk_graph

    def dist(self, a: Hex, b: Hex) -> int:
        """The distance of a shot from `a` at `b`: d3 with O2 (O2.5), else the hex distance."""
        if self.raised and self.battle is not None:
            key = (a, b)
            found = self.sights.get(key)
            if found is None:
                battle = self.battle
                found = (
                    elevation.attack_distance(battle, a, b),
                    elevation.height_modifier(battle, a, b),
                )
                self.sights[key] = found
            return found[0]
        return distance(a, b)

    def lift(self, a: Hex, b: Hex) -> int:
        """O2.7: the `height` modifier of a shot from `a` at `b` (0 on a flat map)."""
        if self.raised and self.battle is not None:
            self.dist(a, b)
            return self.sights[(a, b)][1]
        return 0


@functools.cache
def _steps(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The intervening steps of a line `dq, dr` long, from the origin, each one hex or the two
    beside an edge (R29): a line is the same wherever it starts (`hexgrid.line_steps` works in
    exact integers, so shifting both ends by whole hexes shifts every hex of the line), so one
    trace serves every pair of hexes that far apart."""
    return tuple(
        tuple((h.q, h.r) for h in step) for step in line_steps(Hex(0, 0), Hex(dq, dr))[1:-1]
    )


_maps: list[MapTables] = []


def map_tables(bmap: BattleMap, battle: Battle | None = None) -> MapTables:
    """The tables of `bmap` (the same object as last time, or an equal map), kept for a few
    maps at a time; `battle` (played on `bmap`) gives the heights of O2 and the features and
    smoke of O3."""
    if battle is None:
        tables = _find_tables(bmap, (), (), False)
    else:
        tables = _find_tables(bmap, battle.structures, battle.smoke, elevation.on(battle))
        tables.battle = battle
    return tables


def _find_tables(
    bmap: BattleMap, structures: tuple[Section, ...], smoke: tuple[Smoke, ...], raised: bool
) -> MapTables:
    for t in _maps:
        if t.map is bmap and t.structures is structures and t.smoke is smoke:
            return t
    for t in _maps:
        if t.map == bmap and t.structures == structures and t.smoke == smoke:
            return t
    tables = MapTables(bmap, structures, smoke, raised)
    _maps.insert(0, tables)
    del _maps[_MAPS_KEPT:]
    return tables


# ---- per range class -----------------------------------------------------------------------
_range_table: dict[str, tuple[int | None, ...]] = {}


def range_mods(range_id: str) -> tuple[int | None, ...]:
    """R1 for every distance 0.._MAX_DISTANCE (None where the weapon cannot fire)."""
    table = _range_table.get(range_id)
    if table is None:
        table = tuple(range_modifier(range_id, d) for d in range(_MAX_DISTANCE + 1))
        _range_table[range_id] = table
    return table


@functools.cache
def band_mods(range_id: str) -> tuple[int | None, ...]:
    """O1.5 for every range 0.._MAX_DISTANCE: the band's §3.4 column on the track, None past
    its last position."""
    last = track.positions() - 1
    return tuple(
        track.band_modifier(range_id, d) if d <= last else None for d in range(_MAX_DISTANCE + 1)
    )


def max_reach(range_id: str) -> int:
    return catalog().range_class(range_id).max_range


# ---- per frame -----------------------------------------------------------------------------
class Gun(NamedTuple):
    """One weapon that can fire: what the shot model and the planner need of it."""

    weapon: int  # index in the frame's weapons
    group: int
    accuracy: int  # base accuracy + the attacker's own modifiers for this weapon
    damage: int
    energy: int
    ranges: tuple[int | None, ...]  # range modifier by distance
    reach: int
    missile: bool
    indirect: bool
    stress: int  # R9 stress on hit


class Kit:
    """A frame as the planner sees it: its guns by group, its defence, its vitals."""

    __slots__ = (
        "attack_sig",
        "closest",
        "defence_sig",
        "ecm_value",
        "evasion",
        "groups",
        "hp",
        "indirect",
        "missile_pass",
        "move",
        "move_energy",
        "piloting_survival",
        "ranged_ecm",
        "reach",
        "reactive",
        "unit",
    )

    def __init__(self, unit: Unit, on_track: bool = False) -> None:
        cat = catalog()
        acc = cat.combat.accuracy
        self.unit = unit
        aim = stats.gunnery_bonus(unit) + stats.equipment_value(unit, EVASION_REDUCTION)
        if unit.sensor_hit:
            aim -= acc.sensor_hit
        long_bonus = stats.equipment_value(unit, LONG_RANGE_BONUS)
        groups: dict[int, list[Gun]] = {}
        for index, ws in unit.live_weapons():
            if not stats.has_shots(ws):
                continue
            w = stats.weapon_of(ws)
            accuracy = w.accuracy + aim + (long_bonus if w.range == LONG_RANGE else 0)
            if ws.mount in ("left_arm", "right_arm"):
                accuracy -= acc.arm_actuator * unit.actuator_hits[LOC_INDEX[ws.mount]]
            groups.setdefault(ws.group, []).append(
                Gun(
                    weapon=index,
                    group=ws.group,
                    accuracy=accuracy,
                    damage=w.damage,
                    energy=w.energy,
                    ranges=band_mods(w.range) if on_track else range_mods(w.range),
                    reach=track.positions() - 1 if on_track else max_reach(w.range),
                    missile=w.type == MISSILE,
                    indirect=w.indirect,
                    stress=w.stress_on_hit,
                )
            )
        self.groups: dict[int, tuple[Gun, ...]] = {g: tuple(v) for g, v in sorted(groups.items())}
        self.evasion = stats.evasion(unit) - stats.equipment_value(unit, STEALTH)
        # the distance beyond which each Phantom Emitter works (O1.7: from range 2 on the track)
        beyond = cat.range_bands.equipment.phantom_from - 1 if on_track else None
        self.ranged_ecm: tuple[tuple[int, int], ...] = tuple(
            (
                cat.equipment[e.equipment].range if beyond is None else beyond,
                cat.equipment[e.equipment].value,
            )
            for e in unit.equipment
            if not e.destroyed and cat.equipment[e.equipment].effect == RANGED_ECM
        )
        self.ecm_value = stats.equipment_value(unit, ECM)
        self.missile_pass = missile_pass_chance(unit)
        self.move = stats.hex_movement(unit) if stats.can_move(unit) else 0
        if on_track:  # O1.4: a Move shifts one position
            self.move = cat.range_bands.moving.move if stats.can_move(unit) else 0
        #: the least distance a shot can be fired at: 1 on a map (R2), 0 on the track (O1.1)
        self.closest = 0 if on_track else 1
        self.move_energy = stats.move_energy(unit)
        dmg = cat.combat.damage
        self.piloting_survival = (
            dmg.head_survival_base + dmg.head_survival_per_piloting * unit.pilot.piloting
        ) / 100
        reduction = stats.equipment_value(unit, "structure_damage_reduction")
        self.reactive = reduction
        hp = []
        for i in range(len(LOCATION_ORDER)):
            s = unit.structure[i]
            if s <= 0:
                hp.append(0)
                continue
            if reduction:
                s = _unreduced(s, reduction)
            hp.append(unit.armor[i] + s)
        self.hp: tuple[int, ...] = tuple(hp)
        self.indirect = any(g.indirect for guns in self.groups.values() for g in guns)
        self.reach = max((g.reach for guns in self.groups.values() for g in guns), default=0)
        # What a shot's odds depend on, as small interned numbers: the caches of the planner's
        # curves are shared by every frame with the same guns or the same defences.
        self.attack_sig = intern(tuple(self.groups.items()))
        self.defence_sig = intern((self.evasion, self.ranged_ecm, self.missile_pass))

    def defence(self, distance: int) -> int:
        """What the target's own equipment takes off a shot from `distance` (stealth and
        evasion are in `evasion`; this is the Phantom Emitter's, §7.7.3)."""
        return sum(value for reach, value in self.ranged_ecm if distance > reach)


def _unreduced(structure: int, reduction: int) -> int:
    """§7.7.3 Reactive Armor: the least damage that still takes `structure` points of
    structure once `reduction`% of it (rounded down) is taken off."""
    x = structure
    while x - x * reduction // 100 < structure:
        x += 1
    return x


_kits: dict[int, tuple[Unit, Kit]] = {}
_track_kits: dict[int, tuple[Unit, Kit]] = {}
_sigs: dict[object, int] = {}


def intern(sig: object) -> int:
    """A small number standing for `sig` (equal signatures, equal numbers)."""
    found = _sigs.get(sig)
    if found is None:
        found = _sigs[sig] = len(_sigs)
    return found


def kit_of(unit: Unit, on_track: bool = False) -> Kit:
    """The kit of this very frame state (cached by identity: units are immutable), on a map or
    on the track (O1)."""
    kits = _track_kits if on_track else _kits
    found = kits.get(id(unit))
    if found is not None and found[0] is unit:
        return found[1]
    make_room(kits, _KITS_KEPT)
    kit = Kit(unit, on_track)
    kits[id(unit)] = (unit, kit)
    return kit


# ---- the shot --------------------------------------------------------------------------------
class Clamp:
    """§3: the clamp of the final chance, read once."""

    lo: int = 0
    hi: int = 100
    indirect: int = 0
    spotter_range: int = 0
    called: int = 0

    @classmethod
    def load(cls) -> None:
        acc = catalog().combat.accuracy
        cls.lo, cls.hi = acc.min_chance, acc.max_chance
        cls.indirect, cls.spotter_range = acc.indirect_fire, acc.indirect_spotter_range
        cls.called = acc.called_shot


def shift_of(los: int, cover: int, extra: int) -> int:
    """The position's and the activation's modifiers together: they only add up (§3)."""
    return extra - cover - los


def relief_of(gun_indirect: bool, los: int, spotted: bool) -> int:
    """R10: what indirect fire gives back of the LOS penalty (for an indirect weapon with a
    spotter: the LOS penalty beyond the flat indirect penalty)."""
    if gun_indirect and spotted and Clamp.indirect < los:
        return los - Clamp.indirect
    return 0


def shot_chance(gun: Gun, target: Kit, distance: int, shift: int, relief: int) -> int | None:
    """The engine's hit chance (§3) of `gun` at `target` `distance` hexes away, with `shift`
    the sum of the position's and the activation's modifiers (`shift_of`: LOS, cover, brace,
    countermeasures, uplink, called shot, overwatch) and `relief` what indirect fire gives back
    of the LOS penalty (`relief_of`, R10; only indirect weapons take it). None out of range."""
    rng = gun.ranges[distance] if distance <= _MAX_DISTANCE else None
    if rng is None:
        return None
    total = gun.accuracy - target.evasion + rng + shift
    if gun.indirect:
        total += relief
    if total < -BLOCKED // 2:  # a blocked line (O2.6, O3.2)
        return None
    if target.ranged_ecm:
        total += target.defence(distance)
    return Clamp.lo if total < Clamp.lo else Clamp.hi if total > Clamp.hi else total


_masked: dict[tuple[int, frozenset[int]], tuple[Kit, Kit]] = {}


def masked(kit: Kit, keep: frozenset[int]) -> Kit:
    """`kit` with only the weapons `keep` (indices) in its groups: the guns that bear on a
    target from a facing (optional rule O4.8). Its signature is its own, so the shot model's
    caches never mix it with the whole kit's."""
    key = (id(kit), keep)
    found = _masked.get(key)
    if found is not None and found[0] is kit:
        return found[1]
    view = copy.copy(kit)
    view.groups = {g: tuple(x for x in guns if x.weapon in keep) for g, guns in kit.groups.items()}
    view.attack_sig = intern((kit.attack_sig, tuple(sorted(keep))))
    make_room(_masked, 4096)
    _masked[key] = (kit, view)
    return view
