"""The store's interface and its SQL, shared by both back ends (`sqlite`, `postgres`).

One `Store` holds what every node of a server shares, apart from the save files themselves:

- **players**: a name (unique, and unique without regard to case), its password hash (or
  none), when and from where it was registered; **player_keys**: the public keys that open a
  name (the key blob and its OpenSSH line);
- **registrations**: when each client address (`limits.client_key`) registered a name, for the
  per-address daily cap (shared by every node and kept across restarts);
- **saves**: the index of saves: one row per save file (player, the file relative to the data
  folder, its size and mtime, its header) with the verified figures of a campaign (or why the
  file gives none). The high scores are read from here;
- **game_leases**: one row per player whose game runs: which server holds it, until when. A
  server renews its leases every `LEASE_RENEW` seconds; a lease not renewed for
  `LEASE_SECONDS` (the server crashed, or lost the database) is free for any other;
- **meta** (key/value: the data folders imported) and **schema_version** (the migrations run).

Every method is synchronous and short (one transaction). One connection per `Store`, guarded
by a lock, so the server's event loop and its executor threads may share it. Times are the
database's own clock (`now_sql`), so nodes with clocks apart still agree on a lease's expiry.
A back end differs only in how it connects, its placeholders, and a few words of SQL
(`Dialect`); the schema's migrations are in `MIGRATIONS`.
"""

from __future__ import annotations

import abc
import contextlib
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from attrs import frozen

T = TypeVar("T")

LEASE_SECONDS = 60.0  # a game's lease lasts this long unless renewed
LEASE_RENEW = 15.0  # a server renews its leases this often
DAY = 24 * 3600.0


class StoreError(Exception):
    """The store cannot be used (cannot connect, a schema newer than this mac-tui, ...)."""


@frozen
class Dialect:
    name: str  # "sqlite" or "postgresql"
    blob: str  # the type of a byte string
    real: str  # a floating-point number
    bigint: str  # a 64-bit integer
    now_sql: str  # the database's clock, in seconds since the epoch (a float)


