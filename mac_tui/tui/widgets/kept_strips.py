"""`KeepsStrips`: a widget that turns its picture into lines once per picture, not per refresh,
and a new picture's lines once per line that changed.

Textual turns a widget's `render()` into strips of segments again after every refresh, and a
focus change, a hub section coming forward or a footer whose keys were looked at again is a
refresh: the star map's 35 lines cost 5 ms at 120x40 each time, the footer's line a
millisecond, though neither changed. A widget whose `render()` gives back the very same object
while what it shows is the same (a picture kept under the state it draws) has its strips kept
under that object, its size and its visual style (colours and text style, which the focus
changes), the last `KEPT` of them; anything else draws anew. A selection being made is never
kept.

A new picture (a rich `Text`, left and top aligned) is drawn line by line: each line's strips
are kept under what the line shows (its words, its styles, its place and the widget's width
and look, `internals.line_strips`), so a star map whose selection moved draws two of its lines
again, not 35, and a panel whose last lines changed draws those. The lines of a picture are
its text's lines (`kept_picture` and `picture_lines`: a widget holding them apart already may
give them), and a line that was drawn before is the same `Strip` again, so the styled line
Textual keeps for it is too (`internals.KeepsStyledLines`), and a whole repaint of the widget
writes only the rows whose line changed (`internals.RepaintsChangedRows`) when it says so
(`REPAINTS_CHANGED_ROWS`).

`KeptStatic` is a `Static` of this kind whose `update` lays the screen out again only when the
number of its lines changes, and does nothing for the text it already shows.

The mixin comes first among the bases and is no widget itself, like `KeepsFocusStyles`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.geometry import Size
from textual.strip import Strip
from textual.visual import Visual, VisualType, visualize
from textual.widget import Widget
from textual.widgets import Static

from ..internals import (
    KeepsStyledLines,
    PaintsDirect,
    RepaintsChangedRows,
    SizedInItsLayout,
    laid_size,
    line_strips,
    selecting,
)

if TYPE_CHECKING:
    _Mixin = Widget  # what the mixin is mixed into
else:
    _Mixin = object

KEPT = 8  # pictures kept per widget (a battle mode's footer and the one it returns to...)
LINES_KEPT = 512  # lines kept per widget, by what they show
Kept = tuple[list[Strip], object]  # the strips and the picture itself
LEFT_TOP = ("left", "top")


def _signature(line: Text | Content) -> tuple[object, ...]:
    if isinstance(line, Content):
        return (line.plain, tuple(line.spans))
    return (line.plain, tuple(line.spans), line.style)


class KeepsStrips(RepaintsChangedRows, KeepsStyledLines):
    """See the module docstring."""

    _kept_strips: dict[tuple[object, ...], Kept]
    _kept_lines: dict[tuple[object, ...], list[Strip]]
    _blank: tuple[tuple[int, object], Strip] | None = None
    #: Whether a whole repaint writes only the rows whose line changed (a widget of many
    #: lines: the star map, the refit bay's; a one-line widget gains nothing by it).
    REPAINTS_CHANGED_ROWS = False

    def kept_picture(self) -> object:
        """What the widget shows now, the same object while it is the same: its `render()`
        (a widget that holds its picture apart may give that instead, with its lines:
        `picture_lines`)."""
        return self.render()

    def picture_lines(self, picture: object) -> Iterable[Text | Content] | None:
        """The lines of `picture` as Textual splits a rich `Text` (None: a picture of another
        kind, drawn whole)."""
        if isinstance(picture, Text):
            return picture.split("\n", allow_blank=True)
        return None

    def _strips(self, size: Size | None = None) -> list[Strip]:
        """The picture's lines at the widget's size (or `size`) and look (kept)."""
        picture = self.kept_picture()
        width, height = laid_size(self) if size is None else size
        style = self.visual_style
        key = (id(picture), width, height, style, self.styles.content_align)
        if not hasattr(self, "_kept_strips"):
            self._kept_strips = {}
        kept = self._kept_strips.get(key)
        if kept is None or self.text_selection is not None:
            strips = self._by_line(picture, width, height, style)
            if strips is None:
                visual = visualize(self, self.render())
                strips = Visual.to_strips(self, visual, width, height, style)
            if len(self._kept_strips) >= KEPT:
                del self._kept_strips[next(iter(self._kept_strips))]  # the oldest
            # The picture is kept with its strips, so its id names no other object meanwhile.
            kept = self._kept_strips[key] = (strips, picture)
        return kept[0]

    def _by_line(
        self, picture: object, width: int, height: int | None, style: Any
    ) -> list[Strip] | None:
        """The picture drawn line by line, each line's strips kept (see the module docstring),
        its first `height` lines (all of them for None), or None when it must be drawn whole."""
        lines = self.picture_lines(picture)
        if (
            lines is None
            or self.text_selection is not None
            or selecting(self)
            or self.styles.content_align != LEFT_TOP
        ):
            return None
        if not hasattr(self, "_kept_lines"):
            self._kept_lines = {}
        kept = self._kept_lines
        if len(kept) >= LINES_KEPT:
            kept.clear()
        look = (width, style, self.app.theme)
        console = self.app.console
        strips: list[Strip] = []
        for y, line in enumerate(lines):
            if height is not None and len(strips) >= height:
                break
            key = (y, _signature(line), look)
            drawn = kept.get(key)
            if drawn is None:
                content = (
                    line
                    if isinstance(line, Content)
                    else Content.from_rich_text(line, console=console)
                )
                drawn = kept[key] = line_strips(self, content, y, width, style)
            strips.extend(drawn)
        if height is not None:
            del strips[height:]
        return strips

    def _blank_style(self) -> Style:
        """The style of a blank row below the picture (as Textual pads a picture)."""
        return self.visual_style.rich_style

    def _blank_row(self, width: int) -> Strip:
        """A blank row below the picture, the same object while the width and look are."""
        rich_style = self._blank_style()
        blank = self._blank
        if blank is None or blank[0] != (width, rich_style):
            blank = self._blank = ((width, rich_style), Strip.blank(width, rich_style))
        return blank[1]

    def _rows_now(self, size: Size) -> Sequence[Strip] | None:
        if not self.REPAINTS_CHANGED_ROWS or self.text_selection is not None:
            return None
        width, height = size
        lines = self._strips(size)
        if len(lines) >= height:
            return lines[:height]
        return [*lines, *[self._blank_row(width)] * (height - len(lines))]

    def render_line(self, y: int) -> Strip:
        lines = self._strips()
        line = lines[y] if 0 <= y < len(lines) else self._blank_row(laid_size(self).width)
        self._note_painted(y, line)
        return line


class KeptStatic(PaintsDirect, SizedInItsLayout, KeepsStrips, Static):
    """A `Static` whose lines are kept (`KeepsStrips`) and whose `update` asks for a new layout
    only when its number of lines changes (see the module docstring), its repaint handed to
    the screen at once (`internals.PaintsDirect`). Its text is a rich `Text`, plain words
    (no markup), or a Textual `Content` (markup parsed: `Content.from_markup`, as a `Static`
    parses its words), drawn line by line as a `Text` is.

    One that `FILLS_HEIGHT` is as tall as the height its layout offers it while its lines fit
    (its rows below them blank, as the container's would be): a new number of lines lays
    nothing out again until they no longer fit (the galaxy's panel, whose lines follow the
    system picked)."""

    #: As tall as the layout's offer while the lines fit (see above).
    FILLS_HEIGHT = False

    def __init__(self, text: Text | Content | str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text: Text | Content = Text(text) if isinstance(text, str) else text

    _split: tuple[Text | Content, list[Text | Content]] | None = None
    _counted: dict[int, tuple[Text | Content, int, int]] | None = None  # the last texts' counts
    _offered = 0  # the height the last layout offered (`FILLS_HEIGHT`)

    def render(self) -> Text | Content:
        return self._text

    def picture_lines(self, picture: object) -> Iterable[Text | Content] | None:
        """The text's lines, split once per text (`update` counts them before and after)."""
        if not isinstance(picture, Text | Content):
            return None
        split = self._split
        if split is None or split[0] is not picture:
            lines: list[Text | Content] = [*picture.split("\n", allow_blank=True)]
            split = self._split = (picture, lines)
        return split[1]

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        text = content if isinstance(content, Text | Content) else Text(str(content))
        if text is self._text or _signature(text) == _signature(self._text):
            return
        width = laid_size(self).width
        before = self._height(self._line_count(width))
        self._text = text
        after = self._height(self._line_count(width))
        if before is None or after != before:
            self.refresh(layout=True)
        else:
            self.refresh()

    def _blank_style(self) -> Style:
        """Below the lines of one that fills its height: the background alone, the row its
        container would draw there."""
        if not self.FILLS_HEIGHT:
            return super()._blank_style()
        return Style(bgcolor=self.visual_style.rich_style.bgcolor)

    def _height(self, lines: int | None) -> int | None:
        """The content height `lines` lines make (None: unknown)."""
        if lines is None or not self.FILLS_HEIGHT:
            return lines
        return max(lines, self._offered)

    def _line_count(self, width: int) -> int | None:
        """How many lines the text makes at `width` (None when unknown: not laid out, or
        drawn whole); counted once per text and width (the last few texts')."""
        if not width or not self.is_mounted:
            return None
        text = self._text
        if self._counted is None:
            self._counted = {}
        counted = self._counted.get(id(text))
        if counted is not None and counted[0] is text and counted[1] == width:
            return counted[2]
        lines = self._by_line(text, width, None, self.visual_style)
        if lines is None:
            return None
        if len(self._counted) >= KEPT:
            del self._counted[next(iter(self._counted))]  # the oldest
        # The text is kept with its count, so its id names no other object meanwhile.
        self._counted[id(text)] = (text, width, len(lines))
        return len(lines)

    @property
    def visual(self) -> Visual:
        return visualize(self, self._text)

    @property
    def content(self) -> VisualType:
        return self._text

    @content.setter
    def content(self, content: VisualType) -> None:
        self.update(content)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        count = self._line_count(width)
        if count is None:
            return super().get_content_height(container, viewport, width)
        if self.FILLS_HEIGHT:
            self._offered = self._offer(container, viewport)
            return max(count, self._offered)
        return count

    def _offer(self, container: Size, viewport: Size) -> int:
        """The height the layout offers one that `FILLS_HEIGHT`: its container's (less what
        stands above it in the container, for a subclass that knows)."""
        return container.height
