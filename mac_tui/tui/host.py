"""What the screens and widgets of the terminal game may ask of the app.

`MacApp` (tui/app.py) imports the screens; the screens must not import it back, nor each
other: they reach the app, and go from screen to screen (`show_title`, `show_report`...),
through `host(node)`, typed by the `GameHost` protocol below, which `MacApp` satisfies
(app.py checks it statically). A screen that needs something new of the app adds it here and
in `MacApp` together.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, cast

from textual.dom import DOMNode

from ..game import Command, Event
from ..ruleset import Ruleset
from ..session import Session
from .config import Settings
from .pacing import Clock


class GameHost(Protocol):
    """The running game as the screens see it: the session, the settings, the clock, and the
    one door for changing the game, `act`."""

    session: Session | None
    save_path: Path | None
    saves: Path
    settings: Settings
    messages: list[str]
    last_events: Sequence[Event]
    clock: Clock

    def act(self, command: Command, *, draw: bool = True) -> bool: ...

    def show_outcome(self) -> None: ...

    def say(self, text: str, warning: bool = False) -> None: ...

    def report(self, events: Sequence[Event]) -> None: ...

    def last_report(self) -> list[str]: ...

    def request_quit(self) -> None: ...

    def show_game(self) -> None: ...

    def show_title(self) -> None: ...

    def show_battle(self) -> None: ...

    def show_report(self) -> None: ...

    def show_hub(self) -> None: ...

    def show_debrief(self) -> None: ...

    def open_save(self, path: Path) -> bool: ...

    def start_session(self, session: Session, path: Path) -> None: ...

    def new_save_path(self, company: str, seed: int) -> Path: ...

    def start_skirmish(self, seed: int, difficulty: int, rules: Ruleset = ()) -> bool: ...

    def start_tutorial(self) -> bool: ...


def host(node: DOMNode) -> GameHost:
    """The app of `node` as the game host (every screen of the game runs in a `MacApp`)."""
    return cast(GameHost, node.app)
