"""What the store takes from a data folder: the accounts of the file-based versions (imported
once per data folder, on the first start), and the index of the saves on disk (`sync_saves`:
the files added, changed or removed while no game reported them; every server start).

The save files stay the source of truth for a game (`savefolder` writes them atomically, in
`DATA/players/<name>/saves/`, shared by every node); the index holds their headers and the
figures of their verified state, so the high scores never read the saves. A save is read and
verified here only when its size or mtime differ from its row (with `scores.VerifiedCache`,
so a save verified before is not replayed again).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..accounts import DataDir, name_problem
from ..scores import (
    WEB_PLAYER,
    BadSave,
    Figures,
    Score,
    Scores,
    VerifiedCache,
    _player_folders,
    _read,
    _saves_in,
    ending,
    make_score,
    show_scores,
    verified_figures,
)
from . import SQLITE_NAME, open_store
from .base import SaveRow, Store, StoreError

IMPORTED = "imported:"  # meta key prefix: the data folders whose files were imported
INDEXED = "indexed:"  # meta key prefix: the data folders whose saves were indexed once


def shown_path(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def index_row(root: Path, player: str, path: Path, cache: VerifiedCache | None) -> SaveRow | None:
    """A save file's row (None when the file has gone): its header and the figures of the
    state its commands rebuild, or why it gives none."""
    shown = shown_path(root, path)
    try:
        st = os.lstat(path)
    except OSError:
        return None
    try:
        data, save = _read(path, shown)
    except BadSave as exc:
        return SaveRow(player, shown, st.st_size, st.st_mtime_ns, {}, None, problem=str(exc))
    figures = cache.figures(data, save) if cache is not None else verified_figures(save)
    return row_of(player, shown, st, dict(save.header), figures, path)


def row_of(
    player: str,
    shown: str,
    st: os.stat_result,
    header: dict[str, Any],
    figures: Figures | None,
    path: Path,
) -> SaveRow:
    """The row of a save read (or just written) at `path`, whose file's status is `st`."""
    if figures is None:
        return SaveRow(player, shown, st.st_size, st.st_mtime_ns, header, None)
    ended_at, cause = ending(path, figures)
    return SaveRow(
        player, shown, st.st_size, st.st_mtime_ns, header, figures.to_json(), ended_at, cause
    )


def save_folders(data: DataDir) -> list[tuple[str, Path]]:
    """(player, saves folder) of a server's data folder: every player's, and the old shared
    browser saves (`DATA/web/saves`, player "(web)")."""
    found = list(_player_folders(data.players))
    web = data.root / "web" / "saves"
    if web.is_dir():
        found.append((WEB_PLAYER, web))
    return found


