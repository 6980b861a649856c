"""Optional modules O5 and O7 on the battle screen: the hexes-moved counter and its penalty in
the fire preview (O5), the kick key greyed with the engine's reason and hidden without O7, the
kick's preview (chance, damage, the stun), stun and daze marks on the map (compact and roomy,
the same in ASCII, never colour alone) and in the frame panel, the log's words."""

from __future__ import annotations

import pytest

from mac_tui.combat import preview
from mac_tui.combat.kicks import Kicked
from mac_tui.combat.stun import StunEased, Stunned
from mac_tui.game import parse_command
from mac_tui.hexgrid import from_offset
from mac_tui.session import Session
from mac_tui.tui.battle_text import log_lines
from mac_tui.tui.glyphs import glyphs
from mac_tui.tui.screens.battle.actions import ACTIONS
from mac_tui.tui.screens.battle.modes import Idle, Kicking
from mac_tui.tui.screens.battle.moment import Moment
from mac_tui.tui.widgets.frame_lines import _status_flags
from mac_tui.tui.widgets.hex_picture import Overlay, Painter, Scene, legend
from mac_tui.tui.widgets.panel_text import Palette
from mac_tui.tui.widgets.target_lines import target_lines
from tests.stages import play
from tests.test_damage import ScriptedDice, d100
from tests.test_moving_fire import battle, enforcer, falcon, state_of
from tests.test_tui_battle_snapshots import resume
from tests.test_tui_snapshots import Snap, own_folder, snap

__all__ = ["own_folder", "snap"]  # the fixtures, shared

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

O57 = ("O5", "O7")


def text(lines: object) -> list[str]:
    return ["".join(run for run, _ in line) for line in lines]  # type: ignore[attr-defined]


def plain(lines: object) -> list[str]:
    return [line.plain for line in lines]  # type: ignore[attr-defined]


# --- the map and the legend -------------------------------------------------------------------
def test_stun_and_daze_marks_take_the_digits_place_compact_and_the_line_below_roomy() -> None:
    b = battle(falcon(1, id="P1", stun="stunned"), enforcer(3, id="E2", stun="dazed"), rules=O57)
    painter = Painter(ascii_glyphs=True)
    scene = Scene.of(b, None, Overlay())
    [row] = text(painter.row_lines(scene, 1, "compact", from_offset(12, 2), None))
    assert row.startswith(" 2 . L!. m;")  # the Raider L1 stunned, the Enforcer m2 dazed
    top, bottom = text(painter.row_lines(scene, 1, "roomy", from_offset(12, 2), None))
    assert " L1 " in top and " m2 " in top
    assert bottom.startswith("     ..  !!  ..  ;;")
    calm = Scene.of(battle(falcon(1, id="P1"), enforcer(3, id="E2"), rules=O57), None, Overlay())
    [row] = text(painter.row_lines(calm, 1, "compact", from_offset(12, 2), None))
    assert row.startswith(" 2 . L1. m2")


def test_the_legend_names_the_marks_only_under_o7() -> None:
    assert "M! stunned" in legend(True, stun=True) and "M; dazed" in legend(True, stun=True)
    assert "stunned" not in legend(True)


def test_the_frame_panel_says_stunned_and_the_hexes_moved() -> None:
    flags = [t.plain for t in _status_flags(falcon(stun="stunned", moved_hexes=3), Palette())]
    assert "STUNNED" in flags and "moved 3 hexes" in flags
    assert not [f for f in _status_flags(falcon(), Palette()) if "moved" in f.plain]


# --- the fire preview's counter (O5) ----------------------------------------------------------
def test_the_fire_preview_shows_the_hexes_moved_and_their_penalty() -> None:
    b = battle(falcon(0, moved_hexes=3), enforcer(5), rules=O57)
    fp = preview.fire_preview(b, b.unit("falcon"), 1, "enforcer")
    lines = plain(target_lines(b, fp, 44, glyphs(True), Palette()))
    assert "Moved 3 hexes this activation | moving -35" in lines
    assert any("mov -35" in line for line in lines)
    still = battle(falcon(0), enforcer(5), rules=O57)
    fp = preview.fire_preview(still, still.unit("falcon"), 1, "enforcer")
    lines = plain(target_lines(still, fp, 44, glyphs(True), Palette()))
    assert "Moved 0 hexes this activation | no moving penalty" in lines
    core = battle(falcon(0), enforcer(5), rules=())
    fp = preview.fire_preview(core, core.unit("falcon"), 1, "enforcer")
    assert not [
        x for x in plain(target_lines(core, fp, 44, glyphs(True), Palette())) if "Moved" in x
    ]


