"""Save fuzzing (issue 11, acceptance): a seeded generator breaks real saves in the ways of
items 2, 3 and 14, and the game's load paths must hold.

Each case takes a golden save (a campaign with its after-action report open, a campaign in
mid-battle, a quick battle), changes one thing (a field's value to another type, a number to a
boundary or by one, an id to an unknown or another known one, a key dropped or added, a list
cut or doubled, a byte flipped, the file cut) with the snapshot's hash recomputed or not, and
loads it the way the game does (`load_save`: title Continue, Load, `play --load`, `replay`)
and lists its folder (`list_saves`). Then:

- no exception but `SaveError` escapes, and every refusal names the file;
- a save that loads can be used: its header is drawn and the engine takes its next command
  (the AI's move in a battle, a day passing in the hub) without raising;
- a save that loads and differs from the state its commands rebuild comes with a message
  saying so (`verify`, which the game runs in the background after opening it).

Bounded: a fixed number of cases (seeded, the same every run), a few seconds.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from mac_tui.campaign.commands import AdvanceDay
from mac_tui.game import fold, step
from mac_tui.model import initial_state
from mac_tui.players.ai import decide
from mac_tui.save import SaveError, state_hash
from mac_tui.savefolder import list_saves, load_save
from mac_tui.session import header_for, verify

from .savefiles import dumps, golden_doc, rehash

CASES = 160
SOURCES = ("campaign-after-action", "campaign-mid-battle", "skirmish-mid-battle")
ODD_VALUES: tuple[Any, ...] = (
    True,
    False,
    None,
    "x",
    "",
    1.5,
    [],
    {},
    -1,
    0,
    1,
    10**9,
    -(10**9),
    2**64,
    "zz-unknown",
)


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and indices), the value itself first."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += nodes(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += nodes(item, (*path, i))
    return out


def strings(value: Any) -> list[str]:
    return [v for v in _leaves(value) if isinstance(v, str)]


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def mutate(doc: dict[str, Any], rng: random.Random) -> tuple[bytes, str]:
    """One broken file from `doc`, and what was done (for the failure message)."""
    doc = copy.deepcopy(doc)
    kind = rng.choice(["value", "value", "value", "number", "id", "key", "list", "bytes"])
    inside = rng.random() < 0.85
    root = doc["snapshot"] if inside else doc
    path = rng.choice(nodes(root)[1:])
    parent, key = get(root, path[:-1]), path[-1]
    target = parent[key]
    what = f"{kind} at {'snapshot.' if inside else ''}{'.'.join(map(str, path))}"
    if kind == "value":
        parent[key] = rng.choice(ODD_VALUES)
    elif kind == "number":
        numbers = [p for p in nodes(root)[1:] if type(get(root, p)) is int]
        path = rng.choice(numbers)
        parent, key = get(root, path[:-1]), path[-1]
        parent[key] += rng.choice([-1, 1, -100, 100, 7])
        what = f"number at {'.'.join(map(str, path))}"
    elif kind == "id":
        texts = [p for p in nodes(root)[1:] if isinstance(get(root, p), str)]
        path = rng.choice(texts)
        parent, key = get(root, path[:-1]), path[-1]
        parent[key] = rng.choice([*strings(root), "zz-unknown"])
        what = f"text at {'.'.join(map(str, path))}"
    elif kind == "key":
        if isinstance(target, dict) and target and rng.random() < 0.5:
            del target[rng.choice(sorted(target))]
        elif isinstance(target, dict):
            target["extra"] = 1
        else:
            del parent[key]
    elif kind == "list":
        lists = [p for p in nodes(root) if isinstance(get(root, p), list) and get(root, p)]
        if lists:
            items = get(root, rng.choice(lists))
            if rng.random() < 0.5:
                items.append(copy.deepcopy(items[0]))
            else:
                del items[rng.randrange(len(items)) :]
    if kind == "bytes":
        data = bytearray(dumps(doc))
        if rng.random() < 0.5:
            data = data[: rng.randrange(len(data))]
            what = "cut"
        else:
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256)
            what = f"byte {at}"
        return bytes(data), what
    rehashed = inside and rng.random() < 0.8
    return dumps(rehash(doc) if rehashed else doc), what + (" (rehashed)" if rehashed else "")


def use(state: Any) -> None:
    """Draw the header and take the next command, as the screens and the engine would."""
    header_for(state)
    battle = state.battle
    if battle is not None and battle.phase != "over":
        step(state, decide(state).command)
    elif state.campaign is not None and state.campaign.after_action is None:
        step(state, AdvanceDay(1))


def test_broken_saves_are_refused_or_used_and_an_edit_is_always_named(tmp_path: Path) -> None:
    rng = random.Random(11)
    docs = {name: golden_doc(name) for name in SOURCES}
    outcomes = {"refused": 0, "loaded": 0, "edited": 0}
    for case in range(CASES):
        folder = tmp_path / str(case)
        folder.mkdir()
        path = folder / "fuzzed.json"
        data, what = mutate(docs[rng.choice(SOURCES)], rng)
        path.write_bytes(data)
        label = f"case {case}: {what}"
        listed = list_saves(folder)
        assert [item.path for item in listed] == [path], label
        try:
            loaded = load_save(path, "fuzzed.json")
        except SaveError as exc:
            assert str(exc).startswith("fuzzed.json: "), (label, str(exc))
            assert listed[0].problem is None or listed[0].problem.startswith("fuzzed.json: ")
            assert path.read_bytes() == data, label  # a refusal leaves the file as it was
            outcomes["refused"] += 1
            continue
        save = loaded.save
        use(save.state)
        outcomes["loaded"] += 1
        rebuilt = fold(initial_state(save.seed), save.commands)[0]
        if state_hash(rebuilt) != state_hash(save.state):
            outcomes["edited"] += 1
            verdict = verify(save)
            assert not verdict.ok and verdict.message, label
    # the generator reaches every outcome (else it tests less than it claims)
    assert all(outcomes.values()), outcomes
