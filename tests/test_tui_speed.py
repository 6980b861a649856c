"""What keeps key presses cheap (issue 14's speed item; figures in `python -m mac_tui.bench
tui`, never timed here): collections wait for a pause, a table restyled for focus from its
kept rules looks as one matched afresh, a bare container's repeated line is the one Textual
draws, a kept picture's lines are built once per picture, size and look."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.gcpace import IDLE, MAX_INPUTS, IdleCollector
from mac_tui.tui.widgets.kept_strips import KeepsStrips, KeptStatic
from mac_tui.tui.widgets.table import GameTable
from mac_tui.tui.widgets.uniform import UniformLines, uniform

from .terminal import afresh_in_a_terminal, cells, layouts_asked, played_on_a_terminal


class Collections:
    """The full collections Python makes (through `gc.callbacks`)."""

    def __init__(self) -> None:
        self.full = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            self.full += 1


def test_collections_wait_for_a_pause_in_the_input() -> None:
    clock = [0.0]
    collector = IdleCollector(App(), now=lambda: clock[0])
    seen = Collections()
    gc.callbacks.append(seen)
    try:
        assert gc.isenabled()
        collector.touched()  # a key: no automatic collection while keys come
        assert not gc.isenabled()
        clock[0] += IDLE / 2
        collector.tick()
        assert not gc.isenabled() and seen.full == 0  # no pause yet
        clock[0] += IDLE
        collector.tick()  # the pause: everything collected, collections on again
        assert gc.isenabled() and seen.full == 1
        collector.tick()  # nothing came since: nothing to do
        assert seen.full == 1
        for _ in range(MAX_INPUTS):  # keys held without a pause: collected on the way
            collector.touched()
        assert seen.full == 2 and not gc.isenabled()
    finally:
        collector.stop()
        gc.callbacks.remove(seen)
    assert gc.isenabled()  # stopping puts them back


async def test_the_app_collects_as_usual_once_closed(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
        assert not gc.isenabled()  # a key came: the collection waits for a pause
    assert gc.isenabled()


#: A data table's caches of what it rendered.
TABLE_CACHES = (
    "_row_render_cache",
    "_cell_render_cache",
    "_row_renderable_cache",
    "_line_cache",
    "_offset_cache",
    "_ordered_row_cache",
)


class Tables(App[None]):
    def compose(self) -> ComposeResult:
        for name in ("one", "two"):
            table = GameTable(id=name)
            table.add_columns("a", "b")
            table.add_rows([(str(i), str(i * i)) for i in range(30)])
            yield table


def styles_of(table: GameTable) -> tuple[object, ...]:
    return (
        dict(table.styles.base._rules),
        {name: dict(s.base._rules) for name, s in table._component_styles.items()},
        table.rich_style,
        *(table.get_component_rich_style(c) for c in sorted(table.COMPONENT_CLASSES)),
    )


async def test_a_table_restyled_for_focus_from_kept_rules_looks_as_one_matched_afresh() -> None:
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        one, two = app.query_one("#one", GameTable), app.query_one("#two", GameTable)
        looks: dict[bool, tuple[object, ...]] = {}
        kept: list[int] = []
        for _ in range(4):  # the first rounds match the style sheet, the others keep
            for table in (one, two):
                table.focus()
                await pilot.pause()
                looks.setdefault(one.has_focus, styles_of(one))
                assert styles_of(one) == looks[one.has_focus]
            kept.append(len(one._focus_styles))
        assert looks[True] != looks[False]  # focus does change how a table looks
        assert kept[0] >= 2 and kept[-1] == kept[1]  # matched once per look, then kept
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        for table in (two, one, two, one):  # a new theme: matched afresh, then kept
            table.focus()
            await pilot.pause()
        fresh = styles_of(one)
        assert fresh != looks[True]
        one._focus_styles.clear()
        two.focus()
        await pilot.pause()
        one.focus()  # matched afresh in the new theme
        await pilot.pause()
        assert styles_of(one) == fresh


class PlacedTables(Tables):
    """Tables whose cursor's colour follows their screen's place among the app's screens."""

    CSS = "Screen:last-child GameTable > .datatable--cursor { background: red; }"


