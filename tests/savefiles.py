"""Save files for the save tests: the golden ones as documents, and the ways to break them.

`MUTATIONS` are the hostile edits of issue 11 (items 2, 3 and 14), each a function from a save
document (as parsed JSON) to the bytes of a broken file; the snapshot edits recompute
`snapshot_hash`, as a careful editor would, so that only the checks after the hash can catch
them. The save tests use them one by one and the fuzz test draws from them at random.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mac_tui.save import canonical_json

GOLDEN = Path(__file__).parent / "golden" / "v3"  # the saves of the current rules version
GOLDEN_NAMES = (
    "campaign-after-action",
    "campaign-mid-battle",
    "campaign-year",
    "skirmish-mid-battle",
)


def golden_doc(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def dumps(doc: Any) -> bytes:
    return (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode()


def rehash(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with `snapshot_hash` made to match its (edited) snapshot."""
    out = dict(doc)
    out["snapshot_hash"] = hashlib.sha256(canonical_json(doc["snapshot"]).encode()).hexdigest()
    return out


def edited(doc: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> bytes:
    """The save with `edit` applied to (a copy of) its snapshot, hash recomputed."""
    doc = copy.deepcopy(doc)
    edit(doc["snapshot"])
    return dumps(rehash(doc))


def with_fields(doc: dict[str, Any], **fields: Any) -> bytes:
    return dumps({**doc, **fields})


# ---- snapshot edits ----------------------------------------------------------------------
def unknown_chassis(s: dict[str, Any]) -> None:
    frames = s["campaign"]["frames"] if s.get("campaign") else s["battle"]["units"]
    frames[0]["chassis"] = "XX-99"


def turn_past_order(s: dict[str, Any]) -> None:
    s["battle"]["turn"] = len(s["battle"]["order"]) + 5


def order_names_nobody(s: dict[str, Any]) -> None:
    s["battle"]["order"] = [*s["battle"]["order"], "ghost"]


def credits_edited(s: dict[str, Any]) -> None:
    """Valid, in range, consistent with nothing: only a replay can tell."""
    if s.get("campaign"):
        s["campaign"]["credits"] += 1_000_000
    else:
        s["battle"]["units"][0]["armor"][1] -= 1


def day_edited(s: dict[str, Any]) -> None:
    if s.get("campaign"):
        s["campaign"]["day"] += 100
    else:
        s["battle"]["round"] += 3


SNAPSHOT_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "unknown chassis": unknown_chassis,
    "credits edited": credits_edited,
    "day edited": day_edited,
}
BATTLE_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "turn past the order": turn_past_order,
    "order names nobody": order_names_nobody,
}

# name: (make the file's bytes from a document, what the refusal says)
MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], bytes], str]] = {
    "nested 100,000 deep": (lambda d: b"[" * 100_000 + b"]" * 100_000, "nests 100,000 levels"),
    "5,000-digit integer": (
        lambda d: with_fields(d, seed=int("9" * 50)).replace(b"9" * 50, b"9" * 5000),
        "number of 5,000 characters",
    ),
    "format true": (lambda d: with_fields(d, format=True), 'field "format" must be a whole number'),
    "seed true": (lambda d: with_fields(d, seed=True), 'field "seed" must be a whole number'),
    "seed as text": (lambda d: with_fields(d, seed="12"), 'field "seed" must be a whole number'),
    "newer format": (lambda d: with_fields(d, format=99), "newer mac-tui"),
    "cut short": (lambda d: dumps(d)[: len(dumps(d)) // 2], "damaged JSON"),
    "not UTF-8": (lambda d: b"\xff\xfe" + dumps(d), "not UTF-8"),
    "unknown chassis": (
        lambda d: edited(d, unknown_chassis),
        "names an unknown chassis 'XX-99'",
    ),
    "snapshot not matching its hash": (
        lambda d: dumps({**d, "snapshot_hash": "0" * 64}),
        'does not match field "snapshot_hash"',
    ),
    "a command that does not parse": (
        lambda d: with_fields(d, commands=["warp-drive 9", *d["commands"][1:]]),
        'field "commands", line 1',
    ),
}
