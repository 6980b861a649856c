"""Games started ahead of their players (`server/pool.py`, `tui/pooled.py`), end to end: a server
with a pool, the real OpenSSH client in PTYs of ours, and the processes seen through /proc.

A login takes a game waiting at its title screen and makes it the player's: the player's
terminal size, settings, NO_COLOR, folder, saves and lock; the pool refills; every player has a
process of their own that no one else's game ever was; waiting games see no player's folder;
the server's stop ends the waiting games.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mac_tui.server.games import PlayerLock
from mac_tui.server.loadtest import (
    UNLIMITED,
    ServerProcess,
    SshTerminal,
    colour_codes,
    make_key,
    process_gone,
    tool_missing,
    wait_until,
)
from mac_tui.server.spectate import read_header

from .test_server_ssh import new_campaign, title

WAITS = re.compile(r"pool: game (\d+) waits")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if tool_missing() is not None:
        pytest.skip("the OpenSSH client is missing (tests/test_server_ssh.py installs it)")
    folder = tmp_path_factory.mktemp("keys")
    return {who: make_key(folder / who) for who in ("alice", "bob", "carol")}


@pytest.fixture
def terms() -> Iterator[list[SshTerminal]]:
    opened: list[SshTerminal] = []
    yield opened
    for term in opened:
        term.close()


def waiting(server: ServerProcess) -> list[int]:
    """The pids of the games the pool has started, in order."""
    return [int(p) for p in WAITS.findall(server.log())]


def started(server: ServerProcess, name: str) -> tuple[int, bool]:
    """The pid of `name`'s last game, and whether it came from the pool."""
    found = re.findall(
        rf"game started: {name} \(pid (\d+), [^)]*?(, from the pool)?\)", server.log()
    )
    assert found, server.log()
    pid, pooled = found[-1]
    return int(pid), bool(pooled)


def ascii_alice(server: ServerProcess, key: Path) -> SshTerminal:
    """alice, whose settings are in her folder before she logs in (ASCII glyphs), logging in
    at 100x30 with NO_COLOR."""
    (server.data / "players" / "alice").mkdir(parents=True)
    (server.data / "players" / "alice" / "config.toml").write_text('glyphs = "ascii"\n')
    return SshTerminal(
        "alice",
        server.port,
        key,
        cols=100,
        rows=30,
        options=["SendEnv=NO_COLOR"],
        env={"NO_COLOR": "1"},
    )


def alices_own(server: ServerProcess, alice: SshTerminal) -> int:
    """Her game at its title is hers (her settings, NO_COLOR, size, folder, lock): its pid."""
    title(alice)
    alice.settle()
    text = alice.text()
    assert "+----" in text and "▔" not in text, text  # her ASCII setting
    assert colour_codes(bytes(alice.raw)) == []  # her NO_COLOR: not one colour code
    assert text.splitlines()[-1].rstrip().endswith("^p palette"), text  # 100 wide
    pid = started(server, "alice")[0]
    assert os.readlink(f"/proc/{pid}/cwd") == str(server.data / "players" / "alice")
    assert PlayerLock.take(server.data / "players" / "alice" / "game.lock") is None  # hers
    return pid


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with a pool of two games, both waiting."""
    server = ServerProcess(tmp_path / "data", *UNLIMITED, "--pool", "2")
    try:
        assert wait_until(lambda: len(waiting(server)) >= 2, 60), server.log()
        yield server
    finally:
        assert server.stop() == 0, server.log()


def test_a_login_gets_a_waiting_game_made_its_own(
    keys: dict[str, Path], server: ServerProcess, terms: list[SshTerminal]
) -> None:
    data = server.data
    first_two = waiting(server)[:2]
    for pid in first_two:  # a waiting game is in the pool's folder, no player's
        assert os.readlink(f"/proc/{pid}/cwd") == str(data / "pool")
    alice = ascii_alice(server, keys["alice"])
    terms.append(alice)
    pid = alices_own(server, alice)
    assert started(server, "alice")[1] and pid in first_two, server.log()

    new_campaign(alice, "Pool Wolves")
    alice.settle()
    (save,) = (data / "players" / "alice" / "saves").glob("*.json")
    assert read_header(save)["company"] == "Pool Wolves"
    assert not any((data / "pool").rglob("*.json"))  # the pool's folder stays empty

    # the pool refills: a new game, not alice's
    assert wait_until(lambda: len(waiting(server)) >= 3, 60), server.log()
    assert waiting(server)[2] not in first_two
    left = [p for p in waiting(server) if p != pid]
    assert server.stop() == 0, server.log()
    assert wait_until(lambda: all(process_gone(p) for p in left), 10)  # nothing to save


def test_every_player_has_a_process_no_one_else_had(
    keys: dict[str, Path], server: ServerProcess, terms: list[SshTerminal]
) -> None:
    bob = SshTerminal("bob", server.port, keys["bob"])
    carol = SshTerminal("carol", server.port, keys["carol"])
    terms += [bob, carol]
    title(bob)
    title(carol)
    (bob_pid, bob_pooled), (carol_pid, carol_pooled) = (
        started(server, "bob"),
        started(server, "carol"),
    )
    assert bob_pooled and carol_pooled and bob_pid != carol_pid
    new_campaign(bob, "Bob Co")
    carol.send("l")  # carol's saves: none of bob's
    assert carol.wait_for("No saves yet"), carol.text()
    assert "Bob Co" not in carol.text()

    bob.kill()  # bob goes: his game saves and ends, and is never anyone else's
    assert wait_until(lambda: process_gone(bob_pid), 20), server.log()
    assert wait_until(lambda: len(waiting(server)) >= 4, 60), server.log()
    again = SshTerminal("bob", server.port, keys["bob"])
    terms.append(again)
    title(again)
    new_pid, pooled = started(server, "bob")
    assert pooled and new_pid not in (bob_pid, carol_pid)
    again.send("c")
    assert again.wait_for("Bob Co"), again.text()


def test_no_pool_when_the_host_says_so(
    keys: dict[str, Path], tmp_path: Path, terms: list[SshTerminal]
) -> None:
    server = ServerProcess(tmp_path / "nopool", *UNLIMITED, "--pool", "0")
    try:
        alice = SshTerminal("alice", server.port, keys["alice"])
        terms.append(alice)
        title(alice)
        assert started(server, "alice")[1] is False
        assert waiting(server) == []
    finally:
        assert server.stop() == 0, server.log()


# ---- the screen copy: kept only while someone watches -----------------------------------------
FAKE_GAME = r"""
import json, os, socket, sys
link = socket.socket(fileno=int(os.environ["MAC_TUI_SERVER_FD"]))
out = sys.stdout
out.write("\x1b[2J\x1b[1;1Hfirst frame"); out.flush()
frame = 1
for line in sys.stdin:
    frame += 1
    out.write(f"\x1b[2;1Hkey {line.strip()}"); out.flush()
    if line.strip() == "repaint?":
        doc = json.loads(link.recv(4096))
        if doc.get("repaint"):
            out.write(f"\x1b[2J\x1b[1;1Hwhole picture {frame}"); out.flush()
