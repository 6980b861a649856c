"""Textual CSS parsed once per process (tui/csscache.py), and the zygote's warm-up of it: a game
started after `warm_css` reaches its title screen and its hub without parsing any CSS."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import textual.css.stylesheet as textual_stylesheet
from textual.css.stylesheet import Stylesheet

from mac_tui.server.zygote_main import css_sources, warm_css
from mac_tui.tui import csscache
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.csscache import SharedStylesheet
from mac_tui.tui.screens.hub import HubScreen

from .test_tui_app import new_campaign


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every CSS source Textual parses meanwhile (its location's name)."""
    seen: list[str] = []
    real = textual_stylesheet.parse

    def counted(scope, css, read_from, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(f"{read_from[0]}:{read_from[1]}")
        return real(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", counted)
    yield seen


def _sheet(kind: type[Stylesheet], variables: dict[str, str]) -> Stylesheet:
    sheet = kind(variables=variables)
    sheet.add_source("Screen { background: $panel; }\n.x { color: $accent; }", ("a", "A.CSS"))
    sheet.add_source("Static { padding: 1; }", ("b", "B.DEFAULT_CSS"), is_default_css=True)
    return sheet


def test_the_shared_sheet_parses_a_source_once_and_as_textual_does(parses: list[str]) -> None:
    variables = MacApp(settings=Settings()).get_css_variables()
    plain = _sheet(Stylesheet, variables)
    plain.parse()
    plain.reparse()
    assert len(parses) == 4  # Textual: every source again at each re-parse
    parses.clear()
    shared = _sheet(SharedStylesheet, variables)
    shared.parse()
    assert len(parses) == 2
    shared.reparse()
    again = _sheet(SharedStylesheet, variables)
    again.parse()
    assert len(parses) == 2  # the re-parse and a second sheet: nothing new parsed
    assert shared.css == plain.css == again.css
    other = dict(variables, accent="#123456")
    changed = _sheet(SharedStylesheet, other)
    changed.parse()
    assert len(parses) == 4  # other variables: parsed again, with them
    assert "#123456" in changed.css and "#123456" not in shared.css


def test_warm_parses_every_source_under_every_variable_set(parses: list[str]) -> None:
    app = MacApp(settings=Settings())
    sources = css_sources(app)
    names = {location[1] for location, *_ in sources}
    assert any(location[0].endswith("app.tcss") for location, *_ in sources)
    assert "HubScreen.DEFAULT_CSS" in names and "Static.DEFAULT_CSS" in names
    dark = app.get_css_variables()
    light = dict(dark, background="#fdfdfd")
    picked = sources[:3]
    assert csscache.warm(picked, [dark, light]) == 6
    assert len(parses) >= 3  # the light set at least was new to the cache
    parses.clear()
    for variables in (dark, light):
        sheet = SharedStylesheet(variables=variables)
        for location, css, tie_breaker, scope, is_default in picked:
            sheet.add_source(css, location, is_default, tie_breaker, scope)
        sheet.parse()
    assert parses == []  # both sets of every source came from the cache


async def test_after_the_zygote_warm_up_a_game_parses_no_css(
    tmp_path: Path, parses: list[str]
) -> None:
    warm_css()
    parses.clear()
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        assert isinstance(app.screen, HubScreen)
        assert parses == []
    other = MacApp(saves=tmp_path / "b", settings=Settings(theme="mac-light"))
    async with other.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert parses  # a theme the warm-up left out: parsed in the game, as before


def test_the_epoch_counts_what_may_restyle_nodes_already_styled(tmp_path: Path) -> None:
    """A widget class's new scoped CSS leaves the basis as it was (it matches no node styled
    before it came); new variables, unscoped CSS, a source changed and CSS read from a file
    each make a new one."""
    sheet = SharedStylesheet(variables={"primary": "#004578"})
    sheet.add_source("Page Static { color: $primary; }", read_from=("a", "Page"), scope="Page")
    assert sheet.rules  # parsed
    basis = csscache.style_basis(sheet)
    sheet.add_source(
        "Tip { color: red; }", read_from=("b", "Tip"), is_default_css=True, scope="Tip"
    )
    sheet.add_source("Page Static { color: $primary; }", read_from=("a", "Page"), scope="Page")
    assert csscache.same_basis(basis, csscache.style_basis(sheet))
    assert sheet.rules is not None and len(sheet.source) == 2
    changes = [
        lambda: sheet.set_variables({"primary": "#ff0000"}),
        lambda: sheet.add_source("Static { color: blue; }", read_from=("c", "loose")),
        lambda: sheet.add_source(
            "Tip { color: red; }",
            read_from=("b", "Tip"),
            is_default_css=True,
            scope="Tip",
            tie_breaker=-1,
        ),
        lambda: sheet.add_source("Tip { color: green; }", read_from=("b", "Tip"), scope="Tip"),
    ]
    css = tmp_path / "extra.tcss"
    css.write_text("Label { color: red; }\n")
    changes.append(lambda: sheet.read(str(css)))
    for change in changes:
        change()
        now = csscache.style_basis(sheet)
        assert not csscache.same_basis(basis, now)
        basis = now
    plain = Stylesheet()
    assert csscache.style_basis(plain) is plain.rules  # another sheet: its rules, every parse
