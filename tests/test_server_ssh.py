"""`mac-tui serve ssh` end to end: the real OpenSSH client, in PTYs of ours, on loopback.

One server (a subprocess on a free port, a temporary data folder) serves the module; two small
ones check the limits and passwords. What a player sees is read from a pyte screen fed with the
client's output (`mac_tui.server.loadtest.SshTerminal`).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from mac_tui.bench import main as bench_main
from mac_tui.server import accounts as acc
from mac_tui.server.games import PlayerLock
from mac_tui.server.limits import RateLimiter, client_key
from mac_tui.server.loadtest import (
    DOWN,
    UNLIMITED,
    ServerProcess,
    SshTerminal,
    colour_codes,
    make_key,
    menu_cursor,
    process_gone,
    run_load,
    tool_missing,
    wait_until,
)
from mac_tui.server.spectate import read_header
from mac_tui.server.store import open_store

Login = Callable[..., SshTerminal]


# ---- set-up ----------------------------------------------------------------------------------
def _install_openssh() -> None:
    if tool_missing() is None:
        return
    if shutil.which("apt-get") is None:
        pytest.fail("the OpenSSH client (ssh, ssh-keygen) is missing: install openssh-client")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", "openssh-client"]
    if subprocess.run(install, env=env, capture_output=True, check=False).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
        proc = subprocess.run(install, env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            pytest.fail(f"apt-get install openssh-client failed:\n{proc.stdout}{proc.stderr}")
    missing = tool_missing()
    if missing:
        pytest.fail(f"`{missing}` is still missing after installing openssh-client")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    _install_openssh()
    folder = tmp_path_factory.mktemp("keys")
    return {who: make_key(folder / who) for who in ("alice", "bob", "mallory", "carol")}


@pytest.fixture(scope="module")
def server(
    keys: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    data = tmp_path_factory.mktemp("server") / "data"
    srv = ServerProcess(data, *UNLIMITED, "--max-sessions", "40")
    yield srv
    assert srv.stop() == 0, srv.log()


@pytest.fixture
def login(server: ServerProcess) -> Iterator[Login]:
    """Open SSH clients to the module's server; all are killed at the end of the test."""
    terms: list[SshTerminal] = []

    def open_(user: str, key: Path | None, *command: str, port: int = 0, **kw: Any) -> SshTerminal:
        term = SshTerminal(user, port or server.port, key, command, **kw)
        terms.append(term)
        return term

    yield open_
    for term in terms:
        term.close()


def key_lines(server: ServerProcess, name: str) -> list[str]:
    """The keys that open `name`, from the server's store (its SQLite file: the test reads it
    while the server runs, as `serve scores` would)."""
    with open_store(None, server.data) as store:
        return store.key_lines(name)


def player_saves(server: ServerProcess, name: str) -> list[Path]:
    return sorted((server.data / "players" / name / "saves").glob("*.json"))


def new_campaign(term: SshTerminal, company: str) -> None:
    term.send("n")
    assert term.wait_for("Name your company"), term.text()
    term.send(company)
    assert term.wait_for(company), term.text()
    term.send("\r")
    assert term.wait_for("Seed"), term.text()
    term.send("\r")
    assert term.wait_for("Roster"), term.text()


def title(term: SshTerminal) -> None:
    assert term.wait_for(lambda: menu_cursor(term.screen) is not None, 30), term.output()


