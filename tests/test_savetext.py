"""`savetext`: the save's text and the state's hash written again part by part are, byte for
byte, what `save.to_json` and `save.state_hash` write from scratch."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.game import parse_command
from mac_tui.players.autorun import AutoRun, autoplay
from mac_tui.save import from_json, make_converter, read_save, state_hash, state_to_data, to_json
from mac_tui.savetext import KeptJson, SaveText, StateHashes
from mac_tui.session import Session, checkpoint, verify


@cache
def played() -> AutoRun:
    """Two months of the autopilot's campaign, a mission in them (battle states too)."""
    return autoplay(5, days=60, missions=1)


def test_every_state_of_a_campaign_is_written_as_to_json_writes_it() -> None:
    run = played()
    assert any(c.to_text().startswith("fire") for c in run.session.commands)  # battles too
    session = Session.new(run.session.seed)
    text = SaveText()
    hashes = StateHashes()
    for i, command in enumerate(run.session.commands):
        assert session.apply(command).accepted
        assert session.checkpoints[-1] == checkpoint(session.state)
        if i % 7 == 0 or command.to_text().startswith(("advance", "accept", "launch")):
            save = session.to_save()
            assert text.of(save) == to_json(save), i
            assert hashes.of(session.state)[1] == state_hash(session.state)
    assert session.state == run.session.state


def test_a_new_log_in_the_same_writer_is_written_whole() -> None:
    """The kept command texts are those of the same command objects: another log (a session
    loaded again, a log cut short) is not mistaken for the last one grown."""
    run = played()
    text = SaveText()
    long_save = run.session.to_save()
    assert text.of(long_save) == to_json(long_save)
    short = Session.new(run.session.seed)
    for command in run.session.commands[:40]:
        assert short.apply(command).accepted
    short_save = short.to_save()
    assert text.of(short_save) == to_json(short_save)
    assert text.of(long_save) == to_json(long_save)


def test_a_session_saves_what_loads_and_verifies(tmp_path: Path) -> None:
    run = played()
    session = Session.new(run.session.seed)
    path = tmp_path / "game.json"
    for i, command in enumerate(run.session.commands[:300]):
        assert session.apply(command).accepted
        if i % 50 == 0:
            session.save(path)
            assert path.read_text() == to_json(session.to_save())
    session.save(path)
    loaded = read_save(path)
    assert loaded.state == session.state
    assert verify(loaded).ok


JSON_LEAVES = st.none() | st.integers(-(2**40), 2**40) | st.text(max_size=6)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5)
    ),
    max_leaves=30,
)


def edited(value: Any, rng: random.Random) -> Any:
    """`value` with a few changes: an item appended to a list, a leaf changed, a key gone."""
    if isinstance(value, list):
        out = [edited(v, rng) if rng.random() < 0.3 else v for v in value]
        if rng.random() < 0.5:
            out.append(rng.choice([None, rng.randint(0, 9), "x", {"k": [1]}, [2, "y"]]))
        return out
    if isinstance(value, dict):
        out = {k: edited(v, rng) if rng.random() < 0.3 else v for k, v in value.items()}
        if out and rng.random() < 0.2:
            del out[rng.choice(sorted(out))]
        if rng.random() < 0.3:
            out[rng.choice("abc")] = rng.randint(0, 3)
        return out
    return rng.choice([value, None, rng.randint(0, 9), "z"])


@settings(max_examples=60, deadline=None)
@given(JSON_VALUES, st.randoms(use_true_random=False))
def test_kept_json_writes_what_json_dumps_writes_as_the_value_changes(
    value: Any, rng: random.Random
) -> None:
    indented, canonical = KeptJson(indent=1), KeptJson(indent=None)
    for _ in range(6):
        assert indented.text(value) == json.dumps(value, indent=1, sort_keys=True)
        assert canonical.text(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))
        value = edited(value, rng)


def test_kept_json_writes_the_standard_library_s_text_of_every_kind() -> None:
    value = {
        "n": [1, -2, 2.5, float("nan"), float("inf"), True, False, None],
        "s": ["é", '"\\', "\n"],
        "e": [[], {}, [[]]],
        "t": (1, (2,)),
        "k": {2: "b", 1: "a"},
        "b": {True: 1, False: 0},
        "f": {2.5: 1, 1.5: 0},
    }
    for indent in (1, 2, 4):
        assert KeptJson(indent=indent).text(value) == json.dumps(
            value, indent=indent, sort_keys=True
        )
    assert KeptJson(indent=None).text(value) == json.dumps(
        value, sort_keys=True, separators=(",", ":")
    )


def test_a_part_written_again_unchanged_keeps_what_is_inside_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The document written twice the same (the autosave's second look), then one number in it
    changed: only that number's object is written again, not the long list beside it."""
    written: list[object] = []
    scalar = KeptJson._scalar

    def counted(value: object) -> str:
        written.append(value)
        return scalar(value)

    monkeypatch.setattr(KeptJson, "_scalar", staticmethod(counted))
    kept = KeptJson(indent=1)
    value = {"ledger": [{"day": i, "amount": -i} for i in range(500)], "status": {"day": 1}}
    kept.text(value)
    kept.text(json.loads(json.dumps(value)))  # equal, another object
    written.clear()
    value = {**value, "status": {"day": 2}}  # a new value (what is given is never changed)
    assert kept.text(value) == json.dumps(value, indent=1, sort_keys=True)
    assert written == [2]


def test_a_primed_session_saves_the_same_bytes(tmp_path: Path) -> None:
    """`Session.prime` (the hub's pause after a load) works the text out ahead: the next
    command's save is still `to_json`'s bytes."""
    run = played()
    path = tmp_path / "game.json"
    run.session.save(path)
    session = Session.load(path)
    session.prime()
    assert session.apply(parse_command("advance-day 1")).accepted
    session.save(path)
    assert path.read_text() == to_json(session.to_save())


def test_the_ledger_kept_from_the_last_state_is_each_entry_s_data() -> None:
    """`state_to_data` keeps the ledger's data from the last ledger unstructured: the ledger
    grown, cut short (an earlier state) or made of other objects gives each entry's data."""
    run = played()
    one = make_converter()  # entries one by one: not the kept ledger's way
    session = Session.new(run.session.seed)
    states = []
    for command in run.session.commands:
        assert session.apply(command).accepted
        if command.to_text().startswith("advance"):
            states.append(session.state)
    loaded = from_json(to_json(run.session.to_save())).state  # equal entries, other objects
    last = states[-1].campaign
    assert last is not None and len(last.ledger) > 10
    first = attrs.evolve(last.ledger[0], amount=last.ledger[0].amount + 1)
    other = attrs.evolve(
        states[-1], campaign=attrs.evolve(last, ledger=(first, *last.ledger[1:]))
    )  # the same length, an entry changed
    for state in [*states[::5], states[3], states[-1], other, loaded, states[0]]:
        assert state.campaign is not None
        data = state_to_data(state)["campaign"]["ledger"]
        assert data == [one.unstructure(e) for e in state.campaign.ledger]
