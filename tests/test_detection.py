"""Optional module O8, detection and fog of war (optional-rules.md O8.1-O8.13): sight, visual
range, detection, targeting, radiating, bumping, pull-back, contacts and last-known positions.

The maps are hand-drawn rows; on row 1 of an odd-r map `from_offset(col, 1) == Hex(col, 1)`, so
a line along row 1 crosses exactly the columns in between (tests/test_attack.py's layout).
Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from mac_tui.catalog import catalog
from mac_tui.combat import detection, stats
from mac_tui.combat.attack import hit_chance, spotter
from mac_tui.combat.features import Smoke
from mac_tui.combat.firing import check_fire, overwatch_target
from mac_tui.combat.movement import check_move, do_move
from mac_tui.combat.state import Battle, EquipmentState, Uplink

from .test_attack import AC5, LRM, at, battle, raider, shooter

CAT = catalog()
WIDE = ("." * 20,) * 3


def fog(*units: Any, rows: tuple[str, ...] = WIDE, **changes: Any) -> Battle:
    return battle(*units, rows=rows, ruleset=("O8",), **changes)


def gear(item: str) -> EquipmentState:
    return EquipmentState(equipment=item, mount=None)


# --- O8.4 visual range -----------------------------------------------------------------------
def test_visual_range_o8_4() -> None:
    s, r = shooter(), raider()
    assert detection.visual_range(s, r) == 10
    assert detection.visual_range(attrs.evolve(s, sensor_hit=True), r) == 5
    # not cumulative: a sensor hit and a breached cockpit are still 5
    assert detection.visual_range(attrs.evolve(s, sensor_hit=True, cockpit_breached=True), r) == 5
    arr = attrs.evolve(s, equipment=(gear("sensor_array"),))
    assert detection.visual_range(arr, r) == 14  # 10 + 4
    stealthy = attrs.evolve(r, equipment=(gear("stealth_plating"),))
    assert detection.visual_range(s, stealthy) == 7  # 10 - 3
    assert detection.visual_range(arr, stealthy) == 11  # 10 + 4 - 3
    phantom = attrs.evolve(r, equipment=(gear("phantom_emitter"),))
    assert detection.visual_range(arr, phantom) == 5  # seen only within 5
    broken = attrs.evolve(s, equipment=(EquipmentState(equipment="sensor_array", destroyed=True),))
    assert detection.visual_range(broken, r) == 10  # only a working array


# --- O8.3 sight --------------------------------------------------------------------------------
@pytest.mark.parametrize(("col", "seen"), [(10, True), (11, False)])
def test_sight_reaches_visual_range(col: int, seen: bool) -> None:
    b = fog(shooter(), raider(col))
    assert detection.sees(b, b.unit("shooter"), b.unit("raider-2")) is seen


@pytest.mark.parametrize(("forests", "seen"), [(3, True), (4, False)])
def test_forest_hides_at_20(forests: int, seen: bool) -> None:
    # forest costs 5 per intervening hex: 3 -> 15 < 20 seen, 4 -> 20 hidden
    row = "." + "T" * forests + "." * (19 - forests)
    b = fog(shooter(), raider(6), rows=(WIDE[0], row, WIDE[0]))
    assert detection.sight_penalty(b, at(0), at(6)) == 5 * forests
    assert detection.sees(b, b.unit("shooter"), b.unit("raider-2")) is seen


def test_smoke_both_ends_counted() -> None:
    # one smoke hex on the target's own hex: 10 < 20 seen; plus one on the line: 20, hidden
    one = fog(shooter(), raider(6), smoke=(Smoke(hex=at(6), rounds=2),))
    assert detection.sight_penalty(one, at(0), at(6)) == 10
    assert detection.sees(one, one.unit("shooter"), one.unit("raider-2"))
    two = attrs.evolve(one, smoke=(Smoke(hex=at(3), rounds=2), Smoke(hex=at(6), rounds=2)))
    assert detection.sight_penalty(two, at(0), at(6)) == 20
    assert not detection.sees(two, two.unit("shooter"), two.unit("raider-2"))


# --- O8.5 detection -----------------------------------------------------------------------------
def test_detection_ways_o8_5() -> None:
    far = fog(shooter(), raider(15))
    s, r = far.unit("shooter"), far.unit("raider-2")
    assert detection.detection_of(far, s, r) is None
    assert not detection.detects(far, s, r)
    hot = far.with_unit(attrs.evolve(r, radiating="stress"))
    assert detection.detection_of(hot, s, hot.unit("raider-2")) == "thermal"
    cold = hot.with_unit(attrs.evolve(hot.unit("raider-2"), shutdown=True))
    assert detection.detection_of(cold, s, cold.unit("raider-2")) is None  # shut down: cold
    flash = far.with_unit(attrs.evolve(r, revealed_to=("player",)))
    assert detection.detection_of(flash, s, flash.unit("raider-2")) == "revealed"
    linked = attrs.evolve(far, uplinks=(Uplink(side="player", target="raider-2", user="x"),))
    assert detection.detection_of(linked, s, r) == "designated"
    bumped = far.with_unit(attrs.evolve(s, bumped=("raider-2",)))
    assert detection.detection_of(bumped, bumped.unit("shooter"), r) == "bumped"


def test_off_module_detects_everything() -> None:
    b = battle(shooter(), raider(13), rows=("." * 14,) * 3)
    assert detection.detects(b, b.unit("shooter"), b.unit("raider-2"))
    assert detection.attack_refusal(b, b.unit("shooter"), b.unit("raider-2")) is None


# --- O8.2 radiating and the O8 example ---------------------------------------------------------
def test_o8_example() -> None:
    """Ghost's Enforcer (output 17) at stress 9 >= ceil(17/2) = 9 radiates all round; a heavy
    12 hexes away with no clear line detects it thermally, no `radiating`; a Scout 7 hexes
    away with a clear line gets `radiating` +10."""
    from .test_damage import make_unit, weapon

    enforcer = make_unit("ghost", side="player", chassis="EN-50", pos=at(0), stress=9)
    assert stats.effective_output(enforcer) == 17
    heavy = make_unit(
        "heavy",
        chassis="WD-60",
        pos=at(12),
        weapons=(weapon("hac_10", "right_torso"),),
    )
    scout = make_unit(
        "scout", chassis="SC-20", pos=at(7, 0), weapons=(weapon("medium_laser", "right_torso"),)
    )
    # forest between the Enforcer and the heavy: 4 forest hexes on row 1 hide the line
    rows = ("." * 20, "." * 6 + "TTTT" + "." * 10, "." * 20)
    b = fog(enforcer, heavy, scout, rows=rows, round=1)
    b, events = detection.refresh_radiating(b)
    assert b.unit("ghost").radiating == "stress"
    assert [(e.unit, e.cause) for e in events if isinstance(e, detection.Radiating)] == [
        ("ghost", "stress")
    ]
    g = b.unit("ghost")
    assert not detection.sees(b, b.unit("heavy"), g)
    assert detection.detection_of(b, b.unit("heavy"), g) == "thermal"
    hc = hit_chance(b, b.unit("heavy"), g, b.unit("heavy").weapons[0])
    assert hc is not None and hc.value("radiating") is None
    assert detection.sees(b, b.unit("scout"), g)
    hs = hit_chance(b, b.unit("scout"), g, b.unit("scout").weapons[0])
    assert hs is not None and hs.value("radiating") == 10
    # the Enforcer cannot target the heavy (12 hexes, no line): not detected
    assert not detection.detects(b, g, b.unit("heavy"))
    # at stress 8 it is cold
    cool = b.with_unit(attrs.evolve(g, stress=8))
    cool, _ = detection.refresh_radiating(cool)
    assert cool.unit("ghost").radiating == ""


# --- O8.6 targeting ------------------------------------------------------------------------------
def test_fire_needs_detection() -> None:
    b = fog(shooter(), raider(11))  # the Autocannon-5 reaches 14 (long), but sight is 10
    s, r = b.unit("shooter"), b.unit("raider-2")
    assert hit_chance(battle(s, r, rows=WIDE), s, r, s.weapons[AC5]) is not None  # O8 off
    assert hit_chance(b, s, r, s.weapons[AC5]) is None
    assert check_fire(b, s, 3, "raider-2", None) == "SHOOTER does not detect RAIDER-2"
    near = fog(shooter(), raider(10))
    assert hit_chance(near, near.unit("shooter"), near.unit("raider-2"), s.weapons[AC5])


def test_overwatch_takes_nearest_detected() -> None:
    # R4: the raider at 11 is nearer than the one at 14, but only the far one radiates
    from .test_damage import make_unit

    far = make_unit("far", pos=at(14), radiating="jump")
    b = fog(shooter(), raider(11), far)
    chosen = overwatch_target(b, b.unit("shooter"), 3)  # the Autocannon-5's group
    assert chosen is not None and chosen.id == "far"


def test_spotter_must_see_and_sensor_array_cut() -> None:
    from .test_damage import make_unit

    # the spotter at column 14, the target at 17: 3 apart, clear line
    spot = make_unit("spot", side="player", chassis="RD-30", pos=at(14))
    target = raider(17, radiating="stress")  # detected by the shooter thermally
    b = fog(shooter(pos=at(4)), spot, target)
    found = spotter(b, b.unit("shooter"), b.unit("raider-2"))
    assert found is not None and found.id == "spot"
    hc = hit_chance(b, b.unit("shooter"), b.unit("raider-2"), b.unit("shooter").weapons[LRM])
    assert hc is not None
    # smoke on the target's hex and the spotter's: 20, the spotter does not see: no spotter
    hidden = attrs.evolve(b, smoke=(Smoke(hex=at(14), rounds=1), Smoke(hex=at(17), rounds=1)))
    assert spotter(hidden, hidden.unit("shooter"), hidden.unit("raider-2")) is None
    arr = b.with_unit(attrs.evolve(b.unit("spot"), equipment=(gear("sensor_array"),)))
    assert detection.spotter_cut(arr, arr.unit("spot")) == 5


# --- O8.8 bumping and O8.9 pull-back ----------------------------------------------------------
def test_bump_stops_the_mover() -> None:
    b = fog(shooter(ap=2), raider(2), round=1)
    b = attrs.evolve(b, order=("shooter", "raider-2"), turn=0)
    s = b.unit("shooter")
    # planned on the side's view: the raider's hex is not known to be taken
    b = attrs.evolve(b, contacts=())
    plan = check_move(b, s, at(3), sprint=False)
    assert not isinstance(plan, str), plan
    out = do_move(b, s, at(3), sprint=False)
    assert not isinstance(out, str)
    moved, events = out
    assert moved.unit("shooter").pos == at(1)
    assert moved.unit("shooter").bumped == ("raider-2",)
    assert moved.unit("shooter").energy_used == plan.energy  # paid in full
    assert isinstance(events[-1], detection.Bumped)
    assert detection.detection_of(moved, moved.unit("shooter"), moved.unit("raider-2")) == "sight"
    # the plan ran straight through the raider's hex, which the side did not know was taken;
    # with O8 off that hex is occupied and the way round is too long for this move
    assert at(2) in plan.path
    core = attrs.evolve(b, ruleset=())
    assert check_move(core, s, at(3), sprint=False) == "hex 3,1 is out of move range"


def test_pullback_without_knowledge_is_toward_own_edge() -> None:
    b = fog(shooter(pos=at(5)), raider(18))
    s = b.unit("shooter")
    assert detection.pullback(b, s, at(4))
    assert not detection.pullback(b, s, at(6))


# --- O8.12 contacts and last-known positions ---------------------------------------------------
def test_contacts_and_last_known() -> None:
    b = fog(shooter(), raider(8), round=2)
    b, events = detection.refresh_contacts(b)
    assert [(c.side, c.unit, c.how) for c in b.contacts] == [
        ("player", "raider-2", "sight"),
        ("enemy", "shooter", "sight"),
    ]
    assert {(e.side, e.unit) for e in events} == {("player", "raider-2"), ("enemy", "shooter")}
    away = b.with_unit(attrs.evolve(b.unit("raider-2"), pos=at(13)))
    away, events = detection.refresh_contacts(away)
    assert away.contacts == ()
    lost = [e for e in events if isinstance(e, detection.ContactLost)]
    assert {(e.side, e.unit, e.hex) for e in lost} == {
        ("player", "raider-2", at(13)),
        ("enemy", "shooter", at(0)),
    }
    assert [(lk.side, lk.unit, lk.hex, lk.round) for lk in away.last_known] == [
        ("enemy", "shooter", at(0), 2),
        ("player", "raider-2", at(13), 2),
    ]
    back = away.with_unit(attrs.evolve(away.unit("raider-2"), pos=at(9)))
    back, _ = detection.refresh_contacts(back)
    assert back.last_known == ()  # dropped while detected again
    dead = away.with_unit(attrs.evolve(away.unit("raider-2"), destroyed=True))
    dead, _ = detection.refresh_contacts(dead)
    assert [lk.unit for lk in dead.last_known] == ["shooter"]  # destruction announced


def test_reveal_lasts_until_its_next_activation() -> None:
    b = fog(shooter(), raider(15))
    b = detection.reveal(b, "raider-2", "player")
    assert detection.detection_of(b, b.unit("shooter"), b.unit("raider-2")) == "revealed"
    b = detection.activation_starts(b, "shooter")
    assert b.unit("raider-2").revealed_to == ("player",)
    b = detection.activation_starts(b, "raider-2")
    assert b.unit("raider-2").revealed_to == ()


# --- O8 with O10: the shared view -------------------------------------------------------------
def test_allies_share_the_view_not_the_targeting() -> None:
    """O0.3 (O10 with O8): the player's side detects what its allies see, for its screen and
    its moves, but a frame attacks only what it detects itself (O8.5: no sharing of targeting
    but by screening); a neutral is detected like an enemy."""
    from .test_damage import make_unit

    ally = attrs.evolve(make_unit("A1", side="player", pos=at(12)), side="ally")
    neutral = attrs.evolve(make_unit("N1", pos=at(19)), side="neutral")
    b = fog(shooter(), ally, raider(15), neutral)
    s, r = b.unit("shooter"), b.unit("raider-2")
    assert detection.side_detection(b, "player", r) == "sight"  # the ally, 3 away
    assert not detection.detects(b, s, r)  # the shooter, 15 away, does not
    assert detection.side_detection(b, "player", b.unit("N1")) == "sight"  # the ally, 7 away
    assert detection.side_detection(b, "enemy", b.unit("A1")) == "sight"
    far = b.with_unit(attrs.evolve(b.unit("N1"), pos=at(19, 0)))
    far = far.with_unit(attrs.evolve(far.unit("A1"), pos=at(5)))
    assert detection.side_detection(far, "player", far.unit("N1")) is None


def test_radiating_b_to_d_until_the_round_ends() -> None:
    """O8.2 (b) overload: energy spent past the effective output; (c) a vent; (d) a jump; each
    from the command that did it (ruling O8e), logged once; a new round's refresh clears it."""
    from mac_tui.combat.events import Moved, RoundStarted, Vented

    s = shooter()
    out = stats.effective_output(s)
    b = fog(s, raider(15), round=1)
    # (b): at the output exactly, not past it, it stays cold
    at_output = b.with_unit(attrs.evolve(s, energy_used=out))
    assert detection.update(at_output, ())[0].unit("shooter").radiating == ""
    over = b.with_unit(attrs.evolve(s, energy_used=out + 1))
    hot, events = detection.update(over, ())
    assert hot.unit("shooter").radiating == "overload"
    assert [e for e in events if isinstance(e, detection.Radiating)] == [
        detection.Radiating(unit="shooter", cause="overload")
    ]
    _, events = detection.update(hot, ())
    assert not [e for e in events if isinstance(e, detection.Radiating)]  # once a round
    vent = Vented(unit="raider-2", amount=3, stress=0)
    vented, _ = detection.update(b, (vent,))
    assert vented.unit("raider-2").radiating == "vent"
    jump = Moved(unit="raider-2", mode="jump", path=(at(15), at(13)), energy=0, pullback=False)
    jumped, _ = detection.update(b, (jump,))
    assert jumped.unit("raider-2").radiating == "jump"
    # a jump before the round's end does not carry into the next round
    later, _ = detection.update(b, (jump, RoundStarted(round=2, order=())))
    assert later.unit("raider-2").radiating == ""
    # the thermal contact: the shooter now detects the radiating raider, 15 hexes away
    assert [(c.side, c.unit, c.how) for c in jumped.contacts] == [("player", "raider-2", "thermal")]
    fresh, _ = detection.refresh_radiating(jumped)
    assert fresh.unit("raider-2").radiating == ""  # stress 0: cold at the next refresh