def sync_saves(store: Store, data: DataDir) -> int:
    """Bring the index up to the save files on disk; how many rows changed."""
    known = {(r.player, r.file): r for r in store.saves()}
    cache = VerifiedCache(data.root)
    cache.used.update(cache.entries)  # entries of files not read now stay in the cache
    seen: set[tuple[str, str]] = set()
    changed = 0
    for player, folder in save_folders(data):
        for path in _saves_in(folder):
            key = (player, shown_path(data.root, path))
            seen.add(key)
            old = known.get(key)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if old is not None and (old.size, old.mtime_ns) == (st.st_size, st.st_mtime_ns):
                continue
            row = index_row(data.root, player, path, cache)
            if row is not None:
                store.record_save(row)
                changed += 1
    for player, file in set(known) - seen:
        if not (data.root / file).exists():
            store.forget_save(player, file)
            changed += 1
    cache.keep()
    store.claim_meta(INDEXED + str(data.root), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return changed


def import_accounts(store: Store, data: DataDir, note: Callable[[str], None]) -> int:
    """The players of the file-based versions (`players/<name>/authorized_keys` and
    `password`) into the store; how many names were added. Idempotent: a name the store has
    gets only the keys it lacks; a name too like a registered one is skipped with a note."""
    import asyncssh

    from ..accounts import key_line

    added = 0
    try:
        folders = sorted(p for p in data.players.iterdir() if p.is_dir())
    except OSError:
        return 0
    for folder in folders:
        name = folder.name
        if name_problem(name) is not None:
            continue
        files = data.player(name)
        keys: list[tuple[bytes, str]] = []
        try:
            text = files.authorized_keys.read_text("utf-8")
        except FileNotFoundError:
            text = ""
        except (OSError, UnicodeDecodeError) as exc:
            note(f"{files.authorized_keys}: cannot be read ({exc}); not imported")
            text = ""
        for i, line in enumerate(text.splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                key = asyncssh.import_public_key(line)
            except (asyncssh.KeyImportError, ValueError) as exc:
                note(f"{files.authorized_keys}, line {i}: not a public key ({exc}); skipped")
                continue
            comment = line.split(None, 2)[2] if len(line.split(None, 2)) > 2 else name
            keys.append((key.public_data, key_line(key, comment)))
        try:
            password = files.password.read_text("utf-8").strip() or None
        except FileNotFoundError:
            password = None
        except (OSError, UnicodeDecodeError) as exc:
            note(f"{files.password}: cannot be read ({exc}); not imported")
            password = None
        if not keys and password is None:
            continue
        if store.account(name) is None:
            try:
                when = folder.stat().st_mtime
            except OSError:
                when = time.time()
            first = keys[0] if keys else None
            if not store.register(name, password=password, key=first, peer="imported", at=when):
                note(f"{folder}: '{name}' is too like a registered name; not imported")
                continue
            added += 1
        for blob, line in keys:
            store.add_key(name, blob, line)
    return added


def copy_sqlite_accounts(store: Store, data: DataDir, note: Callable[[str], None]) -> int:
    """The players of the data folder's own SQLite store (`DATA/store.db`, a host that ran
    without `--db`) into `store` (another one: the PostgreSQL database it moves to); how many
    names were added. Idempotent, like `import_accounts`."""
    import asyncssh

    from .sqlite import SQLiteStore

    own = data.root / SQLITE_NAME
    if not own.is_file() or (
        isinstance(store, SQLiteStore) and store.path.resolve() == own.resolve()
    ):
        return 0
    added = 0
    with SQLiteStore(own) as old:
        for name in sorted(old.player_names()):
            account = old.account(name)
            if account is None:
                continue
            keys = []
            for line in old.key_lines(name):
                with contextlib.suppress(asyncssh.KeyImportError, ValueError):
                    keys.append((asyncssh.import_public_key(line).public_data, line))
            if store.account(name) is None:
                first = keys[0] if keys else None
                if not store.register(name, password=account.password, key=first, peer="copied"):
                    note(f"{own}: '{name}' is too like a registered name; not copied")
                    continue
                added += 1
            for blob, line in keys:
                store.add_key(name, blob, line)
    return added


def prepare(store: Store, data: DataDir, note: Callable[[str], None]) -> bool:
    """On a server's start: the data folder's accounts imported, once (True when this call
    did it): its files' (`import_accounts`), and its own SQLite store's when the store is
    another (`copy_sqlite_accounts`). The saves are indexed by `sync_saves`, which the
    caller runs when it suits."""
    key = IMPORTED + str(data.root)
    if store.meta(key) is not None:
        return False
    added = import_accounts(store, data, note) + copy_sqlite_accounts(store, data, note)
    if store.claim_meta(key, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())):
        note(f"imported {added} player(s) of {data.root} into the store {store.where}")
    return True


def scores_from_store(store: Store, source: str) -> Scores:
    """The high scores, from the index (no save is read): ranked, with a note for every file
    that gives none."""
    rows: list[Score] = []
    notes: list[str] = []
    for row in store.saves():
        if row.problem:
            notes.append(f"{row.file}: {row.problem}; skipped")
            continue
        if row.figures is None:
            continue
        try:
            figures = Figures(**row.figures)
        except TypeError:
            notes.append(f"{row.file}: its row in the store is damaged; skipped")
            continue
        rows.append(make_score(row.player, row.file, figures, row.ended_at, row.cause))
    rows.sort(key=Score.rank_key)
    return Scores(tuple(rows), tuple(notes), source)


def stored_scores(db: str | None, data: Path | None, rescan: bool = False) -> Scores:
    """`serve scores` of a server: the table from its store (`db`, else `DATA/store.db`). The
    first look at a data folder (no server indexed it yet) indexes its saves; `rescan` indexes
    the saves that changed since (else the games' reports keep the index). The players are
    not imported here (a server does it as it starts): the scores need no server extra."""
    root = data if data is not None else Path(".")
    with open_store(db, root) as store:
        if data is not None:
            folder = DataDir(data.resolve())
            if rescan or store.meta(INDEXED + str(folder.root)) is None:
                sync_saves(store, folder)
        return scores_from_store(store, str(data) if data is not None else store.where)


def print_server_scores(data: Path | None, db: str | None, as_json: bool, rescan: bool) -> int:
    """`mac-tui serve scores --data DIR [--db URL]`: a server's table, from its store
    (`stored_scores`). The exit code: 0, or 2 when `data` is not a folder or the store cannot
    be used."""
    if data is not None and not data.is_dir():
        print(f"mac-tui: no data folder at {data}", file=sys.stderr)
        return 2
    try:
        scores = stored_scores(db, data, rescan)
    except StoreError as exc:
        print(f"mac-tui: {exc}", file=sys.stderr)
        return 2
    return show_scores(scores, as_json)


def keys_command(db: str | None, data: Path, name: str, add: str | None) -> int:
    """`mac-tui serve keys NAME [--add KEY]`: print the keys that open a player's name, or add
    one (an OpenSSH public key line, or a file holding one) to a registered name."""
    import asyncssh

    from ..accounts import key_line

    try:
        store = open_store(db, data)
    except StoreError as exc:
        print(f"mac-tui: {exc}", file=sys.stderr)
        return 2
    with store:
        prepare(store, DataDir(data.resolve()), lambda _: None)
        if store.account(name) is None:
            print(f"mac-tui: no player '{name}' in {store.where}", file=sys.stderr)
            return 1
        if add is not None:
            text = add
            with contextlib.suppress(OSError, ValueError):
                if Path(add).is_file():
                    text = Path(add).read_text("utf-8").strip()
            try:
                key = asyncssh.import_public_key(text)
            except (asyncssh.KeyImportError, ValueError) as exc:
                print(f"mac-tui: not an SSH public key: {exc}", file=sys.stderr)
                return 2
            when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            line = key_line(key, f"{name} added {when} by the operator")
            if store.add_key(name, key.public_data, line):
                print(f"added {key.get_fingerprint('sha256')} to '{name}'")
            else:
                print(f"'{name}' has that key already")
        for line in store.key_lines(name):
            print(line)
    return 0
