"""Saves through the terminal app (issue 11, items 1-5, 9 and 13), driven by Textual's pilot.

The title screen's Continue and Load and the game's autosave, with a saves folder holding
hostile files, a campaign whose file is gone, an edited save, an old format, a name clash, a
folder that stops taking saves and a message log that has reached its cap.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from mac_tui.save import read_save
from mac_tui.tui.app import MESSAGES_KEPT, MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.screens.afteraction import AfterActionScreen
from mac_tui.tui.screens.dayreport import DayReportScreen
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.screens.load import LoadScreen
from mac_tui.tui.widgets.dialogs import ConfirmScreen

from .savefiles import BATTLE_EDITS, GOLDEN, credits_edited, edited, golden_doc, unknown_chassis

Pilot = Any  # textual.pilot.Pilot[None]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder


def notes(app: MacApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def age(path: Path, seconds: int) -> None:
    """Make `path` look `seconds` older (Continue opens the newest first)."""
    st = path.lstat()
    os.utime(path, (st.st_atime - seconds, st.st_mtime - seconds), follow_symlinks=False)


def hostile_folder(saves: Path) -> None:
    """A good campaign (the oldest file) among every kind of broken one."""
    shutil.copy(GOLDEN / "campaign-after-action.json", saves / "good.json")
    age(saves / "good.json", 3600)
    os.mkfifo(saves / "fifo.json")
    (saves / "dangling.json").symlink_to(saves / "nowhere.json")
    (saves / "zero.json").symlink_to("/dev/zero")
    (saves / "deep.json").write_bytes(b"[" * 100_000 + b"]" * 100_000)
    (saves / "huge-number.json").write_text('{"seed": ' + "9" * 5000 + "}", encoding="utf-8")
    (saves / "chassis.json").write_bytes(edited(golden_doc("campaign-mid-battle"), unknown_chassis))
    doc = golden_doc("skirmish-mid-battle")
    (saves / "turn.json").write_bytes(edited(doc, BATTLE_EDITS["turn past the order"]))
    (saves / "order.json").write_bytes(edited(doc, BATTLE_EDITS["order names nobody"]))


async def test_broken_files_never_stop_the_others_from_being_listed_or_continued(
    saves: Path,
) -> None:
    hostile_folder(saves)
    before = {p.name: p.read_bytes() for p in saves.iterdir() if p.is_file() and not p.is_symlink()}
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        table = app.screen.query_one(DataTable)
        files = [str(table.get_row_at(i)[-1]) for i in range(table.row_count)]
        assert sorted(files) == sorted(
            [
                "good.json",
                "fifo.json",
                "dangling.json",
                "zero.json",
                "deep.json",
                "huge-number.json",
                "chassis.json",
                "turn.json",
                "order.json",
            ]
        )
        assert files[-1] == "good.json"  # the oldest
        # opening a broken one says what is wrong with it, and stays
        await pilot.press("enter")  # the newest: one of the broken
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        assert any(m.startswith(f"{files[0]}: ") for m in notes(app)), notes(app)
        await pilot.press("escape")
        await pilot.pause()
        # Continue: every broken campaign is named, and the good one opens (the quick battles,
        # broken or not, are only tried when no campaign opens)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, AfterActionScreen)
        said = "\n".join(notes(app))
        for name, why in {
            "fifo.json": "is a named pipe (FIFO), not a regular file",
            "dangling.json": "is a symbolic link",
            "zero.json": "is a symbolic link",
            "deep.json": "nests 100,000 levels deep",
            "huge-number.json": "a number of 5,000 characters",
            "chassis.json": "names an unknown chassis 'XX-99'",
        }.items():
            assert f"{name}: " in said and why in said, (name, said)
        assert "turn.json: " not in said
        await app.workers.wait_for_complete()
    after = {p.name: p.read_bytes() for p in saves.iterdir() if p.is_file() and not p.is_symlink()}
    assert after == before  # nothing was changed, the good save included (nothing played)


async def test_a_campaign_whose_file_is_gone_is_recovered_and_the_player_told(
    saves: Path,
) -> None:
    shutil.copy(GOLDEN / "campaign-after-action.json", saves / "wolves.json.bak")
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, AfterActionScreen)
        assert app.save_path == saves / "wolves.json"
        assert any(
            m.startswith(
                "wolves.json: no such save file. Recovered the campaign from wolves.json.bak"
            )
            for m in notes(app)
        ), notes(app)
        await app.workers.wait_for_complete()


async def test_an_edited_save_is_named_once_its_replay_in_the_background_is_done(
    saves: Path,
) -> None:
    (saves / "rich.json").write_bytes(edited(golden_doc("campaign-after-action"), credits_edited))
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, AfterActionScreen)  # it opens at once
        await app.workers.wait_for_complete()
        await pilot.pause()
        warned = [m for m in notes(app) if "does not follow from its commands" in m]
        assert warned and warned[0].startswith("rich.json: the saved game does not follow")
        n = len(golden_doc("campaign-after-action")["commands"])
        assert f"after all {n} commands the state differs from the snapshot" in warned[0]


async def test_an_honest_old_save_says_who_made_it_and_nothing_else(saves: Path) -> None:
    shutil.copy(GOLDEN.parent / "v1" / "campaign-mid-battle.json", saves / "old.json")
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = notes(app)
        assert said == [
            "old.json was made by mac-tui 0.1.0 (rules version 1, save format 1); it is "
            "saved in format 4 from now on; its commands were played under older rules, so no "
            "replay checks it."
        ]


async def new_campaign(pilot: Pilot, name: str, seed: str) -> None:
    await pilot.press("n", *name, "enter")
    await pilot.press("ctrl+a", "ctrl+k", *seed, "enter")
    await pilot.pause()


async def test_a_new_campaign_never_overwrites_one_of_the_same_name_and_seed(
    saves: Path,
) -> None:
    first = MacApp(saves=saves, settings=Settings())
    async with first.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot, "Iron Wolves", "77")
        await pilot.press("w")  # a week passes: the day report
        await pilot.pause()
        await pilot.press("enter")
    old = saves / "iron-wolves-77.json"
    kept = old.read_bytes()
    second = MacApp(saves=saves, settings=Settings())
    async with second.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot, "Iron Wolves", "77")
        assert isinstance(second.screen, HubScreen)
        assert second.save_path == saves / "iron-wolves-77-2.json"
        await pilot.press("d")  # the next action saves the new file only
        await pilot.pause()
    assert old.read_bytes() == kept
    assert len(read_save(saves / "iron-wolves-77-2.json").commands) == 2
    assert len(read_save(old.with_name(old.name + ".bak")).commands) == 1  # its own backup


async def test_quitting_with_progress_that_could_not_be_saved_asks_first(saves: Path) -> None:
    app = MacApp(saves=saves / "game", settings=Settings())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await new_campaign(pilot, "Iron Wolves", "5")
        # the folder goes away and a file takes its name: no save can be written there now
        # (a read-only folder would not stop root, who runs these tests in containers)
        shutil.rmtree(saves / "game")
        (saves / "game").write_text("in the way", encoding="utf-8")
        await pilot.press("d")
        await pilot.pause()
        assert any(m.startswith("Could not save to iron-wolves-5.json") for m in notes(app))
        await pilot.press("enter")  # close the day report
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # stay
        await pilot.pause()
        assert isinstance(app.screen, HubScreen) and app.is_running
        # the folder is back: quitting saves, and asks nothing
        (saves / "game").unlink()
        (saves / "game").mkdir()
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0
    assert len(read_save(saves / "game" / "iron-wolves-5.json").commands) == 2


async def test_quit_anyway_leaves_when_the_player_says_so(saves: Path) -> None:
    app = MacApp(saves=saves / "game", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot, "Iron Wolves", "5")
        shutil.rmtree(saves / "game")
        (saves / "game").write_text("in the way", encoding="utf-8")
        await pilot.press("d", "enter")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


async def test_day_reports_come_from_the_command_not_from_the_capped_message_log(
    saves: Path,
) -> None:
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot, "Iron Wolves", "5")
        app.messages.extend(f"an earlier line {i}" for i in range(MESSAGES_KEPT))  # a long battle
        await pilot.press("w")
        await pilot.pause()
        report = app.screen
        assert isinstance(report, DayReportScreen)
        assert report.lines == [e.describe() for e in app.last_events]
        assert any("upkeep" in line.lower() for line in report.lines), report.lines
        assert len(app.messages) == MESSAGES_KEPT


def test_play_load_of_a_broken_save_is_one_line_and_no_game(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"[" * 100_000)
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "play", "--load", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        f"mac-tui play: {path}: not a readable save: it nests 100,000 levels deep "
        "(at most 64 are read).\n"
    )


def test_script_save_into_an_unwritable_place_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text('new-campaign "Iron Wolves"\nadvance-day 2\n', encoding="utf-8")
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    out = tmp_path / "file" / "save.json"
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "script", str(script), "--save", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"mac-tui script: cannot save to {out}: ")
    assert proc.stderr.count("\n") == 1
    assert "advance-day 2" in proc.stdout  # the results are still shown


async def test_a_save_of_older_rules_loads_and_says_so_not_that_it_was_edited(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a later version with new rules would open today's saves."""
    from mac_tui import save as save_module
    from mac_tui import session as session_module
    from mac_tui.game import RULES_VERSION

    monkeypatch.setattr(save_module, "RULES_VERSION", RULES_VERSION + 1)
    monkeypatch.setattr(session_module, "RULES_VERSION", RULES_VERSION + 1)
    shutil.copy(GOLDEN / "campaign-after-action.json", saves / "old.json")
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, AfterActionScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        made_by = read_save(GOLDEN / "campaign-after-action.json").origin()
        assert made_by.endswith("(rules version 3, save format 4)")
        assert notes(app) == [
            f"old.json was made by {made_by}; it is saved in format 4 from now on; its commands "
            "were played under older rules, so no replay checks it."
        ]


