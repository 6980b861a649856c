"""Optional module O2, Elevation and falling (optional-rules.md O2.1-O2.9).

Every function here answers as the core game does while the battle's ruleset leaves O2 off
(flat ground, hex distance, no blocking, no `height`), so the hooks in the shared modules can
call it unconditionally. Numbers come from `data/elevation.toml` (`catalog().elevation`).

* O2.1 `level_at` (a hex's ground level, from `BattleMap.levels`) and `height_at`: **the one
  place heights come from** (ground level + the height of an O3 feature, when that module adds
  one).
* O2.2 `generate_levels`: hills, taper, mesas, connectivity; stream `dice.MAP_ELEVATION` only.
* O2.3 `step_cost` (the climb's extra cost, or None for a step too high or too deep);
  `walkable_joined`.
* O2.4 `jump_length`.
* O2.5 `distance3` and `attack_distance` (G6: d3 with O2 on, else the hex distance).
* O2.6 `height_line` and `line_blocked` (in half-levels, exact integers; G5: where the line runs
  along an edge the higher hex counts).
* O2.7 `height_modifier`.
* O2.8 `fall` and the `Fell` event.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

import attrs
from attrs import frozen

from ..catalog import catalog
from ..catalog.records import ElevationFile
from ..core import Event
from ..dice import MAP_ELEVATION, Dice
from ..hexgrid import Hex, distance, from_offset, line_steps
from ..memo import ByIdentity
from .damage import DamageReport, apply_damage
from .features import Section, kind_of
from .mapgen import BattleMap, interior_indices, neighbour_indices
from .state import LOC_INDEX, Battle

__all__ = [
    "O2",
    "Fell",
    "LineStep",
    "attack_distance",
    "distance3",
    "fall",
    "generate_levels",
    "height_at",
    "height_line",
    "height_modifier",
    "jump_length",
    "level_at",
    "line_blocked",
    "on",
    "step_cost",
    "walkable_joined",
]

#: The module's id in a ruleset.
O2: Final = "O2"


def rules() -> ElevationFile:
    """The O2 tables of the catalog in force."""
    return catalog().elevation


def on(battle: Battle) -> bool:
    """True when the battle plays O2."""
    return battle.rule(O2)


# --- O2.1 levels and heights ------------------------------------------------------------------
def level_at(bmap: BattleMap, h: Hex) -> int:
    """O2.1: the ground level of hex `h` (0 on a map without levels or off the map)."""
    levels = bmap.levels
    if not levels:
        return 0
    q, r = h
    col = q + (r - (r & 1)) // 2
    if not (0 <= r < bmap.height and 0 <= col < bmap.width):
        return 0
    return levels[r * bmap.width + col]


def height_at(battle: Battle, h: Hex) -> int:
    """O2.1: a hex's height, ground level + the height of its O3 feature; a frame stands at
    its hex's height (0 off the map or without levels). Read from `heights`, the one place
    heights come from."""
    every = heights(battle)
    if not every:
        return 0
    bmap = battle.map
    q, r = h
    col = q + (r - (r & 1)) // 2
    if not (0 <= r < bmap.height and 0 <= col < bmap.width):
        return 0
    return every[r * bmap.width + col]


#: Every hex's height with O3's features, per sections (and map): the same object while the
#: sections stand, so the height lines remembered per heights serve until one collapses.
_WITH_FEATURES: ByIdentity[tuple[Section, ...], tuple[int, ...]] = ByIdentity(16)


def heights(battle: Battle) -> tuple[int, ...]:
    """Every hex's height in row-major order (the same object while the heights stand: the
    height lines are remembered per heights)."""
    if not battle.structures:
        return battle.map.levels
    bmap = battle.map

    def add(sections: tuple[Section, ...]) -> tuple[int, ...]:
        out = list(bmap.levels or (0,) * (bmap.width * bmap.height))
        for s in sections:
            q, r = s.hex
            out[r * bmap.width + q + (r - (r & 1)) // 2] += kind_of(s).height
        return tuple(out)

    return _WITH_FEATURES.get(battle.structures, add, bmap)


# --- O2.5 3-D distance ------------------------------------------------------------------------
def distance3(battle: Battle, a: Hex, b: Hex) -> int:
    """O2.5: d3 = hex distance + |height a - height b| (FM "Distances")."""
    return distance(a, b) + abs(height_at(battle, a) - height_at(battle, b))


def distance_words(battle: Battle, a: Hex, b: Hex, flat: str) -> str:
    """An attack's distance in words: `flat` (e.g. `6 hexes`), or with O2 on and the heights
    apart, `d3 8 (6 hexes + 2 levels)`."""
    rise = abs(height_at(battle, a) - height_at(battle, b)) if on(battle) else 0
    if not rise:
        return flat
    levels = "level" if rise == 1 else "levels"
    hexes = "hex" if distance(a, b) == 1 else "hexes"
    return f"d3 {distance(a, b) + rise} ({distance(a, b)} {hexes} + {rise} {levels})"


def attack_distance(battle: Battle, a: Hex, b: Hex) -> int:
    """G6: the distance of an attack or sight rule: d3 with O2 on, else the hex distance (R1's
    modifier and maximum range, R4's nearest, R10's spotter range, the Uplink's and the
    Phantom Emitter's ranges)."""
    if on(battle):
        return distance3(battle, a, b)
    return distance(a, b)


# --- O2.3 movement, O2.4 jumps ----------------------------------------------------------------
_STEPS: ByIdentity[tuple[int, ...], dict[tuple[Hex, Hex], int | None]] = ByIdentity(16)


def step_cost(battle: Battle, start: Hex, end: Hex) -> int | None:
    """O2.3: the extra movement of stepping from `start` into the adjacent `end`: the climb
    cost one level up, 0 level or down; None when `end` is more than `max_step` levels higher
    or lower (no Move, Sprint or reverse Move enters it). 0 with O2 off."""
    if not on(battle):
        return 0
    known = _STEPS.get(heights(battle), lambda _: {}, battle.map)
    key = (start, end)
    if key in known:
        return known[key]
    rise = height_at(battle, end) - height_at(battle, start)
    move = rules().movement
    found = None if abs(rise) > move.max_step else move.climb_cost * rise if rise > 0 else 0
    known[key] = found
    return found


def jump_length(battle: Battle, start: Hex, end: Hex) -> int:
    """O2.4: what a Thrust Pack jump from `start` to `end` counts against its reach: the hex
    distance, plus each level up with O2 on. Any drop is safe."""
    length = distance(start, end)
    if on(battle):
        rise = height_at(battle, end) - height_at(battle, start)
        length += rules().jump.reach_per_level_up * max(0, rise)
    return length


# --- O2.6 the height line ---------------------------------------------------------------------
@frozen
class LineStep:
    """One intervening step of a height line: its hexes (two where the line runs along an
    edge, G5), the step's height (the higher of the two) and whether it blocks."""

    index: int
    hexes: tuple[Hex, ...]
    height: int
    blocks: bool


_LINES: ByIdentity[tuple[int, ...], dict[tuple[Hex, Hex, bool], tuple[LineStep, ...]]]
_LINES = ByIdentity(16)


def height_line(battle: Battle, a: Hex, b: Hex, *, structure: bool = False) -> tuple[LineStep, ...]:
    """O2.6: the intervening steps of the line from the eye of a frame at `a` to the target
    point at `b` (a frame, or a structure when `structure`), each with its height and whether
    it blocks: 2·H_i·N > E·(N − i) + T·i, E = 2·height(a) + eye, T = 2·height(b) + target, in
    half-levels. Grazing does not block; frames never block. Off-map hexes (the ragged edge,
    D21) are left out. Empty with O2 off."""
    if not on(battle):
        return ()
    lines = _LINES.get(heights(battle), lambda _: {}, battle.map)
    key = (a, b, structure)
    found = lines.get(key)
    if found is None:
        found = lines[key] = _trace(battle, a, b, structure)
    return found


def _trace(battle: Battle, a: Hex, b: Hex, structure: bool) -> tuple[LineStep, ...]:
    cfg = rules().height_line
    n = distance(a, b)
    eye = 2 * height_at(battle, a) + cfg.eye
    aim = 2 * height_at(battle, b) + (cfg.structure_target if structure else cfg.target)
    bmap = battle.map
    out: list[LineStep] = []
    for i, step in enumerate(line_steps(a, b)[1:-1], start=1):
        hexes = tuple(h for h in step if bmap.contains(h))
        if not hexes:
            continue
        top = max(height_at(battle, h) for h in hexes)
        out.append(LineStep(i, hexes, top, 2 * top * n > eye * (n - i) + aim * i))
    return tuple(out)


_BLOCKED: ByIdentity[tuple[int, ...], dict[tuple[Hex, Hex, bool], bool]] = ByIdentity(16)


def line_blocked(battle: Battle, a: Hex, b: Hex, *, structure: bool = False) -> bool:
    """O2.6: whether the height line from a frame at `a` to `b` is blocked (never with O2
    off): no direct attack and no sight along it. `any(s.blocks for s in height_line(...))`,
    worked out without building the steps (the AI asks it of every hex)."""
    if not on(battle):
        return False
    every = heights(battle)
    known = _BLOCKED.get(every, lambda _: {}, battle.map)
    key = (a, b, structure)
    found = known.get(key)
    if found is None:
        found = known[key] = _blocks(battle.map, every, a, b, structure)
    return found


def ground_blocked(battle: Battle, a: Hex, b: Hex) -> bool:
    """O2.6 on the ground alone: whether the hills and mesas block the line from a frame at
    `a` to `b` whatever becomes of the O3 features (which can be shot away); never with O2
    off. R30's stalemate asks it (ruling O2d)."""
    if not on(battle) or not battle.map.levels:
        return False
    return _blocks(battle.map, battle.map.levels, a, b, False)


_TOPS: ByIdentity[tuple[int, ...], int] = ByIdentity(16)


def _top(every: tuple[int, ...]) -> int:
    """The highest height of a map."""
    return _TOPS.get(every, lambda e: max(e, default=0))


@functools.cache
def _pattern(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The intervening steps of a line `dq, dr` long from the origin (`hexgrid.line_steps`
    works in exact integers, so a line is the same wherever it starts)."""
    return tuple(
        tuple((h.q, h.r) for h in step) for step in line_steps(Hex(0, 0), Hex(dq, dr))[1:-1]
    )


def _blocks(bmap: BattleMap, every: tuple[int, ...], a: Hex, b: Hex, structure: bool) -> bool:
    cfg = rules().height_line
    width, rows = bmap.width, bmap.height

    def at(q: int, r: int) -> int | None:
        col = q + (r - (r & 1)) // 2
        return every[r * width + col] if 0 <= r < rows and 0 <= col < width else None

    n = distance(a, b)
    eye = 2 * (at(*a) or 0) + cfg.eye
    aim = 2 * (at(*b) or 0) + (cfg.structure_target if structure else cfg.target)
    if 2 * _top(every) * n <= min(eye, aim) * n:  # nothing on the map rises above the line
        return False
    aq, ar = a
    for i, step in enumerate(_pattern(b[0] - aq, b[1] - ar), start=1):
        tops = [t for t in (at(aq + dq, ar + dr) for dq, dr in step) if t is not None]
        if tops and 2 * max(tops) * n > eye * (n - i) + aim * i:
            return True
    return False


# --- O2.7 the height modifier -----------------------------------------------------------------
def height_modifier(battle: Battle, a: Hex, b: Hex) -> int:
    """O2.7: +5 x (height a - height b), clamped to [-10, +10]; 0 with O2 off."""
    if not on(battle):
        return 0
    cfg = rules().height_modifier
    value = cfg.per_level * (height_at(battle, a) - height_at(battle, b))
    return max(-cfg.clamp, min(cfg.clamp, value))


def height_detail(battle: Battle, a: Hex, b: Hex) -> str:
    """The `height` entry's detail: `level 2 over level 0`."""
    return f"height {height_at(battle, a)} over {height_at(battle, b)}"


def heights_of(battle: Battle, a: Hex, b: Hex) -> tuple[int, int] | None:
    """O2.9: an attack's (attacker height, target height) for its record; None with O2 off."""
    if not on(battle):
        return None
    return height_at(battle, a), height_at(battle, b)


# --- O2.8 falling -----------------------------------------------------------------------------
@frozen
class Fell(Event):
    """O2.8: a frame fell `levels` levels (the ground under it dropped) and took `damage` as
    one hit to its legs (the centre torso when the legs are gone): the cascade's report."""

    unit: str
    levels: int
    damage: DamageReport

    def describe(self) -> str:
        lost = "level" if self.levels == 1 else "levels"
        return f"{self.unit} falls {self.levels} {lost}: {self.damage.describe()}"


def fall(battle: Battle, unit_id: str, levels: int, dice: Dice) -> tuple[Battle, list[Event]]:
    """O2.8: the frame `unit_id` falls `levels` levels: 5 x levels as one hit to the legs, or
    to the centre torso when the legs are destroyed (armour, structure, component roll: the
    §4 cascade, Reactive Armor included), drawing from `dice.COMBAT`. No fall (no event, no
    draw) for a frame out of the fight or a fall of less than one level. O3's collapses call
    it in step 5a, in row-major order."""
    unit = battle.unit(unit_id)
    if levels < 1 or not unit.active:
        return battle, []
    cfg = rules().falling
    location = cfg.location
    if unit.structure[LOC_INDEX[location]] <= 0:
        location = cfg.fallback
    hit, report = apply_damage(unit, location, cfg.damage_per_level * levels, dice)
    return battle.with_unit(hit), [Fell(unit=unit_id, levels=levels, damage=report)]


# --- O2.2 generation --------------------------------------------------------------------------
def _share(rate: int, interior: int) -> int:
    """O2.2: a count from a rate per 100 interior hexes, rounded half up."""
    per = rules().generation.per_interior
    return (rate * interior + per // 2) // per


def walkable_joined(levels: Sequence[int], width: int, height: int) -> bool:
    """O2.2 step 4: whether some walkable path (O2.3: every step at most `max_step` levels up
    or down) joins the player's deployment zone to the enemy's."""
    columns = catalog().maps.deployment.columns
    step = rules().movement.max_step
    nbrs = neighbour_indices(width, height)
    seen = bytearray(width * height)
    todo = [row * width + col for row in range(height) for col in range(min(columns, width))]
    for i in todo:
        seen[i] = 1
    goal = width - columns
    while todo:
        i = todo.pop()
        if i % width >= goal:
            return True
        here = levels[i]
        for j in nbrs[i]:
            if not seen[j] and abs(levels[j] - here) <= step:
                seen[j] = 1
                todo.append(j)
    return False


def generate_levels(dice: Dice, width: int, height: int, landscape: str) -> tuple[int, ...]:
    """O2.2: every hex's ground level, row-major, drawing from `dice.MAP_ELEVATION` only.

    1. Hills: ⌊(rate × interior + 50)/100⌋ of them; each draws a centre uniformly among the
       interior hexes (row-major) and then a peak p in the landscape's range; every hex
       becomes max(current, p − hex distance to the centre, 0).
    2. Taper: every hex is capped at its hex distance to the nearest deployment hex.
    3. Mesas: counted likewise; each draws a centre among the interior hexes at least
       `mesa_clear` from every deployment hex, then between(extra_min, extra_max) more hexes,
       each drawn from the sorted eligible neighbours of the mesa so far (fewer if none are
       left); those hexes become max(current, mesa level).
    4. Connectivity: while no walkable path joins the deployment zones, the last mesa placed
       is removed (its levels are worked out again from the hills and the other mesas).
    """
    cfg = rules()
    row = cfg.of(landscape)
    gen = cfg.generation
    columns = catalog().maps.deployment.columns
    cells = [from_offset(i % width, i // width) for i in range(width * height)]
    interior = interior_indices(width, height, columns)
    deploy = [cells[i] for i in range(width * height) if not columns <= i % width < width - columns]
    clearance = [min(distance(c, d) for d in deploy) for c in cells]

    levels = [0] * (width * height)
    for _ in range(_share(row.hills, len(interior))):
        centre = cells[dice.choice(MAP_ELEVATION, interior)]
        peak = dice.between(MAP_ELEVATION, row.peak_min, row.peak_max)
        for i, c in enumerate(cells):
            levels[i] = max(levels[i], peak - distance(c, centre), 0)
    base = [min(level, clearance[i]) for i, level in enumerate(levels)]

    eligible = [i for i in interior if clearance[i] >= gen.mesa_clear]
    nbrs = neighbour_indices(width, height)
    mesas: list[list[int]] = []
    for _ in range(_share(row.mesas, len(interior)) if eligible else 0):
        mesa = [dice.choice(MAP_ELEVATION, eligible)]
        for _ in range(dice.between(MAP_ELEVATION, gen.mesa_extra_min, gen.mesa_extra_max)):
            frontier = sorted(
                {j for m in mesa for j in nbrs[m] if clearance[j] >= gen.mesa_clear} - set(mesa)
            )
            if not frontier:
                break
            mesa.append(dice.choice(MAP_ELEVATION, frontier))
        mesas.append(mesa)

    while True:
        levels = list(base)
        for mesa in mesas:
            for i in mesa:
                levels[i] = max(levels[i], row.mesa_level)
        if not mesas or walkable_joined(levels, width, height):
            return tuple(levels)
        mesas.pop()


def with_levels(bmap: BattleMap, dice: Dice, landscape: str) -> BattleMap:
    """The map with its O2.2 levels (after the core terrain, from `map.elevation`)."""
    levels = generate_levels(dice, bmap.width, bmap.height, landscape)
    return attrs.evolve(bmap, levels=levels)
