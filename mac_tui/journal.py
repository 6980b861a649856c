"""A save's journal: the commands played since its file was last written whole.

Writing a year's save whole after a command costs some 2 ms of CPU (its text part by part,
`savetext`, then the temp file and its fsync, the backup's link, the rename, the folder's fsync)
and the state's checkpoint hash 0.5-0.7 ms more: on the key's path of every day (`d`, `w`),
before its frame, so that a day the player saw is on disk when a crash or a hang-up comes. The
game (`MacApp.act`) writes instead one line per command to `NAME.json.journal` beside the save
and fsyncs it before the frame (`Session.record`, `append`: some 0.1 ms), and writes the whole
file once the frame is out (`Session.save`), which then empties the journal. A day the player
saw is so on disk when its frame goes out: in the save, or in the save and its journal.

The journal's first line says what it follows: the seed, the number of commands of the save it
continues (`after`) and the checkpoint of the state they reach; each later line is one command
with its index in the log:

    {"after": 2613, "checkpoint": "1f0c6d2a9b3e4f50", "magic": "mac-tui-journal", "seed": 14}
    {"command": "advance-day 7", "n": 2613}

Loading (`restore`, called by `savefolder.load_save`) plays the journal's commands after those
of the save with the engine (the same state and commands give the same game, byte for byte)
and works out their checkpoints. Lines the save already holds (a journal left by a game stopped
between writing the whole file and emptying the journal) are checked against the save's log
and skipped. A journal that cannot be used is left alone and the save loads as it is, with a
note saying why (`Restored.notes`): one of another game or of another history (the seed, the
checkpoint, or a command already in the save that differs), one that continues a later save
than the file loaded (recovered from its backup), a line that is not one of a journal's, a
command the engine refuses (the commands before it are kept). A last line cut short (the game
stopped while writing it, so its frame never went out) is dropped without a word. A load never
writes anything: the next save writes the whole game and empties the journal. What reads the
file alone (a folder's listing, `mac-tui replay`, the servers' high scores) sees a game stopped
between its journal and its whole save as it was one command before, until it is opened again.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from .game import Accepted, Command, CommandSyntaxError, format_command, parse_command, step
from .safefile import Refused, load_json, read_regular
from .save import MAX_LINE, SaveFile, checkpoint

JOURNAL = ".journal"
MAGIC = "mac-tui-journal"
MAX_BYTES = 16 * 1024 * 1024  # far beyond any journal: it is emptied at every whole save

# Tests set this to see (or interrupt: the kill-test) each file operation of `append`.
STEP_HOOK: Callable[[str], None] | None = None


def _step(name: str) -> None:
    if STEP_HOOK is not None:
        STEP_HOOK(name)


def journal_path(path: Path) -> Path:
    """`NAME.json.journal` for `NAME.json`."""
    return path.with_name(path.name + JOURNAL)


def head(seed: int, after: int, checkpoint: str) -> str:
    """The first line of a journal that continues a save of `after` commands."""
    return json.dumps(
        {"after": after, "checkpoint": checkpoint, "magic": MAGIC, "seed": seed}, sort_keys=True
    )


def line(n: int, command: Command) -> str:
    """The line of the log's `n`th command (from 0)."""
    return json.dumps({"command": format_command(command), "n": n}, sort_keys=True)