@pytest.mark.parametrize("after", ["frame", "sighup", "next day"])
async def test_a_day_is_on_disk_before_its_frame_and_a_hang_up_or_the_next_day_finds_it(
    saves: Path, after: str
) -> None:
    """A day is on disk when its frame goes out: the save and its journal (`journal.py`, the
    line written before the frame) load as the day; once the frame is out the whole file is
    written, byte for byte the text `to_json` writes of the game, and the journal emptied; a
    hang-up right after the frame (`save_and_exit`) writes nothing older, and the next day's
    save is the next state, in order, the day before it the backup."""
    from mac_tui.journal import journal_path
    from mac_tui.save import to_json
    from mac_tui.savefolder import load_save
    from mac_tui.tui.benchmark import hub_factory

    from .wide import YEAR

    path = saves / "year.json"
    shutil.copy(YEAR, path)
    app = hub_factory(path, saves)()
    assert isinstance(app, MacApp)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        on_disk: list[Any] = []
        display = app._display

        def shown(screen: Any, update: Any) -> None:
            on_disk.append(load_save(path).save.state)  # as the frame goes out
            display(screen, update)

        app._display = shown  # type: ignore[method-assign,assignment]
        before = read_save(path).state
        await pilot.press("d")
        assert app.session is not None
        day = app.session.state
        if after == "sighup":  # at once: the whole file may not be written yet
            app.save_and_exit()
            await pilot.pause()
            assert read_save(path).state == day
            assert on_disk and on_disk[0] == day != before
            return
        await pilot.pause(0.05)
        assert isinstance(app.screen, DayReportScreen)
        assert on_disk and on_disk[0] == day != before
        if after == "next day":
            await pilot.press("escape", "d")
            await pilot.pause(0.05)
            assert read_save(path).state == app.session.state != day
            assert read_save(path.with_name(path.name + ".bak")).state == day
        else:
            assert path.read_text() == to_json(app.session.to_save())
            assert journal_path(path).read_bytes() == b""