@pytest.mark.parametrize("app_class", [Tables, PlacedTables])
async def test_kept_focus_styles_outlast_a_screens_new_place_unless_a_rule_names_places(
    app_class: type[Tables],
) -> None:
    """A dialog shown once stays among the app's screens (installed), so the tables' screen is
    no longer its last one: a table none of whose rules names a place keeps its focus styles;
    one whose rules do is matched again, and both look as if matched afresh."""
    app = app_class()
    async with app.run_test(size=(60, 20)) as pilot:
        one, two = app.query_one("#one", GameTable), app.query_one("#two", GameTable)
        for table in (one, two, one, two, one):
            table.focus()
            await pilot.pause()
        before = styles_of(one)
        kept = len(one._focus_styles)
        app.install_screen(Screen(), name="dialog")
        await app.push_screen("dialog")
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert "last-child" not in app.screen.get_pseudo_classes()
        two.focus()
        await pilot.pause()
        one.focus()
        await pilot.pause()
        assert (len(one._focus_styles) > kept) == (app_class is PlacedTables)
        seen = styles_of(one)
        assert (seen != before) == (app_class is PlacedTables)  # the cursor's colour went
        one._focus_styles.clear()
        two.focus()
        await pilot.pause()
        one.focus()
        await pilot.pause()
        assert styles_of(one) == seen  # as matched afresh


async def test_a_table_drawn_from_kept_cells_is_drawn_as_from_none() -> None:
    """A table keeps its rendered cells across focus changes (and a look seen for the first
    time adds to them): what it draws from them is what it draws with every cache empty,
    focused or not, and after its cursor's colour changes under the same look (new CSS: the
    cells drawn with the old colour must go)."""
    from textual.cache import LRUCache
    from textual.geometry import Region

    def drawn(table: GameTable) -> list[list[Segment]]:
        return [list(strip) for strip in table.render_lines(Region(0, 0, *table.size))]

    def afresh(table: GameTable) -> list[list[Segment]]:
        """Drawn with empty caches, the table's own put back after (so they keep growing)."""
        kept = {name: getattr(table, name) for name in TABLE_CACHES}
        for name in TABLE_CACHES:
            setattr(table, name, LRUCache(1000))
        table._styles_cache.clear()
        try:
            return drawn(table)
        finally:
            for name, cache in kept.items():
                setattr(table, name, cache)
            table._styles_cache.clear()

    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        one, two = app.query_one("#one", GameTable), app.query_one("#two", GameTable)
        before: list[list[Segment]] = []
        for round in range(6):
            if round == 3:
                before = drawn(one)
                app.stylesheet.add_source("GameTable > .datatable--cursor { background: red; }")
                app.refresh_css()
                await pilot.pause()
            for table in (one, two):
                table.focus()
                await pilot.pause()
                for shown in (one, two):
                    assert drawn(shown) == afresh(shown), (round, shown.id, shown.has_focus)
        assert drawn(one) != before  # the new colour is drawn


class Containers(App[None]):
    """A bare container of Textual's beside the same container drawing uniform lines, and
    one with a border (drawn as Textual draws it: its lines differ)."""

    CSS = """
    Vertical, UniformVertical { height: 8; background: $primary 30%; }
    #framed { border: solid red; }
    """

    def compose(self) -> ComposeResult:
        yield Vertical(id="plain")
        yield UniformVertical(id="uniform")
        yield UniformVertical(id="framed")


class UniformVertical(UniformLines, Vertical):
    pass


def segments(strips: list[Strip]) -> list[list[Segment]]:
    return [list(strip) for strip in strips]


