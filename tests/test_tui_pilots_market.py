"""The Pilots and Market hub sections, driven by keys (and a click) like a player would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
from textual.widgets import DataTable, Static

from mac_tui.campaign.market import fuel_room, sell_price
from mac_tui.campaign.state import Campaign, count_of
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.screens.market import MarketSection
from mac_tui.tui.screens.pilots import COLUMNS, PilotsSection
from mac_tui.tui.widgets.dialogs import AskScreen, ChooseScreen, ConfirmScreen

Pilot = Any  # textual.pilot.Pilot[None]


def make_app(tmp_path: Path) -> MacApp:
    return MacApp(saves=tmp_path, settings=Settings())


async def start(pilot: Pilot, seed: str = "77") -> None:
    await pilot.press("n", *"Iron", "enter")
    await pilot.press("ctrl+a", "ctrl+k", *seed, "enter")
    await pilot.pause()
    assert isinstance(pilot.app.screen, HubScreen)


def campaign(app: MacApp) -> Campaign:
    assert app.session is not None and app.session.state.campaign is not None
    return app.session.state.campaign


async def evolve(pilot: Pilot, **changes: Any) -> None:
    """Put the campaign in a situation (money, place, pilots) without playing there."""
    app: MacApp = pilot.app
    assert app.session is not None
    state = app.session.state
    app.session.state = attrs.evolve(state, campaign=attrs.evolve(campaign(app), **changes))
    app.redraw()
    await pilot.pause()


def text_of(app: MacApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def enabled(app: MacApp, key: str) -> bool | None:
    """True/False when the key is bound and enabled/greyed; None when not shown at all."""
    binding = app.screen.active_bindings.get(key)
    return None if binding is None else binding.enabled


# ---- pilots ---------------------------------------------------------------------------------
async def test_hire_a_pilot_then_assign_and_unassign_him(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await pilot.press("2")
        await pilot.pause()
        section = app.screen.query_one(PilotsSection)
        assert "30,000 cr" in text_of(app, "#pilot-detail")
        credits = campaign(app).credits
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        c = campaign(app)
        assert len(c.pilots) == 5 and c.credits == credits - 30_000
        hired = c.pilots[-1].callsign
        assert section.selected() == c.pilots[-1]  # the cursor follows the new pilot
        assert enabled(app, "u") is False  # he flies nothing yet
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ChooseScreen)
        await pilot.press("enter")  # the first frame offered: F1
        await pilot.pause()
        frame = campaign(app).frame_of(hired)
        assert frame is not None and frame.id == "F1"
        table = app.screen.query_one("#pilots", DataTable)
        assert "F1" in str(table.get_row_at(len(c.pilots) - 1)[COLUMNS.index("Frame")])
        assert hired in text_of(app, "#message")
        await pilot.press("u")
        await pilot.pause()
        assert campaign(app).frame_of(hired) is None


async def test_hire_is_greyed_without_money_and_says_why(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await pilot.press("2")
        await evolve(pilot, credits=10_000)
        assert enabled(app, "h") is False
        assert "costs 30,000 credits; the company has 10,000" in text_of(app, "#pilot-detail")
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)  # no dialog, nothing hired
        assert len(campaign(app).pilots) == 4


async def test_hire_is_greyed_without_a_hiring_hall(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await pilot.press("2")
        await evolve(pilot, place="olympus_ring")
        assert enabled(app, "h") is False
        assert "nobody is hiring out at Olympus Ring" in text_of(app, "#pilot-detail")


async def test_injured_and_dead_pilots(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await pilot.press("2")
        c = campaign(app)
        ghost, falcon, *rest = c.pilots
        f1 = attrs.evolve(c.frames[0], pilot=None)
        await evolve(
            pilot,
            pilots=(
                attrs.evolve(ghost, status="kia"),
                attrs.evolve(falcon, status="injured", injury_days=3),
                *rest,
            ),
            frames=(f1, *c.frames[1:]),
        )
        table = app.screen.query_one("#pilots", DataTable)
        assert str(table.get_row_at(0)[COLUMNS.index("Status")]) == "KIA"
        assert str(table.get_row_at(1)[COLUMNS.index("Status")]) == "Injured 3d"
        assert enabled(app, "a") is False and enabled(app, "u") is False  # the dead fly nothing
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)
        await pilot.press("down")  # Falcon, injured, still in his frame
        await pilot.pause()
        assert "back in 3 days" in text_of(app, "#pilot-detail")
        assert enabled(app, "u") is True


# ---- market ---------------------------------------------------------------------------------
def view_of(section: MarketSection) -> str:
    return section.market_view


async def open_market(pilot: Pilot) -> MarketSection:
    await pilot.press("3")
    await pilot.pause()
    section: MarketSection = pilot.app.screen.query_one(MarketSection)
    return section


async def test_buy_a_weapon_in_stock_then_sell_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        section = await open_market(pilot)
        row = next(i for i, r in enumerate(section.stock) if r.kind == "weapon")
        await pilot.press(*["down"] * row)
        await pilot.pause()
        item = section.selected_stock()
        assert item is not None and item.kind == "weapon" and item.qty
        assert "damage" in text_of(app, "#market-detail")  # the weapon's stats
        credits = campaign(app).credits
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen) and app.screen.value == "1"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert f"{item.your_price:,} cr" in app.screen.message
        await pilot.press("y")
        await pilot.pause()
        c = campaign(app)
        assert count_of(c.weapons, item.item) == 1
        assert c.credits == credits - item.your_price
        # the inventory view: Tab, then sell the one we hold at half the list price
        await pilot.press("tab")
        await pilot.pause()
        assert section.market_view == "inventory"
        assert enabled(app, "b") is None and enabled(app, "s") is True
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        c = campaign(app)
        assert count_of(c.weapons, item.item) == 0
        assert c.credits == credits - item.your_price + sell_price("weapon", item.item)
        assert enabled(app, "s") is False  # nothing left to sell


async def test_buy_fuel_fills_the_tanks_by_default(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await open_market(pilot)
        room = fuel_room(campaign(app))
        assert room > 0
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen) and app.screen.value == str(room)
        assert "500 cr a unit" in app.screen.prompt.replace("\n", " ")
        await pilot.press("enter")
        await pilot.pause()
        assert fuel_room(campaign(app)) == 0
        assert "Tanks at 100/100" in text_of(app, "#message")
        assert enabled(app, "f") is False  # full


async def test_too_much_fuel_is_refused_with_the_reason(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await open_market(pilot)
        fuel = campaign(app).fuel
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k", *"999", "enter")
        await pilot.pause()
        assert campaign(app).fuel == fuel
        message = text_of(app, "#message")
        assert message.startswith("Refused: the tanks take at most")


async def test_no_market_here(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await evolve(pilot, place="tor_quarry")
        section = await open_market(pilot)
        assert "NO MARKET at Tor Quarry" in text_of(app, "#market-view")
        assert "Tor Quarry has no market" in text_of(app, "#market-detail")
        assert section.stock == ()
        assert enabled(app, "b") is False and enabled(app, "f") is False
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)


async def test_exclusives_show_a_lock_below_allied(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await evolve(pilot, place="foundry_station")  # Crucible territory, never visited
        section = await open_market(pilot)
        row = next(i for i, r in enumerate(section.stock) if r.exclusive)
        await pilot.press(*["down"] * row)
        await pilot.pause()
        cells = [str(c) for c in app.screen.query_one("#market-table", DataTable).get_row_at(row)]
        assert cells[2] == "order" and "locked" in cells[5]
        assert enabled(app, "b") is False
        assert "exclusive" in text_of(app, "#market-detail")


async def test_views_switch_by_click(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        section = await open_market(pilot)
        stock_label = f"   Stock ({len(section.stock)})  "
        await pilot.click("#market-view", offset=(len(stock_label) + 3, 0))
        await pilot.pause()
        assert view_of(section) == "inventory"
        assert "inventory is empty" in text_of(app, "#market-detail")
        await pilot.click("#market-view", offset=(4, 0))
        await pilot.pause()
        assert view_of(section) == "stock"
