"""`GameTable`: the game's data table.

- Home and End go to the first and last row (Textual's table scrolls sideways with them), and
  the numeric keypad's Home/End/PgUp/PgDn (NumLock off) do what those keys do.
- It keeps its rendered cells when only its focus changes. Textual's table throws away every
  rendered cell, row and line on any style update, and focus is one: each time a hub section
  comes forward its table would render every visible cell again. Its caches are keyed by the
  focus state (the pseudo-classes) and the table's own style already, not by its component
  styles (the cursor's, the header's...): so they are kept unless the component styles under
  a focus state and style it has drawn with before are new (a theme change: then they go),
  which it checks as it is drawn (Textual styles the component classes after the widget,
  so at the style update they may be the last focus state's). A focus state seen for the
  first time (a section's table focused, then blurred, for the first time) adds its cells to
  the others' (2-4 ms a hub key, the first visits of each section).
- It keeps its rendered lines when only its height changes (a hub section's message line
  taking two lines instead of one): Textual's table forgets them on every resize, though each
  is kept by the width it was drawn at. Its rows (which fill the width) are forgotten when it
  is drawn at another width or virtual size (its columns measured anew) than the last time,
  not on a resize: Textual's first resize of a
  table, handled after the frame that first showed it, made a hub section's second visit
  draw every visible cell again (3-4 ms a key).
- It finds its own style once per repaint, not once per line (Textual's table asks for it on
  every line it draws, walking the widget's ancestors each time).
- It styles itself for focus once per focus state (`KeepsFocusStyles`, focus_styles.py), and
  works its style signature out once per kept look (the rich styles of a dozen component
  classes, asked of the ancestors' backgrounds on every focus and blur otherwise).
- A row cursor's line is kept by whether the cursor (and the hover) is on its row, not by
  where they are: Textual keys a rendered row and line by the cursor's and the hover's
  coordinates, so every cursor move made each row drawn next (a page scrolled, Home, End) a
  new line from its cells and a new `Strip`, styled again (`KeepsStyledLines` keeps a styled
  line by the very line). A row cursor's look of a row follows only whether it is on it
  (`DataTable._should_highlight` compares rows), so a row the cursor is not on is drawn with
  the cursor "elsewhere", one key for all such places: a line drawn before comes back as
  the same `Strip`.
- A row cursor's table reads what every line of a repaint reads once per repaint (`Repaint`:
  its width, where it is scrolled to, the header's and fixed rows' height, its style, the
  cursor and the hover, its rows' offsets), not once per line as `DataTable.render_line` and
  `_render_line` do (a dozen reactive reads and region look-ups a line, and a walk over the
  rows' locations to find one: the pilots' 15 lines at 80x24 0.26 ms, 0.11 since).
- A row highlighted goes to the section at once (`internals.BubblesAtOnce`), not through a
  turn of the table's own queue that only handed it on.
- A page shown before (a Home or End back, a scroll back) gives back the lines given then
  (`internals.KeepsPages`, `_page_key`), kept while its line cache is (`LineCache` counts its
  clears: new component styles, a theme).
- Home and End move the cursor as `move_cursor` does less its first step, a scroll of the row
  the cursor leaves into view: the first and the last row end up scrolled to the same place
  from anywhere (`_jump`); and the rows left and reached are repainted only when the table
  did not scroll (a scroll repaints it whole; ps15). And its repaints, and its scrollbar's,
  go to the screen at once (`internals.PaintsDirect`), not through two messages each.
- A key that hides the hover cursor (every cursor key: `DataTable._set_hover_cursor(False)`)
  repaints the hover's row only when the hover was shown: Textual repaints it on every key
  (row 0, under the mouse or not), one more line drawn and composed a key.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, ClassVar, NamedTuple, Self

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual._segment_tools import line_crop
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable
from textual.widgets._data_table import CursorType, RowKey

from ..internals import (
    BubblesAtOnce,
    KeepsBarLines,
    KeepsLinesOnNewHeight,
    KeepsPages,
    KeepsStyledLines,
    PaintsDirect,
    ScrollbarsOnChange,
)
from .focus_styles import KeepsFocusStyles
from .kept_rows import KeepsRows

#: Where a row cursor (or hover) is not, for a row it is not on: no row's coordinate.
ELSEWHERE = Coordinate(-2, -2)


class Repaint(NamedTuple):
    """What every line of a row cursor's table reads, read once per repaint (see the module
    docstring)."""

    width: int
    x1: int
    x2: int
    scroll_y: int
    fixed_height: int  # the header's and the fixed rows' lines, never scrolled
    header_height: int  # 0 without a header
    base_style: Style
    cursor: Coordinate
    hover: Coordinate
    show_hover: bool
    cursor_type: CursorType
    offsets: list[tuple[RowKey, int]]  # `DataTable._y_offsets`


class LineCache(LRUCache[Any, Strip]):
    """`DataTable._line_cache`, counting its clears: the table's pages (`KeepsPages`) are
    kept while its lines are."""

    epoch = 0

    def clear(self) -> None:
        self.epoch += 1
        super().clear()


class GameTable(
    KeepsRows,
    BubblesAtOnce,
    KeepsPages,
    PaintsDirect,
    KeepsLinesOnNewHeight,
    ScrollbarsOnChange,
    KeepsBarLines,
    KeepsStyledLines,
    KeepsFocusStyles,
    DataTable[Any],
):
    # Priority bindings: Textual runs them as the key reaches the app; a table's own keys
    # would otherwise go down to the table and climb back through the section, the stack and
    # the screen (five message hops) before its bindings ran. Only the focused table's are
    # in the chain, and it is first among the non-priority bindings anyway.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor_up", "Cursor up", show=False, priority=True),
        Binding("down", "cursor_down", "Cursor down", show=False, priority=True),
        Binding("pageup", "page_up", "Page up", show=False, priority=True),
        Binding("pagedown", "page_down", "Page down", show=False, priority=True),
        Binding("home", "first_row", "First row", show=False, priority=True),
        Binding("end", "last_row", "Last row", show=False, priority=True),
    ]

    #: A row highlighted goes to the section at once (`internals.BubblesAtOnce`): the table
    #: has no handler of its own for it, and its dispatch there was a turn of its queue.
    BUBBLES_AT_ONCE = (DataTable.RowHighlighted,)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # component styles drawn with, by (focus state, the table's style)
        self._drawn_styles: dict[tuple[object, ...], tuple[object, ...]] = {}
        # the width and virtual size its cached rows were drawn at
        self._drawn_at: tuple[int, Size] | None = None
        self._painting: Style | None = None  # the table's style, while it repaints
        # a style update whose component styles are not checked yet (`_check_styles`)
        self._unchecked: tuple[dict[str, object] | None] | None = None
        self._repaint: Repaint | None = None  # while it repaints (a row cursor's)
        self._line_cache = LineCache(1000)  # as Textual's, its clears counted

    @property
    def rich_style(self) -> Style:
        painting = self._painting
        return painting if painting is not None else super().rich_style

    def render_lines(self, crop: Region) -> list[Strip]:
        self._check_styles()
        # Rows drawn at another width, or with other column widths (Textual measures the
        # columns of new rows when idle, maybe after a frame drew them: the new virtual size
        # is what tells), are drawn anew: what Textual's table does on every resize.
        drawn_at = (self.size.width, self.virtual_size)
        if drawn_at != self._drawn_at:
            if self._drawn_at is not None:
                self._update_count += 1
            self._drawn_at = drawn_at
        self._painting = None
        self._painting = self.rich_style  # one style for every line of this repaint
        self._pseudo_class_state = self.get_pseudo_class_state()  # (DataTable.render_lines)
        self._repaint = self._repaint_now() if self.cursor_type == "row" else None
        try:
            return super().render_lines(crop)
        finally:
            self._painting = None
            self._repaint = None

    def _repaint_now(self) -> Repaint:
        """What every line of a row cursor's table reads, as it is now."""
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        fixed_height = 0
        for n in range(self.fixed_rows):
            key = self._row_locations.get_key(n)
            if key is not None:
                fixed_height += self.get_row_height(key)
        show_header = self.show_header
        header_height = self.header_height
        return Repaint(
            width=width,
            x1=scroll_x,
            x2=scroll_x + width,
            scroll_y=scroll_y,
            fixed_height=fixed_height + header_height if show_header else fixed_height,
            header_height=header_height if show_header else 0,
            base_style=self.rich_style,
            cursor=self.cursor_coordinate,
            hover=self.hover_coordinate,
            show_hover=self._show_hover_cursor,
            cursor_type=self.cursor_type,
            offsets=self._y_offsets,
        )

    def _page_key(self) -> object | None:
        """What a row cursor's table draws its lines from: what every line reads
        (`Repaint`, less the rows' offsets, which follow the update count), the rows (the
        update count), its focus state and its lines kept (the line cache's clears)."""
        repaint = self._repaint
        epoch = getattr(self._line_cache, "epoch", None)
        if repaint is None or epoch is None:
            return None
        return (epoch, self._update_count, self._pseudo_class_state, *repaint[:-1])

    def render_line(self, y: int) -> Strip:
        """`DataTable.render_line`, with what every line reads read once per repaint."""
        repaint = self._repaint
        if repaint is None:
            return super().render_line(y)
        if y >= repaint.fixed_height:
            y += repaint.scroll_y
        return self._render_line(y, repaint.x1, repaint.x2, repaint.base_style)

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        """`DataTable._render_line`, its cursor and hover "elsewhere" on a row neither is on
        (a row cursor's; see the module docstring)."""
        repaint = self._repaint
        if repaint is None:
            if self.cursor_type != "row":
                return super()._render_line(y, x1, x2, base_style)
            repaint = self._repaint_now()
        width = repaint.width
        # `DataTable._get_offsets`
        if y < repaint.header_height:
            row_key, y_offset_in_row = self._header_row_key, y
        else:
            try:
                row_key, y_offset_in_row = repaint.offsets[y - repaint.header_height]
            except IndexError:
                return Strip.blank(width, base_style)
        row = self._row_locations.get(row_key)
        if row is None:
            row = -1
        cursor, hover = repaint.cursor, repaint.hover
        cursor = cursor if cursor.row == row else ELSEWHERE
        hover = hover if hover.row == row else ELSEWHERE
        cache_key = (
            y,
            x1,
            x2,
            width,
            cursor,
            hover,
            base_style,
            repaint.cursor_type,
            repaint.show_hover,
            self._update_count,
            self._pseudo_class_state,
        )
        line_cache = self._line_cache
        kept = line_cache.get(cache_key)
        if kept is not None:
            return kept
        fixed, scrollable = self._render_line_in_row(
            row_key, y_offset_in_row, base_style, cursor_location=cursor, hover_location=hover
        )
        fixed_width = sum(
            column.get_render_width(self) for column in self.ordered_columns[: self.fixed_columns]
        )
        fixed_line: list[Segment] = list(chain.from_iterable(fixed)) if fixed else []
        scrollable_line: list[Segment] = list(chain.from_iterable(scrollable))
        segments = fixed_line + line_crop(scrollable_line, x1 + fixed_width, x2, width)
        strip = Strip(segments).adjust_cell_length(width, base_style).simplify()
        line_cache[cache_key] = strip
        return strip

    def _set_hover_cursor(self, active: bool) -> None:
        if not active and not self._show_hover_cursor:
            return  # hidden already: its row looks the same (see the module docstring)
        super()._set_hover_cursor(active)

    def _on_resize(self, event: events.Resize) -> None:
        event.prevent_default()  # not DataTable's: `render_lines` sees a new size itself

    def action_first_row(self) -> None:
        if self.row_count:
            self._jump(0)

    def action_last_row(self) -> None:
        if self.row_count:
            self._jump(self.row_count - 1)

    def _jump(self, row: int) -> None:
        """`move_cursor(row=row)` to the first or the last row, less its scroll of the row the
        cursor leaves into view, before it scrolls the new one into view: the first row (at
        the top of the rows) is seen only at the top of the table, the last (at the bottom)
        only at the bottom, from wherever the table is scrolled, so that first scroll changes
        nothing of where the table ends up, though it cost a repaint and the scrollbar's
        (the detail lines taking another height after a Home or End had left the row it
        went to out of view). Rows of one line only; otherwise, or when the cursor is there
        already (it is then scrolled into view), Textual's way."""
        if (
            row == self.cursor_row
            or self.cursor_type != "row"
            or self._require_update_dimensions
            or self.fixed_rows
            or len(self._y_offsets) != self.row_count
        ):
            self.move_cursor(row=row)
            return
        # The rows left and reached are repainted (`watch_cursor_coordinate`) only when the
        # scroll that follows repaints nothing: a scroll repaints the whole table (0.2 ms of a
        # Home or End at 80x24 found the two rows' places for nothing).
        left, scrolled_from = self.cursor_row, round(self.scroll_y)
        self._rows_repainted = False
        try:
            self.cursor_coordinate = Coordinate(row, self.cursor_column)
        finally:
            self._rows_repainted = True
        if round(self.scroll_y) == scrolled_from:
            self.refresh_row(left)
            self.refresh_row(row)

    _rows_repainted = True  # False: `refresh_row` waits (`_jump`)

    def refresh_row(self, row_index: int) -> Self:
        if not self._rows_repainted:
            return self
        return super().refresh_row(row_index)

    def _style_signature(self) -> tuple[object, ...]:
        return (
            self.get_pseudo_class_state(),
            self.rich_style,
            *(self.get_component_rich_style(c) for c in sorted(self.COMPONENT_CLASSES)),
        )

    def notify_style_update(self) -> None:
        Widget.notify_style_update(self)  # the widget's own style caches
        # Checked when the table is drawn next (`_check_styles`): Textual styles a widget's
        # component classes after the widget itself (`Stylesheet.apply`), so here they may
        # still be those of the look before (a focus state seen for the first time would be
        # noted with the other state's cursor, and its cells thrown away the next time).
        self._unchecked = (self.restored_look,)  # kept styles put back: their notes
        self._get_styles_to_render_cell.cache_clear()  # not keyed by the focus
        self.refresh()

    def _check_styles(self) -> None:
        """Keep the rendered cells unless the component styles under this look (focus
        state, the table's style) are not those it has drawn with before."""
        unchecked, self._unchecked = self._unchecked, None
        if unchecked is None:
            return
        notes = unchecked[0]  # the kept look's: its signature is known after the first time
        known = notes.get("signature") if notes is not None else None
        signature = known if isinstance(known, tuple) else self._style_signature()
        if notes is not None:
            notes["signature"] = signature
        # (focus state, the table's style): what its caches are keyed by; the rest is not
        look, components = signature[:2], signature[2:]
        drawn = self._drawn_styles.get(look)
        if drawn is None or drawn == components:
            self._drawn_styles[look] = components
            return
        self._drawn_styles = {look: components}  # new components under a look drawn: anew
        for cache in (
            self._row_render_cache,
            self._cell_render_cache,
            self._row_renderable_cache,
            self._line_cache,
            self._styles_cache,
        ):
            cache.clear()  # what `DataTable.notify_style_update` clears
