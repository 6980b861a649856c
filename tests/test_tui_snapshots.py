"""Snapshots of every screen of the terminal app at 80x24 and 120x40 (pytest-textual-snapshot).

Write or refresh them with `pytest tests/test_tui_snapshots.py --snapshot-update`, then look at
the SVGs in tests/__snapshots__/ (or the HTML report a failing run writes) before committing.

Deterministic by construction: one fixed seed, the saves and the config file in the test's own
folder under relative names (so the paths the debrief and the settings screen print are the same
on every machine), the offered random seed replaced, the input cursor's blink switched off, and
battles settled by the AI before the screenshot is taken. The game states behind the screens are
played once per module through the engine (`Session.apply`) and handed to each app fresh.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from textual.widgets import Input

from mac_tui import ruleset
from mac_tui.campaign.commands import NewCampaign
from mac_tui.catalog import catalog
from mac_tui.combat.commands import FireGroup
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.state import Battle
from mac_tui.players.ai_v1 import decide  # pinned: the stages and snapshots are made with it
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.screens import title
from tests.pacing import run_until
from tests.stages import Stages, build_stages, copy, play

Pilot = Any  # textual.pilot.Pilot[None]
RunBefore = Callable[[Pilot], Awaitable[None]]
Compare = Callable[..., bool]

SAVE = Path("saves") / "iron-1.json"  # relative: the test runs in its own folder
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
sized = pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
SECTIONS = {
    "1-roster": "1",
    "2-pilots": "2",
    "3-market": "3",
    "4-refit": "4",
    "5-galaxy": "5",
    "6-contracts": "6",
    "7-finances": "7",
}

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---- the game states, played once ----------------------------------------------------------
@pytest.fixture(scope="module")
def stages() -> Stages:
    return build_stages()


SHOWN_VERSION = "0.1.0"  # the title's version line in the pictures: a release redraws none


@pytest.fixture(autouse=True)
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in the test's folder: saves in ./saves, the (absent) config file ./config.toml;
    the title screen shows a fixed version."""
    monkeypatch.setattr(title, "__version__", SHOWN_VERSION)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CONFIG_ENV, "config.toml")
    (tmp_path / "saves").mkdir()


def new_app() -> MacApp:
    return MacApp(saves=Path("saves"), settings=Settings())


# ---- getting there -------------------------------------------------------------------------
def resume(session: Session, *keys: str) -> RunBefore:
    """Open the game at `session` (as Continue would), then press `keys`."""

    async def run_before(pilot: Pilot) -> None:
        app: MacApp = pilot.app
        app.start_session(copy(session), SAVE)
        app.show_game()
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        await app.workers.wait_for_complete()  # the contracts' threat assessments
        await pilot.pause()

    return run_before


async def still_cursor(pilot: Pilot) -> None:
    """The input cursor blinks on a timer: switch that off for a stable picture."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


Snap = Callable[..., None]


@pytest.fixture
def snap(snap_compare: Compare, monkeypatch: pytest.MonkeyPatch) -> Snap:
    """`snap(size, run_before=None, press=())`: the screen must match its stored SVG."""

    def take(
        size: tuple[int, int], run_before: RunBefore | None = None, press: Sequence[str] = ()
    ) -> None:
        # Rich measures text (the combat log's wrapping) against the terminal it finds, which
        # under pytest is none (80 columns) or the developer's: pin it to the picture's size.
        monkeypatch.setenv("COLUMNS", str(size[0]))
        monkeypatch.setenv("LINES", str(size[1]))
        monkeypatch.delenv("NO_COLOR", raising=False)
        app = new_app()
        assert snap_compare(app, terminal_size=size, press=press, run_before=run_before)

    return take


# ---- title, prompts, reference screens -----------------------------------------------------
@sized
def test_title(snap: Snap, size: tuple[int, int]) -> None:
    snap(size)


@sized
def test_new_campaign_name_prompt(snap: Snap, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("n")
        await still_cursor(pilot)

    snap(size, run_before)


@sized
def test_new_campaign_seed_prompt(
    snap: Snap, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(title, "random_seed", lambda: 123456789)  # the offered seed is random

    async def run_before(pilot: Pilot) -> None:
        await pilot.press("n", *"Iron", "enter")
        await still_cursor(pilot)

    snap(size, run_before)


@sized
def test_optional_rules_choice(
    snap: Snap, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick battle's optional rules: O2 on, O1 highlighted and refused beside it."""
    monkeypatch.setattr(ruleset, "PLAYABLE", frozenset({"O2", "O3"}))  # as O2 and O3 land
    snap(size, press=["b", "tab", "enter", "space", "up"])


@sized
def test_tutorial(snap: Snap, size: tuple[int, int]) -> None:
    snap(size, press=["t"])  # deployment: the first step's hint


@sized
def test_how_to_play(snap: Snap, size: tuple[int, int]) -> None:
    snap(size, press=["p", "right_square_bracket", "right_square_bracket"])  # Hitting


@sized
def test_rules_reference(snap: Snap, size: tuple[int, int]) -> None:
    snap(size, press=["r"])


@sized
def test_settings(snap: Snap, size: tuple[int, int]) -> None:
    snap(size, press=["s"])


