"""`UniformLines`: a bare container draws one line of its background and repeats it.

Textual's compositor draws every widget under a changed area, the containers under their
children included: a screen, the hub's stack of sections and the section in front each build
every line of their own background again whenever they were refreshed (a focus change, a
section brought forward), some 0.6 ms for 33 lines at 120x40, though the lines are all one and
mostly hidden. A container without borders, outline, padding, hatching, keylines or
scrollbars draws the same line at every height (`StylesCache.render_line` differs by line only
through those), so one line is built and repeated: the same strips, built once; and its
content (its background) is drawn for that one line, not for all of them.

The mixin comes first among the bases and is no widget itself, like `KeepsFocusStyles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

if TYPE_CHECKING:
    _Mixin = Widget  # what the mixin is mixed into
else:
    _Mixin = object


def uniform(widget: Widget) -> bool:
    """Whether every line of `widget` is drawn alike: a container drawing its bare background
    (no keyline, borders, outline, padding, hatching, nor room kept for scrollbars); a screen
    too when its background is a solid colour (`Screen.render` draws a blank of it then, and
    the screen below it otherwise)."""
    styles = widget.styles
    drawn = type(widget).render
    return (
        widget.is_container
        and (drawn is Widget.render or (drawn is Screen.render and styles.background.a == 1))
        and styles.keyline[0] not in ("thin", "heavy", "double")
        and not any(edge for edge, _colour in styles.border)
        and not any(edge for edge, _colour in styles.outline)
        and not any(styles.padding)
        and not (styles.has_rule("hatch") and styles.hatch != "none")
        and widget.content_size == widget.size
    )


class UniformLines(_Mixin):
    """See the module docstring."""

    _one_line = False  # while the one line is drawn

    def render_lines(self, crop: Region) -> list[Strip]:
        if crop.height > 1 and uniform(self):
            self._one_line = True
            try:
                line = super().render_lines(Region(crop.x, crop.y, crop.width, 1))
            finally:
                self._one_line = False
            return line * crop.height
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        """The content of the one line: drawn alone, where Textual would draw every line of
        the background to keep one (`Widget.render_line` draws the whole content)."""
        if not self._one_line:
            return super().render_line(y)
        width = self.size.width
        visual = visualize(self, self.render())
        return Visual.to_strips(self, visual, width, 1, self.visual_style)[0]
