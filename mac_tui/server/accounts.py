"""The server's players: names, the keys (or passwords) that open them, their folders.

One set of players for both front doors (`serve ssh` and `serve web` on one data folder). A
name is 1-32 letters, digits, `-` or `_` (the SSH username, or the web login's name), not a
reserved word, and not a registered name in another case (`Alice` when `alice` exists). The
first login that proves a key, or gives a password of 8-256 characters (on the web, or over
SSH when the operator allows passwords), registers a free name; later only those keys (or that
password) open it. More keys can be added by the operator: one per line in
`DATA/players/<name>/authorized_keys`, OpenSSH's format.

Passwords are stored as `scrypt$N$r$p$salt$hash` (base64) and compared in constant time.
Everything here is synchronous and runs on the server's event loop, so checking a name is free
and registering it is one step that no other login can interleave with, of this server or of
another on the same data folder (an exclusive lock on `DATA/players.lock` for that moment).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncssh
from attrs import frozen

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
        return self.root / "authorized_keys"

    @property
    def password(self) -> Path:
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


def _write_private(path: Path, text: str) -> None:
    """Write atomically (temp file, fsync, rename), readable by the owner only."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


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
    """Who may open which name. `problems` collects notes about unreadable account files."""

    def __init__(self, data: DataDir) -> None:
        self.data = data
        self.problems: list[str] = []

    # ---- reading ------------------------------------------------------------------------
    def keys(self, name: str) -> list[bytes]:
        """The public key blobs registered for `name` (bad lines are skipped, with a note)."""
        path = self.data.player(name).authorized_keys
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            self.problems.append(f"{path}: cannot be read ({exc})")
            return []
        blobs = []
        for i, line in enumerate(text.splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                blobs.append(asyncssh.import_public_key(line).public_data)
            except (asyncssh.KeyImportError, ValueError) as exc:
                self.problems.append(f"{path}, line {i}: not a public key ({exc})")
        return blobs

    def password_hash(self, name: str) -> str | None:
        path = self.data.player(name).password
        try:
            return path.read_text("utf-8").strip() or None
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            self.problems.append(f"{path}: cannot be read ({exc})")
            return None

    def registered(self, name: str) -> bool:
        """A name is registered once a key or a password opens it."""
        return bool(self.keys(name)) or self.password_hash(name) is not None

    def clash(self, name: str) -> str | None:
        """A registered name that differs from `name` only in case, if any."""
        try:
            entries = list(self.data.players.iterdir())
        except OSError:
            return None
        for entry in entries:
            other = entry.name
            if other != name and other.casefold() == name.casefold() and self.registered(other):
                return other
        return None

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

    @contextlib.contextmanager
    def _registering(self) -> Iterator[None]:
        """Registration as one step across processes too (`serve ssh` and `serve web` on one
        data folder): under an exclusive lock on `DATA/players.lock`, held for a moment."""
        fd = os.open(self.data.root / "players.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _register(self, name: str, file: Callable[[PlayerFiles], Path], line: str) -> bool:
        with self._registering():
            if self.registered(name) or self.clash(name):
                return False
            _write_private(file(self.prepare(name)), line + "\n")
        return True

    def register_key(self, name: str, key: asyncssh.SSHKey, peer: str) -> bool:
        """Register `name` with `key`; False when it is registered (or clashes) already."""
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = key_line(key, f"{name} registered {when} from {peer}")
        return self._register(name, lambda files: files.authorized_keys, line)

    def register_password(self, name: str, digest: str) -> bool:
        """Register `name` with a password hash (`hash_password`); False when taken."""
        return self._register(name, lambda files: files.password, digest)
