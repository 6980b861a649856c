"""Optional module O3: the features of a battle map as state, and their generation (O3.2-O3.4).

A `Section` is one hex of a feature (a building of three hexes is three sections, each with its
own durability); `Smoke` one hex of smoke with its counter (O3.11). A battle holds them in
`Battle.structures` and `Battle.smoke`, sorted row-major, both empty in the core game.

`generate_features` places the features of O3.4 from the `map.features` stream only, after the
terrain (and O2's levels), so the core terrain is the same with O3 on or off (O0.6). Every
number comes from `data/structures.toml` (`catalog().structures`).

This module is model-layer: the records, the generator and the pure look-ups the rules, the AI
and the screens share (`section_at`, `passable`, `kind_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from attrs import frozen

from ..catalog import catalog
from ..catalog.records import Feature, StructuresFile
from ..dice import MAP_FEATURES, Dice
from ..hexgrid import Hex, from_offset, neighbours
from ..memo import ByIdentity
from .mapgen import OPEN, BattleMap, neighbour_indices

__all__ = [
    "STANDARD",
    "Section",
    "Smoke",
    "feature_count",
    "generate_features",
    "joined",
    "kind_of",
    "passable",
    "section_at",
    "smoke_at",
]

#: The variant of a section that rolled none (O3.3 "41-00 standard"), and of every stage after
#: the first: a ruin or debris is never Weak or Reinforced.
STANDARD: Final = "standard"


@frozen(kw_only=True)
class Section:
    """One hex of a feature (O3.2): its kind (`data/structures.toml` feature id), its O3.3
    variant and its durability now (never below 0; indestructible Debris holds 0)."""

    hex: Hex
    feature: str
    variant: str = STANDARD
    durability: int = 0


@frozen(kw_only=True)
class Smoke:
    """One hex of smoke (O3.11): `rounds` left; removed when it reaches 0."""

    hex: Hex
    rounds: int


#: How a screen or a preview names a section as a target among frame ids: `@q,r`.
STRUCTURE_MARK: Final = "@"


def structure_key(h: Hex) -> str:
    """A section's name as a target, `@q,r` (no frame id starts with `@`)."""
    return f"{STRUCTURE_MARK}{h.q},{h.r}"


def structure_hex(key: str | None) -> Hex | None:
    """The hex a `structure_key` names, or None for anything else (a frame id)."""
    if key is None or not key.startswith(STRUCTURE_MARK):
        return None
    q, _, r = key[1:].partition(",")
    try:
        return Hex(int(q), int(r))
    except ValueError:
        return None


def full_durability(section: Section) -> int:
    """The durability of the section's stage and variant when undamaged."""
    data = catalog().structures
    return _full_durability(kind_of(section), section.variant, data)


def kind_of(section: Section) -> Feature:
    """The catalog row of a section's feature."""
    return catalog().structures.kind(section.feature)


