"""Settings: theme, glyphs and the pace of the enemy's turns, applied at once and saved to the
config file; the file's path, and every remappable key with its binding id (the `[keys]`
section)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Sequence
from typing import Any

import attrs
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from ..config import (
    ANIMATION_WORDS,
    ANIMATIONS,
    GLYPHS,
    GameOptions,
    Settings,
    config_path,
    load_settings,
    save_change,
)
from ..glyphs import glyphs
from ..themes import THEME_NAMES
from ..widgets.dialogs import ChooseScreen
from ..widgets.footer import GameFooter
from ..widgets.table import GameTable

KEYS_HINT = (
    'Remap keys in the file\'s [keys] section: binding id = keys, e.g. "hub.market" = "m,3" '
    "(comma-separated). Restart to apply."
)


def theme_names(available: Sequence[str]) -> list[str]:
    """The game's themes first (the colour-blind-safe one among them), then the rest."""
    return [*THEME_NAMES, *sorted(n for n in available if n not in THEME_NAMES)]


def _next(values: Sequence[str], current: str, step: int = 1) -> str:
    index = values.index(current) if current in values else -step
    return values[(index + step) % len(values)]


def _binding_classes(app: type[App[Any]]) -> list[type[DOMNode] | type[App[Any]]]:
    """The app and every screen and widget class of the terminal game (found, not listed,
    so new screens show up here too)."""
    from .. import screens, widgets

    out: list[type[DOMNode] | type[App[Any]]] = [app]
    for package in (screens, widgets):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            try:
                module = importlib.import_module(info.name)
            except Exception:  # a screen being written must not break the settings screen
                continue
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if issubclass(cls, DOMNode) and cls.__module__ == module.__name__:
                    out.append(cls)
    return out


def binding_rows(settings: Settings, app: type[App[Any]]) -> list[tuple[str, str, str]]:
    """(binding id, keys now, what it does) for every key that can be remapped: those of
    `app` (the game's app class) and of every screen and widget."""
    remapped = dict(settings.keys)
    seen: dict[str, tuple[str, str, str]] = {}
    for cls in _binding_classes(app):
        for b in getattr(cls, "BINDINGS", ()):
            if isinstance(b, Binding) and b.id and b.id not in seen:
                seen[b.id] = (b.id, remapped.get(b.id, b.key), b.description or b.action)
    return sorted(seen.values())


def change_settings(app: App[Any], new: Settings, *, save_after_frame: bool = False) -> None:
    """Apply a change at once and save it (only the setting changed: one given for this run
    on the command line stays out of the file); a file that cannot be written is reported.
    The settings screen and the hub's hint key (`H`) change settings through here. With
    `save_after_frame` the file is written once the change is painted (`H`: reading and
    writing the file, some 2 ms of CPU and system time, would otherwise come first), or at
    the app's end when that comes first (`MacApp.unsaved_settings`)."""
    settings = getattr(app, "settings", None)
    before = settings if isinstance(settings, Settings) else Settings()
    apply = getattr(app, "apply_settings", None)
    if apply is not None:
        apply(new)
    else:
        app.theme = new.theme
    options = getattr(app, "options", None)
    if isinstance(options, GameOptions):
        app.options = options.changed_by_player(new)  # type: ignore[attr-defined]

    unsaved = getattr(app, "unsaved_settings", None)
    done = False

    def save() -> None:
        nonlocal done
        if done:
            return
        done = True
        if isinstance(unsaved, list) and save in unsaved:
            unsaved.remove(save)
        try:
            save_change(before, new)
        except OSError as exc:
            app.notify(f"Could not save {config_path()}: {exc}", severity="error", markup=False)

    if save_after_frame and isinstance(unsaved, list):
        unsaved.append(save)  # written at the app's end if it comes before the frame
        app.call_after_refresh(save)
    else:
        save()


