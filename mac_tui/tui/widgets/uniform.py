"""`UniformLines`: a bare container draws one line of its background and repeats it.

Textual's compositor draws every widget under a changed area, the containers under their
children included: a screen, the hub's stack of sections and the section in front each build
every line of their own background again whenever they were refreshed (a focus change, a
section brought forward), some 0.6 ms for 33 lines at 120x40, though the lines are all one and
mostly hidden. A container without borders, outline, padding, hatching, keylines or
scrollbars draws the same line at every height (`StylesCache.render_line` differs by line only
through those), so one line is built and repeated: the same strips, built once.

The mixin comes first among the bases and is no widget itself, like `KeepsFocusStyles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

if TYPE_CHECKING:
    _Mixin = Widget  # what the mixin is mixed into
else:
    _Mixin = object


def uniform(widget: Widget) -> bool:
    """Whether every line of `widget` is drawn alike: a container drawing its bare background
    (no keyline, borders, outline, padding, hatching, nor room kept for scrollbars)."""
    styles = widget.styles
    return (
        widget.is_container
        and type(widget).render is Widget.render
        and styles.keyline[0] not in ("thin", "heavy", "double")
        and not any(edge for edge, _colour in styles.border)
        and not any(edge for edge, _colour in styles.outline)
        and not any(styles.padding)
        and not (styles.has_rule("hatch") and styles.hatch != "none")
        and widget.content_size == widget.size
    )


class UniformLines(_Mixin):
    """See the module docstring."""

    def render_lines(self, crop: Region) -> list[Strip]:
        if crop.height > 1 and uniform(self):
            line = super().render_lines(Region(crop.x, crop.y, crop.width, 1))
            return line * crop.height
        return super().render_lines(crop)
