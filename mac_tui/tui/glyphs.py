"""Every mark the terminal game draws, in a Unicode form and an ASCII form (the `glyphs`
setting: "unicode" or "ascii"). In ascii mode the screens draw only ASCII characters.

    from ..glyphs import glyphs_for
    g = glyphs_for(self)              # a widget, a screen or the app: follows the setting
    f"{g.ok} ready", g.cursor, g.h * 9
    g.text(engine_text)               # any text from elsewhere, made ASCII in ascii mode
    g.fit(text, width)                # cut to a width, the cut marked

`glyphs(ascii)` gives one table directly; `plain(text)` makes any text ASCII (`g.text` does
it in ascii mode only). `apply_glyphs(app, ascii)` switches the Textual side: the `-ascii`
class on the app (app.tcss turns borders into ASCII ones under it), the scrollbars, and a last
guard on every drawn line (`AsciiFilter`) for what no screen can foresee (typed names).
Keys in the footer and the help screen come from `key_display` (see `MacApp.get_key_display`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

import attrs
from attrs import frozen
from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Span, Text
from textual.binding import Binding
from textual.color import Color
from textual.filter import LineFilter
from textual.keys import format_key
from textual.scrollbar import ScrollBar, ScrollBarRender

ASCII_CLASS = "-ascii"  # set on the app in ascii mode; app.tcss styles borders under it


@frozen
class Glyphs:
    """One form of every mark. Marks noted "1 cell" keep that width in both forms."""

    ascii: bool
    ok: str  # fine, ready, done (1 cell)
    no: str  # refused, lost, cannot (1 cell)
    warn: str  # a warning (1 cell)
    cursor: str  # the cursor in a list or a diagram (1 cell)
    current: str  # the view or tab shown now (1 cell)
    prev: str  # a clickable step back (1 cell)
    next: str  # a clickable step forward (1 cell)
    then: str  # the order of play: "P1 › e1" (1 cell)
    play: str  # running
    fast: str  # running fast
    pause: str  # waiting
    stop: str  # over
    left: str  # the arrow keys and "from -> to" in words
    right: str
    up: str
    down: str
    left_key: str  # the arrow keys named in a hint: "←/→ or -/+"
    right_key: str
    sep: str  # between items on one line: "a · b" (1 cell)
    dot: str  # an item not marked (1 cell)
    times: str  # "LL×2" (1 cell)
    more: str  # the end of a cut text
    star: str  # a victory, a highlight (1 cell)
    back: str  # a withdrawal, a return
    plus: str  # injured, healing (1 cell)
    lock: str  # locked: not for sale to you
    none: str  # nothing here at all (1 cell)
    # lines and boxes (1 cell each)
    h: str
    v: str
    tl: str
    tr: str
    bl: str
    br: str
    t_down: str  # ┬
    t_up: str  # ┴
    t_left: str  # ┤
    t_right: str  # ├
    cross: str  # ┼
    rule: str  # a heavy rule in a log: "── Round 2 ──"
    eighths: str  # nine steps of a bar, empty to full (1 cell each)
    shade: str  # the empty part of a bar with a mark (1 cell)
    dark: str  # the full part of such a bar past its mark (1 cell)
    route: str  # a jump route on the star map (1 cell)
    planned: str  # the planned route (1 cell)

    def text(self, text: str) -> str:
        """`text` as this form draws it: unchanged in unicode, made ASCII in ascii mode."""
        return plain(text) if self.ascii else text

    def rich(self, text: Text) -> Text:
        """The same for a Rich `Text`, its styles kept."""
        return plain_text(text) if self.ascii else text

    def fit(self, text: Text | str, width: int) -> Text:
        """The text cut to `width` cells, its end marked (`more`) when something is cut."""
        t = Text(text) if isinstance(text, str) else text.copy()
        if t.cell_len <= width:
            return t
        t.truncate(max(0, width - len(self.more)))
        t.append(self.more[: max(0, width)])
        t.truncate(width)
        return t

    def box(self, width: int, title: str = "") -> tuple[str, str]:
        """The top and bottom lines of a box `width` cells wide, a title in the top one."""
        inner = max(0, width - 2)
        top = self.tl + title[:inner] + self.h * (inner - len(title[:inner])) + self.tr
        return top, self.bl + self.h * inner + self.br


UNICODE = Glyphs(
    ascii=False,
    ok="✓",
    no="✗",
    warn="⚠",
    cursor="▸",
    current="▶",
    prev="◀",
    next="▶",
    then="›",
    play="▶",
    fast="▶▶",
    pause="‖",
    stop="■",
    left="←",
    right="→",
    up="↑",
    down="↓",
    left_key="←",
    right_key="→",
    sep="·",
    dot="·",
    times="×",
    more="…",
    star="★",
    back="↩",
    plus="✚",
    lock="🔒",
    none="⊘",
    h="─",
    v="│",
    tl="┌",
    tr="┐",
    bl="└",
    br="┘",
    t_down="┬",
    t_up="┴",
    t_left="┤",
    t_right="├",
    cross="┼",
    rule="──",
    eighths=" ▁▂▃▄▅▆▇█",
    shade="░",
    dark="▓",
    route="·",
    planned="•",
)

ASCII = Glyphs(
    ascii=True,
    ok="+",
    no="x",
    warn="!",
    cursor=">",
    current=">",
    prev="<",
    next=">",
    then=">",
    play="[>]",
    fast="[>>]",
    pause="[||]",
    stop="#",
    left="<-",
    right="->",
    up="^",
    down="v",
    left_key="Left",
    right_key="Right",
    sep="|",
    dot=".",
    times="x",
    more="...",
    star="*",
    back="<-",
    plus="+",
    lock="[L]",
    none="x",
    h="-",
    v="|",
    tl="+",
    tr="+",
    bl="+",
    br="+",
    t_down="+",
    t_up="+",
    t_left="+",
    t_right="+",
    cross="+",
    rule="--",
    eighths=" ..--==##",
    shade="-",
    dark="!",
    route=".",
    planned="*",
)


def glyphs(ascii: bool) -> Glyphs:
    """The ASCII table or the Unicode one."""
    return ASCII if ascii else UNICODE


def is_ascii(node: Any) -> bool:
    """Whether the glyphs setting of `node`'s app (or of `node`, the app itself) is ascii."""
    app = node if hasattr(node, "settings") else getattr(node, "app", None)
    settings = getattr(app, "settings", None)
    return getattr(settings, "glyphs", "unicode") == "ascii"


