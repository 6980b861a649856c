"""What a screen cuts: the shared check behind tests/test_tui_fit.py (every screen in its
widest realistic state at 80x24 shows everything it draws).

"Cut" means text the screen meant to show that the player cannot see and cannot scroll to:

1. **clipped**: a widget reaches past the area its containers give it: sideways always (a footer
   key past the footer's edge, `? Help` drawn as `? H`; at 80 columns nothing should need a
   sideways scroll), downwards when no container on the way shows a vertical scrollbar (the
   7th and 8th rows of a list in a box of 6 with nothing saying there is more);
2. **too long**: a widget's own text does not fit its box: a line wider than the box when the
   widget does not wrap (`text-wrap: nowrap`, the footer keys), or more lines than the box is
   high after wrapping (a message line of height 1 holding two lines' worth);
3. **table cells**: a DataTable column narrower than its widest cell (its cells ellipsised),
   columns reaching past the table's right edge (scrollbar or not), or rows below its bottom
   edge with no vertical scrollbar;
4. **cut on purpose**: the game's own `Glyphs.fit` cut a text to a width (its end marked);
   `record_fits` records every such cut while a test runs.

A widget that draws with the line API (`render_line`) is judged by its region only (1), unless
the lines are only its `render`'s, kept (`KeepsStrips`). A
scrollable container with a visible scrollbar, and a data table's rows below its fold, are not
cuts: the player sees there is more and can reach it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.widget import Widget
from textual.widgets import DataTable

from mac_tui.tui.glyphs import Glyphs
from mac_tui.tui.widgets.kept_strips import KeepsStrips

BIG = 10_000


def screen_text(app: App[Any]) -> str:
    """The screen as plain text, one line per row (what a player reads)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def _name(widget: Widget) -> str:
    ident = f"#{widget.id}" if widget.id else ""
    key, words = getattr(widget, "key_display", None), getattr(widget, "description", None)
    if isinstance(key, str) and isinstance(words, str):
        ident += f" {key!r} {words!r}"  # a footer key
    parent = widget.parent
    where = f" in {type(parent).__name__}{'#' + parent.id if parent.id else ''}" if parent else ""
    return f"{type(widget).__name__}{ident}{where}"


def _scrolls(widget: Widget, horizontal: bool) -> bool:
    """Whether some container between the widget and the screen shows a scrollbar that way."""
    node: Any = widget.parent
    while isinstance(node, Widget):
        if node.is_scrollable and (
            node.show_horizontal_scrollbar if horizontal else node.show_vertical_scrollbar
        ):
            bar = node.scrollbar_size_horizontal if horizontal else node.scrollbar_size_vertical
            if bar > 0:
                return True
        node = node.parent
    return False


def _draws_lines(widget: Widget) -> bool:
    """Drawn with the line API of its own (a widget that only keeps the lines of its `render`,
    `KeepsStrips`, is drawn from its `render` and judged by it)."""
    return type(widget).render_line not in (Widget.render_line, KeepsStrips.render_line)


def _own_text(widget: Widget, region: Region) -> list[str]:
    """Check 2 for one leaf widget drawn from its `render`."""
    if widget.is_container or _draws_lines(widget) or isinstance(widget, DataTable):
        return []
    box = region.shrink(widget.styles.gutter)
    if box.width <= 0 or box.height <= 0:
        return []
    visual = widget._render()
    styles = widget.styles
    out = []
    if styles.text_wrap == "nowrap":
        natural = visual.get_optimal_width(styles, BIG)
        if natural > box.width:
            out.append(f"{_name(widget)}: a line of {natural} cells in {box.width}")
    elif not widget.is_scrollable or not widget.show_vertical_scrollbar:
        height = visual.get_height(styles, box.width)
        if height > box.height:
            out.append(f"{_name(widget)}: {height} lines in a box {box.height} high")
    return out


def _table(table: DataTable[Any], region: Region) -> list[str]:
    """Check 3 for one data table."""
    out = []
    for column in table.columns.values():
        if not column.auto_width and column.content_width > column.width:
            out.append(
                f"{_name(table)}: column {column.label.plain!r} is {column.width} wide for "
                f"{column.content_width}"
            )
    box = table.scrollable_content_region
    wanted = table.virtual_size.width
    if wanted > box.width:
        out.append(f"{_name(table)}: {wanted} cells of columns in {box.width}")
    rows = table.virtual_size.height
    if rows > box.height and not (table.show_vertical_scrollbar and table.scrollbar_size_vertical):
        out.append(f"{_name(table)}: {rows} lines of rows in {box.height}, no scrollbar")
    return out


def _parked(widget: Widget, screen: Region) -> bool:
    """A widget its container keeps off the screen on purpose, moved out by an offset (the
    hub's sections not in front): not shown, not cut."""
    node: Any = widget
    while isinstance(node, Widget):
        offset = node.styles.offset
        if (offset.x.value or offset.y.value) and not node.region.overlaps(screen):
            return True
        node = node.parent
    return False


def cuts(app: App[Any]) -> list[str]:
    """Every cut on the screen in front, described (empty when everything fits)."""
    screen = app.screen
    found: list[str] = []
    for widget, geometry in screen._compositor.full_map.items():
        if widget is screen or not widget.display or not widget.visible:
            continue
        if isinstance(widget, ScrollBar | ScrollBarCorner):
            continue  # a container's chrome, not content
        if not widget.is_mounted or getattr(widget, "_closing", False):
            continue
        region, clip = geometry.region, geometry.clip
        if region.area == 0 or _parked(widget, screen.region):
            continue
        shown = clip.intersection(region)
        sideways = shown.right < region.right or shown.x > region.x
        downwards = shown.bottom < region.bottom or shown.y > region.y
        if shown.area == 0:
            sideways = region.x >= clip.right or region.right <= clip.x
            downwards = not sideways
        if sideways:
            found.append(
                f"{_name(widget)}: {region.width} cells wide, {shown.width} shown (at x={region.x})"
            )
        if downwards and not _scrolls(widget, False):
            found.append(
                f"{_name(widget)}: {region.height} lines high, {shown.height} shown "
                f"(at y={region.y})"
            )
        if isinstance(widget, DataTable):
            found.extend(_table(widget, region))
        else:
            found.extend(_own_text(widget, region))
    return found


@contextmanager
def record_fits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text `Glyphs.fit` cuts while the block runs (check 4), as `text -> shown`."""
    cut: list[str] = []
    original = Glyphs.fit

    def fit(self: Glyphs, text: Text | str, width: int) -> Text:
        shown = original(self, text, width)
        whole = text if isinstance(text, str) else text.plain
        if shown.plain != whole:
            cut.append(f"{whole!r} -> {shown.plain!r}")
        return shown

    monkeypatch.setattr(Glyphs, "fit", fit)
    yield cut
