"""Optional module O8 on the battle screen (O8.10): the map draws the player's view (greyed
`m?` markers at last-known hexes, nothing where a hidden enemy really stands), the legend
names the marker, and the log leaves out what the player's side did not see."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.view import hidden_enemies
from mac_tui.game import to_act
from mac_tui.players.ai import policy_for
from mac_tui.players.driver import battle_seats, drive
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.widgets.hex_picture import frame_label

from .test_tui_battle import open_battle

Pilot = Any
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))


def fogged_session() -> Session:
    """A difficulty-5 quick battle with O8 (seed 3), both sides played by the AI until the
    player's side has a last-known marker and a hidden enemy, at a player's activation."""
    session = Session.new(3)
    assert session.apply(NewSkirmish(difficulty=5, rules="O8")).accepted
    assert session.state.battle is not None
    seats = battle_seats(session.state.battle, policy_for(), everyone=True)

    def ready(state: Any) -> bool:
        b = state.battle
        return (
            b is not None
            and b.phase == "combat"
            and to_act(state).side == "player"
            and any(lk.side == "player" for lk in b.last_known)
            and bool(hidden_enemies(b, "player"))
        )

    drive(session.state, seats, apply=lambda _, c: session.apply(c), until=ready)
    assert ready(session.state)
    return session


async def test_the_map_draws_the_players_view(tmp_path: Path) -> None:
    session = fogged_session()
    battle = session.state.battle
    assert battle is not None
    app = MacApp(saves=tmp_path, settings=Settings(animation="off", glyphs="ascii"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_battle(pilot, session, tmp_path)
        text = screen.view.hexmap.text()
        known = {lk.unit for lk in battle.last_known if lk.side == "player"}
        for enemy in hidden_enemies(battle, "player"):
            assert frame_label(enemy) not in text  # never where it really is
            if enemy.id in known:
                assert frame_label(enemy)[0] + "?" in text  # its marker, greyed
        shown = screen.moment.shown
        assert shown is not None and shown.markers
        legend = " ".join(line.text.strip() for line in screen.query_one("RichLog").lines)
        assert "m? last known" in legend


async def test_replay_shows_the_players_view_unless_asked_for_the_truth() -> None:
    """`mac-tui replay --watch` under O8 draws the player's view (O8.10); `--truth` every frame
    where it is."""
    from mac_tui.combat.view import view_of
    from mac_tui.tui.pacing import ManualClock
    from mac_tui.tui.replay import ReplayApp
    from mac_tui.tui.widgets.hexmap import HexMap

    session = fogged_session()
    save = session.to_save()
    battle = session.state.battle
    assert battle is not None
    for truth in (False, True):
        app = ReplayApp(save, "fog.json", settings=Settings(), clock=ManualClock(), truth=truth)
        async with app.run_test(size=(100, 32)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("end")
            shown = app.viewer.query_one(HexMap).battle
            assert shown == (battle if truth else view_of(battle, "player"))
