"""The hex battle in the terminal app, played by keys (and a few clicks) as a player plays it:
deployment, moving, aiming with the hit-chance breakdown, called shots, the enemy's turns,
withdrawal, auto-resolve, the quick battle from the title screen, and resuming a battle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.text import Text
from textual.geometry import Region

from mac_tui.campaign.state import Campaign
from mac_tui.combat import preview
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    ResetDeployment,
    StartBattle,
    UseEquipment,
    Vent,
)
from mac_tui.combat.events import ActivationEnded, GroupFired, Moved, RoundStarted
from mac_tui.combat.firing import check_fire
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.setup import starting_lance
from mac_tui.combat.skirmish import NewSkirmish, make_state
from mac_tui.combat.state import Battle
from mac_tui.game import Event
from mac_tui.hexgrid import Hex, distance
from mac_tui.players.ai import decide
from mac_tui.save import state_hash
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.battle_text import log_lines
from mac_tui.tui.battle_words import hex_name
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.screens.afteraction import AfterActionScreen
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.actions import ACTIONS
from mac_tui.tui.screens.battle.modes import (
    PLAYER_MODES,
    CallingShot,
    Deploying,
    EnemyTurn,
    Firing,
    Idle,
    Jumping,
    Moving,
    Over,
    Paused,
    Sprinting,
    Threats,
)
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.screens.skirmish_report import SkirmishReportScreen, frame_line
from mac_tui.tui.screens.title import TitleScreen
from mac_tui.tui.widgets.battle_panels import SidePanel
from mac_tui.tui.widgets.dialogs import AskScreen, ChooseScreen, ConfirmScreen
from mac_tui.tui.widgets.hexmap import HexMap

from .pacing import advance, run_until

Pilot = Any  # textual.pilot.Pilot[None]
SEED = "1"  # contract C1 of seed 1: difficulty 3

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))


# ---- helpers -------------------------------------------------------------------------------
async def press(pilot: Pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


def text_of(app: MacApp, selector: str) -> str:
    content = app.screen.query_one(selector).render()
    return content.plain if isinstance(content, Text) else str(content)


def battle_of(app: MacApp) -> Battle:
    assert app.session is not None and app.session.state.battle is not None
    return app.session.state.battle


def camp(app: MacApp) -> Campaign:
    assert app.session is not None and app.session.state.campaign is not None
    return app.session.state.campaign


def screen(app: MacApp) -> BattleScreen:
    assert isinstance(app.screen, BattleScreen), app.screen
    return app.screen


async def launch_first_contract(pilot: Pilot) -> BattleScreen:
    """A new company (seed 1) launches contract C1 with its two ready frames."""
    app: MacApp = pilot.app
    await press(pilot, "n", *"Iron Wolves", "enter")
    assert isinstance(app.screen, AskScreen)
    await press(pilot, "ctrl+a", "ctrl+k", *SEED, "enter")
    assert isinstance(app.screen, HubScreen)
    await press(pilot, "6", "enter", "l", "y")
    return screen(app)


def player_turn(app: MacApp) -> bool:
    s = app.screen
    return isinstance(s, BattleScreen) and isinstance(s.mode, PLAYER_MODES) and s.pending is None


def over(app: MacApp) -> bool:
    return isinstance(screen(app).mode, Over)


def live(s: BattleScreen, name: str) -> bool:
    """The action (by its row in the action table) can be given now."""
    return ACTIONS.named(name).state(s.mode, s.moment) is True


async def to_player_turn(pilot: Pilot) -> None:
    """The enemy's turn played out on the app's clock, to the player's next order."""
    app: MacApp = pilot.app
    await run_until(pilot, lambda: player_turn(app) or over(app), "the player's turn")
    await pilot.pause()


