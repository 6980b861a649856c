"""The pieces of `mac_tui/tui/internals.py`, which lean on Textual's private workings: the
Textual code each relies on is still the code it was written against (a digest of its
source), and each piece behaves as Textual's own code would, only cheaper. Also the key paths
that avoid a second frame: the footer, the hub's message line, the history page's lines."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import shutil
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from mac_tui.tui.csscache import SharedStylesheet
from mac_tui.tui.internals import (
    RELIES_ON,
    KeepsPaddedLines,
    KeepsStyledLines,
    RestylesOnChange,
    ScrollbarsOnChange,
    StyledLines,
    StyledPaddedLines,
    parked,
)
from mac_tui.tui.widgets.footer import GameFooter

from .terminal import afresh_in_a_terminal, cells, drawn_afresh


def _count_frames(app: App[Any]) -> list[object]:
    """The frames `app` paints from now on (each full or partial compositor update)."""
    frames: list[object] = []
    display = app._display

    def shown(screen: Any, update: Any) -> None:
        if isinstance(update, CompositorUpdate):
            frames.append(update)
        display(screen, update)

    app._display = shown  # type: ignore[method-assign,assignment]
    return frames


#: sha256 (first 16 hex digits) of the source of each Textual function `internals.py` relies
#: on, in Textual 8.2.8. A new Textual changes some: read the piece again, then the digest.
DIGESTS = {
    "textual.widgets._content_switcher:ContentSwitcher.watch_current": "f324a84bddb55de5",
    "textual.screen:Screen._on_timer_update": "421401660de142c5",
    "textual.screen:Screen._on_update": "8d962c0761ddb02e",
    "textual.widget:Widget.refresh": "b1ce3392c9c00870",
    "textual._compositor:Compositor.reflow": "a08580a81a779473",
    "textual._compositor:Compositor.full_map": "cecfd00ffbfaf055",
    "textual.widget:Widget.render_line": "36df21323c2e9fea",
    "textual.widget:Widget.render": "693c68262447851f",
    "textual.screen:Screen.render": "c0f72894b3980949",
    "textual._styles_cache:StylesCache.render_line": "928d7496e850dbf6",
    "textual.widget:Widget.watch_has_focus": "387d9eae398b4747",
    "textual.css.stylesheet:Stylesheet.replace_rules": "2db1c7976ac6aa11",
    "textual.widgets._data_table:DataTable.notify_style_update": "4b8c636917ee4b02",
    "textual.widgets._data_table:DataTable._on_resize": "0d4b34aa4ac44e93",
    "textual.widgets._data_table:DataTable.render_line": "dfc24fd4f26a530e",
    "textual.css.stylesheet:Stylesheet._parse_rules": "2f1c2d220b672d1b",
    "textual.css.stylesheet:Stylesheet.reparse": "dd193eb05f8baeb5",
    "textual.app:App._register": "8b2138af0f6bb490",
    "textual.widget:Widget._post_register": "bd34440de5520752",
    "textual.widget:Widget._on_compose": "c1dc506e39cdf131",
    "textual.css.stylesheet:Stylesheet.apply": "1faf3687bbba428f",
    "textual.css.stylesheet:Stylesheet.update_nodes": "386367db2e9d8dee",
    "textual.css.stylesheet:Stylesheet.add_source": "35414b4abacdb833",
    "textual.css.stylesheet:Stylesheet.set_variables": "f8c97f5d9d755f56",
    "textual.css.stylesheet:Stylesheet.read": "5a77e42edd01e13d",
    "textual.dom:DOMNode._selector_names": "c8a0af3ed6ba049b",
    "textual.css.model:RuleSet._post_parse": "1ff0b6bb5f546e70",
    "textual.css.stylesheet:Stylesheet._process_component_classes": "852b5e4b93c6fc25",
    "textual.screen:Screen._on_screen_resume": "f39caa8ec4424d3c",
    "textual.message_pump:MessagePump._get_dispatch_methods": "42cf0aeddecf314f",
    "textual.app:App.push_screen": "d14a25c7a650f288",
    "textual.screen:Screen._on_idle": "05781131b10da971",
    "textual.message_pump:MessagePump._process_messages_loop": "8b26d5edccbb994f",
    "textual.widget:Widget._check_refresh": "ad1c8196be9747bf",
    "textual._compositor:Compositor.render_partial_update": "888dccc892d8ecc2",
    "textual._compositor:Compositor._render_chops": "ca8c3359d7afd017",
    "textual._compositor:Compositor._get_renders": "8ac93299aa5d3bef",
    "textual._compositor:Compositor._regions_to_spans": "af3b73d8e34fb8b9",
    "textual._compositor:Compositor.visible_widgets": "6eddec5f271628f7",
    "textual._compositor:Compositor.cuts": "205385a66fdabffe",
    "textual._compositor:ChopsUpdate.__rich_console__": "c45d5804ef810b78",
    "textual._compositor:Compositor.update_widgets": "86c02b2f8d6d93dd",
    "textual._compositor:Compositor.find_widget": "40531dc312b3cadf",
    "textual._styles_cache:StylesCache.render_widget": "b946353fb1eb72b9",
    "textual._styles_cache:StylesCache.render": "0945715ef8aede9b",
    "textual.widget:Widget.__init__": "853c53fbb9484437",
    "textual.screen:Screen._compositor_refresh": "7a40efe563816a06",
    "textual.screen:Screen._refresh_layout": "889715478130b7e0",
    "textual.widget:Widget._size_updated": "21ffb00b8a983315",
    "textual.widget:Widget._on_hide": "9187ac9bbb6a6851",
    "textual.widget:Widget._on_show": "f83f03ef1b518a72",
    "textual.widget:Widget.size": "68fb062c7a876cd9",
    "textual.widgets._data_table:DataTable._render_line_in_row": "669cc46a7ca119d2",
    "textual.widgets._data_table:DataTable._render_line": "a32c6991165cea90",
    "textual.widget:Widget.vertical_scrollbar": "6b140a728f0b50e4",
    "textual.widgets._data_table:DataTable._should_highlight": "2a8620abc38ccc4b",
    "textual.widgets._data_table:DataTable._set_hover_cursor": "39cec18b5b5f5841",
    "textual.app:App._process_messages": "7934609529be85be",
    "textual.app:App.run_async": "821674591dfc7034",
    "textual.app:App._on_resize": "62d14429be32aa53",
    "textual.app:App._on_idle": "7a5964d20aa71eda",
    "textual.drivers.linux_driver:LinuxDriver.start_application_mode": "7c41f5ba11a8ef05",
    "textual.content:Content._wrap_and_format": "6bf904d927f5bf29",
    "textual.content:Content.from_rich_text": "c020ee200876be41",
    "textual.content:Content.render_strips": "5595f673f3a2e010",
    "textual.content:Content.split": "f61a09f0e3573298",
    "textual.content:_FormattedLine.to_strip": "5393b649ee150522",
    "textual.visual:Visual.to_strips": "237262d432caa6c4",
    "textual.widget:Widget._exchange_repaint_regions": "a2d797888f08a6a7",
    "textual.widget:Widget._set_dirty": "9c280366b8986cc8",
    "textual.widget:Widget.render_lines": "1f2a11f3d51846d9",
    "textual.app:App._background_screens": "d925a6b094052092",
    "textual.app:App._get_screen": "e253c005c0065e23",
    "textual.screen:Screen.set_focus": "56cfb5778970531a",
    "textual.screen:Screen._update_focus_styles": "cc50d6be558c8751",
    "textual.screen:Screen._watch_focused": "91fed3126821f9a2",
    "textual.widget:Widget._on_focus": "5319a4d73a1e3881",
    "textual.widget:Widget._on_blur": "fff76a4c61b96628",
    "textual.scroll_view:ScrollView._size_updated": "1606ca15d9392999",
    "textual.widget:Widget._scroll_update": "edb9f6257285830d",
    "textual.widget:Widget._refresh_scrollbars": "4e52a14aae901b5b",
    "textual._node_list:NodeList.updated": "af8ba8b23e185fda",
    "textual._node_list:NodeList.displayed": "0a785f585ad11aea",
    "textual.css._style_properties:StringEnumProperty.__set__": "b1e616ec27239dc0",
    "textual.dom:DOMNode.display": "e53e8426f2d1efc6",
    "textual.widget:Widget.arrange": "e876510bea8f9a59",
    "textual.screen:Screen.arrange": "10756f26100a7b5c",
    "textual.widget:Widget.first_child": "8e0c6838a02295d4",
    # dw14
    "textual.screen:Screen.is_current": "a5de932fa47c5f24",
    "textual.screen:Screen._watch_stack_updates": "5a84cc9409593408",
    # tab14
    "textual._styles_cache:StylesCache.clear": "a9e24439a441c22a",
    "textual._styles_cache:StylesCache.set_dirty": "78552ddea7506bd9",
    "textual.widget:Widget._render_content": "50c545576ca20403",
    "textual.scrollbar:ScrollBar.render": "43a56156a9a6cc05",
    "textual.scrollbar:ScrollBar._render_bar": "1f4e4e637581fc4f",
    "textual.scrollbar:ScrollBarRender.__rich_console__": "39854fc82928d647",
    "textual.widgets._data_table:DataTable.render_lines": "4e0ae4f0a9bd61c0",
    "textual.widgets._data_table:DataTable._get_offsets": "9b28e6f6d6b488ff",
    "textual.widgets._data_table:DataTable._y_offsets": "fa5c0f8cda9f6cbd",
    "textual.message_pump:MessagePump.post_message": "cbfe6996db2052f4",
    "textual.message_pump:MessagePump._dispatch_message": "f2be0916fb2d6cb5",
    "textual.message_pump:MessagePump._on_message": "12c0b6eb18e5ca10",
    "textual.message:Message._bubble_to": "9458ef4c5856dac5",
    "textual.widget:Widget.post_message": "f5b8036fc487dfd4",
    "textual.widgets._data_table:DataTable._highlight_row": "e54b9f8578b89252",
    # hub14
    "textual.css.styles:RenderStyles.set_rule": "6a75e68810eda731",
    "textual.css.styles:Styles.set_rule": "61760a8fcaf2790e",
    "textual.screen:Screen._on_layout": "55209a37fad6f883",
    "textual.widget:Widget._clear_arrangement_cache": "27aabc1d93d409b0",
    "textual._callback:count_parameters": "1cfb1fbbe594186f",
    "textual._callback:_invoke": "ba8877e0e21e21ab",
    "textual.message_pump:MessagePump.call_later": "39889507a37008f1",
    "textual.widget:Widget.scroll_to_widget": "642e9783efa1d6dc",
    "textual.widget:Widget.max_scroll_x": "6de53c30be96b918",
    "textual.widget:Widget.max_scroll_y": "c2776ff59114a2c0",
    # map14b
    "textual._compositor:Compositor.render_update": "772c6b21953aff0e",
    "textual._compositor:Compositor.render_full_update": "ce99ccda4d2449b7",
    "textual.screen:Screen._invoke_later": "d59e2de31d1c3717",
    "textual.message_pump:MessagePump.call_after_refresh": "f64d61b66efbc730",
    # ps15
    "textual._arrange:arrange": "e9a34a6100928ca0",
    "textual.css.styles:RenderStyles._cache_key": "494544d4d4636396",
    "textual.layouts.vertical:VerticalLayout.arrange": "b9e3aee8d11b26a9",
    "textual.widget:Widget._get_box_model": "2af27ebacc60142b",
    "textual.widgets._static:Static.visual": "36def19c40195df6",
    # lp15
    "textual._compositor:ChopsUpdate.render_segments": "4c1cdb567e0b8354",
    "textual._compositor:ChopsUpdate.__init__": "f40588bd8fbd6469",
    # dw15: KeepsFrameRows
    "textual._compositor:LayoutUpdate.render_segments": "ff329c722506c983",
    "textual.screen:Screen.__init__": "1f509dabafc58436",
    "textual.strip:Strip.divide": "f6764f25c39e144b",
    "textual.strip:Strip.render": "2ba7a4913a72125d",
}


def source_digest(name: str) -> str:
    module, qualified = name.split(":")
    found: Any = importlib.import_module(module)
    for part in qualified.split("."):
        found = getattr(found, part)
    if isinstance(found, property):
        found = found.fget
    return hashlib.sha256(inspect.getsource(found).encode()).hexdigest()[:16]


def test_every_textual_function_relied_on_is_the_one_the_pieces_were_written_for() -> None:
    relied = {name for names in RELIES_ON.values() for name in names}
    assert relied == set(DIGESTS)
    changed = [name for name in sorted(relied) if source_digest(name) != DIGESTS[name]]
    assert not changed, f"Textual changed {changed}: look at internals.py again"


class Page(RestylesOnChange, Screen[None]):
    DEFAULT_CSS = "Page Static { color: $primary; }"

    def compose(self) -> ComposeResult:
        yield Static("text", id="text")


class SharedApp(App[None]):
    """An app with the game's style sheet (`csscache.SharedStylesheet`), as `MacApp`."""

    def __init__(self) -> None:
        super().__init__()
        self.stylesheet = SharedStylesheet(variables=self.get_css_variables())


