"""The game's footer: the keys of the screen in front, fitted to the width, cheap to keep.

Textual's `Footer` rebuilds all its keys whenever the screen's bindings may have changed (every
focus change, every `refresh_bindings`), and at 80 columns lets the last keys run off the edge
(`? Help` drawn as `? H`). `GameFooter`:

- **fits**: when the keys are wider than the footer, it leaves out, in order, the keys the
  screen names in `FOOTER_DROP` (binding ids: keys the help screen lists anyway, such as
  `^q Quit`), and the command palette's key below `PALETTE_MIN_WIDTH` columns; `? Help` is
  never left out, so every key stays one press away;
- **is cheap**: it rebuilds its keys only when what it shows changes (a key, a word, the
  width); a key that only becomes legal or illegal is greyed or lit in place.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_ID = "app.help"
QUIT_ID = "app.quit"
PALETTE_MIN_WIDTH = 100  # narrower, the palette's key gives way to the screen's own keys

Shown = tuple[Binding, bool, str]  # a binding, whether it is legal now, its tooltip


def key_width(display: str, description: str) -> int:
    """Cells a compact footer key takes, its margin included (`k Word` and one space)."""
    return cell_len(display) + (1 + cell_len(description) if description else 0) + 1


class GameFooter(Footer):
    """A compact footer that fits its width and rebuilds only when its keys change."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, compact=True, show_command_palette=False)
        self._shown: tuple[tuple[str, str, str, str], ...] | None = None
        self._enabled: tuple[bool, ...] = ()

    # ---- what to show ---------------------------------------------------------------------
    def _candidates(self) -> list[Shown]:
        seen: set[str] = set()
        out: list[Shown] = []
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            out.append((binding, enabled, tooltip))
        return out

    def _palette(self) -> Shown | None:
        if not self.app.ENABLE_COMMAND_PALETTE:
            return None
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return None
        _node, binding, enabled, tooltip = found
        return binding, enabled, tooltip

    def fitted(self, width: int) -> list[Shown]:
        """The keys that fit `width` cells, in the screen's order, dropping as the module
        docstring says."""
        keys = self._candidates()
        palette = self._palette() if width >= PALETTE_MIN_WIDTH else None
        if palette is not None:
            keys.append(palette)
        drop_order: list[str | None] = [
            self.app.COMMAND_PALETTE_BINDING if palette else None,
            *drop_ids(self.screen),
        ]

        def total(items: Iterable[Shown]) -> int:
            return sum(key_width(self.app.get_key_display(b), b.description) for b, _, _ in items)

        for dropped in drop_order:
            if total(keys) <= width:
                break
            if dropped is None:
                continue
            keys = [k for k in keys if k[0].id != dropped and k[0].key != dropped]
        return keys

    # ---- building -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        keys = self.fitted(self.size.width or self.app.size.width)
        self._shown = self._signature(keys)
        self._enabled = tuple(enabled for _, enabled, _ in keys)
        for binding, enabled, tooltip in keys:
            palette = binding.action == "app.command_palette"
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip or (binding.tooltip if palette else ""),
                classes="-command-palette" if palette else "",
            ).data_bind(compact=Footer.compact)

    def _signature(self, keys: list[Shown]) -> tuple[tuple[str, str, str, str], ...]:
        return tuple(
            (b.key, self.app.get_key_display(b), b.description, b.action) for b, _, _ in keys
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        self.call_after_refresh(self._update)

    async def _update(self) -> None:
        if not self.is_attached:
            return
        keys = self.fitted(self.size.width or self.app.size.width)
        if self._signature(keys) != self._shown:
            await self.recompose()
            return
        enabled = tuple(e for _, e, _ in keys)
        if enabled == self._enabled:
            return
        self._enabled = enabled
        for widget, on in zip(self.query(FooterKey), enabled, strict=False):
            widget._disabled = not on
            widget.set_class(not on, "-disabled")

    def on_resize(self, event: Resize) -> None:
        if self._bindings_ready:
            self.call_after_refresh(self._update)


def drop_ids(screen: Screen[object]) -> tuple[str, ...]:
    """The binding ids (or keys) a narrow footer may leave out on `screen`, first dropped
    first: the screen's `FOOTER_DROP`, else `^q Quit` (the help lists every key)."""
    own = getattr(screen, "FOOTER_DROP", None)
    if isinstance(own, tuple):
        return tuple(str(x) for x in own if x != HELP_ID)
    return (QUIT_ID,)