class SettingsScreen(Screen[None]):
    HELP = (
        "Up/Down and Enter change a setting (t/T: next/previous theme, g: glyphs, e: the enemy's "
        "turns: animated at a speed, waiting for a key after each order, or instant; h: the "
        "hub's hints). "
        "Changes apply at once and are saved to the config file. Escape goes back."
    )
    BINDINGS = [
        Binding("escape", "back", "Back", id="settings.back"),
        Binding("t", "theme(1)", "Theme", id="settings.theme"),
        Binding("T", "theme(-1)", "Prev theme", id="settings.theme_back", show=False),
        Binding("g", "glyphs", "Glyphs", id="settings.glyphs"),
        Binding("e,a", "animation", "Enemy turns", id="settings.animation"),
        Binding("h", "hints", "Hints", id="settings.hints"),
    ]
    DEFAULT_CSS = """
    SettingsScreen #settings-head { height: 1; padding: 0 1; background: $panel; }
    SettingsScreen #settings-list { height: auto; }
    SettingsScreen .settings-info { height: auto; padding: 0 1; }
    SettingsScreen #settings-problem { color: $warning; }
    SettingsScreen #settings-keys { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="settings-head")
        yield OptionList(id="settings-list")
        yield Static("", id="settings-path", classes="settings-info")
        yield Static("", id="settings-problem", classes="settings-info")
        yield Static("", id="settings-run", classes="settings-info")
        yield Static(Text(KEYS_HINT), id="settings-hint", classes="settings-info")
        yield GameTable(id="settings-keys", cursor_type="row", zebra_stripes=True)
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one("#settings-keys", DataTable).add_columns("Binding id", "Keys", "Action")
        self.refresh_view()
        self.query_one("#settings-list", OptionList).focus()

    @property
    def settings(self) -> Settings:
        settings = getattr(self.app, "settings", None)
        return settings if isinstance(settings, Settings) else Settings()

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        s = self.settings
        g = glyphs(s.glyphs == "ascii")
        self.query_one("#settings-head", Static).update(
            f"[b]Settings[/b] {g.sep} changes apply at once and are saved {g.sep} Esc: back"
        )
        options = self.query_one("#settings-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(
            [
                Option(
                    Text(f"Theme       {s.theme:<33} t/T, Enter: list"),
                    id="theme",
                ),
                Option(Text(f"Glyphs      {s.glyphs:<33} g: unicode / ascii"), id="glyphs"),
                Option(
                    Text(f"Enemy turns {ANIMATION_WORDS[s.animation]:<33} e: next"),
                    id="animation",
                ),
                Option(
                    Text(f"Hints       {'on' if s.hints else 'off':<33} h: on / off"),
                    id="hints",
                ),
            ]
        )
        options.highlighted = highlighted if highlighted is not None else 0
        path = g.text(f"Config file: {config_path()}")
        self.query_one("#settings-path", Static).update(Text(path))
        _, problem = load_settings()
        note = self.query_one("#settings-problem", Static)
        text = g.text(f"{g.warn} {problem} (a change here rewrites the file)") if problem else ""
        note.update(Text(text))
        note.display = bool(problem)
        given = self.for_this_run()
        run = self.query_one("#settings-run", Static)
        run.update(
            Text(f"For this run only (command line): {', '.join(given)}; the file keeps its own")
        )
        run.display = bool(given)
        table = self.query_one("#settings-keys", DataTable)
        row = table.cursor_row
        table.clear()
        for binding_id, keys, what in binding_rows(s, type(self.app)):
            table.add_row(binding_id, Text(keys), Text(what), key=binding_id)
        if table.row_count:
            table.move_cursor(row=max(0, min(row, table.row_count - 1)))

    # ---- changes ------------------------------------------------------------------------
    def for_this_run(self) -> list[str]:
        """The settings the command line gave for this run and the player has not changed."""
        options = getattr(self.app, "options", None)
        return options.overridden() if isinstance(options, GameOptions) else []

    def change(self, new: Settings) -> None:
        change_settings(self.app, new)
        self.refresh_view()

    def action_theme(self, step: int) -> None:
        names = theme_names(list(self.app.available_themes))
        self.change(attrs.evolve(self.settings, theme=_next(names, self.settings.theme, step)))

    def action_glyphs(self) -> None:
        index = GLYPHS.index(self.settings.glyphs)
        self.change(attrs.evolve(self.settings, glyphs=GLYPHS[(index + 1) % len(GLYPHS)]))

    def action_animation(self) -> None:
        index = ANIMATIONS.index(self.settings.animation)
        animation = ANIMATIONS[(index + 1) % len(ANIMATIONS)]
        self.change(attrs.evolve(self.settings, animation=animation))

    def action_hints(self) -> None:
        self.change(attrs.evolve(self.settings, hints=not self.settings.hints))

    def choose_theme(self) -> None:
        names = theme_names(list(self.app.available_themes))
        safe = "  (colour-blind safe)"
        options = [(n, f"{n}{safe if n == 'mac-okabe-ito' else ''}") for n in names]

        def chosen(name: str | None) -> None:
            if name:
                self.change(attrs.evolve(self.settings, theme=name))

        self.app.push_screen(ChooseScreen("Theme:", options), chosen)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "theme":
            self.choose_theme()
        elif event.option.id == "glyphs":
            self.action_glyphs()
        elif event.option.id == "animation":
            self.action_animation()
        elif event.option.id == "hints":
            self.action_hints()

    def action_back(self) -> None:
        self.app.pop_screen()
