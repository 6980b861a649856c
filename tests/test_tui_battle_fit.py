"""Nothing cut at 80x24 in the battle screen: each of its widest realistic states, drawn by
the game itself, checked with tests/cuts.py (the shared definition of a cut: clipped without a
scrollbar, a line wider than its box, more lines than a box holds, a `Glyphs.fit` that cut).

The widest states: a lance of four of the heaviest frames with their stock loadouts (the
Colossus carries eleven weapons) on the largest map against four enemy Assaults, in
deployment, in an activation with the cursor on a frame carrying every status flag, aiming a
group and a called shot, in the threat view, the enemy's turn one order per key, the end, and
the history page; in both glyph forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from mac_tui.catalog import catalog
from mac_tui.combat.commands import AutoDeploy, FireGroup, StartBattle
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.setup import MountSpec
from mac_tui.combat.skirmish import lance_from_chassis, make_state
from mac_tui.combat.state import LOC_INDEX, Unit
from mac_tui.players.ai import decide
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.modes import Idle, More, Over, Threats
from mac_tui.tui.screens.skirmish_report import SkirmishReportScreen
from mac_tui.tui.widgets.hexmap import HexMap
from mac_tui.tui.widgets.history import HistoryScreen

from .cuts import cuts, record_fits, screen_text
from .pacing import advance, run_until

Pilot = Any  # textual.pilot.Pilot[None]
HEAVIEST = ("CL-100", "JG-95", "TN-85", "SN-75")

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))


def heavy_lance() -> list[Any]:
    """The four heaviest chassis, each with its stock loadout of the most weapons."""
    cat = catalog()
    lance = []
    for spec in lance_from_chassis(HEAVIEST):
        most = max(cat.stock_loadouts(spec.chassis), key=lambda lo: len(lo.weapons))
        weapons = tuple(
            MountSpec(weapon=e.weapon, mount=e.mount, group=e.group) for e in most.weapons
        )
        lance.append(attrs.evolve(spec, weapons=weapons))
    return lance


def heavy_session() -> Session:
    return Session(make_state(7, 5, lance=heavy_lance(), player_ai=False))


def in_combat(until: Any) -> Session:
    session = heavy_session()
    assert session.apply(AutoDeploy()).accepted and session.apply(StartBattle()).accepted
    for _ in range(3000):
        battle = session.state.battle
        assert battle is not None and battle.phase == "combat", "the moment never came"
        if until(session):
            return session
        assert session.apply(decide(session.state).command).accepted
    raise AssertionError("the moment never came")


def colossus_fires(session: Session) -> bool:
    battle = session.state.battle
    unit = battle.active_unit if battle is not None else None
    return (
        unit is not None
        and unit.chassis == "CL-100"
        and unit.ap == 2
        and any(isinstance(c, FireGroup) for c in legal_commands(session.state))
    )


def every_flag(unit: Unit) -> Unit:
    """A frame late in a bad battle: braced, on overwatch, hit everywhere, overloaded."""
    actuators = list(unit.actuator_hits)
    for loc in ("left_arm", "right_arm", "legs"):
        actuators[LOC_INDEX[loc]] = 2
    weapons = list(unit.weapons)
    weapons[0] = attrs.evolve(weapons[0], destroyed=True)
    return attrs.evolve(
        unit,
        braced=True,
        overwatch_group=unit.weapons[-1].group,
        gyro_hit=True,
        sensor_hit=True,
        cockpit_hit=True,
        reactor_hits=2,
        actuator_hits=tuple(actuators),
        ecm_active=True,
        barrier=20,
        stress=30,
        energy_used=45,
        weapons=tuple(weapons),
    )


async def open_game(pilot: Pilot, session: Session, folder: Path) -> BattleScreen:
    app: MacApp = pilot.app
    app.start_session(session, folder / "battle.json")
    app.show_game()
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(app.screen, BattleScreen)
    return app.screen


def assert_uncut(app: MacApp, fitted: Sequence[str], what: str) -> None:
    found = cuts(app)
    assert not found and not fitted, (
        f"{what}:\n" + "\n".join([*found, *fitted]) + "\n" + (screen_text(app))
    )


GLYPHS = pytest.mark.parametrize("glyphs", ["unicode", "ascii"])


@GLYPHS
async def test_deployment_of_four_heavy_frames_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, glyphs: str
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off", glyphs=glyphs))  # type: ignore[arg-type]
    with record_fits(monkeypatch) as fitted:
        async with app.run_test(size=(80, 24)) as pilot:
            await open_game(pilot, heavy_session(), tmp_path)
            assert_uncut(app, fitted, "deployment")
            await pilot.press("s")  # refused: the reason on the message line
            await pilot.pause()
            assert_uncut(app, fitted, "deployment, start refused")


@GLYPHS
async def test_an_activation_of_the_heaviest_frame_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, glyphs: str
) -> None:
    session = in_combat(colossus_fires)
    battle = session.state.battle
    assert battle is not None
    worn = next(u for u in battle.side_units("enemy") if u.active)
    session.state = attrs.evolve(session.state, battle=battle.with_unit(every_flag(worn)))
    app = MacApp(saves=tmp_path, settings=Settings(animation="off", glyphs=glyphs))  # type: ignore[arg-type]
    with record_fits(monkeypatch) as fitted:
        async with app.run_test(size=(80, 24)) as pilot:
            s = await open_game(pilot, session, tmp_path)
            assert_uncut(app, fitted, "the Colossus' activation")
            hexmap = s.query_one(HexMap)
            assert worn.pos is not None
            hexmap.set_cursor(worn.pos)  # the frame with every flag, in the panel
            await pilot.pause()
            assert_uncut(app, fitted, "a frame with every flag")
            for keys, what in (
                (("f",), "aiming"),
                (("tab",), "the next target"),
                (("escape", "c"), "a called shot"),
                (("escape", "m", "l", "l"), "a move"),
                (("escape", "o"), "overwatch refused or asked"),
            ):
                await pilot.press(*keys)
                await pilot.pause()
                if isinstance(app.screen, BattleScreen):
                    assert_uncut(app, fitted, what)
                else:
                    assert_uncut(app, fitted, f"{what}: the dialog")
                    app.pop_screen()
                    await pilot.pause()
            if not isinstance(s.mode, Idle):
                await pilot.press("escape")
            await pilot.press("t")
            await run_until(pilot, lambda: s.moment.threats().report().complete, "the threat")
            await pilot.pause()
            assert isinstance(s.mode, Threats)
            assert_uncut(app, fitted, "the threat view")
            await pilot.press("escape", "L")
            await pilot.pause()
            assert isinstance(app.screen, HistoryScreen)
            assert_uncut(app, fitted, "the history")


async def test_the_enemys_turn_one_order_per_key_and_the_end_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = in_combat(colossus_fires)
    app = MacApp(saves=tmp_path, settings=Settings(animation="key"))
    with record_fits(monkeypatch) as fitted:
        async with app.run_test(size=(80, 24)) as pilot:
            s = await open_game(pilot, session, tmp_path)
            for _ in range(8):  # the player's frames end their activations until the enemy's
                if isinstance(s.mode, More | Over):
                    break
                if isinstance(s.mode, Idle):
                    await pilot.press("x")
                await advance(pilot, 0.05)
            assert isinstance(s.mode, More)
            await pilot.pause()
            assert_uncut(app, fitted, "the enemy's turn, --more--")
            await pilot.press("p")  # refused here: the reason
            await pilot.pause()
            assert_uncut(app, fitted, "a key refused in the enemy's turn")
            await pilot.press("a", "space")  # auto-resolve to the end
            await run_until(pilot, lambda: isinstance(s.mode, Over), "the end", 20000)
            await pilot.pause()
            assert_uncut(app, fitted, "the end")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, SkirmishReportScreen)
            assert_uncut(app, fitted, "the quick battle's report")
            report = str(app.screen.query_one("#report").render())
            assert "seed 7" in report
