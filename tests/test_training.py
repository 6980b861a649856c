"""Ruling P1: experience buys skill levels. The price (current level x xp_per_level), the
refusals (unknown pilot or skill, killed, at the top, too little XP), the command's effect and
text form, the legal candidates agreeing with the refusals, and the pilots screen's `t`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.text import Text
from textual.widgets import Static

from mac_tui.campaign.commands import NewCampaign, Train
from mac_tui.campaign.state import Campaign
from mac_tui.catalog import catalog
from mac_tui.core import Accepted, Refused
from mac_tui.game import format_command, legal_commands, parse_command, refusal, step
from mac_tui.model import GameState, initial_state
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.widgets.dialogs import ChooseScreen

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def new_game() -> GameState:
    out = step(initial_state(3), NewCampaign("Iron Wolves"))
    assert isinstance(out, Accepted)
    return out.state


def with_pilot(state: GameState, callsign: str, **changes: Any) -> GameState:
    c = state.campaign
    assert c is not None
    pilots = tuple(attrs.evolve(p, **changes) if p.callsign == callsign else p for p in c.pilots)
    return attrs.evolve(state, campaign=attrs.evolve(c, pilots=pilots))


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def test_a_level_costs_the_current_level_times_the_rate() -> None:
    per = catalog().pilots.training.xp_per_level
    state = with_pilot(new_game(), "Ghost", gunnery=4, xp=4 * per + 7)
    out = step(state, Train("Ghost", "gunnery"))
    assert isinstance(out, Accepted)
    ghost = camp(out.state).pilot("Ghost")
    assert (ghost.gunnery, ghost.xp) == (5, 7)
    assert any("Ghost trains gunnery to 5" in str(getattr(e, "text", "")) for e in out.events)
    # the text form of the command
    assert format_command(Train("Ghost", "gunnery")) == "train Ghost gunnery"
    assert parse_command("train Ghost tactics") == Train("Ghost", "tactics")


def test_the_refusals_say_why() -> None:
    per = catalog().pilots.training.xp_per_level
    top = catalog().pilots.skills.max
    state = with_pilot(new_game(), "Ghost", gunnery=4, xp=4 * per - 1)
    out = step(state, Train("Ghost", "gunnery"))
    assert out == Refused(
        f"Ghost has {4 * per - 1} XP; gunnery 5 needs {4 * per} (1 more: missions earn it)"
    )
    assert "no pilot called Nobody" in str(refusal(state, Train("Nobody", "gunnery")))
    assert "no skill 'luck'" in str(refusal(state, Train("Ghost", "luck")))
    topped = with_pilot(state, "Ghost", gunnery=top, xp=10_000)
    assert f"gunnery is {top}, the highest there is" in str(
        refusal(topped, Train("Ghost", "gunnery"))
    )
    dead = with_pilot(state, "Ghost", status="kia", xp=10_000)
    assert "killed in action" in str(refusal(dead, Train("Ghost", "piloting")))


def test_the_legal_candidates_are_the_ones_accepted() -> None:
    per = catalog().pilots.training.xp_per_level
    state = with_pilot(new_game(), "Ghost", xp=3 * per)  # tactics 3 -> 4 only
    legal = [c for c in legal_commands(state) if isinstance(c, Train)]
    assert legal == [Train("Ghost", "tactics")]
    for skill in ("gunnery", "piloting", "tactics"):
        for p in camp(state).pilots:
            cmd = Train(p.callsign, skill)
            assert (cmd in legal) == isinstance(step(state, cmd), Accepted)


def detail(app: MacApp) -> str:
    content = app.screen.query_one("#pilot-detail", Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def test_t_on_the_pilots_screen_trains(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path / "saves", settings=Settings())
    per = catalog().pilots.training.xp_per_level
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "enter", "enter", "2")
        await pilot.pause()
        assert app.session is not None
        ghost = camp(app.session.state).pilot("Ghost")
        assert f"Train (t), 0 XP: gunnery 5 for {ghost.gunnery * per}, piloting" in detail(app)
        await pilot.press("t")  # nothing affordable: the message says what is missing
        await pilot.pause()
        assert not isinstance(app.screen, ChooseScreen)
        assert "Refused: Ghost has 0 XP; tactics 4 needs 300" in str(
            app.screen.query_one("#message", Static).render()
        )
        app.session.state = with_pilot(app.session.state, "Ghost", xp=4 * per)
        app.redraw()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ChooseScreen)
        assert [v for v, _ in app.screen.options] == ["gunnery", "piloting", "tactics"]
        await pilot.press("enter")  # gunnery
        await pilot.pause()
        g = camp(app.session.state).pilot("Ghost")
        assert (g.gunnery, g.xp) == (ghost.gunnery + 1, 0)
