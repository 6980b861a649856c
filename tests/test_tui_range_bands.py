"""Optional module O1 on the battle screen: the track in place of the hex map (the four
positions, the frames on them, the ranges to each enemy), the same panels, previews, forecasts,
log and keys as the hex battle, Hold (`z`) only here, and a size floor of 60x20 instead of
80x24. Snapshots at 80x24 and 60x20; conventions as test_tui_snapshots.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import RichLog

from mac_tui.combat.actions import NO_DEPLOYMENT
from mac_tui.combat.commands import AutoDeploy, StartBattle
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.actions import ACTIONS
from mac_tui.tui.screens.too_small import TooSmallScreen
from mac_tui.tui.widgets.hexmap import HexMap
from mac_tui.tui.widgets.track_map import TrackMap
from tests.stages import copy, play
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SIZES = pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
Pilot = Any


@pytest.fixture(scope="module")
def opening() -> Session:
    """A range-band quick battle (seed 5, difficulty 3): every frame on its line."""
    return play(Session.new(5), NewSkirmish(3, rules="O1"))


@pytest.fixture(scope="module")
def started(opening: Session) -> Session:
    """The same battle begun: Falcon (L2) acts first, both enemies at Long."""
    return play(copy(opening), StartBattle())


async def open_battle(app: MacApp, pilot: Pilot, session: Session, tmp_path: Path) -> None:
    app.start_session(copy(session), tmp_path / "o1.json")
    app.show_game()
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def battle_screen(
    tmp_path: Path, pilot: Pilot, app: MacApp, session: Session
) -> BattleScreen:
    """`session`'s battle open at the app's size: its screen."""
    await open_battle(app, pilot, session, tmp_path)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    return screen


# ---- the picture -------------------------------------------------------------------------------
@SIZES
def test_o1_battle_opening(snap: Snap, size: tuple[int, int], opening: Session) -> None:
    snap(size, resume(copy(opening)))  # the track, both lances on their lines, s starts


@SIZES
def test_o1_battle_aiming(snap: Snap, size: tuple[int, int], started: Session) -> None:
    snap(size, resume(copy(started), "f"))  # the target bracketed, the range and its band


def test_o1_battle_sprint_preview(snap: Snap, started: Session) -> None:
    snap((80, 24), resume(copy(started), "r", "right", "right"))  # reach marks, the cost


async def test_the_track_shows_positions_frames_and_ranges(
    tmp_path: Path, started: Session
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await battle_screen(tmp_path, pilot, app, started)
        track = screen.query_one(TrackMap)
        lines = track.text().splitlines()
        assert lines[0].split()[:2] == ["0", "you"] and "3 foe" in lines[0]
        assert lines[2].split() == ["M1", "L2", "m1", "m2"]  # players at 0, enemies at 3
        assert lines[-1] == "ranges from L2: m1 3 Long, m2 3 Long"
        log = "\n".join(str(line.text) for line in screen.query_one(RichLog).lines)
        assert "range = the positions' difference" in log  # the track's legend
        # the cursor steps along the track; a Move marks its reach and previews its cost
        await pilot.press("m")
        assert "+1" in track.text().splitlines()[0].replace("◦", "+")
        await pilot.press("right", "enter")
        await pilot.pause()
        battle = app.session.state.battle if app.session is not None else None
        assert battle is not None and battle.unit("P2").pos is not None
        assert battle.unit("P2").pos.q == 1
        assert "ranges from L2: m1 2 Medium, m2 2 Medium" in track.text()


async def test_hold_ends_the_activation_in_place_and_is_only_on_the_track(
    tmp_path: Path, started: Session
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await battle_screen(tmp_path, pilot, app, started)
        assert ACTIONS.state("hold", (), screen.mode, screen.moment) is True
        await pilot.press("z")
        await pilot.pause()
        assert app.session is not None
        assert app.session.commands[-1].to_text() == "hold"
        log = "\n".join(str(line.text) for line in screen.query_one(RichLog).lines)
        assert "Falcon holds at position 0" in log
    core = play(Session.new(5), NewSkirmish(3))
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await battle_screen(tmp_path, pilot, app, core)
        assert screen.query_one(HexMap) is not None and not screen.query(TrackMap)
        assert ACTIONS.state("hold", (), screen.mode, screen.moment) is False  # hidden


async def test_placing_is_greyed_on_the_track_with_the_reason(
    tmp_path: Path, opening: Session
) -> None:
    """O1.3 (ruling O1a): nobody is placed in a range-band battle, so Enter's Place is greyed
    and says why; in a hex battle's deployment it is live."""
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await battle_screen(tmp_path, pilot, app, opening)
        assert ACTIONS.state("place", (), screen.mode, screen.moment) is None
        assert ACTIONS.refusal("place", (), screen.mode, screen.moment) == f"Place: {NO_DEPLOYMENT}"
    core = play(Session.new(5), NewSkirmish(3))
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await battle_screen(tmp_path, pilot, app, core)
        assert ACTIONS.state("place", (), screen.mode, screen.moment) is True


# ---- the size floor ----------------------------------------------------------------------------
async def test_a_range_band_battle_fits_60x20_where_a_hex_battle_asks_for_more(
    tmp_path: Path, started: Session
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)  # the title needs 80x24
        await open_battle(app, pilot, started, tmp_path)
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert app.size_floor() == (60, 20)
    core = play(Session.new(5), NewSkirmish(3), AutoDeploy(), StartBattle())
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(60, 20)) as pilot:
        await open_battle(app, pilot, core, tmp_path)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert app.size_floor() == (80, 24)


async def test_a_range_band_campaigns_mission_is_fought_on_the_track(tmp_path: Path) -> None:
    from mac_tui.campaign.commands import NewCampaign
    from mac_tui.game import parse_command

    session = play(Session.new(4), NewCampaign("Iron Wolves", "O1"))
    campaign = session.state.campaign
    assert campaign is not None
    contract, frame = campaign.contracts[0], campaign.frames[0].id
    play(session, parse_command(f"accept {contract.id} 3 {frame}"))
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await battle_screen(tmp_path, pilot, app, session)
        assert screen.query(TrackMap) and "every frame starts on its line" in str(
            screen.query_one("#message").render()
        )
        await pilot.press("s")  # O1.3: nothing to place; s starts
        await pilot.pause()
        assert app.session is not None and app.session.commands[-1].to_text() == "start-battle"
        battle = app.session.state.battle
        assert battle is not None and battle.phase == "combat"
