"""Save files on disk: atomic writes with a backup, new games that never replace a save,
recovery from `.bak`/`.tmp`, and listing a folder (the file format itself is `save.py`).

Writing (`write_save`) keeps a complete `NAME.json` at every instant: the new save is written to
a temp file beside it and fsynced, the current file is hard-linked (or copied) to `NAME.json.bak`
*before* a single `os.replace(tmp, NAME.json)`, then the folder is fsynced. `load_save` recovers
a campaign whose main file is missing or damaged from the newest valid `.tmp` or `.bak` and
says so; `campaign_files` lists a folder's campaigns, those with only a `.bak` or `.tmp` left
included, and a broken file never stops the others from being listed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from . import journal
from .safefile import Refused, load_json, read_regular
from .save import MAGIC, SaveError, SaveFile, read_save, refusal_text, to_json

# ---- writing ---------------------------------------------------------------------------------
# Tests set this to see (or interrupt: the kill-test) each file operation of `write_save`.
STEP_HOOK: Callable[[str], None] | None = None


def _step(name: str) -> None:
    if STEP_HOOK is not None:
        STEP_HOOK(name)


BACKUP = ".bak"
DAMAGED = ".damaged"
TMP = ".tmp"


def sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _temp_name(path: Path, kind: str = "") -> Path:
    return sibling(path, f"{kind}.{os.getpid()}{TMP}")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - platforms that cannot open a folder
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems without directory fsync
        pass
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes) -> Path:
    tmp = _temp_name(path)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)  # left by a killed process that had our pid
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        _step("temp written")
        os.fsync(fd)
        _step("temp synced")
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def _keep_previous(path: Path, suffix: str) -> None:
    """The current `path`, as it is, also under `path + suffix` (a hard link, else a copy),
    replacing the previous one atomically; nothing when there is no current file."""
    kept = _temp_name(path, suffix)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(kept)
    try:
        os.link(path, kept, follow_symlinks=False)
    except FileNotFoundError:
        return  # no previous save
    except OSError:  # no hard links here (some network and FAT file systems): copy
        try:
            shutil.copyfile(path, kept, follow_symlinks=False)
        except OSError:  # gone, or not a file that can be copied: the new save still goes in
            with contextlib.suppress(OSError):
                os.unlink(kept)
            return
    _step("previous linked")
    os.replace(kept, sibling(path, suffix))
    _step("previous kept")


def write_save(
    path: Path,
    save: SaveFile,
    *,
    previous: str = BACKUP,
    exclusive: bool = False,
    text: Callable[[SaveFile], str] = to_json,
) -> None:
    """Write `save` at `path` so that a complete `path` exists at every instant.

    The current file is kept as `path + previous` (`.bak`; `.damaged` for a file the game could
    not read) before the new one replaces it in a single `os.replace`. `exclusive`: create
    `path`, never replace it (FileExistsError when it exists). `text` writes the file's text
    (`to_json`, or a session's `savetext.SaveText.of`: the same bytes)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text(save).encode()
    _step("begin")
    tmp = _write_temp(path, data)
    try:
        if exclusive:
            try:
                os.link(tmp, path, follow_symlinks=False)
            except FileExistsError:
                raise
            except OSError:  # no hard links: create it exclusively, then fill it
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            _step("replaced")
            os.unlink(tmp)
        else:
            _keep_previous(path, previous)
            os.replace(tmp, path)
            _step("replaced")
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)
    _step("folder synced")
    _sweep(path)


def _sweep(path: Path) -> None:
    """Remove the temp files of `path` that processes no longer alive left behind."""
    for candidate in _temp_files(path):
        pid_text = candidate.name.removesuffix(TMP).rsplit(".", 1)[-1]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                os.unlink(candidate)
        except (PermissionError, OverflowError, ValueError):
            continue


