"""`KeepsFocusStyles`: a widget that styles itself for focus once per look of its ancestry.

Textual matches every rule of the style sheet against a widget, and against each of its
component classes, again on each focus and each blur (a hub section coming forward does both,
to two tables; the battle log page takes the focus from the map and gives it back). For a
widget without children the outcome depends only on the style sheet and on the classes and
pseudo-classes of the widget and its ancestors (the app's dark or light, the glyphs' class on
the screen...). So the rules found are kept under those, and put back when the focus comes
to the same widget in the same surroundings again, with the component styles; the scrollbars
are styled as Textual styles them. A style sheet that may style the widget otherwise (a
theme, CSS that is not a new widget class's scoped CSS: `csscache.style_basis`) is another
key, so nothing kept is ever put back out of its time. The pseudo-classes of place and of focus
within (`internals.UNTRACKED_PSEUDO_CLASSES`) are left out of the ancestry's look when no rule
that may match the widget, its component classes or its scrollbars names one: a screen's
place among the app's screens changes as dialogs come and go (the hub's table given the focus
back as the launch's confirmation closes was matched afresh for it). A widget whose rules
depend on its place among its siblings (`:first-child`, `:odd`...) is matched every time.

The mixin comes first among the bases and is no widget itself: Textual takes a class's CSS
type names and component classes from its first widget base only.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from textual.css.styles import RenderStyles, RulesMap
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.widget import Widget

from ..csscache import same_basis, style_basis
from ..internals import UNTRACKED_PSEUDO_CLASSES

KEPT = 16  # looks kept per widget (focused or not, in a few surroundings)

Look = tuple[object, ...]
# (style sheet's basis, rules, component styles, what the widget derived from them:
# `restored_look`)
Kept = tuple[object, RulesMap, dict[str, RenderStyles], dict[str, object]]

if TYPE_CHECKING:
    _Mixin = Widget  # what the mixin is mixed into
else:
    _Mixin = object


@cache
def _scrollbar_names() -> frozenset[str]:
    """The selector names a widget's scrollbars (and their corner) are matched under."""
    return frozenset(ScrollBar(vertical=True)._selector_names | ScrollBarCorner()._selector_names)


class KeepsFocusStyles(_Mixin):
    """See the module docstring."""

    _focus_styles: dict[Look, Kept]
    _placed: tuple[object, bool]
    #: While kept styles are put back: the look's own notes (a widget may keep there what it
    #: derives from the styles, as `GameTable` its style signature); None otherwise.
    restored_look: dict[str, object] | None = None

    def _look(self) -> Look:
        """The widget's and its ancestors' classes and pseudo-classes: with the style sheet,
        what the rules matched depend on. The pseudo-classes that follow a node's place among
        its siblings or the focus inside it (a screen's place among the app's screens changes
        as dialogs come and go) are left out when no rule that may match the widget or its
        component classes names one."""
        placed = self._placed_rules()
        return tuple(
            (
                id(node),
                frozenset(node.classes),
                frozenset(node.get_pseudo_classes())
                if placed
                else frozenset(node.get_pseudo_classes()) - UNTRACKED_PSEUDO_CLASSES,
            )
            for node in self.ancestors_with_self
        )

    def _placed_rules(self) -> bool:
        """Whether a rule that may match the widget, one of its component classes or its
        scrollbars names a pseudo-class of place or of focus within (decided once per style
        sheet basis)."""
        sheet = self.app.stylesheet
        basis = style_basis(sheet)
        known: tuple[object, bool] | None = getattr(self, "_placed", None)
        if known is not None and same_basis(known[0], basis):
            return known[1]
        names = set(self._selector_names)
        for component in self._get_component_classes():
            names |= DOMNode(classes=component)._selector_names
        names |= _scrollbar_names()  # its scrollbars' rules too
        rules_map = sheet.rules_map
        placed = self._has_focus_within or any(
            not rule.pseudo_classes.isdisjoint(UNTRACKED_PSEUDO_CLASSES)
            for name in names
            for rule in rules_map.get(name, ())
        )
        self._placed = (basis, placed)
        return placed

    def watch_has_focus(self, has_focus: bool) -> None:
        if self.children or self._has_order_style or self._has_odd_or_even:
            super().watch_has_focus(has_focus)
            return
        if not hasattr(self, "_focus_styles"):
            self._focus_styles = {}
        sheet = style_basis(self.app.stylesheet)
        look = self._look()
        kept = self._focus_styles.get(look)
        if kept is None or not same_basis(kept[0], sheet):
            super().watch_has_focus(has_focus)  # the style sheet matched against it
            if len(self._focus_styles) >= KEPT:
                self._focus_styles.clear()
            rules = RulesMap(**self.styles.base._rules)
            self._focus_styles[look] = (sheet, rules, dict(self._component_styles), {})
            return
        _sheet, rules, components, notes = kept
        self._component_styles = dict(components)
        self.restored_look = notes
        try:
            Stylesheet.replace_rules(self, rules)  # and notify_style_update
        finally:
            self.restored_look = None
        self._restyle_scrollbars(notes)

    def _restyle_scrollbars(self, notes: dict[str, object]) -> None:
        """The scrollbars shown, styled as Textual's `update_nodes` styles them: matched
        once per look and the scrollbar's own classes and pseudo-classes, then put back."""
        vertical = self.show_vertical_scrollbar and self.scrollbar_size_vertical
        horizontal = self.show_horizontal_scrollbar and self.scrollbar_size_horizontal
        bars: list[tuple[str, Widget]] = []
        if vertical:
            bars.append(("vertical", self.vertical_scrollbar))
        if horizontal:
            bars.append(("horizontal", self.horizontal_scrollbar))
        if vertical and horizontal:
            bars.append(("corner", self.scrollbar_corner))
        kept = notes.setdefault("scrollbars", {})
        assert isinstance(kept, dict)
        for name, bar in bars:
            own = (frozenset(bar.classes), frozenset(bar.get_pseudo_classes()))
            found = kept.get(name)
            if found is not None and found[0] == own:
                Stylesheet.replace_rules(bar, found[1])
                continue
            self.app.stylesheet.apply(bar)
            kept[name] = (own, RulesMap(**bar.styles.base._rules))
