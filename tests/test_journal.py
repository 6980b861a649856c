"""The save's journal (`journal.py`): a command recorded before its frame, the whole file after.

A game recorded in its journal and stopped before its whole save (a crash, a kill) loads as it
was played, byte for byte the same game; a journal cut short, damaged, of another game or of
another history never costs the save, and the notes say what was not used. The kill-test at the
end kills a game at every file operation of the record and of the whole save that follows.
"""

from __future__ import annotations

import os
import re
import signal
from collections import Counter
from pathlib import Path
from typing import NoReturn

import pytest

from mac_tui import journal as journal_module
from mac_tui import savefolder as savefolder_module
from mac_tui.campaign.commands import AdvanceDay, NewCampaign
from mac_tui.game import Accepted, parse_command
from mac_tui.journal import journal_path
from mac_tui.save import read_save, to_json
from mac_tui.savefolder import load_save
from mac_tui.session import Session, verify

from .test_save_kill import SAVE_STEPS  # every file operation of a whole save

SEED = 23


def saved_campaign(path: Path, days: int = 0) -> Session:
    """A new campaign saved whole at `path`, then `days` days played and recorded."""
    session = Session.new(SEED)
    assert isinstance(session.apply(NewCampaign("Journal Test")), Accepted)
    assert session.create(path) == path
    for _ in range(days):
        play(session, path)
    return session


def play(session: Session, path: Path, command: object = None) -> None:
    assert isinstance(session.apply(command or AdvanceDay(1)), Accepted)  # type: ignore[arg-type]
    assert session.record(path)


def test_recorded_commands_load_as_played_and_the_whole_save_empties_the_journal(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.json"
    session = saved_campaign(path, days=3)
    assert len(read_save(path).commands) == 1  # the file itself is as it was first written
    loaded = load_save(path)
    assert loaded.journaled == 3 and not loaded.notes and not loaded.recovered
    assert loaded.save.state == session.state  # the same game, byte for byte
    assert loaded.save.commands == tuple(session.commands)
    assert loaded.save.checkpoints == tuple(session.checkpoints)
    assert verify(loaded.save).ok
    # the game goes on from it: its next record continues the journal, its save is whole
    again, _ = Session.open(path)
    assert again.unsaved(path)
    play(again, path)
    assert load_save(path).journaled == 4
    assert again.save(path)
    assert path.read_text() == to_json(again.to_save())
    assert journal_path(path).read_bytes() == b""
    assert load_save(path).journaled == 0


def test_a_line_cut_short_is_dropped_without_a_word(tmp_path: Path) -> None:
    path = tmp_path / "j.json"
    session = saved_campaign(path, days=2)
    with open(journal_path(path), "ab") as fh:
        fh.write(b'{"command": "advance-day 1", "n": 3')  # the game stopped mid-write
    loaded = load_save(path)
    assert (loaded.journaled, loaded.notes) == (2, ())
    assert loaded.save.state == session.state


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda lines: [lines[0], b"not json", *lines[1:]], "its line 2 is damaged"),
        (lambda lines: [lines[0].replace(b'"seed": 23', b'"seed": 24'), *lines[1:]], "another"),
        (lambda lines: [lines[0].replace(b'"after": 1', b'"after": 5'), *lines[1:]], "follows 5"),
        (
            lambda lines: [
                re.sub(rb'"checkpoint": "\w+"', b'"checkpoint": "0f"', lines[0]),
                *lines[1:],
            ],
            "another",
        ),
        (lambda lines: [lines[0], lines[2]], "command 2 is missing"),
    ],
    ids=["damaged line", "another game", "a later save", "another history", "a gap"],
)
def test_a_journal_that_cannot_be_used_never_costs_the_save(
    tmp_path: Path, damage: object, words: str
) -> None:
    path = tmp_path / "j.json"
    saved_campaign(path, days=2)
    lines = journal_path(path).read_bytes().splitlines()
    journal_path(path).write_bytes(b"\n".join(damage(lines)) + b"\n")  # type: ignore[operator]
    loaded = load_save(path)
    assert loaded.save.state == read_save(path).state and loaded.journaled == 0
    assert len(loaded.notes) == 1 and words in loaded.notes[0], loaded.notes
    # the game goes on: its next record starts the journal anew, its save is whole
    session, _ = Session.open(path)
    play(session, path)
    assert load_save(path).save.state == session.state
    assert not load_save(path).notes