async def test_a_bare_container_repeats_one_line_as_textual_would_draw_them_all() -> None:
    app = Containers()
    async with app.run_test(size=(30, 30)) as pilot:
        await pilot.pause()
        plain = app.query_one("#plain", Vertical)
        mine = app.query_one("#uniform", UniformVertical)
        framed = app.query_one("#framed", UniformVertical)
        assert uniform(mine) and not uniform(framed)
        for crop in (Region(0, 0, 30, 8), Region(3, 2, 20, 5), Region(0, 7, 30, 1)):
            plain.refresh()
            mine.refresh()
            assert segments(mine.render_lines(crop)) == segments(plain.render_lines(crop))
        lines = segments(framed.render_lines(Region(0, 0, 30, 8)))
        assert lines[0] != lines[1]  # the border's top edge, then its sides: drawn in full


class UniformScreen(UniformLines, Screen[None]):
    DEFAULT_CSS = "UniformScreen { background: $primary; }"


async def test_a_screen_of_a_solid_colour_repeats_one_line_as_textual_would_draw_them() -> None:
    app = App[None]()
    async with app.run_test(size=(30, 10)) as pilot:
        screen = UniformScreen()
        await app.push_screen(screen)
        await pilot.pause()
        assert uniform(screen)
        for crop in (Region(0, 0, 30, 10), Region(3, 2, 20, 5)):
            screen.refresh()
            mine = segments(screen.render_lines(crop))
            screen.refresh()
            assert mine == segments(Widget.render_lines(screen, crop))  # drawn line by line
        screen.styles.background = "red 50%"  # the screen below shows through: line by line
        assert not uniform(screen)


class Picture(KeepsStrips, Widget, can_focus=True):
    """A picture kept as one Text while it shows the same thing."""

    DEFAULT_CSS = "Picture { height: 3; } Picture:focus { background: red; }"
    picture = Text("one\ntwo\nthree")

    def render(self) -> Text:
        return self.picture


async def test_a_picture_is_turned_into_lines_once_per_picture_size_and_look() -> None:
    app = App[None]()
    async with app.run_test(size=(20, 10)) as pilot:
        widget = Picture()
        await app.mount(widget)
        await pilot.pause()
        first = widget.render_line(0)
        widget.refresh()  # nothing it shows changed: the same lines
        assert widget.render_line(0) is first
        widget.focus()  # its look changed: drawn anew, as Textual draws it
        await pilot.pause()
        focused = widget.render_line(0)
        assert focused is not first and list(focused) != list(first)
        fresh = Visual.to_strips(
            widget, visualize(widget, widget.picture), 20, 3, widget.visual_style
        )
        assert [list(s) for s in fresh] == [list(widget.render_line(y)) for y in range(3)]
        old = widget.picture
        widget.picture = Text("four\nfive\nsix")  # a new picture: new lines
        assert widget.render_line(0).text.startswith("four")
        assert widget.render_line(5).text == " " * 20  # below the picture: blank
        widget.picture = old  # the one before: its lines are still kept
        assert widget.render_line(0) is focused


#: Pictures whose lines wrap, are blank, end the text, carry a base style and spans across
#: lines: drawn line by line they must be what Textual draws of them whole.
PICTURES = (
    Text("one\ntwo\nthree"),
    Text.assemble(("a long line that wraps at the width", "bold red"), "\n\nshort\n"),
    Text("styled across\nlines", style="italic"),
    Text.assemble("x", ("y\nz", "reverse blue"), "\n", ("tail", "underline")),
    Text("tabs\tand  spaces   that wrap here and there\n"),
)


class Lines(Picture):
    """A picture drawn line by line, wrapped to its width, repainted by the rows changed."""

    DEFAULT_CSS = "Lines { height: 8; width: 12; background: $panel; }"
    REPAINTS_CHANGED_ROWS = True
    picture = PICTURES[0]


async def test_a_picture_drawn_line_by_line_is_what_textual_draws_of_it_whole() -> None:
    app = App[None]()
    async with app.run_test(size=(20, 10)) as pilot:
        widget = Lines()
        await app.mount(widget)
        await pilot.pause()
        for picture in PICTURES:
            widget.picture = picture
            style = widget.visual_style
            whole = Visual.to_strips(widget, visualize(widget, picture), 12, 8, style)
            mine = [widget.render_line(y) for y in range(len(whole))]
            assert segments(mine) == segments(whole)  # the text and its styles' meta offsets


