"""NO_COLOR for the whole screen: a line filter that takes every colour out of what is drawn.

Textual's own NO_COLOR filter turns colours into greys (still sent as colour codes). This one
drops them, so the terminal draws in its own foreground and background; bold, dim, italic,
underline, strike and reverse stay, and so do the styles' meta (mouse clicks on markup need
it). Every meaning the game shows in colour is also shown by a glyph or a word (themes.py);
the cursors of Textual's widgets fall back to reverse video under `:nocolor` (app.tcss).
"""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter


@lru_cache(4096)
def colourless(style: Style) -> Style:
    """`style` without its colours (attributes, link and meta kept)."""
    plain = style.without_color
    meta = style.meta
    return plain + Style.from_meta(meta) if meta else plain


class Colourless(LineFilter):
    """Remove every colour from the segments."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else colourless(style), control)
            for text, style, control in segments
        ]
