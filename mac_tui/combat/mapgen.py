"""Battle maps: the immutable terrain grid and its deterministic procedural generator.

Rules implemented (numbers come from the catalog, ``data/maps.toml`` / ``data/terrain.toml``):

* core-rules §6.1 — map size by mission difficulty (``catalog().map_size``).
* core-rules §6.2 — terrain types; the deployment zones are always kept Open.
* core-rules §6.3 — deployment zones: the leftmost (player) and rightmost (enemy)
  ``maps.deployment.columns`` columns.
* setup-facts "Battle landscapes" — each landscape gives whole-percent shares of the
  *interior* hexes (every column outside the deployment zones) for forest, rocks, rough and
  sand; forest grows in clusters (a seed hex plus ``forest_clusters.extra_min..extra_max``
  neighbours), the others are scattered.

Generation (:func:`generate_map`) draws only from the :data:`mac_tui.dice.MAP` stream.  The
target count of each terrain is ``round_half_up(share% * interior)`` computed in integers,
and the terrains are placed in the fixed order forest, rocks, rough, sand.  Every choice is
made from a list in row-major offset order, so the same dice state always yields the same
map: no ``random``, no ``hash()``, no set iteration order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Final, Literal

import attrs

from mac_tui.catalog import Catalog, catalog, per_catalog
from mac_tui.catalog.records import Landscape, MapSize
from mac_tui.dice import MAP, Dice
from mac_tui.hexgrid import Grid, Hex, from_offset, neighbours
from mac_tui.stored import optional_field

__all__ = ["BattleMap", "Side", "generate_map", "target_counts"]

Side = Literal["player", "enemy"]

#: Terrain of every hex before generation, and of the deployment zones always.
OPEN: Final = "open"
#: The clustered terrain; placed first.
FOREST: Final = "forest"
#: Scattered terrains, placed after the forest in this fixed order.
SCATTERED: Final[tuple[str, ...]] = ("rocks", "rough", "sand")
#: Every terrain a landscape gives a share for, in placement order.
PLACEMENT_ORDER: Final[tuple[str, ...]] = (FOREST, *SCATTERED)

_PERCENT: Final = 100


def _share_of(percent: int, count: int) -> int:
    """``percent``% of ``count``, rounded half up, in integer arithmetic."""
    return (percent * count + _PERCENT // 2) // _PERCENT


# --- catalog look-ups -----------------------------------------------------------------------


@per_catalog
def _glyph_of() -> dict[str, str]:
    return {tid: t.glyph for tid, t in catalog().terrain.items()}


@per_catalog
def _id_of_glyph() -> dict[str, str | None]:
    """Glyph -> terrain id; ``None`` marks a glyph shared by several terrains."""
    out: dict[str, str | None] = {}
    for tid, t in catalog().terrain.items():
        out[t.glyph] = None if t.glyph in out else tid
    return out


def _deployment_columns() -> int:
    return catalog().maps.deployment.columns


def _map_size(cat: Catalog, difficulty: int) -> MapSize:
    for m in cat.maps.map_size:
        if m.min_difficulty <= difficulty <= m.max_difficulty:
            return m
    raise ValueError(f"no map size for mission difficulty {difficulty}")


def _landscape(cat: Catalog, landscape_id: str) -> Landscape:
    for ls in cat.maps.landscape:
        if ls.id == landscape_id:
            return ls
    known = ", ".join(ls.id for ls in cat.maps.landscape)
    raise ValueError(f"unknown landscape {landscape_id!r} (known: {known})")


# --- geometry caches ------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def neighbour_indices(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each row-major index, the indices of its on-map neighbours (DIRECTIONS order)."""
    out: list[tuple[int, ...]] = []
    for row in range(height):
        for col in range(width):
            idx: list[int] = []
            for n in neighbours(from_offset(col, row)):
                nr = n.r
                nc = n.q + (nr - (nr & 1)) // 2
                if 0 <= nr < height and 0 <= nc < width:
                    idx.append(nr * width + nc)
            out.append(tuple(idx))
    return tuple(out)


def _side_columns(width: int, columns: int, side: Side) -> range:
    if side == "player":
        return range(min(columns, width))
    if side == "enemy":
        return range(max(width - columns, 0), width)
    raise ValueError(f"side must be 'player' or 'enemy', got {side!r}")


