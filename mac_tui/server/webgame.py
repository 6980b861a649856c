"""A browser page's game: `python -m mac_tui play` with Textual's web driver, behind two pipes.

Textual's web driver speaks in packets on the game's stdin and stdout: `D`, a 4-byte length and
data (keys in, the screen out), `M`, a length and JSON (resize, focus, blur in; exit out) and
`P` (file deliveries, which the game never makes). `WebGame` starts the game in a session of
its own with a clean environment (`games.game_env`, plus what the web driver needs), hands it
what the page sends (sizes clamped like SSH's, `games.clamp_size`), and passes its screen to
the page. It reads the game's output to the end even after the page has gone, so the game never
blocks on a full pipe, and it keeps only the last few KiB of the game's stderr for the log.
Ending a game is `games.hang_up`: SIGHUP (the game saves and exits), SIGTERM, SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Protocol

from . import LOG
from .games import EndReason, GameProcess, PlayerLock, Recorder, clamp_size
from .zygote import WarmProcess, Zygote

PRELUDE = b"__GANGLION__\n"  # the web driver's first line
PRELUDE_LINES = 10  # lines of other output tolerated before it
MAX_PACKET = 16 * 1024 * 1024  # a bigger packet from the game is a broken game
STDERR_KEPT = 4096


def web_game_env(base: dict[str, str], cols: int, rows: int) -> dict[str, str]:
    """`base` (a `games.game_env`) plus what Textual's web driver reads."""
    try:
        serve_version = version("textual-serve")
    except Exception:  # not installed as a distribution: the driver does not need it
        serve_version = "0"
    return {
        **base,
        "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
        "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual",
        "TERM_PROGRAM_VERSION": serve_version,
        "COLUMNS": str(cols),
        "ROWS": str(rows),
    }


class WebProcess(Protocol):
    """What a web game uses of its process (a new one, or one forked by the zygote)."""

    pid: int
    stdin: asyncio.StreamWriter | None
    stdout: asyncio.StreamReader | None
    stderr: asyncio.StreamReader | None

    async def wait(self) -> int: ...

    def kill(self) -> None: ...


async def warm_process(
    zygote: Zygote, env: dict[str, str], cwd: Path, keep: tuple[int, ...]
) -> WarmProcess | None:
    """The game forked by the zygote on three pipes, with asyncio streams on our ends; None
    when the zygote is not there."""
    pipes = [os.pipe() for _ in range(3)]
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
    ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
    try:
        process = await zygote.spawn(["play"], env, str(cwd), [*theirs, *keep], tty=False)
    finally:
        for fd in theirs:
            os.close(fd)
    if process is None:
        for fd in ours:
            os.close(fd)
        return None
    loop = asyncio.get_running_loop()
    flow = asyncio.streams.FlowControlMixin(loop=loop)
    transport, _ = await loop.connect_write_pipe(lambda: flow, os.fdopen(ours[0], "wb", 0))
    process.stdin = asyncio.StreamWriter(transport, flow, None, loop)
    readers = []
    for fd in ours[1:]:
        reader = asyncio.StreamReader(loop=loop)
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        await loop.connect_read_pipe(partial(_same, protocol), os.fdopen(fd, "rb", 0))
        readers.append(reader)
    process.stdout, process.stderr = readers
    return process


def _same(protocol: asyncio.StreamReaderProtocol) -> asyncio.StreamReaderProtocol:
    return protocol


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


