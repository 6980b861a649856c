"""A game's save text and state hash written again cheaply, after every command.

`save.to_json` encodes the whole document each time: a year's campaign is 260 KB of JSON (the
ledger alone 100 KB), and the standard library's indented encoder is pure Python, so the
autosave after a day cost some 13 ms of CPU (7 ms the indented dump, 4 ms the 2,600 commands'
text, 1.4 ms the snapshot's hash again), and the checkpoint of every command 1.4 ms (the
canonical dump hashed). Yet from one command to the next nearly all of it is unchanged: the
commands and checkpoints only grow, the ledger gains a line or two, a market or a pilot
changes.

`KeptJson` writes `json.dumps(value, indent=..., sort_keys=True)` (or the canonical compact
form) byte for byte and keeps, for each list and object of the document by where it sits (its
path of keys and indexes), the value and the text it wrote; next time a part equal to the one
kept there is not encoded again, and a list that only grew (the ledger, the command log)
encodes only its new items. Equal values have equal text here because the state's data holds
no float and never a `true` where a number was (`True == 1` in Python): the save's strict
reading refuses a file where a field's type varies (`save.make_converter`), and the tests
check the text against `json.dumps` on every state they reach (tests/test_savetext.py).

`SaveText` is the document (`save.to_doc`) of one session's saves: the commands' text kept as
the log grows, the snapshot and its hash given by the caller when known (`Session` hashes each
state once, when it is reached, with its own `KeptJson`), the rest as `to_json` makes it.

For a year's campaign a day's checkpoint and autosave so encode some 2 ms of CPU together
(15 ms before); what is kept to do so (the last document's data and texts) is about 3 MB.
The first save after a load encodes it all (some 20 ms): the hub works it out in a pause
(`Session.prime`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii
from typing import Any

from .game import Command, format_command
from .model import GameState
from .save import SaveFile, state_to_data, to_doc

INFINITY = float("inf")


def _float(value: float) -> str:
    """The standard library's float text (`allow_nan`)."""
    if value != value:
        return "NaN"
    if value == INFINITY:
        return "Infinity"
    if value == -INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: object) -> str:
    """An object's key as `json.dumps` writes it (a text, the others turned into one)."""
    if isinstance(key, str):
        return encode_basestring_ascii(key)
    if key is None or isinstance(key, int | float):  # a bool is an int
        return encode_basestring_ascii(KeptJson._scalar(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


class _Kept:
    """A list or object written: its value, its text, and the same of each of its items that
    is a list or object (by key, or by index with None for the others), with the text of
    each item of a list (to join them again when the list grows)."""

    __slots__ = ("items", "parts", "text", "value")

    def __init__(
        self,
        value: Any,
        text: str,
        items: dict[Any, _Kept] | list[_Kept | None],
        parts: list[str] | None = None,
    ) -> None:
        self.value = value
        self.text = text
        self.items = items
        self.parts = parts


class KeptJson:
    """`json.dumps(value, indent=indent, sort_keys=True)`, or with `indent` None the canonical
    `json.dumps(value, sort_keys=True, separators=(",", ":"))`, reusing the text of every list
    and object equal to the one at the same place last time (see the module's docstring). What
    is kept is the last value's tree of lists and objects: a part gone from the value is
    forgotten with it. A value given is kept as it is: it must not be changed afterwards (a
    save's document is made anew each time)."""

    def __init__(self, indent: int | None = 1) -> None:
        self.indent = indent
        self._root: _Kept | None = None

    def text(self, value: object) -> str:
        if isinstance(value, list | tuple | dict) and value:
            self._root = self._container(value, self._root, 0)
            return self._root.text
        self._root = None
        return self._scalar(value)

    @staticmethod
    def _scalar(value: object) -> str:
        """The text of anything but a list or object that is not empty."""
        if isinstance(value, str):
            return encode_basestring_ascii(value)
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if isinstance(value, int):
            return int.__repr__(value)
        if isinstance(value, float):
            return _float(value)
        if isinstance(value, list | tuple):
            return "[]"
        if isinstance(value, dict):
            return "{}"
        raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")

    def _item(self, value: object, old: _Kept | None, level: int) -> tuple[str, _Kept | None]:
        if isinstance(value, list | tuple | dict) and value:
            kept = self._container(value, old, level)
            return kept.text, kept
        return self._scalar(value), None

    def _container(self, value: Any, old: _Kept | None, level: int) -> _Kept:
        if old is not None and type(old.value) is type(value) and old.value == value:
            return old
        if isinstance(value, dict):
            return self._dict(value, old, level)
        return self._list(value, old, level)

    def _joints(self, level: int) -> tuple[str, str, str]:
        """(after the opening bracket, between two items, before the closing one)."""
        if self.indent is None:
            return "", ",", ""
        inner = "\n" + " " * (self.indent * (level + 1))
        return inner, "," + inner, "\n" + " " * (self.indent * level)

    def _list(self, value: Sequence[object], old: _Kept | None, level: int) -> _Kept:
        was: Sequence[object] = ()
        if old is not None and isinstance(old.value, list | tuple):
            was = old.value
        n = len(was)
        assert old is not None or not n
        parts: list[str]
        items: list[_Kept | None]
        if n and n <= len(value) and value[:n] == was:  # it only grew: the ledger, the log
            assert old is not None and old.parts is not None and isinstance(old.items, list)
            parts, items = old.parts[:], old.items[:]
            for v in value[n:]:
                text, kept = self._item(v, None, level + 1)
                parts.append(text)
                items.append(kept)
        else:
            parts, items = [], []
            for i, v in enumerate(value):
                if i < n and v == was[i]:
                    assert old is not None and old.parts is not None
                    parts.append(old.parts[i])
                    items.append(old.items[i])
                    continue
                before = old.items[i] if i < n and old is not None else None
                text, kept = self._item(v, before if isinstance(before, _Kept) else None, level + 1)
                parts.append(text)
                items.append(kept)
        start, between, end = self._joints(level)
        return _Kept(value, f"[{start}{between.join(parts)}{end}]", items, parts)

    def _dict(self, value: dict[Any, Any], old: _Kept | None, level: int) -> _Kept:
        before = old.items if old is not None and isinstance(old.items, dict) else {}
        items: dict[Any, _Kept] = {}
        pieces = []
        colon = ": " if self.indent is not None else ":"
        for k, v in sorted(value.items()):
            text, kept = self._item(v, before.get(k), level + 1)
            if kept is not None:
                items[k] = kept
            pieces.append(f"{_key(k)}{colon}{text}")
        start, between, end = self._joints(level)
        return _Kept(value, "{" + start + between.join(pieces) + end + "}", items)


class StateHashes:
    """`save.state_hash` of each state a session reaches, with `KeptJson`'s canonical text
    (the state's data and hash kept for its save: `SaveText`)."""

    def __init__(self) -> None:
        self._canonical = KeptJson(indent=None)
        self._last: tuple[GameState, dict[str, Any], str] | None = None

    def of(self, state: GameState) -> tuple[dict[str, Any], str]:
        """(the state's data, its hash)."""
        last = self._last
        if last is not None and last[0] is state:
            return last[1], last[2]
        data = state_to_data(state)
        digest = hashlib.sha256(self._canonical.text(data).encode()).hexdigest()
        self._last = (state, data, digest)
        return data, digest


class SaveText:
    """The save files' text of one session (`to_json` byte for byte, see the module's
    docstring): the commands' text kept as the log grows, the document's parts kept by
    `KeptJson`."""

    def __init__(self, hashes: StateHashes | None = None) -> None:
        self.hashes = hashes or StateHashes()
        self._json = KeptJson(indent=1)
        self._commands: list[Command] = []  # those of the last save
        self._texts: list[str] = []  # their text

    def of(self, save: SaveFile) -> str:
        data, digest = self.hashes.of(save.state)
        doc = to_doc(
            save, commands=self._command_texts(save.commands), snapshot=data, snapshot_hash=digest
        )
        return self._json.text(doc) + "\n"

    def _command_texts(self, commands: Sequence[Command]) -> list[str]:
        """Each command's text; those of the commands the last save had (the same objects, in
        the same places) taken from it."""
        n = len(self._commands)
        if n > len(commands) or list(commands[:n]) != self._commands:  # not the log grown
            n = 0  # (the same objects compare at once; equal commands have equal text)
        del self._commands[n:], self._texts[n:]
        self._commands.extend(commands[n:])
        self._texts.extend(format_command(c) for c in commands[n:])
        return self._texts[:]  # a list of its own: `KeptJson` keeps what it was given
