"""`mac-tui serve ssh`: the game over SSH, one real game process per player, on asyncssh.

Who gets in (see `accounts`): the SSH username is the player's name. A free name is registered
by the first login that proves a key (asyncssh checks the signature before `auth_completed`,
and only then is the key written down), or gives a password when the operator allows them;
after that only those keys (or that password) open it. `watch` needs no credentials and gets
the spectators' lobby (`spectate`). Bad names, reserved names and names registered in another
case are refused with a banner that says why.

What they get: a session with a PTY runs the game (`games.LiveGame`) with the client's TERM and
window size (resizes follow). A session without a PTY, a command (`ssh host ls`, scp), a
subsystem (sftp), port, agent and X11 forwarding are all refused; only one session per
connection. One live game per player: a second login hangs up the first game (it saves),
waits for it to end, tells the first connection why and closes it, then starts the game
anew (`c` continues it). A dropped connection hangs up its game (saved), and so does an idle
timeout (no key for `--idle-timeout` seconds), with a goodbye.

Limits: at most `--max-sessions` players at once (a player taking over their own game always
may) and, counted apart, at most `--max-spectators` spectators, so watchers never take a
player's place; a spectator who presses no key for `--spectator-idle-timeout` seconds is let go.
At most `--rate-limit` connections per address per minute, at most `--max-registrations` new
names per address per day. Every limit is refused politely, saying which. A key that does not
open a registered name is told so (the name is registered to another key).
Connections, logins, refusals and games are logged to stderr and `DATA/server.log`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import signal
import stat
import sys
import time
from pathlib import Path

import asyncssh

from .. import __version__
from . import LOG, default_data_dir, duration_text, plural, setup_logging
from .accounts import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    WATCH,
    DataDir,
    fingerprint,
    hash_password,
    name_problem,
    shown,
)
from .games import game_env
from .limits import client_key, registrations_used_up
from .pool import GamePool
from .spectate import WatchSession
from .sshsession import PlayerSession, RefusedSession, ServerState, SSHOptions
from .store import Store, StoreError, open_store
from .zygote import SUPPORTED, Zygote


class MacSSHServer(asyncssh.SSHServer):
    """One connection: the rate limit, who the user is, which session they get."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.username = ""
        self.refusal: str | None = None
        self.problem: str | None = None
        self.method = "none"
        self.key: asyncssh.SSHKey | None = None
        self.candidate_key: asyncssh.SSHKey | None = None
        self.candidate_password: str | None = None  # the hash, for a free name
        self.session_open = False
        self.logged_in = False
        self.rejected = False  # a key or password was refused for a registered name
        self.told_wrong_key = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.state.connections.add(conn)
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"
        if self.state.stopping:
            self.refusal = "the server is shutting down; try again in a minute"
        elif not self.state.limiter.allow(client_key(self.peer)):
            wait = math.ceil(self.state.limiter.retry_after(client_key(self.peer)))
            self.refusal = f"too many connections from {self.peer}; try again in {wait} s"
            LOG.warning("refused %s: rate limit", self.peer)
        else:
            LOG.info("connection from %s", self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.state.connections.discard(self.conn)
        if self.logged_in:
            LOG.info("connection closed: %s from %s", self.username, self.peer)
        elif self.rejected:
            LOG.warning(
                "refused %s from %s: no key (or password) that opens it", self.username, self.peer
            )

    def begin_auth(self, username: str) -> bool:
        assert self.conn is not None
        self.username = username
        if self.refusal:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"mac-tui: {self.refusal}")
            return True
        if username == WATCH:
            return False  # spectators need no credentials
        problem = name_problem(username)
        accounts = self.state.accounts
        try:
            if problem is None and not accounts.registered(username):
                other = accounts.clash(username)
                if other:
                    problem = f"'{username}' is too like the player '{other}': choose another name"
                else:
                    problem = self._registrations_used_up()
        except Exception as exc:  # the store: StoreError, or the database's own
            LOG.error("the store cannot be reached: %s", exc)
            problem = "the server cannot reach its database; try again in a minute"
        self.state.note_problems()
        if problem is not None:
            self.problem = problem
            LOG.warning("refused %s: bad name %r (%s)", self.peer, shown(username), problem)
            self.conn.send_auth_banner(f"mac-tui: {problem}.\r\n")
            return True
        if not accounts.registered(username):
            how = "key"
            if self.state.options.allow_passwords:
                how += f" (or password of {MIN_PASSWORD}+ characters)"
            self.conn.send_auth_banner(
                f"mac-tui: welcome! '{username}' is a new player name: this login registers it "
                f"with your {how}.\r\n"
            )
        return True

    def _registrations_used_up(self) -> str | None:
        return registrations_used_up(self.state.registrations, self.peer)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Called for a key offered and again (before the signature check) for a key used."""
        if self.problem or self.refusal:
            return False
        self.method, self.key = "publickey", key
        accounts = self.state.accounts
        if accounts.registered(username):
            self.candidate_key = None
            ok = accounts.key_opens(username, key)
            self.state.note_problems()
            self.rejected = self.rejected or not ok
            if not ok:
                self._tell_wrong_key(username, key)
            return ok
        self.candidate_key = key  # registered in auth_completed, once the signature is proven
        return True

    def _tell_wrong_key(self, username: str, key: asyncssh.SSHKey) -> None:
        """Say (once a connection) that the name is someone else's, so the player knows to
        use another key or another name rather than wonder why the key is refused."""
        if self.told_wrong_key or self.conn is None:
            return
        self.told_wrong_key = True
        how = "another key"
        if not self.state.accounts.keys(username):
            how = "a password" if self.state.options.allow_passwords else "a password (off here)"
        with contextlib.suppress(OSError):
            self.conn.send_auth_banner(
                f"mac-tui: '{username}' is registered to {how}: your key {fingerprint(key)} "
                "does not open it. Use the key that registered it, or choose another name.\r\n"
            )

    def password_auth_supported(self) -> bool:
        return self.state.options.allow_passwords

    async def validate_password(self, username: str, password: str) -> bool:
        if self.problem or self.refusal:
            return False
        self.method, self.key = "password", None
        if len(password) > MAX_PASSWORD:
            return False
        accounts = self.state.accounts
        loop = asyncio.get_running_loop()
        if accounts.registered(username):
            self.candidate_password = None
            ok = await loop.run_in_executor(None, accounts.password_opens, username, password)
            self.rejected = self.rejected or not ok
            return ok
        if len(password) < MIN_PASSWORD:
            return False
        self.candidate_password = await loop.run_in_executor(None, hash_password, password)
        return True

    def auth_completed(self) -> None:
        assert self.conn is not None
        name, accounts = self.username, self.state.accounts
        self.logged_in = True
        if name == WATCH:
            LOG.info("login: watch (spectator) from %s", self.peer)
            return
        how = f"key {fingerprint(self.key)}" if self.key is not None else self.method
        registering = (self.method == "publickey" and self.candidate_key is not None) or (
            self.method == "password" and self.candidate_password is not None
        )
        if registering and not accounts.registered(name):
            used_up = self._registrations_used_up()  # again: others may have registered since
            if used_up is not None:
                self._turn_away(f"refused {name} from {self.peer}: registration limit", used_up)
                return
        if self.method == "publickey" and self.candidate_key is not None:
            if accounts.register_key(name, self.candidate_key, self.peer):
                LOG.info("registered: new player %s from %s with %s", name, self.peer, how)
            elif not accounts.key_opens(name, self.candidate_key):
                self._taken()
                return
        elif self.method == "password" and self.candidate_password is not None:
            if accounts.register_password(name, self.candidate_password, self.peer):
                LOG.info("registered: new player %s from %s with a password", name, self.peer)
            else:
                self._taken()
                return
        LOG.info("login: %s from %s (%s)", name, self.peer, how)

    def _taken(self) -> None:
        self._turn_away(
            f"refused {self.username} from {self.peer}: registered by another login meanwhile",
            f"'{self.username}' was registered by another login just now; choose another name",
        )

    def _turn_away(self, log_line: str, message: str) -> None:
        """End a connection whose authentication succeeded but must not lead to a login."""
        assert self.conn is not None
        LOG.warning("%s", log_line)
        self.logged_in = False
        self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, f"mac-tui: {message}")

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        state = self.state
        if self.session_open:
            LOG.info(
                "refused %s from %s: a second session on one connection", self.username, self.peer
            )
            return False
        self.session_open = True
        if state.stopping:
            return RefusedSession("the server is shutting down; try again in a minute.")
        if self.username == WATCH:
            if state.spectators.full():
                LOG.warning(
                    "refused watch from %s: %d spectators (the limit)",
                    self.peer,
                    state.spectators.open,
                )
                return RefusedSession(
                    f"{plural(state.spectators.limit, 'spectator')} watching already (the "
                    "limit); try again later."
                )
            state.spectators.enter()
            watch = WatchSession(
                state.registry,
                state.headers,
                LOG.info,
                lambda: self._watch_closed(watch),
                self.peer,
                state.recording_index,
            )
            state.watchers.add(watch)
            return watch
        taking_over = self.username in state.registry.games
        if state.sessions.full() and not taking_over:
            LOG.warning(
                "refused %s from %s: %d players (the limit)",
                self.username,
                self.peer,
                state.sessions.open,
            )
            return RefusedSession(
                f"the server is full ({plural(state.sessions.limit, 'player')} at most); "
                "try again later."
            )
        state.sessions.enter()
        session = PlayerSession(state, self.username, self.peer)
        session.counted = True
        return session

    def _watch_closed(self, watch: WatchSession) -> None:
        self.state.watchers.discard(watch)
        self.state.spectators.leave()


# ---- running the server --------------------------------------------------------------------
def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's key: read it, or make an Ed25519 key (mode 0600) on the first start."""
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return load_host_key(path)  # another server made it first
        try:
            os.write(fd, key.export_private_key())
            os.fsync(fd)
        finally:
            os.close(fd)
        LOG.info("made a new host key: %s", path)
        return key
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        os.chmod(path, 0o600)
        LOG.warning("%s was readable by others (mode %o): now 0600", path, mode)
    return asyncssh.read_private_key(path)


