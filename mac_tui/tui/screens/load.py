"""Load a save: each with its company, date, credits and missions won/played."""

from __future__ import annotations

import json
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ..host import host


def save_rows(folder: Path) -> list[tuple[Path, dict[str, object]]]:
    rows = []
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            header = json.loads(path.read_text(encoding="utf-8")).get("header", {})
        except (OSError, ValueError, AttributeError):
            header = {"company": f"{path.name} (damaged)"}
        rows.append((path, header if isinstance(header, dict) else {}))
    return rows


class LoadScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back", id="load.back")]

    def compose(self) -> ComposeResult:
        yield Static("[b]Load a campaign[/b] (Enter opens, Esc goes back)")
        yield DataTable(id="saves", cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Company", "Date", "Credits", "Missions", "File")
        self.rows = save_rows(host(self).saves)
        for path, h in self.rows:
            credits = h.get("credits")
            table.add_row(
                str(h.get("company", "?")),
                str(h.get("date", "?")),
                f"{credits:,}" if isinstance(credits, int) else "-",
                "-"
                if h.get("kind") == "skirmish"
                else f"{h.get('missions_won', 0)}/{h.get('missions_played', 0)}",
                path.name,
            )
        if not self.rows:
            self.query_one(Static).update("[b]No saves yet.[/b] Esc goes back.")
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        path, _ = self.rows[event.cursor_row]
        host(self).open_save(path)

    def action_back(self) -> None:
        self.app.pop_screen()
