"""Pointy-top hex grid maths: axial coordinates, odd-r offsets, lines, ranges, movement.

Coordinates
    A hex is stored in *axial* coordinates ``Hex(q, r)``; the third cube coordinate is
    implied, ``s = -q - r``.  ``q`` grows towards the east, ``r`` towards the south-east
    (i.e. ``r`` is the display row).

Display layout
    Maps are drawn with pointy-top hexes in the *odd-r* offset layout: odd rows are shoved
    half a hex to the right.  ``to_offset`` / ``from_offset`` convert between axial
    ``Hex`` values and ``(col, row)`` pairs.

Determinism
    Everything here is pure and integer based; every function that returns a collection
    returns it in a documented, fixed order, and no result depends on ``hash()`` or set
    iteration order.  ``line`` and ``line_steps`` are computed in exact integer arithmetic,
    so results are identical on every machine.

Lines of sight
    ``line_steps`` is the line of sight's line (§3.6, ruling R29): where the line runs exactly
    along the edge between two hexes it keeps both, so the rules can count the one worse for
    the shooter, and it is the same line in both directions.  ``line`` picks one hex per step
    by a fixed nudge (a drawing line, not a line of sight).
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Callable
from functools import lru_cache
from typing import Final, Literal, NamedTuple

import attrs

__all__ = [
    "DIRECTIONS",
    "Arc",
    "Grid",
    "Hex",
    "Reach",
    "add",
    "arc",
    "distance",
    "from_offset",
    "in_cone120",
    "in_wedge60",
    "line",
    "line_steps",
    "neighbours",
    "normalise",
    "path",
    "reachable",
    "reachable_steps",
    "to_offset",
    "within",
]


class Hex(NamedTuple):
    """Axial hex coordinate (pointy-top).  ``s = -q - r`` is implied.

    Note: being a tuple, ``Hex + Hex`` concatenates; use :func:`add` for vector addition.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The implied third cube coordinate."""
        return -self.q - self.r


#: The six axial directions, in this fixed order: E, NE, NW, W, SW, SE.
DIRECTIONS: Final[tuple[Hex, ...]] = (
    Hex(1, 0),  # E
    Hex(1, -1),  # NE
    Hex(0, -1),  # NW
    Hex(-1, 0),  # W
    Hex(-1, 1),  # SW
    Hex(0, 1),  # SE
)

# Plain int pairs for the hot loops.
_DIRS: Final[tuple[tuple[int, int], ...]] = tuple((d.q, d.r) for d in DIRECTIONS)


def add(a: Hex, b: Hex) -> Hex:
    """Vector sum of two axial coordinates."""
    return Hex(a.q + b.q, a.r + b.r)


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial -> odd-r offset ``(col, row)``."""
    q, r = h
    return q + (r - (r & 1)) // 2, r


