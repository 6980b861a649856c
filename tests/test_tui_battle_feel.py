"""The battle as a player feels it (issue 14), played by keys in the terminal app: the whole
battle's history and its survival across save and resume, the pacing of the enemy's turns
(animated, one order per key, instant), refused keys that say why, the exact forecasts beside
a shot and the threat view, hexes by their map names, the end's heading and the seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat.commands import AutoDeploy, EndActivation, FireGroup, StartBattle, Vent
from mac_tui.combat.forecast import forecast_group
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.refusals import order_refusal
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.threat import threat, threat_options
from mac_tui.players.ai import decide
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.battle_history import rebuild
from mac_tui.tui.battle_words import hex_name
from mac_tui.tui.config import CONFIG_ENV, Settings, load_settings
from mac_tui.tui.screens.base import Explains
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.modes import (
    PLAYER_MODES,
    CallingShot,
    EnemyTurn,
    Firing,
    Idle,
    More,
    Over,
    Paused,
    Threats,
)
from mac_tui.tui.screens.settings import SettingsScreen
from mac_tui.tui.threat_view import ThreatWork
from mac_tui.tui.widgets.battle_panels import SidePanel
from mac_tui.tui.widgets.dialogs import ChooseScreen
from mac_tui.tui.widgets.hexmap import HexMap
from mac_tui.tui.widgets.history import HistoryScreen, LogView
from mac_tui.tui.widgets.target_lines import pct

from .pacing import advance, clock_of, run_until

Pilot = Any  # textual.pilot.Pilot[None]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    monkeypatch.setenv(CONFIG_ENV, str(path))
    return path


# ---- helpers -------------------------------------------------------------------------------
async def press(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def message(app: MacApp) -> str:
    content = app.screen.query_one("#message").render()
    return content.plain if isinstance(content, Text) else str(content)


def screen(app: MacApp) -> BattleScreen:
    assert isinstance(app.screen, BattleScreen), app.screen
    return app.screen


def played(seed: int, difficulty: int, until: Any) -> Session:
    """A quick battle, the AI playing both sides until `until(session)`."""
    session = Session.new(seed)
    assert session.apply(NewSkirmish(difficulty)).accepted
    for _ in range(3000):
        battle = session.state.battle
        assert battle is not None and battle.phase != "over", "the moment never came"
        if battle.phase == "combat" and until(session):
            return session
        assert session.apply(decide(session.state).command).accepted
    raise AssertionError("the moment never came")


def player_fires(session: Session) -> bool:
    battle = session.state.battle
    unit = battle.active_unit if battle is not None else None
    return (
        unit is not None
        and unit.side == "player"
        and unit.ap == 2
        and any(isinstance(c, FireGroup) for c in legal_commands(session.state))
    )


def players_turn(session: Session) -> bool:
    battle = session.state.battle
    unit = battle.active_unit if battle is not None else None
    return unit is not None and unit.side == "player" and unit.ap == 2


async def open_game(pilot: Pilot, session: Session, folder: Path, *, rebuilt: bool = False) -> None:
    """The game opened on `session`; with `rebuilt`, once its history is rebuilt too."""
    app: MacApp = pilot.app
    app.start_session(session, folder / "battle.json")
    app.show_game()
    await pilot.pause()
    if rebuilt:
        await app.workers.wait_for_complete()
        await pilot.pause()


def history_text(app: MacApp) -> list[str]:
    return screen(app).history_lines()


# ---- the whole battle's history ------------------------------------------------------------
async def test_the_history_holds_every_roll_and_survives_save_and_resume(tmp_path: Path) -> None:
    """The battle played on screen for a while; its history (every roll with its modifiers)
    is the same after the game is closed and opened again: rebuilt from the save's commands,
    never stored in it."""
    session = played(3, 3, player_fires)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path, rebuilt=True)
        await press(pilot, "f", "enter")  # fire at the nearest target
        await run_until(pilot, lambda: isinstance(screen(app).mode, Idle | Over), "a turn")
        before = history_text(app)
        assert app.session is not None and app.save_path is not None
        saved = app.save_path
        count = len(app.session.commands)
    # The save holds commands, not text.
    assert "needs" not in saved.read_text()
    rolls = [line for line in before if "rolls" in line]
    assert rolls and all(" = base " in line for line in rolls)  # every modifier, in full
    assert any(line.startswith("── Round ") for line in before)
    again = MacApp(saves=tmp_path, settings=Settings(animation="off"), load=saved)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await again.workers.wait_for_complete()
        await pilot.pause()
        assert again.session is not None and len(again.session.commands) == count
        assert history_text(again) == before
        # The pane shows the latest lines and says how to open the rest.
        log = again.screen.query_one("#battle-log").lines  # type: ignore[attr-defined]
        pane = "\n".join(strip.text for strip in log)
        assert "Resumed in round" in pane
        head = again.screen.query_one("#log-head").render()
        assert "L: the whole battle" in str(head)
        # L opens it, scrolled to the end; / finds a word, n goes on.
        await press(pilot, "L")
        assert isinstance(again.screen, HistoryScreen)
        view = again.screen.query_one(LogView)
        assert view.scroll_y == view.max_scroll_y
        await press(pilot, "slash", *"rolls", "enter")
        status = str(again.screen.query_one("#history-status").render())
        assert f"of {len(rolls)}" in status, status
        found = again.screen.found
        assert [i for i in found] == [i for i, line in enumerate(before) if "rolls" in line]
        first = again.screen.at
        await press(pilot, "n")
        assert again.screen.at == ((first or 0) + 1) % len(found)
        await press(pilot, "escape")
        assert isinstance(again.screen, BattleScreen)


async def test_the_log_page_opens_again_on_the_newer_lines(tmp_path: Path) -> None:
    """L's page is kept between two openings (no new widgets for a key): opened again after
    a shot, it holds the new lines, at their end, with the last search gone."""
    session = played(3, 3, player_fires)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path, rebuilt=True)
        await press(pilot, "L")
        page = app.screen
        assert isinstance(page, HistoryScreen)
        before = list(page.source)
        await press(pilot, "slash", *"rolls", "enter")
        assert page.view.word == "rolls"
        await press(pilot, "escape")
        await press(pilot, "f", "enter")  # a shot: new lines in the history
        await run_until(pilot, lambda: isinstance(screen(app).mode, Idle | Over), "a turn")
        now = history_text(app)
        assert len(now) > len(before)
        await press(pilot, "L")
        await pilot.pause()
        assert app.screen is page and isinstance(page, HistoryScreen)
        assert page.source == now and page.view.lines == now
        assert page.view.word == "" and page.found == [] and page.at is None
        assert page.view.scroll_y == page.view.max_scroll_y
        await press(pilot, "escape")
        assert isinstance(app.screen, BattleScreen)


def test_the_history_is_rebuilt_from_the_command_log_alone() -> None:
    """`rebuild` gives the same orders, events included, as the battle gave when played."""
    session = Session.new(4)
    events = []
    assert session.apply(NewSkirmish(2)).accepted
    while session.state.battle is not None and session.state.battle.phase != "over":
        outcome = session.apply(decide(session.state).command)
        assert outcome.accepted
        events.extend(outcome.events)  # type: ignore[union-attr]
    history = rebuild(session.seed, session.commands, session.rules_version)
    assert history.events() == events
    assert [o.number for o in history.orders] == list(range(2, len(session.commands) + 1))
    older = rebuild(session.seed, session.commands, session.rules_version - 1)
    assert older.orders == [] and older.note is not None and "older rules" in older.note


# ---- the pacing of the enemy's turns -------------------------------------------------------
def enemy_next(session: Session) -> bool:
    """The player's frame about to end its activation with the enemy acting next."""
    battle = session.state.battle
    assert battle is not None
    unit = battle.active_unit
    if unit is None or unit.side != "player":
        return False
    order = battle.order
    later = order[battle.turn + 1 :] if battle.turn + 1 < len(order) else ()
    return bool(later) and battle.unit(later[0]).side == "enemy"


