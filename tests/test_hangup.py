"""A game whose terminal closes saves and exits (issue 11, item 12): `python -m mac_tui play` in
a real PTY of ours, whose master side we close as a closed terminal window does.

Two cases: the game as the terminal's session leader (the kernel sends it SIGHUP), and the game
with no controlling terminal (no SIGHUP comes: before the fix Textual's input thread looped on
end of file at full speed for ever). Under SSH and the web server: test_server_ssh.py and
test_server_web.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from mac_tui.server.games import game_argv
from mac_tui.server.loadtest import PtyTerminal, menu_cursor
from mac_tui.server.spectate import read_header
from mac_tui.tui.hangup import EXIT_DEADLINE

EXIT_BOUND = 10.0  # seconds the game may take to save and exit after the hang-up


def wait_exit(term: PtyTerminal, bound: float) -> int | None:
    end = time.monotonic() + bound
    while term.proc.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    return term.proc.poll()


@pytest.mark.parametrize("leader", [True, False], ids=["session-leader", "no-controlling-tty"])
def test_a_closed_terminal_saves_and_ends_the_game(tmp_path: Path, leader: bool) -> None:
    saves = tmp_path / "saves"
    env = {
        "MAC_TUI_SAVES": str(saves),
        "MAC_TUI_CONFIG": str(tmp_path / "config.toml"),
        "HOME": str(tmp_path),
    }
    # game_argv() makes the PTY its controlling terminal first; the plain command does not
    argv = game_argv() if leader else [sys.executable, "-m", "mac_tui", "play"]
    term = PtyTerminal(argv, env=env, cwd=tmp_path)
    try:
        assert term.wait_for(lambda: menu_cursor(term.screen) is not None, 30), term.output()
        term.send("n")
        assert term.wait_for("Name your company"), term.text()
        term.send("Hangup Hussars")
        assert term.wait_for("Hangup Hussars"), term.text()
        term.send("\r")
        assert term.wait_for("Seed"), term.text()
        term.send("\r")
        assert term.wait_for("Roster"), term.text()
        term.send("d")  # a day passes
        assert term.wait_for("Day report"), term.text()
        term.settle()

        term.hang_up()
        status = wait_exit(term, EXIT_BOUND)
        assert status is not None, "the game outlived its terminal"
        assert status == 0, f"exit status {status} (129: forced after {EXIT_DEADLINE} s)"
    finally:
        term.close()
    (save,) = sorted(saves.glob("*.json"))
    header = read_header(save)
    assert header["company"] == "Hangup Hussars" and header["date"] == "02 Jan 2847"


LAST_RESORT = """
import os, signal, sys, threading
from mac_tui.tui.hangup import Hangup

signal.signal(signal.SIGHUP, lambda *_: print("SIGHUP", flush=True))  # ... and nothing more
read, write = os.pipe()
Hangup(read, deadline=0.5).start()
os.close(write)  # the input hangs up
threading.Event().wait()  # a main thread that never gets round to exiting
"""


def test_a_stuck_game_is_ended_after_the_deadline() -> None:
    """The hang-up sends SIGHUP; a process that still has not exited is ended (status 129)."""
    import subprocess

    run = subprocess.run(
        [sys.executable, "-c", LAST_RESORT], capture_output=True, text=True, timeout=EXIT_BOUND
    )
    assert run.returncode == 129, run.stderr
    assert run.stdout == "SIGHUP\n"
