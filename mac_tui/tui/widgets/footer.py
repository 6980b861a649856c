"""The game's footer: the keys of the screen in front, fitted to the width, cheap to keep.

Textual's `Footer` rebuilds a widget per key whenever the screen's bindings may have changed
(every focus change, every `refresh_bindings`: several times for one key press, each a frame
of its own), and at 80 columns lets the last keys run off the edge (`? Help` drawn as `? H`).
`GameFooter` is one line of text:

- **it fits**: when the keys are wider than the footer, it leaves out, in order, the keys the
  screen names in `FOOTER_DROP` (binding ids: keys the help screen lists anyway, such as
  `^q Quit`), and the command palette's key below `PALETTE_MIN_WIDTH` columns; `? Help` is
  never left out, so every key stays one press away. Should the rest still not fit, the line
  is drawn whole past the edge, where the no-cut test (tests/cuts.py) sees it;
- **it is cheap**: a change of the bindings only marks it for a repaint; the keys are read
  when the line is drawn, once a frame, in the same frame as the change that caused it; a
  screen whose keys follow a few values of its own says so (`footer_token()`: the battle's
  mode and moment), and with the same token and focus the keys are not read again, nor
  with a token and focus it has read them under lately (a mode left and come back to: f,
  then Esc, reads no key);
- **keys work as in Textual's footer**: an illegal key is dimmed (and struck through, so
  colour is never the only sign), a click on a key presses it.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import ActiveBinding, Binding
from textual.events import Click
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from ..internals import KeepsPages, PaintsDirect
from .kept_strips import KeepsStrips

HELP_ID = "app.help"
QUIT_ID = "app.quit"
PALETTE_MIN_WIDTH = 100  # narrower, the palette's key gives way to the screen's own keys
KEPT_LINES = 8  # lines kept, each the same object while it shows the same keys (KeepsStrips)

Shown = tuple[Binding, bool]  # a binding and whether it is legal now


def key_width(display: str, description: str) -> int:
    """Cells a footer key takes, the space after it included (`k Word `)."""
    return cell_len(display) + (1 + cell_len(description) if description else 0) + 1


class GameFooter(KeepsPages, PaintsDirect, KeepsStrips, Widget):
    """One line naming the keys of the screen in front (see the module docstring). A line
    drawn before under the same focus and `footer_token` (the keys the screen says it has),
    at the same size and look, is given back as it was styled then
    (`internals.KeepsPages`): a hub section key repainted the footer through Textual's
    styles cache, 0.17 ms of the frame at 120x40, for the line it drew the last time that
    section was in front (lp15)."""

    DEFAULT_CSS = """
    GameFooter {
        dock: bottom; height: 1; width: 1fr; text-wrap: nowrap;
        background: $footer-background; color: $footer-description-foreground;
    }
    GameFooter > .game-footer--key { color: $footer-key-foreground; text-style: bold; }
    GameFooter > .game-footer--off { text-style: dim strike; }
    """
    COMPONENT_CLASSES = {"game-footer--key", "game-footer--off"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._hits: list[tuple[int, int, str]] = []  # (first column, end column, key)
        self._displays: dict[tuple[str, str], str] = {}  # (key, binding id) -> as shown
        # the last lines drawn, by what they show (a mode's keys and the keys it returns to)
        self._drawn: dict[object, tuple[Text, list[tuple[int, int, str]]]] = {}
        self._styles: tuple[Style, Style] | None = None  # the keys' and the greyed keys'
        # (focus, signature, the screen's `footer_token`) of the line last drawn
        self._shows: tuple[object, object, object] | None = None
        self._pending = False  # a repaint asked for and not drawn yet
        self._fresh: tuple[int, list[Shown]] | None = None  # keys read for that repaint
        # the keys read lately, by (focus, the screen's `footer_token`, width): the token says
        # they are the same while it is (only for screens that have one)
        self._read: dict[tuple[object, object, int], list[Shown]] = {}
        # what `render` noted of each page `KeepsPages` keeps: the signature and the hits
        self._paged: dict[object, tuple[object, list[tuple[int, int, str]]]] = {}
        self._rendered = False  # `render` ran (the page was not kept)

    def _page_key(self) -> tuple[object, ...] | None:
        """The line's page for `KeepsPages`: the focus and the screen's `footer_token`, with
        the keys' styles and the look the strips are kept under (None: no token, or keys
        read afresh for this repaint; drawn as ever)."""
        if self._fresh is not None or self.text_selection is not None:
            return None
        screen = self.screen
        token = footer_token(screen)
        if token is None:
            return None
        return (screen.focused, token, self.key_styles(), self.visual_style, self.app.theme)

    def render_lines(self, crop: Region) -> list[Strip]:
        key = self._page_key()
        self._rendered = False
        lines = super().render_lines(crop)  # `render` runs only for a page not kept
        if key is None:
            return lines
        if self._rendered:
            if len(self._paged) >= KEPT_LINES:
                del self._paged[next(iter(self._paged))]  # the oldest
            assert self._shows is not None
            self._paged[key] = (self._shows[1], self._hits)
            return lines
        shown = self._paged.get(key)
        if shown is None:
            self.render()  # (forgotten here, kept there): what it notes, the line it gives
        else:  # given back: what `render` notes of the line drawn
            self._pending = False
            self._shows = (key[0], shown[0], key[1])
            self._hits = shown[1]
        return lines

    def notify_style_update(self) -> None:
        self._styles = None  # Textual forgets them on every refresh; here on a new style
        super().notify_style_update()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_moved, immediate=True)

    def bindings_moved(self, screen: Screen[object]) -> None:
        """The bindings changed (Textual's signal, heard at once): when the focus moved from
        where the line was drawn, the repaint is asked for now, as `bindings_changed` would
        ask for it (the keys are read as the line is drawn, after the key's action); else
        `bindings_changed` looks at the keys on the footer's next turn, once the action that
        changed them is over (Textual's way for every signal). A section key or the launch
        plan's Enter so costs no message and turn of the footer's queue (lp15)."""
        if screen is not self.screen:
            return
        shows = self._shows
        if self._pending or shows is None or shows[0] is not screen.focused:
            self.bindings_changed(screen)
        else:
            self.call_next(self.bindings_changed, screen)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """A repaint when the line may show other keys: at once when the focus moved (the
        line is read as it is drawn); with the focus where the last line was drawn (Textual
        says the bindings changed again after each focus change's frame), only when the keys
        or their legality now differ from the line drawn, so that frame is not drawn twice."""
        if screen is not self.screen:
            return
        if self._pending:  # drawn soon: the keys are read then (anew, should they change)
            self._fresh = None
            return
        shows = self._shows
        if shows is not None and shows[0] is screen.focused:
            token = footer_token(screen)
            if token is not None and token == shows[2]:
                return  # the screen says its keys are the ones drawn: not even read
            width = self.size.width
            keys = self.keys(width, token)
            if self._signature(keys) == shows[1]:
                return
            self._fresh = (width, keys)  # the repaint, in this frame, draws these
        self._pending = True
        self.refresh()

    # ---- what to show ---------------------------------------------------------------------
    def _candidates(self, active: Mapping[str, ActiveBinding]) -> list[Shown]:
        seen: set[str] = set()
        out: list[Shown] = []
        for _node, binding, enabled, _tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            out.append((binding, enabled))
        return out

    def fitted(self, width: int) -> list[Shown]:
        """The keys (binding, legal now) that fit `width` cells, in the screen's order,
        dropping as the module docstring says."""
        active = self.screen.active_bindings  # each key's check_action asked: once a line
        keys = self._candidates(active)
        palette = self.app.COMMAND_PALETTE_BINDING
        found = active.get(palette)
        if self.app.ENABLE_COMMAND_PALETTE and found is not None and width >= PALETTE_MIN_WIDTH:
            keys.append((found[1], found[2]))

        def total(items: list[Shown]) -> int:
            return sum(key_width(self.key_display(b), b.description) for b, _ in items)

        for dropped in drop_ids(self.screen):
            if total(keys) - 1 <= width:  # the last key needs no space after it
                break
            keys = [k for k in keys if not _is(k[0], dropped)]
        return keys

    def keys(self, width: int, token: object) -> list[Shown]:
        """`fitted(width)`, read once per focus and `footer_token` (None: every time)."""
        if token is None:
            return self.fitted(width)
        key = (self.screen.focused, token, width)
        keys = self._read.get(key)
        if keys is None:
            keys = self.fitted(width)
            if len(self._read) >= KEPT_LINES:
                del self._read[next(iter(self._read))]  # the oldest
            self._read[key] = keys
        return keys

    def key_display(self, binding: Binding) -> str:
        """The key as the footer shows it (asked of the app once per key and binding)."""
        found = self._displays.get((binding.key, binding.id or ""))
        if found is None:
            found = self._displays[(binding.key, binding.id or "")] = self.app.get_key_display(
                binding
            )
        return found

    # ---- drawing --------------------------------------------------------------------------
    def key_styles(self) -> tuple[Style, Style]:
        """The keys' style and the greyed keys', found once per style (not per repaint)."""
        if self._styles is None:
            self._styles = (
                self.get_component_rich_style("game-footer--key", partial=True),
                self.get_component_rich_style("game-footer--off", partial=True),
            )
        return self._styles

    def _signature(self, keys: list[Shown]) -> tuple[object, ...]:
        return (
            self.size.width,
            *self.key_styles(),
            tuple((b.key, b.id, b.description, enabled) for b, enabled in keys),
        )

    def render(self) -> Text:
        """The line, built again only when the keys, their legality, the width or the styles
        are none of the last `KEPT_LINES` drawn (most keys of a screen change none of them; a
        mode's keys give way to the ones before it again); the same line is the same object,
        whose strips `KeepsStrips` keeps."""
        self._rendered = True
        key_style, off_style = self.key_styles()
        fresh, self._fresh = self._fresh, None
        width = self.size.width
        token = footer_token(self.screen)
        keys = fresh[1] if fresh is not None and fresh[0] == width else self.keys(width, token)
        signature = self._signature(keys)
        self._pending = False
        self._shows = (self.screen.focused, signature, token)
        drawn = self._drawn.get(signature)
        if drawn is not None:
            self._hits = drawn[1]
            return drawn[0]
        line = Text(no_wrap=True, overflow="crop")
        hits: list[tuple[int, int, str]] = []
        for binding, enabled in keys:
            if line.cell_len:
                line.append(" ")
            start = line.cell_len
            line.append(self.key_display(binding), style=key_style)
            if binding.description:
                line.append(" " + binding.description)
            if not enabled:
                line.stylize(off_style, start, line.cell_len)
            hits.append((start, line.cell_len, binding.key))
        self._hits = hits
        if len(self._drawn) >= KEPT_LINES:
            del self._drawn[next(iter(self._drawn))]  # the oldest
        self._drawn[signature] = (line, hits)
        return line

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for start, end, key in self._hits:
            if start <= offset.x < end:
                event.stop()
                self.app.simulate_key(key.split(",")[0])
                return

    def key_at(self, x: int) -> str | None:
        """The key drawn at column `x`, if any (what a click there presses)."""
        return next((key for start, end, key in self._hits if start <= x < end), None)


class Same:
    """An object as a key that is equal only to itself (hashed by its identity, not its
    fields); it holds the object, so its identity names no other meanwhile."""

    __slots__ = ("thing",)

    def __init__(self, thing: object) -> None:
        self.thing = thing

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.thing is self.thing

    def __hash__(self) -> int:
        return id(self.thing)


def footer_token(screen: Screen[object]) -> object:
    """What the screen's keys and their legality follow (`footer_token()`, when the screen
    has one: the same token, with the same focus, is the same line), else None."""
    token = getattr(screen, "footer_token", None)
    return token() if callable(token) else None


def _is(binding: Binding, dropped: str) -> bool:
    return binding.id == dropped or binding.key == dropped


def drop_ids(screen: Screen[object]) -> tuple[str, ...]:
    """What a narrow footer may leave out on `screen`, first dropped first: the palette's key,
    then the screen's `FOOTER_DROP` (binding ids), else `^q Quit` (the help lists them all)."""
    own = getattr(screen, "FOOTER_DROP", None)
    listed = own if isinstance(own, tuple) else (QUIT_ID,)
    return (screen.app.COMMAND_PALETTE_BINDING, *(str(x) for x in listed if x != HELP_ID))
