"""The galaxy section: the star map, travel within a system, jumps, route plans, refusals."""

from __future__ import annotations

import itertools
from pathlib import Path

import attrs
import pytest
from rich.text import Text

from mac_tui.catalog import catalog
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.dayreport import DayReportScreen
from mac_tui.tui.screens.galaxy import GalaxySection
from mac_tui.tui.widgets.dialogs import ChooseScreen, ConfirmScreen
from mac_tui.tui.widgets.starmap import (
    DOTS,
    StarMap,
    bresenham,
    draw_map,
    faction_colour,
    faction_marker,
    nearest_in_direction,
    place_systems,
)

NAMES = [s.name for s in catalog().galaxy.system]


# ---- the map, without a terminal -----------------------------------------------------------
def test_bresenham_runs_from_end_to_end_without_gaps() -> None:
    cells = bresenham((0, 0), (7, 3))
    assert cells[0] == (0, 0) and cells[-1] == (7, 3)
    for (x0, y0), (x1, y1) in itertools.pairwise(cells):
        assert max(abs(x1 - x0), abs(y1 - y0)) == 1


@pytest.mark.parametrize("size", [(50, 19), (78, 35), (100, 40)])
def test_every_system_is_named_in_full_and_no_name_overlaps_another(size: tuple[int, int]) -> None:
    width, height = size
    picture = draw_map(width, height, here="crossroads", selected="sol")
    text = "\n".join(line.plain for line in picture.lines)
    for name in NAMES:
        assert name in text
    assert all(len(line.plain) == width for line in picture.lines[:-1])  # the last: legend
    cells: set[tuple[int, int]] = {(p.col, p.row) for p in picture.placed.values()}
    for p in picture.placed.values():
        span = {(c, p.label_row) for c in range(p.label_col, p.label_col + len(p.label))}
        assert not span & cells
        cells |= span


@pytest.mark.parametrize("size", [(10, 4), (24, 8), (36, 12)])
def test_a_small_map_still_draws(size: tuple[int, int]) -> None:
    picture = draw_map(*size, here="crossroads", selected="crossroads", glyphs="ascii")
    assert len(picture.lines) == size[1]
    assert set(picture.hits.values()) == {s.id for s in catalog().galaxy.system}


def test_markers_carry_the_faction_letter_and_the_company_an_at_sign() -> None:
    picture = draw_map(50, 19, here="crossroads", selected="sol", glyphs="ascii")
    placed = place_systems(50, 18)
    grid = [line.plain for line in picture.lines]

    def marker(system: str) -> str:
        return grid[placed[system].row][placed[system].col]

    assert marker("crossroads") == "@"
    assert marker("sol") == "D"
    assert marker("avalon") == "C"
    assert marker("haven") == "O"
    assert marker("deadlight") == "-"
    assert "D DIR" in grid[-1] and "- contested" in grid[-1]  # the legend


def test_the_planned_route_is_drawn_with_heavier_dots() -> None:
    plain = draw_map(50, 19, here="crossroads", selected="sol", glyphs="ascii")
    planned = draw_map(
        50, 19, here="crossroads", selected="sol", route=("crossroads", "centauri_gate", "sol")
    )
    assert "*" not in "".join(line.plain for line in plain.lines)
    assert "•" in "".join(line.plain for line in planned.lines)


def cells_drawn_whole(
    width: int, height: int, here: str, selected: str, route: tuple[str, ...], dots: str
) -> list[list[tuple[str, str]]]:
    """The map's rows cell by cell, every cell drawn in the order the map's rules lay them
    (every route's dots, a planned route's dots, a name's blank cells, then the markers and
    names): what a picture drawn from its kept rows must show."""
    rows = height - 1
    placed = place_systems(width, rows)
    markers = {(p.col, p.row) for p in placed.values()}
    grid = [[(" ", "")] * width for _ in range(rows)]

    def way(a: str, b: str) -> list[tuple[int, int]]:
        pa, pb = placed[a], placed[b]
        return [c for c in bresenham((pa.col, pa.row), (pb.col, pb.row)) if c not in markers]

    dot, heavy = DOTS[dots]
    for r in catalog().galaxy.route:
        for c, row in way(r.a, r.b):
            grid[row][c] = (dot, "dim")
    planned = set(itertools.pairwise(route)) | {(b, a) for a, b in itertools.pairwise(route)}
    drawn_dim = {
        cell: [(r.a, r.b) for r in catalog().galaxy.route if cell in way(r.a, r.b)]
        for r0 in catalog().galaxy.route
        for cell in way(r0.a, r0.b)
    }
    for cell, pairs in drawn_dim.items():
        if pairs and all(pair in planned for pair in pairs):
            grid[cell[1]][cell[0]] = (" ", "")
    for a, b in itertools.pairwise(route):
        for c, row in way(a, b):
            grid[row][c] = (heavy, "bold yellow")
    for p in placed.values():
        for c in (p.label_col - 1, p.label_col + len(p.label)):
            if 0 <= c < width and (c, p.label_row) not in markers:
                grid[p.label_row][c] = (" ", "")
    for p in placed.values():
        faction = catalog().systems[p.system].faction
        colour = faction_colour(faction)
        mark = "@" if p.system == here else faction_marker(faction)
        grid[p.row][p.col] = (mark, f"bold {colour}" + (" reverse" if p.system == here else ""))
        style = colour
        if p.system == selected:
            style = f"bold reverse {colour}"
        elif p.system == here:
            style = f"bold underline {colour}"
        for i, ch in enumerate(p.label):
            grid[p.label_row][p.label_col + i] = (ch, style)
    return grid


def cells_of(line: Text) -> list[tuple[str, str]]:
    styles = [""] * len(line.plain)
    for span in line.spans:
        for i in range(span.start, span.end):
            styles[i] = str(span.style)
    return list(zip(line.plain, styles, strict=True))


