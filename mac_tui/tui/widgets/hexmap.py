"""The battle map: pointy-top hexes in the odd-r offset layout, drawn with Textual's line API.

Layouts (chosen from the widget's content size; `get_content_width/height` report the compact
size, so `width: auto` gets the compact map and `1fr` gets the roomy one when it fits):

compact  2 columns x 1 line per hex, odd rows shifted right by 1: a 20x14 map is 41 x 14.
         An empty hex is its terrain glyph and a mark slot (`. ` or `.*`); a frame is its
         class letter and number (`M1` yours, `m1` the enemy's)::

             . . M1. ^ .
              . . .*.*m2.

roomy    4 columns x 2 lines per hex, odd rows shifted right by 2: a 20x14 map is 82 x 28.
         Top line ` M1 ` (or the terrain twice), bottom line the terrain under it twice, or
         the overlay mark twice; legal targets are drawn `[m1]`, the chosen target `>m1<`.

Overlay marks (never colour alone; the background tints come from component classes):
path `*`/`•`, LOS hex `-`, LOS hex with a penalty `!`, a hex of high ground that blocks the
line `|`/`┃` (O2.6), a wreck `x`/`×`, reach `+`/`◦`, deployment zone `=` (no terrain glyph
in either form).

Ground levels (optional rule O2): a digit 1-3 beside the terrain glyph (compact: in the mark
slot, `.2`, while no mark is there; roomy: the bottom line's second glyph, ` .2 `, under a
frame too); level 0 shows no digit, and a map without levels is drawn as before.

A frame out of the fight with its pilot dead keeps its class letter with the out mark
(`Mx`/`M×` compact; the mark under its label roomy), dimmed and struck through. The ruler: the
row numbers in a 2-column gutter on the left, the column letters on a line on top
(battle_words.hex_name: ``C7``), the cursor's letter and number reversed. The cursor is
reversed, the active frame bold and underlined (on a primary tint), legal targets underlined
(on an error tint), the chosen target bold on the error colour.

Repaints: every drawn line has a signature (its text runs and their component classes). A
change (`show`, `set_cursor`, the hover, `ascii_glyphs`) recomputes the signatures of the rows
it may touch and refreshes only the lines whose signature differs; `render_line` builds a
line's `Strip` once and caches it until its signature changes.

The geometry, the marks and the look of each hex are in hex_picture.py (pure); this module is
the widget: keys, mouse, cursor, sizing and repainting.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.dom import NoScreen
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...combat.state import Battle
from ...hexgrid import Hex, from_offset, to_offset
from ..internals import KeepsStyledLines, PaintsDirect
from .focus_styles import KeepsFocusStyles
from .hex_picture import (
    COMPONENT_CLASSES,
    GEOMETRY,
    NO_OVERLAY,
    STEPS,
    TOP,
    VERTICAL,
    HexPart,
    Layout,
    LayoutMode,
    LineSig,
    Overlay,
    Painter,
    Scene,
    StyleKey,
    cell_of,
    contains,
    drawing_size,
    frame_label,
    hex_at,
    join_row,
    largest_map,
    legend,
)

__all__ = ["HexMap", "Layout", "Overlay", "drawing_size", "frame_label", "legend"]

LINES_KEPT = 1024  # drawn lines kept by their signature (the overlays of a few keys)
SCENES_KEPT = 16  # overlays of one battle state whose scenes are kept (a mode's, Tab's...)
ROWS_KEPT = 2048  # map rows' lines kept, by scene, row and layout
NOWHERE = Hex(-(10**6), -(10**6))  # no hex of any map: a row drawn with no cursor on it
RULER_ROW = -1  # the ruler's line, among the rows `_redraw` is given
#: The keypad's digits as hex directions (5 is the centre: no step).
NUMPAD = {"7": "nw", "9": "ne", "4": "w", "6": "e", "1": "sw", "3": "se", "8": "up", "2": "down"}


class HexMap(PaintsDirect, KeepsStyledLines, KeepsFocusStyles, Widget, can_focus=True):
    """The hex map of the battle screens. `show()` gives it a battle to draw; the cursor moves
    with the keys and the mouse and is reported by `CursorMoved`; Enter or a second click on
    the cursor's hex posts `Picked`."""

    DEFAULT_CSS = """
    HexMap { width: auto; height: auto; }
    HexMap > .hexmap--base { color: $text; }
    HexMap > .hexmap--terrain { color: $text-muted; }
    HexMap > .hexmap--open { color: $text-muted; }
    HexMap > .hexmap--forest { color: $text-success; }
    HexMap > .hexmap--rocks { color: $text; }
    HexMap > .hexmap--rough { color: $text-warning; }
    HexMap > .hexmap--sand { color: $text-accent; }
    HexMap > .hexmap--zone { background: $secondary-muted; }
    HexMap > .hexmap--reach { background: $primary-muted; }
    HexMap > .hexmap--path { background: $accent-muted; }
    HexMap > .hexmap--los { background: $warning-muted; }
    HexMap > .hexmap--los-penalty { background: $error-muted; }
    HexMap > .hexmap--blocks { background: $error; color: $background; }
    HexMap > .hexmap--mark { color: $text; text-style: bold; }
    HexMap > .hexmap--wreck { color: $text-muted; }
    HexMap > .hexmap--player { color: $text-secondary; text-style: bold; }
    HexMap > .hexmap--enemy { color: $text-error; text-style: bold; }
    HexMap > .hexmap--marker { color: $text-muted; text-style: italic; }
    HexMap > .hexmap--ally { color: $text-success; text-style: bold; }
    HexMap > .hexmap--neutral { color: $text-warning; text-style: bold; }
    HexMap > .hexmap--targetable { text-style: bold underline; background: $error-muted; }
    HexMap > .hexmap--target { background: $error; color: $background; text-style: bold; }
    HexMap > .hexmap--active { text-style: bold underline; background: $primary-muted; }
    HexMap > .hexmap--hover { background: $panel-lighten-2; }
    HexMap > .hexmap--cursor { text-style: bold reverse; }
    HexMap > .hexmap--out { text-style: strike; color: $text-muted; }
    HexMap > .hexmap--feature { color: $text; text-style: bold; }
    HexMap > .hexmap--damaged { color: $text-warning; text-style: bold; }
    HexMap > .hexmap--smoke { background: $surface-lighten-2; }
    HexMap > .hexmap--cone { background: $error-muted 50%; }
    HexMap > .hexmap--ruler { color: $text-muted; }
    HexMap > .hexmap--ruler-on { text-style: bold reverse; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = set(COMPONENT_CLASSES)

    #: Priority bindings: Textual runs them as the key reaches the app, not after the key
    #: went down to the map and climbed back up through its containers to the app (some
    #: 0.3 ms of a cursor move's ~2). They run only while the map is focused (in the key's
    #: binding chain), and before the host's own bindings of the same keys, as before.
    #: (`Screen.active_bindings` keeps, of two priority bindings of one key, the focused
    #: widget's: so a key the host binds with priority too must not be one here.)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step('e')", "East", show=False, priority=True, id="hexmap.e"),
        Binding("left,h", "step('w')", "West", show=False, priority=True, id="hexmap.w"),
        Binding("up,k", "step('up')", "Up", show=False, priority=True, id="hexmap.up"),
        Binding("down,j", "step('down')", "Down", show=False, priority=True, id="hexmap.down"),
        Binding("y,home", "step('nw')", "North-west", show=False, priority=True, id="hexmap.nw"),
        Binding("u,pageup", "step('ne')", "North-east", show=False, priority=True, id="hexmap.ne"),
        Binding("b,end", "step('sw')", "South-west", show=False, priority=True, id="hexmap.sw"),
        Binding(
            "n,pagedown", "step('se')", "South-east", show=False, priority=True, id="hexmap.se"
        ),
        # Enter stays an ordinary binding: the battle screen's priority Enter rows (Next
        # order, Report) must win the footer's one place per key, as they win the key.
        Binding("enter", "pick", "Pick", show=False, id="hexmap.pick"),
        # The numeric keypad: with Num Lock off it sends the keys above (7 Home, 9 PgUp,
        # 1 End, 3 PgDn, 4 6 8 2 the arrows); with it on, the digits, taken here while
        # `numpad_digits` is on (the battle screen turns it off while 1-4 pick a group).
        *(
            Binding(
                key, f"numpad('{way}')", way, show=False, priority=True, id=f"hexmap.numpad{key}"
            )
            for key, way in NUMPAD.items()
        ),
    ]

    class CursorMoved(Message):
        """The cursor is on a new hex."""

        def __init__(self, map: HexMap, hex: Hex) -> None:
            super().__init__()
            self.map = map
            self.hex = hex

        @property
        def control(self) -> HexMap:
            return self.map

    class Picked(Message):
        """The hex under the cursor was chosen (Enter, or a click on the cursor's hex)."""

        def __init__(self, map: HexMap, hex: Hex) -> None:
            super().__init__()
            self.map = map
            self.hex = hex

        @property
        def control(self) -> HexMap:
            return self.map

    def __init__(
        self,
        *,
        ascii_glyphs: bool = False,
        layout_mode: LayoutMode = "auto",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._painter = Painter(ascii_glyphs)
        self._layout_mode: LayoutMode = layout_mode
        self._layout: Layout = "compact"
        self._battle: Battle | None = None
        self._scene: Scene | None = None  # the battle's per-hex look-ups, rebuilt by show()
        self._cursor = Hex(0, 0)
        self._pending_cursor: Hex | None = None  # set_cursor() before the first show()
        self.numpad_digits = True  # the digits step the cursor (off while they mean more)
        self._hover: Hex | None = None
        self._width = 0
        self._height = 0
        # drawing caches
        self._sigs: list[LineSig | None] = []
        self._strips: dict[int, Strip] = {}
        self._by_sig: dict[LineSig, Strip] = {}  # lines drawn lately, by their signature
        self._styles: dict[StyleKey, Style] = {}
        # the scenes of this battle's frames under each overlay shown lately, and their rows'
        # hexes drawn without cursor or hover (a mode's overlay shown again: f, Esc, f...
        # draws none of its rows again; a cursor's row draws its one hex again)
        self._scenes: dict[Overlay, Scene] = {}
        self._rows: dict[tuple[int, int, Layout], tuple[Scene, list[HexPart], list[LineSig]]] = {}
        self._held: set[int] | None = None  # rows to redraw at the end of `held()`
        self._held_all = False  # ... all of them
        self._held_full = False  # ... and every line refreshed

    # ---- public API ---------------------------------------------------------------------
    @property
    def ascii_glyphs(self) -> bool:
        return self._painter.ascii

    @ascii_glyphs.setter
    def ascii_glyphs(self, value: bool) -> None:
        if value != self._painter.ascii:
            self._painter = Painter(value)
            self._rows.clear()
            self._redraw()

    @property
    def layout_mode(self) -> LayoutMode:
        """How the layout is chosen: "auto" (from the size), or a forced "compact" / "roomy"."""
        return self._layout_mode

    @layout_mode.setter
    def layout_mode(self, value: LayoutMode) -> None:
        if value != self._layout_mode:
            self._layout_mode = value
            self.refresh(layout=True)  # an auto-sized map asks for the new room
        self._relayout()

    @property
    def map_layout(self) -> Layout:
        """The layout in use ("compact" or "roomy")."""
        return self._layout

    @property
    def battle(self) -> Battle | None:
        return self._battle

    @property
    def cursor(self) -> Hex:
        return self._cursor

    @property
    def hover(self) -> Hex | None:
        return self._hover

    def show(
        self, battle: Battle, *, active: str | None = None, overlay: Overlay = NO_OVERLAY
    ) -> None:
        """Draw this state: `active` is the id of the frame to highlight (None: none).

        Repaints only the lines whose content changed. On the first call (or when the map's
        size changes) the cursor goes to the hex given to `set_cursor` before, else to the
        active frame, else into the zone, else the centre, and `CursorMoved` is posted."""
        bmap = battle.map
        resized = (bmap.width, bmap.height) != (self._width, self._height)
        before = self._scene
        same_battle = battle is self._battle and before is not None and before.active == active
        self._battle = battle
        self._scene = scene = self._scene_under(battle, active, overlay, same_battle)
        self._width, self._height = bmap.width, bmap.height
        if resized:
            start = self._pending_cursor if self._contains(self._pending_cursor) else None
            self._pending_cursor = None
            if start is None:
                start = scene.active_hex
            if start is None and overlay.zone:
                start = min(overlay.zone, key=lambda h: (to_offset(h)[1], to_offset(h)[0]))
            if start is None:
                start = from_offset(bmap.width // 2, bmap.height // 2)
            self._cursor = start
            self._hover = None
            self._relayout(force=True)
            self.refresh(layout=True)
            self.moved(start)
        elif same_battle and before is not None:
            self._redraw(before.overlay.rows_changed(overlay))  # only what the overlay touches
        else:
            self._redraw()

    def _scene_under(
        self, battle: Battle, active: str | None, overlay: Overlay, same_battle: bool
    ) -> Scene:
        """The scene of `battle` under `overlay`: the one made for it before while the battle
        and the active frame are the same (its rows' lines kept with it), else a new one."""
        before = self._scene
        if not same_battle or before is None:
            self._scenes.clear()
            self._rows.clear()
            scene = Scene.of(battle, active, overlay)
        else:
            scene = self._scenes.get(overlay) or before.with_overlay(overlay)
        if len(self._scenes) >= SCENES_KEPT:
            self._scenes.clear()
        self._scenes[overlay] = scene
        return scene

    def _row_lines(self, scene: Scene, row: int) -> list[LineSig]:
        """The lines of a map row (`Painter.row_lines`): its hexes' runs without cursor or
        hover kept per scene, and on the cursor's or the hover's row those of its hex drawn
        again and the row joined anew."""
        cursor, hover, layout = self._cursor, self._hover, self._layout
        key = (id(scene), row, layout)
        kept = self._rows.get(key)
        if kept is None or kept[0] is not scene:
            painter = self._painter
            parts = [
                painter.hex_part(scene, from_offset(col, row), layout, NOWHERE, None)
                for col in range(scene.width)
            ]
            if len(self._rows) >= ROWS_KEPT:
                self._rows.clear()
            # the scene kept with them: its id names no other
            kept = self._rows[key] = (scene, parts, join_row(row, layout, False, parts))
        on_row = [h for h in (cursor, hover) if h is not None and h.r == row]
        if not on_row:
            return kept[2]
        parts = list(kept[1])
        for h in on_row:
            parts[to_offset(h)[0]] = self._painter.hex_part(scene, h, layout, cursor, hover)
        return join_row(row, layout, cursor.r == row, parts)

    def set_cursor(self, h: Hex) -> None:
        """Move the cursor (ignored off the map); repaints the old and new lines only.

        Before the first `show()` the hex is kept for it (and used if it is on its map)."""
        if self._battle is None:
            self._pending_cursor = h
            return
        if not self._contains(h) or h == self._cursor:
            return
        old = self._cursor
        self._cursor = h
        rows = [old.r, h.r]
        if to_offset(old)[0] != to_offset(h)[0]:
            rows.append(RULER_ROW)  # the ruler marks the cursor's column
        self._redraw(rows)
        self.moved(h)

    @contextmanager
    def held(self) -> Iterator[None]:
        """The rows that `show` and `set_cursor` change inside the block are computed once, at
        its end (a key that moves the cursor and changes the overlay: the cursor's rows are
        not computed under the old overlay first)."""
        if self._held is not None:
            yield
            return
        self._held, self._held_all, self._held_full = set(), False, False
        try:
            yield
        finally:
            rows, every, full = self._held, self._held_all, self._held_full
            self._held = None
            if every or full:
                self._redraw(full=full)
            elif rows:
                self._redraw(rows)

    def moved(self, h: Hex) -> None:
        """Say the cursor is on `h`: `CursorMoved`, posted to the screen, where the hosts
        handle it, rather than to the map, whence it would climb through each container
        between them (a message queue each: 0.1 ms of a key's CPU); not mounted yet, to the
        map."""
        message = self.CursorMoved(self, h)
        try:
            screen = self.screen
        except NoScreen:
            self.post_message(message)
        else:
            screen.post_message(message)

    def step_cursor(self, direction: str) -> None:
        """One step: "e", "w", "ne", "nw", "se", "sw", or "up" / "down" (the neighbour above or
        below that keeps the drawn column: north-east from an even row, north-west from an
        odd one, and likewise south)."""
        q, r = self._cursor
        if direction in VERTICAL:
            direction = VERTICAL[direction][r % 2]
        if direction not in STEPS:
            raise ValueError(f"unknown direction {direction!r}")
        dq, dr = STEPS[direction]
        self.set_cursor(Hex(q + dq, r + dr))

    def hex_at(self, x: int, y: int) -> Hex | None:
        """Content coordinates -> the hex drawn there (None off the map)."""
        if self._battle is None:
            return None
        return hex_at(self._layout, self._width, self._height, x, y)

    def cell_of(self, h: Hex) -> tuple[int, int]:
        """The hex -> (x, y) of the top-left cell of its drawing (content coordinates)."""
        return cell_of(self._layout, h)

    def text(self) -> str:
        """The drawing as plain text, one line per drawn line (right-trimmed)."""
        return "\n".join(
            "".join(t for t, _ in sig).rstrip() for sig in self._sigs if sig is not None
        )

    # ---- sizing -------------------------------------------------------------------------
    def _map_dims(self) -> tuple[int, int]:
        if self._battle is None:
            return largest_map()
        return self._width, self._height

    def _sized_layout(self) -> Layout:
        """The layout an auto-sized map asks room for: the one set, else the compact one."""
        return "compact" if self._layout_mode == "auto" else self._layout_mode

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return drawing_size(*self._map_dims(), self._sized_layout()).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return drawing_size(*self._map_dims(), self._sized_layout()).height

    def _pick_layout(self) -> Layout:
        if self._layout_mode != "auto":
            return self._layout_mode
        if self._battle is None:
            return "compact"
        roomy = drawing_size(self._width, self._height, "roomy")
        size = self.content_size
        if size.width >= roomy.width and size.height >= roomy.height:
            return "roomy"
        return "compact"

    def _relayout(self, force: bool = False) -> None:
        layout = self._pick_layout()
        if force or layout != self._layout:
            self._layout = layout
            self._sigs = [None] * (TOP + GEOMETRY[layout][1] * self._height)
            self._strips.clear()
            self._redraw(full=True)

    def on_resize(self, event: events.Resize) -> None:
        self._relayout()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._strips.clear()
        self._by_sig.clear()

    # ---- keys and mouse -----------------------------------------------------------------
    def action_step(self, direction: str) -> None:
        self.step_cursor(direction)

    def action_numpad(self, direction: str) -> None:
        self.step_cursor(direction)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keypad's digits step the cursor only while `numpad_digits` is on."""
        if action == "numpad":
            return self.numpad_digits
        return True

    def action_pick(self) -> None:
        if self._battle is not None:
            self.post_message(self.Picked(self, self._cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        h = self.hex_at(offset.x, offset.y)
        if h is None:
            return
        event.stop()
        if h == self._cursor:
            self.post_message(self.Picked(self, h))
        else:
            self.set_cursor(h)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        self._set_hover(None if offset is None else self.hex_at(offset.x, offset.y))

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, h: Hex | None) -> None:
        if h == self._hover:
            return
        rows = [x.r for x in (self._hover, h) if x is not None]
        self._hover = h
        self._redraw(rows)

    # ---- drawing ------------------------------------------------------------------------
    def _contains(self, h: Hex | None) -> bool:
        return contains(self._width, self._height, h)

    def _redraw(self, rows: Iterable[int] | None = None, *, full: bool = False) -> None:
        """Recompute the signatures of `rows` (all rows when None) and refresh the lines that
        changed (every line when `full`); inside `held()`, at its end."""
        if self._held is not None:
            if rows is None:
                self._held_all = True
            else:
                self._held.update(rows)
            self._held_full = self._held_full or full
            return
        scene = self._scene
        if scene is None:
            return
        lines = GEOMETRY[self._layout][1]
        if len(self._sigs) != TOP + lines * self._height:
            self._sigs = [None] * (TOP + lines * self._height)
            full = True
        todo = range(RULER_ROW, self._height) if rows is None else sorted(set(rows))
        changed: list[int] = []
        for row in todo:
            if row == RULER_ROW:
                sig = self._painter.ruler_line(scene, self._layout, self._cursor)
                if self._sigs[0] != sig:
                    self._sigs[0] = sig
                    self._strips.pop(0, None)
                    changed.append(0)
                continue
            if not 0 <= row < self._height:
                continue
            for i, sig in enumerate(self._row_lines(scene, row)):
                y = TOP + row * lines + i
                if self._sigs[y] != sig:
                    self._sigs[y] = sig
                    self._strips.pop(y, None)
                    changed.append(y)
        if full:
            self.refresh()
        elif changed:
            width = max(self.size.width, drawing_size(self._width, self._height, "roomy").width)
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    def _style(self, key: StyleKey) -> Style:
        style = self._styles.get(key)
        if style is None:
            style = self.get_component_rich_style(key[0])
            for name in key[1:]:
                style += self.get_component_rich_style(name, partial=True)
            self._styles[key] = style
        return style

    def render_line(self, y: int) -> Strip:
        strip = self._strips.get(y)
        if strip is not None:
            return strip
        sig = self._sigs[y] if 0 <= y < len(self._sigs) else None
        if sig is None:
            return Strip([])
        strip = self._by_sig.get(sig)
        if strip is None:
            style = self._style
            strip = Strip([Segment(text, style(key)) for text, key in sig])
            if len(self._by_sig) >= LINES_KEPT:
                self._by_sig.clear()
            # the same line drawn again is the same object (its styled copy is kept with it)
            self._by_sig[sig] = strip
        self._strips[y] = strip
        return strip
