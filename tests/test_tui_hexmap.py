"""The battle hex map widget: geometry, drawing, keys, mouse, and line-only repaints."""

from __future__ import annotations

import functools

import attrs
import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region

from mac_tui.catalog import catalog
from mac_tui.combat.mapgen import BattleMap
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle
from mac_tui.hexgrid import Hex, from_offset, to_offset
from mac_tui.tui.battle_words import hex_name
from mac_tui.tui.widgets.hex_picture import GUTTER, MARKS, TOP, Painter, Scene
from mac_tui.tui.widgets.hexmap import HexMap, Overlay, legend


@functools.cache
def base_battle() -> Battle:
    """The largest map (20x14) with its four frames, not deployed yet."""
    state = make_state(1, 5)
    assert state.battle is not None
    assert (state.battle.map.width, state.battle.map.height) == (20, 14)
    return state.battle


def off(col: int, row: int) -> Hex:
    return from_offset(col, row)


def tiny_battle() -> Battle:
    """A 4x3 hand-made map: the player's medium P1 (EN-50) on offset (1, 0), the enemy's
    assault E2 (TN-85) on (2, 2), and a wreck (destroyed enemy E1) on (3, 1)."""
    b = base_battle()
    player = next(u for u in b.units if u.side == "player")
    enemy = next(u for u in b.units if u.side == "enemy")
    p1 = attrs.evolve(player, id="P1", chassis="EN-50", pos=off(1, 0))
    e2 = attrs.evolve(enemy, id="E2", chassis="TN-85", pos=off(2, 2))
    e1 = attrs.evolve(enemy, id="E1", chassis="BR-70", pos=off(3, 1), destroyed=True)
    bmap = BattleMap.from_rows(["..T^", "%.:.", "...."])
    return attrs.evolve(b, map=bmap, units=(p1, e2, e1))


def big_battle() -> Battle:
    """The 20x14 map with a player frame on (0, 0) and an enemy one on (19, 13)."""
    b = base_battle()
    player = next(u for u in b.units if u.side == "player")
    enemy = next(u for u in b.units if u.side == "enemy")
    return attrs.evolve(
        b,
        units=(
            attrs.evolve(player, id="P1", pos=off(0, 0)),
            attrs.evolve(enemy, id="E1", pos=off(19, 13)),
        ),
    )


class Host(App[None]):
    """A bare host: the map alone, filling the screen, recording its messages."""

    CSS = "HexMap { width: 1fr; height: 1fr; }"

    def __init__(self, battle: Battle, *, ascii_glyphs: bool = True, **show: object) -> None:
        super().__init__()
        self.battle = battle
        self.ascii_glyphs = ascii_glyphs
        self.show_args = show
        self.moved: list[Hex] = []
        self.picked: list[Hex] = []

    def compose(self) -> ComposeResult:
        yield HexMap(ascii_glyphs=self.ascii_glyphs)

    def on_mount(self) -> None:
        hexmap = self.query_one(HexMap)
        hexmap.show(self.battle, **self.show_args)  # type: ignore[arg-type]
        hexmap.focus()

    def on_hex_map_cursor_moved(self, event: HexMap.CursorMoved) -> None:
        assert event.control is self.query_one(HexMap)
        self.moved.append(event.hex)

    def on_hex_map_picked(self, event: HexMap.Picked) -> None:
        assert event.map is self.query_one(HexMap)
        self.picked.append(event.hex)


def drawn_lines(hexmap: HexMap) -> list[str]:
    """What the widget's render_line gives, as text, right-trimmed, the ruler included."""
    return [hexmap.render_line(y).text.rstrip() for y in range(len(hexmap.text().splitlines()))]


def drawn(hexmap: HexMap) -> list[str]:
    """The map's lines without its ruler (the letters on top, the numbers on the left)."""
    return [line[GUTTER:].rstrip() for line in drawn_lines(hexmap)[TOP:]]