def start_store(db: str | None, data: DataDir, command: str) -> Store | None:
    """The server's store, opened (migrated) with the data folder's file-based accounts
    imported on the first start; None, with the reason on stderr, when it cannot be used."""
    from .store.files import prepare

    try:
        store = open_store(db, data.root)
    except StoreError as exc:
        print(f"mac-tui {command}: {exc}", file=sys.stderr)
        return None
    try:
        prepare(store, data, LOG.info)
    except Exception as exc:
        store.close()
        print(f"mac-tui {command}: cannot import the data folder's players: {exc}", file=sys.stderr)
        return None
    return store


def start_pool(zygote: Zygote, size: int, data: DataDir, store: str) -> GamePool:
    """The games waiting for the next logins (`pool.py`), in `DATA/pool`: a folder of no
    player's, with no saves or settings in it."""
    folder = data.root / "pool"
    folder.mkdir(mode=0o700, exist_ok=True)
    env = game_env(
        home=folder,
        saves=folder / "saves",
        config=folder / "config.toml",
        scores=data.root,
        term=None,
    )
    pool = GamePool(zygote, size, env, folder, LOG.info)
    pool.start()
    return pool


async def index_saves(store: Store, data: DataDir) -> None:
    """Index the saves that changed while no game of a server reported them (a thread: a
    changed save is replayed to verify it)."""
    from .store.files import sync_saves

    try:
        changed = await asyncio.to_thread(sync_saves, store, data)
    except Exception as exc:
        LOG.warning("could not index the saves: %s", exc)
        return
    if changed:
        LOG.info("indexed %d save(s) changed since the last start", changed)


