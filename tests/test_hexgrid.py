"""Tests for mac_tui.hexgrid: properties (hypothesis) plus hand-computed cases."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.hexgrid import (
    DIRECTIONS,
    Grid,
    Hex,
    add,
    arc,
    distance,
    from_offset,
    in_cone120,
    in_wedge60,
    line,
    line_steps,
    neighbours,
    normalise,
    path,
    reachable,
    to_offset,
    within,
)

coord = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coord, coord)
small = settings(max_examples=150, deadline=None)


# -- reference implementation for cross-checking `line` ----------------------------------


def _float_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Red Blob Games style float lerp with a (1e-6, 2e-6, -3e-6) nudge on the start."""
    n = distance(a, b)
    ax, ay, az = a.q + 1e-6, a.r + 2e-6, -a.q - a.r - 3e-6
    bx, by, bz = float(b.q), float(b.r), float(-b.q - b.r)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        out.append(Hex(rx, ry))
    return tuple(out)


# -- basics -------------------------------------------------------------------------------


def test_hand_computed_distances() -> None:
    assert distance(Hex(0, 0), Hex(3, -1)) == 3
    assert distance(Hex(0, 0), Hex(0, 0)) == 0
    assert distance(Hex(0, 0), Hex(1, 1)) == 2
    assert distance(Hex(-2, 3), Hex(2, -1)) == 4
    assert distance(Hex(1, 2), Hex(-3, 2)) == 4


def test_hand_computed_offsets() -> None:
    assert to_offset(Hex(0, 0)) == (0, 0)
    assert to_offset(Hex(0, 1)) == (0, 1)
    assert to_offset(Hex(-1, 2)) == (0, 2)
    assert to_offset(Hex(2, 3)) == (3, 3)
    assert to_offset(Hex(0, -1)) == (-1, -1)
    assert from_offset(1, 1) == Hex(1, 1)
    assert from_offset(0, 2) == Hex(-1, 2)
    assert from_offset(3, 3) == Hex(2, 3)
    assert from_offset(5, 4) == Hex(3, 4)


def test_directions_order_and_neighbours() -> None:
    expected = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
    assert expected == DIRECTIONS
    assert neighbours(Hex(2, 3)) == (
        Hex(3, 3),
        Hex(3, 2),
        Hex(2, 2),
        Hex(1, 3),
        Hex(1, 4),
        Hex(2, 4),
    )
    assert add(Hex(2, 3), Hex(-1, 1)) == Hex(1, 4)
    assert Hex(2, 3).s == -5


def test_odd_r_display_neighbours() -> None:
    # In odd-r layout an even row's NE/NW neighbours are at (col, row-1) and (col-1, row-1);
    # an odd row's are at (col+1, row-1) and (col, row-1).
    even = from_offset(3, 2)
    odd = from_offset(3, 3)
    assert to_offset(add(even, DIRECTIONS[1])) == (3, 1)
    assert to_offset(add(even, DIRECTIONS[2])) == (2, 1)
    assert to_offset(add(odd, DIRECTIONS[1])) == (4, 2)
    assert to_offset(add(odd, DIRECTIONS[2])) == (3, 2)


def test_hex_is_a_plain_pair() -> None:
    h = Hex(3, -2)
    assert h == (3, -2)
    assert list(h) == [3, -2]
    assert {h: 1}[Hex(3, -2)] == 1


@small
@given(hexes, hexes)
def test_distance_symmetric_and_zero_iff_equal(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) >= 0


@small
@given(hexes, hexes, hexes)
def test_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@small
@given(hexes)
def test_neighbours_at_distance_one(h: Hex) -> None:
    ns = neighbours(h)
    assert len(ns) == 6
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)


@small
@given(hexes, st.integers(min_value=-40, max_value=40), st.integers(min_value=-40, max_value=40))
def test_offset_round_trip(h: Hex, col: int, row: int) -> None:
    assert from_offset(*to_offset(h)) == h
    assert to_offset(from_offset(col, row)) == (col, row)
    assert to_offset(h)[1] == h.r