def glyphs_for(node: Any) -> Glyphs:
    """The table the setting asks for, from a widget, a screen or the app."""
    return glyphs(is_ascii(node))


# ---- any text, made ASCII ------------------------------------------------------------------
_EIGHTHS = dict(zip(UNICODE.eighths, ASCII.eighths, strict=True))
# In free text "·" is a separator ("|"), "→" an arrow ("->"), "▶" a mark (">"), "‖" is "||".
_NOT_TRANSLITERATED = ("dot", "left_key", "right_key", "play", "pause")
TRANSLITERATION: dict[str, str] = {
    **{
        getattr(UNICODE, f.name): getattr(ASCII, f.name)
        for f in attrs.fields(Glyphs)
        if isinstance(getattr(UNICODE, f.name), str)
        and len(getattr(UNICODE, f.name)) == 1
        and f.name not in _NOT_TRANSLITERATED
    },
    **_EIGHTHS,
    "·": "|",
    "‖": "||",
    "•": "*",
    "—": "-",
    "–": "-",
    "−": "-",
    "‐": "-",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "§": "#",
    "Σ": "sum ",
    "≈": "~",
    "≤": "<=",
    "≥": ">=",
    "±": "+/-",
    "°": " deg",
    "⏎": "Enter",
    "⌫": "Backspace",
    "♣": "T",
    "▲": "^",
    "∴": ":",
    "▼": "v",
    "►": ">",
    "◄": "<",
    "█": "#",
    "▌": "|",
    "▐": "|",
    "▀": "-",
    "▄": "_",
    "\u00a0": " ",
    **{c: "-" for c in "─━═╌╍┄┅"},
    **{c: "|" for c in "│┃║╎╏┆┇"},
    **{c: "+" for c in "┌┐└┘├┤┬┴┼╭╮╯╰┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬"},
}