@functools.lru_cache(maxsize=64)
def _deployment(width: int, height: int, columns: int, side: Side) -> tuple[Hex, ...]:
    cols = _side_columns(width, columns, side)
    return tuple(from_offset(col, row) for row in range(height) for col in cols)


def interior_indices(width: int, height: int, columns: int) -> list[int]:
    """Row-major indices of every hex outside both deployment zones."""
    return [row * width + col for row in range(height) for col in range(columns, width - columns)]


# --- the map --------------------------------------------------------------------------------


def _as_terrain(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _as_levels(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(value)


@attrs.frozen
class BattleMap:
    """The terrain of a battle: ``width`` x ``height`` hexes, odd-r offset layout.

    ``terrain`` holds catalog terrain ids in row-major offset order (``(col 0, row 0)``,
    ``(col 1, row 0)``, ...), the same order as :meth:`mac_tui.hexgrid.Grid.hexes`.
    """

    width: int = attrs.field(validator=attrs.validators.ge(1))
    height: int = attrs.field(validator=attrs.validators.ge(1))
    terrain: tuple[str, ...] = attrs.field(converter=_as_terrain)
    #: O2.1: every hex's ground level, row-major like `terrain`; empty while O2 is off (flat).
    levels: tuple[int, ...] = optional_field((), converter=_as_levels)

    def __attrs_post_init__(self) -> None:
        expected = self.width * self.height
        if len(self.terrain) != expected:
            raise ValueError(
                f"terrain has {len(self.terrain)} entries, a {self.width}x{self.height} "
                f"map needs {expected}"
            )
        if self.levels and len(self.levels) != expected:
            raise ValueError(f"levels has {len(self.levels)} entries, the map needs {expected}")
        if any(not 0 <= level <= 9 for level in self.levels):
            raise ValueError("levels run from 0 to 9 (one digit a hex)")
        known = _glyph_of()
        unknown = sorted({t for t in self.terrain if t not in known})
        if unknown:
            raise ValueError(f"unknown terrain ids: {', '.join(map(repr, unknown))}")

    @property
    def grid(self) -> Grid:
        """The hex grid this map covers."""
        return Grid(self.width, self.height)

    def contains(self, h: Hex) -> bool:
        """True when ``h`` lies on the map."""
        q, r = h
        return 0 <= r < self.height and 0 <= q + (r - (r & 1)) // 2 < self.width

    def terrain_at(self, h: Hex) -> str:
        """The terrain id of hex ``h``; ``IndexError`` if ``h`` is off the map."""
        q, r = h
        col = q + (r - (r & 1)) // 2
        if not (0 <= r < self.height and 0 <= col < self.width):
            raise IndexError(f"{h} is off the {self.width}x{self.height} map")
        return self.terrain[r * self.width + col]

    def deployment_hexes(self, side: Side) -> tuple[Hex, ...]:
        """The deployment zone of ``side``, in row-major order.

        ``"player"``: the leftmost ``maps.deployment.columns`` columns; ``"enemy"``: the
        rightmost ones (core-rules §6.3).
        """
        return _deployment(self.width, self.height, _deployment_columns(), side)

    def is_deployment(self, h: Hex, side: Side) -> bool:
        """True when ``h`` is on the map and inside ``side``'s deployment zone."""
        cols = _side_columns(self.width, _deployment_columns(), side)
        return self.contains(h) and h.q + (h.r - (h.r & 1)) // 2 in cols

    def count(self, terrain_id: str) -> int:
        """How many hexes of the map have terrain ``terrain_id``."""
        return self.terrain.count(terrain_id)

    def to_rows(self) -> list[str]:
        """One string per row of the catalog's ASCII terrain glyphs (for logs and tests)."""
        glyph = _glyph_of()
        w = self.width
        return [
            "".join(glyph[t] for t in self.terrain[row * w : (row + 1) * w])
            for row in range(self.height)
        ]

    def level_rows(self) -> list[str]:
        """O2.9: one digit string per row of the ground levels (empty without levels)."""
        w = self.width
        levels = self.levels
        if not levels:
            return []
        return ["".join(map(str, levels[r * w : (r + 1) * w])) for r in range(self.height)]

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> BattleMap:
        """Parse the output of :meth:`to_rows` (or a hand-drawn map) back into a map.

        Every row must have the same length; every character must be the glyph of exactly
        one catalog terrain.  Raises ``ValueError`` otherwise.
        """
        if isinstance(rows, str):
            raise TypeError("from_rows() takes a sequence of row strings, not one string")
        if not rows or not rows[0]:
            raise ValueError("a map needs at least one row and one column")
        width = len(rows[0])
        ids = _id_of_glyph()
        terrain: list[str] = []
        for r, row in enumerate(rows):
            if len(row) != width:
                raise ValueError(f"row {r} has {len(row)} hexes, row 0 has {width}")
            for c, ch in enumerate(row):
                if ch not in ids:
                    raise ValueError(f"unknown terrain glyph {ch!r} at column {c}, row {r}")
                tid = ids[ch]
                if tid is None:
                    raise ValueError(f"glyph {ch!r} at column {c}, row {r} is ambiguous")
                terrain.append(tid)
        return cls(width, len(rows), tuple(terrain))


# --- generation -----------------------------------------------------------------------------


def target_counts(interior: int, landscape: str) -> dict[str, int]:
    """How many of ``interior`` hexes get each placed terrain (forest, rocks, rough, sand).

    ``round_half_up(share% * interior)`` per terrain.  Should the catalog's shares round up
    to more hexes than the interior holds, the later terrains are cut short so the counts
    never exceed ``interior``.
    """
    ls = _landscape(catalog(), landscape)
    out: dict[str, int] = {}
    left = interior
    for tid in PLACEMENT_ORDER:
        n = min(_share_of(ls.share(tid), interior), left)
        out[tid] = n
        left -= n
    return out


def generate_map(dice: Dice, difficulty: int, landscape: str) -> BattleMap:
    """Generate the battle map for a mission of ``difficulty`` on ``landscape``.

    Draws from the :data:`~mac_tui.dice.MAP` stream of ``dice`` only (the caller keeps
    ``dice.state()``).  Steps:

    1. Size from ``catalog().map_size(difficulty)``; every hex Open.  The deployment
       columns stay Open; every other column is *interior*.
    2. Forest, in clusters, until exactly its target count is reached: a seed drawn
       uniformly from the Open interior hexes, then ``between(extra_min, extra_max)``
       extra hexes, each drawn uniformly from the Open interior neighbours of the cluster
       so far (fewer if none are left; the last cluster is cut at the target).
    3. Rocks, rough, sand: the remaining Open interior hexes are shuffled once and dealt
       out in that order, each terrain taking its target count.
    """
    cat = catalog()
    size = _map_size(cat, difficulty)
    width, height = size.width, size.height
    columns = cat.maps.deployment.columns
    clusters = cat.maps.forest_clusters

    interior = interior_indices(width, height, columns)
    targets = target_counts(len(interior), landscape)
    terrain = [OPEN] * (width * height)
    free = bytearray(width * height)  # 1 = interior hex still Open
    for i in interior:
        free[i] = 1

    # Forest clusters.
    nbrs = neighbour_indices(width, height)
    forest_target = targets[FOREST]
    placed = 0
    candidates = interior
    while placed < forest_target:
        candidates = [i for i in candidates if free[i]]
        seed = dice.choice(MAP, candidates)
        extra = dice.between(MAP, clusters.extra_min, clusters.extra_max)
        free[seed] = 0
        cluster = [seed]
        for _ in range(min(extra, forest_target - placed - 1)):
            frontier = sorted({j for c in cluster for j in nbrs[c] if free[j]})
            if not frontier:
                break
            pick = dice.choice(MAP, frontier)
            free[pick] = 0
            cluster.append(pick)
        for i in cluster:
            terrain[i] = FOREST
        placed += len(cluster)

    # Scattered terrains, dealt from one shuffle of the remaining Open interior hexes.
    deck = dice.shuffle(MAP, [i for i in interior if free[i]])
    pos = 0
    for tid in SCATTERED:
        n = targets[tid]
        for i in deck[pos : pos + n]:
            terrain[i] = tid
        pos += n

    return BattleMap(width, height, tuple(terrain))
