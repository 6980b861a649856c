"""Mod folders layered over the shipped rules tables (`load_catalog(mods=...)`, `mac-tui lab
--data DIR`, docs/lab.md).

A mod folder holds any of the data files, with only what changes. Tables merge key by key; an
array of tables whose rows are named (`ROW_KEYS`) merges row by row: a row naming an existing
one changes the fields it gives, any other is added at the end; every other value is replaced.
The merged tables are then checked exactly like the shipped ones, and their errors name the
mod's file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .schema import DataError

MOD_FILES = (
    "chassis.toml",
    "classes.toml",
    "combat.toml",
    "detection.toml",
    "economy.toml",
    "elevation.toml",
    "equipment.toml",
    "factions.toml",
    "formations.toml",
    "galaxy.toml",
    "loadouts.toml",
    "maps.toml",
    "missions.toml",
    "modules.toml",
    "objectives.toml",
    "pilots.toml",
    "range_bands.toml",
    "ranges.toml",
    "reaction.toml",
    "start.toml",
    "terrain.toml",
    "third_parties.toml",
    "weapons.toml",
)
#: The fields that name a row of an array of tables, in the order they are looked for.
ROW_KEYS = ("id", "designation", "callsign", "name", "level", "difficulty", "outcome")


def parse(path: Path, shown: str, missing: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(shown, "", missing) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(shown, "", f"cannot be read: {exc}.") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(shown, "", f"is not valid TOML: {exc}.") from None


def _row_key(row: Mapping[str, Any]) -> str | None:
    return next((k for k in ROW_KEYS if k in row), None)


def layer(base: dict[str, Any], mod: Mapping[str, Any], shown: str, where: str) -> dict[str, Any]:
    """`mod` (a parsed file of a mod, `shown` in errors) over `base` (see the module's doc)."""
    out = dict(base)
    for key, value in mod.items():
        here = f"{where}.{key}" if where else f"[{key}]"
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = layer(old, value, shown, here)
        elif isinstance(old, list) and old and all(isinstance(r, dict) for r in old):
            out[key] = _layer_rows(old, value, shown, key)
        else:
            out[key] = value
    return out


def _layer_rows(base: list[Any], mod: object, shown: str, table: str) -> list[Any]:
    ident = _row_key(base[0])
    if ident is None or any(ident not in row for row in base):
        return mod if isinstance(mod, list) else [mod]  # unnamed rows: the mod's list replaces
    if not isinstance(mod, list):
        raise DataError(shown, f"[[{table}]]", "expected an array of tables ([[...]]).")
    rows = [dict(r) for r in base]
    where = {row[ident]: i for i, row in enumerate(rows)}
    for n, row in enumerate(mod):
        at = f"{table} entry {n + 1}"
        if not isinstance(row, dict):
            raise DataError(shown, at, "expected a table.")
        if ident not in row:
            raise DataError(shown, at, f'needs its "{ident}" to say which row it adds or changes.')
        at = f'{table} "{row[ident]}" (entry {n + 1})'
        i = where.get(row[ident])
        if i is None:
            where[row[ident]] = len(rows)
            rows.append(dict(row))
        else:
            rows[i] = layer(rows[i], row, shown, at)
    return rows


def check_mod(mod: Path) -> None:
    """A mod folder holds only data files the game reads (DataError otherwise)."""
    if not mod.is_dir():
        raise DataError(str(mod), "", "is not a folder of data files.")
    for path in sorted(mod.iterdir()):
        if path.suffix == ".toml" and path.name not in MOD_FILES:
            raise DataError(
                str(path), "", f"is not a rules table (the tables: {', '.join(MOD_FILES)})."
            )
