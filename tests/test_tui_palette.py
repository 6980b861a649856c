"""The command palette (ctrl+p): the keys legal where the player is, and game commands typed in
their text form, picked the way a player picks them (type, then Enter)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from textual.command import CommandInput, CommandList, CommandPalette
from textual.widgets import DataTable, Static

from mac_tui.campaign.commands import Accept, NewCampaign
from mac_tui.catalog import catalog
from mac_tui.game import Accepted
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.palette import binding_commands, command_hits
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.dayreport import DayReportScreen
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.widgets.dialogs import ConfirmScreen

Pilot = Any  # textual.pilot.Pilot[None]
SEED = 1  # a fresh company: 500,000 cr, fuel 50 of 100, F1 Enforcer and F2 Raider undamaged

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


_FRESH: list[Session] = []


def fresh_session() -> Session:
    """A new company (played once; each caller gets a session of its own)."""
    if not _FRESH:
        session = Session.new(SEED)
        assert isinstance(session.apply(NewCampaign("Iron")), Accepted)
        _FRESH.append(session)
    first = _FRESH[0]
    return Session(first.state, list(first.commands), list(first.checkpoints))


async def open_hub(pilot: Pilot, session: Session, tmp_path: Path) -> MacApp:
    app: MacApp = pilot.app
    app.start_session(session, tmp_path / "iron.json")
    app.push_screen(HubScreen())
    await pilot.pause()
    return app


async def palette_options(pilot: Pilot, query: str, typed: bool = False) -> list[str]:
    """Open the palette, enter `query` (`typed` key by key, else pasted in at once), and read
    the offered commands once they settle."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    if typed:
        await pilot.press(*query)
    else:
        pilot.app.screen.query_one(CommandInput).insert_text_at_cursor(query)
    # The providers answer in a worker started by the input's change: let the change be handled,
    # then wait for the gathering worker to finish and its last batch to be shown.
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    options = pilot.app.screen.query_one(CommandList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def pick(pilot: Pilot, label: str) -> None:
    """Highlight the offered command whose first line is `label` and run it with Enter."""
    options = pilot.app.screen.query_one(CommandList)
    lines = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    index = next(i for i, text in enumerate(lines) if text.splitlines()[0] == label)
    options.highlighted = index
    await pilot.press("enter")
    await pilot.pause()
    await pilot.pause()


def firsts(options: list[str]) -> list[str]:
    return [text.splitlines()[0] for text in options]


def message(app: MacApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


# ---- typed commands ------------------------------------------------------------------------
async def test_a_typed_fuel_purchase_runs_through_the_engine(tmp_path: Path) -> None:
    price = catalog().economy.prices.fuel_price
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, fresh_session(), tmp_path)
        c = app.session.state.campaign
        assert (c.fuel, c.credits) == (50, 500_000)
        options = await palette_options(pilot, "buy-fuel 5", typed=True)
        assert firsts(options)[0] == "Run: buy-fuel 5"
        await pick(pilot, "Run: buy-fuel 5")
        c = app.session.state.campaign
        assert (c.fuel, c.credits) == (55, 500_000 - 5 * price)
        assert app.session.commands[-1].to_text() == "buy-fuel 5"
        assert (tmp_path / "iron.json").exists()  # autosaved like any command


async def test_typed_days_passing_show_the_day_report(tmp_path: Path) -> None:
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, fresh_session(), tmp_path)
        assert app.session.state.campaign.day == 1
        await palette_options(pilot, "advance-day 3")
        await pick(pilot, "Run: advance-day 3")
        assert app.session.state.campaign.day == 4
        assert isinstance(app.screen, DayReportScreen)


async def test_a_refused_command_shows_its_reason_and_changes_nothing(tmp_path: Path) -> None:
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, fresh_session(), tmp_path)
        before = app.session.state
        await palette_options(pilot, "buy-fuel 51")  # 50 held, the tanks take 100
        await pick(pilot, "Run: buy-fuel 51")
        assert app.session.state is before
        assert isinstance(app.screen, HubScreen)
        assert message(app).startswith("Refused:")


async def test_a_line_that_does_not_parse_says_why(tmp_path: Path) -> None:
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, fresh_session(), tmp_path)
        before = app.session.state
        options = await palette_options(pilot, "buy weapon")
        assert firsts(options)[0] == "Run: buy weapon"
        await pick(pilot, "Run: buy weapon")
        assert app.session.state is before
        assert message(app) == "Refused: usage: buy KIND ITEM QTY"


async def test_typed_markup_is_shown_as_typed(tmp_path: Path) -> None:
    """What the player types in the palette is never read as markup: neither in the reason a
    line does not parse (the option's help) nor in a name it gives."""
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, fresh_session(), tmp_path)
        before = app.session.state
        options = await palette_options(pilot, "advance-day [/]")
        assert "got '[/]'" in options[0]  # the help below the option, as typed
        await pick(pilot, "Run: advance-day [/]")
        assert app.session.state is before
        assert message(app).startswith("Refused: ") and message(app).endswith("got '[/]'")
        await palette_options(pilot, "rename F1 [b]Bold")
        await pick(pilot, "Run: rename F1 '[b]Bold'")
        assert app.session.state.campaign.frames[0].name == "[b]Bold"
        assert message(app).endswith("is now called [b]Bold.")


