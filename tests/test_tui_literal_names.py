"""Names the player types (a frame's, the company's) are shown as typed, never read as markup:
a frame renamed `[/]` crashed the message line and the day report (`MarkupError`), `[b]Bold`
came out bold, `[$accent]A` and `[B]x` lost their brackets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App
from textual.content import Content

from mac_tui.campaign.commands import NewCampaign, RenameFrame
from mac_tui.game import Accepted
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.literal import literal, rich_literal
from mac_tui.tui.pacing import ManualClock
from mac_tui.tui.replay import ReplayApp
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.dayreport import DayReportScreen
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.widgets.dialogs import AskScreen, ChooseScreen, ConfirmScreen
from mac_tui.tui.widgets.history import HistoryScreen

from .cuts import screen_text

Pilot = Any  # textual.pilot.Pilot[None]

HOSTILE = [
    "[/]",
    "[b]Bold",
    "[@click=app.quit]X[/]",
    "[red]R",
    "\\[x]",
    "[$accent]A",
    "[B]x",
    "a\\",
    "\\\\[b]c[/b]",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_literal_text_reads_back_as_typed(name: str) -> None:
    assert Content.from_markup(literal(name)).plain == name  # Textual's markup
    assert Text.from_markup(rich_literal(name)).plain == name  # Rich's (a table's text cell)
    assert literal("Plain words, 1,000 cr.") == "Plain words, 1,000 cr."  # unchanged


async def shown(pilot: Pilot) -> str:
    await pilot.pause()
    await pilot.pause()
    return screen_text(pilot.app)


@pytest.mark.parametrize("name", HOSTILE[:6])
async def test_a_frame_and_company_named_in_markup_are_shown_as_typed(
    tmp_path: Path, name: str
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    company = f"Co {name}"
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n", *company, "enter")
        await pilot.press("ctrl+a", "ctrl+k", *"3", "enter")
        assert isinstance(app.screen, HubScreen)
        assert company in await shown(pilot)  # the status bar
        await pilot.press("1", "n", "ctrl+a", "ctrl+k", *name, "enter")
        text = await shown(pilot)
        assert app.session is not None and app.session.state.campaign is not None
        c = app.session.state.campaign
        assert (c.company, c.frames[0].name) == (company, name)
        assert f"is now called {name}." in text  # the message line
        report = DayReportScreen.text_of(app, app.last_report())  # as a day report has it
        assert report.plain.endswith(f"is now called {name}.")
        assert f"F1 {name}" in text  # the roster's table
        assert f"{name}, " in text  # its detail
        await pilot.press("n")
        assert isinstance(app.screen, AskScreen)
        assert f"New name for {name}:" in await shown(pilot)
        await pilot.press("escape", "down", "p")  # F2's seat: F1's pilot could take it
        text = await shown(pilot)
        assert isinstance(app.screen, ChooseScreen) and f"now in {name}" in text
        await pilot.press("escape", "up", "2")
        text = await shown(pilot)
        assert f"F1 {name}" in text and f"flies {name} (F1" in text  # pilots: table, detail
        await pilot.press("a")  # F1's pilot: which frame now
        text = await shown(pilot)
        assert isinstance(app.screen, ChooseScreen) and f"(now {name})" in text
        await pilot.press("escape")
        await pilot.press("4")
        assert f"F1 {name}" in await shown(pilot)  # the refit bay's head
        await pilot.press("7")
        await shown(pilot)  # the finances (the upkeep's table: another view)
        for key in "35":
            await pilot.press(key)
            assert company in await shown(pilot)
        for key in "dw":  # a day, a week: their reports
            await pilot.press("1", key)
            await shown(pilot)
            assert isinstance(app.screen, DayReportScreen)
            await pilot.press("enter")
            await shown(pilot)
        await pilot.press("6", "enter")  # the launch plan
        text = await shown(pilot)
        assert f"F1 {name}" in text  # the lance's table
        assert f"{name} (" in text  # the frame's line
        await pilot.press("l")
        await shown(pilot)
        assert isinstance(app.screen, ConfirmScreen)  # its words, as it shows them (wrapped)
        assert f"with {name} (" in Content.from_markup(app.screen.message).plain
        await pilot.press("y")
        await shown(pilot)
        assert isinstance(app.screen, BattleScreen)


@pytest.mark.parametrize("name", ["[/]", "[b]Bold"])
async def test_the_replay_viewer_shows_a_typed_name_as_typed(name: str) -> None:
    session = Session.new(3)
    for command in (NewCampaign(f"Co {name}"), RenameFrame("F1", name)):
        assert isinstance(session.apply(command), Accepted)
    app = ReplayApp(session.to_save(), "save.json", settings=Settings(), clock=ManualClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        assert f": {RenameFrame('F1', name).to_text()} " in text  # the head: its command
        assert f"is now called {name}." in text  # what it did
        assert f"Co {name}" in text  # the status


async def test_a_searched_word_is_shown_as_typed() -> None:
    """The battle history's search says the word the player typed back to him."""
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HistoryScreen("Battle log [b]", ["Ghost fires at [/] x", "a line"]))
        await pilot.pause()
        for word, said in (("[/]", '"[/]": line 1, match 1 of 1'), ("[b]zz", '"[b]zz" is not')):
            await pilot.press("slash", *word, "enter")
            text = await shown(pilot)
            assert said in text and "Battle log [b]" in text