def _temp_files(path: Path) -> list[Path]:
    try:
        return sorted(
            p for p in path.parent.glob(f"{glob_escape(path.name)}*{TMP}") if p.name != path.name
        )
    except OSError:
        return []


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def create_save(path: Path, save: SaveFile, text: Callable[[SaveFile], str] = to_json) -> Path:
    """Write a new save at `path`, or at `stem-2.json`, `stem-3.json`... when that name is
    taken (by a save, or by a backup or temp file of one): an existing save is never
    replaced. Returns where it was written."""
    path = Path(path)
    stem = path.name.removesuffix(".json")
    for n in range(1, 10_000):
        candidate = path.with_name(f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        if recovery_candidates(candidate) or os.path.lexists(candidate):
            continue
        try:
            write_save(candidate, save, exclusive=True, text=text)
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(f"no free save name like {path.name} in {path.parent}")


# ---- recovery and listing --------------------------------------------------------------------
def recovery_candidates(path: Path) -> list[Path]:
    """The files a campaign can be recovered from: `NAME.json.bak` and its temp files."""
    out = [p for p in (sibling(path, BACKUP),) if os.path.lexists(p)]
    return out + _temp_files(path)


@frozen
class Loaded:
    """A save as loaded: from `source`, which is `path` unless the campaign was recovered
    (`notes` then say from what, and why), with the last `journaled` of its commands played
    from `path`'s journal (`journal.restore`; its notes among `notes`)."""

    save: SaveFile
    path: Path
    source: Path
    notes: tuple[str, ...] = ()
    journaled: int = 0

    @property
    def recovered(self) -> bool:
        return self.source != self.path


def load_save(path: Path, name: str | None = None) -> Loaded:
    """Read `path`; when it is missing or cannot be used, recover the campaign from the
    newest valid of its `.bak` and temp files (the one with the most commands, then the
    newest), with a note saying so. SaveError (the main file's) when nothing is usable. The
    commands of `path`'s journal, played since the file was written, are played after its
    own (`journal.restore`)."""
    loaded = _load_file(Path(path), name)
    shown = str(path) if name is None else name
    restored = journal.restore(loaded.path, loaded.save, shown)
    if restored.played == 0 and not restored.notes:
        return loaded
    return Loaded(
        restored.save,
        loaded.path,
        loaded.source,
        loaded.notes + restored.notes,
        restored.played,
    )


def _load_file(path: Path, name: str | None) -> Loaded:
    shown = str(path) if name is None else name
    try:
        return Loaded(read_save(path, shown), path, path)
    except SaveError as exc:
        failure = exc
    best: tuple[int, int, Path, SaveFile] | None = None
    for candidate in recovery_candidates(path):
        try:
            save = read_save(candidate, candidate.name)
            mtime = candidate.lstat().st_mtime_ns
        except (SaveError, OSError):
            continue
        key = (len(save.commands), mtime, candidate, save)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is None:
        raise failure
    why = str(failure).removeprefix(f"{shown}: ").rstrip(".")
    note = (
        f"{shown}: {why}. Recovered the campaign from {best[2].name} ({best[0]} commands); "
        f"it is saved again as {path.name} at the next action."
    )
    return Loaded(best[3], path, best[2], (note,))


@frozen
class Listing:
    """One campaign of a saves folder: its main file (which may be missing when only its
    backup or temp file is left), the header to show, and why the main file is unusable."""

    path: Path
    header: dict[str, Any]
    mtime: float
    problem: str | None = None


def peek_header(path: Path) -> dict[str, Any]:
    """A save's header, read through the safe reader without checking the rest, with the
    save's `ruleset` (its optional rules, written only when there are some) among its keys;
    `SaveError` naming the file when it is not a readable save."""
    try:
        doc = load_json(read_regular(path))
    except Refused as exc:
        raise SaveError(f"{path.name}: {refusal_text(str(exc))}.") from None
    if not isinstance(doc, dict) or doc.get("magic") != MAGIC:
        raise SaveError(f"{path.name}: not a mac-tui save file.")
    header = doc.get("header")
    shown = dict(header) if isinstance(header, dict) else {}
    if isinstance(doc.get("ruleset"), str):  # the optional rules (O0.1), beside the header
        shown["ruleset"] = doc["ruleset"]
    return shown


def _main_of(name: str) -> str | None:
    """`x.json` for `x.json`, `x.json.bak` and `x.json[...].tmp`; None for other files."""
    if name.startswith("."):
        return None
    if name.endswith(".json"):
        return name
    at = name.find(".json.")
    if at > 0 and (name.endswith(BACKUP) or name.endswith(TMP)):
        return name[: at + len(".json")]
    return None


def campaign_files(folder: Path) -> list[Path]:
    """The main file of every campaign in `folder` (existing or recoverable), sorted by name."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted({folder / m for m in map(_main_of, names) if m is not None})


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def list_saves(folder: Path) -> list[Listing]:
    """Every campaign of `folder`, newest first: its header from the main file, else from
    the newest of its backups (the load recovers it). Never raises for a bad file."""
    out: list[Listing] = []
    for path in campaign_files(folder):
        try:
            out.append(Listing(path, peek_header(path), _mtime(path)))
            continue
        except SaveError as exc:
            problem = str(exc)
        candidates = sorted(recovery_candidates(path), key=_mtime, reverse=True)
        header: dict[str, Any] = {}
        for candidate in candidates:
            try:
                header = peek_header(candidate)
                break
            except SaveError:
                continue
        when = max([_mtime(path), *map(_mtime, candidates)])
        out.append(Listing(path, header, when, problem))
    out.sort(key=lambda listing: (-listing.mtime, listing.path.name))
    return out