def append(path: Path, lines: Sequence[str], *, fresh: bool) -> None:
    """Write `lines` at the end of the journal of the save at `path` (a journal begun anew
    when `fresh`: what it held is dropped) and fsync it; OSError when it cannot be written."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(journal_path(path), flags | (os.O_TRUNC if fresh else 0), 0o644)
    try:
        view = memoryview("".join(text + "\n" for text in lines).encode())
        while view:
            view = view[os.write(fd, view) :]
        _step("journal written")
        os.fsync(fd)
        _step("journal synced")
    finally:
        os.close(fd)


def clear(path: Path) -> None:
    """Empty the journal of `path` (its save now holds every command), when there is one. Not
    synced, nor needed: lines the save holds are skipped by `restore`."""
    with contextlib.suppress(OSError):
        fd = os.open(journal_path(path), os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            if os.fstat(fd).st_size:
                os.ftruncate(fd, 0)
        finally:
            os.close(fd)


@frozen
class Restored:
    """A save with its journal's commands played (`played` of them), and why a journal, or
    its end, was not used."""

    save: SaveFile
    played: int = 0
    notes: tuple[str, ...] = ()


class _Unusable(Exception):
    pass


def _entries(data: bytes) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """The journal's (last) head and the (index, command text) lines after it."""
    pieces = data.split(b"\n")[:-1]  # what follows the last newline was cut short
    found: tuple[dict[str, Any], list[tuple[int, str]]] | None = None
    for number, raw in enumerate(pieces, start=1):
        try:
            entry = load_json(raw)
        except Refused:
            entry = None
        if not isinstance(entry, dict):
            raise _Unusable(f"its line {number} is damaged")
        if entry.get("magic") == MAGIC:
            after, seed, mark = entry.get("after"), entry.get("seed"), entry.get("checkpoint")
            if not (type(after) is int and after >= 0 and type(seed) is int) or not (
                isinstance(mark, str) and len(mark) <= 64
            ):
                raise _Unusable(f"its line {number} is damaged")
            found = (entry, [])
            continue
        n, text = entry.get("n"), entry.get("command")
        if found is None or type(n) is not int or not isinstance(text, str) or len(text) > MAX_LINE:
            raise _Unusable(f"its line {number} is damaged")
        found[1].append((n, text))
    if found is None:
        return {}, []
    return found


def restore(path: Path, save: SaveFile, name: str) -> Restored:
    """`save` (read from `path`, or recovered for it) with the commands of `path`'s journal
    played after its own (see the module's docstring); `name` is the save's name in notes."""
    try:
        data = read_regular(journal_path(path), MAX_BYTES)
    except Refused as exc:
        if str(exc) == "no such file":
            return Restored(save)
        return Restored(save, 0, (f"{name}: its journal was not read ({exc}).",))
    if not data:
        return Restored(save)
    try:
        first, entries = _entries(data)
    except _Unusable as exc:
        return Restored(save, 0, (f"{name}: its journal was not used: {exc}.",))
    if not entries:
        return Restored(save)
    commands = list(save.commands)
    after = first["after"]
    other = f"{name}: its journal was not used: it belongs to another game or history"
    if first["seed"] != save.seed:
        return Restored(save, 0, (f"{other}.",))
    if after > len(commands):
        return Restored(
            save,
            0,
            (
                f"{name}: its journal was not used: it follows {after} commands, the save "
                f"loaded has {len(commands)}; the commands since are lost.",
            ),
        )
    checkpoints = list(save.checkpoints)
    if after and checkpoints and checkpoints[after - 1] != first["checkpoint"]:
        return Restored(save, 0, (f"{other}.",))
    state = save.state
    saved = len(commands)
    notes: list[str] = []
    for n, text in entries:
        if n < saved:  # already in the save: the very command, or another history
            if n < after or text != format_command(commands[n]):
                return Restored(save, 0, (f"{other}.",))
            continue
        why = None
        if n != len(commands):
            why = f"command {len(commands) + 1} is missing from it"
        else:
            try:
                command = parse_command(text)
            except CommandSyntaxError as exc:
                why = f"command {n + 1} is damaged ({exc})"
            else:
                out = step(state, command)
                if isinstance(out, Accepted):
                    state = out.state
                    commands.append(command)
                    if len(checkpoints) == len(commands) - 1:
                        checkpoints.append(checkpoint(state))
                    continue
                why = f"command {n + 1} ({text}) is refused: {out.reason}"
        notes.append(f"{name}: its journal ends early: {why}; the commands after it are lost.")
        break
    played = len(commands) - saved
    if not played:
        return Restored(save, 0, tuple(notes))
    restored = evolve(save, commands=tuple(commands), state=state, checkpoints=tuple(checkpoints))
    return Restored(restored, played, tuple(notes))
