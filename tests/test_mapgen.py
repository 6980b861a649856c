"""Tests for mac_tui.combat.mapgen: battle map sizes, deployment zones, landscape shares."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.catalog import catalog
from mac_tui.combat.mapgen import BattleMap, generate_map, target_counts
from mac_tui.dice import MAP, Dice, RngState
from mac_tui.hexgrid import Hex, from_offset, to_offset

CAT = catalog()
DIFFICULTIES = range(1, 6)
LANDSCAPES = [ls.id for ls in CAT.maps.landscape]
COLUMNS = CAT.maps.deployment.columns
EXTRA_MAX = CAT.maps.forest_clusters.extra_max
PLACED = ("forest", "rocks", "rough", "sand")

seeds = st.integers(min_value=0, max_value=2**64 - 1)
few = settings(max_examples=15, deadline=None)


def make(seed: int, difficulty: int, landscape: str) -> BattleMap:
    return generate_map(Dice(RngState(seed=seed)), difficulty, landscape)


def interior(m: BattleMap) -> list[Hex]:
    return [h for h in m.grid.hexes() if COLUMNS <= to_offset(h)[0] < m.width - COLUMNS]


def rounded(share: int, n: int) -> int:
    return (share * n + 50) // 100


def forest_components(m: BattleMap) -> list[set[Hex]]:
    forest = {h for h in m.grid.hexes() if m.terrain_at(h) == "forest"}
    seen: set[Hex] = set()
    out: list[set[Hex]] = []
    for start in sorted(forest):
        if start in seen:
            continue
        comp = {start}
        todo = [start]
        while todo:
            h = todo.pop()
            for n in m.grid.neighbours(h):
                if n in forest and n not in comp:
                    comp.add(n)
                    todo.append(n)
        seen |= comp
        out.append(comp)
    return out


# --- generation: every difficulty x every landscape -----------------------------------------


@pytest.mark.parametrize("landscape", LANDSCAPES)
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@few
@given(seed=seeds)
def test_generated_map_follows_the_rules(seed: int, difficulty: int, landscape: str) -> None:
    m = make(seed, difficulty, landscape)
    size = CAT.map_size(difficulty)
    assert (m.width, m.height) == (size.width, size.height)
    assert len(m.terrain) == size.width * size.height

    # Deployment zones: both sides' columns, all Open.
    for side in ("player", "enemy"):
        zone = m.deployment_hexes(side)
        assert len(zone) == COLUMNS * m.height
        assert all(m.terrain_at(h) == "open" for h in zone)

    # Interior counts equal the rounded shares exactly; nothing else is placed.
    inner = interior(m)
    assert len(inner) == (m.width - 2 * COLUMNS) * m.height
    ls = CAT.landscape(landscape)
    for tid in PLACED:
        expected = rounded(ls.share(tid), len(inner))
        assert sum(m.terrain_at(h) == tid for h in inner) == expected, tid
        assert m.count(tid) == expected, tid
    assert m.count("open") == m.width * m.height - sum(m.count(t) for t in PLACED)

    # Forest grows in clusters: only the (trimmed) last cluster can be a lone hex, since
    # every seed has an interior neighbour that is Open or already forest.
    forest = [h for h in m.grid.hexes() if m.terrain_at(h) == "forest"]
    lonely = [
        h for h in forest if not any(m.terrain_at(n) == "forest" for n in m.grid.neighbours(h))
    ]
    assert len(lonely) <= 1
    if len(forest) >= 2:
        assert len(lonely) * 2 < len(forest)
    comps = forest_components(m)
    assert sum(len(c) for c in comps) == len(forest)
    assert all(len(c) >= 1 for c in comps)
    if len(forest) >= 2:
        assert max(len(c) for c in comps) >= 2


def test_target_counts_match_rounded_shares() -> None:
    for landscape in LANDSCAPES:
        ls = CAT.landscape(landscape)
        for n in (0, 1, 7, 80, 144, 224):
            assert target_counts(n, landscape) == {t: rounded(ls.share(t), n) for t in PLACED}


def test_some_landscape_has_forest_and_small_clusters() -> None:
    """With forest present, clusters of 2..1+extra_max hexes actually appear."""
    forested = [ls.id for ls in CAT.maps.landscape if ls.forest > 0]
    if not forested:
        pytest.skip("no landscape with forest in the catalog")
    sizes: set[int] = set()
    for seed in range(30):
        sizes |= {len(c) for c in forest_components(make(seed, 5, forested[0]))}
    assert any(2 <= s <= 1 + EXTRA_MAX for s in sizes)


# --- determinism ----------------------------------------------------------------------------


@pytest.mark.parametrize("landscape", LANDSCAPES)
@few
@given(seed=seeds, difficulty=st.integers(min_value=1, max_value=5))
def test_same_state_same_map(seed: int, difficulty: int, landscape: str) -> None:
    d1 = Dice(RngState(seed=seed))
    d2 = Dice(RngState(seed=seed))
    assert generate_map(d1, difficulty, landscape) == generate_map(d2, difficulty, landscape)
    assert d1.state() == d2.state()


@few
@given(seed=seeds)
def test_draws_only_from_the_map_stream(seed: int) -> None:
    start = RngState(seed=seed, counters=(("combat", 3),))
    dice = Dice(start)
    generate_map(dice, 3, LANDSCAPES[0])
    after = dice.state()
    assert after.counter("combat") == 3
    assert after.counter(MAP) > 0
    assert {name for name, _ in after.counters} == {"combat", MAP}


def test_continuing_from_an_advanced_state_changes_the_map() -> None:
    dice = Dice(RngState(seed=7))
    first = generate_map(dice, 3, "habitable")
    second = generate_map(dice, 3, "habitable")
    assert first != second


@pytest.mark.parametrize("landscape", LANDSCAPES)
@few
@given(a=seeds, b=seeds)
def test_different_seeds_different_maps(a: int, b: int, landscape: str) -> None:
    if a == b or not any(CAT.landscape(landscape).share(t) for t in PLACED):
        return
    for difficulty in (1, 5):
        assert make(a, difficulty, landscape) != make(b, difficulty, landscape)


# --- BattleMap ------------------------------------------------------------------------------


@pytest.mark.parametrize("landscape", LANDSCAPES)
@few
@given(seed=seeds, difficulty=st.integers(min_value=1, max_value=5))
def test_rows_round_trip(seed: int, difficulty: int, landscape: str) -> None:
    m = make(seed, difficulty, landscape)
    rows = m.to_rows()
    assert len(rows) == m.height
    assert all(len(row) == m.width for row in rows)
    assert BattleMap.from_rows(rows) == m


def test_from_rows_hand_built_map() -> None:
    g = {tid: t.glyph for tid, t in CAT.terrain.items()}
    rows = [
        g["open"] * 2 + g["forest"] + g["rocks"] + g["open"] * 2,
        g["open"] * 2 + g["rough"] + g["sand"] + g["open"] * 2,
    ]
    m = BattleMap.from_rows(rows)
    assert (m.width, m.height) == (6, 2)
    assert m.terrain_at(from_offset(2, 0)) == "forest"
    assert m.terrain_at(from_offset(3, 0)) == "rocks"
    assert m.terrain_at(from_offset(2, 1)) == "rough"
    assert m.terrain_at(from_offset(3, 1)) == "sand"
    assert m.to_rows() == rows


@pytest.mark.parametrize(
    "rows",
    [[], [""], ["..", "..."], ["?."]],
    ids=["no-rows", "empty-row", "ragged", "unknown-glyph"],
)
def test_from_rows_rejects_bad_input(rows: list[str]) -> None:
    with pytest.raises(ValueError):
        BattleMap.from_rows(rows)


def test_battle_map_rejects_wrong_length() -> None:
    with pytest.raises(ValueError, match="terrain"):
        BattleMap(3, 2, ("open",) * 5)
    with pytest.raises(ValueError, match="terrain"):
        BattleMap(3, 2, ("open",) * 7)


def test_battle_map_rejects_unknown_terrain() -> None:
    with pytest.raises(ValueError, match="unknown"):
        BattleMap(2, 1, ("open", "lava"))


def test_terrain_at_matches_row_major_order() -> None:
    m = make(11, 3, "mining")
    assert [m.terrain_at(h) for h in m.grid.hexes()] == list(m.terrain)
    for h in m.grid.hexes():
        assert m.contains(h)
    for off in (Hex(-1, 0), Hex(0, -1), from_offset(m.width, 0), from_offset(0, m.height)):
        assert not m.contains(off)
        with pytest.raises(IndexError):
            m.terrain_at(off)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_deployment_zones(difficulty: int) -> None:
    m = make(1, difficulty, "station")
    player = m.deployment_hexes("player")
    enemy = m.deployment_hexes("enemy")
    assert [to_offset(h)[0] for h in player[:COLUMNS]] == list(range(COLUMNS))
    assert {to_offset(h)[0] for h in player} == set(range(COLUMNS))
    assert {to_offset(h)[0] for h in enemy} == set(range(m.width - COLUMNS, m.width))
    order = {h: i for i, h in enumerate(m.grid.hexes())}
    assert [order[h] for h in player] == sorted(order[h] for h in player)
    assert [order[h] for h in enemy] == sorted(order[h] for h in enemy)
    for h in m.grid.hexes():
        assert m.is_deployment(h, "player") == (h in player)
        assert m.is_deployment(h, "enemy") == (h in enemy)
    assert not m.is_deployment(Hex(-1, 0), "player")
    assert not m.is_deployment(from_offset(m.width, 0), "enemy")
    with pytest.raises(ValueError):
        m.deployment_hexes("neutral")  # type: ignore[arg-type]


def test_unknown_difficulty_or_landscape() -> None:
    with pytest.raises(ValueError):
        make(1, 0, "habitable")
    with pytest.raises(ValueError):
        make(1, 3, "swamp")
