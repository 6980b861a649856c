"""Optional module O4 on the battle screen (O4.10): each frame's facing drawn in the hex it
faces (compact and roomy, ASCII-readable, never colour alone), the legend, the facing a move
ends with and the arcs the enemies would be in, the target's arc when aiming, the O4 keys
hidden in a core battle. Map rows are worked out by hand in the comments."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from mac_tui.combat import preview
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.state import Unit
from mac_tui.hexgrid import Hex, from_offset
from mac_tui.session import Session
from mac_tui.tui.glyphs import glyphs
from mac_tui.tui.widgets.hex_picture import Overlay, Painter, Scene, legend
from mac_tui.tui.widgets.panel_text import Palette
from mac_tui.tui.widgets.target_lines import target_lines
from tests.stages import copy, play
from tests.test_damage import make_unit, weapon
from tests.test_elevation import battle_on
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROWS = ["." * 8] * 3
E, NE, NW, W, SW, SE = range(6)


def battle(*units: Unit, rules: tuple[str, ...] = ("O4",)) -> Any:
    return battle_on(ROWS, [0] * 24, *units, rules=rules)


def text(lines: Any) -> list[str]:
    return ["".join(run for run, _ in line) for line in lines]


def row(b: Any, r: int, layout: str = "compact", ascii_glyphs: bool = True) -> list[str]:
    painter = Painter(ascii_glyphs=ascii_glyphs)
    return text(painter.row_lines(Scene.of(b, None, Overlay()), r, layout, from_offset(7, 2), None))  # type: ignore[arg-type]


def test_the_compact_map_marks_the_hex_a_frame_faces() -> None:
    # Row 1 is odd: one column of shift. P1 at column 2 facing E: the mark in column 3's hex,
    # before its glyph (the side nearer the frame); an enemy at column 6 facing W: the mark
    # after column 5's glyph.
    p1 = make_unit("P1", side="player", pos=from_offset(2, 1), facing=E)
    e1 = make_unit("E1", side="enemy", pos=from_offset(6, 1), facing=W)
    b = battle(p1, e1)
    [row1] = row(b, 1)
    assert row1 == " 2 . . L1>.. .<l1. "
    # the core game draws no facing
    [plain] = row(attrs.evolve(b, ruleset=()), 1)
    assert plain == " 2 . . L1. . . l1. "


def test_a_frame_facing_up_or_down_marks_the_row_above_or_below() -> None:
    # P1 at column 3 of row 1 (odd, shifted right): NE is column 4 of row 0, SW column 3 of row 2
    p1 = make_unit("P1", side="player", pos=from_offset(3, 1), facing=NE)
    [row0] = row(battle(p1), 0)
    assert row0 == " 1. . . . ^.. . . "
    turned = attrs.evolve(p1, facing=SW)
    [row2] = row(battle(turned), 2)
    assert row2 == " 3. . . .v. . . . "
    [row0u] = row(battle(p1), 0, ascii_glyphs=False)
    assert "↗" in row0u


def test_the_roomy_map_marks_the_faced_hex_twice_under_it() -> None:
    p1 = make_unit("P1", side="player", pos=from_offset(2, 1), facing=E)
    top, bottom = row(battle(p1), 1, "roomy")
    assert top.startswith(" 2   ..  ..  L1  ..  ")
    assert bottom.startswith("     ..  ..  ..  >>  ")


def test_the_legend_names_the_facing_mark_only_with_o4() -> None:
    assert "M1> faces the marked hex" in legend(True, facings=True)
    assert "faces" not in legend(True)
    assert "M1→ faces the marked hex" in legend(False, facings=True)


def test_the_arcs_previewed_at_the_end_of_a_move() -> None:
    # A frame ending at column 2 of row 1 facing E: an enemy ahead (column 6) is in its front
    # arc, one behind (column 0) in its rear.
    me = make_unit("P1", side="player", pos=from_offset(4, 2), facing=E)
    ahead = make_unit("E1", side="enemy", pos=from_offset(6, 1), facing=W)
    behind = make_unit("E2", side="enemy", pos=from_offset(0, 1), facing=E)
    b = battle(me, ahead, behind)
    arcs = {e.id: a for e, a in preview.arcs_at(b, me, from_offset(2, 1), E)}
    assert arcs == {"E1": "front", "E2": "rear"}


def test_aiming_names_the_arc_the_shot_comes_from() -> None:
    # Falcon 3 hexes behind an enemy facing E: its rear arc, +10 and the rear hit table.
    falcon = make_unit(
        "P1",
        side="player",
        gunnery=5,
        pos=from_offset(1, 1),
        facing=E,
        weapons=(weapon("medium_laser", "right_arm"),),
    )
    enemy = make_unit("E1", side="enemy", chassis="EN-50", pos=from_offset(4, 1), facing=E)
    b = battle(falcon, enemy)
    fp = preview.fire_preview(b, falcon, 1, "E1")
    lines = [t.plain for t in target_lines(b, fp, 60, glyphs(True), Palette())]
    assert any(
        "Its rear arc (+10, rear hits)" in line and "in your front" in line for line in lines
    )
    core = battle(attrs.evolve(falcon, facing=None), attrs.evolve(enemy, facing=None), rules=())
    fp = preview.fire_preview(core, core.unit("P1"), 1, "E1")
    assert not any("arc" in t.plain for t in target_lines(core, fp, 60, glyphs(True), Palette()))


def test_the_o4_keys_are_hidden_in_a_core_battle_and_greyed_with_a_reason() -> None:
    from mac_tui.tui.screens.battle.actions import ACTIONS
    from mac_tui.tui.screens.battle.modes import Idle
    from mac_tui.tui.screens.battle.moment import Moment

    me = make_unit("P1", side="player", pos=from_offset(2, 1), facing=E)
    foe = make_unit("E1", side="enemy", pos=from_offset(6, 1), facing=W)
    b = attrs.evolve(battle(me, foe), order=("P1", "E1"), turn=0)
    on = Moment(battle=b, shown=b)
    core = attrs.evolve(b, ruleset=(), units=tuple(attrs.evolve(u, facing=None) for u in b.units))
    off = Moment(battle=core, shown=core)
    for name in ("reverse", "pivot_left", "pivot_right", "turn"):
        row_ = ACTIONS.named(name)
        assert row_.state(Idle(), off) is False  # hidden
        assert row_.state(Idle(), on) is None  # greyed: the Moment offers no command
    turn = ACTIONS.named("turn")
    assert turn.why is not None and turn.why(Idle(), on) is None  # the engine would turn
    assert "[ ]  Pivot" in ACTIONS.bar_markup(Idle(), on)
    assert "Pivot" not in ACTIONS.bar_markup(Idle(), off)
    # the bar keeps its two lines at 80 columns (78 inside its padding), Auto included
    lines = ACTIONS.bar_markup(Idle(), on, 78).split("\n")
    assert len(lines) == 2 and "Auto" in lines[1]


def test_the_log_pane_says_facings_reverse_moves_pivots_and_turns() -> None:
    from mac_tui.combat import facing
    from mac_tui.combat.events import Moved
    from mac_tui.tui.battle_text import log_lines

    me = make_unit("P1", side="player", pos=from_offset(2, 1), facing=E)
    b = battle(me)
    moved = Moved(unit="P1", mode="move", path=(Hex(2, 1), Hex(3, 1)), energy=2, pullback=False)
    events = [
        attrs.evolve(moved, facing=NE),
        attrs.evolve(moved, facing=E, reverse=True),
        facing.Pivoted(unit="P1", facing=SE),
        facing.Turned(unit="P1", facing=W, ap=1),
    ]
    lines = log_lines(b, events, ascii_glyphs=True)
    assert "moves 1 hex to" in lines[0] and "facing NE" in lines[0]
    assert "backs up 1 hex to" in lines[1] and "facing E" in lines[1]
    assert "pivots to face SE" in lines[2]
    assert "turns to face W" in lines[3]
    core = log_lines(attrs.evolve(b, ruleset=()), [moved], ascii_glyphs=True)
    assert "facing" not in core[0]


@pytest.fixture(scope="module")
def deployment() -> Session:
    return play(Session.new(1), NewSkirmish(3, rules="O4"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_o4_battle_deployment(snap: Snap, size: tuple[int, int], deployment: Session) -> None:
    snap(size, resume(copy(deployment)))  # the facings on the map, the legend


def test_o4_moving_previews_the_end_facing_and_the_arcs(snap: Snap, deployment: Session) -> None:
    # auto-deploy, start; the first player activation: Move, the cursor two rows up, the
    # facing turned once right: the message line names the facing and each enemy's arc
    snap((120, 40), resume(copy(deployment), "a", "s", "m", "up", "up", "full_stop"))


async def test_t_asks_for_the_facing_and_b_aims_a_reverse_move(deployment: Session) -> None:
    # `u` and `b` are the map's north-east and south-west: Turn and Back take `T` and `B`
    from mac_tui.tui.app import MacApp
    from mac_tui.tui.screens.battle.modes import Reversing
    from mac_tui.tui.widgets.dialogs import ChooseScreen

    app = MacApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await resume(copy(deployment), "a", "s")(pilot)
        await pilot.press("T")
        await pilot.pause()
        assert isinstance(app.screen, ChooseScreen)
        await pilot.press("down", "enter")
        await pilot.pause()
        battle = app.screen.battle  # type: ignore[attr-defined]
        falcon = battle.active_unit
        assert falcon is not None and falcon.facing == NW and falcon.ap == 1
        await pilot.press("B")
        await pilot.pause()
        assert isinstance(app.screen.mode, Reversing)  # type: ignore[attr-defined]
