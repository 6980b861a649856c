"""Spectating: the `watch` login's lobby of live games and the read-only view of one.

The lobby lists the live games (player, company, date, idle time; company and date from the
header of the player's newest save) and refreshes itself; a game's number opens it. The view
is drawn from the game's screen copy (`games.ScreenCopy`), never from the raw output, so a
spectator who joins mid-game sees the whole current screen at once, a terminal of another size
gets a cropped (or framed) picture, and nothing the spectator types reaches the game: only `q`,
ctrl+c, ctrl+d and Esc mean anything (leave). Only changed rows are sent, and a spectator whose
connection cannot keep up skips frames instead of holding up the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh

from ..save import SaveError
from ..savefolder import peek_header
from .games import LiveGame, Registry

LOBBY_REFRESH = 2.0
ENTER_VIEW = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"
LEAVE_VIEW = "\x1b[0m\x1b[?25h\x1b[?1049l"
LEAVE_KEYS = (b"q", b"Q", b"\x03", b"\x04", b"\x1b")


def read_header(path: Path) -> dict[str, Any]:
    """A save's header, through the game's safe reader (a regular file of bounded size and
    shape: a FIFO or a link among the saves never blocks or crashes the lobby); {} when the
    file is not a readable save."""
    try:
        return peek_header(path)
    except SaveError:
        return {}


class HeaderCache:
    """The newest save's header of a saves folder, re-read only when that file changes."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[int, int, dict[str, Any]]] = {}

    def newest(self, saves: Path) -> dict[str, Any]:
        try:
            files = [(p.lstat().st_mtime_ns, p) for p in saves.glob("*.json")]
        except OSError:
            return {}
        if not files:
            return {}
        _, path = max(files)
        try:
            st = path.lstat()
        except OSError:
            return {}
        hit = self._cache.get(path)
        if hit is not None and hit[:2] == (st.st_mtime_ns, st.st_size):
            return hit[2]
        header = read_header(path)
        self._cache[path] = (st.st_mtime_ns, st.st_size, header)
        return header


def idle_text(seconds: float) -> str:
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def fit(text: str, width: int) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= width else text[: width - 1] + "~"


def lobby_lines(games: list[LiveGame], headers: HeaderCache, note: str = "") -> list[str]:
    """The lobby as plain lines (numbered from 1)."""
    lines = ["Mechanized Armour Commander - live games (watching is read-only)", ""]
    if not games:
        lines.append("No game is being played right now. This list refreshes by itself.")
    else:
        lines.append(f"  #  {'Player':<16} {'Company':<24} {'Date':<13} Idle")
        for i, game in enumerate(games, start=1):
            header = headers.newest(game.saves)
            company = str(header.get("company", "-")) if header else "(title screen)"
            date = str(header.get("date", "-")) if header else "-"
            lines.append(
                f"{i:>3}  {fit(game.player, 16):<16} {fit(company, 24):<24} "
                f"{fit(date, 13):<13} {idle_text(game.idle)}"
            )
    lines.append("")
    if note:
        lines += [note, ""]
    if games:
        choose = "1" if len(games) == 1 else f"1-{len(games)}"
        more = " then Enter" if len(games) > 9 else ""
        lines.append(f"Type a game's number ({choose}){more} to watch it; r refreshes, q leaves.")
    else:
        lines.append("q leaves.")
    return lines


