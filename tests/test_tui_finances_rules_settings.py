"""The finances section, the rules reference and the settings screen (Textual pilot tests),
and the engine helpers they read (daily balances, totals by category, upkeep per frame)."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import attrs
import pytest
from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, DataTable, OptionList

from mac_tui.campaign.calendar import date_text
from mac_tui.campaign.ledger import category_totals, daily_balances, post
from mac_tui.campaign.timeflow import daily_upkeep, frame_upkeep
from mac_tui.catalog import catalog
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings, load_settings, save_settings
from mac_tui.tui.screens.finances import FinancesSection, chart_lines, signed
from mac_tui.tui.screens.hub import SectionStack
from mac_tui.tui.screens.rules import RulesScreen
from mac_tui.tui.screens.settings import SettingsScreen, binding_rows, theme_names


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never touch the player's real config file."""
    path = tmp_path / "config" / "config.toml"
    monkeypatch.setenv(CONFIG_ENV, str(path))
    return path


def pilot_test(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async pilot test without an async pytest plugin."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


def new_app(tmp_path: Path) -> MacApp:
    return MacApp(saves=tmp_path / "saves", settings=Settings())


async def start_campaign(pilot: Pilot[None]) -> None:
    await pilot.press("n", *"Iron", "enter", "enter")
    await pilot.pause()


def cells(table: DataTable[object], row: int) -> list[str]:
    return [str(c) for c in table.get_row_at(row)]


# ---- engine helpers -------------------------------------------------------------------------
def test_daily_balances_and_totals_follow_the_ledger() -> None:
    from mac_tui.campaign.commands import AdvanceDay, NewCampaign
    from mac_tui.session import Session

    session = Session.new(7)
    assert session.apply(NewCampaign("Iron")).accepted
    assert session.apply(AdvanceDay(3)).accepted
    c = session.state.campaign
    assert c is not None
    start = catalog().start.company.credits
    upkeep = daily_upkeep(c)
    balances = daily_balances(c)
    assert [d for d, _ in balances] == [1, 2, 3, 4]
    assert [b for _, b in balances] == [start - upkeep * i for i in range(4)]
    assert category_totals(c, 30) == {"upkeep": -3 * upkeep}
    assert category_totals(c, 1) == {"upkeep": -upkeep}
    c2, _ = post(c, "reward", 50_000, "Pay")
    assert list(category_totals(c2, 30)) == ["reward", "upkeep"]  # biggest first
    assert daily_balances(c2)[-1] == (4, c2.credits)


def test_frame_upkeep_is_the_class_upkeep_and_sums_to_the_daily_upkeep() -> None:
    from mac_tui.campaign.commands import NewCampaign
    from mac_tui.session import Session

    session = Session.new(7)
    session.apply(NewCampaign("Iron"))
    c = session.state.campaign
    assert c is not None
    cat = catalog()
    for f in c.frames:
        assert frame_upkeep(f) == cat.classes[cat.chassis[f.chassis].class_].upkeep
    assert sum(frame_upkeep(f) for f in c.frames) == daily_upkeep(c)
    wreck = attrs.evolve(c.frames[0], status="destroyed")
    assert frame_upkeep(wreck) == 0


def test_chart_has_axis_labels_and_fits() -> None:
    points = [(1, 500_000), (2, 498_500), (3, -2_000), (4, 10_000)]
    for ascii_only in (False, True):
        lines = chart_lines(points, 60, 10, ascii_only)
        assert len(lines) == 10
        assert all(len(line) <= 60 for line in lines)
        assert lines[0].lstrip().startswith("500,000")
        assert lines[-3].lstrip().startswith("-2,000")
        assert date_text(1) in lines[-1] and date_text(4) in lines[-1]
        assert all(ord(ch) < 128 for line in lines for ch in line) == ascii_only
    assert signed(1500) == "+1,500" and signed(-1500) == "-1,500" and signed(0) == "0"


# ---- finances -------------------------------------------------------------------------------
@pilot_test
async def test_finances_shows_upkeep_after_a_day(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_campaign(pilot)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("enter")  # close the day report
        await pilot.press("7")
        await pilot.pause()
        section = app.screen.query_one(FinancesSection)
        assert app.screen.query_one("#sections", SectionStack).current == "FinancesSection"
        assert app.session is not None
        c = app.session.state.campaign
        assert c is not None
        upkeep = daily_upkeep(c)
        ledger = section.query_one("#ledger", DataTable)
        assert ledger.row_count == 1
        date, category, amount, balance, text = cells(ledger, 0)
        assert (date, category) == (date_text(2), "upkeep")
        assert amount == f"-{upkeep:,}"
        assert balance == f"{c.credits:,}" == f"{catalog().start.company.credits - upkeep:,}"
        assert "Upkeep" in text

        # a second day: newest first
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert ledger.row_count == 2
        assert cells(ledger, 0)[0] == date_text(3)

        await pilot.press("u")
        await pilot.pause()
        upkeep_table = section.query_one("#upkeep-table", DataTable)
        assert upkeep_table.row_count == len(c.frames) + 1  # + the total
        first = c.frames[0]
        assert cells(upkeep_table, 0)[2] == f"-{frame_upkeep(first):,}"
        assert cells(upkeep_table, upkeep_table.row_count - 1)[2] == f"-{upkeep:,}"
        totals = section.query_one("#totals-table", DataTable)
        assert cells(totals, 0) == ["upkeep", f"-{2 * upkeep:,}"]

        await pilot.press("c")
        await pilot.pause()
        assert section.query_one("#fin-switcher", ContentSwitcher).current == "chart"
        await pilot.press("l")  # the section's keys still work on the chart
        await pilot.pause()
        assert section.query_one("#fin-switcher", ContentSwitcher).current == "ledger"
        await pilot.click("#fin-views", offset=(26, 0))  # the view names are clickable
        await pilot.pause()
        assert section.query_one("#fin-switcher", ContentSwitcher).current == "upkeep"


# ---- rules ----------------------------------------------------------------------------------
@pilot_test
async def test_rules_screen_lists_tables_and_shows_weapons(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        options = screen.query_one("#rules-list", OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert "weapons" in ids and "chassis" in ids
        table = screen.query_one("#rules-table", DataTable)
        names = [str(c) for c in table.get_column_at(list(screen.cols).index("name"))]
        assert "Medium Laser" in names

        await pilot.press("down")  # the next table shows as it is highlighted
        await pilot.pause()
        assert screen.table == "chassis"
        assert table.row_count == len(catalog().chassis)

        await pilot.press("tab", "right", "right")  # wide tables scroll sideways
        await pilot.pause()
        assert app.focused is table
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)


# ---- settings -------------------------------------------------------------------------------
@pilot_test
async def test_settings_change_the_theme_and_save(tmp_path: Path, config_file: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.theme == "mac-dark"
        await pilot.press("t")
        await pilot.pause()
        assert app.theme == "mac-okabe-ito"
        assert app.settings.theme == "mac-okabe-ito"
        assert load_settings(config_file) == (app.settings, None)

        await pilot.press("g", "a")
        await pilot.pause()
        saved, problem = load_settings(config_file)
        assert problem is None
        assert (saved.glyphs, saved.animation) == ("ascii", "slow")

        await pilot.press("T")  # back again
        await pilot.pause()
        assert app.theme == "mac-dark"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)


@pilot_test
async def test_settings_choose_a_theme_from_the_list(tmp_path: Path, config_file: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("enter")  # on "Theme": the list of themes
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.theme == theme_names(list(app.available_themes))[2] == "mac-light"
        assert load_settings(config_file)[0].theme == "mac-light"


def test_every_remappable_key_is_listed() -> None:
    ids = {row[0] for row in binding_rows(Settings(), MacApp)}
    assert {"app.help", "hub.advance_day", "finances.chart", "settings.theme"} <= ids
    row = next(
        r
        for r in binding_rows(Settings(keys=(("hub.advance_day", "n"),)), MacApp)
        if r[0] == "hub.advance_day"
    )
    assert row[1] == "n"
    assert theme_names(["textual-dark", "mac-dark"])[:2] == ["mac-dark", "mac-okabe-ito"]


@pilot_test
async def test_a_broken_config_file_is_reported_not_fatal(
    tmp_path: Path, config_file: Path
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('theme = "mac-okabe-ito\n[keys\n', encoding="utf-8")
    app = MacApp(saves=tmp_path / "saves")  # reads $MAC_TUI_CONFIG
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert app.theme == "mac-dark"  # the defaults
        messages = [n.message for n in app._notifications]
        assert any(str(config_file) in m and "unreadable" in m for m in messages)
        await pilot.press("s")
        await pilot.pause()
        problem = app.screen.query_one("#settings-problem")
        assert problem.display
        await pilot.press("t")  # a change rewrites the file, readable again
        await pilot.pause()
        assert load_settings(config_file) == (app.settings, None)
        assert not problem.display


def test_a_config_that_is_not_a_small_regular_file_is_refused_by_name(tmp_path: Path) -> None:
    """A FIFO named config.toml would hang a plain read; a huge file would fill memory. Both
    give the defaults and a message naming the file."""
    fifo = tmp_path / "fifo" / "config.toml"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    settings, problem = load_settings(fifo)
    assert settings == Settings()
    assert problem is not None and str(fifo) in problem and "pipe" in problem

    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 * 1024 * 1024))
    settings, problem = load_settings(big)
    assert settings == Settings()
    assert problem is not None and str(big) in problem


def test_a_linked_config_is_read_and_stays_linked_when_saved(tmp_path: Path) -> None:
    """Players keep dotfiles in a folder of their own and link them in."""
    real = tmp_path / "dotfiles" / "mac-tui.toml"
    real.parent.mkdir()
    real.write_text('\ufefftheme = "mac-okabe-ito"\n', encoding="utf-8")  # a BOM too
    link = tmp_path / "config" / "config.toml"
    link.parent.mkdir()
    link.symlink_to(real)
    settings, problem = load_settings(link)
    assert (settings.theme, problem) == ("mac-okabe-ito", None)
    save_settings(attrs.evolve(settings, glyphs="ascii"), link)
    assert link.is_symlink()
    assert 'glyphs = "ascii"' in real.read_text(encoding="utf-8")
