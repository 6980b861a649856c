"""Colour themes. Every meaning shown in colour is also shown by a glyph or a word; the
Okabe-Ito theme uses a palette that stays distinct under the common colour-vision deficits."""

from __future__ import annotations

from textual.theme import Theme

THEMES = (
    Theme(
        name="mac-dark",
        primary="#D98E04",
        secondary="#5B8DB8",
        accent="#E8C547",
        warning="#E8A33D",
        error="#D9534F",
        success="#5CB85C",
        background="#14161A",
        surface="#1C1F24",
        panel="#262A31",
        dark=True,
    ),
    Theme(
        name="mac-okabe-ito",
        primary="#E69F00",
        secondary="#56B4E9",
        accent="#F0E442",
        warning="#E69F00",
        error="#D55E00",
        success="#009E73",
        background="#101010",
        surface="#1A1A1A",
        panel="#262626",
        dark=True,
    ),
    Theme(
        name="mac-light",
        primary="#9C5A00",
        secondary="#1F5F99",
        accent="#7A5C00",
        warning="#A35200",
        error="#B00020",
        success="#2E7D32",
        background="#F5F2EA",
        surface="#ECE7DC",
        panel="#DED7C8",
        dark=False,
    ),
)
THEME_NAMES = tuple(t.name for t in THEMES)


def all_theme_names() -> tuple[str, ...]:
    """The game's themes, then Textual's own: what `--theme` and the config file take."""
    from textual.theme import BUILTIN_THEMES

    return (*THEME_NAMES, *sorted(n for n in BUILTIN_THEMES if n not in THEME_NAMES))
