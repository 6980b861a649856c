"""High scores across players (`mac_tui.server.scores`) and their screen in the game.

The saves are real ones, played through the engine and written by `Session.save` (a run ended
by R28's thirty days below zero is ended by `advance-day`, and its debrief is the game's own
text; the year-long campaign with its missions is the golden one): the scores come from the
state a save's commands rebuild, so a save edited by hand would not score what it says. The
damaged and edited ones are broken by hand, one way each.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, Static

from mac_tui import save as save_module
from mac_tui.campaign.commands import AdvanceDay, NewCampaign
from mac_tui.campaign.debrief import debrief_text
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.game import RULES_VERSION, Accepted
from mac_tui.server import scores
from mac_tui.server.scores import (
    SCORES_ENV,
    WEB_PLAYER,
    Score,
    collect,
    collect_scores,
    outcome_of,
    print_scores,
)
from mac_tui.session import SAVES_ENV, Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.screens.help import HelpScreen
from mac_tui.tui.screens.scores import ScoresScreen
from mac_tui.tui.screens.title import TitleScreen

from .savefiles import dumps, rehash

Pilot = Any  # textual.pilot.Pilot[None]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---- saves as the game writes them ---------------------------------------------------------
GOLDEN = Path(__file__).parent / "golden" / "v3"  # the saves of the current rules version
YEAR = GOLDEN / "campaign-year.json"  # 369 days, 35 missions won of 56 (seed 14)


def campaign_save(path: Path, company: str, seed: int, *, days: int = 0) -> Session:
    """A campaign `days` days after it began, played and saved as the game does."""
    session = Session.new(seed)
    assert isinstance(session.apply(NewCampaign(company)), Accepted)
    if days:
        assert isinstance(session.apply(AdvanceDay(days)), Accepted)
    session.save(path)
    return session


def ended_save(path: Path, company: str, seed: int, *, debrief: bool = True) -> Session:
    """A run R28 ends: a company that only waits runs out of money, and after thirty days
    below zero it is over (on day 364); the debrief written beside the save as the debrief
    screen writes it."""
    session = Session.new(seed)
    assert isinstance(session.apply(NewCampaign(company)), Accepted)
    assert isinstance(session.apply(AdvanceDay(365)), Accepted)  # stops when the run ends
    c = session.state.campaign
    assert c is not None and c.ended and c.day == BROKE_DAY
    session.save(path)
    if debrief:
        text = debrief_text(c, seed, ["The company folds."], c.ended)
        path.with_suffix(".debrief.txt").write_text(text, encoding="utf-8")
    return session


BROKE_DAY = 364


def skirmish_save(path: Path, seed: int) -> None:
    session = Session.new(seed)
    assert isinstance(session.apply(NewSkirmish(2)), Accepted)
    session.save(path)


def server_data(root: Path) -> Path:
    """A server's data folder: alice (a campaign and a quick battle), bob (a finished run and a
    newer campaign), carol (nothing yet), and one web game (a year-long campaign)."""
    players = root / "players"
    alice = players / "alice" / "saves"
    bob = players / "bob" / "saves"
    alice.mkdir(parents=True)
    bob.mkdir(parents=True)
    (players / "carol" / "saves").mkdir(parents=True)
    campaign_save(alice / "wolves-11.json", "Iron Wolves", 11, days=119)
    skirmish_save(alice / "skirmish-5.json", 5)
    ended_save(bob / "broke-22.json", "Broke Lancers", 22)
    campaign_save(bob / "second-23.json", "Second Wind", 23, days=7)
    web = root / "web" / "saves"
    web.mkdir(parents=True)
    shutil.copy(YEAR, web / "web-14.json")
    return root


def rewritten(path: Path, change: Callable[[dict[str, Any]], None], *, snapshot: bool) -> None:
    """Edit a save file as a player with a text editor would (the hash made to match)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc["snapshot"] if snapshot else doc["header"])
    path.write_bytes(dumps(rehash(doc)))