def test_a_command_the_engine_refuses_ends_the_journal_there(tmp_path: Path) -> None:
    path = tmp_path / "j.json"
    session = saved_campaign(path, days=1)
    after_one = session.state
    with open(journal_path(path), "ab") as fh:
        fh.write(journal_module.line(2, parse_command("assign Nobody F1")).encode() + b"\n")
        fh.write(journal_module.line(3, AdvanceDay(1)).encode() + b"\n")
    loaded = load_save(path)
    assert loaded.journaled == 1 and loaded.save.state == after_one
    assert len(loaded.notes) == 1 and "command 3 (assign Nobody F1) is refused" in loaded.notes[0]


def test_lines_the_save_already_holds_are_skipped(tmp_path: Path) -> None:
    """A game stopped between its whole save and emptying the journal."""
    path = tmp_path / "j.json"
    session = saved_campaign(path, days=2)
    left = journal_path(path).read_bytes()
    assert session.save(path)
    journal_path(path).write_bytes(left)
    loaded = load_save(path)
    assert (loaded.journaled, loaded.notes) == (0, ())
    assert loaded.save.state == session.state
    # but a line the save holds that is another command: another history, not used
    other = left.replace(b"advance-day 1", b"advance-day 2", 1)
    journal_path(path).write_bytes(other)
    assert "another game or history" in load_save(path).notes[0]


def test_a_new_game_under_a_name_with_a_journal_left_starts_clean(tmp_path: Path) -> None:
    path = tmp_path / "j.json"
    saved_campaign(path, days=2)
    left = journal_path(path).read_bytes()
    for p in tmp_path.iterdir():
        p.unlink()
    journal_path(path).write_bytes(left)  # a deleted game's journal
    session = saved_campaign(path)
    assert journal_path(path).read_bytes() == b""
    assert load_save(path).save.state == session.state


# ---- the kill-test ---------------------------------------------------------------------------
RECORD_STEPS = ("journal written", "journal synced")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def child(path: Path, kill_at: tuple[str, int], out: int) -> NoReturn:
    """Go on with the campaign at `path` as the game does: each day recorded (reported to `out`
    as its frame would go out), then saved whole; SIGKILL itself at `kill_at` = (step, nth)."""
    code = 1
    try:
        seen: Counter[str] = Counter()

        def hook(step: str) -> None:
            seen[step] += 1
            if (step, seen[step]) == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

        savefolder_module.STEP_HOOK = journal_module.STEP_HOOK = hook
        session, _ = Session.open(path)
        for _ in range(3):
            assert isinstance(session.apply(AdvanceDay(1)), Accepted)
            session.record(path)
            os.write(out, f"{len(session.commands)}\n".encode())  # the frame goes out
            session.save(path)
        code = 0
    finally:
        os._exit(code)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_killed_at_any_file_operation_the_game_loads_with_every_day_shown(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    saved_campaign(path)
    length = 1
    for step in (*RECORD_STEPS, *SAVE_STEPS):
        for nth in (1, 2):
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                os.close(read_fd)
                child(path, (step, nth), write_fd)
            os.close(write_fd)
            with os.fdopen(read_fd) as pipe:
                shown = [int(line) for line in pipe]
            _, status = os.waitpid(pid, 0)
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, step
            loaded = load_save(path)
            assert not loaded.recovered and not loaded.notes, (step, loaded.notes)
            n = len(loaded.save.commands)
            seen = max([length, *shown])
            assert seen <= n <= seen + 1, (step, nth, length, shown, n)  # at most one in flight
            assert verify(loaded.save).ok
            length = n
    assert length > 10


def test_checkpoints_come_when_asked_for_and_a_long_run_keeps_few_states() -> None:
    """`Session.apply` hashes no state; the checkpoints, worked out when asked for (or once
    `UNHASHED_KEPT` states wait, so a run that never saves keeps no more), are each state's."""
    from mac_tui.session import UNHASHED_KEPT, checkpoint

    session = Session.new(SEED)
    states = []
    for command in (NewCampaign("Long Run"), *[AdvanceDay(1)] * (UNHASHED_KEPT * 2 + 3)):
        assert isinstance(session.apply(command), Accepted)
        states.append(session.state)
        assert len(session._unhashed) <= UNHASHED_KEPT
    assert session.checkpoints == [checkpoint(s) for s in states]
    assert not session._unhashed
