"""The default store: one SQLite file in the data folder (`DATA/store.db`), no set-up.

WAL mode, so the SSH and web servers of one host (and their games, which report their saves)
read while one of them writes; a writer waits up to `BUSY_MS` for another's write to end. Every
write transaction is `BEGIN IMMEDIATE`, so two servers never both read, then both write. Fine
for one host; a store shared by several hosts is PostgreSQL's job (`postgres`): SQLite's
locking is not safe on network file systems.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from .base import Dialect, Store, transaction

BUSY_MS = 10_000
SQLITE = Dialect(
    name="sqlite",
    blob="BLOB",
    real="REAL",
    bigint="INTEGER",
    now_sql="((julianday('now') - 2440587.5) * 86400.0)",
)


class SQLiteStore(Store):
    dialect = SQLITE

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        super().__init__(str(self.path))

    def _connect(self) -> Any:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fresh = not self.path.exists()
        conn = sqlite3.connect(
            self.path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False
        )
        if fresh:
            with contextlib.suppress(OSError):
                self.path.chmod(0o600)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at each checkpoint
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _begin(self, conn: Any) -> contextlib.AbstractContextManager[Any]:
        return transaction(conn, "BEGIN IMMEDIATE")