class WebGame(GameProcess):
    """One player's running game in a browser page. Create with `WebGame.start`."""

    def __init__(
        self,
        player: str,
        peer: str,
        process: WebProcess,
        lock: PlayerLock | None,
        send: Callable[[bytes], Awaitable[None]],
        size: tuple[int, int],
    ) -> None:
        self.player = player
        self.peer = peer
        self.process = process
        self.pid = process.pid
        self.lock = lock
        self.send = send
        self.size = size
        self.started = time.time()
        self.last_input = time.monotonic()
        self.end_reason: EndReason | None = None
        self.page_gone = False
        self.recorder: Recorder | None = None
        self.stderr = bytearray()
        loop = asyncio.get_running_loop()
        self.finished: asyncio.Future[int] = loop.create_future()
        self._pump = asyncio.ensure_future(self._read_output())
        self._errors = asyncio.ensure_future(self._read_stderr())
        self._waiter = asyncio.ensure_future(self._wait_exit())

    @classmethod
    async def start(
        cls,
        player: str,
        peer: str,
        env: dict[str, str],
        cwd: Path,
        cols: int,
        rows: int,
        send: Callable[[bytes], Awaitable[None]],
        lock: PlayerLock | None = None,
        zygote: Zygote | None = None,
        recorder: Recorder | None = None,
    ) -> WebGame:
        """Start the game at the page's size (clamped); `send` takes its screen's bytes. With
        `lock`, the game holds the player's lock too (`games.PlayerLock`)."""
        size = clamp_size(cols, rows)
        keep = () if lock is None else (lock.fd,)
        full_env = web_game_env(env, *size)
        process: WebProcess | None = None
        if zygote is not None:
            process = await warm_process(zygote, full_env, cwd, keep)
        if process is None:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "mac_tui",
                "play",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=full_env,
                cwd=cwd,
                start_new_session=True,
                pass_fds=keep,
            )
        game = cls(player, peer, process, lock, send, size)
        game.recorder = recorder
        return game

    # ---- to the game --------------------------------------------------------------------
    async def _write(self, data: bytes) -> None:
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing() or self.finished.done():
            return
        try:
            stdin.write(data)
            await stdin.drain()
        except (ConnectionError, RuntimeError):
            pass  # the game has gone: its end is on the way

    async def keys(self, text: str) -> None:
        """What the player typed (as the page's terminal encodes it)."""
        self.last_input = time.monotonic()
        await self._write(packet(b"D", text.encode("utf-8", "replace")))

    async def resize(self, cols: int, rows: int) -> None:
        """The page's terminal changed size: clamped like SSH's."""
        self.size = clamp_size(cols, rows)
        if self.recorder is not None:
            self.recorder.resize(*self.size)
        meta = {"type": "resize", "width": self.size[0], "height": self.size[1]}
        await self._write(packet(b"M", json.dumps(meta).encode()))

    async def focus(self, focused: bool) -> None:
        meta = {"type": "focus" if focused else "blur"}
        await self._write(packet(b"M", json.dumps(meta).encode()))

    # ---- from the game ------------------------------------------------------------------
    async def _read_output(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            for _ in range(PRELUDE_LINES):
                line = await stdout.readline()
                if not line or line == PRELUDE:
                    break
            while True:
                head = await stdout.readexactly(5)
                size = int.from_bytes(head[1:], "big")
                if size > MAX_PACKET:
                    LOG.error("web: %s's game sent %d bytes at once: ending it", self.player, size)
                    self.process.kill()
                    break
                payload = await stdout.readexactly(size)
                if head[:1] == b"D":
                    if self.recorder is not None:
                        self.recorder.output(payload)
                    await self._to_page(payload)
        except (asyncio.IncompleteReadError, ValueError, ConnectionError):
            pass  # the end of the output (or a line too long before the prelude)
        # Whatever else comes is read and dropped, so the game never blocks writing it.
        with contextlib.suppress(ConnectionError):
            while await stdout.read(65536):
                pass

    async def _to_page(self, data: bytes) -> None:
        if self.page_gone:
            return
        try:
            await self.send(data)
        except Exception:  # the page has gone (closed, reset): keep reading, send no more
            self.page_gone = True

    async def _read_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        with contextlib.suppress(ConnectionError):
            while chunk := await stderr.read(4096):
                self.stderr += chunk
                del self.stderr[:-STDERR_KEPT]

    # ---- the end ------------------------------------------------------------------------
    async def _wait_exit(self) -> None:
        status = await self.process.wait()
        with contextlib.suppress(TimeoutError):  # the last output and messages
            await asyncio.wait_for(asyncio.gather(self._pump, self._errors), 2.0)
        if self.process.stdin is not None:
            self.process.stdin.close()
        if self.lock is not None:
            self.lock.release()
        if self.end_reason is None:
            self.end_reason = "quit"
        self.finished.set_result(status)