# ---- the schema ------------------------------------------------------------------------------
# Each migration takes the schema from version N-1 to N; written once, with the dialect's type
# names filled in. Never edit a released migration: add the next one.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE players (
                name TEXT PRIMARY KEY,
                folded TEXT NOT NULL UNIQUE,
                password TEXT,
                registered_at {real} NOT NULL,
                registered_from TEXT NOT NULL DEFAULT ''
            )""",
            """CREATE TABLE player_keys (
                name TEXT NOT NULL REFERENCES players(name) ON DELETE CASCADE,
                blob {blob} NOT NULL,
                line TEXT NOT NULL,
                PRIMARY KEY (name, blob)
            )""",
            """CREATE TABLE registrations (
                client TEXT NOT NULL,
                at {real} NOT NULL
            )""",
            "CREATE INDEX registrations_by_client ON registrations (client, at)",
            """CREATE TABLE saves (
                player TEXT NOT NULL,
                file TEXT NOT NULL,
                size {bigint} NOT NULL,
                mtime_ns {bigint} NOT NULL,
                header TEXT NOT NULL,
                figures TEXT,
                ended_at TEXT NOT NULL DEFAULT '',
                cause TEXT NOT NULL DEFAULT '',
                problem TEXT NOT NULL DEFAULT '',
                updated {real} NOT NULL,
                PRIMARY KEY (player, file)
            )""",
            """CREATE TABLE game_leases (
                player TEXT PRIMARY KEY,
                holder TEXT NOT NULL,
                place TEXT NOT NULL,
                started {real} NOT NULL,
                expires {real} NOT NULL
            )""",
            "CREATE INDEX game_leases_by_holder ON game_leases (holder)",
            """CREATE TABLE meta (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            )""",
        ),
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]


# ---- what the store keeps --------------------------------------------------------------------
@frozen
class Account:
    name: str
    password: str | None  # the scrypt hash, or None (a name opened by keys only)
    keys: tuple[bytes, ...]  # the public key blobs that open it


@frozen
class SaveRow:
    """One save file in the index (see the module)."""

    player: str
    file: str  # relative to the data folder: "players/alice/saves/iron-wolves-7.json"
    size: int
    mtime_ns: int
    header: dict[str, Any]
    figures: dict[str, Any] | None  # `scores.Figures.to_json()`, None: no score (see problem)
    ended_at: str = ""  # from the debrief file, when there is one
    cause: str = ""  # from the debrief file, else the state's cause
    problem: str = ""  # why the file gives no score ("" for a quick battle or a campaign)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


class Store(abc.ABC):
    """The shared store (see the module). Subclasses connect (`_connect`) and name their
    `dialect` and `placeholder`."""

    dialect: Dialect
    placeholder = "?"

    def __init__(self, where: str) -> None:
        self.where = where  # for the log: the file or the server, never a password
        self._lock = threading.RLock()
        self._conn: Any = None
        with self._lock:
            self._conn = self._connect()
            self._migrate()

    # ---- the connection ---------------------------------------------------------------------
    @abc.abstractmethod
    def _connect(self) -> Any:
        """A new connection to the database."""

    @abc.abstractmethod
    def _begin(self, conn: Any) -> contextlib.AbstractContextManager[Any]:
        """A write transaction on `conn` (taking the database's write lock at once)."""

    def _retryable(self, exc: Exception) -> bool:
        """Whether `exc` means the connection broke (and a new one may do)."""
        return False

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _sql(self, text: str) -> str:
        text = text.replace("{now}", self.dialect.now_sql)
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _run(self, work: Callable[[Any], T], write: bool = False) -> T:
        """`work(conn)` in one transaction; once more on a new connection if it broke."""
        with self._lock:
            for attempt in (1, 2):
                if self._conn is None:
                    self._conn = self._connect()
                try:
                    with self._begin(self._conn) if write else contextlib.nullcontext():
                        return work(self._conn)
                except Exception as exc:
                    if attempt == 2 or not self._retryable(exc):
                        raise
                    with contextlib.suppress(Exception):
                        self._conn.close()
                    self._conn = None
            raise AssertionError("unreachable")

    def _all(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in conn.execute(self._sql(sql), tuple(params)).fetchall()]

    def _one(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self._all(conn, sql, params)
        return rows[0] if rows else None

    def _do(self, conn: Any, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""
        cursor = conn.execute(self._sql(sql), tuple(params))
        return int(cursor.rowcount or 0)

    # ---- migrations -------------------------------------------------------------------------
    def _migrate(self) -> None:
        def work(conn: Any) -> None:
            self._lock_schema(conn)
            self._do(conn, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._one(conn, "SELECT max(version) FROM schema_version")
            have = int(row[0]) if row and row[0] is not None else 0
            if have > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.where}: the store's schema is version {have}, newer than this "
                    f"mac-tui knows ({SCHEMA_VERSION}): upgrade mac-tui on this server"
                )
            d = self.dialect
            for version, statements in MIGRATIONS:
                if version <= have:
                    continue
                for statement in statements:
                    self._do(conn, statement.format(blob=d.blob, real=d.real, bigint=d.bigint))
                self._do(conn, "INSERT INTO schema_version (version) VALUES (?)", (version,))

        self._run(work, write=True)

    def _lock_schema(self, conn: Any) -> None:
        """Hold off other nodes migrating at the same moment (the write lock does on SQLite)."""
        return None  # SQLite: nothing more to take

    def schema_version(self) -> int:
        row = self._run(lambda c: self._one(c, "SELECT max(version) FROM schema_version"))
        return int(row[0]) if row and row[0] is not None else 0

    def now(self) -> float:
        """The database's clock."""
        row = self._run(lambda c: self._one(c, "SELECT {now}"))
        assert row is not None
        return float(row[0])

    # ---- meta -------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self._run(lambda c: self._one(c, "SELECT value FROM meta WHERE key = ?", (key,)))
        return None if row is None else str(row[0])

    def claim_meta(self, key: str, value: str) -> bool:
        """Set `key` if it is not set; True for the one caller that set it."""
        sql = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"
        return self._run(lambda c: self._do(c, sql, (key, value)) == 1, write=True)

    # ---- accounts ---------------------------------------------------------------------------
    def account(self, name: str) -> Account | None:
        def work(conn: Any) -> Account | None:
            row = self._one(conn, "SELECT password FROM players WHERE name = ?", (name,))
            if row is None:
                return None
            keys = self._all(
                conn, "SELECT blob FROM player_keys WHERE name = ? ORDER BY line", (name,)
            )
            return Account(name, row[0], tuple(bytes(k[0]) for k in keys))

        return self._run(work)

    def clash(self, name: str) -> str | None:
        """A registered name that differs from `name` only in case."""
        row = self._run(
            lambda c: self._one(
                c,
                "SELECT name FROM players WHERE folded = ? AND name <> ?",
                (name.casefold(), name),
            )
        )
        return None if row is None else str(row[0])

    def register(
        self,
        name: str,
        *,
        password: str | None = None,
        key: tuple[bytes, str] | None = None,
        peer: str = "",
        client: str | None = None,
        at: float | None = None,
    ) -> bool:
        """Register a free name with a password hash or a key (blob, OpenSSH line), counting
        the registration for `client`; False (and nothing changed) when the name, or one like
        it in another case, is registered already."""

        def work(conn: Any) -> bool:
            when = at if at is not None else self._one(conn, "SELECT {now}")[0]  # type: ignore[index]
            inserted = self._do(
                conn,
                "INSERT INTO players (name, folded, password, registered_at, registered_from) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (name, name.casefold(), password, when, peer),
            )
            if inserted != 1:
                return False
            if key is not None:
                self._add_key(conn, name, *key)
            if client is not None:
                self._do(conn, "DELETE FROM registrations WHERE at < ?", (when - DAY,))
                self._do(
                    conn, "INSERT INTO registrations (client, at) VALUES (?, ?)", (client, when)
                )
            return True

        return self._run(work, write=True)

    def _add_key(self, conn: Any, name: str, blob: bytes, line: str) -> bool:
        return (
            self._do(
                conn,
                "INSERT INTO player_keys (name, blob, line) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (name, blob, line),
            )
            == 1
        )

    def add_key(self, name: str, blob: bytes, line: str) -> bool:
        """Another key for a registered name; False when the name is not registered or the
        key opens it already."""

        def work(conn: Any) -> bool:
            if self._one(conn, "SELECT 1 FROM players WHERE name = ?", (name,)) is None:
                return False
            return self._add_key(conn, name, blob, line)

        return self._run(work, write=True)

    def key_lines(self, name: str) -> list[str]:
        sql = "SELECT line FROM player_keys WHERE name = ? ORDER BY line"
        return [str(r[0]) for r in self._run(lambda c: self._all(c, sql, (name,)))]

    def player_names(self) -> list[str]:
        return [str(r[0]) for r in self._run(lambda c: self._all(c, "SELECT name FROM players"))]

    def registrations(self, client: str, within: float = DAY) -> list[float]:
        """When `client` registered names in the last `within` seconds (oldest first)."""
        sql = "SELECT at FROM registrations WHERE client = ? AND at > {now} - ? ORDER BY at"
        return [float(r[0]) for r in self._run(lambda c: self._all(c, sql, (client, within)))]

    # ---- the index of saves -----------------------------------------------------------------
    def record_save(self, row: SaveRow) -> None:
        """Put a save's row in the index; an older version of the file (by mtime) than the
        one there already changes nothing (a rescan racing a game's own report)."""
        sql = (
            "INSERT INTO saves (player, file, size, mtime_ns, header, figures, ended_at, cause, "
            "problem, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, {now}) "
            "ON CONFLICT (player, file) DO UPDATE SET size = excluded.size, "
            "mtime_ns = excluded.mtime_ns, header = excluded.header, "
            "figures = excluded.figures, ended_at = excluded.ended_at, cause = excluded.cause, "
            "problem = excluded.problem, updated = excluded.updated "
            "WHERE excluded.mtime_ns >= saves.mtime_ns"
        )
        params = (
            row.player,
            row.file,
            row.size,
            row.mtime_ns,
            _json(row.header),
            None if row.figures is None else _json(row.figures),
            row.ended_at,
            row.cause,
            row.problem,
        )
        self._run(lambda c: self._do(c, sql, params), write=True)

    def forget_save(self, player: str, file: str) -> None:
        sql = "DELETE FROM saves WHERE player = ? AND file = ?"
        self._run(lambda c: self._do(c, sql, (player, file)), write=True)

    def saves(self, player: str | None = None) -> list[SaveRow]:
        """The index (of one player, or everyone's), by player and file."""
        sql = (
            "SELECT player, file, size, mtime_ns, header, figures, ended_at, cause, problem "
            "FROM saves"
        )
        params: tuple[Any, ...] = ()
        if player is not None:
            sql += " WHERE player = ?"
            params = (player,)
        rows = self._run(lambda c: self._all(c, sql + " ORDER BY player, file", params))
        return [
            SaveRow(
                player=str(r[0]),
                file=str(r[1]),
                size=int(r[2]),
                mtime_ns=int(r[3]),
                header=json.loads(r[4]),
                figures=None if r[5] is None else json.loads(r[5]),
                ended_at=str(r[6]),
                cause=str(r[7]),
                problem=str(r[8]),
            )
            for r in rows
        ]

    # ---- one game per player ----------------------------------------------------------------
    def take_lease(
        self, player: str, holder: str, place: str, seconds: float = LEASE_SECONDS
    ) -> str | None:
        """Take `player`'s game lease for `holder` (a server process) for `seconds`: None
        when it is `holder`'s now; else where the game runs (the holder's `place`). A lease
        past its expiry is anybody's."""
        take = (
            "INSERT INTO game_leases (player, holder, place, started, expires) "
            "VALUES (?, ?, ?, {now}, {now} + ?) "
            "ON CONFLICT (player) DO UPDATE SET holder = excluded.holder, "
            "place = excluded.place, started = excluded.started, expires = excluded.expires "
            "WHERE game_leases.expires < {now} OR game_leases.holder = excluded.holder"
        )

        def work(conn: Any) -> str | None:
            if self._do(conn, take, (player, holder, place, seconds)) == 1:
                return None
            row = self._one(conn, "SELECT place FROM game_leases WHERE player = ?", (player,))
            return "another server" if row is None else str(row[0])

        return self._run(work, write=True)

    def renew_leases(self, holder: str, seconds: float = LEASE_SECONDS) -> set[str]:
        """Renew every lease `holder` has; the players whose lease it still has."""

        def work(conn: Any) -> set[str]:
            self._do(
                conn,
                "UPDATE game_leases SET expires = {now} + ? WHERE holder = ?",
                (seconds, holder),
            )
            rows = self._all(conn, "SELECT player FROM game_leases WHERE holder = ?", (holder,))
            return {str(r[0]) for r in rows}

        return self._run(work, write=True)

    def release_lease(self, player: str, holder: str) -> None:
        sql = "DELETE FROM game_leases WHERE player = ? AND holder = ?"
        self._run(lambda c: self._do(c, sql, (player, holder)), write=True)

    def leases(self) -> dict[str, str]:
        """The players whose game runs somewhere now, and where."""
        sql = "SELECT player, place FROM game_leases WHERE expires >= {now}"
        return {str(r[0]): str(r[1]) for r in self._run(lambda c: self._all(c, sql))}


@contextlib.contextmanager
def transaction(conn: Any, begin: str, commit: str = "COMMIT") -> Iterator[Any]:
    """`begin`, then `commit` (or ROLLBACK on an error), on a connection in autocommit mode."""
    conn.execute(begin)
    try:
        yield conn
    except BaseException:
        with contextlib.suppress(Exception):
            conn.execute("ROLLBACK")
        raise
    conn.execute(commit)
