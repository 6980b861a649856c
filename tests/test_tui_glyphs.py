"""The glyphs setting: in ascii mode every screen draws only ASCII (marks, borders, keys in the
footer, frame diagrams, the palette); the unicode default stays as it was (the SVG snapshots in
test_tui_snapshots.py hold it); the setting applies at start and live from Settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.text import Text
from textual.binding import Binding

from mac_tui.catalog import catalog
from mac_tui.session import Session
from mac_tui.tui import glyphs as glyph_module
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.glyphs import ASCII, UNICODE, AsciiFilter, key_display, plain, plain_text
from mac_tui.tui.screens.afteraction import AfterActionScreen
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.screens.rules import RulesScreen
from tests.cuts import screen_text
from tests.stages import Stages, build_stages, copy

Pilot = Any  # textual.pilot.Pilot[None]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---- the tables ----------------------------------------------------------------------------
ONE_CELL = [
    *("ok", "no", "warn", "cursor", "current", "prev", "next", "sep", "dot", "times", "star"),
    *("plus", "none", "h", "v", "tl", "tr", "bl", "br", "t_down", "t_up", "t_left", "t_right"),
    *("cross", "route", "planned"),
]


def test_the_ascii_table_is_ascii_and_keeps_the_one_cell_marks_one_cell() -> None:
    for field in attrs.fields(type(ASCII)):
        value = getattr(ASCII, field.name)
        if isinstance(value, str):
            assert value.isascii(), field.name
    for name in ONE_CELL:
        assert len(getattr(ASCII, name)) == 1 == len(getattr(UNICODE, name)), name
    assert len(ASCII.eighths) == len(UNICODE.eighths) == 9
    assert ASCII.box(6, "HD") == ("+HD--+", "+----+")
    assert UNICODE.box(6, "HD") == ("┌HD──┐", "└────┘")


def test_plain_makes_text_ascii() -> None:
    assert plain("Iron · 1 Jan → 5 × LL … §7 ✓ ✗ ⚠ ▸") == "Iron | 1 Jan -> 5 x LL ... #7 + x ! >"
    assert plain("┌HD─┐│└┘┼") == "+HD-+|+++"
    assert plain("Müller Söhne") == "Muller Sohne"
    assert plain("鉄") == "?"
    assert plain("plain ASCII [b]markup[/b]") == "plain ASCII [b]markup[/b]"
    text = Text("a → b")
    text.stylize("bold", 4, 5)  # the "b"
    out = plain_text(text)
    assert out.plain == "a -> b"
    assert [(s.start, s.end, s.style) for s in out.spans] == [(5, 6, "bold")]


def test_keys_are_named_in_ascii() -> None:
    def shown(binding: Binding, unicode: str = "") -> str:
        return key_display(binding, unicode or "UNICODE FORM", ascii=True)

    assert shown(Binding("enter", "go")) == "Enter"
    assert shown(Binding("escape", "back")) == "Esc"
    assert shown(Binding("ctrl+q", "quit")) == "^q"
    assert shown(Binding("left", "payout(-1)", key_display="←")) == "Left"
    assert shown(Binding("question_mark", "help")) == "?"
    assert shown(Binding("right_square_bracket", "frame(1)")) == "]"
    assert shown(Binding("d", "advance_day", key_display="D")) == "D"
    assert key_display(Binding("enter", "go"), "⏎", ascii=False) == "⏎"  # unicode: Textual's


# ---- the game states behind the screens ----------------------------------------------------
@pytest.fixture(scope="module")
def stages() -> Stages:
    return build_stages()


@pytest.fixture(autouse=True)
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    (tmp_path / "saves").mkdir()


@pytest.fixture
def no_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch off the last guard, so what is checked is what the screens draw themselves."""
    monkeypatch.setattr(AsciiFilter, "apply", lambda self, segments, background: segments)


def not_ascii(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.isascii()]


def new_app(glyphs: str = "ascii") -> MacApp:
    return MacApp(saves=Path("saves"), settings=Settings(glyphs=glyphs))  # type: ignore[arg-type]


async def settle(pilot: Pilot) -> None:
    await pilot.pause()


async def resume(pilot: Pilot, session: Session) -> MacApp:
    """The game opened at `session`: the hub, with the mission or the report over it."""
    app: MacApp = pilot.app
    while len(app.screen_stack) > 1:
        app.pop_screen()
    app.start_session(copy(session), Path("saves") / "iron.json")
    app.push_screen(HubScreen())
    state = session.state
    if state.battle is not None:
        app.push_screen(BattleScreen())
    elif state.campaign is not None and state.campaign.after_action is not None:
        app.push_screen(AfterActionScreen())
    await settle(pilot)
    return app


async def screens(pilot: Pilot, stages: Stages) -> list[tuple[str, str]]:
    """(name, text) of every screen of the game, reached with the keys a player presses."""
    out: list[tuple[str, str]] = []
    app: MacApp = pilot.app

    async def take(name: str, *keys: str) -> None:
        await pilot.press(*keys)
        if not keys:
            await settle(pilot)
        out.append((name, screen_text(app)))

    await take("title")
    await take("settings", "s")
    await pilot.press("escape")
    app.push_screen(RulesScreen("terrain"))  # the table with the terrain glyphs
    await take("rules")
    await take("load", "escape", "l")
    await take("company name prompt", "escape", "n")
    await pilot.press("escape")
    await resume(pilot, stages.hub)
    for key in "1234567":
        await take(f"hub section {key}", key)
    await take("finances chart", "c")
    await take("roster repair dialog", "1", "down", "r")
    await take("help", "escape", "question_mark")
    await take("day report", "escape", "d")
    await take("palette", "escape", "ctrl+p")
    await pilot.press("escape")
    app.say("Refused: a warning in a toast", warning=True)
    await take("toast")
    return out


