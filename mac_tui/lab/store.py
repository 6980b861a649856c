"""The lab's store: one SQLite file, one row per finished run (its key, kind, config, seed,
metrics and timing, the mac-tui version that played it), and the experiments that asked for
runs. Rows are written as runs finish (committed every `COMMIT_EVERY` seconds and at the
end), so an interrupted sweep keeps what it played and resumes with the rest."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from .runs import Done

COMMIT_EVERY = 1.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    timing TEXT NOT NULL,
    version TEXT NOT NULL,
    finished REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS experiments (
    name TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    updated REAL NOT NULL
);
"""


class StoreError(RuntimeError):
    """The store file cannot be opened or is not a lab store."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a lab store ({exc})") from None
        self.last_commit = time.monotonic()

    def close(self) -> None:
        self.db.commit()
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def done_keys(self, keys: Iterable[str]) -> set[str]:
        """Which of `keys` have a row already."""
        wanted = list(keys)
        found: set[str] = set()
        for i in range(0, len(wanted), 500):
            part = wanted[i : i + 500]
            marks = ",".join("?" * len(part))
            rows = self.db.execute(f"SELECT key FROM runs WHERE key IN ({marks})", part)
            found.update(k for (k,) in rows)
        return found

    def add(self, done: Done) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                done.key,
                done.kind,
                _dumps(done.config),
                done.seed,
                _dumps(done.metrics),
                _dumps(done.timing),
                __version__,
                time.time(),
            ),
        )
        if time.monotonic() - self.last_commit >= COMMIT_EVERY:
            self.db.commit()
            self.last_commit = time.monotonic()

    def save_experiment(self, name: str, spec: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO experiments VALUES (?, ?, ?)", (name, _dumps(spec), time.time())
        )
        self.db.commit()

    def experiments(self) -> dict[str, dict[str, Any]]:
        rows = self.db.execute("SELECT name, spec FROM experiments ORDER BY name")
        return {name: json.loads(spec) for name, spec in rows}

    def rows(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rows of `keys` that exist, by key."""
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(keys), 500):
            part = list(keys[i : i + 500])
            marks = ",".join("?" * len(part))
            query = (
                "SELECT key, kind, config, seed, metrics, timing, version "
                f"FROM runs WHERE key IN ({marks})"
            )
            for key, kind, config, seed, metrics, timing, version in self.db.execute(query, part):
                out[key] = {
                    "key": key,
                    "kind": kind,
                    "config": json.loads(config),
                    "seed": seed,
                    "metrics": json.loads(metrics),
                    "timing": json.loads(timing),
                    "version": version,
                }
        return out

    def row(self, key_prefix: str) -> list[dict[str, Any]]:
        """The rows whose key starts with `key_prefix`."""
        found = self.db.execute(
            "SELECT key FROM runs WHERE key >= ? AND key < ? ORDER BY key",
            (key_prefix, key_prefix + "\uffff"),
        )
        return list(self.rows([k for (k,) in found]).values())