class Pages(SharedApp):
    def on_mount(self) -> None:
        self.install_screen(Page(), name="page")


def colour(app: App[Any]) -> object:
    return app.get_screen("page").query_one("#text", Static).styles.color


@pytest.fixture
def restyled(monkeypatch: pytest.MonkeyPatch) -> list[Screen[Any]]:
    """The screens restyled as a whole (`Screen.update_node_styles`) from now on."""
    screens: list[Screen[Any]] = []
    update = Screen.update_node_styles

    def counted(screen: Screen[Any], animate: bool = True) -> None:
        screens.append(screen)
        update(screen, animate)

    monkeypatch.setattr(Screen, "update_node_styles", counted)
    return screens


async def test_a_page_shown_again_is_restyled_only_when_its_look_changed(
    restyled: list[Screen[Any]],
) -> None:
    app = Pages()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        page = app.get_screen("page")
        shown: list[int] = []
        for _ in range(3):
            before = len(restyled)
            await app.push_screen("page")
            await pilot.pause()
            shown.append(sum(1 for s in restyled[before:] if s is page))
            app.pop_screen()
            await pilot.pause()
        assert shown == [0, 0, 0]  # styled as it was mounted, then as it was
        assert colour(app) == app.get_css_variables()["primary"] or colour(app) is not None
        first = colour(app)
        app.theme = "nord" if app.theme != "nord" else "textual-light"
        await pilot.pause()
        before = len(restyled)
        await app.push_screen("page")
        await pilot.pause()
        assert page in restyled[before:]  # a new theme: styled again
        assert colour(app) != first
        fresh = Page()
        app.install_screen(fresh, name="fresh")
        await app.push_screen("fresh")
        await pilot.pause()
        assert colour(app) == fresh.query_one("#text", Static).styles.color  # as Textual


