"""Optional module O10 on the screens (O10.8, issue 19): allied and neutral frames differ from
the lances by their mark's glyph (ASCII and without colour too), not only by colour; the map,
the legend, the frame panel, the contract's briefing and the quick battle's report name them.
"""

from __future__ import annotations

import attrs
import pytest

from mac_tui.campaign.contracts import ContractRow
from mac_tui.campaign.state import EnemyFrame, ThirdParty
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.combat.state import Battle, SideInfo
from mac_tui.hexgrid import from_offset
from mac_tui.players.ai import decide
from mac_tui.session import Session
from mac_tui.tui.glyphs import glyphs
from mac_tui.tui.screens.contracts_view import board_cells, third_party_line
from mac_tui.tui.screens.skirmish_report import report_text
from mac_tui.tui.widgets.frame_lines import frame_lines
from mac_tui.tui.widgets.hex_picture import SIDE_CLASS, Overlay, Painter, Scene, frame_label, legend
from mac_tui.tui.widgets.panel_text import Palette
from tests.stages import play
from tests.test_battle_actions import bat, frame, game
from tests.test_third_parties import contract as the_contract
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def four_sided() -> Battle:
    units = (
        frame("P1", chassis="EN-50", col=0),
        attrs.evolve(frame("A1", chassis="EN-50", col=1), side="ally"),
        attrs.evolve(frame("A2", chassis="RD-30", col=2), side="ally"),
        attrs.evolve(frame("N1", chassis="EN-50", col=4), side="neutral"),
        frame("E1", "enemy", chassis="EN-50", col=6),
    )
    sides = (
        SideInfo(side="player", ai=False),
        SideInfo(side="enemy", ai=True),
        SideInfo(side="ally", ai=True, withdrawal="at_50"),
        SideInfo(side="neutral", ai=True, withdrawal="at_25"),
    )
    return attrs.evolve(bat(game(*units)), ruleset=("O10",), sides=sides)


def test_marks_differ_by_glyph_not_only_by_colour() -> None:
    b = four_sided()
    marks = [frame_label(u) for u in b.units]
    # Enforcer = Medium (M), Raider = Light (L): player M1, allies Ma and Lb, neutral ma, enemy m1
    assert marks == ["M1", "Ma", "Lb", "ma", "m1"]
    assert len({m for m in marks}) == len(marks)
    # without colour: the case says whose side, a letter for a digit says a third party
    assert [m[1].isdigit() for m in marks] == [True, False, False, False, True]
    assert {SIDE_CLASS[u.side] for u in b.units} == {
        "hexmap--player",
        "hexmap--ally",
        "hexmap--neutral",
        "hexmap--enemy",
    }


def test_the_map_draws_them_in_ascii() -> None:
    b = four_sided()
    scene = Scene.of(b, None, Overlay())
    assert scene.frames[from_offset(1, 0)] == ("Ma", "hexmap--ally")
    assert scene.frames[from_offset(4, 0)] == ("ma", "hexmap--neutral")
    painter = Painter(ascii_glyphs=True)
    line = "".join(
        run for run, _ in painter.row_lines(scene, 0, "compact", from_offset(0, 0), None)[0]
    )
    assert "Ma" in line and "Lb" in line and "ma" in line and "m1" in line
    # a frame that left with its side is off the map (O10.6)
    gone = b.with_unit(attrs.evolve(b.unit("N1"), left=True))
    assert from_offset(4, 0) not in Scene.of(gone, None, Overlay()).frames


def test_legend_names_them_only_with_third_parties() -> None:
    assert "Ma ally" in legend(True, third=True) and "ma neutral" in legend(True, third=True)
    assert "ally" not in legend(True) and "neutral" not in legend(True)


def test_frame_panel_names_the_third_party() -> None:
    b = four_sided()
    g = glyphs(True)
    ally = [t.plain for t in frame_lines(b.unit("A1"), 60, g, Palette())]
    assert any("Allied lance" in line for line in ally)
    neutral = [t.plain for t in frame_lines(b.unit("N1"), 60, g, Palette())]
    assert any("Neutral lance" in line for line in neutral)
    mine = [t.plain for t in frame_lines(b.unit("P1"), 60, g, Palette())]
    assert not any("lance" in line for line in mine)


