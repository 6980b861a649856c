"""`GameTable`: the game's data table. Home and End go to the first and last row (Textual's
table scrolls sideways with them), and the numeric keypad's Home/End/PgUp/PgDn (NumLock off)
do what those keys do."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class GameTable(DataTable[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "first_row", "First row", show=False),
        Binding("end", "last_row", "Last row", show=False),
    ]

    def action_first_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)
