"""Small modal dialogs: confirm, ask for a line of text, choose from a list. Their text is
drawn in the glyphs setting's form (ASCII only in ascii mode; app.tcss frames them in ASCII)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import frozen
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, OptionList, Static
from textual.widgets.option_list import Option

from ..glyphs import glyphs_for
from ..internals import RestylesOnChange
from .table import GameTable

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 64; height: auto; max-height: 20; border: thick $primary; background: $surface;
    padding: 1 2;
}}
{name} Horizontal {{ height: auto; align-horizontal: right; margin-top: 1; }}
{name} Button {{ margin-left: 2; }}
{name} .prompt {{ width: 100%; height: auto; }}
{name} #aside {{ width: 100%; margin-top: 1; }}
"""


@frozen
class Aside:
    """A setting of what a dialog starts, shown as a button under the dialog's field (Tab
    reaches it, Enter or a click presses it): the optional rules of a new game. `label()` is
    its text; `press(done)` changes the setting (in a dialog of its own) and calls `done()`
    to redraw the label."""

    label: Callable[[], str]
    press: Callable[[Callable[[], None]], None]


def _aside_button(dialog: ModalScreen[str | None], aside: Aside | None) -> Button | None:
    return None if aside is None else Button(glyphs_for(dialog.app).text(aside.label()), id="aside")


def _press_aside(dialog: ModalScreen[str | None], aside: Aside | None) -> None:
    if aside is None:
        return

    def done() -> None:
        dialog.query_one("#aside", Button).label = glyphs_for(dialog.app).text(aside.label())
        dialog.query_one("Input, OptionList").focus()  # Enter answers the dialog again

    aside.press(done)


class ConfirmScreen(RestylesOnChange, ModalScreen[bool]):
    """Yes/no: `y`/Enter confirms, `n`/Escape cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="dialog.yes"),
        Binding("n,escape", "answer(False)", "No", id="dialog.no"),
    ]

    def __init__(self, message: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.message = message
        self.yes, self.no = yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(glyphs_for(self.app).text(self.message), classes="prompt")
            with Horizontal():
                yield Button(f"{self.no} (n)", id="no")
                yield Button(f"{self.yes} (y)", id="yes", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class AskScreen(RestylesOnChange, ModalScreen[str | None]):
    """A line of text: Enter accepts (an empty line takes the suggestion shown in the field,
    when there is one), Escape cancels."""

    DEFAULT_CSS = DIALOG_CSS.format(name="AskScreen")
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def __init__(
        self,
        prompt: str,
        value: str = "",
        placeholder: str = "",
        suggest: bool = False,
        aside: Aside | None = None,
    ) -> None:
        super().__init__()
        self.prompt = prompt
        self.value = value
        self.placeholder = placeholder
        self.suggest = suggest  # the placeholder is a suggestion Enter takes
        self.aside = aside

    def compose(self) -> ComposeResult:
        g = glyphs_for(self.app)
        with Vertical():
            yield Static(g.text(self.prompt), classes="prompt")
            yield Input(value=self.value, placeholder=g.text(self.placeholder), id="answer")
            if button := _aside_button(self, self.aside):
                yield button

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value
        if not value.strip() and self.suggest:
            value = self.placeholder
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        _press_aside(self, self.aside)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChooseScreen(RestylesOnChange, ModalScreen[str | None]):
    """Pick one of several options (arrows + Enter, or a click); Escape cancels."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ChooseScreen")
        + """
    ChooseScreen OptionList { height: auto; max-height: 14; }
    """
    )
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def __init__(
        self, title: str, options: Sequence[tuple[str, str]], aside: Aside | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.aside = aside

    def compose(self) -> ComposeResult:
        g = glyphs_for(self.app)
        with Vertical():
            yield Static(g.text(self.title_text), classes="prompt")
            yield OptionList(*(Option(g.text(label), id=value) for value, label in self.options))
            if button := _aside_button(self, self.aside):
                yield button

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        _press_aside(self, self.aside)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TableChooseScreen(RestylesOnChange, ModalScreen[str | None]):
    """Pick one row of a table (arrows, Home/End, Enter, or a click); Escape cancels. Each
    row has a value (what the dialog answers) and its cells; columns are as wide as their
    widest cell, so nothing is cut."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="TableChooseScreen")
        + """
    TableChooseScreen > Vertical { padding: 0 1; }
    TableChooseScreen GameTable { max-height: 16; }
    TableChooseScreen .note { height: auto; color: $text-muted; }
    """
    )
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def __init__(
        self,
        title: str,
        columns: Sequence[str],
        rows: Sequence[tuple[str, Sequence[str | Text]]],
        note: str = "",
        details: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.columns = list(columns)
        self.rows = list(rows)
        self.note = note
        self.details = details or {}  # a line about the highlighted row, by its value
        # what the dialog offers, as (value, words): the same shape as ChooseScreen's
        self.options = [(value, " · ".join(str(c) for c in cells)) for value, cells in self.rows]

    def widths(self) -> list[int]:
        return [
            max([cell_len(c), *(cell_len(str(cells[i])) for _, cells in self.rows)])
            for i, c in enumerate(self.columns)
        ]

    def compose(self) -> ComposeResult:
        g = glyphs_for(self.app)
        with Vertical() as box:
            wanted = sum(w + 2 for w in self.widths()) + 2 + 4  # cells, scrollbar, frame
            box.styles.width = min(max(wanted, 40), max(40, self.app.size.width - 2))
            yield Static(g.text(self.title_text), classes="prompt")
            table = GameTable(cursor_type="row", zebra_stripes=True)
            table.styles.height = len(self.rows) + 1  # the header and the rows (16 at most)
            for label, width in zip(self.columns, self.widths(), strict=True):
                table.add_column(label, width=width)
            for value, cells in self.rows:
                table.add_row(
                    *(c if isinstance(c, Text) else Text(g.text(c)) for c in cells), key=value
                )
            yield table
            if self.details:
                yield Static("", id="row-detail", classes="prompt")
            if self.note:
                yield Static(g.text(self.note), classes="note")

    def on_mount(self) -> None:
        self.query_one(GameTable).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(str(event.row_key.value))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.details:
            text = self.details.get(str(event.row_key.value), "")
            self.query_one("#row-detail", Static).update(glyphs_for(self.app).text(text))

    def action_cancel(self) -> None:
        self.dismiss(None)
