"""The star map: the systems at their galaxy.toml positions, the jump routes as dotted lines.

Each system is a marker (its faction's letter: C Crucible, D Directorate, O Outer Reach,
- contested; `@` where the company is) and its name, both in the faction's colour, so colour is
never the only sign. The selected system is shown in reverse; the planned route to it is drawn
with heavier dots. Arrows pick the nearest system in that direction, Tab cycles through the
systems (neighbours first), a click picks a system, Enter (or a double click) activates it.

`draw_map` is pure (size and selection in, lines and a click map out) so it can be tested
without a terminal.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence

from attrs import field, frozen
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from ...catalog import catalog
from ..glyphs import glyphs
from ..internals import PaintsDirect, laid_size
from .kept_strips import KeepsStrips

CONTESTED_COLOUR = "medium_purple"
MARKERS = {"crucible": "C", "directorate": "D", "outer_reach": "O"}
CONTESTED_MARKER = "-"
HERE_MARKER = "@"
# (route, planned route) by glyph setting
DOTS = {g: (glyphs(g == "ascii").route, glyphs(g == "ascii").planned) for g in ("unicode", "ascii")}


def faction_marker(faction: str) -> str:
    return MARKERS.get(faction, CONTESTED_MARKER)


def faction_colour(faction: str) -> str:
    factions = catalog().factions
    return factions[faction].colour if faction in factions else CONTESTED_COLOUR


def faction_label(faction: str) -> str:
    factions = catalog().factions
    return factions[faction].short if faction in factions else "contested"


def legend(width: int) -> Text:
    """One line naming the markers; the short form when the map is narrow."""
    cat = catalog()
    text = Text()
    parts: list[tuple[str, str, str]] = [
        (faction_marker(f.id), f.short if width >= 70 else f.abbrev, f.colour)
        for f in cat.factions.values()
    ]
    parts.append((CONTESTED_MARKER, "contested", CONTESTED_COLOUR))
    parts.append((HERE_MARKER, "company", ""))
    for i, (mark, name, colour) in enumerate(parts):
        if i:
            text.append("  ")
        text.append(mark, style=f"bold {colour}".strip())
        text.append(f" {name}", style="dim")
    text.truncate(width)
    return text


# ---- layout --------------------------------------------------------------------------------
@frozen
class Placed:
    system: str
    col: int
    row: int
    label_col: int
    label_row: int
    label: str


def bresenham(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells of a straight line from a to b, both ends included."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    out = []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def _scale(value: int, low: int, high: int, cells: int) -> int:
    if high == low or cells <= 1:
        return 0
    return int((value - low) * (cells - 1) / (high - low) + 0.5)


def place_systems(width: int, height: int) -> dict[str, Placed]:
    """Markers scaled into width x height; each name beside its marker (right, left, above,
    below; shortened if need be) where it covers the fewest route dots, never over another
    name or marker."""
    cat = catalog()
    systems = cat.galaxy.system
    xs, ys = [s.x for s in systems], [s.y for s in systems]
    cells = {
        s.id: (
            _scale(s.x, min(xs), max(xs), width),
            _scale(s.y, min(ys), max(ys), height),
        )
        for s in systems
    }
    routes = {cell for r in cat.galaxy.route for cell in bresenham(cells[r.a], cells[r.b])}
    taken: set[tuple[int, int]] = set(cells.values())
    out: dict[str, Placed] = {}
    for s in systems:
        col, row = cells[s.id]
        label_col, label_row, label = _fit_label(s.name, col, row, (width, height), taken, routes)
        for c in range(label_col - 1, label_col + len(label) + 1):
            taken.add((c, label_row))
        out[s.id] = Placed(s.id, col, row, label_col, label_row, label)
    return out


def _fit_label(
    name: str,
    col: int,
    row: int,
    size: tuple[int, int],
    taken: set[tuple[int, int]],
    routes: set[tuple[int, int]],
) -> tuple[int, int, str]:
    width, height = size
    short = name.split()[-1] if name.startswith("The ") else name.split()[0]
    names = [name] if short == name else [name, short, short[:3]]
    best: tuple[int, int, int, str] | None = None
    for name_rank, label in enumerate(names):
        n = len(label)
        spots = (
            (col + 2, row),
            (col - 1 - n, row),
            (col - n // 2, row - 1),
            (col - n // 2, row + 1),
        )
        for spot_rank, (c, r) in enumerate(spots):
            if c < 0 or c + n > width or not 0 <= r < height:
                continue
            span = [(x, r) for x in range(c - 1, c + n + 1)]
            if any(cell in taken for cell in span[1:-1]):
                continue
            cost = 2 * sum(cell in routes for cell in span) + spot_rank + 6 * name_rank
            if best is None or cost < best[0]:
                best = (cost, c, r, label)
    return (col + 1, row, "") if best is None else best[1:]


@frozen
class MapPicture:
    lines: list[Text]
    hits: dict[tuple[int, int], str]  # (col, row) -> system id, for clicks
    placed: dict[str, Placed]


Cell = tuple[int, int]


@frozen
class _Base:
    """What a map of one size and glyph set draws whatever the here, selection and route: the
    places, every route's dots (dim), which routes cover each cell, the cells the markers and
    names own (their blank cells either side included: no dot is ever drawn there), each row
    as drawn with no place picked and no route planned, where a click lands, and the lines
    drawn before (a row of cells and styles -> its Text, so an unchanged row is the same
    Text)."""

    placed: dict[str, Placed]
    markers: frozenset[Cell]
    cells: dict[tuple[str, str], list[Cell]]  # a route's cells from its first end, markers out
    covers: dict[Cell, tuple[tuple[str, str], ...]]  # the routes whose dots a cell shows
    owned: frozenset[Cell]  # the markers', the names' and their blank cells'
    chars: list[list[str]]  # every route dim, every marker and name plain
    styles: list[list[str]]
    hits: dict[Cell, str]  # (col, row) -> system id, for clicks
    texts: dict[tuple[tuple[str, ...], tuple[str, ...]], Text]
    ways: dict[tuple[str, str], list[Cell]]  # a route's cells from a to b, markers out
    rows: list[Text] = field(factory=list)  # `chars` and `styles` as Texts


BASES_KEPT = 8  # sizes and glyph sets kept (the two panel widths, a resize...)
ROWS_KEPT = 512  # a base's rows kept


def _route_cells(placed: dict[str, Placed], markers: frozenset[Cell], a: str, b: str) -> list[Cell]:
    pa, pb = placed[a], placed[b]
    return [c for c in bresenham((pa.col, pa.row), (pb.col, pb.row)) if c not in markers]


@functools.lru_cache(maxsize=BASES_KEPT)
def _base(width: int, rows: int, dot: str) -> _Base:
    cat = catalog()
    placed = place_systems(width, rows)
    markers = frozenset((p.col, p.row) for p in placed.values())
    chars = [[" "] * width for _ in range(rows)]
    styles = [[""] * width for _ in range(rows)]
    cells: dict[tuple[str, str], list[Cell]] = {}
    covers: dict[Cell, list[tuple[str, str]]] = {}
    for route in cat.galaxy.route:
        pair = (route.a, route.b)
        cells[pair] = _route_cells(placed, markers, *pair)
        for c, r in cells[pair]:
            chars[r][c], styles[r][c] = dot, "dim"
            covers.setdefault((c, r), []).append(pair)
    owned: set[Cell] = set(markers)
    for p in placed.values():  # a blank cell either side of each name keeps it readable
        for c in (p.label_col - 1, p.label_col + len(p.label)):
            if 0 <= c < width and (c, p.label_row) not in markers:
                chars[p.label_row][c], styles[p.label_row][c] = " ", ""
                owned.add((c, p.label_row))
    hits: dict[Cell, str] = {}
    for p in placed.values():
        faction = cat.systems[p.system].faction
        colour = faction_colour(faction)
        chars[p.row][p.col], styles[p.row][p.col] = faction_marker(faction), f"bold {colour}"
        hits[(p.col, p.row)] = p.system
        for i, ch in enumerate(p.label):
            c = p.label_col + i
            chars[p.label_row][c], styles[p.label_row][c] = ch, colour
            hits[(c, p.label_row)] = p.system
            owned.add((c, p.label_row))
    base = _Base(
        placed,
        markers,
        cells,
        {cell: tuple(pairs) for cell, pairs in covers.items()},
        frozenset(owned),
        chars,
        styles,
        hits,
        {},
        {},
    )
    base.rows.extend(_row_text(base, chars[row], styles[row]) for row in range(rows))
    return base


def _row_text(base: _Base, chars: list[str], styles: list[str]) -> Text:
    key = (tuple(chars), tuple(styles))
    text = base.texts.get(key)
    if text is None:
        text = Text(no_wrap=True, end="")
        start = 0
        for end in range(1, len(chars) + 1):
            if end == len(chars) or styles[end] != styles[start]:
                text.append("".join(chars[start:end]), style=styles[start] or None)
                start = end
        if len(base.texts) >= ROWS_KEPT:
            base.texts.clear()
        base.texts[key] = text
    return text


@functools.lru_cache(maxsize=BASES_KEPT)
def _legend(width: int) -> Text:
    return legend(width)


def draw_map(
    width: int,
    height: int,
    *,
    here: str,
    selected: str | None,
    route: Sequence[str] = (),
    glyphs: str = "unicode",
    accent: str = "yellow",
) -> MapPicture:
    """The map as `height` lines of `width` cells (the last one a legend when there is room).
    The places, the routes' dots and the rows with no place picked of a size are worked out
    once (`_base`); a picture draws again only the rows its here, selection and route change
    (a row drawn before is the same Text again), the others are the base's."""
    rows = height - 1 if height >= 8 else height
    dot, heavy = DOTS.get(glyphs, DOTS["ascii"])
    base = _base(width, rows, dot)
    placed, owned = base.placed, base.owned
    changed: dict[int, tuple[list[str], list[str]]] = {}

    def put(c: int, r: int, char: str, style: str) -> None:
        row = changed.get(r)
        if row is None:
            row = changed[r] = (base.chars[r][:], base.styles[r][:])
        row[0][c], row[1][c] = char, style

    planned = set(itertools.pairwise(route)) | {(b, a) for a, b in itertools.pairwise(route)}
    if planned:  # a planned route's dim dots go, where no other route's lie
        for pair, cells in base.cells.items():
            if pair in planned:
                for c, r in cells:
                    if (c, r) not in owned and all(o in planned for o in base.covers[(c, r)]):
                        put(c, r, " ", "")
        for a, b in itertools.pairwise(route):
            way = base.ways.get((a, b))
            if way is None:
                way = base.ways[(a, b)] = _route_cells(placed, base.markers, a, b)
            for c, r in way:
                if (c, r) not in owned:
                    put(c, r, heavy, f"bold {accent}")
    cat = catalog()
    for system in dict.fromkeys((here, selected)):
        p = placed.get(system or "")
        if p is None:
            continue
        colour = faction_colour(cat.systems[p.system].faction)
        if p.system == here:
            put(p.col, p.row, HERE_MARKER, f"bold {colour} reverse")
        label_style = f"bold underline {colour}"
        if p.system == selected:
            label_style = f"bold reverse {colour}"
        for i, ch in enumerate(p.label):
            put(p.label_col + i, p.label_row, ch, label_style)
    lines = list(base.rows)
    for r, (chars, styles) in changed.items():
        lines[r] = _row_text(base, chars, styles)
    if rows < height:
        lines.append(_legend(width))
    return MapPicture(lines, base.hits, placed)


