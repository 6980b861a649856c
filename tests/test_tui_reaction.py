"""Optional module O6 on the battle screen: armed cones drawn for both sides (readable in
ASCII, never colour alone), the keys greyed with the engine's reason or hidden without O6,
the log's words, the threat view's cones, and a move's reaction fire shown one interruption
at a time at the enemy's pace (pausable)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text

from mac_tui.combat.commands import AutoDeploy, Move, ReactionFire, StartBattle
from mac_tui.combat.events import (
    GroupFired,
    Moved,
    ReactionArmed,
    ReactionExpired,
    ReactionTriggered,
)
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.state import ReactionCone
from mac_tui.players.ai import decide
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.battle_text import log_lines, reaction_chunks
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.battle import BattleScreen
from mac_tui.tui.screens.battle.actions import ACTIONS
from mac_tui.tui.screens.battle.modes import Idle, More, Paused
from mac_tui.tui.screens.battle.moment import Moment
from mac_tui.tui.widgets.hex_picture import MARKS, NO_OVERLAY, Painter, Scene, legend
from tests.stages import copy, play
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

from .pacing import Pilot, advance, run_until
from .test_attack import at
from .test_reaction import armed, lance, raider, state_of

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def row_text(scene: Scene, row: int, ascii_glyphs: bool = True) -> str:
    lines = Painter(ascii_glyphs).row_lines(scene, row, "compact", at(0, 2), None)
    return "".join(text for text, _ in lines[0])


def test_cones_are_drawn_for_both_sides_in_their_own_marks() -> None:
    """Ghost's cone E (group 1 reaches 10) marks row 1 with `)`, the Raider's cone W with
    `&`; where both lie, the enemy's is drawn (the one to keep out of)."""
    enemy = raider(13, reaction=ReactionCone(group=1, direction=3), weapons=lance().weapons)
    b = state_of(lance(reaction=armed()), enemy, order=("ghost", "raider")).battle
    assert b is not None
    scene = Scene.of(b, "ghost", NO_OVERLAY)
    # row 1: Ghost at column 0, the Raider at 13; the Raider's group reaches 10 west (3..12),
    # Ghost's 10 east (1..10): 1 and 2 are Ghost's only
    assert scene.cones[at(1)] == "cone-player" and scene.cones[at(2)] == "cone-player"
    assert all(scene.cones[at(c)] == "cone-enemy" for c in range(3, 13))
    text = row_text(scene, 1)
    # the row number, Ghost (M, no number in its id), two hexes of its cone, ten of the
    # Raider's, the Raider
    assert text == " 2 M?.).)" + ".&" * 10 + "l?"
    assert MARKS["cone-enemy"][0] != MARKS["cone-player"][0]
    unicode = row_text(scene, 1, ascii_glyphs=False)
    assert "»" in unicode and "›" in unicode


def test_the_legend_names_the_cones_under_o6_only() -> None:
    assert "& enemy reaction cone" in legend(True, cones=True)
    assert ") your reaction cone" in legend(True, cones=True)
    assert "reaction cone" not in legend(True)


def test_the_log_words_and_the_chunks_of_an_interrupted_move() -> None:
    """The pane's lines for O6's events; a move cut where each cone fired."""
    s = state_of(lance(reaction=armed()), raider(13), order=("raider", "ghost"))
    b = s.battle
    events = [
        Moved(unit="raider", mode="move", path=(at(13), at(12)), energy=2, pullback=False),
        ReactionTriggered(unit="ghost", mover="raider", hex=at(12)),
        GroupFired(
            unit="ghost",
            group=1,
            target="raider",
            called=None,
            energy=12,
            overwatch=False,
            reaction=True,
        ),
    ]
    head, chunks = reaction_chunks(events)
    assert head == (events[0],) and chunks == ((at(12), tuple(events[1:])),)
    lines = log_lines(b, events, ascii_glyphs=True)
    assert lines[1] == "REACTION: RAIDER enters GHOST's cone at M2"
    assert lines[2] == "GHOST reaction fire from group 1 at RAIDER"
    more = log_lines(
        b,
        [
            ReactionArmed(unit="ghost", group=1, direction=0),
            ReactionExpired(unit="ghost", group=1, why="activation"),
        ],
        ascii_glyphs=True,
    )
    assert more == [
        "GHOST arms a reaction cone E with group 1",
        "GHOST's reaction cone lapses unfired (its turn came)",
    ]
    assert reaction_chunks(events[:1]) == (tuple(events[:1]), ())


def test_the_keys_are_greyed_with_the_engines_reason_and_hidden_without_o6() -> None:
    s = state_of(lance(reaction=armed()), raider(13), order=("ghost", "raider"))
    m = Moment.of(s, s.battle, auto=False, ascii=True, tutorial=False)
    row = ACTIONS.named("reaction")
    assert row.state(Idle(), m) is None  # one cone a frame
    assert row.refusal(Idle(), m) == "Reaction fire: GHOST already has a cone armed (group 1)"
    assert ACTIONS.named("sweep").state(Idle(), m) is True
    core = state_of(lance(), raider(13), order=("ghost", "raider"), ruleset=())
    mc = Moment.of(core, core.battle, auto=False, ascii=True, tutorial=False)
    assert row.state(Idle(), mc) is False and "Cone" not in ACTIONS.bar_markup(Idle(), mc)