# ---- geometry, without a terminal ---------------------------------------------------------
@pytest.mark.parametrize(
    ("layout", "cells", "size"),
    [("compact", (2, 1), (41, 14)), ("roomy", (4, 2), (82, 28))],
)
def test_every_hex_of_the_largest_map_round_trips_through_its_cells(
    layout: str, cells: tuple[int, int], size: tuple[int, int]
) -> None:
    hexmap = HexMap(layout_mode=layout)  # type: ignore[arg-type]
    hexmap.show(big_battle())
    assert hexmap.map_layout == layout
    cw, lines = cells
    owner: dict[tuple[int, int], Hex] = {}
    for h in big_battle().map.grid.hexes():
        x, y = hexmap.cell_of(h)
        col, row = to_offset(h)
        # hand-written placement: odd rows are shifted right by half a hex; the ruler's
        # gutter on the left and its line on top come first
        assert (x, y) == (GUTTER + cw * col + (cw // 2 if row % 2 else 0), TOP + lines * row)
        for dx in range(cw):
            for dy in range(lines):
                assert hexmap.hex_at(x + dx, y + dy) == h
                owner[(x + dx, y + dy)] = h
    width, height = size
    assert max(x for x, _ in owner) == GUTTER + width - 1
    assert max(y for _, y in owner) == TOP + height - 1
    assert hexmap.hex_at(0, TOP) is None and hexmap.hex_at(GUTTER, 0) is None  # the ruler
    # every other cell of the drawing, and everything beside it, is off the map
    for x in range(-1, width + 3):
        for y in range(-1, height + 3):
            if (x, y) not in owner:
                assert hexmap.hex_at(x, y) is None, (x, y)


def test_the_first_show_keeps_a_cursor_set_before_it() -> None:
    hexmap = HexMap()
    hexmap.set_cursor(off(3, 3))
    hexmap.show(big_battle(), active="E1")
    assert hexmap.cursor == off(3, 3)
    hexmap = HexMap()
    hexmap.set_cursor(off(25, 3))  # not on the map: the active frame's hex instead
    hexmap.show(big_battle(), active="E1")
    assert hexmap.cursor == off(19, 13)
    hexmap = HexMap()
    hexmap.show(big_battle())  # no active frame, no zone: the centre
    assert hexmap.cursor == off(10, 7)


def test_the_legend_names_every_glyph_and_the_frame_letters() -> None:
    assert legend(True) == (
        ". open  T forest  ^ rocks  % rough  : sand  M1 yours  m1 enemy  Mx out  = deploy zone"
    )
    assert legend(False).startswith("· open  ♣ forest  ▲ rocks  ≈ rough  ∴ sand")
    assert "M× out" in legend(False) and "= deploy zone" in legend(False)
    assert "* path" in legend(True, marks=True)


def test_the_deployment_mark_is_no_terrain_glyph_in_either_form() -> None:
    terrain = catalog().terrain.values()
    for form in (0, 1):
        glyphs = {t.unicode if form else t.glyph for t in terrain}
        assert MARKS["zone"][form] not in glyphs
        assert len({MARKS[k][form] for k in ("zone", "reach", "path", "los")}) == 4


# ---- drawing -------------------------------------------------------------------------------
async def test_the_compact_drawing_of_a_tiny_map() -> None:
    overlay = Overlay(
        zone=frozenset({off(0, 0), off(0, 1)}),
        path=(off(1, 0), off(1, 1), off(1, 2)),
        reach=frozenset({off(0, 2)}),
    )
    app = Host(tiny_battle(), active="P1", overlay=overlay)
    async with app.run_test(size=(19, 5)) as pilot:  # roomy would need 20 x 7
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert hexmap.map_layout == "compact"
        hexmap.set_cursor(off(3, 2))
        await pilot.pause()
        assert drawn(hexmap) == [
            ".=M1T ^",  # zone mark on (0,0); P1 yours, uppercase; forest; rocks
            " %=.*: .x",  # zone on rough (0,1); path on (1,1); sand; the wreck of E1 on open
            ".+.*a2.",  # reach; the path goes on; E2, the enemy's assault, lowercase; cursor
        ]
        strip = hexmap.render_line(TOP)
        segments = {seg.text: seg.style for seg in strip}
        player = segments["M1"]
        assert player is not None and player.bold and player.underline  # active
        cursor = [seg for seg in hexmap.render_line(TOP + 2) if seg.style and seg.style.reverse]
        # the cursor's hex, and its row number in the ruler
        assert [seg.text for seg in cursor] == [" 3", ". "]
        ruler = [seg for seg in hexmap.render_line(0) if seg.style and seg.style.reverse]
        assert [seg.text for seg in ruler] == ["D"]  # and its column letter
        assert drawn_lines(hexmap)[0] == "  A B C D"
        assert app.moved[-1] == off(3, 2)


async def test_the_roomy_drawing_brackets_targets_and_doubles_the_marks() -> None:
    overlay = Overlay(
        targets=frozenset({off(2, 2)}), path=(off(1, 0), off(1, 1)), reach=frozenset({off(0, 2)})
    )
    app = Host(tiny_battle(), active="P1", overlay=overlay)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert hexmap.map_layout == "roomy"  # 4x3 needs 18x6
        assert drawn(hexmap)[:6] == [
            " ..  M1  TT  ^^",
            " ..  ..  TT  ^^",  # under a frame: its terrain
            "   %%  ..  ::  ..",
            "   %%  **  ::  xx",
            " ..  .. [a2] ..",
            " ++  ..  ..  ..",
        ]
        hexmap.show(tiny_battle(), active="P1", overlay=attrs.evolve(overlay, target=off(2, 2)))
        await pilot.pause()
        assert drawn(hexmap)[4] == " ..  .. >a2< .."


@pytest.mark.parametrize(("size", "layout"), [((80, 24), "compact"), ((120, 40), "roomy")])
async def test_the_layout_follows_the_size(size: tuple[int, int], layout: str) -> None:
    app = Host(big_battle())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert hexmap.map_layout == layout
        lines = drawn(hexmap)
        assert len(lines) == {"compact": 14, "roomy": 28}[layout]
        assert max(len(line) for line in lines) <= {"compact": 41, "roomy": 82}[layout]
        assert len(drawn_lines(hexmap)) == len(lines) + TOP


async def test_width_auto_gets_the_compact_size() -> None:
    class AutoHost(Host):
        CSS = "HexMap { width: auto; height: auto; }"

    app = AutoHost(big_battle())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert (hexmap.size.width, hexmap.size.height) == (GUTTER + 41, TOP + 14)
        assert hexmap.map_layout == "compact"


async def test_ascii_mode_draws_only_ascii() -> None:
    overlay = Overlay(
        zone=frozenset({off(0, 0)}),
        reach=frozenset({off(0, 2)}),
        path=(off(1, 1),),
        los=(off(2, 1), off(3, 2)),
        los_penalty=frozenset({off(3, 2)}),
        targets=frozenset({off(2, 2)}),
        target=off(2, 2),
    )
    app = Host(tiny_battle(), ascii_glyphs=False, active="P1", overlay=overlay)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        for layout in ("compact", "roomy"):
            hexmap.layout_mode = layout
            hexmap.ascii_glyphs = False
            await pilot.pause()
            assert not "".join(drawn(hexmap)).isascii()  # the unicode glyphs are in use
            hexmap.ascii_glyphs = True
            await pilot.pause()
            text = "".join(drawn(hexmap))
            assert text.isascii(), text
            assert all(ch in text for ch in ".T^%*-!x+=")


# ---- repaints --------------------------------------------------------------------------------
async def test_a_cursor_move_repaints_only_its_two_lines() -> None:
    app = Host(big_battle(), overlay=Overlay(reach=frozenset({off(1, 1), off(2, 2)})))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        hexmap.set_cursor(off(5, 4))
        await pilot.pause()
        lines = TOP + 14
        for y in range(lines):
            hexmap.render_line(y)
        before = {y: hexmap.render_line(y) for y in range(lines)}
        regions: list[Region] = []
        original = hexmap.refresh

        def recording(*args: Region, **kwargs: bool) -> HexMap:
            regions.extend(args)
            return original(*args, **kwargs)

        hexmap.refresh = recording  # type: ignore[method-assign]
        await pilot.press("down")  # offset (5, 4) -> (5, 5): rows 4 and 5, same column
        assert hexmap.cursor == off(5, 5)
        assert sorted(r.y for r in regions) == [TOP + 4, TOP + 5]
        assert all(r.height == 1 for r in regions)
        after = {y: hexmap.render_line(y) for y in range(lines)}
        assert [y for y in range(lines) if after[y] is not before[y]] == [TOP + 4, TOP + 5]
        # another column: the ruler's letters too
        regions.clear()
        await pilot.press("right")
        assert sorted(r.y for r in regions) == [0, TOP + 5]
        # a new overlay repaints the lines it touches, and only those
        regions.clear()
        hexmap.show(big_battle(), overlay=Overlay(reach=frozenset({off(1, 1), off(9, 9)})))
        assert sorted(r.y for r in regions) == [TOP + 2, TOP + 9]


async def test_a_map_drawn_from_kept_rows_shows_what_one_drawn_anew_shows() -> None:
    """Overlays shown again, the cursor and the hover moving among them: every line of the map
    is the line a new scene of the battle, painted whole, has there."""
    battle = big_battle()
    overlays = (
        Overlay(),
        Overlay(reach=frozenset(off(c, r) for c in range(4) for r in range(5))),
        Overlay(
            targets=frozenset({off(19, 13)}),
            target=off(19, 13),
            los=(off(5, 4), off(10, 8)),
            los_penalty=frozenset({off(10, 8)}),
        ),
        Overlay(path=(off(1, 0), off(2, 1), off(3, 1))),
    )
    cursors = (off(0, 0), off(3, 1), off(19, 13), off(10, 8))
    app = Host(battle, ascii_glyphs=False, active="P1")
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert hexmap.map_layout == "roomy"
        for step in range(24):
            overlay = overlays[step % len(overlays)]
            cursor = cursors[step * 3 % len(cursors)]
            with hexmap.held():  # as a battle key shows them
                hexmap.show(battle, active="P1", overlay=overlay)
                hexmap.set_cursor(cursor)
            if step % 5 == 0:
                hexmap._set_hover(off(step % 20, 3))
            scene = Scene.of(battle, "P1", overlay)
            painter = Painter(ascii_glyphs=False)
            layout = hexmap.map_layout
            anew = [painter.ruler_line(scene, layout, hexmap.cursor)] + [
                line
                for row in range(14)
                for line in painter.row_lines(scene, row, layout, hexmap.cursor, hexmap.hover)
            ]
            assert hexmap._sigs == anew, step
            await pilot.pause()


# ---- keys and mouse ----------------------------------------------------------------------------
KEY_MOVES = [
    # (start offset, key, end offset): odd rows are drawn half a hex to the right
    ((2, 2), "right", (3, 2)),
    ((2, 2), "l", (3, 2)),
    ((2, 2), "left", (1, 2)),
    ((2, 2), "h", (1, 2)),
    ((2, 2), "y", (1, 1)),  # north-west from an even row
    ((2, 2), "u", (2, 1)),  # north-east
    ((2, 2), "b", (1, 3)),  # south-west
    ((2, 2), "n", (2, 3)),  # south-east
    ((2, 1), "y", (2, 0)),  # from an odd row
    ((2, 1), "u", (3, 0)),
    ((2, 1), "b", (2, 2)),
    ((2, 1), "n", (3, 2)),
    ((2, 2), "up", (2, 1)),  # up/down from an even row: the right-hand neighbour
    ((2, 2), "k", (2, 1)),
    ((2, 1), "up", (2, 0)),  # from an odd row: the left-hand one, back over the column
    ((2, 2), "down", (2, 3)),
    ((2, 3), "j", (2, 4)),
    ((0, 0), "left", (0, 0)),  # off the map: ignored
    ((0, 0), "up", (0, 0)),
    ((19, 1), "right", (19, 1)),
    ((19, 13), "n", (19, 13)),
]


async def test_keys_move_the_cursor() -> None:
    app = Host(big_battle())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        for start, key, end in KEY_MOVES:
            hexmap.set_cursor(off(*start))
            await pilot.pause()
            app.moved.clear()
            await pilot.press(key)
            assert to_offset(hexmap.cursor) == end, (start, key)
            assert app.moved == ([] if start == end else [off(*end)])
        await pilot.press("up", "up", "up", "up")  # from (19, 13): zigzag up the last column
        assert [to_offset(h) for h in app.moved] == [(19, 12), (19, 11), (19, 10), (19, 9)]
        await pilot.press("enter")
        assert app.picked == [off(19, 9)]


async def test_a_click_moves_the_cursor_and_a_second_click_picks() -> None:
    app = Host(big_battle())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        app.moved.clear()
        at = (GUTTER, TOP)  # the map starts after the ruler
        await pilot.click(HexMap, offset=(at[0] + 7, at[1] + 1))  # the first cell of (3, 1)
        assert hexmap.cursor == off(3, 1) and app.moved == [off(3, 1)]
        assert app.picked == []
        await pilot.click(HexMap, offset=(at[0] + 8, at[1] + 1))  # its second cell
        assert app.picked == [off(3, 1)]
        await pilot.click(HexMap, offset=(at[0], at[1] + 1))  # left of an odd row: nothing
        assert hexmap.cursor == off(3, 1) and app.moved == [off(3, 1)]
        await pilot.click(HexMap, offset=(0, at[1]))  # the ruler: nothing
        assert hexmap.cursor == off(3, 1)
        await pilot.hover(HexMap, offset=(at[0] + 4, at[1] + 2))  # hovering moves nothing
        assert hexmap.hover == off(2, 2) and hexmap.cursor == off(3, 1)


# ---- the ruler, frames out of the fight, the keypad -------------------------------------------
@pytest.mark.parametrize("layout", ["compact", "roomy"])
def test_the_ruler_names_every_hex_as_the_log_and_panels_do(layout: str) -> None:
    """The letter above a hex's column and the number beside its row spell `hex_name`."""
    hexmap = HexMap(layout_mode=layout)  # type: ignore[arg-type]
    hexmap.show(big_battle())
    lines = hexmap.text().splitlines()
    letters = lines[0]
    for h in big_battle().map.grid.hexes():
        _, y = hexmap.cell_of(h)
        col = to_offset(h)[0]
        # the column's letter sits over the even rows' hexes of that column
        even_x = hexmap.cell_of(from_offset(col, 0))[0]
        at = even_x + (2 if layout == "roomy" else 0)
        name = letters[at : at + 1]
        number = lines[y][:GUTTER].strip()
        assert f"{name}{number}" == hex_name(h), (h, name, number)
    assert hex_name(off(0, 0)) == "A1" and hex_name(off(19, 13)) == "T14"


async def test_a_frame_out_with_its_pilot_dead_is_marked_out() -> None:
    b = tiny_battle()
    dead = attrs.evolve(b.unit("E2"), pilot_alive=False)
    app = Host(b.with_unit(dead), active="P1")
    async with app.run_test(size=(19, 5)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert drawn(hexmap)[2] == ". . ax."  # its class letter, then the out mark
        out = [seg for seg in hexmap.render_line(TOP + 2) if seg.text == "ax"]
        assert out and out[0].style is not None and out[0].style.strike
        hexmap.layout_mode = "roomy"
        hexmap.ascii_glyphs = False
        await pilot.pause()
        assert drawn(hexmap)[4:6] == [" ··  ··  a2  ··", " ··  ··  ××  ··"]  # ×× under it


async def test_the_keypad_steps_the_cursor_in_the_hex_directions() -> None:
    app = Host(big_battle())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        # Num Lock off: Home PgUp End PgDn are the diagonals; on: the digits.
        for key, end in (
            ("home", (1, 1)),
            ("pageup", (2, 1)),
            ("end", (1, 3)),
            ("pagedown", (2, 3)),
            ("7", (1, 1)),
            ("9", (2, 1)),
            ("1", (1, 3)),
            ("3", (2, 3)),
            ("4", (1, 2)),
            ("6", (3, 2)),
            ("8", (2, 1)),
            ("2", (2, 3)),
        ):
            hexmap.set_cursor(off(2, 2))
            await pilot.pause()
            await pilot.press(key)
            assert to_offset(hexmap.cursor) == end, key
        hexmap.numpad_digits = False  # the digits mean something else (a weapon group)
        hexmap.set_cursor(off(2, 2))
        await pilot.press("7")
        assert to_offset(hexmap.cursor) == (2, 2)
