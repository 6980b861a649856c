"""Build frozen attrs records from parsed TOML, checking every key, type and range.

Errors name the file, the entry and the field, in one paragraph a player can act on:

    data/weapons.toml, weapon "medium_laser" (entry 5), field "damage": expected a whole
    number, found the text "ten".

A record class declares its fields with ordinary annotations; `bounds(lo, hi)` adds a range,
`key("class")` maps a TOML key that is not a Python name. Supported field types: int, str,
bool, Literal[...] choices, nested record classes, and tuples of any of those.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

import attrs

T = TypeVar("T")

_BOUNDS = "mac_tui.bounds"
_KEY = "mac_tui.key"


class DataError(Exception):
    """A rules data file is missing, unreadable or breaks the schema."""

    def __init__(self, file: str, where: str, problem: str) -> None:
        self.path = file
        self.where = where
        self.problem = problem
        text = f"{file}, {where}: {problem}" if where else f"{file}: {problem}"
        super().__init__(text)


def bounds(lo: int, hi: int, **kwargs: Any) -> Any:
    """An attrs field restricted to lo..hi inclusive (checked on load)."""
    metadata = dict(kwargs.pop("metadata", {}))
    metadata[_BOUNDS] = (lo, hi)
    return attrs.field(metadata=metadata, **kwargs)


def key(name: str, **kwargs: Any) -> Any:
    """An attrs field read from a TOML key that differs from the Python name."""
    metadata = dict(kwargs.pop("metadata", {}))
    metadata[_KEY] = name
    return attrs.field(metadata=metadata, **kwargs)


def toml_key(field: attrs.Attribute[Any]) -> str:
    return str(field.metadata.get(_KEY, field.name))


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the decimal {value}"
    if isinstance(value, str):
        return f'the text "{value}"'
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _label(cls: type, raw: Mapping[str, Any], index: int | None) -> str:
    name = getattr(cls, "__toml_name__", cls.__name__.lower())
    for ident in ("id", "designation", "callsign", "name", "level", "difficulty", "outcome"):
        if ident in raw and isinstance(raw[ident], str | int):
            shown = f'"{raw[ident]}"' if isinstance(raw[ident], str) else str(raw[ident])
            suffix = f" (entry {index + 1})" if index is not None else ""
            return f"{name} {shown}{suffix}"
    return f"{name} entry {index + 1}" if index is not None else f"[{name}]"


class Builder:
    """Turns one file's parsed TOML into records, remembering the file for messages."""

    def __init__(self, file: str) -> None:
        self.path = file

    def fail(self, where: str, problem: str) -> typing.NoReturn:
        raise DataError(self.path, where, problem)

    def file(self, cls: type[T], raw: object) -> T:
        """Build the record for a whole file (its top-level tables and arrays of tables)."""
        return self.record(cls, raw, "", top=True)

    def record(
        self, cls: type[T], raw: object, where: str, index: int | None = None, top: bool = False
    ) -> T:
        if index is not None:
            label = _label(cls, raw, index) if isinstance(raw, Mapping) else f"entry {index + 1}"
            here = f"{where}, {label}" if where else label
        else:
            here = where
        if not isinstance(raw, Mapping):
            self.fail(here or "top level", f"expected a table, found {_describe(raw)}.")
        hints = typing.get_type_hints(cls)
        fields = attrs.fields(cls)  # type: ignore[arg-type]
        known = {toml_key(f) for f in fields}
        unknown = sorted(set(raw) - known)
        if unknown:
            self.fail(
                here,
                f'unknown field "{unknown[0]}" (allowed: {", ".join(sorted(known))}).',
            )
        values: dict[str, Any] = {}
        for f in fields:
            k = toml_key(f)
            if top:
                field_where = "" if get_origin(hints[f.name]) is tuple else f"[{k}]"
            else:
                field_where = f'{here}, field "{k}"'
            if k not in raw:
                if f.default is attrs.NOTHING:
                    self.fail(field_where or f"[[{k}]]", "is missing.")
                continue
            value = self.value(hints[f.name], raw[k], field_where)
            lim = f.metadata.get(_BOUNDS)
            if lim is not None:
                self._check_bounds(value, lim, field_where)
            values[f.name] = value
        try:
            return cls(**values)
        except (TypeError, ValueError) as exc:  # a validator of the record itself
            self.fail(here, str(exc))

    def _check_bounds(self, value: object, lim: tuple[int, int], where: str) -> None:
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, int) and not lim[0] <= item <= lim[1]:
                self.fail(where, f"{item} is out of range ({lim[0]} to {lim[1]}).")

    def value(self, hint: Any, raw: object, where: str) -> Any:
        origin = get_origin(hint)
        if origin is Literal:
            choices = get_args(hint)
            if raw not in choices:
                shown = ", ".join(str(c) for c in choices)
                self.fail(where, f"{_describe(raw)} is not one of: {shown}.")
            return raw
        if origin is tuple:
            args = get_args(hint)
            if not isinstance(raw, list):
                self.fail(where, f"expected a list, found {_describe(raw)}.")
            inner = args[0]
            if attrs.has(inner):
                return tuple(self.record(inner, item, where, i) for i, item in enumerate(raw))
            return tuple(
                self.value(inner, item, f"{where}, item {i + 1}") for i, item in enumerate(raw)
            )
        if origin in (typing.Union, types.UnionType):
            members = [a for a in get_args(hint) if a is not type(None)]
            if raw is None:
                return None
            return self.value(members[0], raw, where)
        if attrs.has(hint):
            return self.record(hint, raw, where)
        if hint is bool:
            if not isinstance(raw, bool):
                self.fail(where, f"expected true or false, found {_describe(raw)}.")
            return raw
        if hint is int:
            if isinstance(raw, bool) or not isinstance(raw, int):
                self.fail(where, f"expected a whole number, found {_describe(raw)}.")
            return raw
        if hint is str:
            if not isinstance(raw, str):
                self.fail(where, f"expected text, found {_describe(raw)}.")
            if not raw.strip():
                self.fail(where, "must not be empty.")
            return raw
        raise TypeError(f"schema: unsupported field type {hint!r}")  # a programming error