def from_offset(col: int, row: int) -> Hex:
    """Odd-r offset ``(col, row)`` -> axial ``Hex``."""
    return Hex(col - (row - (row & 1)) // 2, row)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six adjacent hexes, in :data:`DIRECTIONS` order (E, NE, NW, W, SW, SE)."""
    q, r = h
    return tuple(Hex(q + dq, r + dr) for dq, dr in _DIRS)


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between ``a`` and ``b`` (cube distance)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --- directions, cones and arcs (optional rules O0.9 G1-G4, O4.7) ----------------------------
#: An arc around a facing frame (O4.7).
Arc = Literal["front", "left", "right", "rear"]


def normalise(p: Hex, x: Hex, i: int) -> tuple[int, int, int]:
    """G1-G2: the cube vector ``x - p`` rotated clockwise ``i`` times with rot(q, r, s) =
    (-r, -s, -q), so that direction ``i`` (an index of :data:`DIRECTIONS`) becomes E."""
    q, r = x[0] - p[0], x[1] - p[1]
    s = -q - r
    for _ in range(i % 6):
        q, r, s = -r, -s, -q
    return q, r, s


def in_cone120(p: Hex, i: int, x: Hex) -> bool:
    """G3: ``x`` lies in the 120-degree cone from ``p`` around direction ``i`` (both edge rays
    included; ring n holds 2n + 1 hexes). Never ``p`` itself."""
    a, _, c = normalise(p, x, i)
    return x != p and a >= 0 and c <= 0


def in_wedge60(p: Hex, k: int, x: Hex) -> bool:
    """G4: ``x`` lies in the 60-degree sector from ``p`` around direction ``k`` (edge hexes
    belong to both neighbouring sectors). Never ``p`` itself."""
    a, b, c = normalise(p, x, k)
    return x != p and a >= b >= c


def arc(p: Hex, facing: int, x: Hex) -> Arc:
    """O4.7: the arc of a frame at ``p`` facing ``facing`` that hex ``x`` (not ``p``) lies in:
    front = the 120-degree cone, rear = the 60 degrees behind (its edge hexes count as side),
    left side the rest with b < 0, right side the rest with b > 0 (b = 0 off the front is
    rear). For an attack, ``p`` is the target and ``x`` the attacker."""
    a, b, c = normalise(p, x, facing)
    if a >= 0 and c <= 0:
        return "front"
    if c > b > a:  # off the front, b = 0 means a < 0 < c: rear too
        return "rear"
    return "left" if b < 0 else "right"


# Infinitesimal nudge applied to the cube coordinates (q, r, s) of the lerped points in
# ``line``; the components sum to zero so the nudged point stays on the q + r + s = 0 plane,
# and their magnitudes are distinct so cube rounding never meets an exact tie.
_NUDGE: Final[tuple[int, int, int]] = (1, 2, -3)


def _round_axis(num: int, n: int, k: int) -> tuple[int, int, int]:
    """Round ``num / n + k*eps`` (eps infinitesimal, k != 0) to the nearest integer.

    Returns ``(rounded, err_num, err_eps)`` where the absolute rounding error is
    ``err_num / n + err_eps * eps``; tuples compare exactly like the errors themselves.
    """
    fl, rem = divmod(num, n)
    twice = 2 * rem
    rounded = fl + 1 if twice > n or (twice == n and k > 0) else fl
    diff = rounded * n - num
    if diff > 0:
        return rounded, diff, -k
    if diff < 0:
        return rounded, -diff, k
    return rounded, 0, abs(k)


@functools.lru_cache(maxsize=1 << 16)
def line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes on the straight line from ``a`` to ``b``, both ends included.

    The result has ``distance(a, b) + 1`` hexes and each consecutive pair is adjacent.

    Construction: the classic cube lerp + cube rounding, sampled at ``i / N`` for
    ``i = 0..N`` (``N = distance``), but in exact integer arithmetic.  Every sampled point
    is nudged by an infinitesimal ``eps * (+1, +2, -3)`` in cube ``(q, r, s)`` — the exact
    limit of the well-known ``(1e-6, 2e-6, -3e-6)`` float nudge.  Consequently, when the
    line runs exactly along the edge between two hexes, ties fall towards larger ``r``
    (south), and on a purely horizontal tie towards larger ``q`` (east).  For example
    ``line(Hex(0, 0), Hex(1, 1))`` passes between ``Hex(1, 0)`` and ``Hex(0, 1)`` and picks
    ``Hex(0, 1)``.  Because of the fixed nudge, ``line(b, a)`` is not always the reverse
    of ``line(a, b)``.

    Results are cached (a pure function of its two hexes): the AI traces many lines.
    """
    n = distance(a, b)
    if n == 0:
        return (a,)
    aq, ar = a
    bq, br = b
    as_ = -aq - ar
    bs = -bq - br
    kq, kr, ks = _NUDGE
    out: list[Hex] = [a]
    for i in range(1, n):
        j = n - i
        q, eq, eq_eps = _round_axis(aq * j + bq * i, n, kq)
        r, er, er_eps = _round_axis(ar * j + br * i, n, kr)
        s, es, es_eps = _round_axis(as_ * j + bs * i, n, ks)
        dq = (eq, eq_eps)
        dr = (er, er_eps)
        ds = (es, es_eps)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        out.append(Hex(q, r))
    out.append(b)
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def line_steps(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The line of sight from the centre of ``a`` to the centre of ``b``, step by step (R29).

    ``distance(a, b) + 1`` steps, ``(a,)`` first and ``(b,)`` last.  Step ``i`` is the hex
    that holds the point ``i / N`` of the way along the line (``N = distance``), or, where
    that point lies exactly on the edge between two hexes, both of them (in ``(q, r)``
    order): R29 puts both on the line and the rules count the one worse for the shooter.
    Exact: the point's cube coordinates are ``(a * (N - i) + b * i) / N``; the coordinate
    along which the line runs farthest is a whole number at every step, the other two are
    either whole or have fractional parts summing to 1, so a point is never at a corner and
    lies on an edge exactly when both fractional parts are one half.  The points of
    ``line_steps(b, a)`` are the same points in reverse order, so it is this tuple reversed.

    Results are cached (a pure function of its two hexes).
    """
    n = distance(a, b)
    if n == 0:
        return ((a,),)
    aq, ar = a
    bq, br = b
    steps: list[tuple[Hex, ...]] = [(a,)]
    for i in range(1, n):
        j = n - i
        q, q_half = _round_exact(aq * j + bq * i, n)
        r, r_half = _round_exact(ar * j + br * i, n)
        if q_half and r_half:  # s is whole: the edge between (q, r + 1) and (q + 1, r)
            steps.append((Hex(q, r + 1), Hex(q + 1, r)))
        elif q_half:  # r is whole, s has the other half: round q down or up
            steps.append((Hex(q, r), Hex(q + 1, r)))
        elif r_half:  # q is whole
            steps.append((Hex(q, r), Hex(q, r + 1)))
        else:
            steps.append((Hex(q, r),))
    steps.append((b,))
    return tuple(steps)


def _round_exact(num: int, n: int) -> tuple[int, bool]:
    """``num / n`` rounded to the nearest whole number, and whether it is exactly half way
    (then the whole number below is returned)."""
    low, rem = divmod(num, n)
    if 2 * rem == n:
        return low, True
    return (low + 1 if 2 * rem > n else low), False


def within(center: Hex, radius: int) -> tuple[Hex, ...]:
    """All hexes at distance ``<= radius`` from ``center``.

    Ordered by ``r`` ascending, then ``q`` ascending (i.e. row-major in display order).
    ``radius < 0`` yields an empty tuple; the size is ``1 + 3 * radius * (radius + 1)``.
    """
    cq, cr = center
    out: list[Hex] = []
    for dr in range(-radius, radius + 1):
        lo = max(-radius, -dr - radius)
        hi = min(radius, -dr + radius)
        r = cr + dr
        out.extend(Hex(cq + dq, r) for dq in range(lo, hi + 1))
    return tuple(out)


@lru_cache(maxsize=64)
def _grid_hexes(width: int, height: int) -> tuple[Hex, ...]:
    return tuple(from_offset(col, row) for row in range(height) for col in range(width))


@attrs.frozen
class Grid:
    """A rectangular map of ``width`` columns by ``height`` rows, in odd-r offset bounds."""

    width: int = attrs.field(validator=attrs.validators.ge(0))
    height: int = attrs.field(validator=attrs.validators.ge(0))

    def contains(self, h: Hex) -> bool:
        """True when ``h`` lies on the map (``0 <= col < width`` and ``0 <= row < height``)."""
        q, r = h
        if not 0 <= r < self.height:
            return False
        return 0 <= q + (r - (r & 1)) // 2 < self.width

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex on the map in row-major offset order: (col 0, row 0), (col 1, row 0)..."""
        return _grid_hexes(self.width, self.height)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The on-map neighbours of ``h``, in :data:`DIRECTIONS` order."""
        return tuple(n for n in neighbours(h) if self.contains(n))

    def column(self, h: Hex) -> int:
        """The odd-r offset column of ``h``."""
        return to_offset(h)[0]

    def row(self, h: Hex) -> int:
        """The offset row of ``h`` (equal to ``h.r``)."""
        return h.r


Reach = dict[Hex, tuple[int, Hex | None]]

# Entry costs are >= 1, so a negative value can mark "not looked up yet".
_NOT_CACHED: Final = -1

# Memo of neighbour tuples for the Dijkstra hot loop (saves six Hex allocations per
# settled hex).  Bounded: cleared wholesale if it ever grows past _NEIGHBOUR_CACHE_MAX.
_neighbour_cache: dict[Hex, tuple[Hex, ...]] = {}
_NEIGHBOUR_CACHE_MAX: Final = 1 << 16


def _cached_neighbours(h: Hex) -> tuple[Hex, ...]:
    ns = _neighbour_cache.get(h)
    if ns is None:
        if len(_neighbour_cache) >= _NEIGHBOUR_CACHE_MAX:
            _neighbour_cache.clear()
        ns = _neighbour_cache[h] = neighbours(h)
    return ns


def reachable(start: Hex, budget: int, cost: Callable[[Hex], int | None]) -> Reach:
    """Least-cost movement from ``start`` within ``budget`` (Dijkstra).

    ``cost(h)`` is the cost of *entering* ``h`` (the caller guarantees ``>= 1``), or
    ``None`` if ``h`` cannot be entered (off-map, blocked, occupied...).  ``cost`` is
    called at most once per hex per call and never for ``start``.

    Returns ``{hex: (total_cost, predecessor)}`` for every hex reachable with total cost
    ``<= budget``, including ``start`` as ``(0, None)``.  Deterministic: hexes are settled
    in ``(cost, q, r)`` order and a predecessor is only replaced by a strictly cheaper one,
    so among equally cheap routes the one through the first settled hex wins.  The dict is
    in insertion (discovery) order, which is equally deterministic.
    """
    best: Reach = {start: (0, None)}
    if budget < 1:
        return best
    entry: dict[Hex, int | None] = {start: None}  # never re-enter (or price) the start
    heap: list[tuple[int, Hex]] = [(0, start)]
    pop = heapq.heappop
    push = heapq.heappush
    get_best = best.get
    get_entry = entry.get
    not_cached = _NOT_CACHED
    nbrs = _neighbour_cache.get
    while heap:
        c, h = pop(heap)
        if c != best[h][0]:
            continue  # stale heap entry
        if c >= budget:
            continue  # every step costs >= 1, nothing further is affordable
        ns = nbrs(h)
        if ns is None:
            ns = _cached_neighbours(h)
        for n in ns:
            ec = get_entry(n, not_cached)
            if ec == not_cached:
                ec = cost(n)
                entry[n] = ec
            if ec is None:
                continue
            nc = c + ec
            if nc > budget:
                continue
            old = get_best(n)
            if old is None or nc < old[0]:
                best[n] = (nc, h)
                push(heap, (nc, n))
    return best


def reachable_steps(start: Hex, budget: int, cost: Callable[[Hex, Hex], int | None]) -> Reach:
    """:func:`reachable` where entering a hex costs what ``cost(from_hex, to_hex)`` says (>= 1,
    or None: no entry that way), so a step may cost more from one side than from another
    (climbing, optional rule O2.3). Settled in the same ``(cost, q, r)`` order with the same
    tie rule, so with a cost that ignores ``from_hex`` it answers as :func:`reachable`."""
    best: Reach = {start: (0, None)}
    heap: list[tuple[int, Hex]] = [(0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c != best[h][0] or c >= budget:
            continue
        for n in _cached_neighbours(h):
            if n == start:
                continue
            ec = cost(h, n)
            if ec is None or c + ec > budget:
                continue
            old = best.get(n)
            if old is None or c + ec < old[0]:
                best[n] = (c + ec, h)
                heapq.heappush(heap, (c + ec, n))
    return best


def path(reach: Reach, goal: Hex) -> tuple[Hex, ...]:
    """Reconstruct ``start .. goal`` from a :func:`reachable` result.

    Raises ``KeyError`` if ``goal`` is not in ``reach``.
    """
    steps: list[Hex] = []
    cur: Hex | None = goal
    while cur is not None:
        steps.append(cur)
        cur = reach[cur][1]
    steps.reverse()
    return tuple(steps)