class Rows(Screen[None]):
    """Rows whose colours depend on their places: two mounted after the others (the label is
    a `Static` too), so the earlier last row stops being the last with no restyle of its own;
    the label's class brings its (scoped) CSS only then."""

    DEFAULT_CSS = """
    Rows Static { color: red; }
    Rows Static:last-child { color: blue; }
    Rows Static:odd { background: green; }
    """

    def compose(self) -> ComposeResult:
        yield Static("one", id="one")
        yield Static("two", id="two")

    def on_mount(self) -> None:
        self.mount(Static("three", id="three"))
        self.mount(Label("late", id="late"))


class KeptRows(RestylesOnChange, Rows):
    pass


def looks(screen: Screen[Any]) -> list[tuple[object, object]]:
    return [(w.styles.color, w.styles.background) for w in screen.query("Static, Label")]


async def test_a_new_screen_is_styled_as_textual_styles_it_without_the_push_restyle(
    restyled: list[Screen[Any]],
) -> None:
    """A pushed screen styled from its mount is styled as Textual's restyle of the whole
    screen styles it, the nodes styled from their places included, with no such restyle."""
    seen: dict[str, list[tuple[object, object]]] = {}
    app = SharedApp()
    async with app.run_test(size=(40, 10)) as pilot:
        for name, screen in (("plain", Rows()), ("kept", KeptRows())):
            await app.push_screen(screen)
            await pilot.pause()
            seen[name] = looks(screen)
            assert (screen in restyled) == (name == "plain")
            app.pop_screen()
            await pilot.pause()
    assert seen["kept"] == seen["plain"]
    colours = [colour for colour, _ in seen["plain"]]
    assert colours[1:3] == colours[:2] and colours[3] != colours[0]  # the last one's only


async def test_unscoped_css_that_came_after_the_mount_restyles_the_screen() -> None:
    """CSS that is not a widget class's scoped CSS may match nodes styled before it came:
    the push restyles the whole screen then, as Textual does."""
    app = SharedApp()
    async with app.run_test(size=(40, 10)) as pilot:
        screen = KeptRows()
        app.install_screen(screen, name="rows")
        restyled: list[object] = []
        screen.update_node_styles = lambda animate=True: restyled.append(screen)  # type: ignore[method-assign]
        for _ in range(2):
            await app.push_screen("rows")
            await pilot.pause()
            app.pop_screen()
            await pilot.pause()
        restyled.clear()
        await app.push_screen("rows")
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert restyled == []  # nothing changed
        app.stylesheet.add_source("Static { text-style: bold; }", read_from=("test", "late"))
        await app.push_screen("rows")
        await pilot.pause()
        assert restyled == [screen]


