"""A terminal (pyte) for the TUI tests that check kept lines and frames: the app's frames
played on it, the screen drawn from scratch on another, and their cells compared; and the
layouts a widget asks for."""

from __future__ import annotations

from typing import Any

from textual._compositor import CompositorUpdate
from textual.app import App
from textual.geometry import Region
from textual.widget import Widget


def drawn_afresh(app: App[Any]) -> str:
    """The screen in front (with the screens showing through it) as Textual's compositor
    draws it from scratch, in the terminal's bytes."""
    fresh = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    assert fresh is not None
    return fresh.render_segments(app.console)  # type: ignore[union-attr,no-any-return]


def played_on_a_terminal(app: App[Any]) -> Any:
    """A terminal the app's frames are played on from now on."""
    import pyte

    terminal = pyte.Screen(*app.size)
    stream = pyte.Stream(terminal)
    display = app._display

    def shown(screen: Any, update: Any) -> None:
        if isinstance(update, CompositorUpdate):
            stream.feed(update.render_segments(app.console))
        display(screen, update)

    app._display = shown  # type: ignore[method-assign,assignment]
    return terminal


def afresh_in_a_terminal(app: Any) -> Any:
    """A terminal showing the screen as Textual's compositor draws it with every widget's
    styled lines drawn anew (the styles caches emptied, then put back as they were, so the
    next frames find what they would have found)."""
    import pyte

    from mac_tui.tui.internals import kept_styled_lines, put_back_styled_lines

    widgets = list(app.screen.walk_children(with_self=True))
    kept = {widget: kept_styled_lines(widget) for widget in widgets}
    for widget in widgets:
        widget._styles_cache.clear()
    fresh = pyte.Screen(*app.size)
    pyte.Stream(fresh).feed(drawn_afresh(app))
    for widget, lines in kept.items():
        put_back_styled_lines(widget, lines)
    return fresh


def cells(terminal: Any) -> list[list[object]]:
    """Every cell of a terminal: its character, colours and attributes."""
    return [[terminal.buffer[y][x] for x in range(terminal.columns)] for y in range(terminal.lines)]


def layouts_asked(widget: Widget) -> list[bool]:
    """Whether each `refresh` of `widget` from now on asks for a layout."""
    asked: list[bool] = []
    refresh = widget.refresh

    def counted(*regions: Region, **kwargs: Any) -> Any:
        asked.append(bool(kwargs.get("layout")))
        return refresh(*regions, **kwargs)

    widget.refresh = counted  # type: ignore[method-assign]
    return asked
