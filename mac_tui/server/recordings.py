"""Recordings: every server game kept as an asciicast v2 file, gzip-compressed, per player.

`Recorder` writes one game as it is played: the asciicast header (the terminal's width and
height, the start time, `TERM`, a title), then `[seconds, "o", text]` for the game's output and
`[seconds, "r", "COLSxROWS"]` for each resize, times relative to the start. The gzip stream is
written as it goes and flushed (`Z_SYNC_FLUSH`) at least every `FLUSH_EVERY` seconds, so a
server that dies loses at most that last second; a reader takes a stream that stops short as
ending there. A recording stops at its size cap (the asciicast text, before compression, which
bounds the file on disk and what a playback will read) with a marker event saying so.

Files: `DATA/players/<name>/recordings/<start>-<front>[-n].cast.gz` while the game runs, renamed
to `<start>-<front>[-n]_<seconds>s[_cut].cast.gz` when it ends (`_cut`: stopped at the cap), so
a listing needs no file opened. `prune` applies the retention (`--recordings-keep-days`, and
`--recordings-max-mb` per player: the oldest go first), never touching the newest recording.

`RecordingIndex` lists every player's recordings for the spectators (`lobby.py`); playing one
back is `playback.py`.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import gzip
import json
import os
import re
import stat
import time
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from attrs import frozen

FOLDER = "recordings"
SUFFIX = ".cast.gz"
FLUSH_EVERY = 1.0  # seconds: a crash loses at most this much of a recording
FLUSH_BYTES = 256 * 1024  # ... or this much output, whichever comes first
MB = 1024 * 1024
MARKER_ROOM = 128  # bytes kept under the cap for the line that says the recording stopped
SWEEP_EVERY = 6 * 3600.0  # seconds between two passes of the retention over every player
NAME_RE = re.compile(
    r"(?P<start>\d{8}T\d{6}Z)-(?P<front>[a-z]+)(?:-(?P<n>\d+))?"
    r"(?:_(?P<seconds>\d+)s(?P<cut>_cut)?)?\.cast\.gz"
)


@frozen
class RecordingOptions:
    """The recordings settings of a server (`serve ssh` and `serve web` share them)."""

    cap_mb: float = 32.0  # one recording stops past this much asciicast text; 0: no recordings
    keep_days: float = 30.0  # recordings older than this go; 0: kept for ever
    max_mb: float = 200.0  # a player's recordings on disk at most; 0: no limit

    @property
    def on(self) -> bool:
        return self.cap_mb > 0


def folder_of(player_root: Path) -> Path:
    return player_root / FOLDER


# ---- writing ---------------------------------------------------------------------------------
class Recorder:
    """One game's recording, written as it is played (see the module's text)."""

    def __init__(
        self,
        folder: Path,
        front: str,
        cols: int,
        rows: int,
        term: str,
        title: str,
        cap_mb: float,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        on_stop: Callable[[str], None] | None = None,
        later: Callable[[float, Callable[[], None]], Any] | None = None,
    ) -> None:
        self.clock = clock
        self.later = later  # loop.call_later: flushes output that waits (see `flush`)
        self._timer: Any = None
        self.started = clock()
        self.start_wall = wall()
        self.cap = int(cap_mb * MB)
        self.on_stop = on_stop
        self.written = 0  # asciicast bytes before compression
        self.cut = False
        self.closed = False
        self._unflushed = 0
        self._last_flush = self.started
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        folder.mkdir(parents=True, exist_ok=True)
        self.path, raw = self._create(folder, front)
        self._raw: IO[bytes] = raw
        self._gz = gzip.GzipFile(fileobj=raw, mode="wb", mtime=int(self.start_wall))
        header = {
            "version": 2,
            "width": cols,
            "height": rows,
            "timestamp": int(self.start_wall),
            "env": {"TERM": term},
            "title": title,
        }
        self._line(header)
        self.flush()

    def _create(self, folder: Path, front: str) -> tuple[Path, IO[bytes]]:
        stamp = datetime.fromtimestamp(self.start_wall, UTC).strftime("%Y%m%dT%H%M%SZ")
        names = [name for name in os.listdir(folder) if name.startswith(stamp)]
        for n in range(1, 1000):
            stem = f"{stamp}-{front}{'' if n == 1 else f'-{n}'}"
            if any(name == stem + SUFFIX or name.startswith(stem + "_") for name in names):
                continue  # a recording that began in the same second (and has ended)
            path = folder / (stem + SUFFIX)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            except FileExistsError:
                continue
            return path, os.fdopen(fd, "wb")
        raise FileExistsError(f"{folder}: no free recording name for {stamp}")

    def _line(self, doc: Any) -> None:
        self._write((json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8"))

    def _write(self, data: bytes) -> None:
        self._gz.write(data)
        self.written += len(data)
        self._unflushed += len(data)

    def _event(self, kind: str, text: str) -> None:
        if self.closed or self.cut:
            return
        at = round(self.clock() - self.started, 6)
        data = (json.dumps([at, kind, text], ensure_ascii=False) + "\n").encode("utf-8")
        if self.written + len(data) + MARKER_ROOM > self.cap:
            self.cut = True
            note = f"recording stopped: it reached its size cap ({self.cap / MB:g} MB)"
            self._line([at, "m", note])
            self.flush()
            if self.on_stop is not None:
                self.on_stop(note)
            return
        self._write(data)
        if self._unflushed >= FLUSH_BYTES or self.clock() - self._last_flush >= FLUSH_EVERY:
            self.flush()
        elif self._timer is None and self.later is not None:
            self._timer = self.later(FLUSH_EVERY, self.flush)

    def output(self, data: bytes) -> None:
        """The game's output (bytes as the terminal gets them)."""
        text = self._decoder.decode(data)
        if text:
            self._event("o", text)

    def resize(self, cols: int, rows: int) -> None:
        self._event("r", f"{cols}x{rows}")

    def flush(self) -> None:
        """Make everything so far readable from the file (a sync flush of the gzip stream)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.closed or not self._unflushed:
            return
        try:
            self._gz.flush(zlib.Z_SYNC_FLUSH)
        except OSError:
            self.cut = True  # a full disk: the recording stops, the game goes on
        self._unflushed = 0
        self._last_flush = self.clock()

    def close(self) -> Path:
        """End the recording and give it its final name (with its length). The path."""
        if self.closed:
            return self.path
        tail = self._decoder.decode(b"", final=True)
        if tail:
            self._event("o", tail)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.closed = True
        with contextlib.suppress(OSError):
            self._gz.close()
        with contextlib.suppress(OSError):
            self._raw.close()
        seconds = round(self.clock() - self.started)
        final = self.path.with_name(
            self.path.name[: -len(SUFFIX)] + f"_{seconds}s{'_cut' if self.cut else ''}{SUFFIX}"
        )
        with contextlib.suppress(OSError):
            os.rename(self.path, final)
            self.path = final
        return self.path


class Recordings:
    """A server's recordings: one `Recorder` per game started, the retention applied when a
    game's recording ends (to that player) and every `SWEEP_EVERY` seconds (to everyone)."""

    def __init__(
        self, options: RecordingOptions, players: Path, log: Callable[[str], None]
    ) -> None:
        self.options = options
        self.players = players
        self.log = log

    def start(
        self, player: str, root: Path, front: str, cols: int, rows: int, term: str
    ) -> Recorder | None:
        """A recorder for a game starting now, or None (recordings off, or the folder cannot
        be written: the game goes on unrecorded, and the log says why)."""
        if not self.options.on:
            return None
        loop = asyncio.get_running_loop()
        try:
            return Recorder(
                folder_of(root),
                front,
                cols,
                rows,
                term,
                f"mac-tui: {player} ({front})",
                self.options.cap_mb,
                on_stop=lambda note: self.log(f"recording of {player}: {note}"),
                later=loop.call_later,
            )
        except OSError as exc:
            self.log(f"recording of {player}: cannot be written ({exc}); the game is not recorded")
            return None

    def finish(self, player: str, root: Path, recorder: Recorder | None) -> None:
        """The game has ended: close its recording, apply the retention to the player's."""
        if recorder is None:
            return
        recorder.close()
        options = self.options
        loop = asyncio.get_running_loop()
        loop.run_in_executor(
            None, prune, player, folder_of(root), options.keep_days, options.max_mb
        )

    async def sweep(self) -> None:
        """Apply the retention to every player now and every `SWEEP_EVERY` seconds."""
        if not self.options.on and self.options.keep_days <= 0 and self.options.max_mb <= 0:
            return
        loop = asyncio.get_running_loop()
        while True:
            removed = await loop.run_in_executor(
                None, prune_all, self.players, self.options.keep_days, self.options.max_mb
            )
            if removed:
                self.log(f"recordings: {len(removed)} removed by the retention settings")
            await asyncio.sleep(SWEEP_EVERY)


