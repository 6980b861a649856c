"""`KeepsStrips`: a widget that turns its picture into lines once per picture, not per refresh.

Textual turns a widget's `render()` into strips of segments again after every refresh, and a
focus change, a hub section coming forward or a footer whose keys were looked at again is a
refresh: the star map's 35 lines cost 5 ms at 120x40 each time, the footer's line a
millisecond, though neither changed. A widget whose `render()` gives back the very same object
while what it shows is the same (a picture kept under the state it draws) has its strips kept
under that object, its size and its visual style (colours and text style, which the focus
changes), the last `KEPT` of them; anything else draws anew. A selection being made is never
kept.

The mixin comes first among the bases and is no widget itself, like `KeepsFocusStyles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from ..internals import KeepsStyledLines

if TYPE_CHECKING:
    _Mixin = Widget  # what the mixin is mixed into
else:
    _Mixin = object

KEPT = 8  # pictures kept per widget (a battle mode's footer and the one it returns to...)
Kept = tuple[list[Strip], object]  # the strips and the picture itself


class KeepsStrips(KeepsStyledLines):
    """See the module docstring."""

    _kept_strips: dict[tuple[object, ...], Kept]

    def render_line(self, y: int) -> Strip:
        picture = self.render()
        width, height = self.size
        style = self.visual_style
        key = (id(picture), width, height, style, self.styles.content_align)
        if not hasattr(self, "_kept_strips"):
            self._kept_strips = {}
        kept = self._kept_strips.get(key)
        if kept is None or self.text_selection is not None:
            visual = visualize(self, picture)
            strips = Visual.to_strips(self, visual, width, height, style)
            if len(self._kept_strips) >= KEPT:
                del self._kept_strips[next(iter(self._kept_strips))]  # the oldest
            # The picture is kept with its strips, so its id names no other object meanwhile.
            kept = self._kept_strips[key] = (strips, picture)
        lines = kept[0]
        return lines[y] if 0 <= y < len(lines) else Strip.blank(width, style.rich_style)
