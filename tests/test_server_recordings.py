"""Recordings end to end: a game played over SSH with the real OpenSSH client is recorded by
the server, and the `watch` login plays it back; the last picture of the playback is the last
picture the player saw, cell by cell (both read with pyte). Also: the warm start (a game
forked by the zygote) reaches the title screen, saves on hang-up, and two players' games share
neither saves nor environment; a zygote that dies means cold games until the server has
started its successor, and `--cold-start` means no zygote at all."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pyte

from mac_tui.server.loadtest import (
    ServerProcess,
    SshTerminal,
    make_key,
    process_gone,
    wait_until,
)
from mac_tui.server.playback import CastReader
from mac_tui.server.spectate import read_header
from mac_tui.server.sshbench import children

from .test_server_ssh import _install_openssh, new_campaign, title

QUIET = ["LogLevel=ERROR"]  # no "Connection closed" from ssh on the player's screen


def cells(screen: pyte.Screen, rows: int) -> list[list[tuple[str, str, str, bool, bool]]]:
    """Every cell of the first `rows` rows: its text, colours, bold and reverse."""
    return [
        [
            (c.data, c.fg, c.bg, c.bold, c.reverse)
            for c in (screen.buffer[y][x] for x in range(screen.columns))
        ]
        for y in range(rows)
    ]


def test_a_recorded_game_plays_back_as_the_player_saw_it(tmp_path: Path) -> None:
    _install_openssh()
    key = make_key(tmp_path / "rita")
    srv = ServerProcess(tmp_path / "data")
    terms: list[SshTerminal] = []
    try:
        rita = SshTerminal("rita", srv.port, key, options=QUIET)
        terms.append(rita)
        title(rita)
        new_campaign(rita, "Rita Rovers")
        rita.resize(100, 30)  # recorded as a resize event
        assert rita.wait_for(lambda: "Rita Rovers" in rita.screen.display[0]), rita.text()
        rita.settle()
        rita.send("d")
        assert rita.wait_for("Day report"), rita.text()
        rita.send("\r")
        rita.resize(80, 24)
        rita.settle()
        rita.send("\x11")  # ctrl+q: the game saves and ends
        assert rita.wait_exit() == 0, rita.output()
        seen = cells(rita.screen, 24)
        folder = srv.data / "players" / "rita" / "recordings"
        assert wait_until(lambda: any("_" in p.name for p in folder.glob("*.cast.gz")))
        (recording,) = folder.glob("*.cast.gz")
        assert re.fullmatch(r"\d{8}T\d{6}Z-ssh_\d+s\.cast\.gz", recording.name)
        reader = CastReader(recording)
        assert reader.size == (80, 24) and reader.title == "mac-tui: rita (ssh)"
        kinds = {e.kind: e.data for e in iter(reader.next, None)}
        assert kinds["r"] == "80x24" and set(kinds) == {"o", "r"}

        watch = SshTerminal("watch", srv.port, None, cols=80, rows=25, options=QUIET)
        terms.append(watch)
        assert watch.wait_for("live games"), watch.text()
        watch.send("\t")  # the recordings
        assert watch.wait_for(
            lambda: "rita" in (t := watch.text()) and "recordings, newest first" in t
        ), watch.text()
        watch.send("1")
        assert watch.wait_for(lambda: "rita 20" in watch.screen.display[24]), watch.text()
        watch.send("e")  # to the end, as fast as the server feeds it
        assert watch.wait_for(lambda: "· end ·" in watch.screen.display[24], 60), watch.text()
        watch.settle()
        assert cells(watch.screen, 24) == seen
        watch.send("q")
        assert watch.wait_for("recordings, newest first"), watch.text()
    finally:
        for term in terms:
            term.close()
        assert srv.stop() == 0, srv.log()
    assert "watch: playing back rita's" in srv.log()


def test_a_warm_game_saves_on_hang_up_and_shares_nothing(tmp_path: Path) -> None:
    _install_openssh()
    srv = ServerProcess(tmp_path / "data")
    terms: list[SshTerminal] = []
    try:
        assert wait_until(lambda: "zygote is ready" in srv.log(), 60), srv.log()
        zygote = int(re.findall(r"zygote is ready \(pid (\d+)\)", srv.log())[0])
        for name in ("una", "vic"):
            term = SshTerminal(name, srv.port, make_key(tmp_path / name))
            terms.append(term)
            title(term)
        una, vic = terms
        new_campaign(una, "Una Union")
        una.send("d")
        assert una.wait_for("Day report"), una.text()
        log = srv.log()
        pids = {
            n: int(re.findall(rf"game started: {n} \(pid (\d+)", log)[0]) for n in ("una", "vic")
        }
        helpers: dict[str, int] = {}
        for name, pid in pids.items():  # forked by the zygote, as session leaders of their own
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            assert int(stat[1]) == zygote  # the parent
            assert int(stat[2]) == pid and int(stat[3]) == pid  # process group, session
            assert int(stat[4]) != 0 and int(stat[5]) == pid  # a controlling terminal: the PTY
            home = srv.data / "players" / name
            assert Path(f"/proc/{pid}/cwd").resolve() == home.resolve()
            fds = {Path(f"/proc/{pid}/fd/{fd}").resolve() for fd in range(3)}
            assert len(fds) == 1 and str(fds.pop()).startswith("/dev/pts/")
            (helper,) = children([pid])  # its threat assessments (players/assessor.py)
            assert Path(f"/proc/{helper}/stat").read_text().rsplit(")", 1)[1].split()[16] == "19"
            helpers[name] = helper
        vic.send("l")
        assert vic.wait_for("No saves yet"), vic.text()  # una's save is not vic's
        vic.send("\x1b")
        # the saves list is a dialog over the title: wait for it to close, so the next key does
        # not follow the Esc in one read (a terminal's Esc then s is Alt+s)
        assert vic.wait_for(lambda: "No saves yet" not in vic.text()), vic.text()
        title(vic)
        vic.send("s")
        assert vic.wait_for("Glyphs"), vic.text()
        vic.send("g")  # written at once to vic's own MAC_TUI_CONFIG
        vic_config = srv.data / "players" / "vic" / "config.toml"
        assert wait_until(lambda: vic_config.exists()), vic.text()
        assert 'glyphs = "ascii"' in vic_config.read_text()
        assert not (srv.data / "players" / "una" / "config.toml").exists()
        una.kill()  # the connection drops: the game is hung up, saves and ends
        assert wait_until(lambda: process_gone(pids["una"]), 15)
        assert wait_until(lambda: process_gone(helpers["una"]), 15)
        assert not process_gone(helpers["vic"])
        assert wait_until(lambda: "game ended: una (disconnect, exit status 0" in srv.log())
        (save,) = (srv.data / "players" / "una" / "saves").glob("*.json")
        assert read_header(save)["date"] == "02 Jan 2847"
        assert list((srv.data / "players" / "vic" / "saves").glob("*.json")) == []
    finally:
        for term in terms:
            term.close()
        assert srv.stop() == 0, srv.log()


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_dead_zygote_means_cold_games_until_its_successor_and_cold_start_means_none(
    tmp_path: Path,
) -> None:
    _install_openssh()
    srv = ServerProcess(tmp_path / "data", "--pool", "0")  # no games waiting: forks only
    terms: list[SshTerminal] = []
    ready = re.compile(r"zygote is ready \(pid (\d+)\)")
    try:
        assert wait_until(lambda: ready.search(srv.log()) is not None, 60), srv.log()
        first = int(ready.findall(srv.log())[0])
        os.kill(first, signal.SIGKILL)  # the zygote dies: games start cold meanwhile
        assert wait_until(lambda: "the zygote has gone" in srv.log()), srv.log()
        wes = SshTerminal("wes", srv.port, make_key(tmp_path / "wes"))
        terms.append(wes)
        title(wes)
        pid = int(re.findall(r"game started: wes \(pid (\d+)", srv.log())[0])
        assert parent_of(pid) == srv.proc.pid  # cold: the server's own child
        assert wait_until(lambda: len(ready.findall(srv.log())) == 2, 60), srv.log()
        second = int(ready.findall(srv.log())[1])
        xan = SshTerminal("xan", srv.port, make_key(tmp_path / "xan"))
        terms.append(xan)
        title(xan)
        pid = int(re.findall(r"game started: xan \(pid (\d+)", srv.log())[0])
        assert second != first and parent_of(pid) == second  # warm again
    finally:
        for term in terms:
            term.close()
        assert srv.stop() == 0, srv.log()

    cold = ServerProcess(tmp_path / "cold", "--cold-start")
    try:
        yul = SshTerminal("yul", cold.port, make_key(tmp_path / "yul"))
        terms.append(yul)
        title(yul)
        pid = int(re.findall(r"game started: yul \(pid (\d+)", cold.log())[0])
        assert parent_of(pid) == cold.proc.pid and "warm start" not in cold.log()
    finally:
        yul.close()
        assert cold.stop() == 0, cold.log()