def test_the_briefing_shows_the_third_party_before_acceptance() -> None:
    third = ThirdParty(
        roll=17,
        kind="ally",
        faction="directorate",
        frames=(EnemyFrame(chassis="RD-30", loadout="x", label="RAIDER-A1"),),
    )
    contract = attrs.evolve(the_contract(third), difficulty=1, base=50_000, bonus=0)
    row = ContractRow(
        id="C1",
        employer="directorate",
        employer_name="Terran Directorate",
        opponent="crucible",
        opponent_name="Crucible",
        standing="Neutral",
        difficulty=1,
        reward_min=45_000,
        reward_max=63_000,
        enemy_classes=(),
        enemy_withdrawal="retreats at 25%",
        map_size="Small",
        map_width=12,
        map_height=10,
        landscape="Habitable",
        third_party="an allied lance of DIR: 1 Light",
    )
    line = third_party_line(contract, row)
    assert line.startswith("Third party: an allied lance of DIR: 1 Light")
    assert "90%" in line
    cells = board_cells(row, contract, threat=None)  # type: ignore[arg-type]
    assert str(cells[5]).endswith("+ally")
    neutral = attrs.evolve(contract, third_party=attrs.evolve(third, kind="neutral"))
    assert "standing" in third_party_line(neutral, row)
    assert str(board_cells(row, neutral, threat=None)[5]).endswith("+neut")  # type: ignore[arg-type]


def test_quick_battle_report_lists_the_third_parties() -> None:
    b = four_sided()
    wreck = attrs.evolve(b.unit("E1"), destroyed=True, destroyed_by="center_torso", downed_by="A1")
    b = attrs.evolve(b.with_unit(wreck), phase="over", result="victory")
    text = report_text(b, seed=1)
    assert "Allied lance" in text and "Neutral lance" in text
    assert "destroyed by the ally" in text


def test_the_target_panel_warns_before_a_shot_at_a_neutral() -> None:
    from mac_tui.combat import preview
    from mac_tui.combat.state import SideGrudge
    from mac_tui.tui.widgets.target_lines import target_lines
    from tests.test_damage import weapon

    b = four_sided()
    shooter = attrs.evolve(b.unit("P1"), weapons=(weapon("medium_laser", "right_arm"),))
    b = b.with_unit(shooter)
    fp = preview.fire_preview(b, shooter, 1, "N1")
    calm = [t.plain for t in target_lines(b, fp, 70, glyphs(True), Palette())]
    assert any("a hit makes it fight you" in line for line in calm)
    angry = attrs.evolve(b, grudges=(SideGrudge(side="player", amount=3),))
    fp = preview.fire_preview(angry, shooter, 1, "N1")
    lines = [t.plain for t in target_lines(angry, fp, 70, glyphs(True), Palette())]
    assert any("it fights your side" in line for line in lines)
    enemy = [
        t.plain
        for t in target_lines(
            b, preview.fire_preview(b, shooter, 1, "E1"), 70, glyphs(True), Palette()
        )
    ]
    assert not any("Neutral" in line for line in enemy)


# ---- snapshots (looked at first with tools/tui-shot: `mac-tui skirmish --seed 1 --rules O10`)
def o10_battle(seed: int) -> Session:
    """An O10 quick battle (difficulty 3) at the player's first activation, the third party's
    frames on the map."""
    session = play(Session.new(seed), NewSkirmish(3, rules="O10"))
    for _ in range(200):
        b = session.state.battle
        assert b is not None and b.phase != "over"
        u = b.active_unit
        if b.phase == "combat" and u is not None and u.side == "player":
            return session
        play(session, decide(session.state).command)
    raise AssertionError("the player never acted")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("seed", [1, 4], ids=["allies", "neutral"])
def test_o10_battle(snap: Snap, size: tuple[int, int], seed: int) -> None:
    # the allied (La, Lb) or neutral (ma) marks on the map and the initiative track, the legend
    snap(size, resume(o10_battle(seed)))
