"""A full-screen, scrollable, searchable text: the battle's history (and any long log).

`HistoryScreen(title, lines)` opens at the end (the newest lines); the arrows, PgUp/PgDn and
Home/End scroll, `/` asks for a word, Enter finds it, `n`/`N` go to the next/previous line that
holds it (every match marked in reverse video, the current one underlined too: never colour
alone); Escape closes the search, then the screen. `LogView` draws the lines with the line API,
wrapped to its width (a wrapped line goes on indented), so a long battle costs one repaint of
the lines in sight.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Static

from ..glyphs import glyphs_for
from ..internals import KeepsStyledLines, RestylesOnChange
from ..literal import literal
from .focus_styles import KeepsFocusStyles
from .footer import GameFooter
from .uniform import UniformLines

INDENT = "    "
LINES_KEPT = 512  # drawn lines kept (a page or two, a search's marks)
MATCH = Style(reverse=True)
CURRENT = Style(reverse=True, bold=True, underline=True)


def wrap_lines(lines: Sequence[str], width: int) -> list[tuple[int, str]]:
    """(source line, text) of every drawn row at `width`, continuation rows indented."""
    width = max(width, len(INDENT) + 8)
    out: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if len(line) <= width:
            out.append((i, line))
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        rows = textwrap.wrap(
            line,
            width,
            subsequent_indent=lead + INDENT,
            break_long_words=True,
            break_on_hyphens=False,
            drop_whitespace=True,
        ) or [""]
        rows[0] = lead + rows[0].lstrip(" ") if not rows[0].startswith(lead) else rows[0]
        out.extend((i, row) for row in rows)
    return out


def matches(lines: Sequence[str], word: str) -> list[int]:
    """The source lines holding `word` (any case)."""
    needle = word.lower()
    return [i for i, line in enumerate(lines) if needle and needle in line.lower()]


class LogView(KeepsStyledLines, KeepsFocusStyles, ScrollView, can_focus=True):
    """Lines of text, wrapped to the width, with the matches of a search marked."""

    DEFAULT_CSS = "LogView { height: 1fr; scrollbar-size: 1 1; }"
    BINDINGS = [
        Binding("up,k", "scroll_up", "Up", show=False),
        Binding("down,j", "scroll_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown,space", "page_down", "Page down", show=False),
        Binding("home,g", "scroll_home", "First line", show=False),
        Binding("end,G", "scroll_end", "Last line", show=False),
    ]

    def __init__(self, lines: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines = list(lines)
        self.word = ""
        self.current: int | None = None  # the source line of the current match
        self._rows: list[tuple[int, str]] = []
        self._width = 0
        self._wrapped: list[str] | None = None  # the lines `_rows` were wrapped from
        self._style: Style | None = None  # while repainting
        # lines drawn lately, by what they show: the page opened again draws the same objects
        self._drawn: dict[tuple[object, ...], Strip] = {}

    def on_resize(self, event: events.Resize) -> None:
        self.rewrap()

    def rewrap(self) -> None:
        width = self.scrollable_content_region.width or self.size.width
        if width <= 0 or (width == self._width and self._wrapped is self.lines):
            return  # (wrapped already: the same lines at the same width)
        self._width, self._wrapped = width, self.lines
        self._rows = wrap_lines(self.lines, width)
        self.virtual_size = Size(width, len(self._rows))
        self.refresh()

    def set_lines(self, lines: Sequence[str]) -> None:
        at_end = self.scroll_y >= self.max_scroll_y
        self.lines = list(lines)
        self.rewrap()
        if at_end:
            self.scroll_end(animate=False, immediate=True)

    def mark(self, word: str, current: int | None) -> None:
        self.word, self.current = word, current
        self.refresh()
        if current is not None:
            row = next((n for n, (i, _) in enumerate(self._rows) if i == current), 0)
            top = max(0, row - self.scrollable_content_region.height // 3)
            self.scroll_to(y=top, animate=False, immediate=True)

    def row_text(self, y: int) -> str:
        """The drawn text of content row `y` (for tests)."""
        return self._rows[y][1] if 0 <= y < len(self._rows) else ""

    def render_lines(self, crop: Region) -> list[Strip]:
        # One style for every line of one repaint (it walks the widget's ancestors).
        self._style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._style = None

    def render_line(self, y: int) -> Strip:
        row = y + int(self.scroll_y)
        if not 0 <= row < len(self._rows):
            return Strip.blank(self.size.width)
        source, text = self._rows[row]
        style = self._style or self.rich_style
        needle = self.word.lower()
        width = self.size.width
        key = (text, width, style, needle, needle and source == self.current)
        strip = self._drawn.get(key)
        if strip is None:
            if len(self._drawn) >= LINES_KEPT:
                self._drawn.clear()
            strip = self._drawn[key] = self._draw(source, text, style, needle, width)
        return strip

    def _draw(self, source: int, text: str, style: Style, needle: str, width: int) -> Strip:
        segments: list[Segment] = []
        lowered = text.lower()
        at = 0
        while needle:
            found = lowered.find(needle, at)
            if found < 0:
                break
            mark = CURRENT if source == self.current else MATCH
            segments.append(Segment(text[at:found], style))
            segments.append(Segment(text[found : found + len(needle)], style + mark))
            at = found + len(needle)
        segments.append(Segment(text[at:], style))
        return Strip(segments).extend_cell_length(width, style).crop(0, width)


class HistoryScreen(RestylesOnChange, UniformLines, Screen[None]):
    """A long text to read back: scroll, search, close."""

    HELP = (
        "The whole history. Up/Down, PgUp/PgDn, Home/End scroll; / asks for a word, Enter "
        "finds it, n and N go to the next and previous line that holds it; Escape closes."
    )
    BINDINGS = [
        Binding("escape", "close", "Back", id="history.close"),
        Binding("slash", "search", "Search", id="history.search"),
        Binding("n", "next_match(1)", "Next match", id="history.next"),
        Binding("N", "next_match(-1)", "Previous match", id="history.previous"),
    ]
    DEFAULT_CSS = """
    HistoryScreen #history-head { height: 1; padding: 0 1; background: $panel; }
    HistoryScreen #history-status { height: 1; padding: 0 1; color: $text-muted; }
    HistoryScreen #history-search { dock: bottom; display: none; }
    HistoryScreen #history-search.-open { display: block; }
    """

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.source = list(lines)
        self.found: list[int] = []
        self.at: int | None = None  # index into `found`
        self._said: dict[str, str] = {}  # the one-line texts shown, by widget

    def compose(self) -> ComposeResult:
        yield Static("", id="history-head")
        yield LogView(self.source, id="history-view")
        yield Static("", id="history-status")
        yield Input(placeholder="a word to find; Enter finds it", id="history-search")
        yield GameFooter()

    @property
    def view(self) -> LogView:
        return self.query_one(LogView)

    def on_mount(self) -> None:
        self._fill()

    def reopen(self, title: str, lines: Sequence[str]) -> None:
        """The same screen opened again (an installed screen is kept between two openings:
        no new widgets, no new style pass) on newer lines, at their end, with no search."""
        self.title_text = title
        if list(lines) != self.source:
            self.source = list(lines)
        self.found, self.at = [], None
        if self.is_mounted:
            self.query_one("#history-search", Input).remove_class("-open")
            self.view.word, self.view.current = "", None
            self.view.lines = self.source
            self._fill(laid_out=True)

    def _fill(self, laid_out: bool = False) -> None:
        """Head, focus, the end in view and the hint; the end at once when the page has its
        size already (opened again: one frame, not a second one to scroll)."""
        g = glyphs_for(self)
        # one line high whatever it says: no new layout (a layout asked for after the screen's
        # first frame would draw the page a second time)
        self._put("#history-head", g.text(literal(self.title_text)))
        self.view.focus()
        if laid_out:
            self._to_end()
        else:
            self.call_after_refresh(self._to_end)
        self.say(self.hint())

    def _to_end(self) -> None:
        self.view.rewrap()
        self.view.scroll_end(animate=False, immediate=True)

    def hint(self) -> str:
        g = glyphs_for(self)
        count = len(self.source)
        return g.text(f"{count} lines {g.sep} / search {g.sep} n N next, previous {g.sep} Esc back")

    def say(self, text: str) -> None:
        self._put("#history-status", text)

    def _put(self, where: str, text: str) -> None:
        """A one-line text (no new layout: a layout asked for after the screen's first frame
        would draw the page a second time), updated only when it changes (the page opened
        again on the same battle draws the lines it kept)."""
        if self._said.get(where) != text:
            self._said[where] = text
            self.query_one(where, Static).update(text, layout=False)

    def footer_token(self) -> str:
        """The page's keys follow nothing but the focus (`GameFooter`)."""
        return "history"

    def set_lines(self, lines: Sequence[str]) -> None:
        """New lines (the battle went on): kept in view, the search kept."""
        self.source = list(lines)
        self.view.set_lines(self.source)
        if self.view.word:
            self.find(self.view.word, keep=True)

    def action_search(self) -> None:
        field = self.query_one("#history-search", Input)
        field.add_class("-open")
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.find(event.value.strip())
        event.input.remove_class("-open")
        self.view.focus()

    def find(self, word: str, keep: bool = False) -> None:
        self.found = matches(self.source, word)
        g = glyphs_for(self)
        if not word:
            self.at = None
            self.view.mark("", None)
            self.say(self.hint())
            return
        if not self.found:
            self.at = None
            self.view.mark(word, None)
            self.say(g.text(f'"{literal(word)}" is not in the history {g.sep} / search again'))
            return
        if not keep or self.at is None or self.at >= len(self.found):
            self.at = len(self.found) - 1  # the newest first: the bottom is where the battle is
        self.show_match(word)

    def show_match(self, word: str) -> None:
        assert self.at is not None
        g = glyphs_for(self)
        self.view.mark(word, self.found[self.at])
        self.say(
            g.text(
                f'"{literal(word)}": line {self.found[self.at] + 1}, match {self.at + 1} of '
                f"{len(self.found)} {g.sep} n N next, previous"
            )
        )

    def action_next_match(self, step: int) -> None:
        if not self.found:
            self.say(glyphs_for(self).text("No search: / asks for a word"))
            return
        self.at = ((self.at if self.at is not None else -1) + step) % len(self.found)
        self.show_match(self.view.word)

    def action_close(self) -> None:
        field = self.query_one("#history-search", Input)
        if field.has_class("-open"):
            field.remove_class("-open")
            self.view.focus()
            return
        self.dismiss()