# ---- collecting ----------------------------------------------------------------------------
def test_every_players_campaigns_are_read_and_ranked(tmp_path: Path) -> None:
    data = server_data(tmp_path / "data")
    got = collect(data)
    assert got.notes == () and got.flagged == ()
    assert [(s.player, s.company, s.days) for s in got.rows] == [
        ("(web)", "Autopilot Company", 368),
        ("bob", "Broke Lancers", BROKE_DAY - 1),
        ("alice", "Iron Wolves", 119),
        ("bob", "Second Wind", 7),
    ]
    wolves = got.rows[2]
    assert wolves == Score(
        player="alice",
        company="Iron Wolves",
        days=119,
        missions_won=0,
        missions_played=0,
        credits=wolves.credits,
        outcome="alive",
        cause="",
        seed=11,
        date="30 Apr 2847",
        ended_at="",
        file="players/alice/saves/wolves-11.json",
    )
    assert wolves.verified and wolves.credits < 500_000  # the upkeep of 119 days was paid
    year = got.rows[0]
    assert (year.missions_won, year.missions_played, year.seed) == (35, 56, 14)


def test_a_finished_run_tells_how_and_where_it_ended(tmp_path: Path) -> None:
    data = server_data(tmp_path / "data")
    broke = next(s for s in collect_scores(data) if s.company == "Broke Lancers")
    assert broke.outcome == "bankrupt"
    assert broke.cause == "credits stayed below zero for 30 days"
    assert broke.days == BROKE_DAY - 1 and broke.missions_played == 0 and broke.credits < 0
    assert broke.date == "30 Dec 2847"
    assert broke.ended_at == "30 Dec 2847 at Junction Station"  # from the debrief file
    # without the debrief the save itself still says how it ended
    Path(data / "players/bob/saves/broke-22.debrief.txt").unlink()
    broke = next(s for s in collect_scores(data) if s.company == "Broke Lancers")
    assert (broke.outcome, broke.ended_at) == ("bankrupt", "")
    assert broke.cause == "credits stayed below zero for 30 days"


