"""`KeepsRows`: a table given the rows it shows keeps them (and what it drew of them); any other
rows, or a change made another way, fill it again. `same_content` for a `Static`."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from mac_tui.tui.widgets.kept_rows import same_content
from mac_tui.tui.widgets.table import GameTable

ROWS = [("a", ("Alpha", 1, Text("ok", style="green"))), ("b", ("Beta", 2, Text("-")))]


class Tables(App[None]):
    def compose(self) -> ComposeResult:
        yield GameTable(id="table", cursor_type="row")
        yield Static("words", id="words")

    def on_mount(self) -> None:
        self.query_one(GameTable).add_columns("Name", "N", "State")


def cells(table: GameTable[Any]) -> list[list[object]]:
    return [table.get_row_at(i) for i in range(table.row_count)]


async def test_the_same_rows_again_are_kept_other_rows_fill_the_table() -> None:
    app = Tables()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(GameTable)
        assert table.fill(ROWS)
        table.move_cursor(row=1)
        await pilot.pause()
        drawn = dict(table._row_render_cache)  # what it drew of its rows
        assert drawn
        assert not table.fill([(k, tuple(c)) for k, c in ROWS])  # equal rows, other objects
        assert table.cursor_row == 1 and dict(table._row_render_cache) == drawn
        restyled = [ROWS[0], ("b", ("Beta", 2, Text("-", style="red")))]  # same words
        assert table.fill(restyled)
        assert cells(table)[1][2].style == "red"
        assert table.cursor_row == 1  # kept on its row number
        assert table.fill([ROWS[0]])  # fewer rows: the cursor stays within them
        assert table.row_count == 1 and table.cursor_row == 0


async def test_a_change_made_another_way_forgets_the_rows_kept() -> None:
    app = Tables()
    async with app.run_test(size=(40, 8)):
        table = app.query_one(GameTable)
        table.fill(ROWS)
        table.update_cell_at((0, 0), "Changed")
        assert table.fill(ROWS)  # drawn again: the table no longer shows them
        assert cells(table)[0][0] == "Alpha"
        table.add_row("Gamma", 3, "x", key="c")
        assert table.fill(ROWS) and table.row_count == 2
        table.fill(ROWS)
        table.clear()
        assert table.fill(ROWS) and table.row_count == 2


async def test_rows_with_cells_that_cannot_be_compared_are_always_filled_again() -> None:
    app = Tables()
    async with app.run_test(size=(40, 8)):
        table = app.query_one(GameTable)
        odd = [("a", ("Alpha", 1, object()))]
        assert table.fill(odd)
        assert table.fill(odd)


async def test_same_content_compares_what_a_static_shows() -> None:
    app = Tables()
    async with app.run_test(size=(40, 8)):
        words = app.query_one("#words", Static)
        assert same_content(words, "words")
        assert not same_content(words, "other")
        words.update(Text("bold", style="bold"))
        assert same_content(words, Text("bold", style="bold"))
        assert not same_content(words, Text("bold"))  # the same words, another style
        assert not same_content(words, "bold")
