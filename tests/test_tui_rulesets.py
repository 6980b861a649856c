"""Rulesets on the screens (optional-rules O0.1, O0.3): the optional rules chosen for a new
campaign (under the seed) and a quick battle (under the difficulties), refused choices greyed
with their reason, and the rules shown where a game is shown: status line, battle title,
reports, help, the save list."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import Button, DataTable, OptionList

from mac_tui import ruleset as rs
from mac_tui.combat.skirmish import make_state
from mac_tui.game import parse_command
from mac_tui.players.ai_v1 import decide  # the first AI: quick, and enough to end a battle
from mac_tui.savefolder import Listing, peek_header
from mac_tui.server.scores import SCORES_ENV, collect, scores_json
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.screens.afteraction import AfterActionScreen
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.layout import title_forms
from mac_tui.tui.screens.help import HelpScreen
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.screens.load import row_cells, rules_cell
from mac_tui.tui.screens.rules import RulesScreen
from mac_tui.tui.screens.scores import ScoresScreen
from mac_tui.tui.screens.skirmish_report import report_text
from mac_tui.tui.widgets.dialogs import AskScreen, ChooseScreen
from mac_tui.tui.widgets.rules_choice import RulesetScreen, module_choices, toggle
from mac_tui.tui.widgets.status import status_text

Pilot = Any  # textual.pilot.Pilot[None]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))


@pytest.fixture
def playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pretend the engine plays O2 and O3 (they land on their own branches)."""
    monkeypatch.setattr(rs, "PLAYABLE", frozenset({"O2", "O3"}))
    yield


