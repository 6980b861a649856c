"""Warm starts: games forked from a parent that has imported the game already (a "zygote").

A cold game is a new Python process that imports Textual and the engine and loads the rules
tables before it draws anything: about 0.55 s of CPU of its 0.65 s to the title screen, so 50
players logging in together on two cores waited 15 s. The zygote pays that once: the server
starts `python -m mac_tui.server.zygote_main` beside it, which imports everything a game needs
(`warm_up`), then waits on a Unix socket. For each game the server sends the game's command
line, environment and folder, with its terminal's file descriptors (`SCM_RIGHTS`); the zygote
forks, and the child makes itself a game exactly as the cold launcher does:

- a session and process group of its own (`setsid`), the PTY as its controlling terminal and
  as fds 0, 1 and 2 (or the web's three pipes), every other inherited descriptor closed but
  the player's lock, which the game holds like a cold game does;
- the signal handlers and mask of a new process, its own environment (`os.environ` replaced,
  and Textual's environment-read settings re-read), its own folder, fresh `sys.std*` objects
  on the new descriptors; Python reseeds `random` in a forked child itself, the game's seeds
  come from `os.urandom`, and its event loop is made by `App.run` in the child;
- then `mac_tui.cli.main(["play"])`, and `os._exit` with its status.

Forking is safe only while the parent has a single thread: the zygote never starts one (Textual
starts its threads in `App.run`, which only children call), and it refuses to fork otherwise.
Nothing of one game reaches another: each child starts from the zygote's state after
`warm_up`, which holds no player data. (They share the zygote's string hash seed.)

The zygote tells the server each child's pid, with a pidfd for it, so the server sees the game
end even if the zygote has gone, and each child's exit status once it has reaped it. If the
zygote dies, or is not ready yet, games start cold, as before; the server starts a new one.
The zygote ends when the server's end of the socket closes (the server stopped or died).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import termios
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..tui.pooled import receive

MAX_MESSAGE = 256 * 1024  # a request: the command line, the environment, the folder
MAX_FDS = 8
READY_TIMEOUT = 120.0  # seconds the zygote may take to import everything
READY_WAIT = 30.0  # seconds a login waits for a zygote that is starting
RESTART_DELAY = 2.0  # seconds before a zygote that has gone is started again
MAX_RESTARTS = 5  # ... at most this many times (a zygote that keeps dying stays gone)
STATUS_WAIT = 2.0  # seconds to wait for a child's status once its pidfd says it has gone

CLONES_ENV = "MAC_TUI_CLONES"  # "0" in the server's environment: no template (tui/template.py)

SUPPORTED = sys.platform == "linux" and hasattr(os, "pidfd_open")


@contextlib.contextmanager
def game_terminal(cols: int, rows: int) -> Iterator[tuple[int, int, socket.socket, socket.socket]]:
    """A PTY of `cols` x `rows` and a socket pair for a game about to start: (master, slave,
    ours, theirs). The game's ends (slave, theirs) are closed on the way out, the game having
    its own by then; ours too when starting it failed."""
    master, slave = os.openpty()
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.set_blocking(master, False)
        ours.setblocking(False)
        yield master, slave, ours, theirs
    except BaseException:
        os.close(master)
        ours.close()
        raise
    finally:
        os.close(slave)
        theirs.close()


# ---- the server's side ----------------------------------------------------------------------
class WarmProcess:
    """A game forked by the zygote, as the server sees it (what `LiveGame` and `WebGame` use
    of an `asyncio.subprocess.Process`): its pid, its end and exit status, `kill`."""

    def __init__(self, pid: int, pidfd: int, zygote: Zygote) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: asyncio.StreamWriter | None = None
        self.stdout: asyncio.StreamReader | None = None
        self.stderr: asyncio.StreamReader | None = None
        self._zygote = zygote
        self._loop = asyncio.get_running_loop()
        self._gone = asyncio.Event()
        self._status: asyncio.Future[int] = self._loop.create_future()
        self._pidfd = pidfd
        self._loop.add_reader(pidfd, self._ended)

    def _ended(self) -> None:
        self._loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        self._gone.set()

    def exited(self, status: int) -> None:
        if not self._status.done():
            self._status.set_result(status)

    async def wait(self) -> int:
        """The exit status, once the game has ended (0 if the zygote could not say)."""
        await self._gone.wait()
        if self.returncode is None:
            status = 0
            if not self._status.done() and self._zygote.alive:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self._status), STATUS_WAIT)
            if self._status.done():
                status = self._status.result()
            self.returncode = status
        return self.returncode

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(self.pid, signal.SIGKILL)


def zygote_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The zygote's own environment: the server's data override and paths, nothing else
    (each game gets its own in the child)."""
    base = os.environ if base is None else base
    keep = ("PATH", "TZ", "MAC_TUI_DATA", "PYTHONPATH", CLONES_ENV)
    env = {key: base[key] for key in keep if key in base}
    env.update(LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    return env


class Zygote:
    """The server's handle on its zygote: `start` it (in the background), `spawn` games."""

    def __init__(self, log: Callable[[str], None] | None = None, clones: bool = False) -> None:
        self.log = log or (lambda text: None)
        self.clones = clones  # games in a terminal cloned from a held title (tui/template.py)
        self.process: asyncio.subprocess.Process | None = None
        self.sock: socket.socket | None = None
        self.ready = asyncio.Event()
        self.alive = False
        self.forked = 0
        self._next = 0
        self._waiting: dict[int, asyncio.Future[tuple[int, int] | str]] = {}
        self._children: dict[int, WarmProcess] = {}
        self._early: dict[int, int] = {}  # exit statuses that came before their pid's reply
        self._loop: asyncio.AbstractEventLoop | None = None
        self._restarting: asyncio.Future[None] | None = None
        self.closing = False
        self.restarts = 0

    async def start(self) -> None:
        """Start the zygote; it is `ready` once it has imported everything."""
        self._loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "mac_tui.server.zygote_main",
                str(theirs.fileno()),
                *(["--clones"] if self.clones else []),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                env=zygote_env(),
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )
        except OSError as exc:
            ours.close()
            self.log(f"warm start: the zygote could not start ({exc}); games start cold")
            return
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock = ours
        self.alive = True
        self._loop.add_reader(ours.fileno(), self._readable)

    async def wait_ready(self, timeout: float = READY_TIMEOUT) -> bool:
        if not self.alive:
            return False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), timeout)
        return self.ready.is_set() and self.alive

    def _readable(self) -> None:
        assert self.sock is not None
        while True:
            message = receive(self.sock, MAX_MESSAGE, MAX_FDS)
            if message is None:
                return
            data, fds = message
            if not data:
                self._lost()
                return
            try:
                doc = json.loads(data)
            except ValueError:
                doc = {}
            self._message(doc if isinstance(doc, dict) else {}, fds)

    def _message(self, doc: dict[str, Any], fds: list[int]) -> None:
        if "ready" in doc:
            self.ready.set()
            clones = "; SSH games are cloned from its title" if doc.get("clones") else ""
            self.log(f"warm start: the zygote is ready (pid {doc['ready']}){clones}")
        elif "exit" in doc:
            pid, status = int(doc["exit"]), int(doc.get("status", 0))
            child = self._children.pop(pid, None)
            if child is not None:
                child.exited(status)
            else:
                self._early[pid] = status
        else:
            future = self._waiting.pop(int(doc.get("id", -1)), None)
            reply: tuple[int, int] | str
            if "pid" in doc and fds:
                reply = (int(doc["pid"]), fds.pop(0))
            else:
                reply = str(doc.get("error", "no pidfd"))
            for fd in fds:
                os.close(fd)
            if future is not None and not future.done():
                future.set_result(reply)
            elif isinstance(reply, tuple):
                os.close(reply[1])

    def _lost(self) -> None:
        if not self.alive:
            return
        self.alive = False
        self.ready.clear()
        if self._loop is not None and self.sock is not None:
            self._loop.remove_reader(self.sock.fileno())
            self.sock.close()
        for future in self._waiting.values():
            if not future.done():
                future.set_result("the zygote has gone")
        self._waiting.clear()
        if self.closing or self.restarts >= MAX_RESTARTS or self._loop is None:
            self.log("warm start: the zygote has gone; games start cold")
            return
        self.restarts += 1
        self.log("warm start: the zygote has gone; games start cold until it is back")
        self._loop.call_later(RESTART_DELAY, self._restart)

    def _restart(self) -> None:
        if not self.closing and not self.alive:
            self._restarting = asyncio.ensure_future(self.start())

    async def spawn(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: str,
        fds: Sequence[int],
        tty: bool,
        link: int | None = None,
    ) -> WarmProcess | None:
        """Fork a game with `fds` as its terminal (`tty`: one PTY slave) or its stdin, stdout
        and stderr, and the rest kept open in it (the player's lock; with `link`, `fds[link]`
        is the game's socket to the server, `tui/pooled.py`). None
        when the zygote is not there (the caller starts the game cold)."""
        if self.alive and not self.ready.is_set():
            await self.wait_ready(READY_WAIT)  # just started: better than a cold start
        if not (self.alive and self.ready.is_set()) or self.sock is None or self._loop is None:
            return None
        self._next += 1
        request: dict[str, Any] = {
            "id": self._next,
            "argv": list(argv),
            "env": dict(env),
            "cwd": cwd,
            "tty": tty,
        }
        if link is not None:
            request["link"] = link
        future: asyncio.Future[tuple[int, int] | str] = self._loop.create_future()
        self._waiting[self._next] = future
        try:
            socket.send_fds(self.sock, [json.dumps(request).encode()], list(fds))
        except OSError as exc:  # the zygote's queue is full, or it has gone
            self._waiting.pop(self._next, None)
            self.log(f"warm start: could not ask the zygote ({exc}); this game starts cold")
            return None
        reply = await future
        if isinstance(reply, str):
            self.log(f"warm start: the zygote could not fork ({reply}); this game starts cold")
            return None
        pid, pidfd = reply
        child = WarmProcess(pid, pidfd, self)
        self.forked += 1
        if pid in self._early:
            child.exited(self._early.pop(pid))
        else:
            self._children[pid] = child
        return child

    async def close(self) -> None:
        """Stop the zygote (its games go on: they are in sessions of their own)."""
        self.closing = True
        self._lost()
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 5.0)
            if process.returncode is None:
                process.kill()
                await process.wait()
