"""The smaller things of issue 14 outside the battle (Textual pilot tests): the company-name
prompt takes its suggestion, Home/End/PgUp/PgDn in tables, Continue after a quick battle, the
footer keeps `? Help`, the seed on screen."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.widgets.footer import GameFooter
from mac_tui.tui.widgets.table import GameTable
from tests.cuts import screen_text
from tests.stages import copy
from tests.wide import wide_session

Pilot = Any


def make_app(tmp_path: Path) -> MacApp:
    return MacApp(saves=tmp_path, settings=Settings())


async def test_enter_on_the_name_prompt_takes_the_suggestion(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert "Enter keeps Iron Wolves" in screen_text(app)
        await pilot.press("enter")  # nothing typed: the suggestion
        await pilot.press("ctrl+a", "ctrl+k", *"42", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)
        assert app.session is not None and app.session.state.campaign is not None
        assert app.session.state.campaign.company == "Iron Wolves"


async def test_a_typed_name_still_wins(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", *"Red Hand", "enter", "enter")
        await pilot.pause()
        assert app.session is not None and app.session.state.campaign is not None
        assert app.session.state.campaign.company == "Red Hand"


async def test_home_end_and_pages_move_the_table_cursor(tmp_path: Path) -> None:
    """The wide company's 23 pilots: End to the last, Home to the first, pages between."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(copy(wide_session()), tmp_path / "wide.json")
        app.show_game()
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        table = app.screen.query_one("#pilots", DataTable)
        assert isinstance(table, GameTable) and table.has_focus
        last = table.row_count - 1
        assert last > 15
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == last
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert 0 < table.cursor_row < last
        await pilot.press("pageup")
        await pilot.pause()
        assert table.cursor_row == 0


async def test_continue_after_a_quick_battle_resumes_the_campaign(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "ctrl+a", "ctrl+k", *"5", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HubScreen)
    quick = make_app(tmp_path)
    async with quick.run_test(size=(80, 24)) as pilot:
        assert quick.start_skirmish(9, 1)
        await pilot.pause()
        assert isinstance(quick.screen, BattleScreen)
    campaign_save, battle_save = tmp_path / "iron-wolves-5.json", tmp_path / "skirmish-9.json"
    os.utime(campaign_save, (1_000_000_000, 1_000_000_000))  # the quick battle is newer
    os.utime(battle_save, (1_000_000_100, 1_000_000_100))
    again = make_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(again.screen, HubScreen)
        assert again.save_path == campaign_save
    campaign_save.unlink()  # no campaign left: the unfinished quick battle
    last = make_app(tmp_path)
    async with last.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(last.screen, BattleScreen) and last.save_path == battle_save


async def test_the_footer_keeps_help_and_leaves_quit_to_it(tmp_path: Path) -> None:
    """The refit bay has more keys than 80 columns hold: ^q Quit and esc Menu give way, `?
    Help` stays (and lists them)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(copy(wide_session()), tmp_path / "wide.json")
        app.show_game()
        await pilot.pause()
        await pilot.press("4")
        await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        keys = [b.key for b, _ in footer.fitted(80)]
        assert keys[-1] == "question_mark"
        assert "ctrl+q" not in keys and "escape" not in keys
        assert screen_text(app).splitlines()[-1].rstrip().endswith("? Help")
        await pilot.resize_terminal(140, 30)  # room enough: everything, the palette too
        await pilot.pause()
        await pilot.pause()
        keys = [b.key for b, _ in footer.fitted(140)]
        assert {"ctrl+q", "escape", "ctrl+p"} <= set(keys)


async def test_the_seed_is_on_the_finances_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        session = copy(wide_session())
        app.start_session(session, tmp_path / "wide.json")
        app.show_game()
        await pilot.pause()
        await pilot.press("7")
        await pilot.pause()
        assert f"seed {session.state.seed}" in screen_text(app)


async def test_a_click_on_a_footer_key_presses_it(tmp_path: Path) -> None:
    from mac_tui.tui.screens.help import HelpScreen

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        x = next(x for x in range(80) if footer.key_at(x) == "question_mark")
        await pilot.click(GameFooter, offset=(x, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_switching_sections_draws_a_section_only_when_its_state_changed(
    tmp_path: Path,
) -> None:
    """A section drawn for this state (each is, as it is first shown) is not drawn again when
    it comes back to the front (its tables keep their rows); after a command it is."""
    from mac_tui.campaign.commands import AdvanceDay
    from mac_tui.tui.screens.pilots import PilotsSection

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(copy(wide_session()), tmp_path / "wide.json")
        app.show_game()
        await pilot.pause()
        assert len(app.screen.query(PilotsSection)) == 0  # not built until shown
        await pilot.press("2", "1")
        await pilot.pause()
        drawn: list[int] = []
        section = app.screen.query_one(PilotsSection)
        original = section.refresh_view

        def counted() -> None:
            drawn.append(1)
            original()

        section.refresh_view = counted  # type: ignore[method-assign]
        await pilot.press("2", "1", "2", "1", "2")
        await pilot.pause()
        assert drawn == []
        assert app.act(AdvanceDay(1))
        await pilot.pause()
        assert len(drawn) == 1  # the state changed while it was in front
        await pilot.press("1", "2")
        await pilot.pause()
        assert len(drawn) == 1


async def test_the_hub_builds_the_sections_not_shown_yet_in_a_pause(tmp_path: Path) -> None:
    """In a pause of the input the hub builds, fills and lays out the sections not shown yet,
    one at a time, and parks them; a key then shows each as one seen before, the same
    picture as a section built by its key."""
    from mac_tui.tui.screens.hub import SectionStack
    from mac_tui.tui.screens.sections import section_classes

    pictures: dict[str, list[str]] = {}
    for prebuilt in (False, True):
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_session(copy(wide_session()), tmp_path / "wide.json")
            app.show_game()
            await pilot.pause()
            hub = app.screen
            assert isinstance(hub, HubScreen)
            stack = hub.query_one(SectionStack)
            names = [cls.__name__ for cls in section_classes()]
            assert [stack.opened(n) for n in names] == [True] + [False] * (len(names) - 1)
            if prebuilt:
                await pilot.press("down", "up")
                await hub._prebuild()  # an input just came: nothing built yet
                assert not stack.opened(names[1])
                app.collector.last_input = app.collector.now() - 10  # a pause
                await hub._prebuild()  # the first: the save's text worked out (Session.prime)
                assert hub._primed and not stack.opened(names[1])
                for _ in names[1:]:
                    await hub._prebuild()
                    await pilot.pause()
                sections = [stack.get_child_by_id(name) for name in names[1:]]
                for _ in range(100):  # parked after the frame that lays it out (Textual's clock)
                    if not any(section.display for section in sections):
                        break
                    await pilot.pause(0.01)
                for section in sections:
                    assert not section.display and section._drawn is not None
                    assert section._size  # laid out once, out of sight
                assert stack.current == names[0]
            for key in "2345671":
                await pilot.press(key)
                await pilot.pause()
                await app.workers.wait_for_complete()  # the board's threat ratings
                await pilot.pause()
                assert stack.current is not None
                pictures.setdefault(key, []).append(screen_text(app))
    for key, (built_by_key, prebuilt_picture) in pictures.items():
        assert prebuilt_picture == built_by_key, key
