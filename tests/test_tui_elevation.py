"""Optional rule O2 on the battle screen (O2.9): the map draws each hex's level as a digit
(compact and roomy, the same in ASCII, never colour alone), a hex that blocks the line of fire
carries its own mark, the targeting line names levels and a blocked line, the legend explains
both; snapshots at 80x24 (compact) and 120x40 (roomy). Conventions as test_tui_snapshots.py."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from mac_tui.combat import preview, stats
from mac_tui.combat.firing import check_fire
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.state import Battle
from mac_tui.hexgrid import Hex, from_offset
from mac_tui.players.ai import decide
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


def o2_battle(levels: str, *units: Any) -> Battle:
    """Three rows of eight Open hexes; `levels` the digits of row 1 (rows 0 and 2 flat)."""
    flat = "0" * 8
    return battle_on(ROWS, [int(c) for c in flat + levels + flat], *units)


def text(lines: Any) -> list[str]:
    return ["".join(run for run, _ in line) for line in lines]


def test_the_compact_map_shows_a_level_as_a_digit_in_the_mark_slot() -> None:
    b = o2_battle("01230000")
    painter = Painter(ascii_glyphs=True)
    scene = Scene.of(b, None, Overlay())
    [row1] = text(painter.row_lines(scene, 1, "compact", from_offset(7, 2), None))
    assert row1 == " 2 . .1.2.3. . . . "
    # the core game draws the same map flat
    flat = Scene.of(attrs.evolve(b, ruleset=()), None, Overlay())
    [plain] = text(painter.row_lines(flat, 1, "compact", from_offset(7, 2), None))
    assert plain == " 2 . . . . . . . . "


def test_the_roomy_map_shows_the_level_under_the_terrain_and_under_a_frame() -> None:
    frame = make_unit("P1", side="player", pos=from_offset(2, 1))
    b = o2_battle("01200000", frame)
    painter = Painter(ascii_glyphs=True)
    top, bottom = text(
        painter.row_lines(Scene.of(b, None, Overlay()), 1, "roomy", from_offset(7, 2), None)
    )
    assert top.startswith(" 2   ..  ..  L1  .. ")
    assert bottom.startswith("     ..  .1  .2  .. ")  # level 0 no digit; 1; 2 under the frame


def test_a_blocking_hex_has_its_own_mark_and_the_legend_says_so() -> None:
    b = o2_battle("00200000")
    blocked = Overlay(los=(from_offset(1, 1), from_offset(2, 1)), blocks=frozenset({Hex(2, 1)}))
    [row1] = text(
        Painter(ascii_glyphs=True).row_lines(
            Scene.of(b, None, blocked), 1, "compact", from_offset(7, 2), None
        )
    )
    assert row1.startswith(" 2 . .-.|")
    assert "1-3 ground level" in legend(True, levels=True)
    assert "| high ground blocks" in legend(True, levels=True)
    assert "ground level" not in legend(True)


def test_the_targeting_line_names_levels_and_a_blocked_line() -> None:
    # Ghost on level 2 at column 0, a Raider at column 6 on level 0, a level-2 hex at column 4
    # (the O2 example: it blocks).
    ghost = make_unit(
        "ghost",
        side="player",
        chassis="EN-50",
        weapons=(weapon("autocannon_5", "left_arm"),),
        pos=from_offset(0, 1),
    )
    raider = make_unit("raider", pos=from_offset(6, 1))
    b = o2_battle("20002000", ghost, raider)
    fp = preview.fire_preview(b, b.unit("ghost"), 1, "raider")
    lines = [t.plain for t in target_lines(b, fp, 60, glyphs(True), Palette())]
    los = next(line for line in lines if line.startswith("LOS"))
    assert "BLOCKED by high ground" in los
    assert "^2|" in los
    assert fp.refusal is not None and "behind high ground" in fp.refusal


def blocked_moment() -> Session:
    """An O2 quick battle (seed 1, difficulty 3, Station) at a player's activation with a shot
    to take at its nearest enemy while the second is in reach but behind high ground."""
    session = Session.new(1)
    play(session, NewSkirmish(3, rules="O2"))
    for _ in range(600):
        b = session.state.battle
        assert b is not None and b.phase != "over"
        u = b.active_unit
        if b.phase == "combat" and u is not None and u.side == "player" and u.ap == 2:
            ts = preview.targets(b, u)
            shots = [[check_fire(b, u, g, t.id, None) for g in stats.groups(u)] for t in ts[:2]]
            if (
                len(shots) == 2
                and any(not isinstance(why, str) for why in shots[0])
                and all(isinstance(why, str) and "behind high ground" in why for why in shots[1])
            ):
                return session
        play(session, decide(session.state).command)
    raise AssertionError("the moment never came")


@pytest.fixture(scope="module")
def deployment() -> Session:
    return play(Session.new(1), NewSkirmish(3, rules="O2"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_o2_battle_deployment(snap: Snap, size: tuple[int, int], deployment: Session) -> None:
    snap(size, resume(copy(deployment)))  # the levels on the map, the legend


def test_o2_aiming_at_a_frame_behind_high_ground(snap: Snap) -> None:
    # aim at the nearest, then Tab to the one behind the hill: the blocking hex marked on the
    # line, the panel's line of sight BLOCKED with the levels, the refusal
    snap((80, 24), resume(blocked_moment(), "f", "tab"))
