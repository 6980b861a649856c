"""The store on a PostgreSQL server (`--db postgresql://...`): what several nodes share.

Needs the `psycopg` package (version 3; the `postgres` extra). The URL is libpq's: the
password may be left out and come from `~/.pgpass` (or `$PGPASSFILE`) or the other `PG*`
variables, which is better than putting it on the command line. One connection per `Store`
(autocommit, explicit transactions); a connection that broke is opened again once per call.
Migrations take a transaction-scoped advisory lock, so nodes starting together migrate once.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from .base import Dialect, Store, StoreError

POSTGRES = Dialect(
    name="postgresql",
    blob="BYTEA",
    real="DOUBLE PRECISION",
    bigint="BIGINT",
    now_sql="(extract(epoch from clock_timestamp())::float8)",
)
MIGRATION_LOCK = 0x6D61_6374  # "mact": the advisory lock held while migrating
CONNECT_TIMEOUT = 10


def shown_url(url: str) -> str:
    """`url` without its password (for the log)."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresStore(Store):
    dialect = POSTGRES
    placeholder = "%s"

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(shown_url(url))

    def _connect(self) -> Any:
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                "--db postgresql://... needs the psycopg package: pip install 'mac-tui[postgres]'"
            ) from None
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            why = " ".join(str(exc).split())  # libpq's hint on lines of its own: one line
            raise StoreError(f"cannot connect to {self.where}: {why}".strip()) from None

    def _begin(self, conn: Any) -> contextlib.AbstractContextManager[Any]:
        return conn.transaction()  # type: ignore[no-any-return]

    def _retryable(self, exc: Exception) -> bool:
        import psycopg

        return isinstance(exc, psycopg.OperationalError) or bool(
            self._conn is not None and self._conn.closed
        )

    def _lock_schema(self, conn: Any) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
