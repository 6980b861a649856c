"""Playing a recording back (`recordings.py` writes them) for the `watch` login.

`CastReader` reads a recording a piece at a time: a regular file only (no link, FIFO or device),
the gzip stream inflated a bounded chunk at a time, lines of at most `MAX_LINE` bytes, terminal
sizes clamped like a live game's. So no recording, however large or damaged, makes the server
hold more than a few hundred KiB for a spectator; a stream that stops short (a server that died
mid-game) ends where it stops, and damage ends the playback there with a note.

`Playback` plays it on a `games.ScreenCopy` against a clock (the event loop's, or a test's):
speed (x0.25-x32), pause, idle gaps shortened to `IDLE_LIMIT` seconds (on by default), and the
end as fast as the feeding budget allows (`FEED_BUDGET` bytes of output a call, so one
spectator never holds the event loop for long).
"""

from __future__ import annotations

import json
import os
import stat
import zlib
from collections.abc import Callable
from pathlib import Path

from attrs import frozen

from .games import MAX_COLS, MAX_ROWS, ScreenCopy

MAX_LINE = 1024 * 1024  # a longer line in a recording is damage: playback stops there
READ_CHUNK = 16 * 1024  # compressed bytes read at a time
INFLATE_CHUNK = 64 * 1024  # uncompressed bytes produced at a time


class RecordingError(Exception):
    """A recording that cannot be played (not a file, not asciicast v2)."""


@frozen
class Event:
    at: float
    kind: str
    data: str


def _size(text: str) -> tuple[int, int] | None:
    cols, _, rows = text.partition("x")
    if not (cols.isdigit() and rows.isdigit()) or len(cols) > 12 or len(rows) > 12:
        return None
    return max(1, min(int(cols), MAX_COLS)), max(1, min(int(rows), MAX_ROWS))


class CastReader:
    """A recording's events, read a piece at a time (see the module's text)."""

    def __init__(self, path: Path) -> None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError as exc:
            raise RecordingError(f"{path.name}: cannot be opened ({exc.strerror})") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise RecordingError(f"{path.name}: not a regular file")
        self.file = os.fdopen(fd, "rb")
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.buffer = bytearray()
        self.ended = False  # the file (or its readable part) is used up
        self.problem = ""  # why the reading stopped early, if it did
        line = self._line()
        try:
            header = json.loads(line) if line is not None else None
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("version") != 2:
            self.close()
            raise RecordingError(f"{path.name}: not an asciicast v2 recording")
        size = _size(f"{header.get('width')}x{header.get('height')}")
        if size is None:
            self.close()
            raise RecordingError(f"{path.name}: the recording's header has no terminal size")
        self.size = size
        self.title = str(header.get("title", ""))[:200]
        self.timestamp = header.get("timestamp") if isinstance(header.get("timestamp"), int) else 0

    def close(self) -> None:
        self.file.close()
        self.buffer.clear()

    def _fill(self) -> bool:
        """Inflate some more into the buffer; False at the end."""
        if self.ended:
            return False
        data = self.inflate.unconsumed_tail
        if not data:
            if self.inflate.eof:
                self.ended = True
                return False
            data = self.file.read(READ_CHUNK)
            if not data:  # the end of the file: a recording cut short ends here
                self.ended = True
                return False
        try:
            self.buffer += self.inflate.decompress(data, INFLATE_CHUNK)
        except zlib.error:
            self.ended = True
            self.problem = "the rest of the recording is damaged"
            return False
        return True

    def _line(self) -> bytes | None:
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return line
            if len(self.buffer) > MAX_LINE:
                self.ended = True
                self.problem = "a line of the recording is too long (damaged)"
                self.buffer.clear()
                return None
            if not self._fill():
                return None

    def next(self) -> Event | None:
        """The next event, or None at the end (or where the recording is damaged)."""
        while True:
            line = self._line()
            if line is None:
                return None
            try:
                doc = json.loads(line)
            except (ValueError, RecursionError):
                self.problem = "the recording is damaged"
                return None
            if (
                isinstance(doc, list)
                and len(doc) == 3
                and isinstance(doc[0], int | float)
                and isinstance(doc[1], str)
                and isinstance(doc[2], str)
            ):
                return Event(float(doc[0]), doc[1], doc[2])


SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
IDLE_LIMIT = 2.0  # seconds: longer pauses are shortened to this while idle skipping is on
FEED_BUDGET = 32 * 1024  # output bytes fed to the screen per `advance`, at most


class Playback:
    """A recording played on a screen copy against `clock` (seconds, monotonic).

    The screen shows the recording up to `position` (its time line, with idle gaps shortened
    while `skip_idle` is on); the next event is due when the play clock, which runs at `speed`
    times the clock while not paused, reaches `position` plus the event's gap."""

    def __init__(self, reader: CastReader, clock: Callable[[], float]) -> None:
        self.reader = reader
        self.clock = clock
        self.screen = ScreenCopy(*reader.size)
        self.speed_index = SPEEDS.index(1.0)
        self.paused = False
        self.skip_idle = True
        self.position = 0.0
        self.real = 0.0  # the recorded time of the last event shown
        self.markers: list[str] = []
        self.finished = False
        self._anchor_play = 0.0
        self._anchor_clock = clock()
        self._pending = reader.next()
        self._out: list[bytes] = []

    @classmethod
    def open(cls, path: Path, clock: Callable[[], float]) -> Playback:
        return cls(CastReader(path), clock)

    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def play_clock(self) -> float:
        if self.paused:
            return self._anchor_play
        return self._anchor_play + (self.clock() - self._anchor_clock) * self.speed

    def _rebase(self, at: float | None = None) -> None:
        self._anchor_play = self.play_clock() if at is None else at
        self._anchor_clock = self.clock()

    def _gap(self, event: Event) -> float:
        gap = max(0.0, event.at - self.real)
        return min(gap, IDLE_LIMIT) if self.skip_idle else gap

    def advance(self, to_end: bool = False) -> bool:
        """Put every event due by now on the screen (every one left with `to_end`), at most
        `FEED_BUDGET` bytes of output a call; whether the screen changed."""
        now = self.play_clock()
        fed = 0
        changed = False
        while self._pending is not None and fed < FEED_BUDGET:
            event = self._pending
            due = self.position + self._gap(event)
            if due > now and not to_end:
                break
            self.position, self.real = due, event.at
            fed += self._apply(event)
            changed = True
            self._pending = self.reader.next()
        if to_end or self.position > now:
            self._rebase(self.position)
        if self._pending is None and not self.finished:
            self.finished = changed = True
        if self._out:
            self.screen.feed(b"".join(self._out))
            self._out.clear()
        return changed

    def _apply(self, event: Event) -> int:
        if event.kind == "o":
            data = event.data.encode("utf-8")
            self._out.append(data)
            return len(data)
        if event.kind == "r":
            size = _size(event.data)
            if size is not None and size != self.screen.size:
                if self._out:
                    self.screen.feed(b"".join(self._out))
                    self._out.clear()
                self.screen.resize(*size)
        elif event.kind == "m":
            self.markers.append(event.data[:200])
        return 0

    def wait(self) -> float | None:
        """Seconds of the clock until the next event is due (None: nothing to wait for)."""
        if self.paused or self._pending is None:
            return None
        due = self.position + self._gap(self._pending)
        return max(0.0, (due - self.play_clock()) / self.speed)

    def faster(self) -> None:
        self._rebase()
        self.speed_index = min(self.speed_index + 1, len(SPEEDS) - 1)

    def slower(self) -> None:
        self._rebase()
        self.speed_index = max(self.speed_index - 1, 0)

    def pause(self) -> None:
        self._rebase()
        self.paused = not self.paused

    def toggle_idle(self) -> None:
        self.skip_idle = not self.skip_idle

    def close(self) -> None:
        self.reader.close()
