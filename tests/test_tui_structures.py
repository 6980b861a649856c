"""Optional module O3 on the battle screen: features, damaged sections and smoke drawn on the
map in both layouts (readable in ASCII, never colour alone), the legend, and structures
targeted with the fire keys (Tab, the cursor) like frames."""

from __future__ import annotations

import attrs
import pytest

from mac_tui.catalog import catalog
from mac_tui.combat.commands import AutoDeploy, FireStructure, StartBattle
from mac_tui.combat.features import Section, Smoke, new_section, structure_key
from mac_tui.combat.skirmish import NewSkirmish, make_state
from mac_tui.combat.structure_preview import structure_fire_preview
from mac_tui.combat.structures import StructureAttacked
from mac_tui.core import Accepted
from mac_tui.game import step
from mac_tui.session import Session
from mac_tui.tui.battle_text import log_lines
from mac_tui.tui.glyphs import glyphs
from mac_tui.tui.screens.battle.modes import CallingShot, Firing
from mac_tui.tui.screens.battle.moment import Moment
from mac_tui.tui.widgets.hex_picture import MARKS, SMOKE
from mac_tui.tui.widgets.hexmap import HexMap, legend
from mac_tui.tui.widgets.panel_text import Palette
from mac_tui.tui.widgets.target_lines import target_lines
from tests.stages import copy, play
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

from .test_tui_hexmap import Host, drawn, off, tiny_battle

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def featured() -> object:
    """The tiny 4x3 map with a Low building on (3, 0) hit down to 27 of 50, a Ruin at full
    75 on (0, 2), and smoke on (1, 2)."""
    b = tiny_battle()
    return attrs.evolve(
        b,
        ruleset=("O3",),
        structures=(
            Section(hex=off(3, 0), feature="low_building", durability=27),
            new_section(off(0, 2), "ruin"),
        ),
        smoke=(Smoke(hex=off(1, 2), rounds=2),),
    )


