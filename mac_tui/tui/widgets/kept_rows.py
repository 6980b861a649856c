"""`KeepsRows`: a table filled with whole rows, that keeps them when they come again the same.

A hub section draws its table from the state: it clears it and adds every row again
(`DataTable.clear`, `add_row`), which throws away every rendered cell and line, measures the
columns again and moves the cursor back, though most of the time the rows are the very ones
shown: the contracts board each time the launch plan closes (Esc), the lance table each time
it opens (Enter), the roster after a day that changed no frame. `fill(rows)` does nothing when
the rows (keys and cells) are those it put in last, so the table draws its kept lines.

Cells are compared by what they show: a text, a number, or a rich `Text` by its words, spans,
style and layout (`Text.__eq__` compares only the words and spans). A row with any other cell
is never taken for the same (`shown_as`). Any other change to the table (`add_row`, `update_cell`,
`clear`...) forgets the rows kept, so the next `fill` draws them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.widgets import DataTable

    _TableMixin = DataTable[Any]
else:
    _TableMixin = object

Row = tuple[str, Sequence[object]]  # (the row's key, its cells)


def shown_as(cell: object) -> object:
    """What a cell shows, comparable (None: a cell never taken for the same)."""
    if isinstance(cell, str | int | float):
        return (type(cell), cell)
    if isinstance(cell, Text):
        return (
            Text,
            cell.plain,
            tuple(cell.spans),
            str(cell.style),
            cell.justify,
            cell.overflow,
            cell.no_wrap,
            cell.end,
            cell.tab_size,
        )
    return None


class KeepsRows(_TableMixin):
    """A table whose `fill` keeps the rows it shows when given them again (see the module
    docstring). Comes first among the bases."""

    _rows_shown: list[tuple[str, tuple[object, ...]]] | None = None

    def fill(self, rows: Iterable[Row]) -> bool:
        """Show `rows` (clear, add each, the cursor kept on its row number, within the rows);
        nothing when they are the rows shown. True when the table was filled again."""
        wanted = [(key, tuple(shown_as(c) for c in cells), tuple(cells)) for key, cells in rows]
        seen = [(key, shown) for key, shown, _ in wanted]
        if self._rows_shown is not None and seen == self._rows_shown and None not in _flat(seen):
            return False
        row = self.cursor_row
        self.clear()
        for key, _, cells in wanted:
            self.add_row(*cells, key=key)
        if self.row_count:
            self.move_cursor(row=min(max(row, 0), self.row_count - 1))
        self._rows_shown = seen
        return True


#: The table's other ways of changing its rows: each forgets the rows kept.
CHANGES_ROWS = (
    "clear",
    "add_row",
    "add_rows",
    "remove_row",
    "update_cell",
    "update_cell_at",
    "sort",
    "add_column",
    "remove_column",
)


def _forgetting(name: str) -> Any:
    def change(self: KeepsRows, *args: Any, **kwargs: Any) -> Any:
        self._rows_shown = None
        return getattr(super(KeepsRows, self), name)(*args, **kwargs)

    change.__name__ = name
    return change


for _name in CHANGES_ROWS:
    setattr(KeepsRows, _name, _forgetting(_name))


def _flat(seen: list[tuple[str, tuple[object, ...]]]) -> list[object]:
    return [shown for _, cells in seen for shown in cells]


def same_content(widget: Static, content: str | Text) -> bool:
    """Whether the `Static` `widget` shows `content` already (`shown_as`): its update would
    draw the same picture, after a new layout."""
    shown = shown_as(content)
    return shown is not None and shown == shown_as(widget.content)
