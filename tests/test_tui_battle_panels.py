"""The battle panels (pilot tests): a real battle drawn in a 38-column panel column.

The battle: `make_state` at difficulty 5, auto-deployed and started; the first frame to act
gets its first enemy moved 4 hexes away (a test's shortcut to a few rounds of manoeuvre) and
fires a group at it until a hit lands. The panels must show the state's real numbers.
"""

from __future__ import annotations

from functools import lru_cache

import attrs
import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from mac_tui.catalog import catalog
from mac_tui.combat import stats
from mac_tui.combat.commands import AutoDeploy, EndActivation, FireGroup, StartBattle
from mac_tui.combat.firing import check_fire
from mac_tui.combat.preview import fire_preview, move_preview
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import LOC_INDEX, Battle, other_side
from mac_tui.game import Accepted, step
from mac_tui.hexgrid import distance, from_offset, within
from mac_tui.model import GameState
from mac_tui.tui.widgets.battle_panels import (
    BattlePanel,
    FramePanel,
    InitiativeTrack,
    TargetPanel,
    move_text,
)
from mac_tui.tui.widgets.hex_picture import frame_label

from .test_preview import OPEN_ROWS, raider, shooter
from .test_preview import battle as hand_battle

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

COLUMN = 38
BODY = ("left_arm", "left_torso", "center_torso", "right_torso", "right_arm")


@lru_cache(maxsize=1)
def fought() -> tuple[GameState, str, str, int]:
    """(state after the shot, shooter id, target id, group fired): the first seed whose shot
    damaged the target."""
    for seed in range(1, 50):
        state = make_state(seed, 5)
        for cmd in (AutoDeploy(), StartBattle()):
            out = step(state, cmd)
            assert isinstance(out, Accepted)
            state = out.state
        b = state.battle
        assert b is not None and b.active_unit is not None
        me = b.active_unit
        assert me.pos is not None
        foe = b.living(other_side(me.side))[0]
        spot = next(
            h
            for h in sorted(within(me.pos, 4))
            if distance(h, me.pos) == 4 and b.map.contains(h) and b.occupant(h) is None
        )
        b = b.with_unit(attrs.evolve(foe, pos=spot))
        group = next(
            g for g in stats.groups(me) if not isinstance(check_fire(b, me, g, foe.id, None), str)
        )
        out = step(attrs.evolve(state, battle=b), FireGroup(group, foe.id))
        assert isinstance(out, Accepted)
        after = out.state.battle
        assert after is not None
        if after.unit(foe.id).total_armor < foe.total_armor:
            return out.state, me.id, foe.id, group
    raise AssertionError("no seed landed a hit")


def fought_battle() -> Battle:
    b = fought()[0].battle
    assert b is not None
    return b