# -- line -----------------------------------------------------------------------------------


def test_line_hand_cases() -> None:
    assert line(Hex(0, 0), Hex(0, 0)) == (Hex(0, 0),)
    assert line(Hex(0, 0), Hex(1, 0)) == (Hex(0, 0), Hex(1, 0))
    assert line(Hex(0, 0), Hex(3, 0)) == (Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0))
    assert line(Hex(0, 0), Hex(3, -1)) == (Hex(0, 0), Hex(1, 0), Hex(2, -1), Hex(3, -1))


def test_line_documented_ties() -> None:
    # Along the edge between Hex(1, 0) and Hex(0, 1): ties fall to larger r (south).
    assert line(Hex(0, 0), Hex(1, 1)) == (Hex(0, 0), Hex(0, 1), Hex(1, 1))
    # Between Hex(1, 0) and Hex(1, -1): larger r again.
    assert line(Hex(0, 0), Hex(2, -1)) == (Hex(0, 0), Hex(1, 0), Hex(2, -1))
    # Vertical run between Hex(0, 1) and Hex(-1, 1) (same r): larger q (east).
    assert line(Hex(0, 0), Hex(-1, 2)) == (Hex(0, 0), Hex(0, 1), Hex(-1, 2))


@small
@given(hexes, hexes)
def test_line_properties(a: Hex, b: Hex) -> None:
    n = distance(a, b)
    ln = line(a, b)
    assert len(ln) == n + 1
    assert ln[0] == a
    assert ln[-1] == b
    assert all(distance(x, y) == 1 for x, y in pairwise(ln))
    assert line(a, b) == ln
    for i, h in enumerate(ln):
        assert distance(a, h) == i
        assert distance(h, b) == n - i


@settings(max_examples=300, deadline=None)
@given(hexes, hexes)
def test_line_matches_float_reference(a: Hex, b: Hex) -> None:
    assert line(a, b) == _float_line(a, b)


# -- line_steps: the line of sight (R29) ----------------------------------------------------


def _nearest_centres(a: Hex, b: Hex, i: int) -> tuple[Hex, ...]:
    """Reference: the hex centres nearest the point i/N of the way from a to b, by exact
    Euclidean distance (cube coordinates: the squared distance is proportional to the sum of
    the squared coordinate differences), all of them when several are equally near."""
    n = distance(a, b)
    t = Fraction(i, n)
    point = (a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t)
    point_s = -point[0] - point[1]
    near = within(Hex(round(point[0]), round(point[1])), 2)

    def far(h: Hex) -> Fraction:
        return (h.q - point[0]) ** 2 + (h.r - point[1]) ** 2 + (h.s - point_s) ** 2

    best = min(far(h) for h in near)
    return tuple(sorted(h for h in near if far(h) == best))


def test_line_steps_hand_cases() -> None:
    # Along the edge between Hex(1, 0) and Hex(0, 1): both lie on the line (R29).
    assert line_steps(Hex(0, 0), Hex(1, 1)) == (
        (Hex(0, 0),),
        (Hex(0, 1), Hex(1, 0)),
        (Hex(1, 1),),
    )
    # Between Hex(1, -1) and Hex(1, 0); and a vertical run between Hex(-1, 1) and Hex(0, 1).
    assert line_steps(Hex(0, 0), Hex(2, -1))[1] == (Hex(1, -1), Hex(1, 0))
    assert line_steps(Hex(0, 0), Hex(-1, 2))[1] == (Hex(-1, 1), Hex(0, 1))
    # Four hexes along a diagonal: edges at steps 1 and 3, a centre at step 2.
    assert line_steps(Hex(0, 0), Hex(2, 2)) == (
        (Hex(0, 0),),
        (Hex(0, 1), Hex(1, 0)),
        (Hex(1, 1),),
        (Hex(1, 2), Hex(2, 1)),
        (Hex(2, 2),),
    )
    # A straight run has no ties; a hex to itself is one step.
    assert line_steps(Hex(0, 0), Hex(3, 0)) == tuple((Hex(q, 0),) for q in range(4))
    assert line_steps(Hex(4, 4), Hex(4, 4)) == ((Hex(4, 4),),)


