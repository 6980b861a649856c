"""Where the screens lean on Textual's private workings for speed (Textual is pinned, 8.2.8).

Each piece below names what of Textual it relies on; `tests/test_tui_internals.py` holds a
digest of each of those Textual functions' source and fails when the pinned version's code
changes, so an upgrade looks at every piece here again (besides the behaviour it tests).

- `RestylesOnChange` (a screen shown again, as the battle's history page): Textual restyles
  every node of a screen that is pushed (`Screen._on_screen_resume` calls
  `update_node_styles` when `events.ScreenResume.refresh_styles`, true for every push), 1.5 ms
  for the history page at 80x24 though nothing it is styled from changed while it was away.
  The mixin's own handler runs before `Screen`'s (Textual dispatches a message to the
  handlers of the class's MRO in order, `MessagePump._get_dispatch_methods`) and turns the
  restyle off when the screen was styled already under the same style sheet and the same
  classes and pseudo-classes of the app and the screen. A change of class or focus inside
  the screen restyles the nodes concerned by itself, as always.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.screen import Screen

if TYPE_CHECKING:
    _ScreenMixin = Screen[object]  # what the mixin is mixed into
else:
    _ScreenMixin = object

#: The Textual functions the pieces above rely on, by piece (their digests are in the test).
RELIES_ON: dict[str, tuple[str, ...]] = {
    "RestylesOnChange": (
        "textual.screen:Screen._on_screen_resume",
        "textual.message_pump:MessagePump._get_dispatch_methods",
        "textual.app:App.push_screen",
    ),
}


class RestylesOnChange(_ScreenMixin):
    """A screen restyled when it is shown again only if its style sheet or its own or the
    app's classes changed meanwhile (see the module docstring). Comes first among the bases."""

    _styled_under: tuple[object, ...] | None = None

    def _style_look(self) -> tuple[object, ...]:
        app = self.app
        return (
            app.stylesheet.rules,  # a new style sheet (a theme, new CSS) is a new list
            frozenset(app.classes),
            frozenset(app.get_pseudo_classes()),
            frozenset(self.classes),
            frozenset(self.get_pseudo_classes()),
        )

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        look = self._style_look()
        kept = self._styled_under
        if kept is not None and all(a is b or a == b for a, b in zip(kept, look, strict=True)):
            event.refresh_styles = False  # `Screen._on_screen_resume`, next, skips it
        self._styled_under = look