"""


class Spectator:
    def __init__(self) -> None:
        self.changes = 0

    def screen_changed(self) -> None:
        self.changes += 1

    def watched_game_over(self, game: object) -> None:
        pass


def test_the_screen_copy_is_kept_only_while_watched(tmp_path: Path) -> None:
    """A game with its socket: unwatched, its output is not copied; a spectator's copy starts
    from the full repaint the game is asked for, and stops again when the last one leaves."""
    import asyncio
    import sys

    from mac_tui.server.games import LiveGame

    async def scenario() -> None:
        argv = [sys.executable, "-c", FAKE_GAME]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        game = await LiveGame.start("ann", "peer", env, tmp_path, tmp_path, 40, 5, argv=argv)
        try:

            async def shown(text: str) -> bool:
                for _ in range(100):
                    game.update_screen()
                    if text in "\n".join(game.screen.text()):
                        return True
                    await asyncio.sleep(0.05)
                return False

            await asyncio.sleep(0.5)  # the first frame comes: nobody watches, nothing copied
            game.send_input(b"a\n")
            await asyncio.sleep(0.3)
            game.update_screen()
            assert game.bytes_out > 0 and not game.copying
            assert "".join(game.screen.text()).strip() == ""

            spectator = Spectator()
            game.add_watcher(spectator)  # asks for the whole picture
            game.send_input(b"repaint?\n")
            assert await shown("whole picture 3"), game.screen.text()
            game.send_input(b"b\n")
            assert await shown("key b"), game.screen.text()
            assert spectator.changes > 0

            game.remove_watcher(spectator)  # the last one leaves: no copy again
            assert not game.copying
            game.send_input(b"c\n")
            await asyncio.sleep(0.3)
            game.update_screen()
            assert "key c" not in "\n".join(game.screen.text())
        finally:
            game.signal(9)
            await game.finished

    asyncio.run(scenario())


# ---- the bench's two loads ---------------------------------------------------------------------
def test_the_bench_paces_players_as_it_says() -> None:
    """Lockstep: `gap` x 0.5-1.5 between keys whatever the screen. Paced: the Keystroke-Level
    Model's 1.63 s before a key (median), plus a new screen's words at 700 a minute."""
    import random
    import statistics

    from mac_tui.server.sshbench import Pace, Step, words

    class Term:
        def __init__(self, text: str) -> None:
            self._text = text

        def text(self) -> str:
            return self._text

    screen = Term("Roster  ▊ F1 Raider ▎ 35 tons  " + "word " * 140)  # 143 words (F1, 35: not)
    assert words(screen.text()) == 143
    menu = Step("menu", b"x", lambda term, _: True)
    new_screen = Step("screen", b"x", lambda term, _: True)
    rng = random.Random(1)
    lockstep = Pace("lockstep", gap=1.0)
    assert all(0.5 <= lockstep.think(new_screen, screen, rng) <= 1.5 for _ in range(200))  # type: ignore[arg-type]
    paced = Pace("paced", spawn=20.0)
    keys = [paced.think(menu, screen, rng) for _ in range(2000)]  # type: ignore[arg-type]
    reads = [paced.think(new_screen, screen, rng) for _ in range(2000)]  # type: ignore[arg-type]
    assert 1.5 < statistics.median(keys) < 1.8
    assert 13.0 < statistics.median(reads) < 14.5  # 1.63 s + 143 words / 700 a minute
    assert all(0 <= paced.first(rng) <= 20.0 for _ in range(200))
