"""How to play: the pages of `mac_tui.howto` (every number from the rules data), one at a time.

The pages are listed on the left; the highlighted one is written out on the right, wrapped
to the width and scrollable. F1 opens it from any screen, `p` from the title; Escape (or F1
again) goes back.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...catalog import catalog
from ...howto import Page, pages
from ..glyphs import glyphs_for
from ..widgets.footer import GameFooter


class HowToPlayScreen(Screen[None]):
    HELP = (
        "How to play, in pages: Up/Down pick a page, Tab moves to the text (arrows and "
        "PgUp/PgDn scroll it), Escape goes back. The numbers come from the rules data."
    )
    BINDINGS = [
        Binding("escape,f1", "back", "Back", id="howto.back"),
        Binding("tab", "switch_focus", "Pages/text", id="howto.switch"),
        Binding("right_square_bracket", "page(1)", "Next page", id="howto.next"),
        Binding("left_square_bracket", "page(-1)", "Prev page", id="howto.prev", show=False),
    ]
    DEFAULT_CSS = """
    HowToPlayScreen #howto-head { height: 1; padding: 0 1; background: $panel; }
    HowToPlayScreen #howto-body { height: 1fr; }
    HowToPlayScreen #howto-list { width: 22; height: 1fr; }
    HowToPlayScreen #howto-scroll { width: 1fr; height: 1fr; }
    HowToPlayScreen #howto-text { height: auto; padding: 0 1; }
    """

    def __init__(self, start: int = 0) -> None:
        super().__init__()
        self.pages: tuple[Page, ...] = pages(catalog())
        self.page = max(0, min(start, len(self.pages) - 1))

    def compose(self) -> ComposeResult:
        yield Static("", id="howto-head")
        with Horizontal(id="howto-body"):
            yield OptionList(
                *(Option(p.title, id=str(i)) for i, p in enumerate(self.pages)), id="howto-list"
            )
            with VerticalScroll(id="howto-scroll"):
                yield Static("", id="howto-text")
        yield GameFooter()

    def on_mount(self) -> None:
        g = glyphs_for(self)
        self.query_one("#howto-head", Static).update(
            f"[b]How to play[/b] {g.sep} ] next page {g.sep} Esc: back"
        )
        options = self.query_one("#howto-list", OptionList)
        options.highlighted = self.page
        options.focus()
        self.show_page(self.page)

    def show_page(self, index: int) -> None:
        self.page = index
        g = glyphs_for(self)
        page = self.pages[index]
        text = Text()
        text.append(g.text(page.title), style="bold")
        text.append(f"  ({index + 1} of {len(self.pages)})\n\n", style="dim")
        text.append(g.text("\n".join(page.lines)))
        self.query_one("#howto-text", Static).update(text)
        self.query_one("#howto-scroll", VerticalScroll).scroll_home(animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None and int(event.option.id) != self.page:
            self.show_page(int(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.query_one("#howto-scroll", VerticalScroll).focus()

    def action_page(self, step: int) -> None:
        index = (self.page + step) % len(self.pages)
        self.query_one("#howto-list", OptionList).highlighted = index
        self.show_page(index)

    def action_switch_focus(self) -> None:
        options = self.query_one("#howto-list", OptionList)
        scroll = self.query_one("#howto-scroll", VerticalScroll)
        (scroll if options.has_focus else options).focus()

    def action_back(self) -> None:
        self.app.pop_screen()
