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
path `*`/`•`, LOS hex `-`, LOS hex with a penalty `!`, a wreck `x`/`×`, reach `+`/`◦`,
deployment zone `:` (zones are always Open ground, so this never reads as sand). The cursor
is reversed, the active frame bold and underlined (on a primary tint), legal targets
underlined (on an error tint), the chosen target bold on the error colour.

Repaints: every drawn line has a signature (its text runs and their component classes). A
change (`show`, `set_cursor`, the hover, `ascii_glyphs`) recomputes the signatures of the rows
it may touch and refreshes only the lines whose signature differs; `render_line` builds a
line's `Strip` once and caches it until its signature changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import ClassVar, Literal

from attrs import frozen
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...catalog import catalog
from ...combat import stats
from ...combat.state import Battle, Unit
from ...hexgrid import Hex, from_offset, to_offset

__all__ = ["HexMap", "Layout", "Overlay", "frame_label", "legend"]

Layout = Literal["compact", "roomy"]
LayoutMode = Literal["auto", "compact", "roomy"]

#: (columns per hex, lines per row, shift of the odd rows) for each layout.
GEOMETRY: dict[Layout, tuple[int, int, int]] = {"compact": (2, 1, 1), "roomy": (4, 2, 2)}

#: Axial steps for the six hex directions.
STEPS: dict[str, tuple[int, int]] = {
    "e": (1, 0),
    "ne": (1, -1),
    "nw": (0, -1),
    "w": (-1, 0),
    "sw": (-1, 1),
    "se": (0, 1),
}

#: "up" / "down" -> the diagonal step from an (even, odd) row that keeps the drawn column.
VERTICAL: dict[str, tuple[str, str]] = {"up": ("ne", "nw"), "down": ("se", "sw")}

#: Overlay marks, (ascii, unicode).
MARKS: dict[str, tuple[str, str]] = {
    "path": ("*", "•"),
    "los": ("-", "-"),
    "los-penalty": ("!", "!"),
    "wreck": ("x", "×"),
    "reach": ("+", "◦"),
    "zone": (":", ":"),
}
#: Roomy layout: the characters either side of a legal target's / the chosen target's label.
BRACKETS: dict[str, tuple[str, str]] = {"targetable": ("[", "]"), "target": (">", "<")}
MARK_NAMES: dict[str, str] = {
    "path": "path",
    "los": "line of fire",
    "los-penalty": "cover on the line",
    "wreck": "wreck",
    "reach": "reach",
    "zone": "deploy zone",
}

TERRAIN_CLASSES = ("open", "forest", "rocks", "rough", "sand")
DEFAULT_TERRAIN_CLASS = "hexmap--terrain"
BASE = "hexmap--base"
MARK = "hexmap--mark"

StyleKey = tuple[str, ...]
Run = tuple[str, StyleKey]
LineSig = tuple[Run, ...]


@frozen
class Overlay:
    """What the screen wants highlighted besides terrain and frames."""

    zone: frozenset[Hex] = frozenset()  # the deployment zone
    reach: frozenset[Hex] = frozenset()  # hexes a Move/Sprint/jump can reach
    path: tuple[Hex, ...] = ()  # the planned path, frame to cursor
    los: tuple[Hex, ...] = ()  # the LOS line's intervening hexes
    los_penalty: frozenset[Hex] = frozenset()  # those of them that carry a penalty
    targets: frozenset[Hex] = frozenset()  # hexes holding legal targets
    target: Hex | None = None  # the chosen target


NO_OVERLAY = Overlay()


def frame_label(unit: Unit) -> str:
    """Two characters: the class letter and the last digit of the unit's number within its
    side (the trailing number of its id, `P3` -> 3); uppercase for the player's frames,
    lowercase for the enemy's."""
    letter = catalog().classes[stats.chassis_of(unit).class_].letter
    found = re.search(r"(\d+)$", unit.id)
    digit = str(int(found.group(1)) % 10) if found else "?"
    text = letter + digit
    return text.upper() if unit.side == "player" else text.lower()


