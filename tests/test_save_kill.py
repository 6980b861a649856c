"""The kill-test (issue 11, item 1): an autosaving game killed anywhere loses at most the
command in flight, and its campaign always loads from `NAME.json` itself.

A forked child plays a campaign, saving after every command as the game does
(`Session.save`, the path `MacApp.autosave` takes) and reporting each save through a pipe; the
parent kills it with SIGKILL, then loads the campaign. The kills come deterministically at
every step of the save path (the child's `save.STEP_HOOK` kills it between two file
operations: temp file written, synced, previous file linked as the backup, backup in place,
save replaced, folder synced; and the same for the exclusive create of a new game), then at
random points (after a random number of reported saves). 50 kills in all, a few seconds.
The same campaign goes on through all of them: each child opens what the last one left.
"""

from __future__ import annotations

import os
import random
import signal
from collections import Counter
from pathlib import Path
from typing import NoReturn

import pytest

from mac_tui import savefolder as savefolder_module
from mac_tui.campaign.commands import AdvanceDay, NewCampaign
from mac_tui.game import Accepted
from mac_tui.save import read_save
from mac_tui.savefolder import load_save
from mac_tui.session import Session, verify

SEED = 31
CREATE_STEPS = ("begin", "temp written", "temp synced", "replaced", "folder synced")
SAVE_STEPS = (
    "begin",
    "temp written",
    "temp synced",
    "previous linked",
    "previous kept",
    "replaced",
    "folder synced",
)
KILLS = 50
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def planned(n: int) -> list[str]:
    """The campaign's command log after `n` commands."""
    return [NewCampaign("Kill Test").to_text(), *[AdvanceDay(1).to_text()] * (n - 1)][:n]


def child(path: Path, kill_at: tuple[str, int] | None, commands: int, out: int) -> NoReturn:
    """Play on the campaign at `path` (start it when there is none), saving after every
    command and writing the number of commands saved to `out`; SIGKILL itself at the
    `kill_at` = (step, nth time) of the save path."""
    code = 1
    try:
        if kill_at is not None:
            seen: Counter[str] = Counter()

            def hook(step: str) -> None:
                seen[step] += 1
                if (step, seen[step]) == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)

            savefolder_module.STEP_HOOK = hook
        if path.exists() or savefolder_module.recovery_candidates(path):
            session, _ = Session.open(path)
        else:
            session = Session.new(SEED)
            assert isinstance(session.apply(NewCampaign("Kill Test")), Accepted)
            written = session.create(path)
            assert written == path
            os.write(out, f"{len(session.commands)}\n".encode())
        for _ in range(commands):
            assert isinstance(session.apply(AdvanceDay(1)), Accepted)
            session.save(path)
            os.write(out, f"{len(session.commands)}\n".encode())
        code = 0
    finally:
        os._exit(code)


def run_child(
    path: Path, kill_at: tuple[str, int] | None, commands: int, kill_after: int | None
) -> tuple[int, bool]:
    """(commands reported saved, killed?) for one child; `kill_after` reports, the parent
    SIGKILLs it (None: the child's own hook does, or it ends)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read_fd)
        child(path, kill_at, commands, write_fd)
    os.close(write_fd)
    reported = -1
    with os.fdopen(read_fd) as pipe:
        # Read to the end: on a busy machine the child may have saved (and reported) more
        # before the SIGKILL landed; those lines are still in the pipe and count as saved.
        for count, line in enumerate(pipe, start=1):
            reported = int(line)
            if kill_after is not None and count == kill_after:
                os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert killed or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0), status
    return reported, killed


def check(path: Path, before: int, reported: int) -> int:
    """The campaign loads from its own file, with every command saved before the kill (at
    most the one in flight lost) and nothing that was not played; returns its length."""
    if not path.exists() and before == 0 and reported <= 0:
        assert not savefolder_module.recovery_candidates(path) or not [
            p for p in savefolder_module.recovery_candidates(path) if p.suffix != ".tmp"
        ]
        return 0  # killed while creating the very first save: nothing was ever saved
    loaded = load_save(path)
    assert not loaded.recovered, loaded.notes  # NAME.json itself, complete
    n = len(loaded.save.commands)
    saved = max(before, reported)
    assert saved <= n <= saved + 1, (before, reported, n)
    assert [c.to_text() for c in loaded.save.commands] == planned(n)
    assert verify(loaded.save).ok
    backup = path.with_name(path.name + ".bak")
    if backup.exists():
        assert len(read_save(backup).commands) <= n
    return n


def test_killed_anywhere_the_campaign_loads_with_at_most_the_command_in_flight_lost(
    tmp_path: Path,
) -> None:
    Session.new(SEED).apply(NewCampaign("warm-up"))  # engine and catalog loaded before forking
    path = tmp_path / "kill-test.json"
    rng = random.Random(2026)
    kills = 0
    length = 0
    # the first save of a new game, killed at each of its steps (the file is new each time)
    for step in CREATE_STEPS:
        for leftover in tmp_path.iterdir():
            leftover.unlink()
        reported, killed = run_child(path, (step, 1), 2, None)
        assert killed
        kills += 1
        length = check(path, 0, reported)
    # then one campaign, killed at each step of its second save, then at random points
    for step in SAVE_STEPS:
        reported, killed = run_child(path, (step, 2), 3, None)
        assert killed
        kills += 1
        length = check(path, length, reported)
    while kills < KILLS:
        after = rng.randint(1, 4)
        reported, killed = run_child(path, None, after + 3, after)
        kills += killed
        length = check(path, length, reported)
    assert length > 40
    # the game goes on: the last save sweeps the temp files the killed processes left
    session, _ = Session.open(path)
    assert isinstance(session.apply(AdvanceDay(1)), Accepted)
    session.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kill-test.json", "kill-test.json.bak"]


def test_a_complete_save_is_there_between_any_two_file_operations(tmp_path: Path) -> None:
    """Without killing: at every step of the save path the folder holds a complete save of
    the previous or the new state, and the backup the state before."""
    path = tmp_path / "c.json"
    session = Session.new(SEED)
    assert isinstance(session.apply(NewCampaign("Steps")), Accepted)
    session.save(path)
    seen: list[tuple[str, int, int | None]] = []

    def hook(step: str) -> None:
        backup = path.with_name("c.json.bak")
        seen.append(
            (
                step,
                len(read_save(path).commands),
                len(read_save(backup).commands) if backup.exists() else None,
            )
        )

    for _ in range(2):
        assert isinstance(session.apply(AdvanceDay(1)), Accepted)
        savefolder_module.STEP_HOOK = hook
        try:
            session.save(path)
        finally:
            savefolder_module.STEP_HOOK = None
    assert [s for s, _, _ in seen] == list(SAVE_STEPS) * 2
    # the save is the old state until the single replace, the new one from then on; the
    # backup is the state before it from the moment it is linked
    assert [(n, b) for _, n, b in seen] == [
        (1, None),
        (1, None),
        (1, None),
        (1, None),
        (1, 1),
        (2, 1),
        (2, 1),
        (2, 1),
        (2, 1),
        (2, 1),
        (2, 1),
        (2, 2),
        (3, 2),
        (3, 2),
    ]