@sized
def test_load(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    copy(stages.hub).save(SAVE)
    older = Path("saves/old-guard-2.json")
    play(Session.new(2), NewCampaign("Old Guard")).save(older)
    os.utime(older, (1_000_000_000, 1_000_000_000))  # the list is newest first
    os.utime(SAVE, (1_000_000_100, 1_000_000_100))
    snap(size, press=["l"])


def test_too_small(snap: Snap) -> None:
    snap((70, 20))


# ---- the hub -------------------------------------------------------------------------------
@sized
@pytest.mark.parametrize("key", list(SECTIONS.values()), ids=list(SECTIONS))
def test_hub_section(snap: Snap, size: tuple[int, int], key: str, stages: Stages) -> None:
    snap(size, resume(stages.hub, key))


@sized
def test_pilot_sheet(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    snap(size, resume(stages.hub, "2", "s"))  # back from the first contract: one mission


@sized
def test_day_report(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    snap(size, resume(stages.hub, "d"))


@sized
def test_help(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    snap(size, resume(stages.hub, "question_mark"))


# ---- a mission -----------------------------------------------------------------------------
@sized
def test_contract_launch_panel(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    snap(size, resume(stages.fresh, "6", "enter"))


@sized
def test_battle_over(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    """The campaign battle fought out by auto-resolve: the last picture and its result."""

    async def run_before(pilot: Pilot) -> None:
        # auto-deploy, start, auto-resolve, skip: the AI fights it out
        await resume(stages.battle, "a", "s", "a", "space")(pilot)
        app: MacApp = pilot.app
        assert app.session is not None
        await run_until(pilot, lambda: app.session.state.battle is None, "the end")  # type: ignore[union-attr]
        await pilot.pause()

    snap(size, run_before)


@sized
def test_after_action(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    snap(size, resume(stages.after_action))


@sized
def test_after_action_salvage_revealed(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    snap(size, resume(stages.after_action, "space", "down", "space", "enter"))


@sized
def test_debrief(snap: Snap, size: tuple[int, int], stages: Stages) -> None:
    """The run ends the R28 way: a day passes with credits below zero for too long."""
    session = copy(stages.hub)
    campaign = session.state.campaign
    assert campaign is not None
    limit = catalog().economy.failure.negative_credit_days
    broke = attrs.evolve(campaign, credits=-5_000, negative_days=limit - 1)
    session.state = attrs.evolve(session.state, campaign=broke)

    async def run_before(pilot: Pilot) -> None:
        await resume(session, "d", "enter")(pilot)  # the day report, closed: the debrief
        c = pilot.app.session.state.campaign
        assert c is not None and c.ended

    snap(size, run_before)


# ---- the hex battle (a quick battle on the largest map) ------------------------------------
SKIRMISH_SEED = 5


@attrs.frozen
class Fights:
    deployment: Session  # a new quick battle at difficulty 5 (the 20x14 map)
    turn: Session  # the player's first activation
    shot: Session  # a player's activation with a shot to take
    enemy: Session  # an enemy frame about to act
    over: Session  # a difficulty-1 quick battle fought to its end


def play_until(session: Session, done: Callable[[Battle, Session], bool]) -> Session:
    for _ in range(3000):
        battle = session.state.battle
        assert battle is not None and battle.phase != "over"
        if battle.phase == "combat" and done(battle, session):
            return session
        play(session, decide(session.state).command)
    raise AssertionError("the moment never came")


def full_ap(battle: Battle, side: str) -> bool:
    unit = battle.active_unit
    return unit is not None and unit.side == side and unit.ap == 2


@pytest.fixture(scope="module")
def fights() -> Fights:
    deployment = play(Session.new(SKIRMISH_SEED), NewSkirmish(5))
    turn = play_until(copy(deployment), lambda b, _: full_ap(b, "player"))
    shot = play_until(
        copy(turn),
        lambda b, s: (
            full_ap(b, "player") and any(isinstance(c, FireGroup) for c in legal_commands(s.state))
        ),
    )
    enemy = play_until(copy(turn), lambda b, _: full_ap(b, "enemy"))
    over = play(Session.new(SKIRMISH_SEED), NewSkirmish(1))
    while over.state.battle is not None and over.state.battle.phase != "over":
        play(over, decide(over.state).command)
    return Fights(deployment, turn, shot, enemy, over)


@sized
def test_battle_deployment(snap: Snap, size: tuple[int, int], fights: Fights) -> None:
    snap(size, resume(fights.deployment, "enter", "j", "j"))  # one placed, the next waiting


@sized
def test_battle_move_preview(snap: Snap, size: tuple[int, int], fights: Fights) -> None:
    snap(size, resume(fights.turn, "m", "l", "l"))  # the reach, and the path two hexes east


@sized
def test_battle_targeting(snap: Snap, size: tuple[int, int], fights: Fights) -> None:
    snap(size, resume(fights.shot, "f"))  # the LOS line, each weapon's chance and breakdown


@sized
def test_battle_enemy_turn(
    snap: Snap, size: tuple[int, int], fights: Fights, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The enemy's turn held (p) after one order played (.): the picture stays still (the
    app's clock is a manual one: nothing plays on its own)."""
    monkeypatch.setattr(
        sys.modules[__name__],
        "new_app",
        lambda: MacApp(saves=Path("saves"), settings=Settings(animation="slow")),
    )
    snap(size, resume(fights.enemy, "p", "full_stop"))


@sized
def test_skirmish_report(snap: Snap, size: tuple[int, int], fights: Fights) -> None:
    snap(size, resume(fights.over, "enter"))
