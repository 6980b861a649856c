"""A server's game reports its saves to the store, as it saves (`SaveReporter`).

The game process is the server's own program: the player reaches it only through keys, so the
state it plays is the state the rules make. Its figures are still taken as the high scores
take every figure, from the state the save's commands rebuild (`scores.verified_figures`):
replayed once per game from the seed, then only the commands added since the last report
(`Verifier`), in a thread of its own so the game never waits for it or for the database. A
save of older rules is scored from its snapshot, marked unverified. So the store's figures for
a save are the ones a replay of the file would give, and the table is read from the store
alone.

A report that cannot be made (the database away) is logged to stderr and dropped: the next
save reports again, and a server's start indexes every save whose file changed
(`files.sync_saves`). At exit the game waits up to `FLUSH_SECONDS` for reports in flight.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import sys
import threading
from pathlib import Path

from ...game import Command, fold
from ...model import GameState, initial_state
from ...save import SaveFile, state_hash
from ..scores import SCORES_ENV, Figures, _figures, verified_figures
from . import PLAYER_ENV, STORE_ENV, Store, open_store
from .files import row_of, shown_path

FLUSH_SECONDS = 5.0
IDLE_SECONDS = 30.0  # the store's connection is closed after this long without a report
UNVERIFIED = "the saved game does not follow from its commands: scored as they rebuild it"


class Verifier:
    """The state a save's commands rebuild, kept per file between reports so that each report
    replays only the commands added since the last one."""

    def __init__(self) -> None:
        self._done: dict[Path, tuple[int, tuple[Command, ...], GameState]] = {}

    def figures(self, path: Path, save: SaveFile) -> Figures | None:
        if save.state.campaign is None or not save.current_rules:
            return verified_figures(save)
        done = self._done.get(path)
        commands = tuple(save.commands)
        if done is not None and done[0] == save.seed and commands[: len(done[1])] == done[1]:
            state = fold(done[2], commands[len(done[1]) :])[0]
        else:
            state = fold(initial_state(save.seed), commands)[0]
        self._done[path] = (save.seed, commands, state)
        note = "" if state_hash(state) == state_hash(save.state) else UNVERIFIED
        return _figures(state, verified=True, note=note)


class SaveReporter:
    """Reports saves to the store from a thread of its own (see the module)."""

    def __init__(self, url: str, player: str, root: Path) -> None:
        self.url = url
        self.player = player
        self.root = root
        self.verifier = Verifier()
        self._queue: queue.Queue[tuple[Path, SaveFile] | None] = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self._store: Store | None = None

    @classmethod
    def from_env(cls) -> SaveReporter | None:
        """The reporter of a game a server started (`$MAC_TUI_STORE`, `$MAC_TUI_PLAYER`,
        `$MAC_TUI_SCORES_DIR`), else None."""
        url, player = os.environ.get(STORE_ENV), os.environ.get(PLAYER_ENV)
        root = os.environ.get(SCORES_ENV)
        if not url or not player or not root:
            return None
        return cls(url, player, Path(root))

    def report(self, path: Path, save: SaveFile) -> None:
        """Index `save`, just written at `path` (returns at once)."""
        self._idle.clear()
        self._queue.put((Path(path), save))
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="save-reporter", daemon=True)
            self._thread.start()
            atexit.register(self.flush)

    def flush(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Wait until every report made so far is in the store (or `timeout`)."""
        return self._idle.wait(timeout)

    def _work(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                self._close()
                continue
            if item is None:
                break
            latest = {item[0]: item[1]}
            with contextlib.suppress(queue.Empty):
                while True:  # several saves of one file waiting: the newest is enough
                    more = self._queue.get_nowait()
                    if more is not None:
                        latest[more[0]] = more[1]
            for path, save in latest.items():
                self._report(path, save)
            if self._queue.empty():
                self._idle.set()
        self._close()

    def _report(self, path: Path, save: SaveFile) -> None:
        try:
            st = os.lstat(path)
            figures = self.verifier.figures(path, save)
            shown = shown_path(self.root, path)
            row = row_of(self.player, shown, st, dict(save.header), figures, path)
            if self._store is None:
                self._store = open_store(self.url, self.root)
            self._store.record_save(row)
        except Exception as exc:  # the game goes on; the next save (or a rescan) catches up
            print(f"mac-tui: could not report {path.name} to the store: {exc}", file=sys.stderr)
            self._close()

    def _close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
