"""The rules reference: every rules table (the same data as `mac-tui rules`), browsable.

The tables are listed on the left; the highlighted one is shown on the right, a row per
record, its columns from the record's keys. Long values are cut in the table and shown whole
below it for the highlighted row. Escape goes back to the title screen. In ascii mode the
terrain's Unicode glyphs are left out (their ASCII glyphs are there).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...catalog import catalog
from ...rules_view import HEADERS, TABLES, Row, _cell, rows
from ..glyphs import UNICODE, Glyphs, glyphs_for

CELL_WIDTH = 28  # longer values are cut in the table and shown whole below it


def columns(data: list[Row]) -> list[str]:
    """Every key of the rows, in the order they first appear."""
    out: list[str] = []
    for row in data:
        out += [k for k in row if k not in out]
    return out


def header(column: str) -> str:
    return HEADERS.get(column, column.replace("_", " "))


def cell(value: Any, g: Glyphs = UNICODE) -> Text:
    """A value as `mac-tui rules` shows it, in the glyphs `g`; numbers to the right, long text
    cut with `…`."""
    text = g.fit(g.text(_cell(value)), CELL_WIDTH)
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    text.justify = "right" if numeric else "left"
    return text


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
    RulesScreen #rules-title { height: 1; padding: 0 1; text-style: bold; background: $surface; }
    RulesScreen #rules-detail { height: auto; max-height: 4; padding: 0 1; background: $surface; }
    RulesScreen #rules-head { height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, table: str = "weapons") -> None:
        super().__init__()
        self.table = table if table in TABLES else next(iter(TABLES))
        self.data: list[Row] = []
        self.cols: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="rules-head")
        with Horizontal(id="rules-body"):
            yield OptionList(*(Option(name, id=name) for name in TABLES), id="rules-list")
            with Vertical(id="rules-right"):
                yield Static("", id="rules-title")
                yield DataTable(id="rules-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="rules-detail")
        yield Footer()

    def on_mount(self) -> None:
        g = glyphs_for(self)
        self.query_one("#rules-head", Static).update(
            f"[b]Rules reference[/b] {g.sep} the tables behind the rules {g.sep} Esc: back"
        )
        options = self.query_one("#rules-list", OptionList)
        options.highlighted = list(TABLES).index(self.table)
        options.focus()
        self.show_table(self.table)

    # ---- drawing ------------------------------------------------------------------------
    def show_table(self, name: str) -> None:
        self.table = name
        g = glyphs_for(self)
        title, _ = TABLES[name]
        self.data = rows(catalog(), name)
        self.cols = columns(self.data)
        if g.ascii:  # the Unicode forms of glyphs cannot be shown in ASCII
            self.cols = [c for c in self.cols if c != "unicode"]
        heading = g.text(f"{title} {g.sep} {len(self.data)} row(s)")
        self.query_one("#rules-title", Static).update(Text(heading))
        table = self.query_one("#rules-table", DataTable)
        table.clear(columns=True)
        table.add_columns(*(header(c) for c in self.cols))
        for i, row in enumerate(self.data):
            table.add_row(*(cell(row.get(c), g) for c in self.cols), key=str(i))
        self.show_detail()

    def show_detail(self) -> None:
        """The highlighted row's values that the table had to cut."""
        table = self.query_one("#rules-table", DataTable)
        detail = self.query_one("#rules-detail", Static)
        if not self.data or not 0 <= table.cursor_row < len(self.data):
            detail.update("")
            return
        row = self.data[table.cursor_row]
        long = [
            f"{header(c)}: {_cell(row.get(c))}"
            for c in self.cols
            if len(_cell(row.get(c))) > CELL_WIDTH
        ]
        detail.update(Text(glyphs_for(self).text("\n".join(long))))
        detail.display = bool(long)

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
