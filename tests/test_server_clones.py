"""SSH games cloned from the zygote's template, a game held at its title (`tui/template.py`),
end to end: a server without a pool, the real OpenSSH client in PTYs of ours, the processes
seen through /proc.

A clone draws exactly what a game started from scratch draws, at the template's size and at
others; it becomes its player's game (their settings, NO_COLOR, folder, saves and lock); and
it shares no open file with the zygote or with another player's game (the template's event
loop descriptors are each clone's own).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pyte
import pytest

from mac_tui.server.loadtest import (
    UNLIMITED,
    ServerProcess,
    SshTerminal,
    make_key,
    tool_missing,
    wait_until,
)
from mac_tui.server.spectate import read_header
from mac_tui.server.zygote import CLONES_ENV

from .test_server_pool import alices_own, ascii_alice, started
from .test_server_ssh import new_campaign, title

CLONING = "SSH games are cloned from its title"


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if tool_missing() is not None:
        pytest.skip("the OpenSSH client is missing (tests/test_server_ssh.py installs it)")
    folder = tmp_path_factory.mktemp("keys")
    return {who: make_key(folder / who) for who in ("alice", "bob")}


def start_server(data: Path, clones: bool, monkeypatch: pytest.MonkeyPatch) -> ServerProcess:
    monkeypatch.setenv(CLONES_ENV, "1" if clones else "0")
    server = ServerProcess(data, *UNLIMITED, "--pool", "0")
    assert wait_until(lambda: "zygote is ready" in server.log(), 60), server.log()
    assert (CLONING in server.log()) == clones, server.log()
    return server


def cells(term: SshTerminal) -> list[list[pyte.screens.Char]]:
    screen = term.screen
    return [[screen.buffer[y][x] for x in range(screen.columns)] for y in range(screen.lines)]


def first_frame_rows(output: str) -> int:
    """How many rows the first whole frame has: Textual draws one row after row from column
    1 (row 1, row 2, ... to its last); a partial update or a lone cursor home is not one."""
    rows = [int(row) for row in re.findall(r"\x1b\[(\d+);1H", output)]
    start = next(i for i in range(len(rows) - 1) if rows[i : i + 2] == [1, 2])
    end = start + 1
    while end < len(rows) and rows[end] == rows[end - 1] + 1:
        end += 1
    return rows[end - 1]


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_a_clone_draws_what_a_new_game_draws(
    keys: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
) -> None:
    pictures = []
    for clones in (True, False):
        server = start_server(tmp_path / f"data-{clones}", clones, monkeypatch)
        try:
            term = SshTerminal("alice", server.port, keys["alice"], cols=size[0], rows=size[1])
            try:
                title(term)
                term.settle()
                pictures.append((term.text(), cells(term)))
                # One title frame, at the terminal's size: none first at the template's.
                # Its first whole frame fills the terminal: none at the template's size first.
                assert first_frame_rows(term.output()) == size[1], term.output()
            finally:
                term.close()
        finally:
            assert server.stop() == 0, server.log()
    (clone_text, clone_cells), (new_text, new_cells) = pictures
    assert clone_text == new_text
    assert clone_cells == new_cells  # colours and attributes too


def sockets(pid: int) -> set[str]:
    """The sockets and epoll instances process `pid` has open (by inode)."""
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


def eventpolls(pid: int) -> int:
    return sum(
        1
        for fd in os.listdir(f"/proc/{pid}/fd")
        if os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:[eventpoll]"
    )


def test_a_clone_is_its_players_game_and_shares_nothing(
    keys: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = tmp_path / "data"
    server = start_server(data, True, monkeypatch)
    alice = ascii_alice(server, keys["alice"])
    bob = SshTerminal("bob", server.port, keys["bob"])
    try:
        alice_pid = alices_own(server, alice)
        title(bob)
        assert "▔" in bob.text()  # bob's: the defaults

        bob_pid = started(server, "bob")[0]
        zygote = int(server.log().split("zygote is ready (pid ")[1].split(")")[0])
        # each game's event loop is its own: no socket shared with the zygote or each other
        assert eventpolls(alice_pid) >= 1 and eventpolls(bob_pid) >= 1
        assert not sockets(alice_pid) & sockets(bob_pid)
        assert not sockets(alice_pid) & sockets(zygote)
        assert not sockets(bob_pid) & sockets(zygote)

        new_campaign(alice, "Clone Wolves")
        alice.settle()
        (save,) = (data / "players" / "alice" / "saves").glob("*.json")
        assert read_header(save)["company"] == "Clone Wolves"
        bob.send("l")  # bob's saves: none of alice's
        assert bob.wait_for("No saves yet"), bob.text()
        # a key of one reaches only that game
        assert "Clone Wolves" not in bob.text()
    finally:
        alice.close()
        bob.close()
        assert server.stop() == 0, server.log()