async def test_compact_draws_features_their_durability_in_tens_and_smoke() -> None:
    app = Host(featured(), active="P1")
    async with app.run_test(size=(19, 5)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert hexmap.map_layout == "compact"
        assert drawn(hexmap) == [
            ". M1T b2",  # the Low building at 27 of 50: b and its tens
            " % . : .x",
            "R .~a2.",  # the ruin, undamaged; smoke on open
        ]


async def test_roomy_draws_the_exact_durability_and_smoke_twice() -> None:
    app = Host(featured(), active="P1")
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        assert hexmap.map_layout == "roomy"
        lines = drawn(hexmap)
        assert lines[0].split() == ["..", "M1", "TT", "b27"]
        assert lines[4].split()[:2] == ["RR", ".."] and lines[5].split()[:2] == ["RR", "~~"]


def test_feature_glyphs_are_distinct_from_terrain_and_marks() -> None:
    cat = catalog()
    for form in (0, 1):
        features = [f.unicode if form else f.glyph for f in cat.structures.feature]
        taken = {t.unicode if form else t.glyph for t in cat.terrain.values()}
        taken |= {m[form] for m in MARKS.values()}
        # a frame's label is its class letter and a digit (`M1`, `h2`): no feature glyph is one
        taken |= {c.letter.upper() for c in cat.classes.values()} if not form else set()
        taken |= {c.letter.lower() for c in cat.classes.values()} if not form else set()
        assert len(set(features)) == len(features)
        assert not set(features) & taken, form
        assert SMOKE[form] not in taken | set(features)
    assert all(f.glyph.isascii() for f in cat.structures.feature)


def test_the_legend_lists_features_only_under_o3() -> None:
    assert "high building" not in legend(True)
    text = legend(True, features=True)
    assert "B high building" in text and "# barricade" in text and "~ smoke" in text
    assert "R4 damaged" in text


def test_a_structure_shot_in_the_log_and_the_target_panel() -> None:
    b = attrs.evolve(featured(), units=tuple(attrs.evolve(u, ap=2) for u in featured().units))
    shot = StructureAttacked(
        unit="P1",
        group=1,
        weapon="medium_laser",
        weapon_index=0,
        hex=off(3, 0),
        feature="low_building",
        distance=2,
        intervening=(),
        modifiers=(),
        chance=80,
        rolls=(93, 41),
        hit=True,
        damage=10,
        before=27,
        after=0,
        collapse=True,
    )
    (line,) = log_lines(b, [shot], ascii_glyphs=True)
    assert line.startswith("Ghost ML -> Low building D1: needs 80, rolls 93, miss, re-rolls 41")
    assert line.endswith("hit for 10, durability 27 -> 0: it collapses at the round's end")
    p1 = b.unit("P1")
    fp = structure_fire_preview(b, p1, p1.weapons[0].group, off(3, 0))
    assert fp.target == structure_key(off(3, 0))
    text = "\n".join(t.plain for t in target_lines(b, fp, 44, glyphs(True), Palette()))
    assert text.startswith("Target Low building D1 | 27/50")
    assert "a miss is re-rolled once" in text
    assert "structure " in text and "to durability" in text


def test_tab_and_the_cursor_aim_at_structures_like_frames() -> None:
    """Fire mode (f): Tab goes through the enemy frames, then the sections with durability
    left, nearest first; the cursor on a section aims at it; Enter gives `fire-at`. A called
    shot (c) never aims at a structure."""
    state = make_state(4, 3, landscape="industrial", ruleset=("O3",), player_ai=False)
    battle = state.battle
    assert battle is not None
    for cmd in (AutoDeploy(), StartBattle()):
        out = step(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state
    battle = state.battle
    assert battle is not None and battle.active_unit is not None
    m = Moment.of(state, battle, auto=False)
    targets = Firing.all_targets(m)
    frames = [t for t, _ in targets if not t.startswith("@")]
    sections = [t for t, _ in targets if t.startswith("@")]
    assert set(frames) == {e.id for e in battle.living("enemy")}
    assert [t for t, _ in targets[: len(frames)]] == frames  # the frames come first
    assert len(sections) == sum(1 for s in battle.structures if s.durability > 0)
    assert not [t for t, _ in CallingShot.all_targets(m) if t.startswith("@")]
    mode = Firing(None, 1)
    hexes = []
    for _ in range(len(targets)):
        mode, at = mode.cycled(m, 1)  # type: ignore[assignment]
        hexes.append(at)
    assert mode.target == targets[-1][0] and hexes == [h for _, h in targets]
    wall = battle.structures[0]
    aimed = Firing(frames[0], 1).cursor_on(m, wall.hex)
    assert aimed.target == structure_key(wall.hex)  # type: ignore[attr-defined]
    assert aimed.pick(m, wall.hex) == FireStructure(1, wall.hex)


# ---- snapshots (conventions as test_tui_snapshots.py) ---------------------------------------
def aiming_at_a_wall() -> Session:
    """An O3 quick battle (seed 4, difficulty 3, Industrial), started, at the player's first
    activation: `f` aims at the nearest target (a section: no enemy is in reach yet)."""
    session = play(Session.new(4), NewSkirmish(3, "industrial", "O3"), AutoDeploy(), StartBattle())
    b = session.state.battle
    assert b is not None and b.active_unit is not None and b.active_unit.side == "player"
    return session


@pytest.fixture(scope="module")
def o3_deployment() -> Session:
    return play(Session.new(4), NewSkirmish(3, "industrial", "O3"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_o3_battle_deployment(snap: Snap, size: tuple[int, int], o3_deployment: Session) -> None:
    snap(size, resume(copy(o3_deployment)))  # the features on the map, the legend


def test_o3_aiming_at_a_structure(snap: Snap) -> None:
    # `f` aims at the nearest target; Tab goes on to the next section: the target panel shows
    # its durability, each weapon's chance with `structure` as the base, the re-roll
    snap((80, 24), resume(aiming_at_a_wall(), "f", "tab"))


def test_o3_a_damaged_section_after_a_shot(snap: Snap) -> None:
    # `f`, Tab, Enter: the shot in the log (both rolls when the first missed), the section's
    # durability left in the map's mark slot
    snap((80, 24), resume(aiming_at_a_wall(), "f", "tab", "enter"))