class WatchSession(asyncssh.SSHServerSession[bytes]):
    """The `watch` login: lobby, then one game's screen, read-only."""

    def __init__(
        self,
        registry: Registry[LiveGame],
        headers: HeaderCache,
        log: Callable[[str], None],
        on_close: Callable[[], None],
        peer: str = "?",
    ) -> None:
        self.registry = registry
        self.peer = peer
        self.headers = headers
        self.log = log
        self.on_close = on_close
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.cols, self.rows = 80, 24
        self.has_pty = False
        self.command: str | None = None
        self.listed: list[LiveGame] = []
        self.typed = ""
        self.note = ""
        self.watching: LiveGame | None = None
        self.last_rows: list[str | None] = []
        self.drawn_size: tuple[int, int] = (0, 0)  # the game's size when last drawn
        self.drawn_for: tuple[int, int] = (0, 0)  # this terminal's size then
        self.last_lobby: list[str] = []
        self.last_key = time.monotonic()
        self.paused = False
        self.stale = False
        self.open = False
        self._timer: asyncio.TimerHandle | None = None

    # ---- the channel ----------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self.has_pty = True
        self.cols, self.rows = max(term_size[0], 20), max(term_size[1], 5)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if self.command is not None or not self.has_pty:
            why = "runs no commands" if self.command is not None else "needs a terminal"
            self.chan.write_stderr(
                f"mac-tui: the watch login {why}: connect with `ssh -t watch@HOST`.\r\n".encode()
            )
            self.chan.exit(1)
            return
        self.open = True
        self.chan.write(ENTER_VIEW.encode())
        self.show_lobby(force=True)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        if self._timer is not None:
            self._timer.cancel()
        if self.open:
            self.open = False
        self.on_close()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.stale:
            self.screen_changed()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.cols, self.rows = max(width, 20), max(height, 5)
        if not self.open:
            return
        if self.watching is not None:
            self.drawn_size = (0, 0)
            self.screen_changed()
        else:
            self.show_lobby(force=True)

    def _write(self, text: str) -> None:
        if self.chan is not None and self.open:
            try:
                self.chan.write(text.encode())
            except (BrokenPipeError, OSError, asyncssh.Error):
                self.open = False  # the channel is going: connection_lost follows

    def close(self, message: str = "") -> None:
        self._stop_watching()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._write(LEAVE_VIEW + message)
        if self.chan is not None and self.open:
            with contextlib.suppress(BrokenPipeError, OSError, asyncssh.Error):
                self.chan.exit(0)
        self.open = False

    # ---- keys -----------------------------------------------------------------------------
    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.last_key = time.monotonic()
        if self.watching is not None:
            if any(data.startswith(k) for k in LEAVE_KEYS[:4]) or data == b"\x1b":
                self.log(f"watch: stopped watching {self.watching.player}")
                self._stop_watching()
                self._write(ENTER_VIEW)
                self.show_lobby(force=True)
            return  # every other key does nothing: watching is read-only
        if data in LEAVE_KEYS:
            self.close("Bye.\r\n")
            return
        if data.startswith(b"\x1b"):
            return  # arrows and the like
        for byte in data.decode("latin-1"):
            if byte.isdigit():
                self.typed = (self.typed + byte)[-4:]
                if len(self.listed) <= 9:
                    self._choose()
                    return
            elif byte in "\r\n":
                self._choose()
                return
            elif byte in "\x7f\b":
                self.typed = self.typed[:-1]
            elif byte in "rR":
                self.show_lobby(force=True)
        self.show_lobby()

    def _choose(self) -> None:
        typed, self.typed = self.typed, ""
        if not typed:
            return
        number = int(typed)
        if not 1 <= number <= len(self.listed):
            self.note = f"There is no game {number}."
            self.show_lobby(force=True)
            return
        game = self.listed[number - 1]
        if game.finished.done():
            self.note = f"{game.player}'s game has just ended."
            self.show_lobby(force=True)
            return
        self.watch(game)

    # ---- the lobby ------------------------------------------------------------------------
    def show_lobby(self, force: bool = False) -> None:
        if not self.open or self.watching is not None:
            return
        self.listed = self.registry.live()
        lines = lobby_lines(self.listed, self.headers, self.note)
        if self.typed:
            lines.append(f"Game number: {self.typed}")
        if force or lines != self.last_lobby:
            shown = [fit(line, self.cols) for line in lines[: self.rows]]
            self._write("\x1b[H\x1b[2J" + "\r\n".join(shown))
            self.last_lobby = lines
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(LOBBY_REFRESH, self._refresh)

    def _refresh(self) -> None:
        self._timer = None
        self.note = "" if time.monotonic() - self.last_key > 2 * LOBBY_REFRESH else self.note
        self.show_lobby()

    # ---- watching -------------------------------------------------------------------------
    def watch(self, game: LiveGame) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.note = ""
        self.watching = game
        self.drawn_size = (0, 0)
        game.watchers.add(self)
        self.log(f"watch: watching {game.player}")
        game.update_screen()  # the copy up to now, then this spectator's first full picture

    def _stop_watching(self) -> None:
        if self.watching is not None:
            self.watching.watchers.discard(self)
            self.watching = None

    def watched_game_over(self, game: LiveGame) -> None:
        if self.watching is game:
            self.watching = None
            self.note = f"{game.player}'s game has ended."
            self._write("\x1b[0m\x1b[H\x1b[2J")
            self.show_lobby(force=True)

    def screen_changed(self) -> None:
        game = self.watching
        if game is None or not self.open:
            return
        if self.paused:
            self.stale = True
            return
        self.stale = False
        copy = game.screen
        cols, rows = copy.size
        out: list[str] = []
        size = (self.cols, self.rows)
        cropped = self.cols < cols or self.rows < rows
        if self.drawn_size != (cols, rows) or size != self.drawn_for:
            out.append("\x1b[0m\x1b[H\x1b[2J")
            self.last_rows = [None] * rows
            self.drawn_size = (cols, rows)
            self.drawn_for = size
            if cropped:  # the last line says so, over the game's (a picture cut short)
                status = (
                    f" {game.player}'s game is {cols}x{rows}: enlarge this terminal to see it "
                    "all - q leaves "
                )
            else:
                status = f" watching {game.player} (read-only) - q leaves "
            if cropped or self.rows > rows:
                out.append(f"\x1b[{self.rows};1H\x1b[7m{fit(status, self.cols)}\x1b[0m")
        shown = self.rows - 1 if cropped else self.rows
        for y in range(min(rows, shown)):
            row = copy.rows[y]
            if self.last_rows[y] == row:
                continue
            self.last_rows[y] = row
            line = row if self.cols >= cols else copy.cropped(y, self.cols)
            out.append(f"\x1b[{y + 1};1H{line}")
        if out:
            self._write("".join(out))
