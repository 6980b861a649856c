"""First-run hints in the hub: each section's hint on the message line while hints are on;
H (or the settings screen's h) switches them off, and the config file remembers it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings, load_settings, save_settings, settings_text
from mac_tui.tui.screens.sections import section_classes
from mac_tui.tui.screens.settings import SettingsScreen

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "config.toml"
    monkeypatch.setenv(CONFIG_ENV, str(path))
    return path


def message(app: MacApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


def test_every_section_has_a_hint() -> None:
    for cls in section_classes():
        assert cls.HINT and cls.HINT[0].isalpha(), cls.__name__
        # two lines of the 80-column message line at most, with room for the wrapping
        assert len(f"Hint: {cls.HINT} (H: no hints)") <= 140, cls.__name__


def test_the_file_keeps_hints_off_and_says_nothing_while_they_are_on(config_file: Path) -> None:
    assert "hints" not in settings_text(Settings())  # the default is not written
    save_settings(Settings(hints=False), config_file)
    assert "hints = false" in config_file.read_text()
    assert load_settings(config_file) == (Settings(hints=False), None)


async def test_hints_follow_the_section_and_h_switches_them_off(
    tmp_path: Path, config_file: Path
) -> None:
    app = MacApp(saves=tmp_path / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "enter")
        await pilot.pause()
        assert message(app).startswith("Hint: These are your frames. Find work in Contracts")
        await pilot.press("6")
        await pilot.pause()
        assert message(app).startswith("Hint: Start with a low difficulty")
        await pilot.press("H")
        await pilot.pause()
        assert message(app).startswith("Hints off")
        assert app.settings.hints is False
        assert load_settings(config_file)[0].hints is False  # remembered
        await pilot.press("2")
        await pilot.pause()
        assert "Hint:" not in message(app)
        await pilot.press("H")  # and on again
        await pilot.pause()
        assert message(app).startswith("Hint: Gunnery adds to hit chances")


async def test_h_then_an_end_before_its_frame_still_writes_the_file(
    tmp_path: Path, config_file: Path
) -> None:
    """`H` writes the file once its change is painted, or at the game's end if that comes
    first (a quit in the same turn of the event loop); each change is written once."""
    from mac_tui.tui.screens.hub import HubScreen

    app = MacApp(saves=tmp_path / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "enter")
        await pilot.pause()
        hub = app.screen
        assert isinstance(hub, HubScreen)
        hub.action_toggle_hints()
        assert app.unsaved_settings and not config_file.exists()  # not before the frame
        app.exit()
    assert load_settings(config_file)[0].hints is False
    assert app.unsaved_settings == []


async def test_h_redraws_nothing_but_the_message_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hints on or off change no theme, keys or glyphs: the app is not drawn again (the
    glyphs' redraw of every widget); a change of glyphs still is."""
    from mac_tui.tui import glyphs
    from mac_tui.tui.screens.settings import change_settings

    redraws: list[bool] = []
    apply = glyphs.apply_glyphs

    def counted(app: object, ascii: bool) -> None:
        redraws.append(ascii)
        apply(app, ascii)

    monkeypatch.setattr(glyphs, "apply_glyphs", counted)
    app = MacApp(saves=tmp_path / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "enter")
        await pilot.pause()
        before = len(redraws)
        await pilot.press("H", "H")
        await pilot.pause()
        assert len(redraws) == before and message(app).startswith("Hint:")
        change_settings(app, Settings(hints=app.settings.hints, glyphs="ascii"))
        await pilot.pause()
        assert redraws[before:] == [True]


async def test_the_settings_screen_switches_hints(tmp_path: Path, config_file: Path) -> None:
    app = MacApp(saves=tmp_path / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("h")
        await pilot.pause()
        assert app.settings.hints is False
        assert "hints = false" in config_file.read_text()
        await pilot.press("escape", "n", "enter", "enter")
        await pilot.pause()
        assert "Hint:" not in message(app)
