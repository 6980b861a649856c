"""Optional module O9 on the screens: the keys (F formation, C a pilot's abilities, U use one,
P a Breach Shot while aiming) hidden in a core battle and greyed with the engine's reason in
an O9 one; the frame panel's Formation and Command lines (the enemy's abilities hidden until
used); the log never shows the enemy's assignments; the pilots screen's line."""

from __future__ import annotations

import attrs
import pytest

from mac_tui.combat import formations
from mac_tui.combat.commands import (
    AssignAbilities,
    AutoDeploy,
    FireGroup,
    SetFormation,
    StartBattle,
)
from mac_tui.combat.skirmish import NewSkirmish, make_state
from mac_tui.core import Accepted
from mac_tui.game import step
from mac_tui.model import GameState
from mac_tui.session import Session
from mac_tui.tui.battle_text import log_lines
from mac_tui.tui.glyphs import glyphs
from mac_tui.tui.screens.battle import commanders
from mac_tui.tui.screens.battle.actions import ACTIONS
from mac_tui.tui.screens.battle.modes import Ask, Deploying, Firing, Idle
from mac_tui.tui.screens.battle.moment import Moment
from mac_tui.tui.screens.pilots import command_text
from mac_tui.tui.widgets.frame_lines import frame_lines
from mac_tui.tui.widgets.panel_text import Palette
from tests.stages import copy, play
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _state(rules: tuple[str, ...] = ("O9",)) -> GameState:
    return make_state(4, 3, landscape="industrial", ruleset=rules, player_ai=False)


def _go(state: GameState, *commands: object) -> GameState:
    for c in commands:
        out = step(state, c)  # type: ignore[arg-type]
        assert isinstance(out, Accepted), (c, out)
        state = out.state
    return state


def _moment(state: GameState) -> Moment:
    assert state.battle is not None
    return Moment.of(state, state.battle, auto=False)


def test_o9_keys_are_hidden_in_a_core_battle() -> None:
    m = _moment(_state(()))
    mode = Deploying("P1")
    for name in ("formation", "command"):
        assert ACTIONS.named(name).state(mode, m) is False


def test_deployment_keys_live_and_their_dialogs() -> None:
    state = _state()
    m = _moment(state)
    mode = Deploying("P1")
    assert ACTIONS.named("formation").state(mode, m) is True
    assert ACTIONS.named("command").state(mode, m) is True
    ask = commanders.formation(m)
    assert isinstance(ask, Ask)
    assert [label for _, label in ask.options][:3] == [
        "Defensive Sphere",
        "Attack Line",
        "Dispersed",
    ]
    assert ask.then("screen:P2") == SetFormation("screen", ("P2",))
    ask = commanders.command(mode, m)
    assert isinstance(ask, Ask)
    labels = [label for _, label in ask.options]
    assert "Battle Plan" in labels and "none" not in labels  # none is what Ghost holds now
    assert ask.then("battle_plan") == AssignAbilities("P1", ("battle_plan",))


def test_greyed_keys_say_the_engines_reason() -> None:
    state = _go(_state(), AutoDeploy(), StartBattle())
    m = _moment(state)
    mode = Idle()
    row = ACTIONS.named("ability")
    assert row.state(mode, m) is None
    assert "holds no ability" in row.refusal(mode, m)
    aim = Firing(target=None, group=None)
    assert ACTIONS.named("breach").state(aim, m) is None
    assert "does not hold Breach Shot" in ACTIONS.named("breach").refusal(aim, m)


def test_breach_declared_while_aiming_goes_with_the_shot() -> None:
    state = _go(_state(), AssignAbilities("P1", ("breach_shot",)), AutoDeploy(), StartBattle())
    aim = Firing(target="E1", group=1, breach=True)
    m = _moment(state)
    assert aim.shot(m, 1, "E1") == FireGroup(1, "E1", breach=True)
    assert Firing(target="E1", group=1).shot(m, 1, "E1") == FireGroup(1, "E1")
    assert "with a Breach Shot" in str(aim.prompt(m, state.battle.units[0].pos))  # type: ignore