async def test_one_order_per_key_waits_after_each_enemy_order(tmp_path: Path) -> None:
    session = played(4, 5, enemy_next)  # the enemy's frame then gives three orders
    app = MacApp(saves=tmp_path, settings=Settings(animation="key"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        assert app.session is not None
        await press(pilot, "x")  # the player's frame ends: the enemy's turn
        count = len(app.session.commands)
        await advance(pilot, 0.05)
        assert len(app.session.commands) == count + 1  # one order at once
        assert isinstance(s.mode, More) and "--more--" in message(app)
        await advance(pilot, 10.0)  # nothing more while no key comes
        assert len(app.session.commands) == count + 1
        await press(pilot, "enter")
        assert len(app.session.commands) == count + 2
        await press(pilot, "full_stop")  # "." too
        assert len(app.session.commands) == count + 3
        if isinstance(s.mode, More):
            await press(pilot, "space")  # the rest of the turn at once
            assert isinstance(s.mode, EnemyTurn) and s.mode.skipping
        await run_until(pilot, lambda: isinstance(s.mode, (*PLAYER_MODES, Over)), "your turn")


async def test_animated_turns_stop_at_once_when_paused(tmp_path: Path) -> None:
    session = played(3, 5, enemy_next)
    app = MacApp(saves=tmp_path, settings=Settings(animation="normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        assert app.session is not None
        await press(pilot, "x")
        count = len(app.session.commands)
        await advance(pilot, 0.45)
        assert len(app.session.commands) == count + 1  # one order each 0.45 s
        await press(pilot, "p")  # the pause reaches the game before the next order
        assert isinstance(s.mode, Paused)
        assert clock_of(pilot).waiting == []
        await advance(pilot, 5.0)
        assert len(app.session.commands) == count + 1


async def test_instant_turns_play_out_in_one_tick(tmp_path: Path) -> None:
    session = played(3, 5, enemy_next)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        await press(pilot, "x")
        await advance(pilot, 0.01)
        assert isinstance(s.mode, (*PLAYER_MODES, Over, EnemyTurn))
        await run_until(pilot, lambda: isinstance(s.mode, (*PLAYER_MODES, Over)), "your turn", 5)


async def test_the_pace_is_a_setting_that_is_remembered(tmp_path: Path, config_file: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "s")
        assert isinstance(app.screen, SettingsScreen)
        text = str(app.screen.query_one("#settings-list").render_line(2).text)
        assert "Enemy turns" in text and "animated" in text
        await press(pilot, "e", "e", "e")  # normal -> slow -> instant -> one order per key
        assert app.settings.animation == "key"
        assert "wait for a key" in str(app.screen.query_one("#settings-list").render_line(2).text)
    saved, problem = load_settings(config_file)
    assert problem is None and saved.animation == "key" and saved.pacing == "key"


# ---- refused keys say why ------------------------------------------------------------------
async def test_refused_battle_keys_say_why_on_the_message_line(tmp_path: Path) -> None:
    session = played(3, 5, enemy_next)
    app = MacApp(saves=tmp_path, settings=Settings(animation="key"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        battle = s.moment.battle
        assert battle is not None
        reason = order_refusal(battle, Vent)
        assert reason is not None  # nothing to vent
        assert s.check_action("vent", ()) is None  # greyed
        await press(pilot, "v")
        assert message(app) == f"Vent: {reason}"
        assert app.screen.query_one("#message").has_class("warning")
        # On the enemy's turn the player's orders say whose turn it is.
        await press(pilot, "x")
        await run_until(pilot, lambda: isinstance(s.mode, More), "the enemy's order")
        await press(pilot, "f")
        assert message(app).startswith("Fire: ") and "acts for the enemy" in message(app)
        assert "space skips" in message(app)


async def test_deployment_keys_say_why(tmp_path: Path) -> None:
    session = Session.new(5)
    assert session.apply(NewSkirmish(5)).accepted
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        await press(pilot, "s")
        assert message(app).startswith("Start: place every frame first (waiting: ")
        await press(pilot, "r")
        assert message(app) == "Reset: no frame is placed yet"


class Greyed(Explains, Screen[None]):
    """Any screen of the game: a key greyed by `grey_if` says the reason it was greyed for."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("z", "zap", "Zap", id="test.zap"),
        Binding("q", "quiet", "Quiet"),
    ]

    def compose(self) -> ComposeResult:
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "zap":
            return self.grey_if(action, "the zapper is empty")
        return None if action == "quiet" else True


async def test_any_screens_greyed_key_explains_itself(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(Greyed())
        await pilot.pause()
        await press(pilot, "z")
        notes = [n.message for n in app._notifications]
        assert "the zapper is empty" in notes
        await press(pilot, "q")  # no reason known: the key's words say it
        notes = [n.message for n in app._notifications]
        assert "Quiet: not possible now" in notes


# ---- forecasts before every risk -----------------------------------------------------------
async def test_the_shot_forecast_shown_is_the_engines(tmp_path: Path) -> None:
    session = played(5, 5, player_fires)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        await press(pilot, "f")
        mode = s.mode
        assert isinstance(mode, Firing) and mode.target is not None and mode.group is not None
        battle = s.moment.battle
        assert battle is not None and battle.active_unit is not None
        fc = forecast_group(battle, battle.active_unit.id, mode.group, mode.target)
        panel = s.query_one(SidePanel)
        assert panel.kind == "target"
        text = " ".join(panel.text(panel.draw_width()).split())
        assert f"Forecast {fc.expected_damage:.1f} damage, a hit {pct(fc.p_any_hit)}%" in text
        assert f"out {pct(fc.p_out)}%" in text
        assert f"{pct(fc.p_frame_destroyed)}%" in text and f"{pct(fc.p_pilot_killed)}%" in text
        for loc in LOCATION_ORDER:
            p = fc.p_destroyed[loc]
            if 0 < p < 1:
                abbrev = catalog().location(loc).abbrev
                assert f"{abbrev} {pct(p)}%" in text, loc
        # A called shot: the chance at each location, the same numbers in the choice.
        await press(pilot, "escape", "c")
        called = s.mode
        assert isinstance(called, CallingShot) and called.target is not None
        assert called.group is not None
        await press(pilot, "enter")
        assert isinstance(app.screen, ChooseScreen)
        options = dict(app.screen.options)
        for loc, label in options.items():
            fc = forecast_group(battle, battle.active_unit.id, called.group, called.target, loc)
            assert f"destroyed {pct(fc.p_destroyed[loc]):>3}%" in label
            assert f"out {pct(fc.p_out):>3}%" in label
        await press(pilot, "escape")


async def test_the_threat_view_shows_the_engines_threat_and_what_lowers_it(
    tmp_path: Path,
) -> None:
    session = played(5, 5, player_fires)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        await press(pilot, "t")
        assert isinstance(s.mode, Threats)
        await run_until(pilot, lambda: s.moment.threats().report().complete, "the threat")
        await pilot.pause()
        battle = s.moment.battle
        assert battle is not None and battle.active_unit is not None
        panel = s.query_one(SidePanel)
        assert panel.kind == "threat"
        text = panel.text(panel.draw_width())
        for unit in battle.side_units("player"):
            if not unit.active or unit.pos is None:
                continue
            t = threat(battle, unit.id)
            assert f"{unit.label} {t.expected_damage:.1f} dmg" in text
            assert f"out {pct(t.p_out)}%" in text
        # The options are combat.threat.threat_options' own numbers.
        report = s.moment.threats().report()
        engine = {o.kind: o for o in threat_options(battle, battle.active_unit.id)}
        for option in report.options:
            same = engine[option.kind]
            assert (option.move_to, option.braced) == (same.move_to, same.braced)
            assert option.threat == same.threat
        # Esc leaves the view.
        await press(pilot, "escape")
        assert isinstance(s.mode, Idle)


def test_the_threat_work_is_threat_options_one_call_at_a_time() -> None:
    session = played(5, 5, player_fires)
    battle = session.state.battle
    assert battle is not None and battle.active_unit is not None
    work = ThreatWork(battle, battle.active_unit)
    steps = 0
    while work.step():
        steps += 1
    report = work.report()
    assert report.complete and steps + 1 == report.total
    engine = {o.kind: o for o in threat_options(battle, battle.active_unit.id)}
    assert {o.kind for o in report.options} <= set(engine)
    assert report.options[0].kind == "stay"
    for option in report.options:
        assert option.threat == engine[option.kind].threat


# ---- hexes, headings, the seed -------------------------------------------------------------
async def test_hexes_read_as_the_ruler_names_them(tmp_path: Path) -> None:
    session = Session.new(5)
    assert session.apply(NewSkirmish(5)).accepted
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        hexmap = s.query_one(HexMap)
        await press(pilot, "enter")  # the first frame where the cursor is
        battle = s.moment.battle
        assert battle is not None
        placed = next(u for u in battle.side_units("player") if u.pos is not None)
        assert placed.pos is not None
        name = hex_name(placed.pos)
        lance = str(s.query_one("#lance").render())
        assert f"at {name}" in lance
        log = s.query_one("#battle-log").lines  # type: ignore[attr-defined]
        assert any(f"deploys at {name}" in strip.text for strip in log)
        # The ruler over the map says the same letter and number.
        lines = hexmap.text().splitlines()
        _, y = hexmap.cell_of(placed.pos)
        assert lines[y][:2].strip() == name[1:]
        assert name[0] in lines[0]
        # The typed command keeps the axial form of the save.
        assert app.session is not None
        assert app.session.commands[-1].to_text() == (
            f"deploy {placed.id} {placed.pos.q},{placed.pos.r}"
        )


async def test_a_contract_battle_ends_headed_contract_with_the_seed(tmp_path: Path) -> None:
    from .test_tui_battle import launch_first_contract

    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await launch_first_contract(pilot)
        title = str(s.query_one("#battle-title").render())
        assert title.startswith("Contract C1") and "seed 1" in title
        await press(pilot, "a", "s", "a", "space")  # auto-resolve to the end
        await run_until(pilot, lambda: isinstance(s.mode, Over), "the end")
        await pilot.pause()
        title = str(s.query_one("#battle-title").render())
        assert title.startswith("Contract C1"), title


async def test_a_quick_battle_is_headed_quick_battle_with_the_seed(tmp_path: Path) -> None:
    session = Session.new(77)
    assert session.apply(NewSkirmish(1)).accepted
    for command in (AutoDeploy(), StartBattle()):
        assert session.apply(command).accepted
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        title = str(screen(app).query_one("#battle-title").render())
        assert title.startswith("Quick battle") and title.endswith("seed 77")


async def test_group_digits_are_groups_while_aiming_and_hex_steps_elsewhere(
    tmp_path: Path,
) -> None:
    session = played(5, 5, player_fires)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, session, tmp_path)
        s = screen(app)
        hexmap = s.query_one(HexMap)
        start = hexmap.cursor
        await press(pilot, "6")  # the keypad's east
        assert hexmap.cursor != start
        await press(pilot, "f")
        aimed = s.mode
        assert isinstance(aimed, Firing)
        cursor = hexmap.cursor
        other = next(g for g in (1, 2, 3, 4) if g != aimed.group)
        await press(pilot, str(other))
        assert hexmap.cursor == cursor  # a group, not a step
        assert isinstance(s.mode, Firing)


def test_end_activation_is_never_refused() -> None:
    session = played(5, 5, players_turn)
    assert order_refusal(session.state.battle, EndActivation) is None
    battle = session.state.battle
    assert battle is not None
    deployed = attrs.evolve(battle, phase="deployment")
    assert "not started" in (order_refusal(deployed, EndActivation) or "")
