"""High scores across players (`mac_tui.server.scores`) and their screen in the game.

The saves are real ones, written by `Session.save` from games set up through the engine (a run
ended by R28's thirty days below zero is ended by `advance-day`, and its debrief is the game's
own text); the damaged ones are broken by hand, one way each.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, Static

from mac_tui.campaign.commands import AdvanceDay, NewCampaign
from mac_tui.campaign.debrief import debrief_text
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.game import Accepted
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

Pilot = Any  # textual.pilot.Pilot[None]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---- saves as the game writes them ---------------------------------------------------------
def campaign_save(
    path: Path,
    company: str,
    seed: int,
    *,
    day: int = 1,
    credits: int | None = None,
    won: int = 0,
    played: int = 0,
) -> Session:
    """A campaign at `day` with these numbers, saved at `path` (as the game autosaves)."""
    session = Session.new(seed)
    assert isinstance(session.apply(NewCampaign(company)), Accepted)
    c = session.state.campaign
    assert c is not None
    c = attrs.evolve(
        c,
        day=day,
        credits=c.credits if credits is None else credits,
        missions_won=won,
        missions_played=played,
    )
    session.state = attrs.evolve(session.state, campaign=c)
    session.save(path)
    return session


def ended_save(path: Path, company: str, seed: int, *, day: int, debrief: bool = True) -> Session:
    """A run that R28 ends on `day`: credits below zero for the 30th day, by `advance-day`;
    the debrief written beside the save as the debrief screen writes it."""
    session = Session.new(seed)
    assert isinstance(session.apply(NewCampaign(company)), Accepted)
    c = session.state.campaign
    assert c is not None
    c = attrs.evolve(c, day=day - 1, credits=-5_000, negative_days=29, missions_played=3)
    session.state = attrs.evolve(session.state, campaign=c)
    assert isinstance(session.apply(AdvanceDay(1)), Accepted)
    c = session.state.campaign
    assert c is not None and c.ended and c.day == day
    session.save(path)
    if debrief:
        text = debrief_text(c, seed, ["The company folds."], c.ended)
        path.with_suffix(".debrief.txt").write_text(text, encoding="utf-8")
    return session


def skirmish_save(path: Path, seed: int) -> None:
    session = Session.new(seed)
    assert isinstance(session.apply(NewSkirmish(2)), Accepted)
    session.save(path)


def server_data(root: Path) -> Path:
    """A server's data folder: alice (a campaign and a quick battle), bob (a finished run and a
    newer campaign), carol (nothing yet), and one web game."""
    players = root / "players"
    alice = players / "alice" / "saves"
    bob = players / "bob" / "saves"
    alice.mkdir(parents=True)
    bob.mkdir(parents=True)
    (players / "carol" / "saves").mkdir(parents=True)
    campaign_save(alice / "wolves-11.json", "Iron Wolves", 11, day=120, won=9, played=10)
    skirmish_save(alice / "skirmish-5.json", 5)
    ended_save(bob / "broke-22.json", "Broke Lancers", 22, day=61)
    campaign_save(bob / "second-23.json", "Second Wind", 23, day=8, won=1, played=1)
    web = root / "web" / "saves"
    web.mkdir(parents=True)
    campaign_save(web / "web-33.json", "Browser Brigade", 33, day=120, won=9, played=12)
    return root


# ---- collecting ----------------------------------------------------------------------------
def test_every_players_campaigns_are_read_and_ranked(tmp_path: Path) -> None:
    data = server_data(tmp_path / "data")
    got = collect(data)
    assert got.notes == ()
    assert [(s.player, s.company) for s in got.rows] == [
        ("(web)", "Browser Brigade"),  # 119 days, 9 won, more credits than alice
        ("alice", "Iron Wolves"),  # 119 days, 9 won
        ("bob", "Broke Lancers"),  # 60 days
        ("bob", "Second Wind"),  # 7 days
    ]
    wolves = got.rows[1]
    assert wolves == Score(
        player="alice",
        company="Iron Wolves",
        days=119,
        missions_won=9,
        missions_played=10,
        credits=wolves.credits,
        outcome="alive",
        cause="",
        seed=11,
        date="30 Apr 2847",
        ended_at="",
        file="players/alice/saves/wolves-11.json",
    )
    assert got.rows[0].credits == wolves.credits  # equal credits: then the player's name
    assert got.rows[0].missions_played == 12


def test_a_finished_run_tells_how_and_where_it_ended(tmp_path: Path) -> None:
    data = server_data(tmp_path / "data")
    broke = next(s for s in collect_scores(data) if s.company == "Broke Lancers")
    assert broke.outcome == "bankrupt"
    assert broke.cause == "credits stayed below zero for 30 days"
    assert broke.days == 60 and broke.missions_played == 3 and broke.credits < 0
    assert broke.date == "02 Mar 2847"
    assert broke.ended_at == "02 Mar 2847 at Junction Station"  # from the debrief file
    # without the debrief the save's header still says how it ended
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


def test_ties_are_broken_by_missions_then_credits_then_names(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    campaign_save(saves / "a.json", "Zulu", 1, day=50, won=2, credits=10)
    campaign_save(saves / "b.json", "Alpha", 2, day=50, won=2, credits=10)
    campaign_save(saves / "c.json", "Rich", 3, day=50, won=2, credits=999_999)
    campaign_save(saves / "d.json", "Winner", 4, day=50, won=3, credits=-100)
    campaign_save(saves / "e.json", "Elder", 5, day=51, won=0, credits=0)
    order = [s.company for s in collect_scores(saves)]
    assert order == ["Elder", "Winner", "Rich", "Alpha", "Zulu"]


BAD_FILES: dict[str, tuple[bytes, str]] = {
    "cut.json": (b'{"magic": "mac-tui-save", "header": {"company": "X"', "damaged JSON"),
    "empty.json": (b"", "damaged JSON"),
    "list.json": (b"[1, 2, 3]", "not a mac-tui save file"),
    "other.json": (b'{"name": "a settings file"}', "not a mac-tui save file"),
    "binary.json": (b"\xff\xfe\x00garbage", "not a text file"),
    "deep.json": (b"[" * 100_000, "damaged JSON"),
    "noheader.json": (b'{"magic": "mac-tui-save", "seed": 1}', 'field "header" is missing'),
}
BAD_HEADERS: dict[str, tuple[dict[str, Any], str]] = {
    "noday.json": ({"day": None}, 'field "header.day" is missing'),
    "textcredits.json": ({"credits": "lots"}, 'field "header.credits" is not a number'),
    "boolwon.json": ({"missions_won": True}, 'field "header.missions_won" is not a number'),
    "nocompany.json": ({"company": None}, 'field "header.company" is missing'),
    "oddend.json": ({"ended": 7}, 'field "header.ended" is not a text'),
}


def test_damaged_files_are_skipped_with_a_note_naming_them(tmp_path: Path) -> None:
    saves = tmp_path / "players" / "eve" / "saves"
    saves.mkdir(parents=True)
    campaign_save(saves / "good.json", "Good Company", 9, day=10)
    for name, (content, _) in BAD_FILES.items():
        (saves / name).write_bytes(content)
    good = json.loads((saves / "good.json").read_text(encoding="utf-8"))
    for name, (change, _) in BAD_HEADERS.items():
        doc = {**good, "header": {**good["header"], **change}}
        doc["header"] = {k: v for k, v in doc["header"].items() if v is not None}
        (saves / name).write_text(json.dumps(doc), encoding="utf-8")
    (saves / "locked.json").mkdir()  # a folder named like a save: cannot be read as one
    got = collect(tmp_path / "players")
    assert [s.company for s in got.rows] == ["Good Company"]
    notes = {note.split(":", 1)[0]: note for note in got.notes}
    expected = {name: why for name, (_, why) in (BAD_FILES | BAD_HEADERS).items()}
    expected["locked.json"] = "cannot be read"
    assert set(notes) == {f"eve/saves/{name}" for name in expected}
    for name, why in expected.items():
        assert why in notes[f"eve/saves/{name}"], notes[f"eve/saves/{name}"]
        assert notes[f"eve/saves/{name}"].endswith("; skipped")


def test_a_header_without_its_seed_takes_the_saves_seed(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    campaign_save(saves / "old.json", "Old Guard", 77, day=3)
    doc = json.loads((saves / "old.json").read_text(encoding="utf-8"))
    del doc["header"]["seed"]
    (saves / "old.json").write_text(json.dumps(doc), encoding="utf-8")
    assert [s.seed for s in collect_scores(saves)] == [77]


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
        (1, "(web)", 119),
        (2, "alice", 119),
        (3, "bob", 60),
        (4, "bob", 7),
    ]
    assert doc["scores"][2]["outcome"] == "bankrupt"
    assert doc["scores"][2]["ended_at"] == "02 Mar 2847 at Junction Station"
    assert doc["skipped"] == [err.strip().removeprefix("mac-tui: ")]
    assert "players/bob/saves/bad.json: damaged JSON" in err


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
        "2",
        "alice",
        "Iron Wolves",
        "119",
        "9/10",
        f"{collect_scores(data)[1].credits:,}",
        "alive",
        "11",
    ]
    assert "bankrupt" in out and "Browser Brigade" in out and "Second Wind" in out


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
    campaign_save(saves / "mine.json", "[bold]Markup[/bold] Co", 4, day=5)
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
        campaign_save(saves / f"c{i:02d}.json", f"Company {i:02d}", 100 + i, day=10 + i, won=i)


async def test_the_title_screen_opens_the_scores_and_escape_comes_back(folder: Path) -> None:
    data = server_data(folder / "data")
    app = MacApp(saves=data / "players" / "alice" / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1  # alice's campaign (her quick battle is no score)
        text = screen_text(app)
        assert "Iron Wolves" in text and "119" in text and "9/10" in text
        assert "Browser Brigade" not in text  # the game's own folder: only alice's
        assert "seed 11" in static_text(app, "#scores-detail")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        # the menu entry does the same, by mouse
        await pilot.click("OptionList", offset=(3, 5))  # the fifth option: High scores
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)


async def test_the_server_sets_the_folder_everyone_is_read_from(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = server_data(folder / "data")
    (data / "players" / "bob" / "saves" / "bad.json").write_text("{", encoding="utf-8")
    monkeypatch.setenv(SCORES_ENV, str(data))
    app = MacApp(saves=data / "players" / "bob" / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ScoresScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 4
        text = screen_text(app)
        for line in text.splitlines():
            assert len(line.rstrip()) <= 80
        rows = [line for line in text.splitlines() if "alive" in line or "bankrupt" in line]
        assert [line.split()[1] for line in rows] == ["(web)", "alice", "bob", "bob"]
        assert "Seed" not in text  # 80 columns: the seed is in the line below the table
        assert "1 file(s) could not be read" in text
        assert "players/bob/saves/bad.json: damaged JSON" in text
        # bob's own runs are in bold, the others not
        bold = [
            str(table.get_row_at(i)[2]) for i in range(4) if table.get_row_at(i)[2].style == "bold"
        ]
        assert bold == ["Broke Lancers", "Second Wind"]
        # the keyboard moves the cursor; the line below follows
        await pilot.press("down", "down")
        assert table.cursor_row == 2
        detail = static_text(app, "#scores-detail")
        assert detail.startswith("3. Broke Lancers by bob")
        assert "ended on 02 Mar 2847 at Junction Station: credits stayed below zero" in detail
        await pilot.press("up")
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


async def test_paging_through_a_long_table(folder: Path) -> None:
    saves = folder / "saves"
    many_saves(saves, 40)
    app = MacApp(saves=saves, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
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
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert "no campaign saves yet in" in static_text(app, "#scores-head")
        assert "Start a campaign" in static_text(app, "#scores-detail")
        campaign_save(saves / "new.json", "Late Comers", 3, day=2)
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.query_one(DataTable).row_count == 1
        assert "1 campaign(s)" in static_text(app, "#scores-head")


async def test_help_explains_the_ranking(folder: Path) -> None:
    app = MacApp(saves=folder / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "ranked by days survived, then missions won" in text
        assert "Refresh" in text


async def test_ascii_glyphs_draw_only_ascii(folder: Path) -> None:
    saves = folder / "saves"
    saves.mkdir()
    campaign_save(saves / "u.json", "Ünïcode Wölves ★", 8, day=30)
    ended_save(saves / "e.json", "Ended · Co", 9, day=40)
    (saves / "bad.json").write_text("{", encoding="utf-8")
    app = MacApp(saves=saves, settings=Settings(glyphs="ascii"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        app.screen.query_one(DataTable).move_cursor(row=1)
        await pilot.pause()
        text = screen_text(app)
    assert [line for line in text.splitlines() if not line.isascii()] == []
    assert "Unicode Wolves *" in text and "Ended | Co" in text
    assert "High scores | 2 campaign(s)" in text
