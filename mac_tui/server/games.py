"""A live game: the real `python -m mac_tui play` in a PTY of its own, and a copy of its screen.

Each game runs in its own session and process group, with the PTY as its controlling terminal
(forked so by the zygote, `zygote.py`, or made so by a two-line launcher that then execs the
game), so a window-size change on the PTY reaches it as SIGWINCH like in any terminal, and
SIGHUP to its group saves and ends it (`MacApp.save_and_exit`). Bytes flow both ways without
interpretation: the player's keys into the PTY, the game's output to the player's channel and
to its recording (`recordings.Recorder`). The same output also feeds a `pyte` screen
(`ScreenCopy`) a little later, off the player's path, while someone watches the game: a
spectator who joins asks the game, over its socket to the server (`tui/pooled.py`), to draw
every cell again, and the copy starts from that picture. (A same-size SIGWINCH would not do:
Textual redraws only what changed.) Unwatched, a game's output costs the server only its
passing on and recording: the copy was most of the server's CPU under load. A game without
the socket (one started by a caller's own command) has its copy kept all along, as before.

`Registry` holds the live games by player, one each; `Registry.lock(name)` serialises the
take-over of a player's game by their next login. `PlayerLock` makes "one live game per player"
hold across server processes too (`serve ssh` and `serve web` on one data folder): an exclusive
`flock` on `players/<name>/game.lock`, held by the server and by the game process itself until
both are done. `hang_up` ends a game the same way for every front door: SIGHUP (it saves and
exits), then SIGTERM, then SIGKILL, to the game's whole process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import re
import signal
import socket
import struct
import sys
import termios
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar

import pyte
import pyte.graphics

from ..tui.pooled import LINK_ENV
from .zygote import Zygote, game_terminal

if TYPE_CHECKING:
    from .pool import PooledGame

EndReason = Literal["quit", "disconnect", "idle", "takeover", "shutdown", "lease"]

CTTY_LAUNCHER = (
    "import fcntl, os, sys, termios\n"
    "try:\n"
    "    fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "except OSError:\n"
    "    pass\n"
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])\n"
)
TERM_RE = re.compile(r"[A-Za-z0-9._+-]{1,64}")
DEFAULT_TERM = "xterm-256color"
PASS_THROUGH = ("PATH", "TZ", "MAC_TUI_DATA", "PYTHONPATH")
MAX_COLS, MAX_ROWS = 1000, 500
INPUT_CAP = 64 * 1024  # keys waiting for the game beyond this are dropped
ASSESS_NICE = 19  # the nice level of a game's threat assessments (players/assessor.py)
SCREEN_DELAY_WATCHED = 0.03  # how soon the screen copy follows the output, watched or not
SCREEN_DELAY_UNWATCHED = 0.3
SCREEN_BACKLOG = 256 * 1024  # parse at once past this much unparsed output
# Sequences pyte does not know and would print: the kitty keyboard protocol, mode queries.
PYTE_UNKNOWN = re.compile(rb"\x1b\[[<>=?][0-9;]*u|\x1b\[\??[0-9;]*\$p")


# ---- the pieces every front door shares ------------------------------------------------------
class PlayerLock:
    """An exclusive `flock` on a player's `game.lock`: one live game per player on this host.

    The lock belongs to the open file, so the game process given `fd` (`pass_fds`) holds it
    as long as the server does: it is free again only when both have let go, even if the
    server dies first."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    @classmethod
    def take(cls, path: Path) -> PlayerLock | None:
        """The lock, or None while another process (another server's game) holds it."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return cls(fd)

    def release(self) -> None:
        """Let go of the server's hold (the game's goes when it exits)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


ELSEWHERE = "{name}'s game is open on another server here (SSH or web): leave it there first."


def signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def hang_up(pgid: int, finished: asyncio.Future[int], grace: float) -> int:
    """SIGHUP to a game's process group (the game saves and exits); SIGTERM after `grace`
    seconds, SIGKILL 3 s later if it is still there. Its exit status."""
    for sig, wait in ((signal.SIGHUP, grace), (signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
        if finished.done():
            break
        signal_group(pgid, sig)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(finished), wait)
    return await asyncio.shield(finished)


def game_argv() -> list[str]:
    """The command of a game: the launcher, which becomes `python -m mac_tui play`."""
    return [sys.executable, "-c", CTTY_LAUNCHER, "-m", "mac_tui", "play"]


def clean_term(term: str | None) -> str:
    return term if term and TERM_RE.fullmatch(term) else DEFAULT_TERM


def game_env(
    home: Path,
    saves: Path,
    config: Path,
    scores: Path,
    term: str | None,
    colorterm: str | None = None,
    base: Mapping[str, str] | None = None,
    no_color: str | None = None,
    store: str | None = None,
    player: str | None = None,
) -> dict[str, str]:
    """A clean environment: nothing of the server's but PATH, TZ and the data override; of
    the client's, its COLORTERM (truecolor) and NO_COLOR (no colour at all), when it sent
    them. With `store` (the server's store's URL) and `player`, what the game needs to report
    its saves to the store and read the high scores from it (`server.store.report`), and for
    a PostgreSQL store libpq's `PG*` variables (the password file: the game's HOME is the
    player's folder, so the server's `~/.pgpass` is named in `PGPASSFILE`)."""
    base = os.environ if base is None else base
    env = {key: base[key] for key in PASS_THROUGH if key in base}
    if store is not None and player is not None:
        env.update(MAC_TUI_STORE=store, MAC_TUI_PLAYER=player)
        if store.startswith("postgres"):
            env.update({key: value for key, value in base.items() if key.startswith("PG")})
            pgpass = Path(base.get("HOME", "~")).expanduser() / ".pgpass"
            if "PGPASSFILE" not in env and pgpass.is_file():
                env["PGPASSFILE"] = str(pgpass)
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(
        HOME=str(home),
        LANG="C.UTF-8",
        PYTHONIOENCODING="utf-8",
        TERM=clean_term(term),
        MAC_TUI_SAVES=str(saves),
        MAC_TUI_CONFIG=str(config),
        MAC_TUI_SCORES_DIR=str(scores),
        MAC_TUI_ASSESS_NICE=str(ASSESS_NICE),
    )
    if colorterm in ("truecolor", "24bit"):
        env["COLORTERM"] = colorterm
    if no_color:
        env["NO_COLOR"] = "1"
    return env


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """The client's size, 80x24 when it gave none, within sane bounds (a game's memory grows
    with its screen: 20000x20000 once took one to 2.1 GB; at 1000x500 it stays near 50 MB)."""
    cols = cols if cols > 0 else 80
    rows = rows if rows > 0 else 24
    return min(cols, MAX_COLS), min(rows, MAX_ROWS)


# ---- the screen copy --------------------------------------------------------------------------
_NAMED = {name: code for code, name in pyte.graphics.FG_ANSI.items() if name != "default"}
_BRIGHT = {name: code for code, name in pyte.graphics.FG_AIXTERM.items()}
_BRIGHT["bfightmagenta"] = 95  # pyte's spelling for background 105
_INDEX: dict[str, int] = {}
for _i, _hex in enumerate(pyte.graphics.FG_BG_256):
    _INDEX.setdefault(_hex, _i)


def _colour(value: str, background: bool) -> str:
    if value == "default":
        return ""
    shift = 10 if background else 0
    if value in _NAMED:
        return f";{_NAMED[value] + shift}"
    if value in _BRIGHT:
        return f";{_BRIGHT[value] + shift}"
    if value in _INDEX:
        return f";{48 if background else 38};5;{_INDEX[value]}"
    try:
        r, g, b = int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
    except ValueError:
        return ""
    return f";{48 if background else 38};2;{r};{g};{b}"


def sgr(ch: pyte.screens.Char) -> str:
    """The escape sequence that sets `ch`'s colours and style (from a reset)."""
    codes = "0"
    for on, code in (
        (ch.bold, "1"),
        (ch.italics, "3"),
        (ch.underscore, "4"),
        (ch.blink, "5"),
        (ch.reverse, "7"),
        (ch.strikethrough, "9"),
    ):
        if on:
            codes += ";" + code
    return f"\x1b[{codes}{_colour(ch.fg, False)}{_colour(ch.bg, True)}m"


def render_row(row: Mapping[int, pyte.screens.Char], cols: int) -> str:
    """One screen row as text with escape sequences, starting and ending in the reset style."""
    out: list[str] = []
    style: tuple[object, ...] | None = None
    for x in range(cols):
        ch = row[x]
        key = ch[1:]
        if key != style:
            out.append(sgr(ch))
            style = key
        out.append(ch.data)
    out.append("\x1b[0m")
    return "".join(out)


class ScreenCopy:
    """What the player's terminal shows, kept by `pyte` from the game's output."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.rows: list[str] = [render_row(self.screen.buffer[y], cols) for y in range(rows)]

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.columns, self.screen.lines

    def feed(self, data: bytes) -> None:
        self.stream.feed(PYTE_UNKNOWN.sub(b"", data))
        self._render_dirty()

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self.rows = [""] * rows
        self.screen.dirty.update(range(rows))
        self._render_dirty()

    def _render_dirty(self) -> None:
        cols, rows = self.size
        for y in self.screen.dirty:
            if 0 <= y < rows:
                self.rows[y] = render_row(self.screen.buffer[y], cols)
        self.screen.dirty.clear()

    def text(self) -> list[str]:
        """The rows as plain text (no styles)."""
        return list(self.screen.display)

    def cropped(self, y: int, cols: int) -> str:
        return render_row(self.screen.buffer[y], cols)


# ---- the game process ---------------------------------------------------------------------
class Recorder(Protocol):
    """Where a game's output and resizes are recorded (`recordings.Recorder`)."""

    def output(self, data: bytes) -> None: ...

    def resize(self, cols: int, rows: int) -> None: ...


class ChildProcess(Protocol):
    """A game's process: a new one (`asyncio.subprocess.Process`) or a warm one forked by the
    zygote (`zygote.WarmProcess`)."""

    @property
    def pid(self) -> int: ...

    async def wait(self) -> int: ...


class Owner(Protocol):
    """The player's session: gets the game's output and hears when it ends."""

    def game_output(self, data: bytes) -> None: ...

    def game_over(self, game: LiveGame, reason: EndReason, status: int) -> None: ...


class Watcher(Protocol):
    """A spectator: told when the screen copy changed and when the game ended."""

    def screen_changed(self) -> None: ...

    def watched_game_over(self, game: LiveGame) -> None: ...


class GameProcess:
    """What every running game has, whatever carries its screen (`LiveGame`, `WebGame`)."""

    player: str
    peer: str
    pid: int
    end_reason: EndReason | None
    last_input: float  # time.monotonic() of the player's last key
    finished: asyncio.Future[int]  # the exit status, once the game has ended

    async def stop(self, reason: EndReason, grace: float = 10.0) -> int:
        """SIGHUP (the game saves and exits); SIGTERM, then SIGKILL, if it does not."""
        if self.end_reason is None:
            self.end_reason = reason
        return await hang_up(self.pid, self.finished, grace)

    @property
    def idle(self) -> float:
        """Seconds since the player's last key."""
        return time.monotonic() - self.last_input


class LiveGame(GameProcess):
    """One player's running game in a PTY. Create with `LiveGame.start`."""

    def __init__(
        self,
        player: str,
        peer: str,
        saves: Path,
        process: ChildProcess,
        master: int,
        cols: int,
        rows: int,
        lock: PlayerLock | None = None,
    ) -> None:
        self.player = player
        self.peer = peer
        self.saves = saves
        self.process = process
        self.pid = process.pid
        self.master = master
        self.lock = lock
        self.started = time.time()
        self.last_input = time.monotonic()
        self.size = (cols, rows)  # the PTY's
        self._screen: ScreenCopy | None = None  # made when first needed (`screen`)
        self.owner: Owner | None = None
        self.watchers: set[Watcher] = set()
        self.end_reason: EndReason | None = None
        self.bytes_out = 0
        self.recorder: Recorder | None = None  # the game's recording (set by its session)
        self._loop = asyncio.get_running_loop()
        self.finished: asyncio.Future[int] = self._loop.create_future()
        self._eof = asyncio.Event()
        self._reading = False
        self._writing = False
        self._inbuf = bytearray()
        self._pending: list[bytes] = []
        self._pending_size = 0
        self._screen_timer: asyncio.TimerHandle | None = None
        self._closed = False
        self._early = b""
        self.control: socket.socket | None = None  # the game's socket (`link`)
        self.copying = True  # the screen copy is kept (always, for a game without a socket)
        self.pooled = False  # a game of the pool (`adopt`)
        self._resume_reading()
        self._waiter = asyncio.ensure_future(self._wait_exit())

    @classmethod
    async def start(
        cls,
        player: str,
        peer: str,
        env: dict[str, str],
        cwd: Path,
        saves: Path,
        cols: int,
        rows: int,
        argv: list[str] | None = None,
        lock: PlayerLock | None = None,
        zygote: Zygote | None = None,
    ) -> LiveGame:
        """Start the game (forked by `zygote` when it is there, see `zygote`; else a new
        process); with `lock`, the game holds the player's lock too (see `PlayerLock`) and
        the server lets go of its hold once the game has ended."""
        cols, rows = clamp_size(cols, rows)
        with game_terminal(cols, rows) as (master, slave, ours, theirs):
            keep = () if lock is None else (lock.fd,)
            process: ChildProcess | None = None
            if zygote is not None and argv is None:
                fds = [slave, *keep, theirs.fileno()]
                process = await zygote.spawn(
                    ["play"], env, str(cwd), fds, tty=True, link=len(fds) - 1
                )
            if process is None:
                process = await asyncio.create_subprocess_exec(
                    *(argv or game_argv()),
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env={**env, LINK_ENV: str(theirs.fileno())},
                    cwd=cwd,
                    start_new_session=True,
                    pass_fds=(*keep, theirs.fileno()),
                )
        game = cls(player, peer, saves, process, master, cols, rows, lock)
        game.link(ours)
        return game

    @classmethod
    def adopt(
        cls,
        pooled: PooledGame,
        player: str,
        peer: str,
        env: Mapping[str, str],
        cwd: Path,
        saves: Path,
        cols: int,
        rows: int,
        lock: PlayerLock | None = None,
    ) -> LiveGame | None:
        """Make a game of the pool (`pool.py`) the player's: the PTY takes their size, the
        game their environment, folder and lock, and draws every cell again. None if the game
        of the pool has gone meanwhile (the caller starts one)."""
        if pooled.gone:
            pooled.close()
            return None
        cols, rows = clamp_size(cols, rows)
        early = pooled.hand_over()
        with contextlib.suppress(OSError):
            winsize = struct.pack("HHHH", rows, cols, 0, 0)
            fcntl.ioctl(pooled.master, termios.TIOCSWINSZ, winsize)
        if not pooled.attach(env, str(cwd), None if lock is None else lock.fd):
            pooled.end()
            return None
        game = cls(player, peer, saves, pooled.process, pooled.master, cols, rows, lock)
        game._early = early
        game.pooled = True
        game.link(pooled.sock)
        return game

    def link(self, sock: socket.socket) -> None:
        """The game's socket (`tui/pooled.py`): with it the screen copy is kept only while
        someone watches, from a full repaint the game is asked for when they start."""
        self.control = sock
        if not self.watchers:
            self._stop_copy()

    def add_watcher(self, watcher: Watcher) -> None:
        """A spectator: the copy up to now (or, when none was kept, from a full repaint),
        then every change."""
        if not self.copying:
            self.copying = True
            self._screen = None  # a new copy, from the repaint
            if not self._ask({"repaint": True}):
                self.control = None  # no repaint to be had: keep the copy from now on
        self.watchers.add(watcher)
        self.update_screen()

    def remove_watcher(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        if not self.watchers and self.control is not None:
            self._stop_copy()

    def _stop_copy(self) -> None:
        self.copying = False
        self._pending.clear()
        self._pending_size = 0
        if self._screen_timer is not None:
            self._screen_timer.cancel()
            self._screen_timer = None

    def _ask(self, doc: Mapping[str, object]) -> bool:
        if self.control is None or self._closed:
            return False
        try:
            self.control.send(json.dumps(doc).encode())
        except OSError:
            return False
        return True

    # ---- output ---------------------------------------------------------------------------
    def _resume_reading(self) -> None:
        if not self._reading and not self._closed and not self._eof.is_set():
            self._loop.add_reader(self.master, self._readable)
            self._reading = True

    def _pause_reading(self) -> None:
        if self._reading:
            self._loop.remove_reader(self.master)
            self._reading = False

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every holder of the PTY's other end has gone
            data = b""
        if not data:
            self._pause_reading()
            self._eof.set()
            return
        self._deliver(data)

    def release_early(self) -> None:
        """Pass on what a game of the pool wrote before it was the player's (its terminal's
        set-up, its first frame): to the player, once they are its owner, and the recording."""
        early, self._early = self._early, b""
        if early:
            self._deliver(early)

    def _deliver(self, data: bytes) -> None:
        self.bytes_out += len(data)
        if self.recorder is not None:
            self.recorder.output(data)
        if self.owner is not None:
            self.owner.game_output(data)
        if not self.copying:
            return
        self._pending.append(data)
        self._pending_size += len(data)
        if self._pending_size > SCREEN_BACKLOG:
            self.update_screen()
        elif self._screen_timer is None:
            delay = SCREEN_DELAY_WATCHED if self.watchers else SCREEN_DELAY_UNWATCHED
            self._screen_timer = self._loop.call_later(delay, self.update_screen)

    def pause_output(self) -> None:
        """The player's channel is full: stop reading until `resume_output`."""
        if self.owner is not None:
            self._pause_reading()

    def resume_output(self) -> None:
        self._resume_reading()

    @property
    def screen(self) -> ScreenCopy:
        """The copy of the game's screen (blank until the game's output is copied: see
        `copying`). Made when first asked for: a pyte screen and its first picture cost the
        server some 10 ms, which a game nobody watches need not pay at its login."""
        if self._screen is None:
            self._screen = ScreenCopy(*self.size)
        return self._screen

    def update_screen(self) -> None:
        """Bring the screen copy up to date and tell the spectators."""
        if self._screen_timer is not None:
            self._screen_timer.cancel()
            self._screen_timer = None
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            self._pending_size = 0
            self.screen.feed(data)
        self._tell_watchers()

    def _tell_watchers(self) -> None:
        for watcher in list(self.watchers):
            try:
                watcher.screen_changed()
            except Exception:  # one broken spectator must not stop the game or the others
                self.watchers.discard(watcher)

    # ---- input and size -------------------------------------------------------------------
    def send_input(self, data: bytes) -> None:
        self.last_input = time.monotonic()
        if self._closed:
            return
        room = INPUT_CAP - len(self._inbuf)
        self._inbuf += data[: max(0, room)]
        self._flush_input()

    def _flush_input(self) -> None:
        while self._inbuf and not self._closed:
            try:
                n = os.write(self.master, self._inbuf)
            except BlockingIOError:
                break
            except OSError:
                self._inbuf.clear()
                break
            del self._inbuf[:n]
        want = bool(self._inbuf) and not self._closed
        if want and not self._writing:
            self._loop.add_writer(self.master, self._flush_input)
            self._writing = True
        elif not want and self._writing:
            self._loop.remove_writer(self.master)
            self._writing = False

    def resize(self, cols: int, rows: int) -> None:
        """The player's window changed: the PTY takes the size (the game gets SIGWINCH)."""
        if self._closed:
            return
        cols, rows = clamp_size(cols, rows)
        with contextlib.suppress(OSError):
            fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.update_screen()
        self.size = (cols, rows)
        if self._screen is not None:
            self._screen.resize(cols, rows)
        if self.recorder is not None:
            self.recorder.resize(cols, rows)
        self._tell_watchers()

    # ---- the end --------------------------------------------------------------------------
    def signal(self, sig: int) -> None:
        signal_group(self.pid, sig)

    def detach(self, owner: Owner) -> None:
        """The player's session has gone: keep reading the output (to the screen copy only)."""
        if self.owner is owner:
            self.owner = None
            self._resume_reading()

    async def _wait_exit(self) -> None:
        status = await self.process.wait()
        self._resume_reading()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._eof.wait(), 2.0)  # the last output
        self.update_screen()
        self._close()
        if self.lock is not None:
            self.lock.release()
        reason: EndReason = self.end_reason or "quit"
        self.end_reason = reason
        self.finished.set_result(status)
        if self.owner is not None:
            self.owner.game_over(self, reason, status)
        for watcher in list(self.watchers):
            watcher.watched_game_over(self)
        self.watchers.clear()

    def _close(self) -> None:
        self._pause_reading()
        if self._writing:
            self._loop.remove_writer(self.master)
            self._writing = False
        if not self._closed:
            self._closed = True
            os.close(self.master)
            if self.control is not None:
                self.control.close()


class AnyGame(Protocol):
    """What the registry needs of a game (SSH's `LiveGame`, the web's `WebGame`)."""

    @property
    def player(self) -> str: ...

    @property
    def finished(self) -> asyncio.Future[int]: ...


G = TypeVar("G", bound=AnyGame)


class Registry(Generic[G]):
    """The live games, one per player."""

    def __init__(self) -> None:
        self.games: dict[str, G] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, player: str) -> asyncio.Lock:
        return self._locks.setdefault(player, asyncio.Lock())

    def add(self, game: G) -> None:
        self.games[game.player] = game

    def remove(self, game: G) -> None:
        if self.games.get(game.player) is game:
            del self.games[game.player]

    def live(self) -> list[G]:
        """The running games, by player name."""
        return sorted(
            (g for g in self.games.values() if not g.finished.done()),
            key=lambda g: g.player.casefold(),
        )