@small
@given(hexes, hexes)
def test_line_steps_are_the_same_both_ways(a: Hex, b: Hex) -> None:
    steps = line_steps(a, b)
    assert line_steps(b, a) == steps[::-1]
    n = distance(a, b)
    assert len(steps) == n + 1 and steps[0] == (a,) and steps[-1] == (b,)
    for i, step in enumerate(steps):
        assert 1 <= len(step) <= 2 and list(step) == sorted(step)
        assert all(distance(a, h) == i and distance(h, b) == n - i for h in step)
        if len(step) == 2:
            assert distance(*step) == 1
        assert line(a, b)[i] in step  # the drawing line picks one of them


@settings(max_examples=300, deadline=None)
@given(hexes, hexes)
def test_line_steps_match_the_exact_geometry(a: Hex, b: Hex) -> None:
    """Every step holds exactly the hexes whose centres are nearest the line's point there:
    one inside a hex, two on an edge (never three: a point of the line is never a corner)."""
    for i, step in enumerate(line_steps(a, b)[1:-1], start=1):
        assert step == _nearest_centres(a, b, i)


# -- within -----------------------------------------------------------------------------------


@small
@given(hexes, st.integers(min_value=0, max_value=8))
def test_within(center: Hex, radius: int) -> None:
    area = within(center, radius)
    assert len(area) == 1 + 3 * radius * (radius + 1)
    assert len(set(area)) == len(area)
    assert all(distance(center, h) <= radius for h in area)
    assert list(area) == sorted(area, key=lambda h: (h.r, h.q))
    assert within(center, radius) == area


def test_within_hand() -> None:
    assert within(Hex(0, 0), 0) == (Hex(0, 0),)
    assert within(Hex(0, 0), -1) == ()
    assert set(within(Hex(0, 0), 1)) == {Hex(0, 0), *neighbours(Hex(0, 0))}
    assert within(Hex(0, 0), 1) == (
        Hex(0, -1),
        Hex(1, -1),
        Hex(-1, 0),
        Hex(0, 0),
        Hex(1, 0),
        Hex(-1, 1),
        Hex(0, 1),
    )


# -- Grid -------------------------------------------------------------------------------------


def test_grid_bounds_and_order() -> None:
    g = Grid(3, 2)
    assert g.hexes() == (
        Hex(0, 0),
        Hex(1, 0),
        Hex(2, 0),
        Hex(0, 1),
        Hex(1, 1),
        Hex(2, 1),
    )
    assert [to_offset(h) for h in g.hexes()] == [(c, r) for r in range(2) for c in range(3)]
    assert g.contains(Hex(2, 1))
    assert not g.contains(Hex(3, 0))
    assert not g.contains(Hex(-1, 0))
    assert not g.contains(Hex(0, 2))
    assert g.column(from_offset(2, 1)) == 2
    assert g.row(from_offset(2, 1)) == 1
    # Corner neighbours filtered to the map, DIRECTIONS order kept.
    assert g.neighbours(Hex(0, 0)) == (Hex(1, 0), Hex(0, 1))
    with pytest.raises(ValueError):
        Grid(-1, 3)


@small
@given(st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=12))
def test_grid_hexes_match_contains(width: int, height: int) -> None:
    g = Grid(width, height)
    hs = g.hexes()
    assert len(hs) == width * height
    assert len(set(hs)) == len(hs)
    assert all(g.contains(h) for h in hs)
    box = {Hex(q, r) for q in range(-20, 20) for r in range(-3, height + 3)}
    assert {h for h in box if g.contains(h)} == set(hs)
    on_map = set(hs)
    for h in hs:
        assert g.neighbours(h) == tuple(n for n in neighbours(h) if n in on_map)


# -- reachable / path -------------------------------------------------------------------------


