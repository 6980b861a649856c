"""`GameScreen`: the base of the screens that draw the game state.

It lives apart from `tui/app.py` so that the app imports the screens and no screen imports
the app: a screen reaches the running game through `self.game` (typed by `host.GameHost`).

Keys that explain themselves: a key whose binding is greyed (its `check_action` answers None)
does nothing, and the player is told why on the message line. The app asks the node that owns
the binding (a screen, a hub section, a widget) `why_not(action, parameters)`; any node may
answer it. `Explains` gives one: `grey_if(action, reason)` in a `check_action` greys the key
when there is a reason and keeps the reason for `why_not`, so the check and the explanation
are one call of the engine's refusal helper. Without an answer the key's description is said
with "not possible now".
"""

from __future__ import annotations

from textual._compositor import ReflowResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from ..host import GameHost, host
from ..internals import OneFrame, RestylesOnChange, SpanCompositor
from ..widgets.uniform import UniformLines

PALETTE_KEY_MIN_WIDTH = 100  # narrower, the footer keeps its room for the screen's own keys


class Explains:
    """A node whose greyed keys say why (see the module docstring)."""

    _grey_reasons: dict[str, str]

    def grey_if(self, action: str, reason: str | None) -> bool | None:
        """`check_action`'s answer for a key refused for `reason` (None: live); the reason
        is kept for `why_not`."""
        if not hasattr(self, "_grey_reasons"):
            self._grey_reasons = {}
        if reason is None:
            self._grey_reasons.pop(action, None)
            return True
        self._grey_reasons[action] = reason
        return None

    def why_not(self, action: str, parameters: tuple[object, ...]) -> str | None:
        """Why the key of `action` does nothing now (None: no reason known)."""
        return getattr(self, "_grey_reasons", {}).get(action)


class LaidOnce(SpanCompositor):
    """Textual's compositor, laying the screen out once per new layout, not twice (and
    drawing a partial repaint's changed spans only, `internals.SpanCompositor`).

    A repaint that asks for a new layout while a widget off the visible map is dirty (a hub
    section coming forward, whose table just took the focus) marks the compositor's full map
    stale; the new layout then builds a full map afresh but leaves the mark, so the first
    widget that asks for its region during the same repaint has the whole screen arranged a
    second time (a third when a scrollbar, placed during the new layout, asks for its own
    region: the stale map is built anew from inside the layout). The map the new layout
    builds is the full one: the mark goes as it starts (a region asked for meanwhile is the
    last layout's, as when no mark was made), and stays gone after."""

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        self._full_map_invalidated = False
        result = super().reflow(parent, size)
        self._full_map_invalidated = False
        return result


class GameScreen(RestylesOnChange, OneFrame, UniformLines, Explains, Screen[None]):
    """A screen that draws the game state; `refresh_view` redraws it after every change."""

    def __init__(
        self, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._compositor = LaidOnce()

    def on_resize(self) -> None:
        """Below 100 columns the footer leaves out the ctrl+p hint (help lists it) so the
        screen's own keys fit."""
        for footer in self.query(Footer):
            footer.show_command_palette = self.size.width >= PALETTE_KEY_MIN_WIDTH

    def refresh_view(self) -> None:
        """Redraw from `self.game.session`; the default redraws nothing."""

    @property
    def game(self) -> GameHost:
        return host(self)

    def key_for(self, binding_id: str, default: str) -> str:
        """The key of a binding as the player has it (remapped in config.toml or not)."""
        keys = dict(self.game.settings.keys).get(binding_id, default)
        return keys.split(",")[0].strip() or default
