"""Sessions, saves, `replay --verify` and the headless `script` driver."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mac_tui.game import parse_command
from mac_tui.save import from_json, read_save, to_json
from mac_tui.script import run_lines
from mac_tui.session import Session, saves_dir, verify

LINES = ['new-campaign "Iron Wolves"', "advance-day 2", "hire", "assign Blade F2", "advance-day"]


def played(seed: int = 4) -> Session:
    session = Session.new(seed)
    for line in LINES:
        assert session.apply(parse_command(line)).accepted, line
    return session


def test_session_logs_accepted_commands_with_checkpoints() -> None:
    session = played()
    assert [c.to_text() for c in session.commands] == [
        "new-campaign 'Iron Wolves'",
        "advance-day 2",
        "hire",
        "assign Blade F2",
        "advance-day 1",
    ]
    assert len(session.checkpoints) == len(session.commands)
    assert not session.apply(parse_command("assign Nobody F1")).accepted
    assert len(session.commands) == 5


def test_save_load_gives_the_same_state(tmp_path: Path) -> None:
    session = played()
    path = tmp_path / "wolves.json"
    session.save(path)
    loaded = Session.load(path)
    assert loaded.state == session.state
    assert loaded.commands == session.commands
    header = read_save(path).header
    assert header["company"] == "Iron Wolves" and header["date"] == "04 Jan 2847"


def test_verify_passes_on_an_honest_save() -> None:
    verdict = verify(played().to_save())
    assert verdict.ok, verdict.message


def test_verify_names_the_first_command_where_the_game_parts() -> None:
    doc = json.loads(to_json(played().to_save()))
    doc["commands"][1] = "advance-day 3"  # the log no longer matches its checkpoints
    verdict = verify(from_json(json.dumps(doc)))
    assert not verdict.ok
    assert verdict.first_divergence == 2
    assert "command 2" in verdict.message


def test_verify_reports_a_command_refused_on_replay() -> None:
    doc = json.loads(to_json(played().to_save()))
    doc["commands"][3] = "assign Nobody F2"
    doc["checkpoints"] = []
    verdict = verify(from_json(json.dumps(doc)))
    assert not verdict.ok and verdict.first_divergence == 4
    assert "refused on replay" in verdict.message


def test_script_reports_each_line() -> None:
    session = Session.new(1)
    results = run_lines(session, [*LINES, "# a comment", "", "assign Nobody F1", "fly-away"])
    assert [r.accepted for r in results] == [True] * 5 + [False, False]
    assert "no pilot called Nobody" in results[5].reason
    assert "unknown command" in results[6].reason
    assert results[2].events[0].startswith("-30,000 cr")


def test_script_and_replay_from_the_command_line(tmp_path: Path) -> None:
    script = tmp_path / "year.txt"
    script.write_text("\n".join(LINES) + "\n")
    save = tmp_path / "out.json"
    run = [sys.executable, "-m", "mac_tui"]
    proc = subprocess.run(
        [*run, "script", str(script), "--seed", "3", "--save", str(save), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    doc = json.loads(proc.stdout)
    assert all(r["accepted"] for r in doc["results"])
    assert doc["summary"]["company"] == "Iron Wolves"
    ok = subprocess.run([*run, "replay", str(save), "--verify"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    data = json.loads(save.read_text())
    data["commands"][1] = "advance-day 5"
    save.write_text(json.dumps(data))
    bad = subprocess.run([*run, "replay", str(save), "--verify"], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "command 2" in bad.stdout


def test_replay_of_a_damaged_file_is_refused_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "replay", str(path), "--verify"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "damaged JSON" in proc.stderr and "Traceback" not in proc.stderr


def test_saves_dir_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MAC_TUI_SAVES", str(tmp_path))
    assert saves_dir() == tmp_path
    monkeypatch.delenv("MAC_TUI_SAVES")
    assert saves_dir().name == "saves"