def test_quick_battles_are_not_scores(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    skirmish_save(saves / "skirmish-1.json", 1)
    got = collect(saves)
    assert got.rows == () and got.notes == ()


def test_the_layouts_a_root_can_have(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = server_data(tmp_path / "data")
    players = [s.player for s in collect_scores(data / "players")]  # DATA/players alone
    assert sorted(players) == ["alice", "bob", "bob"]
    monkeypatch.setattr("getpass.getuser", lambda: "dana")
    mine = collect_scores(data / "players" / "bob" / "saves")  # a plain saves folder
    assert [(s.player, s.file) for s in mine] == [
        ("dana", "broke-22.json"),
        ("dana", "second-23.json"),
    ]

    def no_user() -> str:
        raise OSError("no user")

    monkeypatch.setattr("getpass.getuser", no_user)
    assert {s.player for s in collect_scores(data / "web" / "saves")} == {"you"}
    assert WEB_PLAYER not in {s.player for s in collect_scores(data / "players")}
    # a folder that is not there: no rows, and it says so
    missing = collect(tmp_path / "nowhere")
    assert missing.rows == () and "no such folder" in missing.source


def score(company: str, days: int, won: int, credits: int, player: str = "p") -> Score:
    return Score(player, company, days, won, won, credits, "alive", "", 1, "", "", company)


def test_ties_are_broken_by_missions_then_credits_then_names() -> None:
    rows = [
        score("Zulu", 49, 2, 10),
        score("Alpha", 49, 2, 10),
        score("Rich", 49, 2, 999_999),
        score("Winner", 49, 3, -100),
        score("Elder", 50, 0, 0),
        score("Alpha", 49, 2, 10, player="a"),
    ]
    order = [(s.player, s.company) for s in sorted(rows, key=Score.rank_key)]
    assert order == [
        ("p", "Elder"),
        ("p", "Winner"),
        ("p", "Rich"),
        ("a", "Alpha"),
        ("p", "Alpha"),
        ("p", "Zulu"),
    ]


BAD_FILES: dict[str, tuple[bytes, str]] = {
    "cut.json": (b'{"magic": "mac-tui-save", "header": {"company": "X"', "damaged JSON"),
    "empty.json": (b"", "damaged JSON"),
    "list.json": (b"[1, 2, 3]", "not a mac-tui save file"),
    "other.json": (b'{"name": "a settings file"}', "not a mac-tui save file"),
    "binary.json": (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    "deep.json": (b"[" * 100_000, "nests 100,000 levels deep"),
    "noformat.json": (b'{"magic": "mac-tui-save", "seed": 1}', 'field "format" is missing'),
}


def test_damaged_files_are_skipped_with_a_note_naming_them(tmp_path: Path) -> None:
    saves = tmp_path / "players" / "eve" / "saves"
    saves.mkdir(parents=True)
    campaign_save(saves / "good.json", "Good Company", 9, days=9)
    for name, (content, _) in BAD_FILES.items():
        (saves / name).write_bytes(content)
    (saves / "locked.json").mkdir()  # a folder named like a save: cannot be read as one
    os.mkfifo(saves / "fifo.json")  # would hang a plain read
    (saves / "zero.json").symlink_to("/dev/zero")  # would fill the memory
    chassis = saves / "chassis.json"
    campaign_save(chassis, "Odd Frames", 10)
    rewritten(chassis, lambda s: s["campaign"]["frames"][0].update(chassis="XX-99"), snapshot=True)
    got = collect(tmp_path / "players")
    assert [s.company for s in got.rows] == ["Good Company"]
    notes = {note.split(":", 1)[0]: note for note in got.notes}
    expected = {name: why for name, (_, why) in BAD_FILES.items()}
    expected["locked.json"] = "is a folder, not a regular file"
    expected["fifo.json"] = "is a named pipe (FIFO)"
    expected["zero.json"] = "is a symbolic link"
    expected["chassis.json"] = "names an unknown chassis 'XX-99'"
    assert set(notes) == {f"eve/saves/{name}" for name in expected}
    for name, why in expected.items():
        assert why in notes[f"eve/saves/{name}"], notes[f"eve/saves/{name}"]
        assert notes[f"eve/saves/{name}"].endswith("; skipped")


def test_the_figures_come_from_the_game_not_from_the_editable_file(tmp_path: Path) -> None:
    """Item 3: an edited header changes nothing; an edited snapshot (its hash made to match)
    is scored as its commands rebuild it, with a note saying so."""
    saves = tmp_path / "saves"
    saves.mkdir()
    honest = campaign_save(saves / "header.json", "Header Co", 3, days=20)
    rewritten(saves / "header.json", lambda h: h.update(day=9999, missions_won=99), snapshot=False)
    campaign_save(saves / "snap.json", "Snapshot Co", 4, days=20)
    rewritten(
        saves / "snap.json",
        lambda s: s["campaign"].update(day=900, missions_won=40, missions_played=40),
        snapshot=True,
    )
    got = collect(saves)
    rows = {s.company: s for s in got.rows}
    assert (rows["Header Co"].days, rows["Header Co"].missions_won) == (20, 0)
    assert rows["Header Co"].note == "" and rows["Header Co"].verified
    c = honest.state.campaign
    assert c is not None and rows["Header Co"].credits == c.credits
    assert (rows["Snapshot Co"].days, rows["Snapshot Co"].missions_won) == (20, 0)
    assert got.flagged == (
        "snap.json: the saved game does not follow from its commands: scored as they rebuild it",
    )


def test_replays_are_cached_by_the_files_content(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    shutil.copy(YEAR, saves / "year.json")
    first = collect(saves)
    cache = saves / ".scores-cache.json"
    assert cache.exists()
    entries = json.loads(cache.read_text(encoding="utf-8"))["entries"]
    digest = hashlib.sha256((saves / "year.json").read_bytes()).hexdigest()
    assert list(entries) == [digest] and entries[digest]["missions_won"] == 35
    assert collect(saves).rows == first.rows  # from the cache
    # an edit is a new file: replayed again, never taken from the cache
    rewritten(saves / "year.json", lambda s: s["campaign"].update(missions_won=15), snapshot=True)
    again = collect(saves)
    assert again.rows[0].missions_won == 35 and again.flagged
    # a cache that is damaged, or forged for another version, is not used
    cache.write_text('{"tag": "0.0.0/1", "entries": {}}', encoding="utf-8")
    assert collect(saves).rows == again.rows
    cache.write_bytes(b"[" * 100_000)
    assert collect(saves).rows == again.rows


def test_a_save_of_older_rules_is_scored_from_its_snapshot_and_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    shutil.copy(YEAR, saves / "year.json")
    monkeypatch.setattr(save_module, "RULES_VERSION", RULES_VERSION + 1)
    monkeypatch.setattr(scores, "RULES_VERSION", RULES_VERSION + 1)
    (row,) = collect(saves).rows
    assert not row.verified and row.missions_won == 35
    assert row.note.startswith(f"made by {save_module.read_save(YEAR).origin()}")
    assert "(rules version 3, save format 4)" in row.note


def test_outcome_words() -> None:
    assert outcome_of("") == "alive"
    assert outcome_of("credits stayed below zero for 30 days") == "bankrupt"
    cause = "no frame can deploy (the cheapest fix costs 9,000), with 12 credits in hand"
    assert outcome_of(cause) == "broken"
    assert outcome_of("no pilot is left (hiring costs 30,000), with 0 credits in hand") == "broken"
    assert outcome_of("the company stood down") == "ended"


# ---- the command line ----------------------------------------------------------------------
def test_print_scores_json_covers_the_whole_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = server_data(tmp_path / "data")
    (data / "players" / "bob" / "saves" / "bad.json").write_text("{", encoding="utf-8")
    assert print_scores(data, as_json=True) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert [(r["rank"], r["player"], r["days"]) for r in doc["scores"]] == [
        (1, "(web)", 368),
        (2, "bob", BROKE_DAY - 1),
        (3, "alice", 119),
        (4, "bob", 7),
    ]
    assert doc["scores"][1]["outcome"] == "bankrupt"
    assert doc["scores"][1]["ended_at"] == "30 Dec 2847 at Junction Station"
    assert all(r["verified"] and r["note"] == "" for r in doc["scores"])
    assert doc["skipped"] == [err.strip().removeprefix("mac-tui: ")]
    assert "players/bob/saves/bad.json: not a readable save: it is damaged JSON" in err


def test_print_scores_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    data = server_data(tmp_path / "data")
    assert print_scores(data, as_json=False) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "Iron Wolves" in line]
    assert len(lines) == 1
    assert [cell.strip() for cell in lines[0].strip("│┃ ").split("│")] == [
        "3",
        "alice",
        "Iron Wolves",
        "119",
        "0/0",
        f"{collect_scores(data)[2].credits:,}",
        "alive",
        "11",
    ]
    assert "bankrupt" in out and "Autopilot Company" in out and "Second Wind" in out


def test_print_scores_local_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    saves = tmp_path / "saves"
    monkeypatch.setenv(SAVES_ENV, str(saves))
    monkeypatch.delenv(SCORES_ENV, raising=False)
    assert print_scores(None, as_json=False) == 0  # no saves folder yet
    assert "No campaign saves yet" in capsys.readouterr().out
    saves.mkdir()
    campaign_save(saves / "mine.json", "[bold]Markup[/bold] Co", 4, days=4)
    monkeypatch.setattr(scores, "local_player", lambda: "me")
    assert print_scores(None, as_json=True) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(r["player"], r["company"], r["days"]) for r in doc["scores"]] == [
        ("me", "[bold]Markup[/bold] Co", 4)
    ]
    assert print_scores(None, as_json=False) == 0
    assert "[bold]Markup[/bold] Co" in capsys.readouterr().out  # names are not Rich markup
    assert print_scores(tmp_path / "missing", as_json=False) == 2
    assert f"no data folder at {tmp_path / 'missing'}" in capsys.readouterr().err


# ---- the screen ----------------------------------------------------------------------------
@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    monkeypatch.delenv(SCORES_ENV, raising=False)
    return tmp_path


def screen_text(app: MacApp) -> str:
    """The whole screen as the terminal shows it, as text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


def static_text(app: MacApp, selector: str) -> str:
    content = app.screen.query_one(selector, Static).render()
    return content.plain if isinstance(content, Text) else str(content)


def many_saves(saves: Path, n: int) -> None:
    saves.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        campaign_save(saves / f"c{i:02d}.json", f"Company {i:02d}", 100 + i, days=10 + i)


async def open_scores(pilot: Pilot, app: MacApp) -> None:
    """h on the title screen, and the table read (in its background thread)."""
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_title_screen_opens_the_scores_and_escape_comes_back(folder: Path) -> None:
    data = server_data(folder / "data")
    app = MacApp(saves=data / "players" / "alice" / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_scores(pilot, app)
        assert isinstance(app.screen, ScoresScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1  # alice's campaign (her quick battle is no score)
        text = screen_text(app)
        assert "Iron Wolves" in text and "119" in text and "0/0" in text
        assert "Autopilot Company" not in text  # the game's own folder: only alice's
        assert "seed 11" in static_text(app, "#scores-detail")
        assert f"the saves in {data / 'players' / 'alice' / 'saves'}" in static_text(
            app, "#scores-head"
        )  # the player's own folder, on the player's own machine
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        # the menu entry does the same, by mouse
        await pilot.click("OptionList", offset=(3, 6))  # the sixth option: High scores
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        await app.workers.wait_for_complete()


async def test_the_server_sets_the_folder_everyone_is_read_from(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = server_data(folder / "data")
    (data / "players" / "bob" / "saves" / "bad.json").write_text("{", encoding="utf-8")
    monkeypatch.setenv(SCORES_ENV, str(data))
    app = MacApp(saves=data / "players" / "bob" / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_scores(pilot, app)
        screen = app.screen
        assert isinstance(screen, ScoresScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 4
        text = screen_text(app)
        for line in text.splitlines():
            assert len(line.rstrip()) <= 80
        rows = [line for line in text.splitlines() if "alive" in line or "bankrupt" in line]
        assert [line.split()[1] for line in rows] == ["(web)", "bob", "alice", "bob"]
        assert "Seed" not in text  # 80 columns: the seed is in the line below the table
        # the header says whose runs these are, never where the server keeps them
        head = static_text(app, "#scores-head")
        assert "this server's saves" in head and str(folder) not in text
        assert "1 file(s) could not be read" in text
        assert "players/bob/saves/bad.json: not a readable save" in text
        # bob's own runs are in bold, the others not
        bold = [
            str(table.get_row_at(i)[2]) for i in range(4) if table.get_row_at(i)[2].style == "bold"
        ]
        assert bold == ["Broke Lancers", "Second Wind"]
        # the keyboard moves the cursor; the line below follows
        await pilot.press("down")
        assert table.cursor_row == 1
        detail = static_text(app, "#scores-detail")
        assert detail.startswith("2. Broke Lancers by bob")
        assert "ended on 30 Dec 2847 at Junction Station: credits stayed below zero" in detail
        await pilot.press("down")
        assert "still going on 30 Apr 2847" in static_text(app, "#scores-detail")
        # the mouse: a click on a row picks it
        await pilot.click(DataTable, offset=(5, 4))  # header line, then rows 1, 2, 3, 4
        await pilot.pause()
        assert table.cursor_row == 3
        assert static_text(app, "#scores-detail").startswith("4. Second Wind by bob")
        # wider: the seed gets its column
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        text = screen_text(app)
        assert "Seed" in text and table.cursor_row == 3
        wolves = next(line for line in text.splitlines() if "Iron Wolves" in line)
        assert wolves.split()[-1] == "11"


async def test_an_edited_save_is_named_below_the_table(folder: Path) -> None:
    saves = folder / "saves"
    saves.mkdir()
    campaign_save(saves / "snap.json", "Snapshot Co", 4, days=20)
    rewritten(saves / "snap.json", lambda s: s["campaign"].update(day=900), snapshot=True)
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await open_scores(pilot, app)
        text = screen_text(app)
        assert "1 run(s) not scored as saved" in text
        assert "snap.json: the saved game does not follow from its commands" in text
        row = next(line for line in text.splitlines() if "Snapshot Co" in line)
        cells = row.split()
        assert cells[cells.index("Co") + 1] == "20"  # the days its commands played, not 899


async def test_paging_through_a_long_table(folder: Path) -> None:
    saves = folder / "saves"
    many_saves(saves, 40)
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_scores(pilot, app)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 40
        assert static_text(app, "#scores-detail").startswith("1. Company 39")
        await pilot.press("pagedown")
        await pilot.pause()
        first_page = table.cursor_row
        assert first_page > 5
        assert f"{first_page + 1}. Company {39 - first_page:02d}" in static_text(
            app, "#scores-detail"
        )
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        assert table.cursor_row == 39
        assert "Company 00" in screen_text(app)  # scrolled to the end
        await pilot.press("pageup")
        await pilot.pause()
        assert table.cursor_row < 39


async def test_refresh_reads_new_saves_and_an_empty_folder_says_so(folder: Path) -> None:
    saves = folder / "saves"
    saves.mkdir()
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_scores(pilot, app)
        assert "no campaign saves yet in" in static_text(app, "#scores-head")
        assert "Start a campaign" in static_text(app, "#scores-detail")
        campaign_save(saves / "new.json", "Late Comers", 3, days=1)
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.query_one(DataTable).row_count == 1
        assert "1 campaign(s)" in static_text(app, "#scores-head")
        assert "1 campaign(s) read." in [str(n.message) for n in app._notifications]


async def test_help_explains_the_ranking(folder: Path) -> None:
    app = MacApp(saves=folder / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_scores(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "ranked by days survived, then missions won" in text
        assert "Refresh" in text


async def test_ascii_glyphs_draw_only_ascii(folder: Path) -> None:
    saves = folder / "saves"
    saves.mkdir()
    campaign_save(saves / "u.json", "Ünïcode Wölves ★", 8, days=30)
    ended_save(saves / "e.json", "Ended · Co", 9)
    (saves / "bad.json").write_text("{", encoding="utf-8")
    app = MacApp(saves=saves, settings=Settings(glyphs="ascii"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_scores(pilot, app)
        app.screen.query_one(DataTable).move_cursor(row=1)
        await pilot.pause()
        text = screen_text(app)
    assert [line for line in text.splitlines() if not line.isascii()] == []
    assert "Unicode Wolves *" in text and "Ended | Co" in text
    assert "High scores | 2 campaign(s)" in text


async def test_leaving_before_the_table_is_read_is_fine(folder: Path) -> None:
    saves = folder / "saves"
    saves.mkdir()
    shutil.copy(YEAR, saves / "year.json")  # a replay of a third of a second
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h", "escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        await open_scores(pilot, app)
        assert app.screen.query_one(DataTable).row_count == 1
    assert app.return_code in (0, None)