def _grid_cost(grid: Grid, terrain: dict[Hex, int | None]) -> Callable[[Hex], int | None]:
    def cost(h: Hex) -> int | None:
        if not grid.contains(h):
            return None
        return terrain.get(h, 1)

    return cost


def test_reachable_open_terrain_equals_within() -> None:
    start = Hex(0, 0)
    for budget in range(6):
        reach = reachable(start, budget, lambda h: 1)
        assert set(reach) == set(within(start, budget))
        assert all(c == distance(start, h) for h, (c, _) in reach.items())
        assert reach[start] == (0, None)


terrain_strategy = st.dictionaries(
    st.builds(from_offset, st.integers(0, 9), st.integers(0, 7)),
    st.one_of(st.none(), st.integers(min_value=1, max_value=4)),
    max_size=30,
)


@settings(max_examples=120, deadline=None)
@given(
    st.builds(from_offset, st.integers(0, 9), st.integers(0, 7)),
    st.integers(min_value=0, max_value=8),
    terrain_strategy,
)
def test_reachable_properties(start: Hex, budget: int, terrain: dict[Hex, int | None]) -> None:
    grid = Grid(10, 8)
    cost = _grid_cost(grid, terrain)
    reach = reachable(start, budget, cost)
    assert reach[start] == (0, None)
    assert reachable(start, budget, cost) == reach
    assert list(reachable(start, budget, cost).items()) == list(reach.items())
    for h, (c, parent) in reach.items():
        assert c <= budget
        p = path(reach, h)
        assert p[0] == start
        assert p[-1] == h
        assert all(distance(x, y) == 1 for x, y in pairwise(p))
        steps = [cost(x) for x in p[1:]]
        assert None not in steps
        assert sum(s for s in steps if s is not None) == c
        if h != start:
            assert parent is not None
            assert reach[parent][0] + (cost(h) or 0) == c
            assert grid.contains(h)
    # Optimality: relaxing any edge cannot improve a settled cost.
    for h, (c, _) in reach.items():
        for n in neighbours(h):
            ec = cost(n)
            if ec is not None and c + ec <= budget:
                assert n in reach
                assert reach[n][0] <= c + ec


def test_reachable_cost_called_once_per_hex() -> None:
    calls: list[Hex] = []

    def cost(h: Hex) -> int | None:
        calls.append(h)
        return 1

    reachable(Hex(0, 0), 3, cost)
    assert len(calls) == len(set(calls))
    assert Hex(0, 0) not in calls


def test_reachable_hand_example() -> None:
    # Map 5 columns x 3 rows, odd-r offsets (odd rows shoved right), budget 5:
    #
    #   row 0:  S   .   F   .   .       S = start (0,0)
    #   row 1:    .   .   F   X   .     F = forest, cost 2 (a wall down column 2)
    #   row 2:  .   .   F   .   .       X = blocked (3,1)
    #
    grid = Grid(5, 3)
    forest = {from_offset(2, 0), from_offset(2, 1), from_offset(2, 2)}
    blocked = from_offset(3, 1)
    terrain: dict[Hex, int | None] = {h: 2 for h in forest}
    terrain[blocked] = None
    cost = _grid_cost(grid, terrain)
    start = from_offset(0, 0)
    reach = reachable(start, 5, cost)
    got = {to_offset(h): c for h, (c, _) in reach.items()}
    assert got == {
        (0, 0): 0,
        (1, 0): 1,
        (0, 1): 1,
        (1, 1): 2,
        (0, 2): 2,
        (1, 2): 2,  # odd row 1 touches (0,2) and (1,2) below it
        (2, 0): 3,  # (1,0) + forest 2
        (2, 1): 4,  # (1,1) + forest 2
        (2, 2): 4,  # (1,2) + forest 2
        (3, 0): 4,  # (2,0) + 1
        (3, 2): 5,  # (2,2) + 1
        (4, 0): 5,  # (3,0) + 1
    }
    assert blocked not in reach  # would be 5 via (3,0) if it were open
    # Ties: (2,2) could come from (1,1) or (1,2); (1,2) = Hex(0,2) settles first.
    assert [to_offset(h) for h in path(reach, from_offset(3, 2))] == [
        (0, 0),
        (0, 1),
        (1, 2),
        (2, 2),
        (3, 2),
    ]
    assert [to_offset(h) for h in path(reach, from_offset(4, 0))] == [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
    ]
    # Unblocking X makes it reachable at 4 + 1.
    del terrain[blocked]
    assert reachable(start, 5, cost)[blocked][0] == 5