async def test_a_new_picture_draws_and_repaints_only_the_lines_that_changed() -> None:
    app = App[None]()
    async with app.run_test(size=(20, 10)) as pilot:
        widget = Lines()
        widget.picture = Text("one\ntwo\nthree\nfour")
        await app.mount(widget)
        await pilot.pause()
        before = [widget.render_line(y) for y in range(8)]  # painted
        widget.picture = Text("one\nTWO\nthree\nfour")
        widget.refresh()  # a whole repaint of it...
        assert widget._exchange_repaint_regions() == [Region(0, 1, 12, 1)]  # ...writes row 1
        after = [widget.render_line(y) for y in range(8)]
        assert [a is b for a, b in zip(before, after, strict=True)] == [
            True,
            False,
            *[True] * 6,
        ]  # the unchanged lines and the blank rows below: the same strips
        widget.refresh()
        assert widget._exchange_repaint_regions() == []  # nothing changed since
        widget.picture = Text("one\nTWO\nthree\nfour\nfive")
        widget.refresh()
        assert widget._exchange_repaint_regions() == [Region(0, 4, 12, 1)]
        widget.styles.background = "red"  # a new look: the whole widget
        widget.refresh()
        assert widget._exchange_repaint_regions() == {widget.outer_size.region}
        widget.render_lines(Region(0, 0, 12, 8))  # drawn in it
        widget.styles.tint = "blue 20%"  # what the styles cache adds: the whole widget
        widget.refresh()
        assert widget._exchange_repaint_regions() == {widget.outer_size.region}
        widget.render_lines(Region(0, 0, 12, 8))
        widget.refresh()
        assert widget._exchange_repaint_regions() == []
        widget.styles.padding = (0, 1)  # padded at its sides: a row is still a line
        await pilot.pause()
        widget.refresh()
        assert widget._exchange_repaint_regions() == []
        widget.picture = Text("one\nTWO\nTHREE\nfour\nfive")
        widget.refresh()  # the changed line's row, padding and all
        assert widget._exchange_repaint_regions() == [Region(0, 2, 12, 1)]
        widget.render_lines(Region(0, 0, 12, 8))
        widget.styles.padding = (1, 1)  # rows no longer lines: the whole widget, as Textual
        await pilot.pause()
        widget.refresh()
        assert widget._exchange_repaint_regions() == {widget.outer_size.region}


