"""Who a web visitor is: a player name and password on the login page, then a signed cookie.

Web players are the server's players (`accounts`): one set of names in the server's store,
shared with `serve ssh` on the same data folder (or store), each with their own saves. The
login page's first use of a free name registers it with the password given (8-256 characters;
the server keeps a salted scrypt hash, as for SSH passwords); later only that password opens
it. A name registered with an SSH key has no password and is played over SSH.

After a login the browser holds a cookie `mac_tui_session` = `v1.NAME.EXPIRES.MAC`, where MAC
is HMAC-SHA256, under the server's secret `DATA/web/secret` (32 random bytes, made on the first
start, mode 0600), of the name, the expiry (30 days on) and a digest of the player's stored
password hash. So the cookie cannot be made or altered without the secret, and it stops working
when it expires, when the secret is replaced (every cookie at once), or when the player's
stored password hash changes. The cookie is HttpOnly and SameSite=Lax (Secure over https).

Everything a visitor sends is bounded: the form (4 KiB), the name (the SSH rules: 1-32 letters,
digits, `-`, `_`), the password (256 characters); logins per address per minute and new names
per address per day are capped (`limits`), and at most two passwords are hashed at once.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from attrs import frozen

from . import LOG
from .accounts import MAX_PASSWORD, MIN_PASSWORD, Accounts, hash_password, name_problem
from .limits import DailyCap, RateLimiter, client_key, registrations_used_up

COOKIE = "mac_tui_session"
SESSION_SECONDS = 30 * 24 * 3600
SECRET_BYTES = 32
MAX_FORM = 4096  # bytes of a login form
HASHING_AT_ONCE = 2  # scrypt takes 16 MiB and tens of ms each
HASHING_QUEUE = 16  # logins waiting for a hash beyond this are told to come back
TOKEN_VERSION = "v1"
T = TypeVar("T")


def load_secret(path: Path) -> bytes:
    """The web server's signing key: read it, or make it (mode 0600) on the first start."""
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return load_secret(path)  # another server made it first
        try:
            os.write(fd, secrets.token_hex(SECRET_BYTES).encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        LOG.info("made a new web secret: %s", path)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        os.chmod(path, 0o600)
        LOG.warning("%s was readable by others (mode %o): now 0600", path, mode)
    text = path.read_text("ascii").strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) < SECRET_BYTES:
        raise ValueError(f"{path}: not a secret of {SECRET_BYTES} bytes in hex; delete it")
    return secret


class Sessions:
    """Signed cookies naming a player (see the module)."""

    def __init__(
        self, secret: bytes, accounts: Accounts, clock: Callable[[], float] = time.time
    ) -> None:
        self.secret = secret
        self.accounts = accounts
        self.clock = clock

    def _mac(self, name: str, expires: int, stored: str) -> str:
        pinned = hashlib.sha256(stored.encode()).hexdigest()
        message = f"{TOKEN_VERSION}|{name}|{expires}|{pinned}".encode()
        digest = hmac.new(self.secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def issue(self, name: str) -> str | None:
        """A cookie value for `name` (None if the name has no password)."""
        stored = self.accounts.password_hash(name)
        if stored is None:
            return None
        expires = int(self.clock()) + SESSION_SECONDS
        return f"{TOKEN_VERSION}.{name}.{expires}.{self._mac(name, expires, stored)}"

    def player(self, token: str | None) -> str | None:
        """The player a cookie value names, if it is valid now."""
        if not token or len(token) > 200:
            return None
        parts = token.split(".")
        if len(parts) != 4 or parts[0] != TOKEN_VERSION or name_problem(parts[1]) is not None:
            return None
        _, name, expires_text, mac = parts
        if not expires_text.isdigit() or len(expires_text) > 12:
            return None
        expires = int(expires_text)
        if expires < self.clock():
            return None
        stored = self.accounts.password_hash(name)
        if stored is None:
            return None
        if not hmac.compare_digest(mac.encode(), self._mac(name, expires, stored).encode()):
            return None
        return name


@frozen
class LoginResult:
    player: str | None  # who is logged in, or None (then `problem` says why)
    problem: str = ""
    status: int = 200  # the HTTP status of a refusal
    registered: bool = False


class Logins:
    """The login form's checks: limits, names, passwords, registration."""

    def __init__(self, accounts: Accounts, rate_limit: int, registrations: DailyCap) -> None:
        self.accounts = accounts
        self.attempts = RateLimiter(rate_limit)
        self.registrations = registrations
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._queued = 0

    async def _hash(self, work: Callable[[], T]) -> T:
        if self._queued >= HASHING_QUEUE:
            raise OverflowError
        self._queued += 1
        try:
            async with self._hashing:
                return await asyncio.get_running_loop().run_in_executor(None, work)
        finally:
            self._queued -= 1

    async def login(self, name: str, password: str, peer: str) -> LoginResult:
        key = client_key(peer)
        if not self.attempts.allow(key):
            wait = int(self.attempts.retry_after(key)) + 1
            return LoginResult(None, f"Too many logins from {peer}: try again in {wait} s.", 429)
        problem = name_problem(name)
        if problem is not None:
            return LoginResult(None, problem[0].upper() + problem[1:] + ".", 400)
        if len(password) > MAX_PASSWORD:
            return LoginResult(None, f"A password has at most {MAX_PASSWORD} characters.", 400)
        accounts = self.accounts
        try:
            if accounts.registered(name):
                return await self._open(name, password)
            return await self._register(name, password, peer)
        except OverflowError:
            return LoginResult(None, "The server is busy: try again in a moment.", 503)

    async def _open(self, name: str, password: str) -> LoginResult:
        if self.accounts.password_hash(name) is None:
            return LoginResult(
                None,
                f"'{name}' is registered to an SSH key: play it over SSH "
                f"(ssh -t {name}@this server), or choose another name.",
                403,
            )
        if await self._hash(lambda: self.accounts.password_opens(name, password)):
            return LoginResult(name)
        return LoginResult(None, f"Wrong password for '{name}' (the name is registered).", 403)

    async def _register(self, name: str, password: str, peer: str) -> LoginResult:
        other = self.accounts.clash(name)
        if other:
            return LoginResult(
                None, f"'{name}' is too like the player '{other}': choose another name.", 403
            )
        used_up = registrations_used_up(self.registrations, peer)
        if used_up is not None:
            return LoginResult(None, used_up[0].upper() + used_up[1:] + ".", 429)
        if len(password) < MIN_PASSWORD:
            return LoginResult(
                None,
                f"'{name}' is a new name: register it with a password of {MIN_PASSWORD} or "
                "more characters.",
                400,
            )
        digest = await self._hash(lambda: hash_password(password))
        used_up = registrations_used_up(self.registrations, peer)  # again, after the wait
        if used_up is not None:
            return LoginResult(None, used_up[0].upper() + used_up[1:] + ".", 429)
        if not self.accounts.register_password(name, digest, peer):
            return LoginResult(
                None, f"'{name}' was registered by someone else just now: choose another.", 403
            )
        return LoginResult(name, registered=True)