def test_reaction_and_sweep_need_detection() -> None:
    """O0.3 (O6 with O8): reaction fire and the sweep pass the same hit chance, so they too
    need the attacker to detect the target (O8.6)."""
    b = battle(shooter(), raider(11), rows=WIDE, ruleset=("O6", "O8"))
    s, r = b.unit("shooter"), b.unit("raider-2")
    for kind in ("reaction", "sweep"):
        assert hit_chance(b, s, r, s.weapons[AC5], reaction=kind) is None
    near = battle(shooter(), raider(10), rows=WIDE, ruleset=("O6", "O8"))
    seen = hit_chance(
        near, near.unit("shooter"), near.unit("raider-2"), s.weapons[AC5], reaction="reaction"
    )
    assert seen is not None


# --- O8 with O9: screening shares detection ------------------------------------------------------
def test_screening_shares_detection_and_hides_the_screened_from_thermals() -> None:
    """O0.3 (O9 with O8), O9.6: with Screen in effect a screened member may target whatever a
    screen detects (`shared`) and is never detected thermally; the screen itself gets nothing."""
    from mac_tui.combat.state import Formation

    from .test_damage import make_unit

    screen = make_unit("scr", side="player", pos=at(8))
    member = shooter(radiating="stress")  # at column 0, 15 from the raider
    b = battle(member, screen, raider(15), rows=WIDE, ruleset=("O8", "O9"))
    s, r = b.unit("shooter"), b.unit("raider-2")
    assert detection.detection_of(b, s, r) is None  # no Screen in effect yet
    assert detection.detection_of(b, r, s) == "thermal"
    screening = Formation(
        side="player", order="screen", screens=("scr",), effect="screen", effect_screens=("scr",)
    )
    b = b.with_formation(screening)
    assert detection.detection_of(b, s, r) == "shared"  # the screen, 7 away, sees it
    assert detection.detects(b, s, r)
    assert detection.detection_of(b, r, s) is None  # radiating, but screened
    # the screen radiating is seen thermally as ever; it shares nothing with itself
    hot = b.with_unit(attrs.evolve(b.unit("scr"), radiating="jump", pos=at(1)))
    assert detection.screens_of(hot, hot.unit("scr")) == ()
    assert detection.detection_of(hot, hot.unit("raider-2"), hot.unit("scr")) == "thermal"


