"""`GameTable`: the game's data table.

- Home and End go to the first and last row (Textual's table scrolls sideways with them), and
  the numeric keypad's Home/End/PgUp/PgDn (NumLock off) do what those keys do.
- It keeps its rendered cells when only its focus changes. Textual's table throws away every
  rendered cell, row and line on any style update, and focus is one: each time a hub section
  comes forward its table would render every visible cell again. Its caches are keyed by the
  focus state (the pseudo-classes) and the table's own style already, not by its component
  styles (the cursor's, the header's...): so they are kept unless the component styles under
  a focus state and style it has drawn with before are new (a theme change: then they go). A
  focus state seen for the first time (a section's table focused, then blurred, for the first
  time) adds its cells to the others' (2-4 ms a hub key, the first visits of each section).
- It keeps its rendered lines when only its height changes (a hub section's message line
  taking two lines instead of one): Textual's table forgets them on every resize, though each
  is kept by the width it was drawn at.
- It finds its own style once per repaint, not once per line (Textual's table asks for it on
  every line it draws, walking the widget's ancestors each time).
- It styles itself for focus once per focus state (`KeepsFocusStyles`, focus_styles.py), and
  works its style signature out once per kept look (the rich styles of a dozen component
  classes, asked of the ancestors' backgrounds on every focus and blur otherwise).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable

from ..internals import KeepsStyledLines
from .focus_styles import KeepsFocusStyles


class GameTable(KeepsStyledLines, KeepsFocusStyles, DataTable[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "first_row", "First row", show=False),
        Binding("end", "last_row", "Last row", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # component styles drawn with, by (focus state, the table's style)
        self._drawn_styles: dict[tuple[object, ...], tuple[object, ...]] = {}
        self._drawn_width: int | None = None  # the width of the last resize
        self._painting: Style | None = None  # the table's style, while it repaints

    @property
    def rich_style(self) -> Style:
        painting = self._painting
        return painting if painting is not None else super().rich_style

    def render_lines(self, crop: Region) -> list[Strip]:
        self._painting = None
        self._painting = self.rich_style  # one style for every line of this repaint
        try:
            return super().render_lines(crop)
        finally:
            self._painting = None

    def _on_resize(self, event: events.Resize) -> None:
        if event.size.width == self._drawn_width:
            event.prevent_default()  # not DataTable's: its caches are keyed by the width
        self._drawn_width = event.size.width

    def action_first_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    def _style_signature(self) -> tuple[object, ...]:
        return (
            self.get_pseudo_class_state(),
            self.rich_style,
            *(self.get_component_rich_style(c) for c in sorted(self.COMPONENT_CLASSES)),
        )

    def notify_style_update(self) -> None:
        Widget.notify_style_update(self)  # the widget's own style caches
        notes = self.restored_look  # kept styles put back: their signature is known
        try:
            known = notes.get("signature") if notes is not None else None
            signature = known if isinstance(known, tuple) else self._style_signature()
            if notes is not None:
                notes["signature"] = signature
        except KeyError:  # its component styles are not there yet: the first styling
            super().notify_style_update()
            return
        # (focus state, the table's style): what its caches are keyed by; the rest is not
        look, components = signature[:2], signature[2:]
        drawn = self._drawn_styles.get(look)
        if drawn is None or drawn == components:
            self._drawn_styles[look] = components
            self._get_styles_to_render_cell.cache_clear()  # not keyed by the focus
            self.refresh()
            return
        self._drawn_styles = {look: components}  # new components under a look drawn: anew
        super().notify_style_update()