async def test_every_screen_draws_only_ascii_in_ascii_mode(stages: Stages, no_guard: None) -> None:
    async with new_app().run_test(size=(80, 24)) as pilot:
        shots = dict(await screens(pilot, stages))
        app: MacApp = pilot.app
        await resume(pilot, stages.fresh)
        await pilot.press("6", "enter")
        await settle(pilot)
        shots["contract launch panel"] = screen_text(app)
        await resume(pilot, stages.battle)
        shots["battle, deployment"] = screen_text(app)
        await pilot.press("a", "s")  # auto-deploy, start: the first frame's orders
        await settle(pilot)
        shots["battle"] = screen_text(app)
        await resume(pilot, stages.after_action)
        shots["after-action"] = screen_text(app)
        await pilot.press("space", "down", "space", "enter")
        await settle(pilot)
        shots["after-action, salvage revealed"] = screen_text(app)
    assert {name: not_ascii(text) for name, text in shots.items() if not_ascii(text)} == {}
    # and what they draw is the game's: the marks in their ASCII form
    assert "Iron | 01 Jan 2847 | " in shots["hub section 1"].splitlines()[0]
    assert "+HD-------+" in shots["hub section 4"]  # the frame diagram's head box
    assert "|>S LL  g1|" in shots["hub section 4"]  # the cursor on the head's laser
    assert " Enter Fit " in shots["hub section 4"].splitlines()[-1]
    assert "Left More pay Right More salvage " in shots["contract launch panel"]
    assert "+ Lance F1+F2 (2/4) | deployment" in shots["contract launch panel"]
    assert shots["after-action"].startswith(" * VICTORY | contract C1")
    # the track names frames by their marks on the map
    assert "Deployment | M1 > L2 > m1 > m2" in shots["battle, deployment"].splitlines()[0]
    assert "Contract C1 | " in shots["battle"].splitlines()[0]
    assert "+-----" in shots["title"]  # the menu's border
    terrain = catalog().terrain
    rules = shots["rules"]
    assert all(t.glyph in rules for t in terrain.values())  # the ASCII glyphs stay...
    assert "unicode" not in rules  # ...the Unicode column goes


async def test_the_unicode_default_keeps_its_marks(stages: Stages) -> None:
    async with new_app("unicode").run_test(size=(80, 24)) as pilot:
        app = await resume(pilot, stages.hub)
        await pilot.press("4")
        await settle(pilot)
        text = screen_text(app)
    assert "Iron · 01 Jan 2847 · " in text.splitlines()[0]
    assert "┌HD───────┐" in text
    assert " ⏎ Fit " in text.splitlines()[-1]
    assert not app.has_class("-ascii")


async def test_the_setting_applies_live_from_the_settings_screen() -> None:
    async with new_app("unicode").run_test(size=(80, 24)) as pilot:
        app: MacApp = pilot.app
        await pilot.press("s")
        await settle(pilot)
        before = screen_text(app)
        assert "Settings · changes apply" in before
        await pilot.press("g")
        await settle(pilot)
        after = screen_text(app)
        assert app.settings.glyphs == "ascii" and app.has_class("-ascii")
        assert not_ascii(after) == []
        assert "Settings | changes apply" in after
        assert after.splitlines()[1].startswith("+----")  # the option list's border
        assert 'glyphs = "ascii"' in Path("config.toml").read_text(encoding="utf-8")
        await pilot.press("escape")  # the title screen, drawn again in ASCII
        await settle(pilot)
        assert not_ascii(screen_text(app)) == []
        await pilot.press("s", "g")
        await settle(pilot)
        assert "Settings · changes apply" in screen_text(app)
        assert not app.has_class("-ascii")


async def test_the_config_file_sets_ascii_at_start() -> None:
    Path("config.toml").write_text('glyphs = "ascii"\n', encoding="utf-8")
    async with MacApp(saves=Path("saves")).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app: MacApp = pilot.app
        assert app.settings.glyphs == "ascii"
        text = screen_text(app)
    assert not_ascii(text) == []
    assert "+-----" in text


async def test_typed_names_are_drawn_in_ascii_too(stages: Stages) -> None:
    """The last guard: a company named with accents and a wide character by the player."""
    c = stages.hub.state.campaign
    assert c is not None
    session = copy(stages.hub)
    session.state = attrs.evolve(session.state, campaign=attrs.evolve(c, company="Sölner 鉄"))
    async with new_app().run_test(size=(80, 24)) as pilot:
        app = await resume(pilot, session)
        text = screen_text(app)
    assert text.splitlines()[0].startswith(" Solner ?  | 01 Jan 2847 | ")  # 鉄 is two cells
    assert not_ascii(text) == []


def test_switching_back_removes_the_guard() -> None:
    class Fake:
        def __init__(self) -> None:
            self._filters: list[object] = []
            self.screen_stack: list[object] = []
            self.classes: set[str] = set()

        def set_class(self, on: bool, name: str) -> None:
            (self.classes.add if on else self.classes.discard)(name)

    app = Fake()
    glyph_module.apply_glyphs(app, True)
    glyph_module.apply_glyphs(app, True)
    assert [type(f) for f in app._filters] == [AsciiFilter] and app.classes == {"-ascii"}
    glyph_module.apply_glyphs(app, False)
    assert app._filters == [] and app.classes == set()