def test_legless_frames_that_cannot_detect_each_other_are_a_stalemate() -> None:
    """Ruling O8i: R30 with O8 on counts an enemy a frame does not detect as out of its reach
    (it may attack only what it detects, O8.6, and frames that cannot move see nothing new).
    The shooter's Autocannon-5 reaches 14, the raider stands 11 away, past sight (10): no
    frame can attack, the battle ends; at 10 the shooter sees it and fires, so it goes on;
    with O8 off 11 is within reach."""
    from mac_tui.combat.flow import check_end, stalemate
    from mac_tui.combat.state import LEGS

    def legless(u: Any) -> Any:
        structure = list(u.structure)
        structure[LEGS] = 0
        return attrs.evolve(u, structure=tuple(structure))

    far = fog(legless(shooter()), legless(raider(11)), round=3)
    s, r = far.unit("shooter"), far.unit("raider-2")
    assert stats.longest_range(s) >= 11 and not detection.detects(far, s, r)
    found = stalemate(far)
    assert found is not None and [f[0] for f in found.frames] == ["shooter", "raider-2"]
    assert check_end(far)[0].result == "withdrawal"
    assert stalemate(fog(legless(shooter()), legless(raider(10)), round=3)) is None
    assert stalemate(battle(legless(shooter()), legless(raider(11)), rows=WIDE)) is None