def plain_text(text: Text) -> Text:
    """A Rich `Text` in ASCII (as `plain`), each style still on the characters it was on."""
    if text.plain.isascii():
        return text
    pieces = [plain(char) for char in text.plain]
    ends = [0]
    for piece in pieces:
        ends.append(ends[-1] + len(piece))
    out = text.blank_copy("".join(pieces))
    out.spans = [Span(ends[s.start], ends[s.end], s.style) for s in text.spans]
    return out


def plain(text: str) -> str:
    """`text` in ASCII: the game's marks as their ASCII forms, accented letters without the
    accent, anything else as `?`."""
    if text.isascii():
        return text
    out: list[str] = []
    for char in text:
        if char.isascii():
            out.append(char)
        elif char in TRANSLITERATION:
            out.append(TRANSLITERATION[char])
        else:
            base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            out.append(base or "?")
    return "".join(out)


# ---- keys ----------------------------------------------------------------------------------
ASCII_KEYS = {
    "enter": "Enter",
    "escape": "Esc",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "backspace": "Bksp",
    "delete": "Del",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "home": "Home",
    "end": "End",
    "tab": "Tab",
    "space": "Space",
}


def key_display(binding: Binding, unicode_display: str, ascii: bool) -> str:
    """How a binding's key is shown: Textual's form (`unicode_display`) in unicode mode; in
    ascii mode the binding's own `key_display` if it is ASCII, else its first key in words
    (Enter, Esc, Left...), with ctrl as `^`."""
    if not ascii:
        return unicode_display
    if binding.key_display and binding.key_display.isascii():
        return binding.key_display
    modifiers, key = binding.parse_key()
    name = ASCII_KEYS.get(key) or format_key(key)
    if not name.isascii():
        name = plain(name) if key not in ASCII_KEYS else name
    if "ctrl" in modifiers:
        modifiers.remove("ctrl")
        name = f"^{name}"
    return "+".join([*modifiers, name])


# ---- the Textual side ----------------------------------------------------------------------
@lru_cache(4096)
def ascii_cells(text: str) -> str:
    """`text` in ASCII, each character in as many cells as it took (a wide one in two)."""
    out: list[str] = []
    for char in text:
        if char.isascii():
            out.append(char)
            continue
        width = cell_len(char)
        out.append(plain(char)[:width].ljust(width) if width else "")
    return "".join(out)


class AsciiFilter(LineFilter):
    """The last guard of ascii mode: any character that is not ASCII by the time a line is
    drawn (a name the player typed with an accent, a widget's own mark) becomes ASCII, in the
    same cells. The screens draw ASCII themselves; this catches what they cannot foresee."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.text.isascii() for segment in segments):
            return segments
        return [
            s if s.text.isascii() else Segment(ascii_cells(s.text), s.style, s.control)
            for s in segments
        ]


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars without the block characters that draw a thumb's fractional ends."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


def apply_glyphs(app: Any, ascii: bool) -> None:
    """Switch the app to ASCII (or back): the `-ascii` class for app.tcss, the scrollbars,
    and a redraw of every screen (their footers show keys in the new form)."""
    app.set_class(ascii, ASCII_CLASS)
    ScrollBar.renderer = AsciiScrollBarRender if ascii else ScrollBarRender
    filters = getattr(app, "_filters", None)  # Textual's line filters (NO_COLOR uses them)
    if isinstance(filters, list):
        filters[:] = [f for f in filters if not isinstance(f, AsciiFilter)]
        if ascii:
            filters.append(AsciiFilter())
    for screen in getattr(app, "screen_stack", ()):
        refresh_view = getattr(screen, "refresh_view", None)
        if callable(refresh_view) and screen.is_mounted:
            refresh_view()
        screen.refresh_bindings()
        for widget in screen.query("*"):
            widget.refresh()  # drawn again: through the guard, or without it
        screen.refresh(layout=True)
