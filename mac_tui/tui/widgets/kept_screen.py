"""`KeptScreen`: a screen a widget opens again and again (the pilot sheet, the battle's log
page), installed in the app on its first opening and only filled again on the next ones, so
that a key opening it builds no widgets; the app forgets it when its owner goes."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from textual.app import ScreenStackError
from textual.screen import Screen
from textual.widget import Widget

S = TypeVar("S", bound=Screen[Any])


class KeptScreen(Generic[S]):
    """One owner's kept screen, named `kind` and the owner's identity in the app."""

    def __init__(self, owner: Widget, kind: str) -> None:
        self.owner = owner
        self.name = f"{kind}-{id(owner)}"
        self.screen: S | None = None

    def open(self, make: Callable[[], S], reopen: Callable[[S], None]) -> None:
        """Push the screen: made by `make` the first time, filled by `reopen` after."""
        app = self.owner.app
        if self.screen is None:
            self.screen = make()
            app.install_screen(self.screen, name=self.name)
        else:
            reopen(self.screen)
        app.push_screen(self.screen)

    def forget(self) -> None:
        """The owner goes: the app uninstalls the screen (still open, the app is closing and
        uninstalls it on its way out)."""
        if self.screen is None:
            return
        self.screen = None
        with contextlib.suppress(ScreenStackError):
            self.owner.app.uninstall_screen(self.name)