class Host(App[None]):
    """A map-sized blank and a 38-column panel column, as on the battle screen."""

    CSS = """
    #map { width: 1fr; }
    #column { width: 38; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("map", id="map")
            with VerticalScroll(id="column"):
                yield InitiativeTrack()
                yield FramePanel()
                yield TargetPanel()


def lines_of(panel: BattlePanel) -> list[Text]:
    return panel.lines(panel.content_size.width)


def text_of(panel: BattlePanel) -> str:
    return "\n".join(line.plain for line in lines_of(panel))


def assert_fits(panel: BattlePanel) -> None:
    assert 0 < panel.content_size.width <= COLUMN
    for line in lines_of(panel):
        assert line.cell_len <= panel.content_size.width, line.plain


def assert_ascii(panel: BattlePanel) -> None:
    text = text_of(panel)
    assert text.isascii(), sorted({c for c in text if not c.isascii()})


async def show_all(app: Host, *, ascii_glyphs: bool = False, group: int | None = None) -> None:
    _, me_id, foe_id, fired = fought()
    b = fought_battle()
    me = b.unit(me_id)
    g = group if group is not None else next(x for x in stats.groups(me) if x != fired)
    app.query_one(InitiativeTrack).show(b, ascii_glyphs=ascii_glyphs)
    app.query_one(FramePanel).show(b, foe_id, ascii_glyphs=ascii_glyphs)
    app.query_one(TargetPanel).show(b, fire_preview(b, me, g, foe_id), ascii_glyphs=ascii_glyphs)


# ---- the frame -----------------------------------------------------------------------------
async def test_frame_panel_shows_the_damaged_frames_real_numbers() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await show_all(app)
        await pilot.pause()
        panel = app.query_one(FramePanel)
        assert_fits(panel)
        lines = [line.plain for line in lines_of(panel)]
        foe = fought_battle().unit(fought()[2])
        ch = stats.chassis_of(foe)
        assert ch.name in lines[0] and ch.designation in lines[0] and foe.label in lines[0]
        assert f"gun {foe.pilot.gunnery}" in lines[1] and f"pil {foe.pilot.piloting}" in lines[1]

        def loc(name: str) -> tuple[int, int]:
            i = LOC_INDEX[name]
            return foe.armor[i], foe.structure[i]

        # The head on top, the legs below, each on one line, as armour/structure.
        assert lines[2].split() == ["A/S", "HD", "{}/{}".format(*loc("head"))]
        assert lines[5].split() == ["LG", "{}/{}".format(*loc("legs"))]
        # Arms and torsos across: titles, armour/structure.
        assert lines[3].split() == ["LA", "LT", "CT", "RT", "RA"]
        assert lines[4].split() == ["{}/{}".format(*loc(x)) for x in BODY]
        # ... and these are the numbers after the hit.
        assert foe.total_armor < foe.start_armor
        text = "\n".join(lines)
        flat = " ".join(text.split())
        out, lim = stats.effective_output(foe), stats.overload_limit(foe)
        left = out - foe.energy_used
        assert f"Energy {left} of {out}, {lim - foe.energy_used} with overload" in flat
        risk, auto = stats.effective_output(foe), -(-out * 150 // 100)
        assert f"Stress {foe.stress} " in text
        assert f"shutdown risk {risk} · automatic {auto}" in text
        assert f"AP {foe.ap}/{stats.max_ap(foe)}" in text
        # Weapons by group: abbreviation, damage and energy from the catalog.
        cat = catalog()
        first = foe.weapons[0]
        w = cat.weapons[first.weapon]
        row = next(x for x in lines if x.startswith(f"{first.group} {w.abbrev}"))
        assert row.split()[2:4] == [str(w.damage), str(w.energy)]


async def test_frame_panel_flags_destroyed_locations_and_status_in_words() -> None:
    b = fought_battle()
    foe = b.unit(fought()[2])
    structure = list(foe.structure)
    structure[LOC_INDEX["left_arm"]] = 0
    weapons = list(foe.weapons)
    weapons[0] = attrs.evolve(weapons[0], destroyed=True)
    foe = attrs.evolve(
        foe,
        structure=tuple(structure),
        weapons=tuple(weapons),
        braced=True,
        gyro_hit=True,
        shutdown=True,
        overwatch_group=weapons[-1].group,
        stress=12,
    )
    b = b.with_unit(foe)
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        for ascii_glyphs, lost in ((False, "✗lost"), (True, "xlost")):
            app.query_one(FramePanel).show(b, foe.id, ascii_glyphs=ascii_glyphs)
            await pilot.pause()
            panel = app.query_one(FramePanel)
            assert_fits(panel)
            text = text_of(panel)
            assert lost in text and "lost" in text
            for word in ("SHUT DOWN", "braced", f"overwatch G{foe.overwatch_group}", "gyro hit"):
                assert word in " ".join(text.split()), word
            assert any(line.rstrip().endswith(" lost") for line in text.splitlines())  # a weapon
            assert "Stress 12 " in text
            assert f"shutdown risk {stats.effective_output(foe)} " in text
            assert "Energy 0: shut down" in text
        assert_ascii(panel)


async def test_frame_panel_ascii_mode_draws_only_ascii() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await show_all(app, ascii_glyphs=True)
        await pilot.pause()
        for panel in app.query(BattlePanel):
            assert_fits(panel)
            assert_ascii(panel)


async def test_frame_panel_uses_the_room_at_120x40() -> None:
    app = Host()
    app.CSS = "#map { width: 1fr; } #column { width: 56; }"
    async with app.run_test(size=(120, 40)) as pilot:
        app.query_one("#column").styles.width = 56
        await show_all(app)
        await pilot.pause()
        panel = app.query_one(FramePanel)
        assert panel.content_size.width > COLUMN
        lines = [line.plain for line in lines_of(panel)]
        foe = fought_battle().unit(fought()[2])
        # The wide form: wider cells, the limits and the pilot in full words.
        i = LOC_INDEX["center_torso"]
        assert f"{foe.armor[i]}/{foe.structure[i]}" in lines[4]
        assert lines[2].startswith("armour/structure")
        assert "automatic shutdown" in "\n".join(lines)
        assert f"gunnery {foe.pilot.gunnery}" in lines[1]
        target = app.query_one(TargetPanel)
        assert "gunnery " in text_of(target) and "evasion " in text_of(target)


# ---- the target ----------------------------------------------------------------------------
async def test_target_panel_shows_chances_and_every_modifier() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await show_all(app)
        await pilot.pause()
        panel = app.query_one(TargetPanel)
        assert_fits(panel)
        text = text_of(panel)
        flat = " ".join(text.split())
        _, me_id, foe_id, fired = fought()
        b = fought_battle()
        me = b.unit(me_id)
        group = next(x for x in stats.groups(me) if x != fired)
        p = fire_preview(b, me, group, foe_id)
        foe = b.unit(foe_id)
        assert foe.label in text and f"Distance {p.distance} hexes" in text
        for w in p.weapons:
            assert w.chance is not None
            assert f"{w.abbrev}" in text
            assert f"{w.chance.chance}% exp {w.expected:.1f}" in flat
        # Every modifier, by its short name and signed value.
        short = {"gunnery": "gun", "evasion": "eva", "range": "rng"}
        for m in p.weapons[0].chance.modifiers:  # type: ignore[union-attr]
            value = str(m.value) if m.name == "base" else f"{m.value:+d}"
            assert f"{short.get(m.name, m.name)} {value}" in flat
        assert f"Expected damage {p.expected:.1f}" in text
        left = max(0, stats.effective_output(me) - me.energy_used - p.energy)
        assert f"{p.energy} energy: {left} of {stats.effective_output(me)} left," in flat
        assert f"{p.energy_after} with overload" in flat
        # The armour at a glance: the centre torso as armour/structure.
        i = LOC_INDEX["center_torso"]
        assert f"CT{foe.armor[i]}/{foe.structure[i]}" in text
        assert "Refused" not in text


async def test_target_panel_los_hex_by_hex_through_forest() -> None:
    # Row 1: shooter, Forest, Rocks, Rough, Open, target in Forest (as in test_preview).
    b = hand_battle(shooter(), raider())
    p = fire_preview(b, b.unit("shooter"), 1, "raider-2")
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.query_one(TargetPanel).show(b, p)
        await pilot.pause()
        panel = app.query_one(TargetPanel)
        assert_fits(panel)
        text = text_of(panel)
        assert "LOS 4 hexes -8: ♣-5 ▲-3 ≈ ·" in text
        # ML 55%: 80 + 10 - 22 + 10 - 15 - 8, expected 5.5.
        assert "ML   55%  exp 5.5" in text
        assert "base 80 gun +10 eva -22 rng +10" in text
        assert "cover -15 LOS -8" in text
        assert "Expected damage 11.1" in text
        app.query_one(TargetPanel).show(b, p, ascii_glyphs=True)
        await pilot.pause()
        assert "LOS 4 hexes -8: T-5 ^-3 % ." in text_of(panel)
        assert_ascii(panel)


async def test_target_panel_refusal_and_overload_warning() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        fired = fought()[3]
        await show_all(app, group=fired)
        await pilot.pause()
        panel = app.query_one(TargetPanel)
        text = " ".join(text_of(panel).split())
        assert f"⚠ Refused: group {fired} has already fired this round" in text
        # An overload: the Vanguard with 12 energy used fires 9 more (6 over its 15).
        b = hand_battle(shooter(energy_used=12), raider())
        app.query_one(TargetPanel).show(b, fire_preview(b, b.unit("shooter"), 1, "raider-2"))
        await pilot.pause()
        assert_fits(panel)
        text = " ".join(text_of(panel).split())
        assert "LL 60% skipped: needs 4 energy, 2 left" in text
        assert "9 energy: 0 of 15 left, 1 with overload" in text
        assert "⚠ overload +6: stress 0 → 5 at the round's end (shutdown risk 15)" in text


# ---- the initiative and the message line ---------------------------------------------------
async def test_initiative_track_marks_acting_acted_and_destroyed() -> None:
    state, me_id, _, _ = fought()
    out = step(state, EndActivation())
    assert isinstance(out, Accepted)
    b = out.state.battle
    assert b is not None and b.active_unit is not None
    acting = b.active_unit
    gone = next(u for u in b.units if u.side == "enemy" and u.id != acting.id)
    b = b.with_unit(attrs.evolve(gone, destroyed=True))
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        track = app.query_one(InitiativeTrack)
        track.show(b)
        await pilot.pause()
        assert_fits(track)
        line = lines_of(track)[0]
        plain = line.plain
        assert plain.startswith(f"Round {b.round} · ")
        assert len(lines_of(track)) == 1
        # The map's marks: players upper case, enemies lower case; the acting one bracketed.
        mark = {u.id: frame_label(u) for u in b.units}
        assert f"[{mark[acting.id]}" in plain
        assert f"{mark[gone.id]}✗" in plain
        assert mark[me_id] in plain and mark[me_id].isupper()
        for span in line.spans:
            piece = plain[span.start : span.end]
            if piece.startswith(mark[me_id]):
                assert "dim" in str(span.style)  # acted already
            if piece.startswith(mark[gone.id]):
                assert "strike" in str(span.style)
        track.show(b, ascii_glyphs=True)
        await pilot.pause()
        assert_ascii(track)
        assert f"{mark[gone.id]}x" in text_of(track)


def test_move_text() -> None:
    """One energy language (battle_words), hexes by their map names, the longest form first."""
    b = hand_battle(shooter(), raider(col=8), rows=OPEN_ROWS)
    me = b.unit("shooter")
    m = move_preview(b, me, from_offset(3, 1), False)
    assert (
        move_text(m, me)[0]
        == "Move 3 hexes to D2 · 1 AP · 5 energy: 10 of 15 left, 17 with overload"
    )
    assert move_text(m, me)[-1] == "Move 3 hexes to D2 · 1 AP · 5 energy"
    assert move_text(m, me, ascii_glyphs=True)[-1] == "Move 3 hexes to D2 | 1 AP | 5 energy"
    refused = move_preview(b, me, from_offset(5, 1), False)
    assert move_text(refused, me) == ("Cannot move to F2: hex F2 is out of move range",)
    sprint = move_preview(b, me, from_offset(5, 1), True)
    assert move_text(sprint, me)[0] == (
        "Sprint 5 hexes to F2 · 2 AP · 10 energy: 5 of 15 left, 12 with overload"
    )
    # Past the output: the overload and the stress it brings.
    tired = hand_battle(shooter(energy_used=12), raider(col=8), rows=OPEN_ROWS)
    me = tired.unit("shooter")
    over = move_text(move_preview(tired, me, from_offset(3, 1), False), me)
    assert over[0].endswith("⚠ overload +2: stress 0 → 1 at the round's end (shutdown risk 15)")
    assert over[1].endswith("⚠ overload +2")
