"""`DetailPane`: the lines under a section's table about its highlighted row.

A hub section says what its highlighted row is below its table (the frame's weapons, the
pilot's record, the item's facts), new words on every cursor move. Textual's `Static` asks for
a new layout of the whole screen on each update (some 0.8 ms of a table cursor move's 4-6),
and hands its repaint to the screen through a message and a turn of its own queue. The pane
is drawn as the message line is (`MessageLine`: a layout only when the words take another
number of lines, the pictures of the last few texts kept with their strips and heights, so
the cursor going back to a row draws nothing anew) and hands its repaint to the screen at
once (`internals.PaintsDirect`).
"""

from __future__ import annotations

from rich.text import Text

from ..internals import KeepsPaddedLines, PaintsDirect
from .message_line import MessageLine


class DetailPane(KeepsPaddedLines, PaintsDirect, MessageLine):
    """See the module docstring."""

    def show(self, text: str | Text) -> None:
        """Show `text` (markup, as a `Static`'s, or a Rich `Text`)."""
        self.say(text)