async def _idle_watch(state: ServerState) -> None:
    """Hang up idle games, let idle spectators go. A spectator's idle time is its own: the
    game it watches being busy does not keep it (or its place) for ever."""
    limit = state.options.idle_timeout
    watch_limit = state.options.spectator_idle_timeout
    period = max(0.2, min(5.0, limit / 4, watch_limit / 4))
    while True:
        await asyncio.sleep(period)
        for game in state.registry.live():
            if game.idle > limit and game.end_reason is None:
                LOG.info("idle: %s (no key for %s); hanging up", game.player, duration_text(limit))
                state.spawn(game.stop("idle"))
        now = time.monotonic()
        for watch in list(state.watchers):
            if watch.open and now - watch.last_key > watch_limit:
                shown_limit = duration_text(watch_limit)
                LOG.info("idle: a spectator from %s (no key for %s)", watch.peer, shown_limit)
                watch.close(
                    f"mac-tui: no key pressed for {shown_limit}: stopped watching. Goodbye!\r\n"
                )


async def run_server(options: SSHOptions) -> int:
    """Serve until SIGINT/SIGTERM (or cancelled); on the way out hang up every game."""
    data = DataDir((options.data or default_data_dir()).expanduser().resolve())
    try:
        data.make()
        setup_logging(options.log or data.log)
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
        key = load_host_key(data.host_key)
    except (OSError, asyncssh.KeyImportError) as exc:
        print(f"mac-tui serve ssh: cannot use the data folder {data.root}: {exc}", file=sys.stderr)
        return 2
    store = start_store(options.db, data, "serve ssh")
    if store is None:
        return 2
    state = ServerState(options, data, store)
    if options.warm_start and SUPPORTED:
        state.zygote = Zygote(LOG.info, clones=True)
        await state.zygote.start()
        if options.pool > 0:
            state.pool = start_pool(state.zygote, options.pool, data, state.store_url)
    try:
        acceptor = await asyncssh.create_server(
            lambda: MacSSHServer(state),
            options.host,
            options.port,
            server_host_keys=[key],
            server_version=f"mac-tui_{__version__}",
            encoding=None,
            allow_pty=True,
            x11_forwarding=False,
            agent_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            host_based_auth=False,
            password_auth=options.allow_passwords,
            kbdint_auth=options.allow_passwords,
            gss_host=None,
            login_timeout=30,
            keepalive_interval=30,
            keepalive_count_max=4,
        )
    except OSError as exc:
        hint = ""
        if options.port < 1024 and isinstance(exc, PermissionError):
            hint = " (ports below 1024 need root or CAP_NET_BIND_SERVICE: see docs/hosting.md)"
        print(
            f"mac-tui serve ssh: cannot listen on {options.host}:{options.port}: "
            f"{exc.strerror or exc}{hint}",
            file=sys.stderr,
        )
        if state.zygote is not None:
            await state.zygote.close()
        store.close()
        return 2
    port = acceptor.get_port()
    LOG.info(
        "listening on %s:%d (data %s, host key %s, passwords %s, idle timeout %s, "
        "max players %d, max spectators %d (idle timeout %s), %d connections/min and "
        "%d new names/day per address, store %s)",
        options.host,
        port,
        data.root,
        key.get_fingerprint("sha256"),
        "allowed" if options.allow_passwords else "off",
        duration_text(options.idle_timeout),
        options.max_sessions,
        options.max_spectators,
        duration_text(options.spectator_idle_timeout),
        options.rate_limit,
        options.max_registrations,
        store.where,
    )
    print(f"mac-tui: SSH server listening on {options.host}:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Only the main thread of a platform with Unix signals can take them; elsewhere (the
        # server run from another program's thread) its owner stops it by cancelling the task.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    idle = asyncio.ensure_future(_idle_watch(state))
    sweep = asyncio.ensure_future(state.recordings.sweep())
    leases = asyncio.ensure_future(state.leases.keep(state.leases_lost))
    state.spawn(index_saves(store, data))
    try:
        await stop.wait()
    finally:
        idle.cancel()
        sweep.cancel()
        leases.cancel()
        await shutdown(state, acceptor)
        store.close()
    return 0


async def shutdown(state: ServerState, acceptor: asyncssh.SSHAcceptor) -> None:
    LOG.info("shutting down: hanging up %d game(s)", len(state.registry.live()))
    state.stopping = True
    acceptor.close()
    games = state.registry.live()
    await asyncio.gather(*(g.stop("shutdown") for g in games), return_exceptions=True)
    for watch in list(state.watchers):
        watch.close("mac-tui: the server is shutting down. Goodbye!\r\n")
    await asyncio.sleep(0.1)  # let the goodbyes go out
    for conn in list(state.connections):
        conn.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(acceptor.wait_closed(), 5)
    if state.pool is not None:
        await state.pool.close()
    if state.zygote is not None:
        await state.zygote.close()
    LOG.info("stopped")


def serve_ssh(options: SSHOptions) -> int:
    """The `mac-tui serve ssh` command."""
    try:
        return asyncio.run(run_server(options))
    except KeyboardInterrupt:
        return 0
