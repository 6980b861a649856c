"""A server's game and its server: a socket between them, and games started ahead of their player.

Every game an SSH server starts has a Unix socket to the server (`MAC_TUI_SERVER_FD`), on which
the server can ask for a full repaint (`{"repaint": true}`): the server keeps a copy of a
game's screen only while someone watches it, and a spectator's copy starts from that repaint.

A server (`server/pool.py`) also starts a few games before anyone logs in, each in a PTY of its
own with a neutral environment (no player's folder, saves or settings), and keeps them at the
title screen; such a game has `MAC_TUI_WAITING=1` too. Once its title screen has been built it
says `{"ready": PID}` (it draws nothing while it waits). When a player logs in the
server sends `{"attach": {"env": ..., "cwd": ...}}` with the player's lock (`game.lock`) as a
descriptor, and the game becomes that player's for good (`MacApp.attach`): it takes the
player's environment (saves, settings, store, terminal type and NO_COLOR), folder and lock,
applies the player's settings and repaints every cell, then says `{"attached": PID}`. A game
is attached once. If the server goes before the attach, the game ends (nobody's game: nothing
to save).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any

LINK_ENV = "MAC_TUI_SERVER_FD"  # a server's game: its socket to the server
WAITING_ENV = "MAC_TUI_WAITING"  # ... and it waits for its player (a game of the pool)
MAX_MESSAGE = 256 * 1024
MAX_FDS = 4

Attach = Callable[[Mapping[str, str], str], None]


def receive(sock: socket.socket, size: int, max_fds: int) -> tuple[bytes, list[int]] | None:
    """One message and the descriptors that came with it from a non-blocking Unix socket;
    b"" when the other end has closed (or the socket failed), None when nothing is there."""
    try:
        data, fds, _, _ = socket.recv_fds(sock, size, max_fds)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError:
        return b"", []
    return data, fds


class PoolLink:
    """The game's end of the pool's socket (see the module's text)."""

    def __init__(
        self, fd: int, attach: Attach, repaint: Callable[[], None], waiting: bool = True
    ) -> None:
        self.sock = socket.socket(fileno=fd)
        self.sock.setblocking(False)
        self.attach = attach
        self.repaint = repaint
        self.waiting = waiting
        self.attached = not waiting
        self.held: list[int] = []  # the player's lock: held until the game's process ends
        self.gone: Callable[[], None] = lambda: None  # the server left before the attach

    @classmethod
    def from_env(cls, attach: Attach, repaint: Callable[[], None]) -> PoolLink | None:
        value = os.environ.pop(LINK_ENV, "")
        waiting = bool(os.environ.pop(WAITING_ENV, ""))
        if not value.isdigit():
            return None
        try:
            os.fstat(int(value))
        except OSError:
            return None
        return cls(int(value), attach, repaint, waiting)

    def listen(self) -> None:
        import asyncio

        asyncio.get_running_loop().add_reader(self.sock.fileno(), self._readable)

    def say(self, doc: Mapping[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self.sock.send(json.dumps(doc).encode())

    def _readable(self) -> None:
        message = receive(self.sock, MAX_MESSAGE, MAX_FDS)
        if message is None:
            return
        data, fds = message
        if not data:
            import asyncio

            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            if not self.attached:
                self.gone()
            return
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            doc = {}
        request = doc.get("attach")
        if isinstance(request, dict) and not self.attached:
            self.attached = True
            self.held.extend(fds)
            env = request.get("env")
            cwd = request.get("cwd")
            if isinstance(env, dict) and isinstance(cwd, str):
                self.attach({str(k): str(v) for k, v in env.items()}, cwd)
            self.say({"attached": os.getpid()})
            return
        for fd in fds:  # descriptors that came with anything else are not kept
            os.close(fd)
        if doc.get("repaint") and self.attached:
            self.repaint()
