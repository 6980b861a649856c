"""A frame drawn by location: the head on top, arms and torsos across, the legs below.

Each location is a box of text lines (`Cell`s) given by the screen: hardpoint slots at the
refit bay, armour and structure in battle. A cell with a `key` can be selected (the `cursor`
draws it reversed with a `▸` in its first column, so the cursor never rests on colour) and
clicked (`FrameDiagram.Clicked`). An optional `extra` row under the diagram lists more cells
(equipment without a hardpoint, say). The diagram keeps to the width it gets: each box is
`min_inner` to `max_inner` columns wide inside. In ascii mode the boxes are drawn with + - |
and the cursor is `>`.

        ┌HD───────┐
        │▸S LL  g1│
┌LA─────┼CT───────┼RT───...
│ ...   │ ...     │ ...
└───────┼LG───────┼──────...
        │ ...     │
        └─────────┘
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from attrs import frozen
from rich.text import Text
from textual.content import Content
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from ...catalog import catalog
from ..glyphs import UNICODE, Glyphs, glyphs_for
from ..internals import PaintsDirect, laid_size
from .kept_strips import KeepsStrips

BODY = ("left_arm", "left_torso", "center_torso", "right_torso", "right_arm")
HEAD, LEGS = "head", "legs"
CURSOR = UNICODE.cursor


@frozen
class Cell:
    """One line of a location box."""

    text: str
    wide: str = ""  # a longer form for wide boxes; a tab marks a tail kept right-aligned
    style: str = ""
    key: Hashable | None = None  # selectable and clickable when set
    flag: str = " "  # a one-character mark in the first column (the cursor's `▸` wins)


Hit = tuple[int, int, int, Hashable]  # (line, first column, end column, key)
WIDE_ROOM = 12  # the narrowest room in which a cell's wide form is used


def cell_text(cell: Cell, room: int, g: Glyphs = UNICODE) -> str:
    """The cell's text in `room` columns (without the flag column): the wide form when it
    fits whole (its tail kept right-aligned), else the short form; nothing is cut (a box
    is never narrower than the short forms: `min_inner`)."""
    head, _, tail = cell.wide.partition("\t")
    space = room - len(tail) - (1 if tail else 0)
    if cell.wide and room >= WIDE_ROOM and len(head) <= space:
        return f"{head.ljust(space)} {tail}" if tail else head.ljust(room)
    return cell.text.ljust(room)


class FrameDiagram(PaintsDirect, KeepsStrips, Widget, can_focus=True):
    """The seven locations of a frame with a few lines of text each. A cursor move draws and
    writes only the lines it changes (`KeepsStrips`), and asks for a new layout only when the
    diagram's number of lines changes."""

    REPAINTS_CHANGED_ROWS = True

    DEFAULT_CSS = """
    FrameDiagram { height: auto; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    FrameDiagram:focus { background-tint: $foreground 4%; }
    """

    class Clicked(Message):
        """A cell with a key was clicked."""

        def __init__(self, diagram: FrameDiagram, key: Hashable) -> None:
            super().__init__()
            self.diagram = diagram
            self.key = key

        @property
        def control(self) -> FrameDiagram:
            return self.diagram

    def __init__(
        self,
        *,
        min_inner: int = 9,
        max_inner: int = 18,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.min_inner = min_inner
        self.max_inner = max_inner
        self.boxes: dict[str, tuple[Cell, ...]] = {}
        self.titles: dict[str, str] = {}
        self.extra: tuple[Cell, ...] = ()
        self.extra_label = ""
        self.cursor: Hashable | None = None
        self.glyphs: Glyphs = UNICODE  # the form the last `lines` drew in
        self._hits: list[Hit] = []
        # the last drawn: width, glyphs, the lines and hits, the lines joined (the picture)
        self._drawn: tuple[int, Glyphs, tuple[list[Text], list[Hit]], Text | None] | None = None

    def show(
        self,
        boxes: Mapping[str, Sequence[Cell]],
        *,
        cursor: Hashable | None = None,
        titles: Mapping[str, str] | None = None,
        extra: Sequence[Cell] = (),
        extra_label: str = "",
    ) -> None:
        """Draw these boxes (by location id; a location left out is not drawn, except the
        body's, drawn empty). `titles` replace the location abbreviations on the borders."""
        width = laid_size(self).width
        before = len(self.lines(width)[0]) if width and self.is_mounted else None
        self.boxes = {loc: tuple(cells) for loc, cells in boxes.items()}
        self.titles = dict(titles or {})
        self.extra = tuple(extra)
        self.extra_label = extra_label
        self.cursor = cursor
        self._drawn = None
        after = len(self.lines(width)[0]) if before is not None else None
        self.refresh(layout=before is None or after != before)

    # ---- layout -----------------------------------------------------------------------------
    def inner_width(self, width: int) -> int:
        return max(self.min_inner, min(self.max_inner, (width - 6) // 5))

    def _title(self, location: str) -> str:
        if location in self.titles:
            return self.titles[location]
        return catalog().location(location).abbrev

    def _border(
        self,
        left: str,
        joins: Sequence[str],
        right: str,
        iw: int,
        titled: dict[int, str],
        h: str = UNICODE.h,
    ) -> str:
        parts = [left]
        for i in range(5):
            title = titled.get(i, "")[:iw]
            parts.append(title + h * (iw - len(title)))
            parts.append(joins[i] if i < 4 else right)
        return "".join(parts)

    def lines(self, width: int) -> tuple[list[Text], list[Hit]]:
        """The diagram as lines of text at this width, and where the keyed cells are (drawn
        once per `show`, width and glyphs: a focus change draws nothing again)."""
        g = glyphs_for(self)
        drawn = self._drawn
        if drawn is not None and drawn[0] == width and drawn[1] is g:
            self.glyphs = g
            return drawn[2]
        result = self._lines(width, g)
        self._drawn = (width, g, result, None)
        return result

    def _lines(self, width: int, g: Glyphs) -> tuple[list[Text], list[Hit]]:
        self.glyphs = g
        iw = self.inner_width(width)
        pad = " " * max(0, (width - (5 * iw + 6)) // 2)
        mid = pad + " " * (2 * (iw + 1))  # the columns left of the centre box
        out: list[Text] = []
        hits: list[Hit] = []

        def cells_line(cells: Sequence[Cell | None], starts: Sequence[int], lead: str) -> Text:
            line = Text(lead)
            for cell, start in zip(cells, starts, strict=True):
                if cell is None:
                    line.append(" " * iw)
                else:
                    self._append_cell(line, cell, iw, len(out), start, hits)
                line.append(g.v)
            return line

        has_head, has_legs = HEAD in self.boxes, LEGS in self.boxes
        centre = len(mid) + 1
        if has_head:
            out.append(Text(f"{mid}{g.tl}{self._title(HEAD)[:iw].ljust(iw, g.h)}{g.tr}"))
            for cell in self.boxes[HEAD] or (Cell(""),):
                out.append(cells_line([cell], [centre], f"{mid}{g.v}"))
        titled = {i: self._title(loc) for i, loc in enumerate(BODY)}
        inner_top = g.cross if has_head else g.t_down
        top_joins = [g.t_down, inner_top, inner_top, g.t_down]
        out.append(Text(pad + self._border(g.tl, top_joins, g.tr, iw, titled, g.h)))
        body = [self.boxes.get(loc, ()) for loc in BODY]
        starts = [len(pad) + 1 + i * (iw + 1) for i in range(5)]
        for row in range(max(1, *(len(b) for b in body))):
            cells = [b[row] if row < len(b) else None for b in body]
            out.append(cells_line(cells, starts, f"{pad}{g.v}"))
        bottom = {2: self._title(LEGS)} if has_legs else {}
        inner_bottom = g.cross if has_legs else g.t_up
        bottom_joins = [g.t_up, inner_bottom, inner_bottom, g.t_up]
        out.append(Text(pad + self._border(g.bl, bottom_joins, g.br, iw, bottom, g.h)))
        if has_legs:
            for cell in self.boxes[LEGS] or (Cell(""),):
                out.append(cells_line([cell], [centre], f"{mid}{g.v}"))
            out.append(Text(f"{mid}{g.bl}{g.h * iw}{g.br}"))
        if self.extra or self.extra_label:
            self._extra_lines(out, hits, width)
        return out, hits

    def _append_cell(
        self, line: Text, cell: Cell, room: int, y: int, x: int, hits: list[Hit]
    ) -> None:
        selected = cell.key is not None and cell.key == self.cursor
        g = self.glyphs
        flag = g.cursor if selected else (cell.flag or " ")[:1]
        style = f"{cell.style} reverse bold".strip() if selected else cell.style
        line.append(flag + cell_text(cell, room - 1, g), style=style)
        if cell.key is not None:
            hits.append((y, x, x + room, cell.key))

    def _extra_lines(self, out: list[Text], hits: list[Hit], width: int) -> None:
        line = Text(self.extra_label)
        for cell in self.extra:
            room = len(cell.text) + 1
            if len(line) + 2 + room > width and len(line.plain.strip()):
                out.append(line)
                line = Text(" " * len(self.extra_label))
            if len(line) and not line.plain.endswith(" "):
                line.append(" ")
            x = len(line)
            self._append_cell(line, cell, room, len(out), x, hits)
            line.append(" ")
        line.rstrip()
        out.append(line)

    # ---- Textual ------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width)[0])

    def render(self) -> Text:
        lines, self._hits = self.kept_picture()
        assert self._drawn is not None
        width, g, result, text = self._drawn
        if text is None:
            text = Text("\n").join(lines)
            self._drawn = (width, g, result, text)
        return text

    def kept_picture(self) -> tuple[list[Text], list[Hit]]:
        """The lines and hits at the widget's width (kept), its lines held apart."""
        size = laid_size(self)
        picture = self.lines(size.width or self.outer_size.width)
        self._hits = picture[1]
        return picture

    def picture_lines(self, picture: object) -> Iterable[Text | Content] | None:
        drawn = self._drawn
        if drawn is not None and drawn[2] is picture:
            return drawn[2][0]
        return super().picture_lines(picture)

    def key_at(self, x: int, y: int) -> Hashable | None:
        """The key of the cell drawn at this content offset, if any."""
        for line, start, end, key in self._hits:
            if line == y and start <= x < end:
                return key
        return None

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        key = self.key_at(offset.x, offset.y)
        if key is not None:
            event.stop()
            self.post_message(self.Clicked(self, key))
