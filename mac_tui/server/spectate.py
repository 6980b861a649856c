"""Spectating: the `watch` login's lobby, the read-only view of a live game, and playback.

The lobby (`lobby.py`) has two lists, Tab switches: the live games, refreshed by themselves,
and every player's recordings, newest first, a page at a time. A number opens a game or a
recording. The view is drawn from a screen copy (`games.ScreenCopy`): the live game's, kept
from its output, or one a `playback.Playback` feeds from the recording. So a spectator who
joins mid-game sees the whole current screen at once, a terminal of another size gets a cropped
(or framed) picture, and nothing the spectator types reaches a game: watching, only `q`,
ctrl+c, ctrl+d and Esc mean anything (leave); playing back, the playback keys too (speed,
pause, idle gaps, the end). Only changed rows are sent, and a spectator whose connection cannot
keep up skips frames instead of holding up the game. A recording is read a piece at a time as
it plays (`playback.CastReader`): no recording makes the server hold it whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import asyncssh

from .games import LiveGame, Registry, ScreenCopy
from .lobby import (
    LIVE,
    RECORDINGS,
    HeaderCache,
    fit,
    lobby_lines,
    page_size,
    playback_keys,
    read_header,
    recording_lines,
)
from .playback import Playback, RecordingError
from .recordings import Recording, RecordingIndex, length_text

__all__ = ["HeaderCache", "WatchSession", "read_header"]

LOBBY_REFRESH = 2.0
PLAYBACK_TICK = 0.5  # the longest wait between two looks at a playback (its clock shows)
ENTER_VIEW = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"
LEAVE_VIEW = "\x1b[0m\x1b[?25h\x1b[?1049l"
CLEAR = "\x1b[0m\x1b[H\x1b[2J"
LEAVE_KEYS = (b"q", b"Q", b"\x03", b"\x04", b"\x1b")


class WatchSession(asyncssh.SSHServerSession[bytes]):
    """The `watch` login: the lobby, then one game's screen or one recording, read-only."""

    def __init__(
        self,
        registry: Registry[LiveGame],
        headers: HeaderCache,
        log: Callable[[str], None],
        on_close: Callable[[], None],
        peer: str = "?",
        recordings: RecordingIndex | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = registry
        self.peer = peer
        self.headers = headers
        self.recordings = recordings
        self.clock = clock
        self.log = log
        self.on_close = on_close
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.cols, self.rows = 80, 24
        self.has_pty = False
        self.command: str | None = None
        self.tab = LIVE
        self.page = 0
        self.listed: list[LiveGame] = []
        self.listed_recordings: list[Recording] = []
        self.typed = ""
        self.note = ""
        self.watching: LiveGame | None = None
        self.playing: Playback | None = None
        self.played: Recording | None = None
        self.seeking = False  # playing to the end as fast as the budget allows
        self.last_rows: list[str | None] = []
        self.last_status: str | None = None
        self.drawn_size: tuple[int, int] = (0, 0)  # the game's size when last drawn
        self.drawn_for: tuple[int, int] = (0, 0)  # this terminal's size then
        self.last_lobby: list[str] = []
        self.last_key = time.monotonic()
        self.paused = False
        self.stale = False
        self.open = False
        self._timer: asyncio.TimerHandle | None = None
        self._play_timer: asyncio.Handle | None = None

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
        if self.watching is not None or self.playing is not None:
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
        if self.watching is not None or self.playing is not None:
            if any(data.startswith(k) for k in LEAVE_KEYS[:4]) or data == b"\x1b":
                what = self.watching.player if self.watching is not None else "a recording"
                self.log(f"watch: stopped watching {what}")
                self._stop_watching()
                self._write(ENTER_VIEW)
                self.show_lobby(force=True)
            elif self.playing is not None:
                self._playback_key(data)
            return  # every other key does nothing: watching is read-only
        if data in LEAVE_KEYS:
            self.close("Bye.\r\n")
            return
        if data.startswith(b"\x1b"):
            return  # arrows and the like
        for byte in data.decode("latin-1"):
            if byte.isdigit():
                self.typed = (self.typed + byte)[-4:]
                if self._count() <= 9:
                    self._choose()
                    return
            elif byte in "\r\n":
                self._choose()
                return
            elif byte in "\x7f\b":
                self.typed = self.typed[:-1]
            elif byte in "rR":
                self.show_lobby(force=True)
            elif byte == "\t":
                self.tab = RECORDINGS if self.tab == LIVE else LIVE
                self.typed, self.note = "", ""
                self.show_lobby(force=True)
                return
            elif byte in "nNpP" and self.tab == RECORDINGS:
                self.page += 1 if byte in "nN" else -1
                self.typed = ""
                self.show_lobby(force=True)
                return
        self.show_lobby()

    def _count(self) -> int:
        return len(self.listed) if self.tab == LIVE else len(self._page())

    def _choose(self) -> None:
        typed, self.typed = self.typed, ""
        if not typed:
            return
        number = int(typed)
        what = "game" if self.tab == LIVE else "recording"
        if not 1 <= number <= self._count():
            self.note = f"There is no {what} {number}."
            self.show_lobby(force=True)
            return
        if self.tab == RECORDINGS:
            self.play(self._page()[number - 1])
            return
        game = self.listed[number - 1]
        if game.finished.done():
            self.note = f"{game.player}'s game has just ended."
            self.show_lobby(force=True)
            return
        self.watch(game)

    # ---- the lobby ------------------------------------------------------------------------
    def _page(self) -> list[Recording]:
        per = page_size(self.rows)
        pages = max(1, -(-len(self.listed_recordings) // per))
        self.page = min(max(self.page, 0), pages - 1)
        return self.listed_recordings[self.page * per : (self.page + 1) * per]

    def show_lobby(self, force: bool = False) -> None:
        if not self.open or self.watching is not None or self.playing is not None:
            return
        if self.tab == LIVE:
            self.listed = self.registry.live()
            lines = lobby_lines(self.listed, self.headers, self.note)
        else:
            self.listed_recordings = self.recordings.all() if self.recordings else []
            self._page()
            lines = recording_lines(
                self.listed_recordings, self.page, page_size(self.rows), self.note
            )
        if self.typed:
            lines.append(f"Number: {self.typed}")
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

    def _enter_view(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.note = ""
        self.drawn_size = (0, 0)

    # ---- watching -------------------------------------------------------------------------
    def watch(self, game: LiveGame) -> None:
        self._enter_view()
        self.watching = game
        self.log(f"watch: watching {game.player}")
        game.add_watcher(self)  # the copy up to now, then this spectator's first full picture

    def _stop_watching(self) -> None:
        if self.watching is not None:
            self.watching.remove_watcher(self)
            self.watching = None
        if self._play_timer is not None:
            self._play_timer.cancel()
            self._play_timer = None
        if self.playing is not None:
            self.playing.close()
            self.playing = self.played = None
            self.seeking = False

    def watched_game_over(self, game: LiveGame) -> None:
        if self.watching is game:
            self.watching = None
            self.note = f"{game.player}'s game has ended."
            self._write(CLEAR)
            self.show_lobby(force=True)

    # ---- playing back ---------------------------------------------------------------------
    def play(self, recording: Recording) -> None:
        try:
            playback = Playback.open(recording.path, self.clock)
        except (RecordingError, OSError) as exc:
            self.note = f"That recording cannot be played: {exc}"
            self.show_lobby(force=True)
            return
        self._enter_view()
        self.playing, self.played = playback, recording
        self.log(f"watch: playing back {recording.player}'s {recording.path.name}")
        self._write(CLEAR)
        self._tick()

    def _playback_key(self, data: bytes) -> None:
        playback = self.playing
        assert playback is not None
        for key in data.decode("latin-1"):
            if key in "+=fF":
                playback.faster()
            elif key in "-_sS":
                playback.slower()
            elif key == " ":
                playback.pause()
            elif key in "iI":
                playback.toggle_idle()
            elif key in "eE":
                self.seeking = True
        self._tick()

    def _tick(self) -> None:
        """Play what is due, draw, and look again when the next event is due."""
        self._play_timer = None
        playback = self.playing
        if playback is None or not self.open:
            return
        if playback.advance(to_end=self.seeking):
            self.screen_changed()
        else:
            self._draw_status()
        if playback.finished:
            self.seeking = False
            self._draw_status()
            return
        loop = asyncio.get_running_loop()
        if self.seeking:
            self._play_timer = loop.call_soon(self._tick)
            return
        wait = playback.wait()
        if wait is not None:
            self._play_timer = loop.call_later(min(wait, PLAYBACK_TICK), self._tick)

    def _status(self, copy: ScreenCopy) -> tuple[str, bool]:
        """The status line, and whether it takes the terminal's last row whatever the sizes."""
        cols, rows = copy.size
        if self.playing is not None and self.played is not None:
            p, rec = self.playing, self.played
            state = "end" if p.finished else "paused" if p.paused else f"x{p.speed:g}"
            idle = "short" if p.skip_idle else "as played"
            marks = f" · {p.markers[-1]}" if p.markers else ""
            return (
                f" {rec.player} {rec.started:%Y-%m-%d %H:%M} · {length_text(p.real)}"
                f"/{length_text(rec.seconds)} · {state} · idle {idle}{marks} · "
                f"{playback_keys()} ",
                True,
            )
        name = self.watching.player if self.watching is not None else "?"
        if self.cols < cols or self.rows < rows:
            return (
                f" {name}'s game is {cols}x{rows}: enlarge this terminal to see it all - q leaves ",
                True,
            )
        return f" watching {name} (read-only) - q leaves ", False

    def _draw_status(self) -> None:
        copy = self._copy()
        if copy is None or self.paused:
            return
        status, _ = self._status(copy)
        if status != self.last_status:
            self.last_status = status
            self._write(f"\x1b[{self.rows};1H\x1b[0;7m{fit(status, self.cols)}\x1b[0m\x1b[K")

    def _copy(self) -> ScreenCopy | None:
        if self.watching is not None:
            return self.watching.screen
        return self.playing.screen if self.playing is not None else None

    def screen_changed(self) -> None:
        copy = self._copy()
        if copy is None or not self.open:
            return
        if self.paused:
            self.stale = True
            return
        self.stale = False
        cols, rows = copy.size
        out: list[str] = []
        size = (self.cols, self.rows)
        _, reserve = self._status(copy)
        if self.drawn_size != (cols, rows) or size != self.drawn_for:
            out.append(CLEAR)
            self.last_rows = [None] * rows
            self.drawn_size = (cols, rows)
            self.drawn_for = size
            self.last_status = None
        shown = self.rows - 1 if reserve else self.rows
        for y in range(min(rows, shown)):
            row = copy.rows[y]
            if self.last_rows[y] == row:
                continue
            self.last_rows[y] = row
            line = row if self.cols >= cols else copy.cropped(y, self.cols)
            out.append(f"\x1b[{y + 1};1H{line}")
        if out:
            self._write("".join(out))
        if reserve or self.rows > rows:
            self._draw_status()
