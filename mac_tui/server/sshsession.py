"""The SSH server's shared state and its sessions: `ServerState` (what every connection shares),
`PlayerSession` (a player's game in a PTY: keys in, screen out, resizes, takeover and hang-up)
and `RefusedSession` (a polite refusal that says why). `ssh.py` holds the server that hands them
out (`MacSSHServer`) and runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import asyncssh
from attrs import frozen

from . import LOG, duration_text
from .accounts import Accounts, DataDir, StoredRegistrations, shown
from .games import ELSEWHERE, EndReason, LiveGame, PlayerLock, Registry, clamp_size, game_env
from .leases import Lease, Leases
from .limits import RateLimiter, SessionCount
from .lobby import HeaderCache
from .pool import DEFAULT_POOL, GamePool
from .recordings import Recorder, RecordingIndex, RecordingOptions, Recordings
from .spectate import WatchSession
from .store import Store, open_store, store_url
from .zygote import Zygote

PENDING_INPUT_CAP = 4096  # keys typed before the game has started


@frozen
class SSHOptions:
    host: str = "127.0.0.1"
    port: int = 2222
    data: Path | None = None
    allow_passwords: bool = False
    idle_timeout: float = 1800.0
    max_sessions: int = 64  # players at once
    rate_limit: int = 20  # connections per address per minute
    max_spectators: int = 32
    spectator_idle_timeout: float = 600.0
    max_registrations: int = 10  # new names per address per day
    takeover_grace: float = 10.0  # seconds a hung-up game has to save before SIGTERM
    warm_start: bool = True  # fork games from a warm zygote (see zygote.py)
    pool: int = DEFAULT_POOL  # games waiting at their title screen for the next logins (pool.py)
    recordings: RecordingOptions = RecordingOptions()
    db: str | None = None  # the store: None is DATA/store.db (SQLite); or postgresql://...
    log: Path | None = None  # the log file: None is DATA/server.log


class ServerState:
    """Everything the connections share (one event loop, so no locks but the players')."""

    def __init__(self, options: SSHOptions, data: DataDir, store: Store | None = None) -> None:
        self.options = options
        self.data = data
        self.store = store or open_store(options.db, data.root)
        self.store_url = store_url(options.db, data.root)
        self.accounts = Accounts(data, self.store)
        self.leases = Leases(self.store, "ssh")
        self.registry: Registry[LiveGame] = Registry()
        self.headers = HeaderCache()
        self.limiter = RateLimiter(options.rate_limit)
        self.registrations = StoredRegistrations(self.store, options.max_registrations)
        self.sessions = SessionCount(options.max_sessions)
        self.spectators = SessionCount(options.max_spectators)
        self.watchers: set[WatchSession] = set()
        self.players: set[PlayerSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.zygote: Zygote | None = None
        self.pool: GamePool | None = None
        self.recordings = Recordings(options.recordings, data.players, LOG.info)
        self.recording_index = RecordingIndex(data.players)

    def spawn(self, coro: Any) -> None:
        """Run `coro` in the background, keeping a reference until it is done."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            LOG.error("internal error: %r", task.exception())

    def leases_lost(self, players: set[str]) -> None:
        """Hang up (saving) the games whose lease is gone or going (`Leases.keep`)."""
        for game in self.registry.live():
            if game.player in players and game.end_reason is None:
                LOG.error("lease lost: %s's game is hung up (saved)", game.player)
                self.spawn(game.stop("lease"))

    def note_problems(self) -> None:
        for problem in self.accounts.problems:
            LOG.warning("account file: %s", problem)
        self.accounts.problems.clear()


def _say(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


class RefusedSession(asyncssh.SSHServerSession[bytes]):
    """A session that only says why it cannot go on."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        self.chan.write_stderr(_say(f"mac-tui: {self.message}\n"))
        self.chan.exit(1)


GOODBYES: dict[EndReason, str] = {
    "quit": "",
    "disconnect": "",
    "idle": "\nmac-tui: no key pressed for {idle}: your game is saved. Goodbye!\n",
    "takeover": "\nmac-tui: {name} logged in again from {peer}: this game is saved and goes on "
    "there.\n",
    "shutdown": "\nmac-tui: the server is shutting down: your game is saved. See you soon!\n",
    "lease": "\nmac-tui: this server lost touch with its database: your game is saved. Log in "
    "again in a minute.\n",
}


class PlayerSession(asyncssh.SSHServerSession[bytes]):
    """A player's session: their game in a PTY, their keys in, its screen out."""

    def __init__(self, state: ServerState, name: str, peer: str) -> None:
        self.state = state
        self.name = name
        self.peer = peer
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.cols, self.rows = 80, 24
        self.has_pty = False
        self.command: str | None = None
        self.game: LiveGame | None = None
        self.pending = bytearray()
        self.closed = False
        self.counted = False

    # ---- requests -------------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self.has_pty = True
        self.term = term_type
        self.cols, self.rows = term_size[0], term_size[1]
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # accepted only to say no with a reason (session_started)
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        LOG.info("refused %s from %s: subsystem %s", self.name, self.peer, shown(subsystem))
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if self.command is not None:
            LOG.info("refused %s from %s: command %r", self.name, self.peer, shown(self.command))
            self._refuse(
                f"no commands here (asked: '{shown(self.command)}'); to play, log in with "
                f"`ssh -t {self.name}@HOST`.\n"
            )
            return
        if not self.has_pty:
            LOG.info("refused %s from %s: no terminal", self.name, self.peer)
            self._refuse(
                f"the game needs a terminal: log in with `ssh -t {self.name}@HOST` "
                "from a terminal.\n"
            )
            return
        self.state.players.add(self)
        self.state.spawn(self.run())

    def _refuse(self, message: str) -> None:
        assert self.chan is not None
        self.chan.write_stderr(_say("mac-tui: " + message))
        self.chan.exit(1)

    def write(self, text: str) -> None:
        self._send(_say(text))

    def _send(self, data: bytes) -> None:
        if self.chan is not None and not self.closed:
            try:
                self.chan.write(data)
            except (BrokenPipeError, OSError, asyncssh.Error):
                self.closed = True  # the channel is going: connection_lost follows

    # ---- the game -------------------------------------------------------------------------
    async def run(self) -> None:
        state = self.state
        async with state.registry.lock(self.name):
            old = state.registry.games.get(self.name)
            if old is not None and not old.finished.done():
                LOG.info(
                    "takeover: %s from %s replaces the game from %s", self.name, self.peer, old.peer
                )
                self.write(f"mac-tui: your game is open from {old.peer}: saving it there...\n")
                await old.stop("takeover", state.options.takeover_grace)
            if self.closed or state.stopping:
                return
            files = state.accounts.prepare(self.name)
            env = game_env(
                home=files.root,
                saves=files.saves,
                config=files.config,
                scores=state.data.root,
                term=self.term,
                colorterm=self._client_env("COLORTERM"),
                no_color=self._client_env("NO_COLOR"),
                store=state.store_url,
                player=self.name,
            )
            try:
                lease = state.leases.take(self.name)
            except Exception as exc:  # StoreError, or the database's own
                LOG.error("game for %s: the store cannot be reached: %s", self.name, exc)
                self._refuse("the server cannot reach its database; try again in a minute.\n")
                return
            if isinstance(lease, str):
                LOG.info("refused %s from %s: the game runs on another node", self.name, self.peer)
                self._refuse(lease + "\n")
                return
            lock = PlayerLock.take(files.lock)
            if lock is None:
                state.leases.release(lease)
                LOG.info(
                    "refused %s from %s: the game is open on another server", self.name, self.peer
                )
                self._refuse(ELSEWHERE.format(name=self.name) + "\n")
                return
            pooled = state.pool.take() if state.pool is not None else None
            where = (self.name, self.peer, env, files.root, files.saves, self.cols, self.rows)
            game = None if pooled is None else LiveGame.adopt(pooled, *where, lock)
            try:
                game = game or await LiveGame.start(*where, lock=lock, zygote=state.zygote)
            except OSError as exc:
                lock.release()
                state.leases.release(lease)
                LOG.error("game for %s could not start: %s", self.name, exc)
                self._refuse(f"the game could not start ({exc}); try again later.\n")
                return
            recorder = state.recordings.start(
                self.name, files.root, "ssh", *clamp_size(self.cols, self.rows), env["TERM"]
            )
            game.recorder = recorder
            state.registry.add(game)
            game.finished.add_done_callback(
                lambda _: self._ended(game, lease, files.root, recorder)
            )
        LOG.info(
            "game started: %s (pid %d, %s, %dx%d%s)",
            self.name,
            game.pid,
            env["TERM"],
            game.size[0],
            game.size[1],
            ", from the pool" if game.pooled else "",
        )
        self.game = game
        if self.closed:
            await game.stop("disconnect")
            return
        game.owner = self
        game.release_early()
        if self.pending:
            game.send_input(bytes(self.pending))
            self.pending.clear()

    def _client_env(self, key: str) -> str | None:
        if self.chan is None:
            return None
        value = self.chan.get_environment().get(key)
        return value if isinstance(value, str) else None

    def _ended(self, game: LiveGame, lease: Lease, root: Path, recorder: Recorder | None) -> None:
        self.state.registry.remove(game)
        self.state.leases.release(lease)
        self.state.recordings.finish(self.name, root, recorder)
        status = game.finished.result()
        LOG.info(
            "game ended: %s (%s, exit status %s, %s played)",
            self.name,
            game.end_reason,
            status,
            duration_text(round(time.time() - game.started)),
        )

    def game_output(self, data: bytes) -> None:
        self._send(data)

    def game_over(self, game: LiveGame, reason: EndReason, status: int) -> None:
        if self.closed or self.chan is None:
            return
        newcomer = next(
            (p for p in self.state.players if p.name == self.name and p is not self), None
        )
        self.write(
            GOODBYES[reason].format(
                idle=duration_text(self.state.options.idle_timeout),
                name=self.name,
                peer=newcomer.peer if newcomer else "elsewhere",
            )
        )
        with contextlib.suppress(BrokenPipeError, OSError, asyncssh.Error):
            self.chan.exit(status if reason == "quit" and status > 0 else 0)
        self.state.players.discard(self)

    # ---- channel events -------------------------------------------------------------------
    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.game is not None:
            self.game.send_input(data)
        elif len(self.pending) < PENDING_INPUT_CAP:
            self.pending += data[: PENDING_INPUT_CAP - len(self.pending)]

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.cols, self.rows = width, height
        if self.game is not None:
            self.game.resize(width, height)

    def pause_writing(self) -> None:
        if self.game is not None:
            self.game.pause_output()

    def resume_writing(self) -> None:
        if self.game is not None:
            self.game.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.state.players.discard(self)
        if self.counted:
            self.state.sessions.leave()
            self.counted = False
        game = self.game
        if game is not None and not game.finished.done():
            game.detach(self)
            if game.end_reason is None:
                LOG.info("disconnect: %s from %s; hanging up the game", self.name, self.peer)
                self.state.spawn(game.stop("disconnect"))