def test_the_threat_view_lists_the_enemys_cones() -> None:
    from mac_tui.tui.glyphs import glyphs
    from mac_tui.tui.threat_view import cone_lines
    from mac_tui.tui.widgets.panel_text import Palette

    enemy = raider(13, reaction=ReactionCone(group=1, direction=3), weapons=lance().weapons)
    b = state_of(lance(), enemy, order=("ghost", "raider")).battle
    assert b is not None
    lines = [
        t.plain if isinstance(t, Text) else str(t)
        for t in cone_lines(b, 40, glyphs(True), Palette())
    ]
    assert lines[0] == "Armed enemy cones"
    assert "RAIDER W" in lines[1] and "10 hexes" in lines[1]
    assert (
        cone_lines(
            state_of(lance(), raider(13), order=("ghost",)).battle, 40, glyphs(True), Palette()
        )
        == []
    )


async def test_reaction_fire_comes_one_interruption_at_a_time_and_pauses(tmp_path: Path) -> None:
    """Ghost walks into the Raider's cone: the Move's line comes at once, the reaction lines
    only after the pace's delay, with the cursor on the hex where the cone fired; while the
    enemy's turn is paused they wait."""
    enemy = raider(13, reaction=ReactionCone(group=1, direction=3), weapons=lance().weapons)
    s = state_of(lance(), enemy, order=("ghost", "raider"))
    app = MacApp(saves=tmp_path, settings=Settings(animation="normal"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.start_session(Session(s), tmp_path / "o6.json")
        app.show_game()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        assert app.act(Move(at(3)))
        await pilot.pause()
        trig = [e for e in app.last_events if isinstance(e, ReactionTriggered)]
        assert trig == [ReactionTriggered(unit="raider", mover="ghost", hex=at(3))]
        assert len(screen.interrupts) == 1
        assert "REACTION" not in "\n".join(logged(screen))
        screen.mode = Paused()
        await advance(pilot, 5.0)
        assert len(screen.interrupts) == 1  # paused: it waits
        screen.mode = Idle()
        await advance(pilot, 1.0)
        assert not screen.interrupts
        assert any(
            line.startswith("REACTION: GHOST enters RAIDER's cone") for line in logged(screen)
        )
        assert screen.view.hexmap.cursor == at(3)


def logged(screen: BattleScreen) -> list[str]:
    from textual.widgets import RichLog

    return [strip.text for strip in screen.query_one(RichLog).lines]


# ---- snapshots (conventions as test_tui_snapshots.py) ---------------------------------------
def facing_a_cone() -> Session:
    """An O6 quick battle (seed 5, difficulty 1), both sides played by the AI until the
    player's frame is to act with an enemy cone armed; then the player arms its own."""
    session = play(Session.new(5), NewSkirmish(1, rules="O6"), AutoDeploy(), StartBattle())
    for _ in range(300):
        b = session.state.battle
        assert b is not None and b.phase == "combat"
        u = b.active_unit
        enemy_cone = any(x.reaction is not None for x in b.units if x.side == "enemy")
        if u is not None and u.side == "player" and u.ap == 2 and enemy_cone:
            legal = legal_commands(session.state)
            return play(session, next(c for c in legal if isinstance(c, ReactionFire)))
        play(session, decide(session.state).command)
    raise AssertionError("the moment never came")


@pytest.fixture(scope="module")
def cones() -> Session:
    return facing_a_cone()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_o6_both_sides_cones(snap: Snap, size: tuple[int, int], cones: Session) -> None:
    snap(size, resume(copy(cones)))  # both cones on the map, the legend, the keys, the panel


def test_o6_the_threat_view_lists_the_enemys_cone(snap: Snap, cones: Session) -> None:
    async def run_before(pilot: Pilot) -> None:
        await resume(copy(cones), "t")(pilot)
        s = pilot.app.screen
        assert isinstance(s, BattleScreen)
        await run_until(pilot, lambda: s.moment.threats().report().complete, "the threat")
        await pilot.pause()

    snap((80, 24), run_before)


async def test_at_one_order_per_key_each_interruption_waits_for_enter(tmp_path: Path) -> None:
    """At the key pace, during the enemy's turn, each interruption of a move waits for the
    step key, before the AI's next order."""
    enemy = raider(13, reaction=ReactionCone(group=1, direction=3), weapons=lance().weapons)
    s = state_of(lance(), enemy, order=("ghost", "raider"))
    app = MacApp(saves=tmp_path, settings=Settings(animation="key"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.start_session(Session(s), tmp_path / "o6.json")
        app.show_game()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        screen.mode = More()  # as after an AI order at this pace
        screen.interrupts.append((at(3), ["REACTION: test line"]))
        before = len(app.session.commands) if app.session else 0
        await advance(pilot, 5.0)
        assert screen.interrupts  # no timer shows it
        screen.action_step()
        await pilot.pause()
        assert not screen.interrupts and "REACTION: test line" in logged(screen)
        assert app.session is not None and len(app.session.commands) == before
        assert screen.view.hexmap.cursor == at(3)