async def test_a_narrowed_repaint_leaves_the_terminal_as_a_whole_one_would() -> None:
    """What the frames write, played on a terminal (pyte), shows each picture whole."""
    app = App[None]()
    async with app.run_test(size=(20, 10)) as pilot:
        terminal = played_on_a_terminal(app)
        widget = Lines()
        widget.picture = Text("one\ntwo\nthree")
        await app.mount(widget)
        await pilot.pause()
        for text in ("one\nTWO\nthree", "a longer line here\ntwo", "x", "one\ntwo\nthree"):
            widget.picture = Text(text)
            widget.refresh()
            await pilot.pause()
            whole = Visual.to_strips(
                widget, visualize(widget, widget.picture), 12, 8, widget.visual_style
            )
            rows = [strip.text.ljust(12) for strip in whole] + [" " * 12] * (8 - len(whole))
            assert [line[:12] for line in terminal.display[:8]] == rows


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_battle_keys_frames_leave_the_terminal_as_the_screen_drawn_whole(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A round of battle keys (the panel switching pictures, scrolled or not, the map's
    overlays shown again): what the frames wrote, played on a terminal (pyte), is what the
    whole screen drawn anew shows, after every key."""
    from mac_tui.tui.benchmark import battle_factory, battle_save

    app = battle_factory(battle_save(1, tmp_path), tmp_path)()
    async with app.run_test(size=size) as pilot:
        terminal = played_on_a_terminal(app)
        app.screen.refresh()
        await pilot.pause()
        keys = ("f", "tab", "tab", "escape", "c", "escape", "shift+down", "f", "escape", "L")
        for key in (*keys, "escape", "t", "escape", "m", "escape", "l", "f", "tab", "escape"):
            await pilot.press(key)
            await pilot.pause()
            assert cells(terminal) == cells(afresh_in_a_terminal(app)), key


async def test_the_battle_back_from_its_log_page_is_its_frame_drawn_while_the_page_showed(
    tmp_path: Path,
) -> None:
    """L, then Esc: the battle's frame drawn in the pause after the page's is the one painted
    as the battle comes back, and it is what the screen drawn anew shows; a battle that
    changed under the page is drawn anew."""
    from mac_tui.tui.benchmark import battle_factory, battle_save
    from mac_tui.tui.internals import KeepsFullFrame
    from mac_tui.tui.screens.battle.screen import BattleScreen

    app = battle_factory(battle_save(1, tmp_path), tmp_path)()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        terminal = played_on_a_terminal(app)
        app.screen.refresh()
        battle = app.screen
        assert isinstance(battle, BattleScreen)
        await pilot.press("f", "escape")  # something drawn besides the first frame
        await pilot.pause()
        full_updates: list[object] = []
        render_full_update = battle._compositor.render_full_update

        def counted(*args: Any, **kwargs: Any) -> Any:
            full_updates.append(args)
            return render_full_update(*args, **kwargs)

        battle._compositor.render_full_update = counted  # type: ignore[method-assign]
        for changed in (False, True, False):
            await pilot.press("L")
            for _ in range(8):  # the page painted, then the battle's frame drawn
                await pilot.pause()
                if battle._kept_frame is not None:
                    break
            assert app.screen is not battle and battle._kept_frame is not None
            if changed:  # a new message on the battle's message line, under the page
                battle.show_message(f"A message written while the page showed {changed}")
                await pilot.pause()
                assert battle._kept_frame is None
            full_updates.clear()
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is battle
            assert len(full_updates) == (1 if changed else 0)  # drawn anew, or the kept frame
            assert cells(terminal) == cells(afresh_in_a_terminal(app)), changed
        assert isinstance(battle, KeepsFullFrame)


async def test_a_kept_static_lays_out_only_for_a_new_number_of_lines() -> None:
    app = App[None]()
    async with app.run_test(size=(20, 10)) as pilot:
        widget = KeptStatic("one\ntwo")
        await app.mount(widget)
        await pilot.pause()
        asked = layouts_asked(widget)
        widget.update(Text("one\ntwo"))  # the text shown: nothing
        assert asked == []
        widget.update(Text("one\nTWO"))  # as many lines: a repaint, no layout
        assert asked == [False]
        widget.update(Text("one\ntwo\nthree"))  # one more: a layout
        assert asked == [False, True]
        await pilot.pause()
        assert widget.size.height == 3
        assert widget.get_content_height(app.size, app.size, 20) == 3
        widget.update("a line of words that wraps at twenty")  # two lines wrapped
        await pilot.pause()
        assert widget.size.height == 2 and str(widget.render()).startswith("a line")


class FillingPanel(KeptStatic):
    FILLS_HEIGHT = True
    REPAINTS_CHANGED_ROWS = True


class Columns(App[None]):
    """A kept panel that fills its column beside a Static with the same text, each in a
    scrolling column as the galaxy's panel is."""

    CSS = """
    VerticalScroll { width: 20; height: 8; padding: 0 1; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="kept"):
                yield FillingPanel("one")
            with VerticalScroll(id="textual"):
                yield Static("one", id="static")


def column(app: App[Any], name: str) -> list[list[Segment]]:
    """The rows of a column as the screen shows them (its segments, simplified)."""
    region = app.screen.query_one(f"#{name}").region
    rows = app.screen._compositor.render_strips()[region.y : region.bottom]
    return [list(Segment.simplify(row.crop(region.x, region.right))) for row in rows]


async def test_a_kept_static_that_fills_its_column_looks_as_a_static_would() -> None:
    app = Columns()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        panel, static = app.query_one(FillingPanel), app.query_one("#static", Static)
        assert panel.size.height == 8  # the column's height, one line of text in it
        asked = layouts_asked(panel)
        texts = (
            Text("one\ntwo\nthree"),
            Text.assemble(("a long line that wraps", "bold"), "\nshort"),
            Text("one"),
            Text("\n".join(f"line {i}" for i in range(12))),  # too tall: it scrolls
            Text("two\nlines"),
        )
        laid_out = []
        for text in texts:
            asked.clear()
            panel.update(text)
            static.update(text)
            laid_out.append(any(asked))
            await pilot.pause()
            assert column(app, "kept") == column(app, "textual")
            assert panel.size.height == max(8, static.size.height)
        # a new number of lines that fit lays nothing out; too many for the column, and back
        assert laid_out == [False, False, False, True, True]


def draw(*tables: GameTable) -> None:
    """Draw the tables now, as their next frame will: a table checks a style update as it is
    drawn, and Textual paces frames by its clock, which a test's pause does not wait for."""
    for table in tables:
        table.render_lines(table.size.region)


async def test_a_table_works_out_its_style_signature_once_per_kept_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[GameTable] = []
    signature = GameTable._style_signature

    def counted(table: GameTable) -> tuple[object, ...]:
        calls.append(table)
        return signature(table)

    monkeypatch.setattr(GameTable, "_style_signature", counted)
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        one, two = app.query_one("#one", GameTable), app.query_one("#two", GameTable)
        rounds: list[int] = []
        for _ in range(6):
            before = len(calls)
            for table in (one, two):
                table.focus()
                await pilot.pause()
                draw(one, two)
            rounds.append(len(calls) - before)
        assert rounds[0] > 0 and rounds[-1] == rounds[-2] == 0  # worked out, then known
        one.focus()
        await pilot.pause()
        draw(one, two)
        focused = one.rich_style, two.rich_style
        two.focus()
        await pilot.pause()
        draw(one, two)
        one._focus_styles.clear()  # forgotten: matched and worked out afresh, the same
        before = len(calls)
        one.focus()
        await pilot.pause()
        draw(one, two)
        assert one in calls[before:] and (one.rich_style, two.rich_style) == focused


async def test_a_table_draws_its_cells_once_for_its_first_frame_and_its_focus_changes() -> None:
    """The cells a table drew keep serving it: after its first resize (which Textual handles
    after the frame that first showed it), and across focus changes once it has been drawn
    focused and not (the component styles of a focus state seen for the first time are the
    new state's, not the last one's, so the next time nothing is thrown away)."""
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        one, two = app.query_one("#one", GameTable), app.query_one("#two", GameTable)
        draw(one, two)
        drawn = len(one._cell_render_cache)
        assert drawn
        one.refresh()
        await pilot.pause()
        draw(one)
        assert len(one._cell_render_cache) == drawn  # the first frame's cells serve the next
        counts: list[int] = []
        for _ in range(4):
            for table in (two, one):
                table.focus()
                await pilot.pause()
                draw(one, two)
                counts.append(len(one._cell_render_cache))
        assert counts == sorted(counts)  # never thrown away
        assert counts[-1] == counts[2]  # both focus states drawn in the first round: no more


def test_a_servers_game_builds_no_hub_section_in_its_pauses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A local game builds the hub's other sections while its player reads; a server's
    (`$MAC_TUI_STORE` set) does not: its pauses are the other players' time on the host."""
    from types import SimpleNamespace

    import mac_tui.tui.screens.hub as tui_hub

    monkeypatch.setattr(tui_hub, "PREBUILD_TIMED", True)  # as in play (the tests' fixture)
    timers: list[float] = []
    hub: Any = SimpleNamespace(
        set_timer=lambda delay, *_a, **_k: timers.append(delay), _prebuild=None
    )
    monkeypatch.delenv("MAC_TUI_STORE", raising=False)
    tui_hub.HubScreen._prebuild_later(hub, tui_hub.PREBUILD_PAUSE)
    assert timers == [tui_hub.PREBUILD_PAUSE]
    monkeypatch.setenv("MAC_TUI_STORE", "sqlite:///store.db")
    tui_hub.HubScreen._prebuild_later(hub, tui_hub.PREBUILD_PAUSE)
    assert timers == [tui_hub.PREBUILD_PAUSE]
