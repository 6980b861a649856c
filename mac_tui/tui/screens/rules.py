"""The rules reference: every rules table (the same data as `mac-tui rules`), browsable: the
core game's, the optional rules modules (id, name, whether this version plays it, what it
cannot be played with, a plain summary) and each module's own tables.

The tables are listed on the left; the highlighted one is shown on the right, a row per
record, its columns from the record's keys, as many as fit the width whole (nothing is cut);
the highlighted row's other values are written out below the table. Escape goes back to the
title screen. In ascii mode the terrain's Unicode glyphs are left out (their ASCII glyphs are
there).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from ...catalog import catalog
from ...rules_view import HEADERS, Row, _cell, all_tables, rows
from ..glyphs import UNICODE, Glyphs, glyphs_for
from ..widgets.footer import GameFooter
from ..widgets.table import GameTable

CELL_WIDTH = 28  # longer values are never columns: they are written out below the table


def columns(data: list[Row]) -> list[str]:
    """Every key of the rows, in the order they first appear; the catalog's `id` is left out
    where the rows have a name (ids are for `mac-tui rules` and command lines)."""
    out: list[str] = []
    for row in data:
        out += [k for k in row if k not in out]
    return [c for c in out if c != "id"] if "name" in out else out


def words(value: Any) -> str:
    """A value in a player's words: `mac-tui rules`' form, with no id's underscores."""
    return _cell(value).replace("_", " ")


def header(column: str) -> str:
    return HEADERS.get(column, column.replace("_", " "))


def cell(value: Any, g: Glyphs = UNICODE) -> Text:
    """A value as `mac-tui rules` shows it, in the glyphs `g`; numbers to the right."""
    text = Text(g.text(words(value)))
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    text.justify = "right" if numeric else "left"
    return text


def fit_columns(data: list[Row], cols: list[str], room: int, g: Glyphs = UNICODE) -> list[str]:
    """The columns the table shows in `room` cells: the first always, then each that fits
    whole (its header and every value at most `CELL_WIDTH`, or any width for the row's name,
    an optional module's say), in order."""
    shown: list[str] = []
    used = 0
    for n, c in enumerate(cols):
        width = max([len(header(c)), *(len(g.text(words(r.get(c)))) for r in data)]) + 2
        if n == 0 or ((width - 2 <= CELL_WIDTH or c == "name") and used + width <= room):
            shown.append(c)
            used += width
    return shown


class RulesScreen(Screen[None]):
    HELP = (
        "The rules tables, as `mac-tui rules` prints them. Up/Down pick a table; Tab moves to "
        "the table (arrows scroll it, left/right for wide tables); Escape goes back."
    )
    BINDINGS = [
        Binding("escape", "back", "Back", id="rules.back"),
        Binding("tab", "switch_focus", "List/table", id="rules.switch", show=True),
    ]
    DEFAULT_CSS = """
    RulesScreen #rules-body { height: 1fr; }
    RulesScreen #rules-list { width: 22; height: 1fr; }
    RulesScreen #rules-right { width: 1fr; }
    RulesScreen #rules-title { height: auto; padding: 0 1; text-style: bold; background: $surface; }
    RulesScreen #rules-detail-box { height: auto; max-height: 7; background: $surface; }
    RulesScreen #rules-detail { height: auto; padding: 0 1; }
    RulesScreen #rules-head { height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, table: str = "weapons") -> None:
        super().__init__()
        self.tables = all_tables(catalog())  # the core game's, then the optional modules'
        self.table = table if table in self.tables else next(iter(self.tables))
        self.data: list[Row] = []
        self.cols: list[str] = []  # every column of the table
        self.shown: list[str] = []  # those the table has room for

    def compose(self) -> ComposeResult:
        yield Static("", id="rules-head")
        with Horizontal(id="rules-body"):
            yield OptionList(*(Option(name, id=name) for name in self.tables), id="rules-list")
            with Vertical(id="rules-right"):
                yield Static("", id="rules-title")
                yield GameTable(id="rules-table", cursor_type="row", zebra_stripes=True)
                with VerticalScroll(id="rules-detail-box", can_focus=False):
                    yield Static("", id="rules-detail")
        yield GameFooter()

    def on_mount(self) -> None:
        g = glyphs_for(self)
        self.query_one("#rules-head", Static).update(
            f"[b]Rules reference[/b] {g.sep} the tables behind the rules {g.sep} Esc: back"
        )
        options = self.query_one("#rules-list", OptionList)
        options.highlighted = list(self.tables).index(self.table)
        options.focus()
        self.show_table(self.table)

    # ---- drawing ------------------------------------------------------------------------
    def show_table(self, name: str) -> None:
        self.table = name
        g = glyphs_for(self)
        title, _ = self.tables[name]
        self.data = rows(catalog(), name)
        self.cols = columns(self.data)
        if g.ascii:  # the Unicode forms of glyphs cannot be shown in ASCII
            self.cols = [c for c in self.cols if c != "unicode"]
        heading = g.text(f"{title} {g.sep} {len(self.data)} row(s)")
        self.query_one("#rules-title", Static).update(Text(heading))
        self.draw_table()

    def draw_table(self) -> None:
        g = glyphs_for(self)
        table = self.query_one("#rules-table", DataTable)
        room = (self.query_one("#rules-right").size.width or self.app.size.width - 22) - 2
        self.shown = fit_columns(self.data, self.cols, room, g)
        row = table.cursor_row
        table.clear(columns=True)
        table.add_columns(*(header(c) for c in self.shown))
        for i, data in enumerate(self.data):
            table.add_row(*(cell(data.get(c), g) for c in self.shown), key=str(i))
        if table.row_count:
            table.move_cursor(row=max(0, min(row, table.row_count - 1)))
        self.show_detail()

    def on_resize(self) -> None:
        if self.data:
            self.call_after_refresh(self.draw_table)

    def show_detail(self) -> None:
        """The highlighted row's values that have no column in the table."""
        table = self.query_one("#rules-table", DataTable)
        detail = self.query_one("#rules-detail", Static)
        box = self.query_one("#rules-detail-box")
        if not self.data or not 0 <= table.cursor_row < len(self.data):
            detail.update("")
            box.display = False
            return
        row = self.data[table.cursor_row]
        g = glyphs_for(self)
        rest = [f"{header(c)}: {words(row.get(c))}" for c in self.cols if c not in self.shown]
        detail.update(Text(g.text(f" {g.sep} ".join(rest))))
        box.display = bool(rest)

    # ---- events and actions -------------------------------------------------------------
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.table:
            self.show_table(event.option.id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            if event.option.id != self.table:
                self.show_table(event.option.id)
            self.query_one("#rules-table", DataTable).focus()

    def on_data_table_row_highlighted(self) -> None:
        self.show_detail()

    def action_switch_focus(self) -> None:
        options = self.query_one("#rules-list", OptionList)
        table = self.query_one("#rules-table", DataTable)
        (table if options.has_focus else options).focus()

    def action_back(self) -> None:
        self.app.pop_screen()
