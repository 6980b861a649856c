"""The game-loop skeleton: step/Outcome, the command text form, state hash, save and load."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from attrs import frozen
from hypothesis import given
from hypothesis import strategies as st

from mac_tui import dice, game
from mac_tui.core import (
    Accepted,
    Command,
    CommandSyntaxError,
    CommandTable,
    Event,
    Refused,
    format_command,
)
from mac_tui.game import fold, parse_command, replay, step
from mac_tui.hexgrid import Hex
from mac_tui.model import GameState, initial_state
from mac_tui.save import (
    FORMAT_VERSION,
    SaveError,
    SaveFile,
    from_json,
    read_save,
    state_hash,
    to_json,
)
from mac_tui.savefolder import write_save


# A command that exists only for these tests: it draws dice, so it moves the RNG state.
@frozen
class Roll(Command):
    verb = "test-roll"
    times: int
    label: str = "x"
    at: Hex | None = None


@frozen
class Rolled(Event):
    rolls: tuple[int, ...]


def _roll(state: GameState, cmd: Roll) -> Accepted | Refused:
    if not 1 <= cmd.times <= 10:
        return Refused(f"times must be 1-10, not {cmd.times}")
    d = dice.Dice(state.rng)
    rolls = tuple(d.d100(dice.COMBAT) for _ in range(cmd.times))
    return Accepted(attrs.evolve(state, rng=d.state()), (Rolled(rolls),))


@pytest.fixture(autouse=True, scope="module")
def _with_roll() -> Iterator[None]:
    """The game's table with `test-roll` added, for this module's tests (saves included: they
    parse their command log through `game.parse_command`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game, "TABLE", game.TABLE.extended({Roll: _roll}))
        yield


def test_a_command_table_refuses_a_verb_claimed_twice() -> None:
    @frozen
    class Twin(Command):
        verb = "test-roll"

    with pytest.raises(TypeError, match="already belongs to Roll"):
        CommandTable.of({Roll: _roll}, {Twin: _roll})
    with pytest.raises(TypeError, match="no verb"):
        CommandTable.of({Command: _roll})


def test_accepted_command_advances_state_and_explains_itself() -> None:
    s0 = initial_state(5)
    out = step(s0, Roll(3))
    assert isinstance(out, Accepted)
    assert out.state.commands_applied == 1
    assert out.state.rng.counter(dice.COMBAT) >= 3
    (event,) = out.events
    assert isinstance(event, Rolled) and len(event.rolls) == 3
    assert s0 == initial_state(5), "the input state is never changed"


def test_refused_command_gives_reason_and_no_state() -> None:
    out = step(initial_state(5), Roll(99))
    assert isinstance(out, Refused)
    assert "1-10" in out.reason
    assert not out.accepted


def test_unknown_command_type_is_refused() -> None:
    @frozen
    class Stray(Command):
        verb = "stray"

    assert isinstance(step(initial_state(1), Stray()), Refused)


@given(st.integers(0, 2**63), st.lists(st.integers(-3, 14), max_size=12))
def test_replay_equals_the_original_game(seed: int, counts: list[int]) -> None:
    commands = [Roll(n) for n in counts]
    state, refusals = fold(initial_state(seed), commands)
    accepted = [c for c in commands if 1 <= c.times <= 10]
    assert len(refusals) == len(commands) - len(accepted)
    assert replay(seed, accepted) == state
    assert state_hash(replay(seed, accepted)) == state_hash(state)


def test_text_form_round_trips() -> None:
    for cmd in (Roll(3), Roll(2, "two words", Hex(3, -1)), Roll(1, "x", None)):
        text = format_command(cmd)
        assert parse_command(text) == cmd
    assert format_command(Roll(2, "two words", Hex(3, -1))) == "test-roll 2 'two words' 3,-1"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "empty"),
        ("fly-away 3", "unknown command"),
        ("test-roll", "usage: test-roll TIMES LABEL AT"),
        ("test-roll three", "whole number"),
        ("test-roll 1 x 1;2", "hex as q,r"),
        ("test-roll 1 'open", "cannot split"),
    ],
)
def test_bad_command_lines_are_refused_with_a_reason(line: str, reason: str) -> None:
    with pytest.raises(CommandSyntaxError, match=reason):
        parse_command(line)


def test_state_hash_is_stable_across_processes() -> None:
    state = fold(initial_state(11), [Roll(4), Roll(2)])[0]
    code = (
        "from mac_tui.model import initial_state\n"
        "from mac_tui.save import state_hash\n"
        "from mac_tui import dice\n"
        "import attrs\n"
        "d = dice.Dice(initial_state(11).rng)\n"
        "[d.d100(dice.COMBAT) for _ in range(6)]\n"
        "s = attrs.evolve(initial_state(11), rng=d.state(), commands_applied=2)\n"
        "print(state_hash(s))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == state_hash(state)
    assert state_hash(state) != state_hash(initial_state(11))


def _save(seed: int = 9) -> SaveFile:
    commands = (Roll(2), Roll(5, "volley"))
    state = fold(initial_state(seed), commands)[0]
    return SaveFile(seed=seed, commands=commands, state=state, header={"company": "Test"})


def test_save_round_trips_through_json(tmp_path: Path) -> None:
    save = _save()
    path = tmp_path / "slot.json"
    write_save(path, save)
    loaded = read_save(path)
    assert loaded == save
    assert replay(loaded.seed, loaded.commands) == loaded.state


def test_second_write_keeps_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "slot.json"
    write_save(path, _save(1))
    write_save(path, _save(2))
    assert read_save(path).seed == 2
    assert read_save(path.with_name("slot.json.bak")).seed == 1
    assert not path.with_name("slot.json.tmp").exists()


def test_newer_format_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    doc = json.loads(to_json(_save()))
    doc["format"] = FORMAT_VERSION + 1
    path = tmp_path / "future.json"
    text = json.dumps(doc)
    path.write_text(text)
    with pytest.raises(SaveError, match="newer mac-tui"):
        read_save(path)
    assert path.read_text() == text


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (lambda t: t[: len(t) // 2], "damaged JSON"),
        (lambda t: json.dumps({"magic": "something-else"}), "not a mac-tui save"),
        (lambda t: t.replace('"seed": 9', '"seed": "nine"', 1), 'field "seed"'),
        (lambda t: t.replace("test-roll 2", "test-roll two", 1), 'field "commands", line 1'),
        (lambda t: t.replace('"commands_applied": 2', '"commands_applied": 3', 1), "hash"),
        (lambda t: t.replace('"commands_applied": 2', '"commands_applied": "x"', 1), "snapshot"),
    ],
)
def test_damaged_saves_are_refused_with_a_clear_message(mangle, reason: str) -> None:  # type: ignore[no-untyped-def]
    text = to_json(_save())
    broken = mangle(text)
    assert broken != text
    with pytest.raises(SaveError, match=reason):
        from_json(broken, "slot.json")
