"""`GameTable`: the game's data table.

- Home and End go to the first and last row (Textual's table scrolls sideways with them), and
  the numeric keypad's Home/End/PgUp/PgDn (NumLock off) do what those keys do.
- It keeps its rendered cells when only its focus changes. Textual's table throws away every
  rendered cell, row and line on any style update, and focus is one: each time a hub section
  comes forward its table would render every visible cell again. Its caches are keyed by the
  styles and the focus state already, so they are kept while the table's own style and its
  component styles are ones it has drawn with before (a theme change is not: then they go).
- It styles itself for focus once per focus state. Textual matches every rule of the style
  sheet against the table and its ten component classes again on each focus and each blur
  (a hub section coming forward does both, to two tables); the outcome depends only on the
  table's own state and the style sheet's, so the rules found for a focus state are kept and
  put back the next time. Any other restyling (a theme, a class on the screen, the glyphs)
  forgets them: the next focus change matches again.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.css.styles import RenderStyles, RulesMap
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget
from textual.widgets import DataTable

FocusStyles = tuple[RulesMap, dict[str, RenderStyles]]


class GameTable(DataTable[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "first_row", "First row", show=False),
        Binding("end", "last_row", "Last row", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._drawn_styles: set[tuple[object, ...]] = set()
        self._focus_styles: dict[tuple[object, ...], FocusStyles] = {}  # by pseudo-classes
        self._refocusing = False  # styling itself for a focus change (kept rules or not)

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

    def watch_has_focus(self, has_focus: bool) -> None:
        key = self._pseudo_classes_cache_key
        kept = self._focus_styles.get(key)
        self._refocusing = True
        try:
            if kept is None:
                super().watch_has_focus(has_focus)  # the style sheet matched against it
                self._focus_styles[key] = (
                    RulesMap(**self.styles.base._rules),
                    dict(self._component_styles),
                )
            else:
                rules, components = kept
                self._component_styles = dict(components)
                Stylesheet.replace_rules(self, rules)  # and notify_style_update
                self._restyle_scrollbars()
        finally:
            self._refocusing = False

    def _restyle_scrollbars(self) -> None:
        """The scrollbars shown, styled as Textual's `update_nodes` styles them."""
        apply = self.app.stylesheet.apply
        vertical = self.show_vertical_scrollbar and self.scrollbar_size_vertical
        horizontal = self.show_horizontal_scrollbar and self.scrollbar_size_horizontal
        if vertical:
            apply(self.vertical_scrollbar)
        if horizontal:
            apply(self.horizontal_scrollbar)
        if vertical and horizontal:
            apply(self.scrollbar_corner)

    def notify_style_update(self) -> None:
        if not self._refocusing:
            self._focus_styles.clear()  # restyled for another reason: match afresh
        Widget.notify_style_update(self)  # the widget's own style caches
        try:
            signature = self._style_signature()
        except KeyError:  # its component styles are not there yet: the first styling
            super().notify_style_update()
            return
        if signature in self._drawn_styles:
            self._get_styles_to_render_cell.cache_clear()  # not keyed by the focus
            self.refresh()
            return
        self._drawn_styles.add(signature)
        super().notify_style_update()