async def press(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def plain(widget: Any) -> str:
    content = widget.render()
    return content.plain if isinstance(content, Text) else str(content)


# ---- the choice, without a screen -------------------------------------------------------------
def test_each_module_says_whether_it_can_be_switched_on_and_why_not(playable: None) -> None:
    choices = {c.id: c for c in module_choices(("O2",))}
    assert list(choices) == [f"O{n}" for n in range(1, 12)]
    assert choices["O2"].on and choices["O2"].refusal is None
    assert not choices["O3"].on and choices["O3"].refusal is None
    o1 = choices["O1"]  # excluded with O2 (O0.3), and not playable either: the pair comes first
    assert o1.short == "not with O2"
    assert o1.refusal is not None and o1.refusal.startswith("O1 and O2 cannot be played together")
    o4 = choices["O4"]
    assert o4.short == "not in this version"
    assert o4.refusal == "not playable in this version of the game: O4 Facing and arcs"
    assert module_choices(())[0].short == "not in this version"  # O1 alone: no pair to blame


def test_switching_a_module_keeps_module_order_or_says_why_not(playable: None) -> None:
    assert toggle((), "O3") == ("O3",)
    assert toggle(("O3",), "O2") == ("O2", "O3")
    assert toggle(("O2", "O3"), "O2") == ("O3",)
    refused = toggle(("O2",), "O1")
    assert isinstance(refused, str) and "range-band battles have no map" in refused


# ---- the dialogs ------------------------------------------------------------------------------
async def choose_o2(pilot: Pilot) -> None:
    """From a dialog with the optional rules button: Tab to it, open the chooser, switch the
    highlighted module (the first that can be: O2) on, keep the choice."""
    app: MacApp = pilot.app
    await press(pilot, "tab")
    assert isinstance(app.focused, Button) and app.focused.id == "aside"
    await press(pilot, "enter")
    assert isinstance(app.screen, RulesetScreen)
    await press(pilot, "space", "enter")
    assert not isinstance(app.screen, RulesetScreen)
    label = str(app.screen.query_one("#aside", Button).label)
    assert label.startswith("Optional rules: O2 Elevation and falling")


async def test_a_quick_battle_is_fought_under_the_rules_chosen(
    tmp_path: Path, playable: None
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "b")
        assert isinstance(app.screen, ChooseScreen)
        await choose_o2(pilot)
        await press(pilot, "enter")  # difficulty 1: Enter answers the dialog again
        assert isinstance(app.screen, BattleScreen)
        assert app.session is not None and app.session.state.ruleset == ("O2",)
        assert "rules O2" in plain(app.screen.query_one("#battle-title"))
        (save,) = tmp_path.glob("skirmish-*.json")
        assert json.loads(save.read_text(encoding="utf-8"))["ruleset"] == "O2"


async def test_a_campaign_is_created_under_the_rules_chosen_and_shows_them(
    tmp_path: Path, playable: None
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "n", *"Iron", "enter")
        assert isinstance(app.screen, AskScreen)
        await choose_o2(pilot)
        await press(pilot, "enter")  # the seed offered
        assert isinstance(app.screen, HubScreen)
        assert app.session is not None and app.session.state.ruleset == ("O2",)
        assert app.session.commands[0].to_text() == "new-campaign Iron --rules O2"
        assert "Rules O2" in plain(app.screen.query_one("StatusBar"))
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        seed = app.session.state.seed
        help_text = str(app.screen.text())
        assert f"mac-tui play --seed {seed} --rules O2 starts it again." in help_text
        assert "Optional rules: O2 Elevation and falling." in help_text


async def test_a_refused_module_stays_off_and_says_why(tmp_path: Path, playable: None) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(RulesetScreen(("O2",), "this battle"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesetScreen)
        options = screen.query_one(OptionList)
        assert options.highlighted == 1  # O2, the first that can be switched
        await press(pilot, "up")  # O1: excluded with O2
        detail = plain(screen.query_one("#module-detail"))
        assert "Refused: O1 and O2 cannot be played together" in detail
        await press(pilot, "space")
        assert screen.chosen == ("O2",)
        assert any("O1 and O2 cannot be played" in str(n.message) for n in app._notifications)
        row = options.get_option_at_index(0).prompt
        assert isinstance(row, Text) and row.plain.startswith(" -  O1")
        assert row.plain.endswith("not with O2")
        await press(pilot, "escape")  # leaves the choice as it was
        assert not isinstance(app.screen, RulesetScreen)


async def test_with_no_module_playable_the_chooser_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rs, "PLAYABLE", frozenset())
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(RulesetScreen((), "this campaign"))
        await pilot.pause()
        assert "no module is playable yet" in plain(app.screen.query_one("#ruleset-keys"))
        await press(pilot, "space", "enter")
        assert not isinstance(app.screen, RulesetScreen)


# ---- where the rules are shown --------------------------------------------------------------
def test_the_battle_title_and_the_report_name_the_rules(playable: None) -> None:
    battle = make_state(5, 1, ruleset=("O2", "O3")).battle
    core = make_state(5, 1).battle
    assert battle is not None and core is not None
    assert title_forms(battle, None, 5)[0].endswith(" · rules O2,O3 · seed 5")
    assert all("rules" not in form for form in title_forms(core, None, 5))
    text = report_text(battle, 5)
    assert "Optional rules: O2 Elevation and falling, O3 Destructible terrain" in text
    assert "Optional rules" not in report_text(core, 5)


def test_the_status_line_names_the_rules_of_a_campaign_only(playable: None) -> None:
    session = Session.new(8)
    assert session.apply(parse_command("new-campaign Iron --rules O3")).accepted
    assert "Rules O3" in status_text(session.state).plain
    core = Session.new(8)
    assert core.apply(parse_command("new-campaign Iron")).accepted
    assert "Rules" not in status_text(core.state).plain


def test_the_save_list_shows_each_saves_rules(
    tmp_path: Path, playable: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.new(8)
    assert session.apply(parse_command("new-campaign Iron --rules O2,O3")).accepted
    path = tmp_path / "iron-8.json"
    session.save(path)
    header = peek_header(path)
    assert header["ruleset"] == "O2,O3"
    assert row_cells(Listing(path, header, 0.0))[4] == "O2,O3"
    monkeypatch.setattr(rs, "PLAYABLE", frozenset({"O2"}))  # an older game: no O3
    assert rules_cell(header) == "O2,O3 (cannot play)"
    assert rules_cell({}) == "core"


async def test_the_after_action_report_names_the_rules(tmp_path: Path, playable: None) -> None:
    session = Session.new(1)
    for line in ("new-campaign Iron --rules O2", "accept C1 2 F1+F2"):
        assert session.apply(parse_command(line)).accepted, line
    while session.state.battle is not None:
        assert session.apply(decide(session.state).command).accepted
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(session, tmp_path / "iron-1.json")
        app.show_game()
        await pilot.pause()
        assert isinstance(app.screen, AfterActionScreen)
        assert "Optional rules: O2 Elevation and falling" in plain(app.screen.query_one("#aa-text"))


async def test_continue_says_why_a_save_of_other_rules_cannot_be_played(
    tmp_path: Path, playable: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save made by a version that played O3, opened by one that does not: refused with
    the module named, and the save list marks it."""
    session = Session.new(8)
    assert session.apply(parse_command("new-campaign Iron --rules O3")).accepted
    session.save(tmp_path / "iron-8.json")
    monkeypatch.setattr(rs, "PLAYABLE", frozenset({"O2"}))
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "c")
        assert app.session is None
        said = " ".join(str(n.message) for n in app._notifications)
        assert "not playable in this version of the game: O3 Destructible terrain" in said
        await press(pilot, "l")
        table = app.screen.query_one("#saves", DataTable)
        assert "O3 (cannot play)" in [str(c) for c in table.get_row_at(0)]


async def test_the_tutorial_is_the_core_game(tmp_path: Path, playable: None) -> None:
    """O0a: rules chosen for the next new game do not reach the tutorial."""
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "b")
        await choose_o2(pilot)
        await press(pilot, "escape", "t")
        assert isinstance(app.screen, BattleScreen)
        assert app.session is not None and app.session.state.ruleset == ()
        assert "rules" not in plain(app.screen.query_one("#battle-title"))


async def test_the_rules_reference_lists_the_modules_by_id_and_whole_name(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(RulesScreen("modules"))
        await pilot.pause()
        table = app.screen.query_one("#rules-table", DataTable)
        headers = [str(c.label) for c in table.columns.values()]
        assert headers[:2] == ["Module", "Name"]
        last = [str(c) for c in table.get_row_at(table.row_count - 1)]
        assert last[:2] == ["O11", "Objectives, mission costs and debt"]
        table.move_cursor(row=0)
        await pilot.pause()
        detail = plain(app.screen.query_one("#rules-detail"))
        assert "Not with: O2, O3, O4, O6, O8" in detail and "Fight without a map" in detail


async def test_a_high_score_says_which_optional_rules_it_was_played_with(
    tmp_path: Path, playable: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SCORES_ENV, raising=False)  # the game's own saves
    saves = tmp_path / "saves"
    saves.mkdir()
    for name, line in (("iron", "new-campaign Iron --rules O2,O3"), ("core", "new-campaign Core")):
        session = Session.new(8)
        assert session.apply(parse_command(line)).accepted
        days = "advance-day 3" if name == "iron" else "advance-day 1"  # Iron ranks first
        assert session.apply(parse_command(days)).accepted
        session.save(saves / f"{name}-8.json")
    got = collect(saves)
    by_company = {s.company: s for s in got.rows}
    assert by_company["Iron"].rules == "O2,O3" and by_company["Core"].rules == ""
    rows = scores_json(got)["scores"]
    assert [r.get("rules") for r in rows] == ["O2,O3", None]  # a core game's row as it was
    app = MacApp(saves=saves, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        assert plain(app.screen.query_one("#scores-detail")).endswith("optional rules O2,O3")
