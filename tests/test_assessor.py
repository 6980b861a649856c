"""A server game's threat assessments in a low-priority helper process (players/assessor.py):
the same ratings as the game's own, nothing of the game's open in the helper, the helper gone
with the game, and the game rating by itself once the helper has gone. The helper is forked, so
each case runs in a process of its own (a single thread, as a game at its start)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mac_tui.players.assessor import PLAY_NICE, nice_level, play_level
from mac_tui.server.loadtest import process_gone, wait_until

SCRIPT = """
import json, os, signal, sys, time
from mac_tui.campaign.commands import NewCampaign
from mac_tui.players import assess, assessor
from mac_tui.session import Session

session = Session.new(11)
session.apply(NewCampaign("Helper Test"))
state = session.state
lance = [f.id for f in state.campaign.frames if f.weapons][:2]
contract = state.campaign.contracts[0].id
lock = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)  # as a game holds the player's lock
helper = assessor.start(19)
out = {"helper": helper.pid, "me": os.getpid()}
if sys.argv[2] == "kill":
    os.kill(helper.pid, signal.SIGKILL)
    time.sleep(0.2)
if sys.argv[2] == "stop":  # a helper that never answers, and a game that closes meanwhile
    import threading
    os.kill(helper.pid, signal.SIGSTOP)
    answers = []
    board = threading.Thread(target=lambda: answers.append(assess.assess(state, contract, lance)))
    board.start()
    time.sleep(0.5)
    assess.give_up()
    board.join(5)
    known = assess.peek(state, contract, lance)[0]
    print(json.dumps({"waiting": board.is_alive(), "answers": answers, "known": known}))
    os.kill(helper.pid, signal.SIGKILL)
    sys.exit(0)
got = assess.assess(state, contract, lance, battles=1)
own = assess.compute(state, contract, lance, battles=1)
out.update(same=got == own, rated=got is not None, broken=helper.broken)
proc = f"/proc/{helper.pid}"
if os.path.exists(proc + "/stat") and not helper.broken:
    fields = open(proc + "/stat").read().rsplit(")", 1)[1].split()
    out.update(
        parent=int(fields[1]), group=int(fields[2]), session=int(fields[3]), nice=int(fields[16]),
        fds=sorted(os.readlink(f"{proc}/fd/{fd}") for fd in os.listdir(proc + "/fd")),
        autogroup=open(proc + "/autogroup").read().split()[-1],
    )
print(json.dumps(out), flush=True)
sys.stdin.readline()  # the game runs until the test lets it end
"""


def run_game(tmp_path: Path, mode: str) -> tuple[subprocess.Popen[str], dict[str, object]]:
    game = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SCRIPT), str(tmp_path / "game.lock"), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert game.stdout is not None
    line = game.stdout.readline()
    assert line, "the game script failed"
    return game, json.loads(line)


def end(game: subprocess.Popen[str]) -> None:
    assert game.stdin is not None
    game.stdin.close()
    game.wait(30)


def test_the_helper_rates_as_the_game_would_keeps_nothing_and_goes_with_the_game(
    tmp_path: Path,
) -> None:
    game, out = run_game(tmp_path, "keep")
    try:
        helper = int(out["helper"])  # type: ignore[call-overload]
        assert out["same"] and out["rated"] and not out["broken"]
        assert out["parent"] == out["me"]
        assert out["nice"] == 19  # behind every other game's work
        assert out["session"] == helper and out["autogroup"] == "19"  # ... in any session
        fds = out["fds"]
        assert isinstance(fds, list)
        assert fds.count("/dev/null") == 3 and len(fds) == 5  # and the two pipes
        assert all(f == "/dev/null" or f.startswith("pipe:") for f in fds)
    finally:
        end(game)
    assert wait_until(lambda: process_gone(helper), 10)


def test_the_helper_dies_with_a_killed_game(tmp_path: Path) -> None:
    game, out = run_game(tmp_path, "keep")
    helper = int(out["helper"])  # type: ignore[call-overload]
    assert not process_gone(helper)
    os.killpg(game.pid, signal.SIGKILL)  # no goodbye: the kernel ends the helper
    game.wait(10)
    assert wait_until(lambda: process_gone(helper), 10)


def test_without_its_helper_the_game_rates_by_itself(tmp_path: Path) -> None:
    game, out = run_game(tmp_path, "kill")
    try:
        assert out["same"] and out["rated"] and out["broken"]
    finally:
        end(game)


def test_a_closing_game_waits_for_no_assessment(tmp_path: Path) -> None:
    game, out = run_game(tmp_path, "stop")
    game.wait(30)
    assert out == {"waiting": False, "answers": [None], "known": False}


def test_the_setting_names_a_nice_level_or_none() -> None:
    assert nice_level({"MAC_TUI_ASSESS_NICE": "19"}) == 19
    assert nice_level({"MAC_TUI_ASSESS_NICE": "7"}) == 7
    assert nice_level({"MAC_TUI_ASSESS_NICE": "40"}) == 19
    assert nice_level({"MAC_TUI_ASSESS_NICE": "0"}) is None
    assert nice_level({"MAC_TUI_ASSESS_NICE": "yes"}) is None
    assert nice_level({}) is None


def test_a_local_game_has_a_helper_unless_the_setting_says_none() -> None:
    assert play_level({}) == PLAY_NICE  # `mac-tui play` on a player's own machine
    assert 0 < PLAY_NICE < 19
    assert play_level({"MAC_TUI_ASSESS_NICE": "19"}) == 19  # a server's game
    assert play_level({"MAC_TUI_ASSESS_NICE": "0"}) is None  # asked for none
    assert play_level({"MAC_TUI_ASSESS_NICE": "no"}) is None


SETTERS = r"""
import ctypes, os, sys
from mac_tui.players.assessor import set_autogroup_nice
os.setgid(65534)
os.setuid(65534)  # an unprivileged user, as a server's games are
ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: its own /proc/self again
pids = []
for _ in range(4):  # games starting together: their helpers set their groups at once
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        ok = set_autogroup_nice(19)
        level = open("/proc/self/autogroup").read().split()[-1]
        os.write(w, f"{ok} {level}\n".encode())
        os._exit(0)
    os.close(w)
    pids.append((pid, r))
for pid, r in pids:
    sys.stdout.write(os.read(r, 100).decode())
    os.waitpid(pid, 0)
"""


@pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0 or not Path("/proc/self/autogroup").exists(),
    reason="needs Linux autogroups and root (to become an unprivileged user)",
)
def test_helpers_starting_together_all_get_their_low_priority() -> None:
    """An unprivileged process may set its autogroup's nice level once per 100 ms host-wide;
    four helpers starting at once each get theirs (the refused writes are tried again)."""
    out = subprocess.run(
        [sys.executable, "-c", SETTERS], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert out.split("\n")[:4] == ["True 19"] * 4, out
