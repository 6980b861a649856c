"""JSON save files: a header, the seed, the command log and a snapshot of the state.

The snapshot makes loading fast; the command log makes the save verifiable (replaying it from
the seed must give the snapshot again, compared by `state_hash`). Writes are atomic: a temp file
is written and fsynced, the previous save is kept as `NAME.bak`, then the temp file is renamed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import attrs
import cattrs
from attrs import frozen

from . import __version__
from .game import Command, CommandSyntaxError, format_command, parse_command
from .hexgrid import Hex
from .model import GameState

FORMAT_VERSION = 1
MAGIC = "mac-tui-save"


class SaveError(Exception):
    """A save file that cannot be used; the message names the file and what is wrong."""


def make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_unstructure_hook(Hex, lambda h: [h.q, h.r])
    conv.register_structure_hook(Hex, lambda v, _: Hex(int(v[0]), int(v[1])))
    return conv


CONVERTER = make_converter()


def state_to_data(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = CONVERTER.unstructure(state)
    return data


def state_from_data(data: Any) -> GameState:
    return CONVERTER.structure(data, GameState)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(state: GameState) -> str:
    """A canonical SHA-256 of the whole state: equal states, equal hashes, in any process."""
    return hashlib.sha256(canonical_json(state_to_data(state)).encode()).hexdigest()


@frozen
class SaveFile:
    """`checkpoints[i]` is the start of `state_hash` after `commands[i]` (replay checks)."""

    seed: int
    commands: tuple[Command, ...]
    state: GameState
    header: dict[str, Any] = attrs.field(factory=dict)
    checkpoints: tuple[str, ...] = ()


def to_json(save: SaveFile) -> str:
    doc = {
        "magic": MAGIC,
        "format": FORMAT_VERSION,
        "game_version": __version__,
        "header": save.header,
        "seed": save.seed,
        "commands": [format_command(c) for c in save.commands],
        "checkpoints": list(save.checkpoints),
        "snapshot": state_to_data(save.state),
        "snapshot_hash": state_hash(save.state),
    }
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def from_json(text: str, name: str = "save") -> SaveFile:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{name}: not a readable save (damaged JSON: {exc}).") from None
    if not isinstance(doc, dict) or doc.get("magic") != MAGIC:
        raise SaveError(f"{name}: not a mac-tui save file.")
    fmt = doc.get("format")
    if not isinstance(fmt, int):
        raise SaveError(f'{name}: field "format" is missing or not a number.')
    if fmt > FORMAT_VERSION:
        raise SaveError(
            f"{name}: written by a newer mac-tui (save format {fmt}, this version reads up to "
            f"{FORMAT_VERSION}); upgrade mac-tui to load it."
        )
    for field, kind in (("seed", int), ("commands", list), ("snapshot", dict)):
        if not isinstance(doc.get(field), kind):
            raise SaveError(f'{name}: field "{field}" is missing or of the wrong type.')
    commands: list[Command] = []
    parsed: dict[str, Command] = {}  # a long log repeats few lines: parse each text once
    for i, line in enumerate(doc["commands"]):
        text = str(line)
        command = parsed.get(text)
        if command is None:
            try:
                command = parsed[text] = parse_command(text)
            except CommandSyntaxError as exc:
                raise SaveError(f'{name}: field "commands", line {i + 1}: {exc}.') from None
        commands.append(command)
    try:
        state = state_from_data(doc["snapshot"])
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError) as exc:
        detail = (
            "; ".join(cattrs.transform_error(exc))
            if isinstance(exc, cattrs.BaseValidationError)
            else str(exc)
        )
        raise SaveError(f'{name}: field "snapshot" is damaged: {detail}.') from None
    expected = doc.get("snapshot_hash")
    if expected is not None and expected != state_hash(state):
        raise SaveError(f'{name}: field "snapshot" does not match its hash (file damaged).')
    raw_header = doc.get("header")
    header: dict[str, Any] = raw_header if isinstance(raw_header, dict) else {}
    checkpoints = doc.get("checkpoints", [])
    if not isinstance(checkpoints, list) or not all(isinstance(c, str) for c in checkpoints):
        raise SaveError(f'{name}: field "checkpoints" must be a list of hashes.')
    if checkpoints and len(checkpoints) != len(commands):
        raise SaveError(f'{name}: field "checkpoints" does not match the commands (damaged).')
    return SaveFile(
        seed=doc["seed"],
        commands=tuple(commands),
        state=state,
        header=header,
        checkpoints=tuple(checkpoints),
    )


def write_save(path: Path, save: SaveFile) -> None:
    """Write atomically; the previous file, if any, becomes `path.bak`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    data = to_json(save).encode()
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    if path.exists():
        os.replace(path, path.with_name(path.name + ".bak"))
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def read_save(path: Path) -> SaveFile:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: cannot be read ({exc}).") from None
    return from_json(text, str(path))
