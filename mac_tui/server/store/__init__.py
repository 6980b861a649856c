"""The server's store: accounts, registration counts, the index of saves with their verified
scores, and the one-game-per-player leases, shared by every server of a host (SQLite, the
default) or of several hosts (PostgreSQL, `--db postgresql://...`). See `base` for what it
keeps, `files` for what comes from (and stays in) the data folder, `report` for how a game
reports its saves.

`open_store(db, data)`: `db` None (or "") is `DATA/store.db`; `sqlite:///PATH` another SQLite
file (`sqlite:////abs/path.db`: an absolute path, as SQLAlchemy writes it); `postgresql://...`
(or `postgres://...`) a PostgreSQL server. The games a server starts get the same in
`$MAC_TUI_STORE` (and their player's name in `$MAC_TUI_PLAYER`).
"""

from __future__ import annotations

from pathlib import Path

from .base import LEASE_RENEW, LEASE_SECONDS, Account, SaveRow, Store, StoreError

STORE_ENV = "MAC_TUI_STORE"
PLAYER_ENV = "MAC_TUI_PLAYER"
SQLITE_NAME = "store.db"

__all__ = [
    "LEASE_RENEW",
    "LEASE_SECONDS",
    "PLAYER_ENV",
    "STORE_ENV",
    "Account",
    "SaveRow",
    "Store",
    "StoreError",
    "open_store",
    "store_url",
]


def store_url(db: str | None, data: Path | None) -> str:
    """The store's URL: `db`, else the data folder's SQLite file."""
    if db:
        return db
    if data is None:
        raise StoreError("no store: give --db URL or --data DIR")
    return f"sqlite:///{(data / SQLITE_NAME).resolve()}"


def url_problem(db: str) -> str | None:
    """Why `db` is not a store's URL, or None."""
    if db.startswith(("postgresql://", "postgres://", "sqlite:///")):
        return None
    return f"--db must be postgresql://... (or sqlite:///PATH), not {db.split('://')[0]}://..."


def open_store(db: str | None, data: Path | None) -> Store:
    """The store `db` names (see the module); StoreError when it cannot be used."""
    url = store_url(db, data)
    problem = url_problem(url)
    if problem is not None:
        raise StoreError(problem)
    if url.startswith("sqlite:///"):
        from .sqlite import SQLiteStore

        try:
            return SQLiteStore(Path(url.removeprefix("sqlite:///")))
        except Exception as exc:  # sqlite3.Error, OSError: say which file
            if isinstance(exc, StoreError):
                raise
            raise StoreError(
                f"cannot use the store {url.removeprefix('sqlite://')}: {exc}"
            ) from exc
    from .postgres import PostgresStore

    try:
        return PostgresStore(url)
    except StoreError:
        raise
    except Exception as exc:  # psycopg.Error during the migrations
        raise StoreError(f"cannot use the store: {exc}") from exc