def test_the_text_forms_offered() -> None:
    class App:
        session = fresh_session()

        def say(self, text: str, warning: bool = False) -> None:
            raise AssertionError("nothing is said before a command is picked")

    offered = [display for display, _, _ in command_hits(App(), "  advance-day  ")]
    assert offered == ["Run: advance-day 1"]  # the command's own text form, default filled in
    assert [d for d, _, _ in command_hits(App(), "sell")] == ["Run: sell"]  # a verb: no hints
    hints = [d for d, _, _ in command_hits(App(), "buy")]
    assert hints == ["Run: buy"]
    hints = [d for d, _, _ in command_hits(App(), "re")]
    assert hints == [
        "Type: refit FRAME WEAPONS EQUIPMENT",
        "Type: regroup FRAME INDEX GROUP",
        "Type: rename FRAME NAME",
        "Type: repair FRAME RUSH",
        "Type: reset-deployment",
    ]
    assert list(command_hits(App(), "launch the thing")) == []  # not a command: nothing
    App.session = None  # type: ignore[assignment]
    assert list(command_hits(App(), "hire")) == []  # no game running: nothing to run


# ---- the keys of where the player is -------------------------------------------------------
async def test_a_legal_key_is_offered_and_runs_its_action(tmp_path: Path) -> None:
    session = fresh_session()
    damaged = session.state.campaign.frames[1]
    worn = attrs.evolve(damaged, armor=tuple(a // 2 for a in damaged.armor), status="damaged")
    c = session.state.campaign
    frames = (c.frames[0], worn)
    session.state = attrs.evolve(session.state, campaign=attrs.evolve(c, frames=frames))
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, session, tmp_path)
        assert app.screen.query_one(DataTable).cursor_row == 0  # F1: nothing to repair
        assert "Repair (r)" not in firsts(await palette_options(pilot, "repair"))
        await pilot.press("escape", "down")  # F2, damaged
        await pilot.pause()
        offered = await palette_options(pilot, "repair")
        assert "Repair (r)" in firsts(offered)
        await pick(pilot, "Repair (r)")
        assert isinstance(app.screen, ConfirmScreen)  # the same dialog the r key opens
        await pilot.press("y")
        await pilot.pause()
        assert app.session.state.campaign.frames[1].status == "repairing"


async def test_the_palette_lists_the_keys_legal_here(tmp_path: Path) -> None:
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, fresh_session(), tmp_path)
        names = {c.title: c.help for c in binding_commands(app.screen)}
        # the roster's keys legal for F1 (ready, undamaged, seated), the hub's, the app's
        assert names == {
            "Pilot (p)": "Roster: key p",
            "Unseat (u)": "Roster: key u",
            "Rename (n)": "Roster: key n",
            "Sell (x)": "Roster: key x",
            "Next day (d)": "Hub: key d",
            "Wait 7 days (w)": "Hub: key w",
            "Menu (esc)": "Hub: key esc",
            "Hints on/off (H)": "Hub: key H",
            "Help (?)": "Anywhere: key ?",
            "How to play (f1)": "Anywhere: key f1",
        }
        await pilot.press("3")  # the market: its keys instead of the roster's
        await pilot.pause()
        titles = {c.title for c in binding_commands(app.screen)}
        assert {"Inventory (tab)", "Buy (b)", "Fuel (f)"} <= titles
        assert not {"Stock (tab)", "Sell (s)", "Pilot (p)"} & titles


async def test_on_the_battle_screen_greyed_keys_are_not_offered(tmp_path: Path) -> None:
    session = fresh_session()
    assert isinstance(session.apply(Accept("C1", 2, "F1+F2")), Accepted)
    async with MacApp(saves=tmp_path, settings=Settings()).run_test(size=(80, 24)) as pilot:
        app = await open_hub(pilot, session, tmp_path)
        app.push_screen(BattleScreen())
        await pilot.pause()
        titles = {c.title for c in binding_commands(app.screen)}
        # deployment: nobody placed yet (Start and Reset greyed), no orders, not over
        assert {"Auto-deploy (a)", "Next frame (tab)", "Leave (esc)"} <= titles
        assert not {"Start (s)", "Reset (r)", "Move (m)", "Report (⏎)", "Next day (d)"} & titles
        offered = firsts(await palette_options(pilot, "start"))
        assert "Start (s)" not in offered
        await pilot.press("escape", "a")  # close the palette; auto-deploy: now Start is offered
        await pilot.pause()
        offered = firsts(await palette_options(pilot, "start"))
        assert "Start (s)" in offered


def test_a_modules_verbs_are_offered_only_where_it_is_played() -> None:
    """O0.1: the palette's hints list a module's commands only in a game under it; typed out
    in full they still run, and are refused with the engine's reason."""
    session = Session.new(SEED)
    assert isinstance(session.apply(NewCampaign("Iron", rules="O6")), Accepted)

    class App:
        def __init__(self, s: Session) -> None:
            self.session = s

        def say(self, text: str, warning: bool = False) -> None:
            raise AssertionError("nothing is said before a command is picked")

    hints = [d for d, _, _ in command_hits(App(session), "re")]
    assert hints[0] == "Type: reaction-fire GROUP DIRECTION"
    assert [d for d, _, _ in command_hits(App(fresh_session()), "sw")] == []
    assert [d for d, _, _ in command_hits(App(fresh_session()), "sweep 1")] == ["Run: sweep 1"]