async def deploy_by_keys(pilot: Pilot) -> None:
    """Place each frame by moving the cursor inside the zone and pressing Enter, then start."""
    app: MacApp = pilot.app
    battle = battle_of(app)
    zone = battle.map.deployment_hexes("player")
    hexmap = app.screen.query_one(HexMap)
    assert hexmap.cursor in zone  # the cursor starts in the zone
    await press(pilot, "enter")  # the first frame where the cursor is
    await press(pilot, "j", "j", "enter")  # two rows down: the second frame
    battle = battle_of(app)
    assert all(u.pos in zone for u in battle.side_units("player"))
    await press(pilot, "s")
    assert battle_of(app).phase == "combat"


# ---- a whole battle by keys ----------------------------------------------------------------
async def test_a_whole_battle_by_keys_from_deployment_to_the_hub(tmp_path: Path) -> None:
    """Every order by key: fire at the nearest target when a group can (f, Enter), else sprint
    east as far as the cursor finds a reachable hex (r, l..., Enter), else end (x)."""
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await launch_first_contract(pilot)
        await deploy_by_keys(pilot)
        orders = {"fire": 0, "sprint": 0, "end": 0}
        for _ in range(300):
            await to_player_turn(pilot)
            s = screen(app)
            if over(app):
                break
            if live(s, "fire"):
                before = len(app.session.commands)  # type: ignore[union-attr]
                await press(pilot, "f")
                assert s.query_one(SidePanel).kind == "target"  # the preview, not the frame
                await press(pilot, "enter")
                assert isinstance(app.session.commands[before], FireGroup)  # type: ignore[union-attr]
                orders["fire"] += 1
                continue
            if live(s, "sprint"):
                await press(pilot, "r")
                for _ in range(8):
                    await press(pilot, "l")
                    if "Cannot" in text_of(app, "#message"):
                        await press(pilot, "h")
                        break
                if "Sprint" in text_of(app, "#message") and "Cannot" not in text_of(
                    app, "#message"
                ):
                    await press(pilot, "enter")
                    orders["sprint"] += 1
                    continue
                await press(pilot, "escape")
            await press(pilot, "x")
            orders["end"] += 1
        s = screen(app)
        assert over(app) and app.session is not None
        assert app.session.state.battle is None  # the engine settled the mission
        assert orders["fire"] > 0 and orders["sprint"] > 0
        aa = camp(app).after_action
        assert aa is not None and aa.result.upper() in text_of(app, "#message")
        await press(pilot, "enter")
        assert isinstance(app.screen, AfterActionScreen)
        await press(pilot, "space", "enter")  # pick the first salvage item, confirm
        if isinstance(app.screen, ConfirmScreen):  # picks left unused: asked first
            await press(pilot, "y")
        assert camp(app).after_action.revealed  # type: ignore[union-attr]
        await press(pilot, "enter")  # done
        assert isinstance(app.screen, HubScreen)
        assert camp(app).after_action is None and camp(app).missions_played == 1


