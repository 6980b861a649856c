"""`ViewLine`: a section's one line naming its views (the market's stock and inventory, the
finances' ledger, chart and upkeep), the one shown marked, the others clickable.

A view key writes the line anew; as a `Static` it became a new picture each time, drawn again
whole: its clickable names made it the costliest line of the key (0.35 ms of the finances'
`l` at 120x40, more than the 33 lines of the ledger it brought back). It is drawn as the
message line is (`MessageLine`: the pictures of the last few texts kept with their strips,
by their markup) and hands its repaint to the screen at once (`internals.PaintsDirect`): a
view shown again draws its line from the strips it had.
"""

from __future__ import annotations

from ..internals import KeepsPaddedLines, PaintsDirect
from .message_line import MessageLine


class ViewLine(KeepsPaddedLines, PaintsDirect, MessageLine):
    """See the module docstring. Its text is markup, as a `Static`'s."""

    def show(self, markup: str) -> None:
        """Show `markup` (a new layout only for a new height, as the message line's)."""
        self.say(markup)
