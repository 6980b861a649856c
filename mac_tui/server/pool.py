"""Games started ahead of their players: a login gets a game that is at its title screen already.

A game cloned from the zygote's template (`tui/template.py`) still costs 10-25 ms of CPU before
its title screen is drawn (65 ms forked without the template: Textual's app, the title's
widgets and their styles, the first frame), and 50 players logging in together pay that 50
times over on the same cores as their SSH handshakes. The pool pays it before they come:
`GamePool` keeps `size` games (`--pool`) forked by the zygote, each in a PTY of its own, with a
neutral environment (the folder `DATA/pool`, no player's saves, settings or store) and drawn
at 80x24. A game of the pool says when its
title is drawn (`tui/pooled.py`); the server keeps what it wrote (the terminal's set-up and
that first frame) to pass on to the player who gets it.

A login takes a ready game (`take`), if there is one, and makes it the player's (`LiveGame.
adopt`): the PTY takes the player's size, and the game gets the player's environment, folder
and lock (`game.lock`) over its socket, applies the player's settings and draws every cell
again (about 10 ms of CPU). From then on it is that player's game like any other, one process
per player: a game of the pool has run no one's game before, and nothing of a player reaches
the pool. With no ready game, the login forks a game of its own as before.

The pool refills one game at a time, and only once no login has taken a game for `QUIET`
seconds, so a burst of logins is not slowed by the games that will serve the next one. (A game
of the pool cannot simply run at a low priority: an unprivileged process cannot take a lower
nice value back, and the game becomes a player's.) Each waiting game holds about 52 MB
resident, 12 MB of it its own (the rest shared with the zygote, its template and the other
games), and its threat-assessment helper 8 MB more. The server's stop ends them (nothing to save).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from ..tui.pooled import WAITING_ENV
from .zygote import WarmProcess, Zygote, game_terminal

DEFAULT_POOL = 4  # games waiting (`--pool`); each holds some 20 MB of its own, helper included
POOL_COLS, POOL_ROWS = 80, 24
EARLY_CAP = 1024 * 1024  # a waiting game that writes more than this is ended
READY_TIMEOUT = 60.0  # seconds a game of the pool may take to draw its title
QUIET = 1.0  # seconds without a login before the pool refills
RETRY_DELAY = 5.0  # seconds before trying again after a game of the pool failed to start
MAX_MESSAGE = 4096


class PooledGame:
    """A game of the pool: its process, PTY (the server's end), socket and first output."""

    def __init__(self, process: WarmProcess, master: int, sock: socket.socket) -> None:
        self.process = process
        self.pid = process.pid
        self.master = master
        self.sock = sock
        self.early = bytearray()  # what it wrote before a player had it
        self.ready = asyncio.Event()
        self.gone = False
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(master, self._readable)
        self._loop.add_reader(sock.fileno(), self._message)
        self._waiter = asyncio.ensure_future(self._wait())

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._loop.remove_reader(self.master)
            return
        self.early += data
        if len(self.early) > EARLY_CAP:
            self.end()

    def _message(self) -> None:
        try:
            data = self.sock.recv(MAX_MESSAGE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._loop.remove_reader(self.sock.fileno())
            return
        with contextlib.suppress(ValueError):
            doc = json.loads(data)
            if isinstance(doc, dict) and "ready" in doc:
                self.ready.set()

    async def _wait(self) -> None:
        await self.process.wait()
        self.gone = True
        self.ready.clear()
        self._release()

    def _release(self) -> None:
        """Stop reading (the game has gone, or a `LiveGame` reads it now)."""
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self.master)
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self.sock.fileno())

    def hand_over(self) -> bytes:
        """Stop reading the game: a player's `LiveGame` does from now on. What it wrote
        before (its terminal set-up and its first frame), to pass on to the player."""
        self._release()
        self._waiter.cancel()
        early = bytes(self.early)
        self.early.clear()
        return early

    def attach(self, env: Mapping[str, str], cwd: str, lock_fd: int | None) -> bool:
        """Make the game the player's: their environment, folder and lock (it redraws)."""
        doc = {"attach": {"env": dict(env), "cwd": cwd}}
        try:
            fds = [] if lock_fd is None else [lock_fd]
            socket.send_fds(self.sock, [json.dumps(doc).encode()], fds)
        except OSError:
            return False
        return True

    def end(self) -> None:
        """End a game nobody has (SIGKILL to its process group: it has nothing to save)."""
        self.ready.clear()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self.close()

    def close(self) -> None:
        self._release()
        self.sock.close()
        with contextlib.suppress(OSError):
            os.close(self.master)


class GamePool:
    """`size` games waiting at their title screens (see the module's text)."""

    def __init__(
        self,
        zygote: Zygote,
        size: int,
        env: Mapping[str, str],
        folder: Path,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.zygote = zygote
        self.size = size
        self.env = {**env, WAITING_ENV: "1"}
        self.folder = folder
        self.log = log or (lambda text: None)
        self.games: list[PooledGame] = []
        self.last_take = -QUIET
        self.taken = 0  # logins that got a game of the pool
        self.missed = 0  # logins that found none ready
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        if self.size > 0:
            self._task = asyncio.ensure_future(self._fill())

    def ready_count(self) -> int:
        return sum(1 for g in self.games if g.ready.is_set() and not g.gone)

    def take(self) -> PooledGame | None:
        """A ready game for a login (it leaves the pool), or None."""
        self.last_take = time.monotonic()
        self.games = [g for g in self.games if not g.gone]
        for game in self.games:
            if game.ready.is_set():
                self.games.remove(game)
                self.taken += 1
                self._wake.set()
                return game
        self.missed += 1
        self._wake.set()
        return None

    async def _fill(self) -> None:
        while not self._closing:
            self.games = [g for g in self.games if not g.gone]
            if len(self.games) >= self.size:
                self._wake.clear()
                await self._wake.wait()
                continue
            quiet = self.last_take + QUIET - time.monotonic()
            if quiet > 0:
                await asyncio.sleep(quiet)
                continue
            game = await self._start_one()
            if game is None:
                await asyncio.sleep(RETRY_DELAY)
                continue
            self.games.append(game)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(game.ready.wait(), READY_TIMEOUT)
            if not game.ready.is_set() and not game.gone:
                self.log(f"pool: game {game.pid} did not draw its title; ended")
                self.games.remove(game)
                game.end()
            elif game.ready.is_set():
                self.log(f"pool: game {game.pid} waits ({self.ready_count()} ready)")

    async def _start_one(self) -> PooledGame | None:
        with game_terminal(POOL_COLS, POOL_ROWS) as (master, slave, ours, theirs):
            process = await self.zygote.spawn(
                ["play"], self.env, str(self.folder), [slave, theirs.fileno()], tty=True, link=1
            )
        if process is None:
            os.close(master)
            ours.close()
            return None
        return PooledGame(process, master, ours)

    async def close(self) -> None:
        """End the waiting games and stop refilling."""
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for game in self.games:
            game.end()
        self.games.clear()