def path(a: str, b: str) -> tuple[str, ...]:
    """The fewest jumps from a to b along the catalogue's routes."""
    paths = {a: (a,)}
    todo = [a]
    while todo:
        here = todo.pop(0)
        for other, _ in catalog().routes_from(here):
            if other not in paths:
                paths[other] = (*paths[here], other)
                todo.append(other)
    return paths[b]


@pytest.mark.parametrize(("size", "dots"), [((50, 19), "unicode"), ((78, 36), "ascii")])
def test_a_picture_drawn_from_kept_rows_shows_every_cell_as_one_drawn_whole(
    size: tuple[int, int], dots: str
) -> None:
    width, height = size
    systems = [s.id for s in catalog().galaxy.system]
    for here, selected in itertools.product(systems, systems):
        route = path(here, selected) if here != selected else ()
        picture = draw_map(width, height, here=here, selected=selected, route=route, glyphs=dots)
        whole = cells_drawn_whole(width, height, here, selected, route, dots)
        assert [cells_of(line) for line in picture.lines[:-1]] == whole, (here, selected)


def test_arrows_pick_the_nearest_system_that_way() -> None:
    assert nearest_in_direction("crossroads", 0, -1) == "sol"
    assert nearest_in_direction("sol", 1, 0) == "terra_nova"
    assert nearest_in_direction("forge", -1, 0) is None


# ---- the section, through the app ----------------------------------------------------------
async def open_galaxy(pilot) -> GalaxySection:  # type: ignore[no-untyped-def]
    await pilot.press("n", *"Iron", "enter")
    await pilot.press("ctrl+a", "ctrl+k", *"77", "enter")
    await pilot.pause()
    await pilot.press("5")
    await pilot.pause()
    section = pilot.app.screen.query_one(GalaxySection)
    assert section.display
    return section


async def click_system(pilot, system: str) -> None:  # type: ignore[no-untyped-def]
    starmap = pilot.app.screen.query_one(StarMap)
    placed = starmap.picture().placed[system]
    await pilot.click(StarMap, offset=(placed.col, placed.row))
    await pilot.pause()


def panel(section: GalaxySection) -> str:
    return str(section.query_one("#galaxy-panel").render())


def message(app: MacApp) -> str:
    return str(app.screen.query_one("#message").render())


def campaign(app: MacApp):  # type: ignore[no-untyped-def]
    assert app.session is not None and app.session.state.campaign is not None
    return app.session.state.campaign


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_map_shows_every_system(tmp_path: Path, size: tuple[int, int]) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=size) as pilot:
        section = await open_galaxy(pilot)
        starmap = section.query_one(StarMap)
        assert starmap.size.width >= (48 if size[0] == 80 else 70)
        text = section.map_text()
        for name in NAMES:
            assert name in text
        assert "Junction Station" in panel(section) and "Waypoint" in panel(section)
        assert "diff 1-4" in panel(section)


async def test_jump_from_crossroads_to_deadlight(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        section = await open_galaxy(pilot)
        for _ in range(4):  # Tab: the current system, then its neighbours
            await pilot.press("tab")
        await pilot.pause()
        assert section.selected == "deadlight"
        assert "Jump: 10 fuel, 2 days" in panel(section)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "10 fuel, 2 days" in app.screen.message
        await pilot.press("y")
        await pilot.pause()
        c = campaign(app)
        assert (c.place, c.fuel, c.day) == ("blackport", 40, 3)
        assert isinstance(app.screen, DayReportScreen)
        assert any("Arrived at Blackport" in line for line in app.screen.lines)
        await pilot.press("enter")
        await pilot.pause()
        assert "@ Deadlight" in panel(section)
        assert "@" in section.map_text()


async def test_travel_to_waypoint_within_crossroads(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        section = await open_galaxy(pilot)
        assert "t travel: 5 fuel, 1 day" in panel(section)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ChooseScreen)
        assert app.screen.options[0][0] == "waypoint"
        await pilot.press("enter")
        await pilot.pause()
        c = campaign(app)
        assert (c.place, c.fuel, c.day) == ("waypoint", 45, 2)
        assert isinstance(app.screen, DayReportScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert "@ Waypoint (here)" in panel(section)


async def test_a_jump_without_the_fuel_shows_why(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        section = await open_galaxy(pilot)
        assert app.session is not None
        state = app.session.state
        app.session.state = attrs.evolve(state, campaign=attrs.evolve(campaign(app), fuel=6))
        app.redraw()
        await click_system(pilot, "deadlight")
        assert section.selected == "deadlight"
        assert "needs 10 fuel" in panel(section)
        assert section.check_action("jump", ()) is None  # greyed out
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert "needs 10 fuel; the company holds 6" in message(app)
        assert campaign(app).place == "junction_station"


async def test_selecting_sol_shows_the_route_and_j_takes_its_first_jump(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        section = await open_galaxy(pilot)
        await click_system(pilot, "sol")
        text = panel(section)
        assert "Route: 30 fuel, 6 days" in text
        assert " Centauri Gate 15 fuel 3d\n Sol 15 fuel 3d" in text
        assert "j: jump to Centauri Gate" in text
        await pilot.press("enter")
        await pilot.pause()
        assert "2 jumps via Centauri Gate" in message(app)
        await pilot.press("j")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Centauri Gate (1 of 2 to Sol)" in app.screen.message
        await pilot.press("y")
        await pilot.pause()
        assert campaign(app).place == "gatekeeper_station"
        await pilot.press("enter")
        await pilot.pause()
        assert section.selected == "sol"
        assert "Jump: 15 fuel, 3 days" in panel(section)
