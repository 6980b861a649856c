"""Two SSH servers ("nodes") sharing one PostgreSQL store and one data folder, as behind a TCP
load balancer (docs/hosting.md, "Two nodes"): a player registered on one is known to the
other, their game saved on one continues on the other, their score is in the table both show,
and while their game runs on one node the other refuses them a second one.

The real OpenSSH client in PTYs, as in test_server_ssh.py; the PostgreSQL server is the
session's (`postgres` fixture, tests/pgserver.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mac_tui.server.loadtest import ServerProcess, SshTerminal, make_key
from mac_tui.server.spectate import read_header
from mac_tui.server.store import open_store

from .pgserver import PgServer
from .test_server_ssh import _install_openssh, new_campaign, title, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def nodes(postgres: PgServer, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess, str]]:
    _install_openssh()
    url = postgres.new_database()
    data = tmp_path / "shared"  # the folder both nodes mount (NFS in a real set-up)
    a = ServerProcess(data, "--db", url, "--log", str(tmp_path / "a.log"), log=tmp_path / "a.err")
    try:
        b = ServerProcess(
            data, "--db", url, "--log", str(tmp_path / "b.log"), log=tmp_path / "b.err"
        )
    except BaseException:
        a.stop()
        raise
    yield a, b, url
    assert a.stop() == 0, a.log()
    assert b.stop() == 0, b.log()


def test_two_nodes_share_players_games_and_scores_and_one_game_per_player(
    nodes: tuple[ServerProcess, ServerProcess, str], tmp_path: Path
) -> None:
    a, b, url = nodes
    key = make_key(tmp_path / "alice")
    terms: list[SshTerminal] = []

    def login(node: ServerProcess) -> SshTerminal:
        term = SshTerminal("alice", node.port, key)
        terms.append(term)
        return term

    try:
        # Node A: alice registers with her key, starts a campaign, a day passes (saved).
        first = login(a)
        title(first)
        assert "is a new player name" in first.output()
        new_campaign(first, "Twin Lancers")
        first.send("d")
        assert first.wait_for("Day report"), first.text()
        first.kill()
        assert wait_until(lambda: "game ended: alice (disconnect" in a.log()), a.log()
        (save,) = sorted((a.data / "players" / "alice" / "saves").glob("*.json"))
        assert read_header(save)["date"] == "02 Jan 2847"

        # The game reported its save to the shared store, with its verified figures.
        def scored() -> bool:
            with open_store(url, None) as store:
                rows = store.saves("alice")
            return any(r.figures and r.figures["day"] == 2 for r in rows)

        assert wait_until(scored), "alice's save never reached the store"

        # Node B knows alice's key (no new registration) and shows her score and her game.
        second = login(b)
        title(second)
        assert "is a new player name" not in second.output()
        second.send("h")
        assert second.wait_for(lambda: "Twin Lancers" in (t := second.text()) and "alice" in t), (
            second.text()
        )
        second.send("\x1b")
        title(second)
        second.send("c")
        assert second.wait_for(
            lambda: "Twin Lancers" in (t := second.text()) and "02 Jan 2847" in t
        ), second.text()

        # While it runs on B, A refuses alice a second game, saying where it runs.
        refused = login(a)
        assert refused.wait_exit() == 1, refused.output()
        assert "alice's game is open on another server of this game" in refused.output()
        assert second.proc.poll() is None  # B's game goes on untouched
        assert wait_until(
            lambda: "refused alice from 127.0.0.1: the game runs on another" in a.log()
        )

        # B's game ends (saved): its lease is given back and A plays alice again.
        second.kill()
        assert wait_until(lambda: "game ended: alice (disconnect" in b.log()), b.log()
        again = login(a)
        title(again)
        again.send("h")
        assert again.wait_for("Twin Lancers"), again.text()  # the same table on A
    finally:
        for term in terms:
            term.close()