def test_frame_panel_shows_formation_and_hides_enemy_abilities() -> None:
    state = _go(
        _state(),
        AssignAbilities("P1", ("battle_plan",)),
        SetFormation("line"),
        AutoDeploy(),
        StartBattle(),
    )
    b = state.battle
    assert b is not None
    g = glyphs(True)
    mine = [t.plain for t in frame_lines(b.unit("P1"), 38, g, Palette(), b.phase, b)]
    assert any(line.startswith("Formation: Attack Line") for line in mine)
    assert any("Battle Plan [U]" in line for line in mine)  # its key in an activation
    enemy = next(u for u in b.units if u.side == "enemy")
    theirs = [t.plain for t in frame_lines(enemy, 38, g, Palette(), b.phase, b)]
    assert any("hidden until used" in line for line in theirs)
    for a in enemy.abilities:  # whatever the enemy holds is never named
        assert not any(formations.ability_name(a) in line for line in theirs)
    # Used, an ability is shown to both sides.
    used = attrs.evolve(enemy, abilities=(), abilities_used=("battle_plan",))
    shown = [t.plain for t in frame_lines(used, 38, g, Palette(), b.phase, b)]
    assert any("Battle Plan (used)" in line for line in shown)


def test_the_log_never_shows_the_enemys_assignments() -> None:
    before = _state()
    assert before.battle is not None
    out = step(_go(before, AssignAbilities("P1", ("breach_shot",)), AutoDeploy()), StartBattle())
    assert isinstance(out, Accepted)
    assigned = [e for e in out.events if isinstance(e, formations.AbilitiesAssigned)]
    assert {e.unit[0] for e in assigned} == {"E"}  # the AI side's, from the ai stream
    lines = log_lines(out.state.battle, list(out.events), ascii_glyphs=True)
    assert not any("commands:" in line for line in lines)
    mine = formations.AbilitiesAssigned(unit="P1", abilities=("breach_shot",))
    assert log_lines(out.state.battle, [mine], ascii_glyphs=True) == ["Ghost commands: Breach Shot"]


def test_pilots_screen_says_what_tactics_earns() -> None:
    assert "earns no ability" in command_text(2)
    assert "earns one ability" in command_text(3)
    assert "two different abilities" in command_text(5)


# ---- snapshots (conventions as test_tui_snapshots.py) ---------------------------------------
@pytest.fixture(scope="module")
def o9_deployment() -> Session:
    """An O9 quick battle (seed 4, difficulty 3, Industrial) in deployment: Ghost holds Battle
    Plan, the standing order is an Attack Line."""
    return play(
        Session.new(4),
        NewSkirmish(3, "industrial", "O9"),
        AssignAbilities("P1", ("battle_plan",)),
        SetFormation("line"),
    )


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_o9_battle_deployment(snap: Snap, size: tuple[int, int], o9_deployment: Session) -> None:
    # the frame panel's Formation and Command lines with their keys, the log's O9 lines
    snap(size, resume(copy(o9_deployment)))


def test_o9_impossible_turn_used(snap: Snap) -> None:
    # Falcon acts first and holds Impossible Turn: U uses it (the one ability it may use), the
    # panel says it dodges and holds fire, the log says so, the fire keys are greyed
    session = play(
        Session.new(4),
        NewSkirmish(3, "industrial", "O9"),
        AssignAbilities("P2", ("impossible_turn",)),
        SetFormation("line"),
        AutoDeploy(),
        StartBattle(),
    )
    snap((80, 24), resume(session, "U"))


def test_target_panel_says_a_dodging_target_negates_every_hit() -> None:
    from mac_tui.combat.preview import fire_preview
    from mac_tui.tui.widgets.target_lines import target_lines

    state = _go(_state(), AutoDeploy(), StartBattle())
    b = state.battle
    assert b is not None and b.active_unit is not None
    me = b.active_unit
    foe = next(u for u in b.units if u.side != me.side)
    for dodging, said in ((False, False), (True, True)):
        battle = b.with_unit(attrs.evolve(foe, dodging=dodging))
        preview = fire_preview(battle, battle.unit(me.id), 1, foe.id, None)
        lines = [t.plain for t in target_lines(battle, preview, 38, glyphs(True), Palette())]
        assert any("dodg" in line for line in lines) == said


def test_no_two_keys_of_the_battle_screen_meet_in_one_mode() -> None:
    """A key is one action in any mode (two rows with one key in a shared mode: Textual runs
    the first, so the other never happens: O4's B and O9's Breach Shot once did)."""
    rows = ACTIONS.rows
    for i, a in enumerate(rows):
        for b in rows[i + 1 :]:
            if a.bind and b.bind and set(a.key.split(",")) & set(b.key.split(",")):
                shared = [
                    (x.__name__, y.__name__)
                    for x in a.modes
                    for y in b.modes
                    if issubclass(x, y) or issubclass(y, x)
                ]
                assert not shared, (a.name, b.name, a.key, shared)
