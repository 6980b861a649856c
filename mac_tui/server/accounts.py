"""The server's players: names, the keys (or passwords) that open them, their folders.

One set of players for both front doors (`serve ssh` and `serve web` on one data folder). A
name is 1-32 letters, digits, `-` or `_` (the SSH username, or the web login's name), not a
reserved word, and not a registered name in another case (`Alice` when `alice` exists). The
first login that proves a key, or gives a password of 8-256 characters (on the web, or over
SSH when the operator allows passwords), registers a free name; later only those keys (or that
password) open it. More keys can be added by the operator (`mac-tui serve keys NAME --add`).

Passwords are stored as `scrypt$N$r$p$salt$hash` (base64) and compared in constant time.
The players, their keys and password hashes are in the server's store (`store`: SQLite in the
data folder, or PostgreSQL shared by several servers); each player's files (saves, settings)
are in `DATA/players/<name>/`. Everything here is synchronous (one short transaction of the
store) and runs on the server's event loop; registering a name is one transaction, so no other
login, of this server or of another sharing the store, can interleave with it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING

from attrs import frozen

from .limits import DAY, client_key

if TYPE_CHECKING:
    import asyncssh  # the keys' type only: `serve scores` runs without the server extra

    from .store import Store

NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")
WATCH = "watch"
RESERVED = frozenset(
    {
        WATCH,
        "root",
        "admin",
        "administrator",
        "daemon",
        "nobody",
        "operator",
        "sysadmin",
        "system",
        "server",
        "mac-tui",
    }
)
MIN_PASSWORD = 8
MAX_PASSWORD = 256  # longer ones are refused before any hashing
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


def shown(text: str, limit: int = 40) -> str:
    """A client-given string made safe for a log line or a message (no control characters)."""
    clean = "".join(ch if ch.isprintable() and ch.isascii() else "?" for ch in text[:limit])
    return clean + ("..." if len(text) > limit else "")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None."""
    if not NAME_RE.fullmatch(name):
        return (
            f"'{shown(name)}' is not a player name: use 1-32 letters, digits, '-' or '_' "
            "(no dots, spaces or other signs)"
        )
    if name.casefold() in RESERVED:
        return f"'{name}' is reserved: choose another player name"
    return None


@frozen
class PlayerFiles:
    root: Path

    @property
    def saves(self) -> Path:
        return self.root / "saves"

    @property
    def config(self) -> Path:
        return self.root / "config.toml"

    @property
    def authorized_keys(self) -> Path:
        """Versions before the store kept the keys here (`store.files` imports them)."""
        return self.root / "authorized_keys"

    @property
    def password(self) -> Path:
        """Versions before the store kept the password hash here (imported likewise)."""
        return self.root / "password"

    @property
    def lock(self) -> Path:
        """Held while the player's game runs, by whichever server runs it (`PlayerLock`)."""
        return self.root / "game.lock"


@frozen
class DataDir:
    """The server's data folder (see `mac_tui.server`)."""

    root: Path

    @property
    def players(self) -> Path:
        return self.root / "players"

    @property
    def host_key(self) -> Path:
        return self.root / "host_key"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def player(self, name: str) -> PlayerFiles:
        return PlayerFiles(self.players / name)

    def make(self) -> None:
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.players.mkdir(mode=0o700, exist_ok=True)


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(
        password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    b64 = base64.b64encode
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def password_matches(stored: str, password: str) -> bool:
    """Whether `password` hashes to `stored`; a malformed `stored` matches nothing."""
    try:
        kind, n, r, p, salt, digest = stored.strip().split("$")
        if kind != "scrypt":
            return False
        want = base64.b64decode(digest, validate=True)
        got = hashlib.scrypt(
            password.encode(),
            salt=base64.b64decode(salt, validate=True),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(want),
            maxmem=2**26,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


def key_line(key: asyncssh.SSHKey, comment: str) -> str:
    blob = base64.b64encode(key.public_data).decode()
    return f"{key.get_algorithm()} {blob} {comment}"


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


class Accounts:
    """Who may open which name: the store's players (`store`), and their folders in the data
    folder. `problems` collects notes for the log (kept for the servers' `note_problems`)."""

    def __init__(self, data: DataDir, store: Store) -> None:
        self.data = data
        self.store = store
        self.problems: list[str] = []

    # ---- reading ------------------------------------------------------------------------
    def keys(self, name: str) -> list[bytes]:
        """The public key blobs registered for `name`."""
        account = self.store.account(name)
        return [] if account is None else list(account.keys)

    def password_hash(self, name: str) -> str | None:
        account = self.store.account(name)
        return None if account is None else account.password

    def registered(self, name: str) -> bool:
        """A name is registered once a key or a password opens it."""
        return self.store.account(name) is not None

    def clash(self, name: str) -> str | None:
        """A registered name that differs from `name` only in case, if any."""
        return self.store.clash(name)

    def key_opens(self, name: str, key: asyncssh.SSHKey) -> bool:
        return key.public_data in self.keys(name)

    def password_opens(self, name: str, password: str) -> bool:
        """Blocking (scrypt): run it in an executor."""
        stored = self.password_hash(name)
        return stored is not None and password_matches(stored, password)

    # ---- registering --------------------------------------------------------------------
    def prepare(self, name: str) -> PlayerFiles:
        """The player's folders, made if missing."""
        files = self.data.player(name)
        files.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        files.saves.mkdir(mode=0o700, exist_ok=True)
        return files

    def register_key(self, name: str, key: asyncssh.SSHKey, peer: str) -> bool:
        """Register `name` with `key` (counted against `peer`'s registrations of the day);
        False when it is registered (or clashes) already. One transaction of the store, so no
        other login, of this server or another, can interleave."""
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = key_line(key, f"{name} registered {when} from {peer}")
        return self._registered(
            self.store.register(
                name, key=(key.public_data, line), peer=peer, client=client_key(peer)
            ),
            name,
        )

    def register_password(self, name: str, digest: str, peer: str) -> bool:
        """Register `name` with a password hash (`hash_password`); False when taken."""
        return self._registered(
            self.store.register(name, password=digest, peer=peer, client=client_key(peer)), name
        )

    def _registered(self, done: bool, name: str) -> bool:
        if done:
            self.prepare(name)
        return done


class StoredRegistrations:
    """New names per client address per day, counted in the store (so every server of the
    store, and every restart, counts them together); the limit part of `limits.RateLimiter`'s
    interface that `limits.registrations_used_up` uses. A registration is counted by
    `Accounts.register_*` in the same transaction as the name itself."""

    def __init__(self, store: Store, per_window: int, window: float = DAY) -> None:
        self.store = store
        self.per_window = per_window
        self.window = window

    def full(self, address: str) -> bool:
        if self.per_window <= 0:
            return False
        return len(self.store.registrations(address, self.window)) >= self.per_window

    def retry_after(self, address: str) -> float:
        times = self.store.registrations(address, self.window)
        if self.per_window <= 0 or len(times) < self.per_window:
            return 0.0
        return max(0.0, times[0] + self.window - self.store.now())
