"""The tutorial's hints as the battle screen shows them (the steps: players/tutorial.py).

Each hint has a long form and a short one (the message line shows the first that fits: the
short one at 80 columns); `{name}` stands for the key of the battle action `name` as the player
has it (remapped keys included)."""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from typing import Final

from ..players.tutorial import KEYS, STEPS, next_step

HINTS: Final[dict[str, tuple[str, str]]] = {
    "deploy": (
        "place your frames in the marked zone: {next_frame} picks a frame, Enter places it, "
        "{auto_deploy} places the rest, {start} starts the battle",
        "{next_frame} picks, Enter places, {auto_deploy} the rest, {start} starts",
    ),
    "cover": (
        "{move} shows where the frame can go; end the move on forest or rocks, where shots "
        "at it lose accuracy, with Enter",
        "{move}, then end the move on forest or rocks (Enter)",
    ),
    "fire": (
        "{fire} aims at the nearest enemy ({next_target}: another, 1-4: the group); the panel "
        "shows the hit chance and its reasons; Enter fires",
        "{fire} aims ({next_target}: next target), Enter fires",
    ),
    "called": (
        "{called} aims at one location of your choice for 2 AP and a harder roll; pick the "
        "location and fire",
        "{called} aims at a location (2 AP); pick it, fire",
    ),
    "brace": (
        "{brace} braces the frame: harder to hit until its next activation, when it cannot "
        "fire well",
        "{brace} braces: harder to hit until its next turn",
    ),
    "vent": (
        "{vent} vents the reactor: less stress (the bar in the panel), better aim, no shutdown",
        "{vent} vents the reactor: less stress, better aim",
    ),
    "withdraw": (
        "{withdraw} withdraws your side: in a campaign it saves your pilots when a fight "
        "turns bad; it ends the tutorial",
        "{withdraw} withdraws your side; that ends the tutorial",
    ),
}


def hint_forms(done: Iterable[str], key: Callable[[str], str]) -> tuple[str, str]:
    """The message line's text, long and short: the step to do now and how far the tutorial
    is; `key(name)` gives the key of the battle action `name`."""
    finished = set(done) & set(KEYS)
    now = next_step(finished)
    if now is None:
        n = len(STEPS)
        return (
            f"Tutorial complete: all {n} steps done. Esc leaves; the how-to-play page (F1) "
            "has the rules",
            f"Tutorial complete: all {n} steps done",
        )
    long, short = HINTS[now.key]
    keys = {name: key(name) for name in _names(long) | _names(short)}
    at = f"{len(finished) + 1}/{len(STEPS)} {now.title}"
    return f"Tutorial {at}: {long.format(**keys)}", f"{at}: {short.format(**keys)}"


def _names(text: str) -> set[str]:
    """The action names `{name}` in a hint."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}
