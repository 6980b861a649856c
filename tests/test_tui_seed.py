"""The seed in play: in the hub's status line where the line has room, and in the hub's help
(with the command that starts the game again) at any width."""

from __future__ import annotations

from pathlib import Path

import pytest

from mac_tui.campaign.commands import NewCampaign
from mac_tui.core import Accepted
from mac_tui.game import step
from mac_tui.model import initial_state
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.help import HelpScreen
from mac_tui.tui.widgets.status import status_text

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def campaign(seed: int) -> object:
    out = step(initial_state(seed), NewCampaign("Iron Wolves"))
    assert isinstance(out, Accepted)
    return out.state


def test_the_status_line_shows_the_seed_where_it_has_room() -> None:
    state = campaign(108205317)
    wide = status_text(state, width=118).plain  # type: ignore[arg-type]
    assert "Seed 108205317" in wide
    assert len(wide.splitlines()) == 2
    narrow = status_text(state, width=78).plain  # type: ignore[arg-type]
    assert "Seed" not in narrow  # no third line for it at 80 columns
    assert len(narrow.splitlines()) == 2


async def test_the_hubs_help_names_the_seed(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path / "saves", settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "enter")
        await pilot.pause()
        assert app.session is not None
        seed = app.session.state.seed
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert f"mac-tui play --seed {seed}" in app.screen.text()
