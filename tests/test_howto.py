"""How to play: the pages follow the rules data (a changed number changes the page), the
worked hit chance is the engine's sum, the tables fit the 80-column pane; the screen opens
from the title (p) and from any screen (F1), pages turn with ] and the list."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from textual.widgets import OptionList, Static

from mac_tui.catalog import catalog
from mac_tui.combat.attack import clamp_chance, range_modifier
from mac_tui.howto import WIDTH, pages
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.howto import HowToPlayScreen

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def page(title: str, cat: object = None) -> list[str]:
    found = {p.title: p.lines for p in pages(cat or catalog())}  # type: ignore[arg-type]
    return list(found[title])


def test_every_page_has_text_and_its_tables_fit_the_pane() -> None:
    all_pages = pages(catalog())
    assert all_pages[0].title == "Your first hour"
    for p in all_pages:
        assert len(p.lines) > 5, p.title
        for line in p.lines:
            if line.startswith("  ") or "  " in line.strip():  # a table row: never wrapped
                assert len(line) <= WIDTH, (p.title, line)


def test_the_worked_hit_chance_is_the_rules_sum() -> None:
    cat = catalog()
    acc = cat.combat.accuracy
    start = cat.start.frame[0]
    pilot = next(p for p in cat.pilots.starting_pilot if p.callsign == start.pilot)
    weapon = cat.weapons[start.loadout[0].weapon]
    target = min(cat.chassis.values(), key=lambda c: (c.tonnage, c.designation))
    cover = max(cat.terrain.values(), key=lambda t: t.defense)
    rc = cat.range_class(weapon.range)
    total = (
        weapon.accuracy
        + pilot.gunnery * acc.gunnery_per_point
        - target.evasion
        + (range_modifier(weapon.range, rc.optimal_min) or 0)
        - cover.defense
    )
    text = "\n".join(page("Hitting"))
    assert f"fires the {weapon.name} at a {target.name} {rc.optimal_min} hexes away" in text
    assert f"= {total}: {clamp_chance(total)}% to hit." in text
    called = clamp_chance(total - acc.called_shot)
    assert f"Called shot {called}%," in text
    # the table by distance: every distance the weapon reaches, none beyond
    far = clamp_chance(
        total
        - (range_modifier(weapon.range, rc.optimal_min) or 0)
        + (range_modifier(weapon.range, rc.max_range) or 0)
    )
    assert f"{rc.max_range:>2}: {far:>2}%" in text
    assert f"{rc.max_range + 1:>2}: " not in text


def test_a_changed_rule_changes_the_page() -> None:
    cat = catalog()
    combat = cat.combat
    changed = attrs.evolve(
        cat,
        combat=attrs.evolve(
            combat,
            ap_costs=attrs.evolve(combat.ap_costs, called_shot=3),
            accuracy=attrs.evolve(combat.accuracy, brace=35),
        ),
    )
    battle = "\n".join(page("A battle round", changed))
    assert "Called shot    3  pick the location" in battle
    assert "-35% to hit it until the next round" in battle
    assert "Called shot    2" in "\n".join(page("A battle round"))


def app_for(tmp_path: Path) -> MacApp:
    return MacApp(saves=tmp_path / "saves", settings=Settings())


def shown(app: MacApp) -> str:
    return str(app.screen.query_one("#howto-text", Static).render())


async def test_the_title_opens_how_to_play_and_pages_turn(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HowToPlayScreen)
        assert "Your first hour" in shown(app) and "500,000 cr" in shown(app)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert "A battle round" in shown(app)
        await pilot.press("down")  # the list turns pages too
        await pilot.pause()
        assert "Hitting" in shown(app)
        assert screen.query_one("#howto-list", OptionList).highlighted == 2
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HowToPlayScreen)


async def test_f1_opens_it_from_the_hub_and_closes_it(tmp_path: Path) -> None:
    app = app_for(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "enter")
        await pilot.pause()
        hub = app.screen
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HowToPlayScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen is hub
