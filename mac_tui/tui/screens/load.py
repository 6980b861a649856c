"""Load a save: each with its company, date, credits, missions won/played and optional rules.

The list comes from `save.list_saves`: every campaign of the saves folder, those whose file is
missing or damaged but can be recovered from a backup included (marked so), and a file that
cannot be read at all is listed as damaged without stopping the others from being listed.
Opening one goes through `app.open_save`, which checks it and says what is wrong.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...ruleset import RulesetError, format_ruleset, parse_ruleset
from ...savefolder import Listing, list_saves
from ..host import host
from ..widgets.footer import GameFooter
from ..widgets.table import GameTable


def _cell(header: dict[str, Any], key: str) -> str:
    value = header.get(key)
    return value if isinstance(value, str) else "?"


def _number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def rules_cell(header: dict[str, Any]) -> str:
    """The optional rules a save is played with (`core` for none), marked when this version
    of the game cannot play them (opening it says why)."""
    text = header.get("ruleset")
    if not isinstance(text, str) or not text:
        return "core"
    try:
        return format_ruleset(parse_ruleset(text))
    except RulesetError:
        return f"{text[:16]} (cannot play)"


def row_cells(listing: Listing) -> tuple[str, str, str, str, str, str]:
    """(company, date, credits, missions, rules, file) as the table shows them."""
    h = listing.header
    company = _cell(h, "company")
    if listing.problem:
        company = f"{company} (recoverable)" if h else f"{listing.path.name} (damaged)"
    credits = _number(h.get("credits"))
    won, played = _number(h.get("missions_won")), _number(h.get("missions_played"))
    missions = "-" if h.get("kind") == "skirmish" or won is None else f"{won}/{played or 0}"
    return (
        company,
        _cell(h, "date"),
        "-" if credits is None else f"{credits:,}",
        missions,
        rules_cell(h),
        listing.path.name,
    )


class LoadScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back", id="load.back")]

    def compose(self) -> ComposeResult:
        yield Static("[b]Load a campaign[/b] (Enter opens, Esc goes back)")
        yield GameTable(id="saves", cursor_type="row")
        yield GameFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Company", "Date", "Credits", "Missions", "Rules", "File")
        self.rows = list_saves(host(self).saves)
        for listing in self.rows:
            table.add_row(*(Text(cell) for cell in row_cells(listing)))
        if not self.rows:
            self.query_one(Static).update("[b]No saves yet.[/b] Esc goes back.")
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        listing = self.rows[event.cursor_row]
        host(self).open_save(listing.path)

    def action_back(self) -> None:
        self.app.pop_screen()