def test_reachable_budget_zero_and_path_errors() -> None:
    reach = reachable(Hex(5, 5), 0, lambda h: 1)
    assert reach == {Hex(5, 5): (0, None)}
    assert path(reach, Hex(5, 5)) == (Hex(5, 5),)
    with pytest.raises(KeyError):
        path(reach, Hex(5, 6))


# -- directions, cones and arcs (O0.9 G1-G4, O4.7) -----------------------------------------


def _off_direction(p: Hex, x: Hex, i: int) -> float:
    """Reference: the angle in degrees (0-180) between the ray from p through x's centre and
    direction i, on the pointy-top pixel plane (screen y grows downwards)."""
    import math

    def angle(h: Hex) -> float:
        return math.degrees(math.atan2(-1.5 * h.r, math.sqrt(3) * (h.q + h.r / 2)))

    diff = abs(angle(Hex(x.q - p.q, x.r - p.r)) - angle(DIRECTIONS[i])) % 360
    return min(diff, 360 - diff)


_EPS = 1e-9


@small
@given(hexes, hexes, st.integers(0, 5))
def test_cone_wedge_and_arcs_match_the_angles_they_describe(p: Hex, x: Hex, i: int) -> None:
    if x == p:
        assert not in_cone120(p, i, x) and not in_wedge60(p, i, x)
        return
    off = _off_direction(p, x, i)
    assert in_cone120(p, i, x) == (off <= 60 + _EPS)
    assert in_wedge60(p, i, x) == (off <= 30 + _EPS)
    behind = _off_direction(p, x, (i + 3) % 6)
    expected = "front" if off <= 60 + _EPS else "rear" if behind < 30 - _EPS else None
    if expected is None:  # a side: left of the facing ray is counter-clockwise of it
        expected = "left" if _off_direction(p, x, (i + 1) % 6) < off else "right"
    assert arc(p, i, x) == expected


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_rings_hold_the_documented_counts_and_the_arcs_partition_them(n: int) -> None:
    p = Hex(2, -1)
    ring = [x for x in within(p, n) if distance(p, x) == n]
    for i in range(6):
        assert sum(in_cone120(p, i, x) for x in ring) == 2 * n + 1  # G3
        wedge = sum(in_wedge60(p, i, x) for x in ring)
        assert wedge == (n + 1 if n % 2 == 0 else n)  # G4: edge hexes only on even rings
        arcs = [arc(p, i, x) for x in ring]
        assert arcs.count("front") + arcs.count("left") + arcs.count("right") + arcs.count(
            "rear"
        ) == len(ring)
        assert arcs.count("left") == arcs.count("right")
    # every hex of the ring lies in some wedge, and exactly the edge hexes in two
    for x in ring:
        assert 1 <= sum(in_wedge60(p, k, x) for k in range(6)) <= 2


def test_the_o4_worked_example() -> None:
    enforcer = Hex(0, 0)
    assert normalise(enforcer, Hex(-3, 0), 0) == (-3, 0, 3)
    assert arc(enforcer, 0, Hex(-3, 0)) == "rear"  # Falcon's Raider behind it
    assert arc(enforcer, 0, Hex(0, -3)) == "left"  # the reply from (0, -3, 3)
    assert normalise(enforcer, Hex(0, -3), 1) == (3, -3, 0)  # a free pivot to NE
    assert arc(enforcer, 1, Hex(0, -3)) == "front"
