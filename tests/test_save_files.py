"""Save files under faults and hostile input (issue 11, items 1, 2, 4, 13 and 14).

Hostile files go through `mac-tui replay` (the CLI's `main`, and a real subprocess where a hang
or a traceback is the risk): each is refused with one line naming the file and the field, the
file is left as it was, and nothing hangs. Writing keeps a complete `NAME.json` at every step,
the backup holds the previous state, and a campaign whose file is missing or damaged is
recovered from its backup or temp file, saying so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mac_tui.campaign.commands import AdvanceDay, NewCampaign
from mac_tui.cli import main
from mac_tui.game import Accepted
from mac_tui.safefile import MAX_BYTES
from mac_tui.save import SaveError, read_save
from mac_tui.savefolder import campaign_files, create_save, list_saves, load_save, write_save
from mac_tui.session import Session

from .savefiles import BATTLE_EDITS, GOLDEN, MUTATIONS, dumps, edited, golden_doc

REPLAY = [sys.executable, "-m", "mac_tui", "replay", "--verify"]


def replay(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["replay", "--verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, err: str, path: Path, why: str) -> None:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"mac-tui replay: {path}: "), lines[0]
    assert why in lines[0], lines[0]


# ---- item 2: hostile files ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_a_hostile_save_is_refused_naming_the_file_and_left_as_it_is(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, why = MUTATIONS[kind]
    path = tmp_path / "x.json"
    data = make(golden_doc("campaign-mid-battle"))
    path.write_bytes(data)
    code, out, err = replay(capsys, path)
    assert_refused(code, err, path, why)
    assert out == ""
    assert path.read_bytes() == data


@pytest.mark.parametrize("kind", sorted(BATTLE_EDITS))
def test_a_battle_pointing_past_its_frames_is_refused(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(edited(golden_doc("skirmish-mid-battle"), BATTLE_EDITS[kind]))
    code, _, err = replay(capsys, path)
    field = "snapshot.battle.turn" if "turn" in kind else "snapshot.battle.order["
    assert_refused(code, err, path, f'field "{field}')


def test_what_is_not_a_regular_file_is_refused_without_hanging(tmp_path: Path) -> None:
    """A FIFO (it would wait for a writer for ever), links (dangling, to /dev/zero: never
    followed), a folder: refused at once by a real `mac-tui replay`, no traceback."""
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    (tmp_path / "folder.json").mkdir()
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: takes no room
    expected = {
        "fifo.json": "is a named pipe (FIFO), not a regular file",
        "dangling.json": "is a symbolic link",
        "zero.json": "is a symbolic link",
        "folder.json": "is a folder, not a regular file",
        "big.json": "more than the 64 MiB allowed",
        "missing.json": "no such save file",
    }
    for name, why in expected.items():
        path = tmp_path / name
        proc = subprocess.run(
            [*REPLAY, str(path)], capture_output=True, text=True, timeout=120, check=False
        )
        assert proc.returncode == 2, (name, proc.stdout, proc.stderr)
        assert_refused(proc.returncode, proc.stderr, path, why)


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (GOLDEN / "campaign-after-action.json").read_bytes())
    code, out, _ = replay(capsys, path)
    assert code == 0
    assert "the state equals the snapshot" in out


def test_replay_with_broken_rules_data_prints_the_data_error(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "data"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data", root)
    weapons = root / "weapons.toml"
    weapons.write_text(
        weapons.read_text(encoding="utf-8").replace("damage = 10\n", 'damage = "x"\n', 1),
        encoding="utf-8",
    )
    proc = subprocess.run(
        [*REPLAY, str(GOLDEN / "campaign-after-action.json")],
        capture_output=True,
        text=True,
        env={**os.environ, "MAC_TUI_DATA": str(root)},
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("mac-tui: the rules data is broken: ")
    assert 'data/weapons.toml, weapon "medium_laser"' in proc.stderr


# ---- item 1: writing ---------------------------------------------------------------------------
def campaign(seed: int = 5) -> Session:
    session = Session.new(seed)
    assert isinstance(session.apply(NewCampaign("Iron Wolves")), Accepted)
    return session


def advance(session: Session, days: int = 1) -> None:
    assert isinstance(session.apply(AdvanceDay(days)), Accepted)


def test_the_backup_holds_the_previous_state(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    session = campaign()
    assert session.save(path)
    first = path.stat()
    advance(session)
    assert session.save(path)
    bak = path.with_name("c.json.bak")
    assert len(read_save(bak).commands) == 1 and len(read_save(path).commands) == 2
    assert bak.stat().st_ino == first.st_ino  # the very file that was there: a hard link
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.json", "c.json.bak"]


def test_saving_an_unchanged_game_again_keeps_the_backup(tmp_path: Path) -> None:
    """SIGHUP or SIGTERM right after an autosave (or after loading) must not turn the backup
    into a copy of the current state."""
    path = tmp_path / "c.json"
    session = campaign()
    session.save(path)
    advance(session)
    session.save(path)
    bak = path.with_name("c.json.bak")
    before = (bak.read_bytes(), bak.stat().st_mtime_ns, path.stat().st_mtime_ns)
    assert not session.save(path)  # nothing changed: nothing written
    loaded = Session.load(path)
    assert not loaded.save(path)  # loaded and saved again at once (a hang-up)
    assert (bak.read_bytes(), bak.stat().st_mtime_ns, path.stat().st_mtime_ns) == before
    advance(loaded)
    assert loaded.save(path)
    assert len(read_save(bak).commands) == 2


@pytest.mark.parametrize("damage", ["missing", "cut", "edited type"])
def test_a_missing_or_damaged_file_is_recovered_from_its_backup(
    damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.json"
    session = campaign()
    session.save(path)
    advance(session, 3)
    session.save(path)  # c.json: 2 commands, c.json.bak: 1
    if damage == "missing":
        path.unlink()
    elif damage == "cut":
        path.write_bytes(path.read_bytes()[:100])
    else:
        doc = json.loads(path.read_text(encoding="utf-8"))
        path.write_bytes(dumps({**doc, "seed": True}))
    damaged = path.read_bytes() if path.exists() else None
    loaded = load_save(path)
    assert loaded.recovered and loaded.source.name == "c.json.bak"
    assert len(loaded.save.commands) == 1
    assert "Recovered the campaign from c.json.bak (1 commands)" in loaded.notes[0]
    # the command line says so on stderr, and goes on
    code, out, err = replay(capsys, path)
    assert code == 0 and "replayed 1 commands" in out
    assert err.startswith(f"mac-tui replay: {path}: ") and "Recovered" in err
    # playing on: the next save writes c.json again, keeps the damaged file aside and the
    # good backup as it was
    again, _ = Session.open(path)
    advance(again)
    again.save(path)
    assert len(read_save(path).commands) == 2
    assert len(read_save(path.with_name("c.json.bak")).commands) == 1
    kept = path.with_name("c.json.damaged")
    assert (kept.read_bytes() if kept.exists() else None) == damaged


def test_the_newest_valid_temp_file_wins(tmp_path: Path) -> None:
    """Killed after the temp file was written but before it replaced the save (an older
    layout: the save itself gone): the temp file holds the newest state."""
    path = tmp_path / "c.json"
    session = campaign()
    session.save(path)
    advance(session)
    session.save(path)
    advance(session)
    tmp = path.with_name("c.json.4242.tmp")
    write_save(tmp, session.to_save())  # a whole temp file: 3 commands
    path.with_name("c.json.4243.tmp").write_bytes(b'{"magic": "mac-tui-save", "for')  # cut
    path.unlink()
    loaded = load_save(path)
    assert loaded.source == tmp and len(loaded.save.commands) == 3
    (listed,) = list_saves(tmp_path)  # listed once, under its own name, with its header
    assert listed.path == path and listed.problem and listed.header["company"] == "Iron Wolves"


def test_every_campaign_is_listed_whatever_else_the_folder_holds(tmp_path: Path) -> None:
    good = campaign(1)
    good.save(tmp_path / "good.json")
    orphan = campaign(2)
    orphan.save(tmp_path / "orphan.json")
    os.replace(tmp_path / "orphan.json", tmp_path / "orphan.json.bak")
    (tmp_path / "cut.json").write_text('{"magic": "mac-tui-save"', encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    (tmp_path / "deep.json").write_bytes(b"[" * 100_000)
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "notes.txt").write_text("not a save", encoding="utf-8")
    listed = {item.path.name: item for item in list_saves(tmp_path)}
    assert set(listed) == {
        "good.json",
        "orphan.json",
        "cut.json",
        "fifo.json",
        "dangling.json",
        "zero.json",
        "deep.json",
        "folder.json",
    }
    assert listed["good.json"].problem is None
    assert listed["orphan.json"].header["company"] == "Iron Wolves"  # from its backup
    assert "no such save file" in (listed["orphan.json"].problem or "")
    for name in ("cut.json", "fifo.json", "dangling.json", "zero.json", "deep.json"):
        problem = listed[name].problem or ""
        assert problem.startswith(f"{name}: "), problem
        assert listed[name].header == {}
    assert [p.name for p in campaign_files(tmp_path)] == sorted(listed)
    with pytest.raises(SaveError, match=r"fifo\.json: is a named pipe"):
        load_save(tmp_path / "fifo.json", "fifo.json")


# ---- item 4: a new game never replaces a save --------------------------------------------------
def test_a_new_game_never_replaces_an_existing_save(tmp_path: Path) -> None:
    path = tmp_path / "iron-wolves-5.json"
    first = campaign()
    advance(first, 10)
    first.save(path)
    again = campaign()  # the same company name and seed
    written = again.create(path)
    assert written.name == "iron-wolves-5-2.json"
    assert len(read_save(path).commands) == 2 and not path.with_name(path.name + ".bak").exists()
    advance(again)
    again.save(written)  # the next action saves the new file, not the old one
    assert len(read_save(path).commands) == 2
    assert len(read_save(written).commands) == 2
    # a name whose save is gone but whose backup is left is taken too (it can be recovered)
    os.replace(written, written.with_name(written.name + ".bak"))
    third = create_save(path, campaign().to_save())
    assert third.name == "iron-wolves-5-3.json"


# ---- the snapshot check accepts what the engine makes ----------------------------------------
def test_the_snapshot_check_accepts_every_state_the_engine_makes() -> None:
    """Over a year of campaign (every state after every command of the golden year) and AI
    battles at every difficulty: no state the rules make is called unusable."""
    from mac_tui.combat.skirmish import make_state
    from mac_tui.game import step
    from mac_tui.model import initial_state
    from mac_tui.players.ai import decide
    from mac_tui.snapshot import problems

    year = read_save(GOLDEN / "campaign-year.json")
    state = initial_state(year.seed)
    for command in year.commands:
        outcome = step(state, command)
        assert isinstance(outcome, Accepted)
        state = outcome.state
        assert problems(state) == [], command.to_text()
    for difficulty in range(1, 6):
        state = make_state(100 + difficulty, difficulty)
        while state.battle is not None and state.battle.phase != "over":
            outcome = step(state, decide(state).command)
            assert isinstance(outcome, Accepted)
            state = outcome.state
            assert problems(state) == []


def test_without_hard_links_the_backup_is_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some file systems (FAT, some network mounts) have no hard links: the previous save is
    copied instead, and a new game is still created without replacing anything."""

    def no_links(*args: object, **kwargs: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "c.json"
    session = campaign()
    assert session.create(path) == path
    advance(session)
    session.save(path)
    bak = path.with_name("c.json.bak")
    assert len(read_save(bak).commands) == 1 and len(read_save(path).commands) == 2
    assert bak.stat().st_ino != path.stat().st_ino
    assert campaign().create(path).name == "c-2.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c-2.json", "c.json", "c.json.bak"]
