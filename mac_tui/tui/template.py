"""Games cloned from a game already at its title: a login's game in about 15 ms of CPU, not 65.

A game forked from the server's warm parent (the zygote, `server/zygote_main.py`) still made
its app, started Textual, composed, styled and laid out the title screen and drew it twice
before its player saw anything: some 60-65 ms of CPU per login, which 50 players logging in
together paid on the same two cores as their SSH handshakes. So the zygote starts one game of
its own first, the template (`Template.build`): a `MacApp` with no player (default settings,
no saves folder, no terminal, no server link) run until its title screen has been composed,
styled, laid out and rendered once, and then paused: its event loop is stopped from within
(the app's tasks wait in it, nothing runs), and the zygote goes on to serve its requests.

What the template holds is what every game holds at that point and nothing of anyone's: it
has read no player's environment, file or setting, it has no thread (its driver starts none,
`HeldDriver`), no signal handler, no terminal, and no file descriptors but its event loop's
own two (the epoll selector and the loop's wake-up socket pair), which a clone closes first
and replaces with its own (`renew_loop`), so no two processes ever share them. It draws
nothing (`MacApp._display`).

A game forked for an SSH login then, in the child (`zygote_main._child`, after it has made
itself the player's process exactly as a forked game does: its session, terminal,
environment, folder, lock, stdio), `resume`s the template's app instead of starting a new
one: the loop gets its own descriptors, Textual's terminal driver (with its threads) takes
the held driver's place on the player's terminal and reports its size, and the app becomes
the player's (`MacApp.start_clone`: the signal handlers, the server's link, then the
player's settings and colours and every cell drawn, as a game of the pool does when its
player comes). Each clone is one process for one player, forked from the same template that
no player ever had, so the isolation is the forked game's: nothing of a player is in the
template, and nothing of a clone goes back to it.

It leans on asyncio's private loop fields (`_selector`, `_ssock`, `_csock`, `_internal_fds`,
`_make_self_pipe`, the same from Python 3.11 to 3.13; `tests/test_server_clones.py` fails
if a clone's loop is not its own) and on Textual's workings: the driver `App._process_messages`
starts and stops, `App._driver`, the size report and the screens' update flags; the
`internals.RELIES_ON` entry for this module names them for `tests/test_tui_internals.py`'s
digests.
"""

from __future__ import annotations

import asyncio
import selectors
import sys
import threading
from typing import TYPE_CHECKING, Any

from textual import constants, events
from textual.driver import Driver
from textual.geometry import Size

if TYPE_CHECKING:
    from .app import MacApp

COLS, ROWS = 80, 24  # the template's size (the clone lays it out again at the player's)


def terminal_size(driver: Driver) -> tuple[int, int]:
    """The size of the terminal `driver` drives (as its size report says)."""
    size: Any = getattr(driver, "_get_terminal_size", lambda: (COLS, ROWS))()
    return (int(size[0]), int(size[1]))


class HeldDriver(Driver):
    """The template's driver: no terminal, no thread; it reports the template's size and
    writes nothing. Once a clone has its terminal driver (`real`), the app's end stops that
    one (`App._process_messages` stops the driver it started, this one)."""

    real: Driver | None = None

    def start_application_mode(self) -> None:
        size = Size(COLS, ROWS)
        loop = asyncio.get_running_loop()
        loop.call_soon(self._app.post_message, events.Resize(size, size))

    def write(self, data: str) -> None:
        if self.real is not None:
            self.real.write(data)

    def flush(self) -> None:
        if self.real is not None:
            self.real.flush()

    def disable_input(self) -> None:
        if self.real is not None:
            self.real.disable_input()

    def stop_application_mode(self) -> None:
        if self.real is not None:
            self.real.stop_application_mode()


class Template:
    """The zygote's paused game (see the module's text)."""

    def __init__(
        self,
        app: MacApp,
        loop: asyncio.AbstractEventLoop,
        task: asyncio.Task[Any],
        terminal: type[Driver],
    ) -> None:
        self.app = app
        self.loop = loop
        self.task = task
        self.terminal = terminal  # the driver a game of this host uses (Textual's, hangup.py)

    @classmethod
    def build(cls) -> Template | None:
        """Run a game with no player to its drawn title and pause it there; None if it did
        not get there (the zygote then forks games that start as before)."""
        from pathlib import Path

        from .app import MacApp
        from .config import Settings

        app = MacApp(settings=Settings(), saves=Path("/nonexistent/mac-tui-template"), held=True)
        terminal = app.driver_class
        app.driver_class = HeldDriver
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        task = loop.create_task(app.run_async())
        loop.run_forever()  # until the app, its title drawn, stops it (`MacApp.hold`)
        if task.done() or threading.active_count() != 1 or not app.held:
            return None
        return cls(app, loop, task, terminal)

    def forget(self) -> None:
        """In a clone, first thing: close its copies of the template loop's descriptors
        (through their objects, so nothing closes a reused number later)."""
        loop: Any = self.loop
        loop._selector.close()
        loop._ssock.close()
        loop._csock.close()
        loop._internal_fds -= 1

    def renew_loop(self) -> None:
        """In a clone: a selector and wake-up socket pair of its own."""
        loop: Any = self.loop
        loop._selector = selectors.DefaultSelector()
        loop._make_self_pipe()

    def resume(self) -> int:
        """In a clone that is the player's process (see the module's text): play, to the
        end; the exit status."""
        self.renew_loop()
        app = self.app
        task = self.task
        # Textual's print capture, as in any game (the clone's stdio objects are new).
        sys.stdout = app._capture_stdout
        sys.stderr = app._capture_stderr

        async def play() -> None:
            with app._context():
                held = app._driver
                real = self.terminal(app, debug=constants.DEBUG, mouse=True, size=None)
                if isinstance(held, HeldDriver):
                    held.real = real
                app._driver = real
                real.start_application_mode()  # its size comes as a message, as in any game
                # A size of its own comes with every cell drawn (Textual lays the screen out
                # again at the new size); at the template's, every cell is drawn here.
                app.start_clone(repaint=terminal_size(real) == (COLS, ROWS))
            await task

        self.loop.run_until_complete(play())
        return 0