# --- the kick: key, preview, log (O7) ---------------------------------------------------------
def moment(b: object) -> Moment:
    return Moment.of(state_of(b), None, auto=False, ascii=True)  # type: ignore[arg-type]


def test_the_kick_key_is_live_greyed_with_the_reason_or_hidden() -> None:
    row = ACTIONS.named("kick")
    next_to = moment(battle(falcon(3), enforcer(4), rules=O57))
    assert row.state(Idle(), next_to) is True
    apart = moment(battle(falcon(0), enforcer(4), rules=O57))
    assert row.state(Idle(), apart) is None
    assert row.refusal(Idle(), apart) == "Kick: no enemy frame is adjacent"
    core = moment(battle(falcon(3), enforcer(4), rules=()))
    assert row.state(Idle(), core) is False  # not on the bar of a battle without O7
    assert " d " not in ACTIONS.bar_markup(Idle(), core)


def test_the_kick_preview_shows_the_chance_the_damage_and_the_stun() -> None:
    b = battle(falcon(3, moved_hexes=3), enforcer(4), rules=O57)
    m = moment(b)
    mode, at = Kicking.aimed(m)
    assert mode.target == "enforcer" and at == b.unit("enforcer").pos
    fp = mode.shot_preview(m)
    assert fp is not None and fp.refusal is None
    lines = plain(target_lines(b, fp, 44, glyphs(True), Palette()))
    assert "Kick | 1 AP | 9 damage | stuns" in lines
    assert "Moved 3 hexes | damage 3 + 2 x 3" in lines
    assert any(line.startswith("KICK 63%") for line in lines)
    assert any("kick 70 pil +6 eva -13" in line for line in lines)
    assert mode.pick(m, at) is not None and mode.pick(m, at).to_text() == "kick enforcer"  # type: ignore[union-attr]


def test_the_log_tells_the_kick_and_the_stun() -> None:
    from mac_tui.combat.kicks import do_kick

    b = battle(falcon(3, moved_hexes=3), enforcer(4), rules=O57)
    out = do_kick(b, b.unit("falcon"), "enforcer", ScriptedDice(d100(40), (100, 60)))
    assert not isinstance(out, str)
    after, events = out
    assert isinstance(events[0], Kicked) and isinstance(events[1], Stunned)
    lines = log_lines(after, [*events, StunEased(unit="enforcer")], ascii_glyphs=True)
    assert lines[0].startswith("FALCON kicks ENFORCER: needs 63, rolls 40: hit LG")
    assert lines[1] == "ENFORCER is STUNNED by the kick"
    assert lines[2] == "ENFORCER shakes off the stun: dazed for one more activation"


# --- snapshots (conventions as test_tui_snapshots.py) -----------------------------------------
#: An O5,O7 quick battle (seed 1, difficulty 1), the player's Raider closing on the enemy's
#: until it stands next to one (found by playing the enemy with the AI): `d` then kicks.
KICK_GAME = (
    "new-skirmish 1 - --rules O5,O7",
    "auto-deploy",
    "start-battle",
    "brace",
    "fire 1 P1",
    "sprint 4,7",
    "fire 3 P1",
    "fire 1 P2",
    "sprint 3,7",
    "fire 1 P1",
    "fire 2 P1",
    "move 7,6",
)


def kick_session() -> Session:
    return play(Session.new(1), *(parse_command(c) for c in KICK_GAME))


def test_o7_the_kick_preview(snap: Snap) -> None:
    # `d`: the kick at the adjacent Raider, its chance (kick, piloting, evasion), 9 damage
    # after 3 hexes, the stun; the key on the bar
    snap((80, 24), resume(kick_session(), "d"))


def test_o7_a_kick_stuns_and_the_stun_eases(snap: Snap) -> None:
    # `d`, Enter: the kick in the log, the Raider stunned, then (after its activation) dazed:
    # its mark on the map
    snap((80, 24), resume(kick_session(), "d", "enter"))