# ---- a player's life -------------------------------------------------------------------------
def test_play_drop_and_resume(server: ServerProcess, keys: dict[str, Path], login: Login) -> None:
    alice = login("alice", keys["alice"], cols=60, rows=20)
    # The client's size reached the game (the whole note: a frame comes in several reads).
    assert alice.wait_for("(now 60x20)"), alice.output()
    assert "Please enlarge the terminal to at least 80x24." in alice.text()
    alice.resize(80, 24)  # ... and so does a change of it
    title(alice)
    assert "New campaign" in alice.text() and "Continue" in alice.text()
    blob = keys["alice"].with_suffix(".pub").read_text().split()[1]
    assert any(blob in line for line in key_lines(server, "alice"))  # the key registered it
    assert stat.S_IMODE((server.data / "host_key").stat().st_mode) == 0o600
    assert stat.S_IMODE((server.data / "store.db").stat().st_mode) == 0o600

    new_campaign(alice, "Iron Wolves")
    alice.send("d")  # a day passes: the save says 02 Jan
    assert alice.wait_for("Day report"), alice.text()
    alice.kill()  # the connection drops
    assert wait_until(lambda: "game ended: alice (disconnect" in server.log()), server.log()
    (save,) = player_saves(server, "alice")
    header = read_header(save)
    assert header["company"] == "Iron Wolves" and header["date"] == "02 Jan 2847"

    again = login("alice", keys["alice"])
    title(again)
    again.send("c")  # Continue: the newest save
    assert again.wait_for(lambda: "Iron Wolves" in (t := again.text()) and "02 Jan 2847" in t), (
        again.text()
    )


def test_a_players_no_color_reaches_their_game(keys: dict[str, Path], login: Login) -> None:
    """NO_COLOR sent by the client (SendEnv) makes the player's game send no colour at all; a
    player who does not send it gets colours."""
    no_color = {"options": ["SendEnv=NO_COLOR"], "env": {"NO_COLOR": "1"}}
    plain = login("cole", keys["carol"])
    mono = login("nora", keys["carol"], **no_color)
    title(plain)
    title(mono)  # the menu's cursor shows without colour (underlined)
    mono.send(DOWN)
    assert mono.wait_for(lambda: menu_cursor(mono.screen) == 1), mono.text()
    assert colour_codes(bytes(plain.raw))
    assert colour_codes(bytes(mono.raw)) == []


def test_a_second_player_sees_none_of_the_first(
    server: ServerProcess, keys: dict[str, Path], login: Login
) -> None:
    ann = login("ann", keys["alice"])  # one key may open several names
    title(ann)
    new_campaign(ann, "Ann Company")
    bob = login("bob", keys["bob"])
    title(bob)
    bob.send("l")
    assert bob.wait_for("No saves yet"), bob.text()
    assert "Ann Company" not in bob.text()
    assert player_saves(server, "bob") == []
    assert [read_header(p)["company"] for p in player_saves(server, "ann")] == ["Ann Company"]


def test_a_wrong_key_is_refused(server: ServerProcess, keys: dict[str, Path], login: Login) -> None:
    first = login("dora", keys["bob"])
    title(first)
    first.kill()
    registered = key_lines(server, "dora")
    intruder = login("dora", keys["mallory"])
    assert intruder.wait_exit() == 255
    assert "Permission denied" in intruder.output()
    assert "'dora' is registered to another key" in intruder.output()  # why, not just "no"
    assert menu_cursor(intruder.screen) is None
    assert key_lines(server, "dora") == registered
    assert wait_until(lambda: "refused dora from 127.0.0.1: no key" in server.log()), server.log()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("bad.name", "is not a player name"),
        ("a b", "is not a player name"),
        ("x" * 33, "is not a player name"),
        ("root", "is reserved"),
        ("ALICE", "too like the player 'alice'"),
    ],
)
def test_bad_names_are_refused(
    server: ServerProcess, keys: dict[str, Path], login: Login, name: str, why: str
) -> None:
    if name == "ALICE":  # a registered name in another case
        first = login("alice", keys["alice"])
        title(first)
        first.kill()
    term = login(name, keys["carol"])
    assert term.wait_exit() == 255
    out = term.output()
    assert "Permission denied" in out and why in out, out
    assert not (server.data / "players" / name).exists()


def test_no_shell_no_file_transfer_no_forwarding(
    server: ServerProcess, keys: dict[str, Path], login: Login
) -> None:
    command = login("erin", keys["carol"], "ls", "/")
    assert command.wait_exit() == 1
    assert "no commands here" in command.output() and "bin" not in command.output()
    no_pty = login("erin", keys["carol"], tty=False)
    assert no_pty.wait_exit() == 1
    assert "the game needs a terminal" in no_pty.output()
    sftp = login("erin", keys["carol"], "sftp", tty=False, options=["SessionType=subsystem"])
    assert sftp.wait_exit() != 0
    forward = login(
        "erin",
        keys["carol"],
        tty=False,
        options=["SessionType=none", "ExitOnForwardFailure=yes", "RemoteForward=0 127.0.0.1:9"],
    )
    assert forward.wait_exit() == 255
    assert "forwarding failed" in forward.output()
    assert player_saves(server, "erin") == []


