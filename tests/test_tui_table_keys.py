"""What keeps the hub's table keys cheap (issue 14's speed item; figures in `python -m
mac_tui.bench tui`, never timed here): a row cursor's lines kept by whether the cursor is on
their row, draw as a table with no cache; a cursor move lays nothing out unless the detail
lines take another height, and paints one frame; the footer shows the legality of the row
highlighted, reading the keys once per row; the sections' detail panes say the row."""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.geometry import Region
from textual.widgets import DataTable

from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.widgets.detail import DetailPane
from mac_tui.tui.widgets.footer import GameFooter
from mac_tui.tui.widgets.table import GameTable

from .terminal import afresh_in_a_terminal, played_on_a_terminal
from .terminal import cells as terminal_cells
from .test_tui_internals import _count_frames
from .test_tui_speed import TABLE_CACHES
from .wide import YEAR


def drawn(table: GameTable) -> list[list[Segment]]:
    return [list(strip) for strip in table.render_lines(Region(0, 0, *table.size))]


def afresh(table: GameTable) -> list[list[Segment]]:
    """Drawn by Textual's own `DataTable._render_line` with empty caches (the table's own
    put back after)."""
    kept = {name: getattr(table, name) for name in TABLE_CACHES}
    styles = table._styles_cache
    for name in TABLE_CACHES:
        setattr(table, name, LRUCache(1000))
    table._styles_cache = StylesCache()
    table._render_line = partial(DataTable._render_line, table)  # type: ignore[method-assign]
    try:
        return drawn(table)
    finally:
        del table._render_line
        table._styles_cache = styles
        for name, cache in kept.items():
            setattr(table, name, cache)


class Rows(App[None]):
    def compose(self) -> ComposeResult:
        table = GameTable(id="rows", cursor_type="row", zebra_stripes=True)
        table.add_columns("n", "square")
        table.add_rows([(str(i), str(i * i)) for i in range(40)])
        yield table


async def test_a_row_cursor_table_draws_from_kept_lines_what_it_draws_from_none() -> None:
    """Lines kept by whether the cursor and the hover are on their row (not where they are)
    are the lines a table with no cache draws: through cursor moves, pages, Home and End, a
    hover the mouse shows and a key hides; a line drawn before comes back as the same strip."""
    app = Rows()
    async with app.run_test(size=(30, 12)) as pilot:
        table = app.query_one(GameTable)
        table.focus()
        await pilot.pause()
        first = table.render_lines(Region(0, 0, *table.size))
        await pilot.press("down", "down", "up", "up")
        await pilot.pause()
        again = table.render_lines(Region(0, 0, *table.size))
        # the cursor is back on row 0: every line is the one drawn then, the very strip
        assert all(a is b for a, b in zip(first, again, strict=True))
        for key in ("down", "down", "pagedown", "end", "pageup", "up", "home", "pagedown"):
            await pilot.press(key)
            await pilot.pause()
            assert drawn(table) == afresh(table), key
        await pilot.hover(table, offset=(2, 3))  # the hover shows on a row
        await pilot.pause()
        assert table._show_hover_cursor
        assert drawn(table) == afresh(table)
        await pilot.press("down")  # a key hides it
        await pilot.pause()
        assert not table._show_hover_cursor
        assert drawn(table) == afresh(table)


def cells(app: App[Any]) -> list[list[tuple[str, object]]]:
    """The screen as Textual's compositor draws it whole: (character, style) per cell."""
    strips = app.screen._compositor.render_strips()
    return [
        [(seg.text[i], seg.style) for seg in strip for i in range(len(seg.text))]
        for strip in strips
    ]


def painted(frames: list[object]) -> set[tuple[int, int]]:
    """The cells the frames wrote to the terminal."""
    out: set[tuple[int, int]] = set()
    for frame in frames:
        if isinstance(frame, ChopsUpdate):
            out.update((y, x) for y, x1, x2 in frame.spans for x in range(x1, x2))
        else:
            assert isinstance(frame, LayoutUpdate)
            out.update((y, x) for y in frame.region.line_range for x in frame.region.column_range)
    return out


