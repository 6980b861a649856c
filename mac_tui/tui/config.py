"""Player settings: theme, glyphs, animation speed and key remapping, from a TOML file.

The file is `config.toml` in the platform's config folder for mac-tui (or $MAC_TUI_CONFIG).
A broken file never stops the game: the defaults are used and the problem is reported.

    theme = "mac-okabe-ito"        # any theme from the settings screen
    glyphs = "unicode"             # or "ascii"
    animation = "normal"           # the enemy's turns: off, fast, normal, slow, key
    hints = false                  # no hints in the hub (written only when off)
    [keys]                         # binding id = keys (comma-separated)
    "hub.market" = "m,3"
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

import attrs
from attrs import frozen

from ..safefile import BOM, Refused, read_regular

CONFIG_ENV = "MAC_TUI_CONFIG"
MAX_CONFIG_BYTES = 1024 * 1024  # a settings file is a few hundred bytes
Glyphs = Literal["ascii", "unicode"]
Animation = Literal["off", "fast", "normal", "slow", "key"]
Pacing = Literal["instant", "animated", "key"]
GLYPHS: tuple[Glyphs, ...] = ("unicode", "ascii")
#: The order the settings screen steps through: instant, one order per key, then animated
#: from fast to slow (slow goes back to instant).
ANIMATIONS: tuple[Animation, ...] = ("off", "key", "fast", "normal", "slow")
ANIMATION_SECONDS = {"off": 0.0, "fast": 0.15, "normal": 0.45, "slow": 0.9, "key": 0.0}
#: How the settings screen names each pace of the enemy's turns.
ANIMATION_WORDS = {
    "slow": "animated, slow (0.9 s an order)",
    "normal": "animated (0.45 s an order)",
    "fast": "animated, fast (0.15 s an order)",
    "key": "wait for a key after each order",
    "off": "instant",
}


@frozen
class Settings:
    theme: str = "mac-dark"
    glyphs: Glyphs = "unicode"
    animation: Animation = "normal"
    keys: tuple[tuple[str, str], ...] = ()
    hints: bool = True  # a hint about the hub's section in front, until switched off

    @property
    def delay(self) -> float:
        """Seconds between two of the enemy's orders when they are animated."""
        return ANIMATION_SECONDS[self.animation]

    @property
    def pacing(self) -> Pacing:
        """How the enemy's orders come: all at once, one every `delay`, or one per key."""
        if self.animation == "off":
            return "instant"
        return "key" if self.animation == "key" else "animated"


@frozen
class GameOptions:
    """What the command line asks of this run (`mac-tui play --saves DIR --ascii --theme T`):
    the saves folder, and settings that win over the settings file's for this run only (the
    file is not rewritten; a setting the player changes on the settings screen is)."""

    saves: Path | None = None
    glyphs: Glyphs | None = None
    theme: str | None = None

    def apply(self, settings: Settings) -> Settings:
        if self.glyphs is not None:
            settings = attrs.evolve(settings, glyphs=self.glyphs)
        if self.theme is not None:
            settings = attrs.evolve(settings, theme=self.theme)
        return settings

    def overridden(self) -> list[str]:
        """The settings given for this run, as words (`glyphs ascii`)."""
        return [f"{k} {v}" for k, v in (("glyphs", self.glyphs), ("theme", self.theme)) if v]

    def changed_by_player(self, settings: Settings) -> GameOptions:
        """These options less the settings the player has since changed (they are the
        player's now, and saved)."""
        return attrs.evolve(
            self,
            glyphs=self.glyphs if self.glyphs == settings.glyphs else None,
            theme=self.theme if self.theme == settings.theme else None,
        )


def config_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_config_path("mac-tui", appauthor=False) / "config.toml"


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings and, when the file had a problem, a message naming file and field."""
    path = path or config_path()
    if not path.exists():
        return Settings(), None
    try:
        # A link (a dotfiles folder) is followed; what it names must be a small regular file,
        # so a FIFO or a device named config.toml is refused instead of hanging the game.
        data = read_regular(os.path.realpath(path), limit=MAX_CONFIG_BYTES)
        raw = tomllib.loads(data.decode("utf-8").removeprefix(BOM))
    except (OSError, Refused, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return Settings(), f"{path}: unreadable ({exc}); using the default settings"
    settings = Settings()
    problems: list[str] = []
    for key, value in raw.items():
        if key == "theme" and isinstance(value, str):
            settings = attrs.evolve(settings, theme=value)
        elif key == "glyphs" and value in GLYPHS:
            settings = attrs.evolve(settings, glyphs=value)
        elif key == "animation" and value in ANIMATIONS:
            settings = attrs.evolve(settings, animation=value)
        elif key == "hints" and isinstance(value, bool):
            settings = attrs.evolve(settings, hints=value)
        elif key == "keys" and isinstance(value, dict):
            keys = tuple(sorted((str(k), str(v)) for k, v in value.items() if isinstance(v, str)))
            settings = attrs.evolve(settings, keys=keys)
        else:
            problems.append(f'field "{key}"')
    message = f"{path}: ignored {', '.join(problems)}" if problems else None
    return settings, message


def settings_text(settings: Settings) -> str:
    """The settings as the file holds them (TOML)."""
    lines = [
        f'theme = "{settings.theme}"',
        f'glyphs = "{settings.glyphs}"',
        f'animation = "{settings.animation}"',
    ]
    if not settings.hints:
        lines.append("hints = false")
    if settings.keys:
        lines.append("")
        lines.append("[keys]")
        lines += [f'"{k}" = "{v}"' for k, v in settings.keys]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = Path(os.path.realpath(path or config_path()))  # a linked file stays linked
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(settings_text(settings), encoding="utf-8")
    os.replace(tmp, path)


def save_change(before: Settings, after: Settings, path: Path | None = None) -> Settings:
    """Write to the file only what changed from `before` to `after` (a setting the player
    just changed), over what the file holds: a setting given for one run on the command
    line (`mac-tui play --ascii`) stays out of the file. The settings written are returned."""
    path = path or config_path()
    changed = {
        field.name: getattr(after, field.name)
        for field in attrs.fields(Settings)
        if getattr(after, field.name) != getattr(before, field.name)
    }
    saved = attrs.evolve(load_settings(path)[0], **changed)
    save_settings(saved, path)
    return saved


def server_game() -> bool:
    """Whether this game is a server's (`serve ssh`/`serve web` set `$MAC_TUI_STORE` for
    its games): its CPU is the host's, shared with the other players'."""
    return bool(os.environ.get("MAC_TUI_STORE"))