def _row_major(h: Hex) -> tuple[int, int]:
    return (h.r, h.q + (h.r - (h.r & 1)) // 2)


_BY_HEX: ByIdentity[tuple[Section, ...], dict[Hex, Section]] = ByIdentity(256)
_SMOKE_BY_HEX: ByIdentity[tuple[Smoke, ...], dict[Hex, int]] = ByIdentity(256)


def section_at(sections: tuple[Section, ...], h: Hex) -> Section | None:
    """The section on hex `h`, or None (at most one per hex, O3.2)."""
    if not sections:
        return None
    return _BY_HEX.get(sections, lambda ss: {s.hex: s for s in ss}).get(h)


def smoke_at(smoke: tuple[Smoke, ...], h: Hex) -> int:
    """The rounds of smoke left on `h` (0: none)."""
    if not smoke:
        return 0
    return _SMOKE_BY_HEX.get(smoke, lambda ss: {s.hex: s.rounds for s in ss}).get(h, 0)


def passable(section: Section | None, levels: bool = False) -> bool:
    """O3.2 "Entering": whether a frame may enter the hex at all. With O2 off (`levels`
    False) a building or prop ("roof") is never entered; with O2 on, O2.3 decides by height."""
    if section is None:
        return True
    enter = kind_of(section).enter
    return enter == "walk" or (enter == "roof" and levels)


def entry_cost(section: Section | None, terrain_cost: int, levels: bool = False) -> int | None:
    """O3.2 "Entering": the cost of entering a hex of `terrain_cost` holding `section`: its
    feature's when a frame may walk into it (features stand on Open hexes), None when it may
    not be entered (`passable`)."""
    if section is None:
        return terrain_cost
    if not passable(section, levels):
        return None
    return max(terrain_cost, kind_of(section).move_cost)


def feature_count(rate: int, interior: int) -> int:
    """O3.4: (rate x interior + 50) // 100, rounded half up in integers."""
    return (rate * interior + 50) // 100


def joined(
    width: int,
    height: int,
    columns: int,
    open_hex: Callable[[int], bool],
    step: Callable[[int, int], bool] | None = None,
) -> bool:
    """Whether some walkable path joins the two deployment zones: a breadth-first search from
    every player deployment hex through the row-major indices `open_hex` accepts, each step
    from i to j one `step(i, j)` accepts (any, by default)."""
    nbrs = neighbour_indices(width, height)
    start = [row * width + col for row in range(height) for col in range(min(columns, width))]
    goal = {row * width + col for row in range(height) for col in range(width - columns, width)}
    seen = set(start)
    todo = list(start)
    while todo:
        i = todo.pop()
        if i in goal:
            return True
        for j in nbrs[i]:
            if j not in seen and open_hex(j) and (step is None or step(i, j)):
                seen.add(j)
                todo.append(j)
    return False


def _variant(dice: Dice, data: StructuresFile) -> str:
    """O3.3: a d100 against the variant rows (they tile 1-100)."""
    roll = dice.d100(MAP_FEATURES)
    return next(v.id for v in data.variant if v.roll_min <= roll <= v.roll_max)


def _full_durability(kind: Feature, variant: str, data: StructuresFile) -> int:
    return kind.durability * data.variant_of(variant).durability_percent // 100


def new_section(h: Hex, feature: str, variant: str = STANDARD) -> Section:
    """A section at full durability for its variant (O3.3: Weak halves it, rounded down)."""
    data = catalog().structures
    kind = data.kind(feature)
    return Section(
        hex=h, feature=feature, variant=variant, durability=_full_durability(kind, variant, data)
    )


def generate_features(
    dice: Dice,
    bmap: BattleMap,
    landscape: str,
    *,
    levels: bool = False,
) -> tuple[Section, ...]:
    """O3.4: the features of `bmap`, drawn from the `map.features` stream only.

    For each feature kind in the data's order (High, Low, Gantry, Barricade, Fuel tank; Gantry
    only with O2 on, `levels`), `feature_count(rate, interior)` placements, each on Open interior
    hexes not yet taken: a seed drawn uniformly (row-major list), then for a building the d6's
    `extra_sections` Open neighbours drawn like forest clusters, then for a building or gantry
    the O3.3 d100 (one roll for all its sections). A placement after which no walkable path
    joins the deployment zones is undone and its seed struck from the candidates; the next seed
    is drawn. Walkable: a hex without a feature or with one a frame may enter (O3.2) and, with
    O2 on (`levels`), a step of at most O2.3's `max_step` between the hexes' heights (ground
    level + feature height, O2.1).
    """
    data = catalog().structures
    gen = data.generation
    columns = catalog().maps.deployment.columns
    width, height = bmap.width, bmap.height
    interior = [
        row * width + col for row in range(height) for col in range(columns, width - columns)
    ]
    inside = frozenset(interior)
    rate = data.rate_of(landscape)
    placed: dict[int, Section] = {}
    hexes = [from_offset(i % width, i // width) for i in range(width * height)]
    index_of = {h: i for i, h in enumerate(hexes)}

    ground = bmap.levels if levels and bmap.levels else (0,) * (width * height)
    max_step = catalog().elevation.movement.max_step

    def connected(sections: dict[int, Section]) -> bool:
        def high(i: int) -> int:
            section = sections.get(i)
            return ground[i] + (kind_of(section).height if section is not None else 0)

        def step(i: int, j: int) -> bool:
            return abs(high(i) - high(j)) <= max_step

        def walk(i: int) -> bool:
            return passable(sections.get(i), levels)

        return joined(width, height, columns, walk, step if levels else None)

    for feature in gen.order:
        kind = data.kind(feature)
        if kind.o2_only and not levels:
            continue
        for _ in range(feature_count(rate.of(feature), len(interior))):
            candidates = [i for i in interior if bmap.terrain[i] == OPEN and i not in placed]
            while candidates:
                seed = dice.choice(MAP_FEATURES, candidates)
                cluster = [seed]
                if feature in gen.buildings:
                    extra = gen.extra_sections[dice.d(MAP_FEATURES, 6) - 1]
                    for _ in range(extra):
                        frontier = sorted(
                            {
                                index_of[n]
                                for c in cluster
                                for n in neighbours(hexes[c])
                                if n in index_of
                                and index_of[n] in inside
                                and bmap.terrain[index_of[n]] == OPEN
                                and index_of[n] not in placed
                                and index_of[n] not in cluster
                            }
                        )
                        if not frontier:
                            break
                        cluster.append(dice.choice(MAP_FEATURES, frontier))
                variant = _variant(dice, data) if kind.variants else STANDARD
                trial = dict(placed)
                for i in cluster:
                    trial[i] = new_section(hexes[i], feature, variant)
                if connected(trial):
                    placed = trial
                    break
                candidates = [i for i in candidates if i != seed]
    return tuple(sorted(placed.values(), key=lambda s: _row_major(s.hex)))


def rows_of(sections: Iterable[Section], width: int, height: int) -> list[str]:
    """The features as one glyph string per row (`.` where none): a picture for tests and
    the battle log's readers."""
    grid = [["."] * width for _ in range(height)]
    for s in sections:
        row, col = _row_major(s.hex)
        grid[row][col] = kind_of(s).glyph
    return ["".join(r) for r in grid]