async def press_painting_all_it_changes(app: App[Any], pilot: Any, key: str) -> int:
    """Press `key`: every cell whose picture it changed is written by its frames (none is
    left as it was on the terminal); the number of frames."""
    before = cells(app)
    frames = _count_frames(app)
    await pilot.press(key)
    await pilot.pause()
    after = cells(app)
    changed = {
        (y, x)
        for y, (old, new) in enumerate(zip(before, after, strict=True))
        for x in range(max(len(old), len(new)))
        if old[x : x + 1] != new[x : x + 1]
    }
    assert changed <= painted(frames), (key, sorted(changed - painted(frames))[:5])
    return len(frames)


def year_app(folder: Path, *, hints: bool = False) -> MacApp:
    """The game opening a year of play (tests/wide.py), saved in `folder`."""
    path = folder / "year.json"
    shutil.copy(YEAR, path)
    return MacApp(saves=folder, settings=Settings(animation="off", hints=hints), load=path)


def laid_out_afresh(screen: Any) -> dict[Any, Any]:
    """The map of `screen` as Textual's layout of the whole screen builds it, every widget
    arranged afresh (no arrangement kept, `KeepsArrangements`' neither)."""
    from mac_tui.tui.internals import KeepsArrangements

    key = KeepsArrangements._arrangement_key
    KeepsArrangements._arrangement_key = lambda *_: None  # type: ignore[method-assign,assignment,return-value]
    try:
        for node in screen.walk_children(with_self=True):
            node._clear_arrangement_cache()
        whole, _ = screen._compositor._arrange_root(screen, screen.size, visible_only=False)
    finally:
        KeepsArrangements._arrangement_key = key  # type: ignore[method-assign]
    return whole  # type: ignore[no-any-return]


