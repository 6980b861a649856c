"""Snapshots at 80x24 of the battle screen's widest states added by issue 14: the threat view,
a called shot's forecast and its choice of location, the enemy's turn waiting for a key, the
whole battle's history, and the heaviest frame in the panel (its lines past the screen
scroll). The other battle snapshots are in test_tui_snapshots.py (deployment, a move, aiming,
the enemy's turn, the end, the report); the same conventions hold (see there)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.modes import Idle, More
from tests.pacing import advance, run_until
from tests.stages import copy
from tests.test_tui_battle_fit import colossus_fires, in_combat
from tests.test_tui_snapshots import SAVE, Fights, RunBefore, Snap, fights, own_folder, snap

__all__ = ["fights", "own_folder", "snap"]  # the fixtures, shared

Pilot = Any  # textual.pilot.Pilot[None]
SIZE = (80, 24)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def resume(session: Session, *keys: str) -> RunBefore:
    async def run_before(pilot: Pilot) -> None:
        app: MacApp = pilot.app
        app.start_session(copy(session), SAVE)
        app.show_game()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()

    return run_before


def test_battle_threat_view(snap: Snap, fights: Fights) -> None:
    async def run_before(pilot: Pilot) -> None:
        await resume(fights.shot, "t")(pilot)
        s = pilot.app.screen
        assert isinstance(s, BattleScreen)
        await run_until(pilot, lambda: s.moment.threats().report().complete, "the threat")
        await pilot.pause()

    snap(SIZE, run_before)


def test_battle_called_shot(snap: Snap, fights: Fights) -> None:
    snap(SIZE, resume(fights.shot, "c"))  # each location's chance to go, and the frame's


def test_battle_called_shot_location(snap: Snap, fights: Fights) -> None:
    snap(SIZE, resume(fights.shot, "c", "enter"))  # the choice, each with its forecast


def test_battle_history(snap: Snap, fights: Fights) -> None:
    snap(SIZE, resume(fights.shot, "L"))  # every roll with its modifiers, the newest last


def test_battle_enemy_order_waits_for_a_key(
    snap: Snap, fights: Fights, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        sys.modules["tests.test_tui_snapshots"],
        "new_app",
        lambda: MacApp(saves=Path("saves"), settings=Settings(animation="key")),
    )

    async def run_before(pilot: Pilot) -> None:
        await resume(fights.enemy)(pilot)
        s = pilot.app.screen
        assert isinstance(s, BattleScreen)
        await advance(pilot, 0.05)
        assert isinstance(s.mode, More)

    snap(SIZE, run_before)


def test_battle_heaviest_frame(snap: Snap) -> None:
    session = in_combat(colossus_fires)

    async def run_before(pilot: Pilot) -> None:
        await resume(session)(pilot)
        s = pilot.app.screen
        assert isinstance(s, BattleScreen) and isinstance(s.mode, Idle)

    snap(SIZE, run_before)