# ---- deployment ----------------------------------------------------------------------------
async def test_deployment_by_keys_and_mouse_with_reset_and_refusals(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await launch_first_contract(pilot)
        battle = battle_of(app)
        ids = [u.id for u in battle.side_units("player")]
        assert s.mode == Deploying(ids[0])
        assert s.check_action("start", ()) is None  # greyed: nobody placed yet
        await press(pilot, "s")
        assert battle_of(app).phase == "deployment"
        # Outside the zone: refused with the engine's reason.
        hexmap = s.query_one(HexMap)
        outside = next(
            h for h in battle.map.grid.hexes() if not battle.map.is_deployment(h, "player")
        )
        hexmap.set_cursor(outside)
        await press(pilot, "enter")
        assert "Refused" in text_of(app, "#message") and "deployment zone" in text_of(
            app, "#message"
        )
        assert battle_of(app).unit(ids[0]).pos is None
        # Tab picks the second frame; a click on a zone hex, then a second click, places it.
        await press(pilot, "tab")
        assert s.mode == Deploying(ids[1])
        zone = battle.map.deployment_hexes("player")
        target = zone[3]
        x, y = hexmap.cell_of(target)
        await pilot.click(HexMap, offset=(x, y))
        await pilot.click(HexMap, offset=(x, y))
        await pilot.pause()
        assert battle_of(app).unit(ids[1]).pos == target
        assert s.mode == Deploying(ids[0])  # the next frame waiting
        # Reset takes both back; auto-deploy places the rest; start.
        await press(pilot, "r")
        assert all(u.pos is None for u in battle_of(app).side_units("player"))
        await press(pilot, "a")
        assert all(u.pos in zone for u in battle_of(app).side_units("player"))
        await press(pilot, "s")
        assert battle_of(app).phase == "combat"


# ---- moving --------------------------------------------------------------------------------
async def test_move_preview_marks_the_reach_and_refuses_out_of_range(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await launch_first_contract(pilot)
        await press(pilot, "a", "s")
        await to_player_turn(pilot)
        battle = battle_of(app)
        unit = battle.active_unit
        assert unit is not None and unit.pos is not None and unit.side == "player"
        await press(pilot, "m")
        assert s.mode == Moving()
        reach = preview.reach_hexes(battle, unit, False)
        hexmap = s.query_one(HexMap)
        # A hex in reach: the message previews the engine's plan; Enter moves there.
        goal = max(reach, key=lambda h: (distance(unit.pos, h), h.q, h.r))  # type: ignore[arg-type]
        hexmap.set_cursor(goal)
        await pilot.pause()
        plan = preview.move_preview(battle, unit, goal, False)
        assert plan.refusal is None
        assert hex_name(goal) in text_of(app, "#message")
        assert f"{plan.energy} energy: " in text_of(app, "#message")
        assert "of" in text_of(app, "#message") and "left" in text_of(app, "#message")
        # Out of reach: the refusal, before anything is sent.
        far = max(
            (h for h in battle.map.grid.hexes() if battle.occupant(h) is None),
            key=lambda h: (distance(unit.pos, h), h.q, h.r),  # type: ignore[arg-type]
        )
        assert far not in reach
        commands = len(app.session.commands)  # type: ignore[union-attr]
        hexmap.set_cursor(far)
        await pilot.pause()
        assert "Cannot" in text_of(app, "#message") and "out of move range" in text_of(
            app, "#message"
        )
        await press(pilot, "enter")
        assert len(app.session.commands) == commands  # type: ignore[union-attr]
        hexmap.set_cursor(goal)
        await press(pilot, "enter")
        assert app.session.commands[-1] == Move(goal)  # type: ignore[union-attr]
        assert battle_of(app).unit(unit.id).pos == goal
        assert s.mode == Idle()


# ---- aiming --------------------------------------------------------------------------------
def fire_ready_session(seed: int, difficulty: int) -> Session:
    """A quick battle played by the AI until a player's frame with 2 AP can fire."""
    session = Session.new(seed)
    assert session.apply(NewSkirmish(difficulty)).accepted
    for _ in range(3000):
        battle = session.state.battle
        assert battle is not None and battle.phase != "over"
        unit = battle.active_unit
        if (
            battle.phase == "combat"
            and unit is not None
            and unit.side == "player"
            and unit.ap == 2
            and any(isinstance(c, FireGroup) for c in legal_commands(session.state))
        ):
            return session
        assert session.apply(decide(session.state).command).accepted
    raise AssertionError("no shot came up")


async def open_battle(pilot: Pilot, session: Session, folder: Path) -> BattleScreen:
    """Open the game at `session`, as Continue does."""
    app: MacApp = pilot.app
    app.start_session(session, folder / "battle.json")
    app.show_game()
    await pilot.pause()
    return screen(app)


async def test_targeting_shows_every_weapons_chance_and_fires_a_called_shot(
    tmp_path: Path,
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await open_battle(pilot, fire_ready_session(5, 5), tmp_path)
        battle = battle_of(app)
        unit = battle.active_unit
        assert unit is not None
        await press(pilot, "f")
        aim = s.mode
        assert isinstance(aim, Firing) and aim.target is not None and aim.group is not None
        target = battle.unit(aim.target)
        assert s.query_one(HexMap).cursor == target.pos  # the cursor jumps to the target
        panel = s.query_one(SidePanel)
        shown = panel.text(38)
        assert target.label in shown
        for _, ws in [(i, w) for i, w in unit.live_weapons() if w.group == aim.group]:
            hc = hit_chance(battle, unit, target, ws)
            if hc is not None:
                assert f"{hc.chance}%" in shown  # each weapon's chance...
                for m in hc.modifiers:  # ...and its whole breakdown
                    assert str(abs(m.value)) in shown
        # Tab cycles to the other enemy and back.
        first = aim.target
        await press(pilot, "tab")
        assert isinstance(s.mode, Firing) and s.mode.target != first
        await press(pilot, "tab")
        assert isinstance(s.mode, Firing) and s.mode.target == first
        # A called shot: c aims, Enter asks for the location, the pick fires at it.
        await press(pilot, "escape")
        assert s.mode == Idle() and panel.kind == "frame"
        await press(pilot, "c")
        assert isinstance(s.mode, CallingShot)
        group, at = s.mode.group, s.mode.target
        assert group is not None and at is not None
        assert not isinstance(check_fire(battle, unit, group, at, "legs"), str)
        await press(pilot, "enter")
        assert isinstance(app.screen, ChooseScreen)
        options = [o for o, _ in app.screen.options]
        await press(pilot, *["down"] * options.index("legs"), "enter")
        assert app.session is not None
        assert app.session.commands[-1] == CalledShot(group, at, "legs")


async def test_groups_switch_with_digits_and_a_missing_group_is_explained(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await open_battle(pilot, fire_ready_session(5, 5), tmp_path)
        await press(pilot, "f")
        unit = battle_of(app).active_unit
        assert unit is not None
        groups = sorted({w.group for _, w in unit.live_weapons()})
        for g in groups:
            await press(pilot, str(g))
            assert isinstance(s.mode, Firing) and s.mode.group == g
            assert f"group {g}" in text_of(app, "#message")
        missing = next(g for g in (1, 2, 3, 4) if g not in groups)
        await press(pilot, str(missing))
        assert f"no working weapon in group {missing}" in text_of(app, "#message")


# ---- the enemy's turn, auto-resolve, withdrawal ---------------------------------------------
async def test_enemy_turns_play_at_the_animation_pace_and_space_skips_them(
    tmp_path: Path,
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="slow"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await launch_first_contract(pilot)
        await press(pilot, "a", "s")
        assert app.session is not None
        # Hand the turn to the enemy: the player's frames end their activations.
        for _ in range(4):
            if isinstance(s.mode, EnemyTurn):
                break
            await to_player_turn(pilot)
            await press(pilot, "x")
        assert isinstance(s.mode, EnemyTurn)
        count = len(app.session.commands)
        assert "Enemy turn" in text_of(app, "#message") and "space skips" in text_of(
            app, "#message"
        )
        await advance(pilot, 0.85)
        assert len(app.session.commands) == count  # slow: nothing before 0.9 s
        await advance(pilot, 0.05)
        assert len(app.session.commands) == count + 1  # one order at 0.9 s
        # p holds the turn; "." plays one order at a time; nothing moves on its own.
        assert isinstance(s.mode, EnemyTurn)
        await press(pilot, "p")
        assert isinstance(s.mode, Paused) and "paused" in text_of(app, "#message")
        await press(pilot, "full_stop")
        assert len(app.session.commands) == count + 2
        await advance(pilot, 10.0)  # longer than any step: nothing was waiting
        assert len(app.session.commands) == count + 2
        await press(pilot, "space")
        await to_player_turn(pilot)
        assert len(app.session.commands) >= count + 2 and player_turn(app)


async def test_i_writes_why_the_enemy_gave_its_last_order(tmp_path: Path) -> None:
    """i: the enemy's last decision in words (issue 13): before it has acted the log says so;
    after an order, what it chose, what it was worth and what the worth was made of."""
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await launch_first_contract(pilot)
        await press(pilot, "a", "s")
        written: list[str] = []
        s.view.log = lambda lines: written.extend(lines)  # type: ignore[method-assign]
        await press(pilot, "i")
        assert written == ["Why: the enemy has not given an order yet."]
        for _ in range(6):
            if s.last_enemy is not None:
                break
            await to_player_turn(pilot)
            await press(pilot, "x")
        await to_player_turn(pilot)
        assert s.last_enemy is not None
        decision, unit = s.last_enemy
        written.clear()
        await press(pilot, "i")
        label = battle_of(app).unit(unit).label
        assert written[0] == "Why:" and written[1].startswith(f"{label} (")
        assert " chose: " in written[1] and "(worth " in written[1]
        assert any("damage dealt" in line or "fire it will draw" in line for line in written)
        assert decision.why and decision.why[0].plan


async def test_withdraw_asks_first_and_auto_resolve_fights_to_the_end(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await launch_first_contract(pilot)
        await press(pilot, "a", "s")
        await to_player_turn(pilot)
        await press(pilot, "w")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")  # no: still fighting
        assert app.screen is s and battle_of(app).phase == "combat"
        await press(pilot, "a")  # auto-resolve: the AI fights for the player too
        assert s.auto
        await run_until(pilot, lambda: app.session.state.battle is None, "the end")  # type: ignore[union-attr]
        await pilot.pause()
        assert camp(app).after_action is not None and over(app)


# ---- quick battle, resume ------------------------------------------------------------------
async def test_quick_battle_from_the_title_to_its_report_and_back(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "b")
        assert isinstance(app.screen, ChooseScreen)
        labels = [label for _, label in app.screen.options]
        assert labels[0].endswith("map, retreats at 25%")  # D23: what each enemy may do
        assert labels[2].endswith("retreats at 25% or 50%, or fights to the end")
        await press(pilot, "enter")  # difficulty 1
        assert isinstance(app.screen, BattleScreen)
        assert app.session is not None and app.session.state.campaign is None
        assert battle_of(app).difficulty == 1 and "Quick battle" in text_of(app, "#battle-title")
        # D23: the deployment panel says what this enemy does (difficulty 1: retreat at 25%)
        assert battle_of(app).side_info("enemy").withdrawal == "at_25"
        assert "The enemy retreats at 25%." in text_of(app, "#lance")
        assert list(tmp_path.glob("skirmish-*.json"))  # saved from the first command
        await press(pilot, "a", "s", "a", "space")  # auto-deploy, start, auto-resolve, skip
        await run_until(pilot, lambda: over(app), "the end of the battle")
        await pilot.pause()
        result = battle_of(app).result
        assert result is not None and result.upper() in text_of(app, "#message")
        await press(pilot, "enter")
        assert isinstance(app.screen, SkirmishReportScreen)
        assert f"Quick battle: {result.upper()}" in text_of(app, "#report")
        await press(pilot, "enter")
        assert isinstance(app.screen, TitleScreen)


async def test_leaving_mid_battle_and_continuing_resumes_it_where_it_stood(
    tmp_path: Path,
) -> None:
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await launch_first_contract(pilot)
        await press(pilot, "a", "s")
        await to_player_turn(pilot)
        await press(pilot, "g")  # brace: one command into round 1
        await to_player_turn(pilot)
        assert app.session is not None
        saved = state_hash(app.session.state)
        await press(pilot, "escape")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert isinstance(app.screen, TitleScreen)
    again = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with again.run_test(size=(80, 24)) as pilot:
        await press(pilot, "c")  # continue the latest save
        s = screen(again)
        assert again.session is not None and state_hash(again.session.state) == saved
        unit = battle_of(again).active_unit
        assert unit is not None and s.query_one(SidePanel).kind == "frame"


# ---- the combat log --------------------------------------------------------------------------
def test_the_log_names_frames_by_label_and_marks_the_rounds() -> None:
    session = fire_ready_session(5, 5)
    battle = session.state.battle
    assert battle is not None
    moved = Moved(unit="P1", mode="move", path=(Hex(0, 0), Hex(1, 0)), energy=2, pullback=False)
    fired = GroupFired(unit="P2", group=1, target="E1", called=None, energy=4, overwatch=False)
    events: list[Event] = [
        RoundStarted(round=2, order=("P2", "E1")),
        moved,
        fired,
        ActivationEnded(unit="P1"),
    ]
    ghost, falcon, enemy = (battle.unit(i).label for i in ("P1", "P2", "E1"))
    lines = log_lines(battle, events, ascii_glyphs=True)
    assert log_lines(battle, events, ascii_glyphs=False)[0] == "── Round 2 ──"
    assert lines == [
        "-- Round 2 --",
        f"{ghost} moves 1 hex to {hex_name(Hex(1, 0))} (2 energy)",
        f"{falcon} fires group 1 at {enemy}",
    ]
    assert hex_name(Hex(1, 0)) == "B1"  # column B, row 1 on the map's ruler


# ---- equipment -------------------------------------------------------------------------------
async def test_equipment_by_keys_a_jump_and_countermeasures(tmp_path: Path) -> None:
    """e lists the active equipment; the Thrust Pack marks the hexes it can reach and jumps
    where Enter says; the Countermeasure Suite switches on at once (R11)."""
    lance = list(starting_lance())
    lance[0] = attrs.evolve(
        lance[0], equipment=(("thrust_pack", None), ("countermeasure_suite", None))
    )
    state = make_state(3, 1, lance=lance, player_ai=False)
    session = Session(state)
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = await open_battle(pilot, session, tmp_path)
        await press(pilot, "a", "s")
        for _ in range(4):  # to the jumping frame's activation
            await to_player_turn(pilot)
            unit = battle_of(app).active_unit
            assert unit is not None
            if unit.id == "P1":
                break
            await press(pilot, "x")
        assert unit.id == "P1" and live(s, "equipment")
        await press(pilot, "e")
        assert isinstance(app.screen, ChooseScreen)
        items = [value for value, _ in app.screen.options]
        assert items == ["countermeasure_suite", "thrust_pack"]
        await press(pilot, "enter")  # the Countermeasure Suite: on at once
        assert app.session.commands[-1] == UseEquipment("countermeasure_suite")  # type: ignore[union-attr]
        assert battle_of(app).unit("P1").ecm_active
        assert battle_of(app).active_unit == battle_of(app).unit("P1")  # 1 AP left
        await press(pilot, "e")  # only the Thrust Pack is left to use: straight to aiming it
        assert s.mode == Jumping("thrust_pack")
        legal = {
            c.hex
            for c in legal_commands(app.session.state)  # type: ignore[union-attr]
            if isinstance(c, UseEquipment) and c.equipment == "thrust_pack"
        }
        assert s.mode.reach(s.moment) == legal and legal
        assert "Jump" in text_of(app, "#message")
        goal = sorted(legal)[0]
        s.query_one(HexMap).set_cursor(goal)
        before = len(app.session.commands)  # type: ignore[union-attr]
        await press(pilot, "enter")
        assert app.session.commands[before] == UseEquipment("thrust_pack", None, goal)  # type: ignore[union-attr]
        assert battle_of(app).unit("P1").pos == goal


def test_the_quick_battle_report_says_who_withdrew() -> None:
    battle = battle_of_session(fire_ready_session(5, 5))
    won = attrs.evolve(battle, phase="over", result="victory")  # the enemy withdrew (R14)
    enemy, mine = won.side_units("enemy")[0], won.side_units("player")[0]
    assert frame_line(won, enemy).rstrip().endswith("withdrew")
    assert "withdrew" not in frame_line(won, mine)
    left = attrs.evolve(battle, phase="over", result="withdrawal")  # the player withdrew
    assert frame_line(left, mine).rstrip().endswith("withdrew")
    assert "withdrew" not in frame_line(left, enemy)


def battle_of_session(session: Session) -> Battle:
    assert session.state.battle is not None
    return session.state.battle


# ---- the action bar, by mouse ------------------------------------------------------------------
def bar_items(s: BattleScreen) -> dict[str, tuple[int, int, bool]]:
    """Each item of the action bar as drawn: label -> (x, y, clickable), from the cells (a
    clickable item carries Textual's @click meta on its cells)."""
    bar = s.query_one("#actions")
    items: dict[str, tuple[int, int, bool]] = {}
    for y, strip in enumerate(bar.render_lines(Region(0, 0, bar.size.width, bar.size.height))):
        x = 0
        for segment in strip:
            text, meta = segment.text, (segment.style.meta if segment.style else {})
            for row in ACTIONS.rows:  # " Move" (after its key), or " m  Move" dimmed
                words = text.strip()
                if (
                    row.label
                    and row.label not in items
                    and (words == row.label or words.endswith(f"  {row.label}"))
                ):
                    items[row.label] = (x + text.rindex(row.label), y, "@click" in meta)
            x += len(text)
    return items


async def click_bar(pilot: Pilot, label: str) -> bool:
    """Click the bar's item `label`; True when it was drawn clickable."""
    x, y, clickable = bar_items(screen(pilot.app))[label]
    await pilot.click("#actions", offset=(x, y))
    await pilot.pause()
    return clickable


def equipped_session() -> Session:
    """A quick battle of a lance whose first frame carries a jump pack and countermeasures,
    played by the AI up to that frame's activation (2 AP, a shot to take)."""
    lance = list(starting_lance())
    lance[0] = attrs.evolve(
        lance[0], equipment=(("thrust_pack", None), ("countermeasure_suite", None))
    )
    session = Session(make_state(3, 1, lance=lance, player_ai=False))
    assert session.apply(AutoDeploy()).accepted and session.apply(StartBattle()).accepted
    for _ in range(400):
        unit = session.state.battle.active_unit  # type: ignore[union-attr]
        if unit is not None and unit.id == "P1" and unit.ap == 2:
            return session
        assert session.apply(decide(session.state).command).accepted
    raise AssertionError("P1 never came to act")


def copy_of(session: Session) -> Session:
    return Session(session.state, session.commands, session.checkpoints)


async def test_every_item_of_the_action_bar_does_what_its_key_does_when_clicked(
    tmp_path: Path,
) -> None:
    """Deployment's bar, then the battle's, item by item, each clicked on a fresh copy of the
    battle: the live ones act as their keys do; a dimmed one does nothing."""
    app = MacApp(saves=tmp_path, settings=Settings(animation="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        # -- deployment: nobody placed yet, so Reset and Start are dimmed
        placing = Session.new(5)
        assert placing.apply(NewSkirmish(5)).accepted
        s = await open_battle(pilot, placing, tmp_path)
        ids = [u.id for u in battle_of(app).side_units("player")]
        items = bar_items(s)
        assert list(items) == ["Next frame", "Place", "Reset", "Auto-deploy", "Start"]
        assert not items["Start"][2] and not items["Reset"][2]
        assert not await click_bar(pilot, "Start")
        assert battle_of(app).phase == "deployment" and len(placing.commands) == 1
        assert await click_bar(pilot, "Next frame")
        assert s.mode == Deploying(ids[1])
        cursor = s.query_one(HexMap).cursor
        assert await click_bar(pilot, "Place")
        assert placing.commands[-1] == Deploy(ids[1], cursor)
        assert battle_of(app).unit(ids[1]).pos == cursor
        assert await click_bar(pilot, "Reset")
        assert placing.commands[-1] == ResetDeployment()
        assert await click_bar(pilot, "Auto-deploy")
        assert placing.commands[-1] == AutoDeploy()
        assert await click_bar(pilot, "Start")
        assert placing.commands[-1] == StartBattle() and battle_of(app).phase == "combat"

        # -- the battle: each item on a fresh copy of P1's activation
        base = equipped_session()
        battle = base.state.battle
        assert battle is not None
        stressed = battle.with_unit(attrs.evolve(battle.unit("P1"), stress=4))  # to vent
        hot = Session(attrs.evolve(base.state, battle=stressed), base.commands, base.checkpoints)
        assert any(isinstance(c, Vent) for c in legal_commands(hot.state))

        def last(session: Session) -> Any:
            return session.commands[-1]

        checks: dict[str, tuple[Session, Any]] = {
            "Move": (base, lambda s, _: s.mode == Moving()),
            "Sprint": (base, lambda s, _: s.mode == Sprinting()),
            "Fire": (base, lambda s, _: isinstance(s.mode, Firing) and s.mode.target),
            "Called": (base, lambda s, _: isinstance(s.mode, CallingShot) and s.mode.target),
            "Brace": (base, lambda _, ses: last(ses) == Brace()),
            "Overwatch": (
                base,
                lambda _, ses: (
                    isinstance(app.screen, ChooseScreen) or isinstance(last(ses), Overwatch)
                ),
            ),
            "Vent": (hot, lambda _, ses: last(ses) == Vent()),
            "Equip": (base, lambda _, __: isinstance(app.screen, ChooseScreen)),
            "End": (base, lambda _, ses: last(ses) == EndActivation()),
            "Withdraw": (base, lambda _, __: isinstance(app.screen, ConfirmScreen)),
            "Threat": (base, lambda s, _: isinstance(s.mode, Threats)),
            "Auto": (base, lambda s, _: s.auto),
        }
        for label, (start, effect) in checks.items():
            while not isinstance(app.screen, BattleScreen):  # a dialog left by the last one
                app.pop_screen()
                await pilot.pause()
            session = copy_of(start)
            s = await open_battle(pilot, session, tmp_path)
            assert list(bar_items(s)) == list(checks), label
            assert await click_bar(pilot, label), f"{label} is not clickable"
            assert effect(s, session), f"clicking {label} did nothing"

        # -- a dimmed item: Vent before any energy was used
        session = copy_of(base)
        while not isinstance(app.screen, BattleScreen):
            app.pop_screen()
            await pilot.pause()
        s = await open_battle(pilot, session, tmp_path)
        assert not await click_bar(pilot, "Vent")
        assert len(session.commands) == len(base.commands) and s.mode == Idle()


async def test_no_battle_key_acts_before_the_screen_is_mounted(tmp_path: Path) -> None:
    """A key that comes while the battle screen is being put together (a player typing ahead
    at start-up) does nothing, rather than reaching widgets that are not there yet (Auto
    once crashed writing to the log); once mounted, the keys act."""
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_session(copy_of(equipped_session()), tmp_path / "early.json")
        app.show_game()
        screen = app.screen
        assert isinstance(screen, BattleScreen) and not screen.ready
        assert screen.check_action("auto", ()) is False
        await pilot.pause()
        assert screen.ready and screen.check_action("auto", ()) is True


def test_no_key_is_a_priority_binding_of_both_the_map_and_the_battle_screen() -> None:
    """Of two priority bindings of one key, `Screen.active_bindings` keeps the focused map's:
    a screen row shown in the footer (Enter: Next order, Report) would vanish from it."""
    from textual.binding import Binding

    from mac_tui.tui.widgets.hexmap import HexMap

    def keys(binding: Binding) -> set[str]:
        return {key.strip() for key in binding.key.split(",")}

    map_first = set().union(
        *(keys(b) for b in HexMap.BINDINGS if isinstance(b, Binding) and b.priority)
    )
    screen_first = set().union(
        *(keys(b) for b in BattleScreen.BINDINGS if isinstance(b, Binding) and b.priority)
    )
    assert "enter" in screen_first and "right" in map_first  # the test sees both tables
    assert not map_first & screen_first