# ---- one game per player, spectators -----------------------------------------------------
def test_a_second_login_takes_the_game_over(
    server: ServerProcess, keys: dict[str, Path], login: Login
) -> None:
    first = login("fay", keys["carol"])
    title(first)
    new_campaign(first, "Fay Lancers")
    second = login("fay", keys["carol"])
    assert first.wait_exit() == 0
    assert "fay logged in again from 127.0.0.1" in first.output()
    title(second)
    assert "saving it there" in second.output()
    second.send("c")
    assert second.wait_for("Fay Lancers"), second.text()
    assert server.log().count("game started: fay") == 2


def test_a_spectator_sees_the_game_and_cannot_touch_it(
    server: ServerProcess, keys: dict[str, Path], login: Login
) -> None:
    gus = login("gus", keys["carol"])
    title(gus)
    new_campaign(gus, "Gus Hussars")
    gus.settle()
    (save,) = player_saves(server, "gus")
    before = hashlib.sha256(save.read_bytes()).hexdigest()

    watch = login("watch", None)
    assert watch.wait_for("Gus Hussars"), watch.text()  # the lobby: player, company, date
    lobby = watch.text()
    assert "gus" in lobby and "01 Jan 2847" in lobby
    number = next(line.split()[0] for line in lobby.splitlines() if " gus " in line)
    watch.send(number)
    assert watch.wait_for(lambda: "Roster" in (t := watch.text()) and "Gus Hussars" in t), (
        watch.text()
    )

    def same_picture() -> bool:  # both terminals read until they agree
        gus.pump(0.05)
        return watch.text() == gus.text()

    assert watch.wait_for(same_picture, 10), (watch.text(), gus.text())  # the whole screen
    for key in ("d", "w", "2", "x", "\r", "n", "\x1b[B", "h"):
        watch.send(key)
        watch.settle(quiet=0.15)
    gus.settle()
    assert hashlib.sha256(save.read_bytes()).hexdigest() == before
    assert "01 Jan 2847" in gus.text() and "Day report" not in gus.text()

    gus.send("2")  # the player moves: the spectator sees it
    assert gus.wait_for("Hire"), gus.text()
    assert watch.wait_for("Hire"), watch.text()
    watch.send("q")  # back to the lobby, then out
    assert watch.wait_for("live games"), watch.text()
    watch.send("q")
    assert watch.wait_exit() == 0

    # A spectator's terminal smaller than the game's: the cut picture says so on its last line.
    small = login("watch", None, cols=70, rows=20)
    assert small.wait_for("Gus Hussars"), small.text()
    number = next(line.split()[0] for line in small.text().splitlines() if " gus " in line)
    small.send(number)
    assert small.wait_for("enlarge this terminal"), small.text()
    last = small.text().splitlines()[-1]
    assert "gus's game is 80x24" in last, small.text()
    small.send("q")


def test_one_game_per_player_across_servers(
    server: ServerProcess, keys: dict[str, Path], login: Login
) -> None:
    """While another process (here: this test, as the web server would) holds a player's
    game lock, an SSH login of that player plays nothing and says why."""
    folder = server.data / "players" / "lou"
    folder.mkdir(parents=True)
    lock = PlayerLock.take(folder / "game.lock")
    assert lock is not None
    try:
        term = login("lou", keys["carol"])
        assert term.wait_exit() == 1
        assert "lou's game is open on another server here" in term.output()
    finally:
        lock.release()
    again = login("lou", keys["carol"])
    title(again)


# ---- load ------------------------------------------------------------------------------------
def test_twenty_sessions_stay_responsive(server: ServerProcess, tmp_path: Path) -> None:
    keys = [make_key(tmp_path / f"k{i}") for i in range(20)]
    result = run_load(server.port, keys, presses=5, gap=0.25, bound=10.0)
    assert result.failed == [], server.log()
    assert result.unanswered == 0
    assert len(result.latencies) == 20 * 5
    assert max(result.latencies) < 5.0  # a generous bound; figures: python -m mac_tui.bench ssh


