"""`KeyLine`: a footer of one line, drawn as one piece of text.

Textual's `Footer` mounts a widget per key and builds them again whenever the keys of the
screen change (each mode of the battle screen has its own), which costs a new layout and a
style pass on every such key press. `KeyLine` draws the same keys (those of the screen's
bindings that are shown in the footer, in the order the screen has them) as one line of
text: each key reversed and its words, a greyed key dimmed and struck through (never colour
alone), a click on a key presses it. It fits its width: the words of the app's own keys
(^q Quit) go first, then those of the screen's last keys; `? Help` always stays.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget

from ..glyphs import glyphs_for

ALWAYS = ("question_mark",)  # kept when nothing else fits
PALETTE_MIN_WIDTH = 100  # from this width on, the command palette's key is named too
DROP_FIRST = ("app.quit",)  # binding ids given up first when the line is too narrow


class KeyLine(Widget):
    """The footer of the battle screen: the shown keys of the screen in one line."""

    DEFAULT_CSS = """
    KeyLine { height: 1; width: 1fr; background: $footer-background; color: $footer-foreground; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = Text()
        self._signature: tuple[tuple[str, str, bool], ...] = ()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def keys(self) -> list[tuple[str, str, bool, str, str]]:
        """(key shown, words, live, key pressed, binding id) of each key in the line."""
        out = []
        seen: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding: Binding = active.binding
            if not binding.show or not binding.description or binding.action in seen:
                continue
            seen.add(binding.action)
            shown = self.app.get_key_display(binding)
            out.append((shown, binding.description, active.enabled, key, binding.id or ""))
        if self.app.ENABLE_COMMAND_PALETTE and self.app.size.width >= PALETTE_MIN_WIDTH:
            out.append(("^p", "palette", True, "ctrl+p", "app.palette"))
        return out

    def bindings_changed(self, screen: object) -> None:
        keys = self.keys()
        signature = tuple((shown, words, live) for shown, words, live, _, _ in keys)
        if signature == self._signature and self._text.plain:
            return
        self._signature = signature
        self._text = self.line(keys, self.size.width or self.app.size.width)
        self.refresh()

    def on_resize(self) -> None:
        self._text = self.line(self.keys(), self.size.width)
        self.refresh()

    def line(self, keys: list[tuple[str, str, bool, str, str]], width: int) -> Text:
        """The keys as one line no wider than `width`."""
        g = glyphs_for(self)
        items = list(keys)

        def size(items: list[tuple[str, str, bool, str, str]]) -> int:
            return sum(len(shown) + len(words) + 3 for shown, words, _, _, _ in items)

        for drop in DROP_FIRST:
            if size(items) > width:
                items = [k for k in items if k[4] != drop]
        while size(items) > width and len(items) > 1:
            last = next((k for k in reversed(items) if k[3] not in ALWAYS), None)
            if last is None:
                break
            items.remove(last)
        text = Text(no_wrap=True, overflow="crop")
        for shown, words, live, key, _ in items:
            click = Style(meta={"@click": f"app.simulate_key('{key}')"})
            if live:
                text.append(f" {g.text(shown)} ", style=Style(bold=True, reverse=True) + click)
                text.append(f"{words} ", style=click)
            else:
                text.append(f" {g.text(shown)} {words} ", style="dim strike")
        return text

    def render(self) -> Text:
        return self._text
