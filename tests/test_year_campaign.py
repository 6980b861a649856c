"""A year of campaign played by the autopilot, as a `mac-tui script` file, then replayed.

The autopilot (`mac_tui.players.autopilot`) generates the lines of a script for a fixed seed
until at least 365 days have passed and at least 10 missions were played; the file is played
by `mac-tui script` in a subprocess, which must reach the very same game, and the save it
writes must pass `mac-tui replay --verify`. Battles are single `auto-battle` lines, so the file
stays short; they also dominate the run time (the autopilot's pass and the script's pass each
fight every battle with the AI).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mac_tui.campaign.commands import Buy, Jump, Refit, Sell, Travel
from mac_tui.players.autopilot import fallback_lines, next_line
from mac_tui.players.autorun import AutoRun, autoplay, days_passed
from mac_tui.save import read_save, state_hash
from mac_tui.script import AUTO_BATTLE, run_lines
from mac_tui.session import Session

SEED = 14  # the company lives through the year with this seed (many seeds end earlier)
DAYS = 365
MISSIONS = 10


@pytest.fixture(scope="module")
def year() -> AutoRun:
    return autoplay(SEED, days=DAYS, missions=MISSIONS)


def mac_tui(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mac_tui", *args], capture_output=True, text=True, check=False
    )


def test_the_autopilot_plays_a_year(year: AutoRun) -> None:
    c = year.state.campaign
    assert c is not None
    assert c.ended is None, c.ended
    assert days_passed(year.state) >= DAYS
    assert c.missions_played >= MISSIONS
    assert year.refused == 0  # every line it chose was legal
    verbs = Counter(line.split()[0] for line in year.lines)
    assert verbs["accept"] == verbs[AUTO_BATTLE] == c.missions_played
    assert verbs["travel"] + verbs["jump"] >= 1
    for verb in ("buy", "sell", "refit", "repair", "salvage", "done", "advance-day"):
        assert verbs[verb] >= 1, verb


def test_the_script_replays_to_the_same_game_and_verifies(year: AutoRun, tmp_path: Path) -> None:
    script = tmp_path / "year.txt"
    script.write_text("\n".join(year.lines) + "\n", encoding="utf-8")
    out = tmp_path / "year.json"

    played = mac_tui("script", str(script), "--seed", str(SEED), "--save", str(out))
    assert played.returncode == 0, played.stderr
    assert played.stdout.rstrip().endswith(" 0 refused"), played.stdout[-500:]

    save = read_save(out)
    assert state_hash(save.state) == state_hash(year.state)  # same seed + lines = same game
    assert save.commands == tuple(year.session.commands)
    c = save.state.campaign
    assert c is not None and c.ended is None
    assert c.day - 1 >= DAYS and c.missions_played >= MISSIONS
    kinds = Counter(type(cmd) for cmd in save.commands)
    assert kinds[Travel] + kinds[Jump] >= 1
    assert kinds[Buy] >= 1 and kinds[Sell] >= 1 and kinds[Refit] >= 1

    verified = mac_tui("replay", str(out), "--verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "the state equals the snapshot" in verified.stdout


def test_next_line_is_a_pure_function_of_the_state(year: AutoRun) -> None:
    """The same state always gets the same line; replaying the lines in-process through the
    script driver refuses none of them."""
    session = Session.new(SEED)
    head = list(year.lines[:60])
    results = run_lines(session, head)
    assert all(r.accepted for r in results)
    assert next_line(session.state) == next_line(session.state) == year.lines[60]


def test_the_fallbacks_move_the_game_on() -> None:
    session = Session.new(SEED)
    assert next_line(session.state) == "new-campaign 'Autopilot Company'"
    run_lines(session, ["new-campaign Test"])
    assert fallback_lines(session.state) == ("advance-day 1",)