#: The detail pane of each section with a table cursor, and what it names of the row.
DETAILS = {"1": "#frame-detail", "2": "#pilot-detail", "3": "#market-detail"}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_hub_table_key_paints_one_frame_and_lays_out_only_for_a_new_height(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A year's hub: each table key (cursor, Home/End, pages) paints one frame; it lays the
    screen out only when the detail lines took another height (the table then another
    height), never a second time for the table's scrollbar, into the very map Textual's
    layout builds with every arrangement made afresh (`KeepsArrangements`); the detail names
    the row; every cell it changed is written."""
    app = year_app(tmp_path, hints=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        hub = app.screen
        assert isinstance(hub, HubScreen)
        reflows: list[object] = []
        reflow = hub._compositor.reflow

        def counted(*args: Any) -> Any:
            reflows.append(args)
            return reflow(*args)

        hub._compositor.reflow = counted  # type: ignore[method-assign]
        for section, selector in DETAILS.items():
            await pilot.press(section)
            await pilot.pause()
            shown = hub.current_section()
            assert shown is not None
            table = shown.query_one(GameTable)
            detail = hub.query_one(selector, DetailPane)
            for key in ("down", "down", "up", "end", "pageup", "home", "pagedown", "down"):
                height, laid, row = detail.size.height, len(reflows), table.cursor_row
                frames = await press_painting_all_it_changes(app, pilot, key)
                assert frames == (table.cursor_row != row), (section, key)
                assert len(reflows) - laid == (detail.size.height != height), (section, key)
                assert hub._compositor._full_map == laid_out_afresh(hub), (section, key)
                name = str(table.get_row_at(table.cursor_row)[0 if section != "3" else 1])
                assert name.split(" ")[-1] in str(detail.render()), (section, key, name)


async def test_the_hubs_footer_shows_the_legality_of_the_row_and_reads_it_once_a_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hub's footer token (the state, the settings, the section's own: its row...):
    after every table key the footer shows each key's legality as read afresh, and a row
    seen before with the same state is not read again."""
    app = year_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        hub = app.screen
        footer = hub.query_one(GameFooter)
        reads: list[object] = []
        fitted = footer.fitted

        def counted(width: int) -> Any:
            reads.append(hub.footer_token())  # type: ignore[attr-defined]
            return fitted(width)

        monkeypatch.setattr(footer, "fitted", counted)
        for section in "12367":
            await pilot.press(section)
            await pilot.pause()
            assert hub.footer_token() is not None  # type: ignore[attr-defined]
            for key in ("down", "down", "up", "end", "home", "down", "up", "down"):
                await pilot.press(key)
                await pilot.pause()
                shown = footer._shows  # the line drawn last
                assert shown is not None
                assert shown[1] == footer._signature(fitted(footer.size.width)), (section, key)
        assert reads
        assert all(a != b for n, a in enumerate(reads) for b in reads[:n])  # none read twice


async def test_the_markets_tab_shows_the_other_table_filled_again_only_after_a_change(
    tmp_path: Path,
) -> None:
    """A table per view: Tab shows the other one in one frame, filled from the state the
    first time and again only once the state changed (a day passed); each shows its view's
    rows and keeps its cursor."""
    from mac_tui.tui.screens.market import MarketSection

    app = year_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        market = app.screen.query_one(MarketSection)
        fills: list[str] = []
        fill = market._fill

        def counted() -> None:
            fills.append(market.market_view)
            fill()

        market._fill = counted  # type: ignore[method-assign]
        await pilot.press("down")
        for view in ("inventory", "stock", "inventory", "stock"):
            assert await press_painting_all_it_changes(app, pilot, "tab") == 1
            assert market.market_view == view
            table = market.table()
            assert table.display and app.screen.focused is table
            rows = market.stock if view == "stock" else market.inventory
            assert [str(table.get_row_at(n)[1]) for n in range(table.row_count)] == [
                r.name for r in rows
            ]
        assert fills == ["inventory"]  # the stock was filled as the section opened
        assert market.table().cursor_row == 1  # the stock's cursor where it was
        await pilot.press("d", "escape")  # a day passes: the state is new
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        assert fills == ["inventory", "stock", "inventory"]


async def test_the_finances_views_switch_in_one_frame_drawing_nothing_from_the_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """l, c and u show a view drawn from the state already: one frame writing every cell it
    changes, the state not drawn again, the chart's picture made once per size."""
    import mac_tui.tui.screens.finances as finances

    app = year_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("7")
        await pilot.pause()
        section = app.screen.query_one(finances.FinancesSection)
        redraws: list[str] = []
        charts: list[int] = []
        chart_lines = finances.chart_lines
        monkeypatch.setattr(section, "refresh_view", lambda: redraws.append(section.view))
        monkeypatch.setattr(finances, "chart_lines", lambda *a: charts.append(1) or chart_lines(*a))
        for key, view in (("c", "chart"), ("l", "ledger"), ("u", "upkeep"), ("c", "chart")):
            assert await press_painting_all_it_changes(app, pilot, key) == 1
            assert section.view == view
            focused = {"ledger": "#ledger", "chart": "#credit-chart", "upkeep": "#upkeep-table"}
            assert app.screen.focused is section.query_one(focused[view])
        assert redraws == [] and charts == [1]


async def test_the_pilot_sheet_is_built_once_and_opened_again_on_each_pilot(
    tmp_path: Path,
) -> None:
    """s opens the installed sheet again (no new screen) on the pilot highlighted now, in one
    frame that shows it as Textual draws it afresh (laid out anew when its text takes
    another number of rows: the veteran's); Esc brings the hub back in one frame; every cell
    either changes is written. The hub, hidden under the opaque sheet, is none of Textual's
    frame work meanwhile."""
    from copy import copy

    from mac_tui.tui.screens.pilot_sheet import PilotSheetScreen, sheet_lines

    from .wide import wide_session

    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(copy(wide_session()), tmp_path / "wide.json")
        app.show_game()
        await pilot.pause()
        await pilot.press("2", "end")
        await pilot.pause()
        await pilot.press("s", "escape")  # the sheet's first showing composes it
        await pilot.pause()
        table = app.screen.query_one("#pilots", GameTable)
        terminal = played_on_a_terminal(app)
        sheets: list[object] = []
        heights: list[int] = []
        for _ in range(5):  # the last pilots up, the veteran (injured) among them
            row = table.cursor_row
            assert await press_painting_all_it_changes(app, pilot, "s") == 1
            sheet = app.screen
            assert isinstance(sheet, PilotSheetScreen)
            assert terminal_cells(terminal) == terminal_cells(afresh_in_a_terminal(app)), row
            assert app._background_screens == []  # the hub hidden, not drawn behind
            assert not app.screen_stack[-2].is_current
            sheets.append(sheet)
            assert app.session is not None and app.session.state.campaign is not None
            c = app.session.state.campaign
            assert sheet.lines == sheet_lines(c, c.pilots[row])
            assert c.pilots[row].callsign in str(sheet.query_one("#sheet").render())
            heights.append(sheet.query_one("#sheet").size.height)
            assert await press_painting_all_it_changes(app, pilot, "escape") == 1
            assert isinstance(app.screen, HubScreen)
            assert terminal_cells(terminal) == terminal_cells(afresh_in_a_terminal(app)), row
            await pilot.press("up")
        assert all(s is sheets[0] for s in sheets)
        assert len(set(heights)) > 1, heights  # a sheet laid out anew among them


async def test_a_tables_scrollbar_draws_alike_lines_as_one_strip_as_textual_draws_them() -> None:
    """The table's vertical scrollbar (`KeptScrollBar`) gives its lines alike as one strip,
    and a picture drawn before (its thumb where it was) as the same lines: what it draws,
    page after page, is what Textual's scrollbar draws with no cache."""
    from textual.scrollbar import ScrollBar, ScrollBarRender
    from textual.strip import Strip
    from textual.widget import Widget

    from mac_tui.tui.internals import KeptScrollBar

    app = Rows()
    async with app.run_test(size=(30, 12)) as pilot:
        table = app.query_one(GameTable)
        table.focus()
        await pilot.pause()
        bar = table.vertical_scrollbar
        assert isinstance(bar, KeptScrollBar) and bar.display
        pictures: dict[object, list[Strip]] = {  # the thumb's place: the lines drawn there
            (bar.position, bar.window_size): bar.render_lines(Region(0, 0, *bar.size))
        }
        drawn_bars: list[object] = []
        draw = ScrollBarRender.__rich_console__
        ScrollBarRender.__rich_console__ = (  # type: ignore[method-assign]
            lambda bar, *a: (drawn_bars.append(bar), draw(bar, *a))[1]
        )
        try:
            for key in ("pagedown", "pagedown", "end", "pageup", "home", "end", "home", "down"):
                drawn_bars.clear()
                await pilot.press(key)
                await pilot.pause()
                region = Region(0, 0, *bar.size)
                kept = bar.render_lines(region)
                track = [line for line in kept if line is kept[-1]]
                assert len(track) > 1  # the track's lines: one strip, styled once
                place = (bar.position, bar.window_size)
                if place in pictures:  # drawn before: the same lines, not drawn again
                    assert all(a is b for a, b in zip(pictures[place], kept, strict=True))
                    assert drawn_bars == [], key
                else:
                    assert drawn_bars, key
                pictures[place] = kept
                styles = bar._styles_cache
                bar._styles_cache = StylesCache()
                bar.render_line = partial(Widget.render_line, bar)  # type: ignore[method-assign]
                bar._render_content = partial(Widget._render_content, bar)  # type: ignore[method-assign]
                bar._set_dirty()
                try:
                    afresh = bar.render_lines(region)
                finally:
                    del bar.render_line, bar._render_content
                    bar._styles_cache = styles
                    bar._set_dirty()
                assert [list(a) for a in kept] == [list(b) for b in afresh], key
        finally:
            ScrollBarRender.__rich_console__ = draw  # type: ignore[method-assign]
        assert isinstance(bar, ScrollBar)


# ---- tab14: lines kept through a new height and a view switch ---------------------------------
class Grows(App[None]):
    """A game table under a head whose height changes: the table takes another height."""

    CSS = """
    #head { height: 1; }
    #head.tall { height: 4; }
    GameTable { height: 1fr; }
    """

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        from textual.widgets import Static

        yield Static("head", id="head")
        yield GameTable(id="rows", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(GameTable)
        table.add_columns("n", "square")
        table.add_rows([(str(i), str(i * i)) for i in range(self.rows)])


@pytest.mark.parametrize("rows", [6, 10, 40])
async def test_a_table_given_another_height_draws_as_with_no_cache_drawing_only_new_lines(
    rows: int,
) -> None:
    """A layout that gives the table only another height (its head taller, then shorter),
    through cursor keys and scrolls: what it draws is what a table with no cache draws. Rows
    that fit either way: a taller table draws at most its new lines, a shorter one none; a
    scrollbar that comes or goes (10 rows) or a scroll the new height moves (40, at the end)
    draws it whole (or as a page it drew before)."""
    app = Grows(rows)
    async with app.run_test(size=(30, 14)) as pilot:
        table = app.query_one(GameTable)
        table.focus()
        await pilot.pause()
        head = app.query_one("#head")
        drew: list[int] = []
        render_line = table.render_line

        def noted(y: int) -> Any:
            drew.append(y)
            return render_line(y)

        table.render_line = noted  # type: ignore[method-assign]
        for step in ("tall", "tall", "down", "tall", "end", "tall", "tall", "home", "tall"):
            height = table.size.height
            drew.clear()
            if step == "tall":
                head.toggle_class("tall")
            else:
                await pilot.press(step)
            await pilot.pause()
            new = sorted(set(drew))  # the lines the frame drew anew
            assert drawn(table) == afresh(table), step
            if step == "tall" and rows == 6:  # (a page seen before draws none: `KeepsPages`)
                assert set(new) <= set(range(height, table.size.height)), new


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_view_brought_back_draws_its_kept_lines_as_with_no_cache(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The finances' views and the market's two tables: a table brought back unchanged draws
    none of its lines again (they were kept while it was parked), and what it shows is what
    a table with no cache draws; each key writes every cell it changes, in one frame."""
    app = year_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        seen: set[object] = set()  # the tables shown before
        for section, keys in (("7", "culcul"), ("3", ("tab",) * 4)):
            await pilot.press(section)
            await pilot.pause()
            seen.add(app.screen.focused)
            drew: list[int] = []
            for key in keys:
                shown = app.screen.focused
                drew.clear()
                for table in app.screen.query(GameTable):
                    table.render_line = (  # type: ignore[method-assign]
                        lambda y, t=table, d=drew: (d.append(y), type(t).render_line(t, y))[1]
                    )
                assert await press_painting_all_it_changes(app, pilot, key) == 1
                for table in app.screen.query(GameTable):
                    del table.render_line
                new = list(drew)
                table = app.screen.focused
                assert table is not shown
                if isinstance(table, GameTable):
                    assert drawn(table) == afresh(table), (section, key)
                    if table in seen:
                        assert new == [], (section, key)
                seen.add(table)


async def test_home_and_end_land_where_textuals_move_cursor_lands() -> None:
    """Home and End (which skip Textual's scroll of the row the cursor leaves) end with the
    cursor and the scroll where `DataTable.move_cursor` puts them, from any row, any scroll
    (the row left in view or not) and either height of the table."""
    from textual.coordinate import Coordinate

    app = Grows(40)
    async with app.run_test(size=(30, 14)) as pilot:
        table = app.query_one(GameTable)
        table.focus()
        await pilot.pause()
        head = app.query_one("#head")

        async def place(row: int, scroll: int, tall: bool) -> None:
            head.set_class(tall, "tall")
            await pilot.pause()
            table.cursor_coordinate = Coordinate(row, 0)
            await pilot.pause()
            table.scroll_to(y=scroll, animate=False, immediate=True)
            await pilot.pause()

        for tall in (False, True):
            for row in (0, 5, 39):
                for scroll in (0, 20, 40):
                    for key, to in (("home", 0), ("end", 39)):
                        await place(row, scroll, tall)
                        await pilot.press(key)
                        await pilot.pause()
                        ours = (table.cursor_coordinate, table.scroll_offset)
                        await place(row, scroll, tall)
                        DataTable.move_cursor(table, row=to)
                        await pilot.pause()
                        theirs = (table.cursor_coordinate, table.scroll_offset)
                        assert ours == theirs, (tall, row, scroll, key)
                        assert drawn(table) == afresh(table)


class AltRows(Rows):
    CSS = "GameTable.alt > .datatable--cursor { background: red; }"


async def test_a_page_shown_again_is_the_lines_given_then_and_a_change_draws_anew() -> None:
    """`KeepsPages`: End and Home again give back the lines of the pages drawn before (no
    line drawn anew), what a table with no cache draws; a changed cell, a new theme, the
    cursor's colours alone (a class) and a hover shown draw the page anew, right."""
    from textual.coordinate import Coordinate

    app = AltRows()
    async with app.run_test(size=(30, 12)) as pilot:
        table = app.query_one(GameTable)
        table.focus()
        await pilot.pause()
        drew: list[int] = []
        render_line = table.render_line
        table.render_line = lambda y: (drew.append(y), render_line(y))[1]  # type: ignore[method-assign]

        async def step(change: Any) -> list[int]:
            drew.clear()
            await change()
            await pilot.pause()
            new = list(drew)
            assert drawn(table) == afresh(table)
            return new

        async def end() -> None:
            await pilot.press("end")

        async def home() -> None:
            await pilot.press("home")

        async def cell() -> None:
            table.update_cell_at(Coordinate(0, 1), "changed")

        async def theme() -> None:
            app.theme = "textual-light" if app.theme != "textual-light" else "nord"

        async def hover() -> None:
            await pilot.hover(table, offset=(2, 3))

        async def cursor_colour() -> None:
            table.toggle_class("alt")

        for change in (end, home, end, home):
            await step(change)
        assert await step(end) == [] and await step(home) == []  # pages seen before
        assert await step(cell) != []
        assert await step(theme) != []
        assert await step(cursor_colour) != []
        assert await step(hover) != []
        assert await step(end) != []  # the hover's page is another


class Noting(App[None]):
    """Rows highlighted in a game table, one with a handler of its own, and Textual's table,
    each in a container that notes what reaches it."""

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        for table in (
            GameTable(id="game", cursor_type="row"),
            OwnHandler(id="own", cursor_type="row"),
            DataTable(id="theirs", cursor_type="row"),
        ):
            with Vertical():
                yield table

    def on_mount(self) -> None:
        self.noted: list[tuple[str | None, str | None, int, object]] = []
        for table in self.query(DataTable):
            table.add_columns("n")
            table.add_rows([(str(i),) for i in range(9)])

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        parent = event.control.parent
        assert parent is not None
        self.noted.append((event.control.id, parent.id, event.cursor_row, event.row_key.value))


class OwnHandler(GameTable):
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        assert self.app is not None
        self.app.noted.append((self.id, "itself", event.cursor_row, event.row_key.value))  # type: ignore[attr-defined]


async def test_a_row_highlighted_reaches_the_tables_ancestors_as_textuals_does() -> None:
    """`BubblesAtOnce`: a game table's RowHighlighted, handed to its parent at once (not
    queued on the table), reaches the handlers above it as Textual's table's does (the same
    rows and keys), and one of the table's own as well (then it goes Textual's way); a
    prevented one reaches nobody."""
    app = Noting()
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        reached: dict[str, list[object]] = {}
        for name in ("game", "own", "theirs"):
            table = app.query_one(f"#{name}", DataTable)
            app.noted.clear()
            queued: list[type] = []
            queue = table._message_queue
            put = queue.put_nowait
            queue.put_nowait = lambda m, p=put, q=queued: (q.append(type(m)), p(m))[1]  # type: ignore[method-assign]
            table.move_cursor(row=3)
            await pilot.pause()
            table.move_cursor(row=8)
            await pilot.pause()
            with table.prevent(DataTable.RowHighlighted):
                table.move_cursor(row=5)
            await pilot.pause()
            del queue.put_nowait
            reached[name] = [(row, key) for _, where, row, key in app.noted if where != "itself"]
            # the game table's went to the container at once, not through its own queue
            assert (DataTable.RowHighlighted in queued) == (name != "game"), name
            if name == "own":
                assert [n[1] for n in app.noted].count("itself") == 2
        assert len(reached["theirs"]) == 2
        assert reached["game"] == reached["own"] == reached["theirs"]