class Switch(App[None]):
    """A footer over a key whose legality a flag decides."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("x", "go", "Go")
    ]
    allowed = True

    def compose(self) -> ComposeResult:
        yield Static("one", id="one")
        yield GameFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return (True if self.allowed else None) if action == "go" else True

    def action_go(self) -> None:
        pass


async def test_the_footer_repaints_only_when_its_keys_or_their_legality_changed() -> None:
    app = Switch()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        footer = app.query_one(GameFooter)
        drawn: list[object] = []
        render = footer.render

        def counted() -> Any:
            line = render()
            drawn.append(line)
            return line

        footer.render = counted  # type: ignore[method-assign]
        app.screen.refresh_bindings()  # nothing changed: no repaint
        await pilot.pause()
        assert drawn == []
        app.allowed = False
        app.screen.refresh_bindings()  # the key is greyed now: drawn again
        await pilot.pause()
        assert len(drawn) == 1 and "Go" in str(drawn[0])
        app.allowed = True
        app.screen.refresh_bindings()
        await pilot.pause()
        assert len(drawn) == 2


class Tokened(Switch):
    """The same, on a screen that says what its keys follow."""

    def on_mount(self) -> None:
        self.screen.footer_token = lambda: self.allowed  # type: ignore[attr-defined]


async def test_the_footer_reads_no_keys_while_the_screens_token_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Tokened()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        footer = app.query_one(GameFooter)
        reads: list[int] = []
        fitted = footer.fitted

        def counted(width: int) -> Any:
            reads.append(width)
            return fitted(width)

        monkeypatch.setattr(footer, "fitted", counted)
        app.screen.refresh_bindings()
        await pilot.pause()
        assert reads == []  # the same token, the same focus: the same line, not read
        app.allowed = False  # a new token: read, and drawn greyed
        app.screen.refresh_bindings()
        await pilot.pause()
        assert reads and "Go" in footer.render().plain
        assert footer.render().spans[-1].style == footer.key_styles()[1]
        reads.clear()
        app.allowed = True  # a token read before, with the same focus: its keys kept
        app.screen.refresh_bindings()
        await pilot.pause()
        assert reads == []
        assert footer.render().spans[-1].style != footer.key_styles()[1]  # live again


async def test_a_hub_section_seen_before_lays_out_once_and_paints_one_frame(tmp_path: Path) -> None:
    from mac_tui.tui.app import MacApp
    from mac_tui.tui.config import Settings
    from mac_tui.tui.screens.hub import HubScreen

    app = MacApp(saves=tmp_path, settings=Settings(hints=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", "enter", "enter")  # a new campaign: the hub
        await pilot.pause()
        hub = app.screen
        assert isinstance(hub, HubScreen)
        layouts: list[object] = []
        refresh_layout = hub._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            layouts.append(args)
            refresh_layout(*args, **kwargs)

        hub._refresh_layout = counted  # type: ignore[method-assign]
        frames = _count_frames(app)
        message = hub.query_one("#message", Static)
        for key in "2345671":  # each section drawn once (its first showing fills it)
            await pilot.press(key)
            await pilot.pause()
        await app.workers.wait_for_complete()  # the board's threat ratings: drawn by now
        await pilot.pause()
        for key in "234567123":
            before, painted = len(layouts), len(frames)
            height = message.size.height
            await pilot.press(key)
            await pilot.pause()
            # the switch lays the stack out once, a hint of a new height included (Textual
            # would lay it out again for the line's new size: MessageLine._size_updated)
            assert len(layouts) - before == 1
            assert str(message.render()).startswith("Hint:")
            assert len(frames) - painted == 1, (key, height, message.size.height)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_partial_repaint_writes_what_textuals_compositor_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """Every partial repaint of the battle screen, through a round of its keys: the bytes
    `SpanCompositor` writes are Textual's compositor's for the same changed areas."""
    from textual._compositor import Compositor

    from mac_tui.tui.benchmark import battle_factory, battle_save
    from mac_tui.tui.internals import SpanCompositor

    compared: list[bool] = []
    mine = SpanCompositor.render_partial_update

    def both(self: SpanCompositor) -> Any:
        regions = set(self._dirty_regions)
        theirs = Compositor.render_partial_update(self)
        self._dirty_regions.update(regions)
        ours = mine(self)
        if theirs is None or ours is None:
            assert theirs is ours
            return ours
        console = app.console
        compared.append(ours.render_segments(console) == theirs.render_segments(console))
        return ours

    monkeypatch.setattr(SpanCompositor, "render_partial_update", both)
    app = battle_factory(battle_save(1, tmp_path), tmp_path)()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in ("l", "j", "f", "tab", "tab", "escape", "c", "escape", "t", "escape", "v"):
            await pilot.press(key)
            await pilot.pause()
    assert len(compared) >= 8 and all(compared)


async def test_the_battle_log_page_opened_again_paints_one_frame(tmp_path: Path) -> None:
    """L a second time: the page in front in one frame (the battle behind it, which Textual
    repaints as it goes back, joins that frame), not restyled, not laid out."""
    from mac_tui.tui.benchmark import battle_factory, battle_save
    from mac_tui.tui.widgets.history import HistoryScreen

    app = battle_factory(battle_save(1, tmp_path), tmp_path)()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("L", "escape")
        await pilot.pause()
        frames = _count_frames(app)
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert len(frames) == 1


async def test_a_parked_hub_section_comes_back_at_the_stacks_size(tmp_path: Path) -> None:
    """At 120 columns the finances hint takes one line and the others two: the stack under
    the message line changes height. The parked sections are out of the layout (not
    displayed) and come back at the stack's size, with a Resize only when it changed (the
    terminal's size changed meanwhile)."""
    from textual import events

    from mac_tui.tui.app import MacApp
    from mac_tui.tui.config import Settings
    from mac_tui.tui.screens.hub import SectionStack

    app = MacApp(saves=tmp_path, settings=Settings(hints=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", "enter", "enter")
        await pilot.pause()
        stack = app.screen.query_one(SectionStack)
        for key in "23456781":
            await pilot.press(key)
            await pilot.pause()
        roster = stack.query_one("#RosterSection")
        finances = stack.query_one("#FinancesSection")
        resizes: list[object] = []
        post = roster.post_message

        def posted(message: Any) -> bool:
            if isinstance(message, events.Resize | events.Show | events.Hide):
                resizes.append(message)
            return post(message)

        roster.post_message = posted  # type: ignore[method-assign]
        before = stack.size.height
        assert roster.size == stack.size and not finances.display
        await pilot.press("2", "1")  # parked and back at the same size: no event
        await pilot.pause()
        assert roster.size == stack.size and resizes == []
        await pilot.press("7")
        await pilot.pause()
        assert stack.size.height != before  # the hint's height differs here
        assert finances.size == stack.size and not roster.display
        assert resizes == []  # parked: no Hide
        await pilot.press("1")
        await pilot.pause()
        assert roster.size == stack.size and roster.region == stack.region
        assert resizes == []  # back at the size it had: no Resize
        await pilot.press("7")
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert roster.size == stack.size and roster.region == stack.region
        assert [type(m) for m in resizes] == [events.Resize]  # a new size: a Resize


class Lines(KeepsStyledLines, Static):
    """A widget whose lines are kept (a `Static` keeps its picture's strips between repaints
    of the same size)."""


class Boxes(App[None]):
    CSS = """
    #plain { height: 3; background: $panel; }
    #boxed { height: 5; border: round $accent; padding: 0 1; background: $surface; }
    #faded { height: 3; opacity: 0.5; }
    """

    def compose(self) -> ComposeResult:
        yield Lines("one\ntwo [b]bold[/]", id="plain")
        yield Lines("one\ntwo", id="boxed")
        yield Lines("faded", id="faded")


async def test_styled_lines_are_textuals_and_the_same_line_comes_back_as_the_same_object() -> None:
    from textual._styles_cache import StylesCache
    from textual.geometry import Region

    app = Boxes()
    async with app.run_test(size=(30, 12)) as pilot:
        await pilot.pause()
        for widget in app.query(Lines):
            assert isinstance(widget._styles_cache, StyledLines)
            whole = Region(0, 0, *widget.size)
            kept = widget.render_lines(whole)
            widget._styles_cache.clear()  # Textual's per-line cache: styled again, or kept
            again = widget.render_lines(whole)
            textuals = StylesCache().render_widget(widget, whole)
            assert (
                [list(s) for s in kept] == [list(s) for s in textuals] == [list(s) for s in again]
            )
            same = [a is b for a, b in zip(kept, again, strict=True)]
            # only a plain box (no border, padding or opacity) keeps its lines as objects
            assert all(same) if widget.id == "plain" else not any(same)
        plain = app.query_one("#plain", Lines)
        plain.update("changed")
        await pilot.pause()
        assert "changed" in "".join(s.text for s in plain.render_lines(Region(0, 0, *plain.size)))


async def test_every_hub_key_of_a_long_campaign_paints_one_frame(tmp_path: Path) -> None:
    """A year of play: the sections' long tables have scrollbars, whose thumbs follow the
    tables' heights (the hints take one line or two). Each section key paints one frame:
    a scrollbar the layout changed is drawn in it (`OneFrame._compositor_refresh`)."""
    from mac_tui.tui.app import MacApp
    from mac_tui.tui.config import Settings

    from .wide import YEAR

    path = tmp_path / "year.json"
    shutil.copy(YEAR, path)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off", hints=True), load=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        for key in "23456712":  # each section drawn once
            await pilot.press(key)
            await pilot.pause(0.05)
        frames = _count_frames(app)
        for key in "3571246":
            before = len(frames)
            await pilot.press(key)
            await pilot.pause(0.05)
            assert len(frames) - before == 1, key


def words(terminal: str) -> str:
    """The characters of a frame's bytes, without the terminal's control sequences."""
    import re

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", terminal)


def new_date(app: Any) -> str:
    from mac_tui.campaign.calendar import date_text

    return str(date_text(app.session.state.campaign.day))


@pytest.mark.parametrize("key", ["d", "w"])
async def test_a_day_paints_its_report_and_the_hub_under_it_in_one_right_frame(
    tmp_path: Path, key: str
) -> None:
    """d (or w): the hub's status and section change as the day report opens over them; the
    report comes in one frame, and it is the whole picture: what Textual's compositor draws
    of the screen afterwards, from scratch (its background is opaque: the hub under it, drawn
    after the frame, shows nothing, `HidesScreensBehind`). The report is the app's kept one,
    filled again (a second day shows its own lines)."""
    from mac_tui.tui.screens.dayreport import DayReportScreen

    app = year_app(tmp_path, "year")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press(key, "escape")  # the report's first showing composes it
        await pilot.pause(0.05)
        reports: list[object] = []
        for _ in range(2):
            frames = _count_frames(app)
            await pilot.press(key)
            await pilot.pause(0.05)
            report = app.screen
            assert isinstance(report, DayReportScreen)
            assert report.lines == app.last_report()
            reports.append(report)
            assert len(frames) == 1
            written = frames[0].render_segments(app.console)  # type: ignore[attr-defined]
            assert written == drawn_afresh(app)
            assert new_date(app) in words(written)  # the report's last line
            await pilot.press("escape")
            await pilot.pause(0.05)
        assert reports[0] is reports[1]  # kept, not composed again


def styled_screen(app: App[Any]) -> str:
    """The whole screen with its colours and styles, as the terminal would show it."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True)
    console.begin_capture()
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.end_capture()


def year_app(tmp_path: Path, name: str, **settings: Any) -> Any:
    """The game opening a copy of the golden year's save (its hub)."""
    from mac_tui.tui.app import MacApp
    from mac_tui.tui.config import Settings

    from .wide import YEAR

    path = tmp_path / f"{name}.json"
    shutil.copy(YEAR, path)
    return MacApp(saves=tmp_path, settings=Settings(animation="off", **settings), load=path)


async def show_every_section(app: Any, pilot: Any) -> None:
    """Each hub section shown once (built and filled), the board's ratings in."""
    await pilot.pause()
    for key in "2345671":
        await pilot.press(key)
        await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def note_focus_events(widget: Any, now: list[str], noted: list[tuple[str, str, str]]) -> None:
    """Note each Focus and Blur posted to `widget` while `now` names a key."""
    from textual import events

    post = widget.post_message

    def posted(message: Any) -> bool:
        if now and isinstance(message, events.Focus | events.Blur):
            noted.append((now[0], type(message).__name__, str(widget.id)))
        return bool(post(message))

    widget.post_message = posted


async def test_a_hub_section_key_moves_the_focus_without_a_round_and_looks_as_with_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`focus_unparked`: once each section has been shown, a section key gives the focus to
    the section coming back with no Focus or Blur to any widget (the parked one keeps its
    look, the one coming back has it still), but to a widget that had the focus as its
    section was parked and does not take it now (the finances' chart: blurred as it is seen
    again); and every screen through a walk of section keys, cursor moves and a finances
    view is the screen Textual's own focus change (`Screen.set_focus`) paints, the focus
    where it puts it."""
    from textual.widget import Widget

    from mac_tui.tui import internals
    from mac_tui.tui.screens import hub

    walk = ("2", "down", "3", "down", "tab", "1", "end", "7", "c", "1", "2", "7", "l", "3")
    walk += ("tab", "6", "1")
    seen: dict[str, list[tuple[str, object, str]]] = {}
    rounds: list[tuple[str, str, str]] = []
    for way in ("textual", "unparked"):
        if way == "textual":
            for module in (hub, internals):  # (`focus_in_place`: the views' keys)
                monkeypatch.setattr(module, "focus_unparked", lambda screen, w: screen.set_focus(w))
        else:
            monkeypatch.undo()
        app = year_app(tmp_path, way)
        async with app.run_test(size=(80, 24)) as pilot:
            await show_every_section(app, pilot)
            now: list[str] = []  # the key pressed, while the events are noted
            for widget in app.screen.query(Widget):  # (the inventory: not focusable yet)
                note_focus_events(widget, now if way == "unparked" else [], rounds)
            screens = seen[way] = []
            for key in walk:
                now[:] = [key]
                await pilot.press(key)
                await pilot.pause()
                focused = app.focused
                assert focused is not None and focused.has_focus
                stack = app.screen.query_one(hub.SectionStack)
                front = stack.get_child_by_id(str(stack.current))
                seen_focused = [w for w in front.walk_children(Widget) if w.has_focus]
                assert [w for w in seen_focused if w is focused or not parked(w)] == [focused]
                screens.append((key, focused.id, styled_screen(app)))
            now.clear()  # (the app's closing blurs as it goes)
    assert seen["unparked"] == seen["textual"]
    assert rounds == [
        ("tab", "Focus", "market-inventory"),  # the stock parked keeps its look
        # the view's own focus change (`ParkingSwitcher`): the ledger parked keeps its look
        ("c", "Focus", "credit-chart"),
        ("7", "Blur", "credit-chart"),  # parked with the focus, seen again without it
        # (the ledger, parked in its view with the look of focus, takes it with no Focus)
    ]


class KeptBars(ScrollbarsOnChange, DataTable[str]):
    pass


class TwoTables(App[None]):
    """The same rows in Textual's table and in one whose scrollbars change only on change,
    side by side under a head whose height changes (neither focused: they look alike)."""

    AUTO_FOCUS = None
    CSS = """
    #head { height: 1; }
    #head.tall { height: 4; }
    Horizontal { height: 1fr; }
    DataTable { width: 1fr; height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal

        yield Static("head", id="head")
        with Horizontal():
            yield DataTable(id="theirs")
            yield KeptBars(id="ours")

    def on_mount(self) -> None:
        for table in self.query(DataTable):
            table.add_columns("name", "value", "a long column heading")
            table.add_rows([(f"row {i}", str(i * i), "x" * (i % 9)) for i in range(20)])


def scrollbars(table: DataTable[str]) -> tuple[object, ...]:
    """What a table's scrollbars show, and how."""
    shown = (table.show_vertical_scrollbar, table.show_horizontal_scrollbar)
    bars = []
    for bar, on in ((table.vertical_scrollbar, shown[0]), (table.horizontal_scrollbar, shown[1])):
        if on:
            lines = bar.render_lines(Region(0, 0, *bar.size))
            bars.append(
                (bar.window_size, bar.window_virtual_size, bar.position, [list(x) for x in lines])
            )
    return (shown, table.container_size, table.scrollable_content_region.size, *bars)


async def test_a_tables_scrollbars_follow_what_they_show_and_only_that() -> None:
    """Through layouts that change nothing of the tables, a shorter and taller head, more
    rows, a scroll and new terminal sizes, the scrollbars of a `ScrollbarsOnChange` table are
    Textual's table's; a layout that changes nothing of them does not update them."""
    app = TwoTables()
    async with app.run_test(size=(60, 16)) as pilot:
        await pilot.pause()
        theirs = app.query_one("#theirs", DataTable)
        ours = app.query_one("#ours", KeptBars)
        updated: list[DataTable[str]] = []
        for table in (theirs, ours):
            for bar in (table.vertical_scrollbar, table.horizontal_scrollbar):
                bar.refresh = (  # type: ignore[method-assign]
                    lambda *a, t=table, f=bar.refresh, **k: (updated.append(t), f(*a, **k))[1]
                )
        head = app.query_one("#head", Static)

        async def step(change: Any) -> None:
            updated.clear()
            await change()
            await pilot.pause()
            assert scrollbars(ours) == scrollbars(theirs)

        async def relayout() -> None:
            app.screen.refresh(layout=True)

        async def tall() -> None:
            head.toggle_class("tall")

        async def rows() -> None:
            for table in (theirs, ours):
                table.add_rows([(f"more {i}", str(i), "y" * i) for i in range(8)])

        async def scroll() -> None:
            for table in (theirs, ours):
                table.scroll_to(y=3, animate=False)

        await step(relayout)
        assert theirs in updated and ours not in updated  # nothing changed: not updated
        for change in (tall, tall, rows, scroll, tall, relayout):
            await step(change)
        for size in ((60, 30), (40, 12), (60, 16)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert scrollbars(ours) == scrollbars(theirs)


async def test_the_hubs_footer_token_names_all_its_keys_follow(tmp_path: Path) -> None:
    """Through the sections and their own keys (cursors over rows whose keys are legal or
    not, the market's view, a launch plan and its lance and pay, the finances' views, a day
    passing, the refit bay's cursor, a staged removal and its undo), the footer's line is the
    one its keys read afresh give, though it reads them only for a new token (or focus)."""
    import attrs

    from mac_tui.tui.app import MacApp
    from mac_tui.tui.config import Settings
    from mac_tui.tui.widgets.footer import footer_token

    from .wide import wide_session

    session = wide_session()  # frames of every status, a stock some of which is too dear
    campaign = session.state.campaign
    assert campaign is not None
    session.state = attrs.evolve(session.state, campaign=attrs.evolve(campaign, credits=150_000))
    down = ("down",) * 7
    walk = (
        *("1", *down, "up", "2", *down, "end", "1", "up", "2", "home", "1", "down"),
        *("3", *down, "tab", *down, "tab", "up", "3", "2", "3"),
        *("6", "down", "enter", *("space", "down") * 5, "right", "left", "escape", "up"),
        *("6", "enter", "space", "1", "6", "escape"),
        *("5", "right", "down", "1", "5", "7", "c", "l", "1", "7"),
        *("d", "escape", "1", "2", "3", "6", "down", "7", "5", "left", "4"),
        *("right", "down", "x", "left", "u", "right_square_bracket", "end", "home", "up"),
    )
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(session, tmp_path / "wide.json")
        app.show_game()
        await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        reads = 0
        fitted = footer.fitted

        def counted(width: int) -> Any:
            nonlocal reads
            reads += 1
            return fitted(width)

        footer.fitted = counted  # type: ignore[method-assign]
        tokened = 0
        for key in walk:
            await pilot.press(key)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.screen is not footer.screen:
                continue  # the day report
            shows = footer._shows
            assert shows is not None
            assert shows[1] == footer._signature(fitted(footer.size.width)), key
            tokened += footer_token(app.screen) is not None
        assert tokened > len(walk) // 2  # most sections say what their keys follow
        assert reads < len(walk)  # and the keys are not read for every one


async def test_a_section_key_arranges_the_stack_alone_and_as_a_fresh_layout_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ParksChildren.place`: a section key arranges at most the section stack anew (not at
    all for a section it arranged before at that size: `ParksChildren.arrange`), not the
    screen nor the section coming back (but the screen when the hint's new height gives the
    stack another height), and every widget is where a layout with no arrangement kept puts
    it."""
    import textual.screen
    import textual.widget
    from textual.cache import FIFOCache

    from mac_tui.tui.screens.hub import SectionStack
    from mac_tui.tui.widgets.message_line import MessageLine

    arranged: list[object] = []
    for module in (textual.widget, textual.screen):
        real = module.arrange

        def counted(widget: Any, *args: Any, real: Any = real, **kwargs: Any) -> Any:
            arranged.append(widget)
            return real(widget, *args, **kwargs)

        monkeypatch.setattr(module, "arrange", counted)

    def placed(screen: Any) -> dict[object, object]:
        return {w: (g.region, g.clip) for w, g in screen._compositor.full_map.items()}

    app = year_app(tmp_path, "year", hints=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await show_every_section(app, pilot)
        screen = app.screen
        stack = screen.query_one(SectionStack)
        message = screen.query_one(MessageLine)
        screens = stacks_kept = 0
        for key in "273615472":
            height = message.size.height
            arranged.clear()
            await pilot.press(key)
            await pilot.pause()
            if message.size.height == height:
                assert set(arranged) <= {stack}, key
                stacks_kept += not arranged
            else:  # the hint took another number of lines: the stack, another height
                assert screen in arranged
                screens += 1
            kept = placed(screen)
            caches = {}
            for node in screen.walk_children(with_self=True):  # a layout with none kept
                caches[node] = (node._arrangement_cache, node.__dict__.get("_arranged"))
                node._arrangement_cache = FIFOCache(4)
                if isinstance(node, SectionStack):
                    node._arranged = None
            screen._refresh_layout()
            assert placed(screen) == kept, key
            for node, (cache, arrangements) in caches.items():  # (the next key with its own)
                node._arrangement_cache = cache
                if isinstance(node, SectionStack):
                    node._arranged = arrangements
        assert 0 < screens < 9  # the finances' hint takes one line at 120 columns, others two
        assert stacks_kept  # a section arranged before at its size: its arrangement kept


async def test_the_day_report_made_in_a_pause_is_the_first_days_in_one_frame(
    tmp_path: Path,
) -> None:
    """The hub's first pause makes the day report (`start_offscreen`: composed, mounted and
    laid out, not shown: nothing painted) and works the save's text out; the first day then
    shows that very report in one frame, the picture Textual draws of it from scratch."""
    from mac_tui.tui.screens.dayreport import KEPT_NAME, DayReportScreen
    from mac_tui.tui.screens.hub import HubScreen

    app = year_app(tmp_path, "year")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        hub = app.screen
        assert isinstance(hub, HubScreen)
        frames = _count_frames(app)
        app.collector.last_input = app.collector.now() - 10  # a pause
        await hub._prebuild()
        await pilot.pause()
        assert frames == []  # made out of sight
        report = app.get_screen(KEPT_NAME)
        assert isinstance(report, DayReportScreen) and report.is_mounted
        assert report.size == app.size
        await pilot.press("d")
        await pilot.pause(0.05)
        assert app.screen is report and report.lines == app.last_report()
        assert len(frames) == 1
        assert frames[0].render_segments(app.console) == drawn_afresh(app)  # type: ignore[attr-defined]


# ---- dw14 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("pause", [True, False])
async def test_the_hub_under_the_day_report_is_drawn_after_its_frame_and_shows_the_day_after_it(
    tmp_path: Path, pause: bool
) -> None:
    """d: the report's frame is all that is painted (`HidesScreensBehind`: no frame of the hub
    under it, whose redraw comes once the frame is out, its lines drawn then too); Esc then
    shows the hub with the day's status and the keys as the day leaves them in one frame, the
    picture Textual draws of it from scratch (its footer not told of the push while hidden,
    `BindingsWhenShown`: its keys read in the pause). A player quicker than the frame (no
    pause between d and Esc) finds the hub drawn all the same."""
    from mac_tui.tui.internals import kept_styled_lines
    from mac_tui.tui.screens.dayreport import DayReportScreen
    from mac_tui.tui.screens.hub import HubScreen
    from mac_tui.tui.widgets.footer import GameFooter
    from mac_tui.tui.widgets.status import StatusBar

    app = year_app(tmp_path, "year")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("d", "escape")  # the report's first showing composes it
        await pilot.pause(0.05)
        hub = app.screen
        assert isinstance(hub, HubScreen)
        frames = _count_frames(app)
        if pause:
            await pilot.press("d")
            await pilot.pause(0.05)
            assert isinstance(app.screen, DayReportScreen)
            assert app._background_screens == [] and not hub.is_current
            assert len(frames) == 1  # the report's, nothing of the hub's redraw after it
            bar = hub.query_one(StatusBar)
            assert new_date(app) in words(str(bar.render()))  # drawn behind, after the frame
            lines, dirty = kept_styled_lines(bar)
            assert len(lines) == bar.size.height and not dirty  # its lines drawn (`warm_lines`)
            await pilot.press("escape")
        else:
            await pilot.press("d", "escape")
        await pilot.pause(0.05)
        assert app.screen is hub and hub.is_current
        last = frames[-1].render_segments(app.console)  # type: ignore[attr-defined]
        assert last == drawn_afresh(app)
        assert new_date(app) in hub._compositor.render_strips()[0].text  # the status line
        footer = hub.query_one(GameFooter)
        shown = footer._shows
        assert shown is not None  # its line shows the keys as the day leaves them
        assert shown[1] == footer._signature(footer.fitted(footer.size.width))
        if pause:
            assert len(frames) == 2  # the report's, then the hub's


async def test_a_terminal_resized_under_the_day_report_finds_the_hub_at_its_new_size(
    tmp_path: Path,
) -> None:
    """The hub hidden under the report gets no Resize while it is (`HidesScreensBehind`);
    back in front it is laid out at the terminal's new size: the picture Textual draws of it
    from scratch, the day's status in its first line."""
    from mac_tui.tui.screens.dayreport import DayReportScreen
    from mac_tui.tui.screens.hub import HubScreen

    app = year_app(tmp_path, "year")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        hub = app.screen
        assert isinstance(hub, HubScreen)
        await pilot.press("d")
        await pilot.pause(0.05)
        assert isinstance(app.screen, DayReportScreen)
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.05)
        assert app.screen._compositor.size == (120, 40)
        frames = _count_frames(app)
        await pilot.press("escape")
        await pilot.pause(0.05)
        assert app.screen is hub and hub._compositor.size == (120, 40)
        assert frames and frames[-1].render_segments(app.console) == drawn_afresh(app)  # type: ignore[attr-defined]
        assert new_date(app) in hub._compositor.render_strips()[0].text


# ---- tab14 -------------------------------------------------------------------------------------
class PaddedLines(KeepsPaddedLines, KeepsStyledLines, Static):
    """Lines kept, padded at their left and right too."""


class PaddedBoxes(App[None]):
    CSS = """
    PaddedLines { height: 3; background: $surface; }
    #sides { padding: 0 1; }
    #left { padding: 0 0 0 2; }
    #tall { padding: 1 1; }
    #boxed { height: 5; border: round $accent; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield PaddedLines("one\ntwo [b]bold[/]", id="sides")
        yield PaddedLines("one\ntwo [b]bold[/]", id="left")
        yield PaddedLines("one", id="tall")
        yield PaddedLines("one\ntwo", id="boxed")


async def test_lines_padded_at_their_sides_are_textuals_and_come_back_as_the_same_object() -> None:
    """`StyledPaddedLines`: a widget padded at its left and right only keeps its styled
    lines as a plain one does (the same objects again), and they are Textual's; padding
    above or below, or a border, are styled by Textual each time."""
    from textual._styles_cache import StylesCache
    from textual.geometry import Region

    app = PaddedBoxes()
    async with app.run_test(size=(30, 16)) as pilot:
        await pilot.pause()
        for widget in app.query(PaddedLines):
            assert isinstance(widget._styles_cache, StyledPaddedLines)
            whole = Region(0, 0, *widget.size)
            kept = widget.render_lines(whole)
            widget._styles_cache.clear()
            again = widget.render_lines(whole)
            textuals = StylesCache().render_widget(widget, whole)
            assert (
                [list(s) for s in kept] == [list(s) for s in textuals] == [list(s) for s in again]
            ), widget.id
            same = [a is b for a, b in zip(kept, again, strict=True)]
            assert all(same) if widget.id in ("sides", "left") else not all(same), widget.id


# ---- hub14 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_section_keys_and_the_launch_plan_leave_what_textual_draws_afresh(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A section brought back (`ParksChildren.place`: its lines kept, nothing of it repainted;
    `ParksChildren.arrange` kept) and the launch plan's Enter and Esc write frames that leave
    the terminal showing, cell for cell, what Textual's compositor draws of the screen with
    every line drawn anew."""
    import pyte

    app = year_app(tmp_path, "year", hints=True)
    async with app.run_test(size=size) as pilot:
        await show_every_section(app, pilot)
        width, height = size
        terminal = pyte.Screen(width, height)
        stream = pyte.Stream(terminal)
        stream.feed(drawn_afresh(app))
        frames = _count_frames(app)
        keys = ["2", "6", "enter", "escape", "down", "enter", "3", "6", "escape", "7", "1"]
        for key in [*keys, "4", "5", "2", "6", "enter", "escape"]:
            await pilot.press(key)
            await pilot.pause()
            assert frames, key  # every key here shows something new
            for frame in frames:
                stream.feed(frame.render_segments(app.console))  # type: ignore[attr-defined]
            frames.clear()
            assert cells(terminal) == cells(afresh_in_a_terminal(app)), key


# ---- dw15 ------------------------------------------------------------------------------------
async def test_day_reports_of_as_many_rows_as_one_before_are_drawn_without_a_layout(
    tmp_path: Path,
) -> None:
    """The app keeps up to `REPORTS_KEPT` day reports, each laid out for the rows of its text:
    a report of a number of rows one of them was laid out for is that one filled again and
    drawn with no layout of its screen (days of two and of three lines taking turns), one of
    rows none has is laid out (a spare one first: another is made, out of sight, after its
    frame, as after the first report's); each
    frame is the picture Textual draws of the report from scratch, every line in it."""
    from textual._compositor import Compositor

    from mac_tui.tui.screens.dayreport import (
        REPORTS_KEPT,
        DayReportScreen,
        kept_reports,
        show_day_report,
    )

    app = year_app(tmp_path, "year")
    long = "A line long enough to wrap in the report's seventy columns, " * 2
    texts = [
        ["one", "two"],
        ["three", "four", "five"],
        ["six", "seven"],
        ["eight", "nine", "ten"],
        ["x", long],
        ["eleven", "twelve"],
        ["y", long],
        ["a", "b", "c", "d", "e", "f"],
        ["g", "h", "i"],
        ["j", "k", "l", "m", "n", "o"],
    ]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        reflowed: list[object] = []
        reflow = Compositor.reflow

        def counted(self: Compositor, parent: Any, size: Any) -> Any:
            reflowed.append(self)
            return reflow(self, parent, size)

        Compositor.reflow = counted  # type: ignore[method-assign]
        seen: dict[int, object] = {}  # the rows shown before, and the report that showed them
        try:
            for lines in texts:
                frames = _count_frames(app)
                reflowed.clear()
                show_day_report(app, lines)
                await pilot.pause(0.05)
                await app.workers.wait_for_complete()  # a report made after the frame
                report = app.screen
                assert isinstance(report, DayReportScreen)
                rows = report.rows()
                laid = report._compositor in reflowed
                assert laid == (rows not in seen), lines
                if rows in seen:
                    assert report is seen[rows]
                seen = {n: kept for n, kept in seen.items() if kept is not report}
                seen[rows] = report  # (laid out again, a report shows these rows now)
                assert len(frames) == 1 or lines is texts[0]  # the first composes the report
                written = frames[-1].render_segments(app.console)  # type: ignore[attr-defined]
                assert written == drawn_afresh(app)
                shown = words(written)
                assert all(line in shown for line in lines if line != long)
                assert len(kept_reports(app)) <= REPORTS_KEPT
                await pilot.press("escape")
                await pilot.pause(0.05)
        finally:
            Compositor.reflow = reflow  # type: ignore[method-assign]
        assert set(seen) == {2, 3, 6} and len(kept_reports(app)) == REPORTS_KEPT


@pytest.mark.parametrize(
    "text",
    [
        "-2,500 cr  Upkeep, 4 frame(s)\nIt is 02 Jan 2848.",
        "[b]Bold[/b] is repaired\nIt is 03 Jan 2848.",  # a frame's name is the player's:
        "[@click=app.bell]Ring[/] is back from the refit bay\nplain",  # shown as typed
        "A line long enough to wrap in the report's seventy columns, " * 3,
    ],
)
async def test_the_report_text_draws_what_a_static_draws(tmp_path: Path, text: str) -> None:
    """`ReportText` draws its lines one by one and kept, and styles links only for a text
    that may hold one: each line is the one Textual's `Static` draws of the same words
    (`Visual.to_strips`, as `Widget._render_content`), as they are (plain words: a frame's
    name in markup is shown as typed, never styled nor a link); and its rows are the ones
    Textual's `Static` measures."""
    from textual.visual import Visual, visualize

    from mac_tui.tui.screens.dayreport import DayReportScreen, ReportText, show_day_report

    app = year_app(tmp_path, "year")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        for lines in (["first"], text.split("\n")):  # the second: a kept report filled again
            show_day_report(app, lines)
            await pilot.pause(0.05)
            report = app.screen
            assert isinstance(report, DayReportScreen)
            widget = report.query_one(ReportText)
            width, height = widget.size
            words_shown = "\n".join(lines)
            style = widget.visual_style
            plain = Content(words_shown)
            theirs = Visual.to_strips(widget, visualize(widget, plain), width, None, style)
            mine = [widget.render_line(y) for y in range(height)]
            assert height == len(theirs)  # the rows Textual's Static would take
            assert [list(strip) for strip in mine] == [list(strip) for strip in theirs]
            assert mine[0].text.startswith(lines[0][:40])  # the words as typed
            await pilot.press("escape")
            await pilot.pause(0.05)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_day_report_pushed_again_gives_its_rows_again_and_textuals_bytes(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """`KeepsFrameRows`: the kept report pushed again with a text of as many rows writes the
    bytes Textual's own full update writes of it (`Compositor.render_full_update`), and every
    row but its text's is the last frame's row again (the same chops, encoded already)."""
    from textual._compositor import Compositor

    from mac_tui.tui.screens.dayreport import DayReportScreen, ReportText, show_day_report

    app = year_app(tmp_path, "year")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        shown: list[Any] = []
        for lines in (["one", "two"], ["three", "four"], ["five", "six"]):
            frames = _count_frames(app)
            show_day_report(app, lines)
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()
            report = app.screen
            assert isinstance(report, DayReportScreen)
            frame = frames[-1]
            theirs = Compositor.render_full_update(report._compositor)
            assert frame.render_segments(app.console) == theirs.render_segments(app.console)  # type: ignore[attr-defined]
            shown.append((report, frame))
            await pilot.press("escape")
            await pilot.pause(0.05)
        (first, _one), (second, two), (third, three) = shown
        assert first is second is third  # as many rows: the one report filled again
        text = first.query_one(ReportText).region
        kept = {y for y, row in enumerate(three.strips) if row is two.strips[y]}
        assert kept == set(range(size[1])) - set(text.line_range)