# ---- the list and the retention --------------------------------------------------------------
@frozen
class Recording:
    player: str
    path: Path
    started: datetime
    front: str
    seconds: int | None  # None while recording (or if the server died during it)
    size: int
    cut: bool
    mtime: float


def parse(player: str, path: Path, st: os.stat_result) -> Recording | None:
    match = NAME_RE.fullmatch(path.name)
    if match is None or not stat.S_ISREG(st.st_mode):
        return None
    try:
        started = datetime.strptime(match["start"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:
        return None
    seconds = int(match["seconds"]) if match["seconds"] else None
    return Recording(
        player, path, started, match["front"], seconds, st.st_size, bool(match["cut"]), st.st_mtime
    )


def list_folder(player: str, folder: Path) -> list[Recording]:
    """A player's recordings, newest first (files that are not recordings are left out)."""
    out = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        found = parse(player, Path(entry.path), st)
        if found is not None:
            out.append(found)
    out.sort(key=lambda r: (r.started, r.path.name), reverse=True)
    return out


class RecordingIndex:
    """Every player's recordings, newest first; a player's folder is listed again only when it
    has changed."""

    def __init__(self, players: Path) -> None:
        self.players = players
        self._cache: dict[str, tuple[int, list[Recording]]] = {}

    def all(self) -> list[Recording]:
        found: list[Recording] = []
        try:
            names = sorted(e.name for e in os.scandir(self.players) if e.is_dir())
        except OSError:
            return []
        for name in names:
            folder = self.players / name / FOLDER
            try:
                mtime = folder.stat().st_mtime_ns
            except OSError:
                self._cache.pop(name, None)
                continue
            hit = self._cache.get(name)
            if hit is None or hit[0] != mtime:
                hit = (mtime, list_folder(name, folder))
                self._cache[name] = hit
            found += hit[1]
        found.sort(key=lambda r: (r.started, r.path.name), reverse=True)
        return found


def prune(
    player: str, folder: Path, keep_days: float, max_mb: float, now: float | None = None
) -> list[Path]:
    """Apply the retention to one player's recordings; the files removed. The newest
    recording is never removed (it may be the one being written)."""
    now = time.time() if now is None else now
    recordings = list_folder(player, folder)[1:]  # newest first; the newest is kept
    removed: list[Path] = []
    kept: list[Recording] = []
    for rec in recordings:
        if keep_days > 0 and now - rec.mtime > keep_days * 86400:
            removed.append(rec.path)
        else:
            kept.append(rec)
    if max_mb > 0:
        newest = list_folder(player, folder)[:1]
        total = sum(r.size for r in (*newest, *kept))
        for rec in reversed(kept):  # oldest first
            if total <= max_mb * MB:
                break
            total -= rec.size
            removed.append(rec.path)
    for path in removed:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return removed


def prune_all(
    players: Path, keep_days: float, max_mb: float, now: float | None = None
) -> list[Path]:
    """`prune` for every player (the server runs it at start and every few hours)."""
    removed: list[Path] = []
    try:
        names = [e.name for e in os.scandir(players) if e.is_dir()]
    except OSError:
        return []
    for name in names:
        removed += prune(name, players / name / FOLDER, keep_days, max_mb, now)
    return removed


def length_text(seconds: int | float | None) -> str:
    if seconds is None:
        return "-"
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def size_text(size: int) -> str:
    if size >= MB:
        return f"{size / MB:.1f} MB"
    return f"{max(1, round(size / 1024))} KB"