def legend(ascii_glyphs: bool, *, marks: bool = False) -> str:
    """One short line: the terrain glyphs and the frame letters (and the overlay marks)."""
    cat = catalog()
    parts = [
        f"{t.glyph if ascii_glyphs else t.unicode} {t.name.lower()}" for t in cat.terrain.values()
    ]
    parts += ["M1 yours", "m1 enemy"]
    if marks:
        parts += [f"{MARKS[k][0 if ascii_glyphs else 1]} {MARK_NAMES[k]}" for k in MARKS]
    return "  ".join(parts)


def _largest_map() -> tuple[int, int]:
    sizes = catalog().maps.map_size
    return max(m.width for m in sizes), max(m.height for m in sizes)


def drawing_size(width: int, height: int, layout: Layout) -> Size:
    """The cells a width x height map takes in a layout."""
    cw, lines, shift = GEOMETRY[layout]
    return Size(cw * width + (shift if height > 1 else 0), lines * height)


class HexMap(Widget, can_focus=True):
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
    HexMap > .hexmap--mark { color: $text; text-style: bold; }
    HexMap > .hexmap--wreck { color: $text-muted; }
    HexMap > .hexmap--player { color: $text-secondary; text-style: bold; }
    HexMap > .hexmap--enemy { color: $text-error; text-style: bold; }
    HexMap > .hexmap--targetable { text-style: bold underline; background: $error-muted; }
    HexMap > .hexmap--target { background: $error; color: $background; text-style: bold; }
    HexMap > .hexmap--active { text-style: bold underline; background: $primary-muted; }
    HexMap > .hexmap--hover { background: $panel-lighten-2; }
    HexMap > .hexmap--cursor { text-style: bold reverse; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        BASE,
        DEFAULT_TERRAIN_CLASS,
        *(f"hexmap--{t}" for t in TERRAIN_CLASSES),
        "hexmap--zone",
        "hexmap--reach",
        "hexmap--path",
        "hexmap--los",
        "hexmap--los-penalty",
        MARK,
        "hexmap--wreck",
        "hexmap--player",
        "hexmap--enemy",
        "hexmap--targetable",
        "hexmap--target",
        "hexmap--active",
        "hexmap--hover",
        "hexmap--cursor",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step('e')", "East", show=False, id="hexmap.e"),
        Binding("left,h", "step('w')", "West", show=False, id="hexmap.w"),
        Binding("up,k", "step('up')", "Up", show=False, id="hexmap.up"),
        Binding("down,j", "step('down')", "Down", show=False, id="hexmap.down"),
        Binding("y", "step('nw')", "North-west", show=False, id="hexmap.nw"),
        Binding("u", "step('ne')", "North-east", show=False, id="hexmap.ne"),
        Binding("b", "step('sw')", "South-west", show=False, id="hexmap.sw"),
        Binding("n", "step('se')", "South-east", show=False, id="hexmap.se"),
        Binding("enter", "pick", "Pick", show=False, id="hexmap.pick"),
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
        self._ascii = ascii_glyphs
        self._layout_mode: LayoutMode = layout_mode
        self._layout: Layout = "compact"
        self._battle: Battle | None = None
        self._active: str | None = None
        self._overlay = NO_OVERLAY
        self._cursor = Hex(0, 0)
        self._pending_cursor: Hex | None = None  # set_cursor() before the first show()
        self._hover: Hex | None = None
        self._width = 0
        self._height = 0
        # per-hex look-ups, rebuilt by show()
        self._terrain: tuple[str, ...] = ()
        self._frames: dict[Hex, tuple[str, str]] = {}  # hex -> (label, side class)
        self._active_hex: Hex | None = None
        self._wrecks: frozenset[Hex] = frozenset()
        self._path: frozenset[Hex] = frozenset()
        self._los: frozenset[Hex] = frozenset()
        # drawing caches
        self._sigs: list[LineSig | None] = []
        self._strips: dict[int, Strip] = {}
        self._styles: dict[StyleKey, Style] = {}
        self._glyph_cache: dict[str, str] = {}

    # ---- public API ---------------------------------------------------------------------
    @property
    def ascii_glyphs(self) -> bool:
        return self._ascii

    @ascii_glyphs.setter
    def ascii_glyphs(self, value: bool) -> None:
        if value != self._ascii:
            self._ascii = value
            self._glyph_cache.clear()
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
        self._battle = battle
        self._active = active
        self._overlay = overlay
        self._width, self._height = bmap.width, bmap.height
        self._terrain = bmap.terrain
        frames: dict[Hex, tuple[str, str]] = {}
        wrecks: set[Hex] = set()
        active_hex: Hex | None = None
        for unit in battle.units:
            if unit.pos is None:
                continue
            if unit.destroyed:
                wrecks.add(unit.pos)
                continue
            side = "hexmap--player" if unit.side == "player" else "hexmap--enemy"
            frames[unit.pos] = (frame_label(unit), side)
            if unit.id == active:
                active_hex = unit.pos
        self._frames = frames
        self._wrecks = frozenset(wrecks)
        self._active_hex = active_hex
        self._path = frozenset(overlay.path)
        self._los = frozenset(overlay.los)
        if resized:
            start = self._pending_cursor if self._contains(self._pending_cursor) else None
            self._pending_cursor = None
            if start is None:
                start = active_hex
            if start is None and overlay.zone:
                start = min(overlay.zone, key=lambda h: (to_offset(h)[1], to_offset(h)[0]))
            if start is None:
                start = from_offset(bmap.width // 2, bmap.height // 2)
            self._cursor = start
            self._hover = None
            self._relayout(force=True)
            self.refresh(layout=True)
            self.post_message(self.CursorMoved(self, start))
        else:
            self._redraw()

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
        self._redraw((old.r, h.r))
        self.post_message(self.CursorMoved(self, h))

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
        if self._battle is None or x < 0 or y < 0:
            return None
        cw, lines, shift = GEOMETRY[self._layout]
        row = y // lines
        if row >= self._height:
            return None
        x -= shift if row % 2 else 0
        if x < 0:
            return None
        col = x // cw
        if col >= self._width:
            return None
        return from_offset(col, row)

    def cell_of(self, h: Hex) -> tuple[int, int]:
        """The hex -> (x, y) of the top-left cell of its drawing (content coordinates)."""
        cw, lines, shift = GEOMETRY[self._layout]
        col, row = to_offset(h)
        return cw * col + (shift if row % 2 else 0), lines * row

    def text(self) -> str:
        """The drawing as plain text, one line per drawn line (right-trimmed)."""
        return "\n".join(
            "".join(t for t, _ in sig).rstrip() for sig in self._sigs if sig is not None
        )

    # ---- sizing -------------------------------------------------------------------------
    def _map_dims(self) -> tuple[int, int]:
        if self._battle is None:
            return _largest_map()
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
            self._sigs = [None] * (GEOMETRY[layout][1] * self._height)
            self._strips.clear()
            self._redraw(full=True)

    def on_resize(self, event: events.Resize) -> None:
        self._relayout()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._strips.clear()

    # ---- keys and mouse -----------------------------------------------------------------
    def action_step(self, direction: str) -> None:
        self.step_cursor(direction)

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
        if h is None:
            return False
        q, r = h
        return 0 <= r < self._height and 0 <= q + (r - (r & 1)) // 2 < self._width

    def _glyph(self, terrain: str) -> str:
        glyph = self._glyph_cache.get(terrain)
        if glyph is None:
            t = catalog().terrain.get(terrain)
            glyph = "?" if t is None else (t.glyph if self._ascii else t.unicode)
            self._glyph_cache[terrain] = glyph
        return glyph

    def _mark(self, kind: str) -> str:
        return MARKS[kind][0 if self._ascii else 1]

    def _look(self, h: Hex, terrain: str) -> tuple[str | None, str | None, str, StyleKey]:
        """(frame label, mark kind, bracket kind, classes) of one hex."""
        ov = self._overlay
        tclass = f"hexmap--{terrain}"
        if tclass not in self.COMPONENT_CLASSES:
            tclass = DEFAULT_TERRAIN_CLASS
        classes: list[str] = [tclass]
        if h in ov.los_penalty:
            classes.append("hexmap--los-penalty")
        elif h in self._los:
            classes.append("hexmap--los")
        elif h in self._path:
            classes.append("hexmap--path")
        elif h in ov.reach:
            classes.append("hexmap--reach")
        elif h in ov.zone:
            classes.append("hexmap--zone")
        frame = self._frames.get(h)
        label: str | None = None
        mark: str | None = None
        bracket = ""
        if frame is not None:
            label, side = frame
            classes.append(side)
            if h == ov.target:
                classes.append("hexmap--target")
                bracket = "target"
            elif h in ov.targets:
                classes.append("hexmap--targetable")
                bracket = "targetable"
            if h == self._active_hex:
                classes.append("hexmap--active")
        elif h in self._path:
            mark = "path"
        elif h in ov.los_penalty:
            mark = "los-penalty"
        elif h in self._los:
            mark = "los"
        elif h in self._wrecks:
            mark = "wreck"
        elif h in ov.reach:
            mark = "reach"
        elif h in ov.zone:
            mark = "zone"
        if h == self._hover:
            classes.append("hexmap--hover")
        if h == self._cursor:
            classes.append("hexmap--cursor")
        return label, mark, bracket, tuple(classes)

    def _with_mark(self, classes: StyleKey, mark: str) -> StyleKey:
        """The classes of a mark character: the mark style goes under hover and cursor."""
        extra = "hexmap--wreck" if mark == "wreck" else MARK
        n = len(classes)
        while n > 1 and classes[n - 1] in ("hexmap--cursor", "hexmap--hover"):
            n -= 1
        return (*classes[:n], extra, *classes[n:])

    def _row_lines(self, row: int) -> list[LineSig]:
        """The signatures of the drawn lines of one map row."""
        width = self._width
        terrain = self._terrain
        base: StyleKey = (BASE,)
        roomy = self._layout == "roomy"
        top: list[Run] = []
        bottom: list[Run] = []
        if row % 2:
            top.append(("  " if roomy else " ", base))
            if roomy:
                bottom.append(("  ", base))
        first = row * width
        for col in range(width):
            h = from_offset(col, row)
            t = terrain[first + col]
            glyph = self._glyph(t)
            label, mark, bracket, classes = self._look(h, t)
            if not roomy:
                if label is not None:
                    top.append((label, classes))
                elif mark is None:
                    top.append((glyph + " ", classes))
                else:
                    top.append((glyph, classes))
                    top.append((self._mark(mark), self._with_mark(classes, mark)))
                continue
            if label is not None:
                left, right = BRACKETS.get(bracket, (" ", " "))
                top.append((left + label + right, classes))
                bottom.append((" " + glyph * 2 + " ", classes))
            else:
                top.append((" " + glyph * 2 + " ", classes))
                if mark is None:
                    bottom.append((" " + glyph * 2 + " ", classes))
                else:
                    bottom.append((" ", classes))
                    bottom.append((self._mark(mark) * 2, self._with_mark(classes, mark)))
                    bottom.append((" ", classes))
        out = [_merge(top)]
        if roomy:
            out.append(_merge(bottom))
        return out

    def _redraw(self, rows: Iterable[int] | None = None, *, full: bool = False) -> None:
        """Recompute the signatures of `rows` (all rows when None) and refresh the lines that
        changed (every line when `full`)."""
        if self._battle is None:
            return
        lines = GEOMETRY[self._layout][1]
        if len(self._sigs) != lines * self._height:
            self._sigs = [None] * (lines * self._height)
            full = True
        todo = range(self._height) if rows is None else sorted(set(rows))
        changed: list[int] = []
        for row in todo:
            if not 0 <= row < self._height:
                continue
            for i, sig in enumerate(self._row_lines(row)):
                y = row * lines + i
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
        style = self._style
        strip = Strip([Segment(text, style(key)) for text, key in sig])
        self._strips[y] = strip
        return strip


def _merge(runs: Sequence[Run]) -> LineSig:
    """Join neighbouring runs that share their classes."""
    out: list[Run] = []
    for text, key in runs:
        if out and out[-1][1] == key:
            out[-1] = (out[-1][0] + text, key)
        else:
            out.append((text, key))
    return tuple(out)