_EMPTY = Text("")  # the map before the section shows a place


# ---- choosing a system ---------------------------------------------------------------------
def nearest_in_direction(origin: str, dx: int, dy: int) -> str | None:
    """The system closest to `origin` in a direction (galaxy coordinates, y down), favouring
    the ones straight ahead; None when nothing lies that way."""
    cat = catalog()
    o = cat.systems[origin]
    best: tuple[float, str] | None = None
    for s in cat.galaxy.system:
        vx, vy = s.x - o.x, s.y - o.y
        ahead = vx * dx + vy * dy
        if s.id == origin or ahead <= 0:
            continue
        score = ahead + 2 * abs(vx * dy - vy * dx)
        if best is None or (score, s.id) < best:
            best = (score, s.id)
    return None if best is None else best[1]


class StarMap(PaintsDirect, KeepsStrips, Widget, can_focus=True):
    """The galaxy map; the section sets `here`, `route` and `order` and listens for
    `StarMap.Selected` (or is told at once: `on_selected`) and `StarMap.Activated`. A new
    selection or route draws and writes only the lines it changes (`KeepsStrips`: the old and
    the new selected name, the route's dots)."""

    REPAINTS_CHANGED_ROWS = True

    DEFAULT_CSS = """
    StarMap { width: 1fr; height: 1fr; }
    StarMap:focus { background: $boost; }
    """
    # The arrows are priority bindings (as the hub's tables' cursors): Textual runs them as
    # the key reaches the app, not after it went down to the map and climbed back through
    # the section, the stack and the screen (five message hops).
    BINDINGS = [
        Binding("up", "move(0, -1)", "North", show=False, id="galaxy.north", priority=True),
        Binding("down", "move(0, 1)", "South", show=False, id="galaxy.south", priority=True),
        Binding("left", "move(-1, 0)", "West", show=False, id="galaxy.west", priority=True),
        Binding("right", "move(1, 0)", "East", show=False, id="galaxy.east", priority=True),
        Binding("tab", "cycle(1)", "Next", id="galaxy.next"),
        Binding("shift+tab", "cycle(-1)", "Previous system", show=False, id="galaxy.previous"),
        Binding("enter", "activate", "Go", id="galaxy.go"),
    ]

    class Selected(Message):
        def __init__(self, system: str) -> None:
            super().__init__()
            self.system = system

    class Activated(Message):
        def __init__(self, system: str) -> None:
            super().__init__()
            self.system = system

    def __init__(
        self, *, id: str | None = None, on_selected: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(id=id)
        self.on_selected = on_selected  # told a new selection at once, in the Selected's place
        self.here = ""
        self.selected = ""
        self.route: tuple[str, ...] = ()
        self.order: tuple[str, ...] = ()
        self._hits: dict[tuple[int, int], str] = {}
        # the last drawn: its key, the picture, and its lines joined once asked for
        self._drawn: tuple[tuple[object, ...], MapPicture, Text | None] | None = None

    def show(self, here: str, selected: str, route: Iterable[str], order: Iterable[str]) -> None:
        self.here, self.selected = here, selected
        self.route, self.order = tuple(route), tuple(order)
        self.refresh()

    def picture(self) -> MapPicture:
        """The map, drawn once per size, place, selection, route, glyphs and accent (a focus
        change, a hub section coming forward, draws nothing again)."""
        settings = getattr(self.app, "settings", None)
        glyphs = getattr(settings, "glyphs", "unicode")
        accent = self.app.current_theme.accent or "yellow"
        size = laid_size(self)
        width, height = max(size.width, 1), max(size.height, 1)
        key = (width, height, self.here, self.selected, self.route, glyphs, accent)
        if self._drawn is None or self._drawn[0] != key:
            self._drawn = (
                key,
                draw_map(
                    width,
                    height,
                    here=self.here,
                    selected=self.selected,
                    route=self.route,
                    glyphs=glyphs,
                    accent=accent,
                ),
                None,
            )
        return self._drawn[1]

    def kept_picture(self) -> object:
        if not self.here:
            return _EMPTY
        picture = self.picture()
        self._hits = picture.hits
        return picture

    def picture_lines(self, picture: object) -> Iterable[Text | Content] | None:
        if isinstance(picture, MapPicture):
            return picture.lines  # held apart already
        return super().picture_lines(picture)

    def render(self) -> Text:
        """The map as one text (what Textual would draw; the lines are drawn from the
        picture, `kept_picture`)."""
        if not self.here:
            return _EMPTY
        picture = self.picture()
        self._hits = picture.hits
        assert self._drawn is not None
        key, _, text = self._drawn
        if text is None:
            text = Text("\n", end="").join(picture.lines)
            self._drawn = (key, picture, text)
        return text

    def text(self) -> str:
        """The map as plain text (what a screen reader or a test sees)."""
        return "\n".join(line.plain for line in self.picture().lines)

    # ---- choosing -----------------------------------------------------------------------
    def select(self, system: str) -> None:
        if system and system != self.selected:
            self.selected = system
            self.refresh()
            if self.on_selected is not None:
                self.on_selected(system)
            else:
                self.post_message(self.Selected(system))

    def action_move(self, dx: int, dy: int) -> None:
        target = nearest_in_direction(self.selected or self.here, dx, dy)
        if target is not None:
            self.select(target)

    def action_cycle(self, step: int) -> None:
        if not self.order:
            return
        current = self.order.index(self.selected) if self.selected in self.order else -1
        self.select(self.order[(current + step) % len(self.order)])

    def action_activate(self) -> None:
        if self.selected:
            self.post_message(self.Activated(self.selected))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        system = self._hits.get((offset.x, offset.y))
        if system is None:
            return
        self.select(system)
        if event.chain >= 2:
            self.action_activate()
