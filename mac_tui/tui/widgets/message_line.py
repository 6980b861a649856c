"""`MessageLine`: a screen's message line, cheap when the same words come back.

The hub says each section's hint on its message line whenever the section comes forward:
Textual's `Static` turns the words into a new picture on each update, wraps it again to find
its height, asks for a new layout of the screen and draws its lines afresh (a millisecond at
80 columns for a two-line hint). `MessageLine.say` keeps the picture of the last few texts, so
the same words are the same picture, whose lines `KeepsStrips` keeps (per size and look), and
their height per width; the screen is laid out again only when the height changes, and then
once: Textual would lay it out a second time, in a frame of its own, because the new layout gave
the line a new size (`Widget._size_updated` sets its virtual size through the reactive, which
asks for a layout), though the line's height comes from its words, never from that size.
"""

from __future__ import annotations

from rich.text import Text
from textual.visual import Visual
from textual.widgets import Static

from ..internals import SizedInItsLayout, laid_size
from .kept_strips import KeepsStrips

KEPT = 16  # texts kept (the hub's seven hints, and what the sections say)


class MessageLine(SizedInItsLayout, KeepsStrips, Static):
    """See the module docstring."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        # text (a Rich `Text` by its id) -> (the text, its picture)
        self._pictures: dict[object, tuple[str | Text, Visual]] = {}
        self._heights: dict[tuple[int, int], int] = {}  # (picture's id, width) -> lines

    def say(self, text: str | Text, warning: bool = False) -> None:
        """Show `text` (markup, as a `Static`'s, or a Rich `Text`: the same object again is
        the same picture); a new layout only for a new height."""
        before = laid_size(self)  # its last layout's (a parked pane has no region now)
        name = text if isinstance(text, str) else id(text)
        kept = self._pictures.get(name)  # (a `Text` is kept with it: its id is no other's)
        if kept is None:
            self.update(text, layout=False)
            picture = self.visual
            if len(self._pictures) >= KEPT:
                del self._pictures[next(iter(self._pictures))]  # the oldest
                self._heights.clear()
            self._pictures[name] = (text, picture)
        else:
            picture = kept[1]
            if picture is not self.visual:  # shown already: nothing to repaint
                self.update(picture, layout=False)
        self.set_class(warning, "warning")
        if not before.width:
            self.refresh(layout=True)
            return
        key = (id(picture), before.width)  # (a kept picture's id is its own)
        height = self._heights.get(key)
        if height is None:
            height = self._heights[key] = self.get_content_height(
                self.size, self.app.size, before.width
            )
        if height != before.height:
            self.refresh(layout=True)