def test_the_ssh_bench_plays_its_whole_flow(
    keys: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m mac_tui.bench ssh --players 2`: both players log in through the zygote in
    client processes of their own, and every key of the flow (title, new company, contracts,
    a battle's deployment) shows its effect. The bench prints figures; nothing here is timed."""
    argv = ["ssh", "--players", "2", "--presses", "6", "--gap", "0.2", "--model", "lockstep"]
    assert bench_main(argv) == 0
    out = capsys.readouterr().out
    assert "== lockstep: the worst case, not a real flow" in out, out
    assert "2 players on loopback, 1 client processes, warm start on, pool 4 (2 logins" in out
    assert "login to title (all 2 at once): median" in out, out
    assert "menu  : 4 keys" in out and "screen: 16 keys" in out, out
    assert "battle: 12 keys" in out, out
    assert "memory per game in battle (2 games): PSS" in out, out
    assert re.search(r"recordings \(2 games, \d+ s each\): \d+ KB on disk", out), out


# ---- limits and passwords (servers of their own) ------------------------------------------
def test_session_limit_idle_timeout_and_rate_limit(
    keys: dict[str, Path], tmp_path: Path, login: Login
) -> None:
    small = ServerProcess(
        tmp_path / "data", "--max-sessions", "1", "--rate-limit", "3", "--idle-timeout", "4"
    )
    try:
        carol = login("carol", keys["carol"], port=small.port)
        title(carol)
        dave = login("dave", keys["bob"], port=small.port)
        assert dave.wait_exit() == 1
        assert "the server is full" in dave.output()
        assert carol.wait_exit(15) == 0  # no key for 4 s: saved, goodbye
        assert "no key pressed for 4 s" in carol.output()
        third = login("bad.name", keys["bob"], port=small.port)
        assert third.wait_exit() == 255
        fourth = login("carol", keys["carol"], port=small.port)
        assert fourth.wait_exit() == 255
        assert "too many connections from 127.0.0.1" in fourth.output()
    finally:
        assert small.stop() == 0
    log = small.log()
    assert "idle: carol" in log and "refused 127.0.0.1: rate limit" in log


def test_passwords_only_when_allowed(tmp_path: Path, login: Login) -> None:
    askpass = tmp_path / "askpass"
    askpass.write_text('#!/bin/sh\ncat "$(dirname "$0")/secret"\n')
    askpass.chmod(0o700)
    (tmp_path / "secret").write_text("correct horse battery\n")
    opts = ["BatchMode=no", "PasswordAuthentication=yes", "PubkeyAuthentication=no"]
    env = {"SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"}
    keyed = ServerProcess(tmp_path / "keyed")
    with_pw = ServerProcess(tmp_path / "pw", "--allow-passwords")
    try:
        refused = login("hana", None, port=keyed.port, options=opts, env=env)
        assert refused.wait_exit() == 255 and "Permission denied" in refused.output()
        assert not (keyed.data / "players" / "hana").exists()

        hana = login("hana", None, port=with_pw.port, options=opts, env=env)
        title(hana)
        with open_store(None, with_pw.data) as store:
            account = store.account("hana")
        assert account is not None and account.password is not None
        stored = account.password
        assert stored.startswith("scrypt$") and "correct horse" not in stored
        hana.kill()
        (tmp_path / "secret").write_text("wrong horse battery\n")
        wrong = login("hana", None, port=with_pw.port, options=opts, env=env)
        assert wrong.wait_exit() == 255 and "Permission denied" in wrong.output()
    finally:
        keyed.stop()
        with_pw.stop()


def test_a_restart_keeps_the_host_key_and_a_shutdown_saves_the_games(
    keys: dict[str, Path], tmp_path: Path, login: Login
) -> None:
    data = tmp_path / "data"
    first = ServerProcess(data)
    host_key = (data / "host_key").read_bytes()
    try:
        ivy = login("ivy", keys["carol"], port=first.port)
        title(ivy)
        new_campaign(ivy, "Ivy Guard")
        ivy.send("d")
        assert ivy.wait_for("Day report"), ivy.text()
    finally:
        assert first.stop() == 0
    assert ivy.wait_exit() == 0
    assert "the server is shutting down: your game is saved" in ivy.output()
    (save,) = sorted((data / "players" / "ivy" / "saves").glob("*.json"))
    assert read_header(save)["date"] == "02 Jan 2847"
    assert "game ended: ivy (shutdown" in first.log()

    second = ServerProcess(data)
    try:
        assert (data / "host_key").read_bytes() == host_key
        assert "made a new host key" not in second.log()
        again = login("ivy", keys["carol"], port=second.port)
        title(again)
        again.send("c")
        assert again.wait_for("Ivy Guard"), again.text()
    finally:
        assert second.stop() == 0


def test_spectators_have_their_own_cap_and_idle_limit(
    keys: dict[str, Path], tmp_path: Path, login: Login
) -> None:
    """Spectators never count against --max-sessions (three `watch` logins once locked a
    --max-sessions 3 server), have a cap of their own, and go after their own idle time even
    while the game they watch is busy."""
    srv = ServerProcess(
        tmp_path / "data",
        "--max-sessions",
        "1",
        "--max-spectators",
        "2",
        "--spectator-idle-timeout",
        "6",
        "--rate-limit",
        "0",
    )
    try:
        first = login("watch", None, port=srv.port)
        second = login("watch", None, port=srv.port)
        for watch in (first, second):
            assert watch.wait_for("live games"), watch.text()
        third = login("watch", None, port=srv.port)
        assert third.wait_exit() == 1
        assert "2 spectators watching already (the limit)" in third.output()

        carol = login("carol", keys["carol"], port=srv.port)  # the spectators took no place
        title(carol)
        dave = login("dave", keys["bob"], port=srv.port)  # ... and the one place is taken
        assert dave.wait_exit() == 1
        assert "the server is full (1 player" in dave.output()

        assert second.wait_for(" carol "), second.text()
        # A key resets the spectator's idle clock (logging carol in may take seconds on a busy
        # machine); then watch carol and press nothing while carol keeps playing.
        second.send("r")
        second.send("1")
        assert second.wait_for("New campaign"), second.text()
        deadline = time.monotonic() + 20
        while second.proc.poll() is None and time.monotonic() < deadline:
            carol.send(DOWN)  # a busy game: it does not keep its idle spectator
            carol.settle(quiet=0.2)
            second.pump(0.05)
        assert second.wait_exit(5) == 0, second.text()
        assert "no key pressed for 6 s: stopped watching" in second.output()
        assert carol.proc.poll() is None  # the player plays on

        fourth = login("watch", None, port=srv.port)  # the place it left is free again
        assert fourth.wait_for("live games"), fourth.output()
    finally:
        assert srv.stop() == 0
    log = srv.log()
    assert "refused watch from 127.0.0.1: 2 spectators (the limit)" in log
    assert "idle: a spectator from 127.0.0.1 (no key for 6 s)" in log


def test_registrations_per_address_are_capped(
    keys: dict[str, Path], tmp_path: Path, login: Login
) -> None:
    srv = ServerProcess(tmp_path / "data", "--max-registrations", "2", "--rate-limit", "0")
    try:
        for name in ("reg1", "reg2"):
            term = login(name, keys["carol"], port=srv.port)
            title(term)
            term.kill()
        third = login("reg3", keys["carol"], port=srv.port)
        assert third.wait_exit() == 255
        assert "127.0.0.1 has registered 2 new names today (the limit)" in third.output()
        assert not (srv.data / "players" / "reg3").exists()
        again = login("reg1", keys["carol"], port=srv.port)  # a name it has still opens
        title(again)
    finally:
        assert srv.stop() == 0


def test_a_game_whose_server_dies_saves_and_ends(
    keys: dict[str, Path], tmp_path: Path, login: Login
) -> None:
    """Item 12 under SSH: the server killed outright (its PTYs close) leaves no game behind."""
    srv = ServerProcess(tmp_path / "data")
    try:
        kim = login("kim", keys["carol"], port=srv.port)
        title(kim)
        new_campaign(kim, "Kim Rangers")
        kim.send("d")
        assert kim.wait_for("Day report"), kim.text()
        match = re.search(r"game started: kim \(pid (\d+)", srv.log())
        assert match, srv.log()
        pid = int(match.group(1))
        srv.proc.kill()  # SIGKILL to the server alone: the game is in a session of its own
        srv.proc.wait(10)
        assert wait_until(lambda: process_gone(pid), 10), f"game {pid} outlived its server"
    finally:
        srv.stop()
    (save,) = sorted((srv.data / "players" / "kim" / "saves").glob("*.json"))
    assert read_header(save)["date"] == "02 Jan 2847"


# ---- the pieces, without a network ---------------------------------------------------------
def test_names() -> None:
    for good in ("alice", "Bob_2", "x" * 32, "a-b"):
        assert acc.name_problem(good) is None
    for bad in ("", "a.b", "a b", "x" * 33, "é", "../x", "watch", "Root", "a\nb"):
        assert acc.name_problem(bad) is not None
    assert "\n" not in acc.name_problem("a\nb\x1b[2J")  # type: ignore[operator]


def test_password_hashes() -> None:
    stored = acc.hash_password("swordfish-42")
    assert acc.password_matches(stored, "swordfish-42")
    assert not acc.password_matches(stored, "swordfish-43")
    assert stored != acc.hash_password("swordfish-42")  # salted
    for broken in ("", "scrypt$1$2", "md5$x$y$z$a$b", "scrypt$16384$8$1$!!$!!"):
        assert not acc.password_matches(broken, "swordfish-42")


def test_a_key_offered_but_not_proven_registers_nothing(tmp_path: Path) -> None:
    """The server registers a free name in `auth_completed` (after asyncssh has checked the
    signature), never when a key is merely offered (`validate_public_key`)."""
    from mac_tui.server.ssh import MacSSHServer
    from mac_tui.server.sshsession import ServerState, SSHOptions

    data = acc.DataDir(tmp_path)
    data.make()
    state = ServerState(SSHOptions(data=tmp_path), data)
    srv = MacSSHServer(state)

    class Conn:
        def get_extra_info(self, name: str) -> Any:
            return ("127.0.0.1", 5555)

        def send_auth_banner(self, text: str) -> None:
            pass

    key = asyncssh.generate_private_key("ssh-ed25519")
    srv.connection_made(Conn())  # type: ignore[arg-type]
    assert srv.begin_auth("zed") is True
    assert srv.validate_public_key("zed", key) is True  # offered: a free name takes any key
    srv.connection_lost(None)  # ... but the client never signed
    assert not state.accounts.registered("zed")

    other = MacSSHServer(state)
    other.connection_made(Conn())  # type: ignore[arg-type]
    other.begin_auth("zed")
    assert other.validate_public_key("zed", key) is True
    other.auth_completed()  # signed and checked
    assert state.accounts.key_opens("zed", key)
    third = MacSSHServer(state)
    third.connection_made(Conn())  # type: ignore[arg-type]
    third.begin_auth("zed")
    assert third.validate_public_key("zed", asyncssh.generate_private_key("ssh-ed25519")) is False


def test_rate_limiter() -> None:
    now = [0.0]
    limiter = RateLimiter(2, window=60, clock=lambda: now[0])
    assert limiter.allow("a") and limiter.allow("a") and not limiter.allow("a")
    assert limiter.allow("b")
    assert limiter.retry_after("a") == 60
    now[0] = 61
    assert limiter.allow("a") and limiter.retry_after("b") == 0
    assert RateLimiter(0).allow("a")
    day = RateLimiter(1, window=86400, clock=lambda: now[0])
    assert not day.full("a")
    day.add("a")  # counted only once done (a registration that went through)
    assert day.full("a") and not day.full("b")
    now[0] += 86400
    assert not day.full("a")


def test_addresses_are_counted_by_host() -> None:
    assert client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("2001:db8:1:2:3:4:5:6") == client_key("2001:db8:1:2:ffff::1")
    assert client_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key("?") == "?"
