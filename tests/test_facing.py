"""Optional module O4, Facing and arcs (optional-rules.md O4.1-O4.11), rule by rule.

The map is hand-drawn: nine rows of fourteen Open hexes. Positions are axial; the comments
give each vector v = X - P in cube coordinates (q, r, s) as the rules do. Expected numbers are
worked out by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import facing
from mac_tui.combat.attack import hit_chance, resolve_attack
from mac_tui.combat.firing import OUT_OF_ARC, check_fire, overwatch_target, plan_fire
from mac_tui.combat.state import Battle, Unit
from mac_tui.hexgrid import Hex

from .test_damage import ScriptedDice, comp, d100, make_unit, weapon
from .test_elevation import battle_on

CAT = catalog()
O4 = ("O4",)
ROWS = ("." * 14,) * 9
E, NE, NW, W, SW, SE = range(6)
ENFORCER_AT = Hex(5, 4)


def battle(*units: Unit, rules: tuple[str, ...] = O4, **kw: Any) -> Battle:
    """A battle in combat on open flat ground, played under `rules`."""
    return battle_on(ROWS, (0,) * (9 * 14), *units, rules=rules, **kw)


def enforcer(facing_: int | None = E, **changes: Any) -> Unit:
    """The example's Enforcer (evasion 13): AC-5 on the left arm (group 1), Medium Laser on the
    right torso (group 1), Light Laser in the head (group 2)."""
    return make_unit(
        "enforcer",
        side="enemy",
        chassis="EN-50",
        weapons=(
            weapon("autocannon_5", "left_arm"),
            weapon("medium_laser", "right_torso"),
            weapon("light_laser", "head", group=2),
        ),
        **{"pos": ENFORCER_AT, "facing": facing_, **changes},
    )


def falcon(pos: Hex, facing_: int | None = E, **changes: Any) -> Unit:
    """Falcon (gunnery 5, +10) in her Raider with a Medium Laser on the right arm."""
    return make_unit(
        "falcon",
        side="player",
        chassis="RD-30",
        gunnery=5,
        weapons=(weapon("medium_laser", "right_arm"),),
        **{"pos": pos, "facing": facing_, **changes},
    )


def off(v: tuple[int, int, int], p: Hex = ENFORCER_AT) -> Hex:
    """The hex at cube vector v from p."""
    return Hex(p.q + v[0], p.r + v[1])


# --- data (O4.8, O4.9) ------------------------------------------------------------------------
def test_every_number_of_o4_is_data_with_its_rule_id() -> None:
    f = CAT.facing
    assert f.module == "O4"
    assert (f.deployment.rule, f.deployment.player, f.deployment.enemy) == ("O4.1", "E", "W")
    assert (f.move.rule, f.move.spread) == ("O4.2", 1)
    assert (f.reverse.rule, f.reverse.steps) == ("O4.3", (2, 3, 4))
    assert (f.pivot.rule, f.pivot.hexsides, f.pivot.ap, f.pivot.energy) == ("O4.5", 1, 0, 0)
    assert (f.turn.rule, f.turn.ap, f.turn.energy) == ("O4.6", 1, 0)
    assert (f.rear.rule, f.rear.modifier) == ("O4.9", 10)
    assert {m.location: set(m.arcs) for m in f.mount} == {
        "head": {"front"},
        "center_torso": {"front"},
        "left_torso": {"front"},
        "right_torso": {"front"},
        "left_arm": {"front", "left"},
        "right_arm": {"front", "right"},
    }
    rows = {t.arc: tuple(t.weight(loc) for loc in LOCATION_ORDER) for t in f.hit_table}
    assert rows == {  # O4.9's table, HD CT LT RT LA RA LG
        "front": (5, 20, 15, 15, 10, 10, 25),
        "left": (4, 12, 26, 6, 22, 4, 26),
        "right": (4, 12, 6, 26, 4, 22, 26),
        "rear": (2, 30, 18, 18, 6, 6, 20),
    }


@pytest.mark.parametrize("arc", ["front", "left", "right", "rear"])
def test_each_arc_hit_table_sums_to_100(arc: str) -> None:
    assert sum(w for _, w in facing.hit_weights(arc)) == 100


def test_the_front_table_is_the_core_table() -> None:
    core = tuple((loc.id, loc.hit_weight) for loc in CAT.combat.location)
    assert facing.hit_weights("front") == core


# --- O4.7 arcs of an attack, O4.9 rear ----------------------------------------------------------
def test_the_o4_example_rear_arc_92_and_the_rear_table() -> None:
    # v = (-3, 0, 3) from the Enforcer facing E: c = 3 > b = 0 > a = -3, the rear arc.
    raider = falcon(off((-3, 0, 3)))
    b = battle(raider, enforcer(E))
    assert facing.attack_arc(b, raider, b.unit("enforcer")) == "rear"
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0])
    assert hc is not None
    # base 80, gunnery +10, evasion -13, range +5 (3 hexes, medium), rear +10 = 92
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("base", 80),
        ("gunnery", 10),
        ("evasion", -13),
        ("range", 5),
        ("rear", 10),
    ]
    assert hc.chance == 92
    # A hit rolls on the Rear row: a location draw of 2 (0-based) is past HD 2: the CT (30).
    dice = ScriptedDice(d100(40), d100(99), (100, 2))
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice)
    assert result.arc == "rear" and result.hit and result.location == "center_torso"


def test_the_same_draw_on_the_front_table_is_the_head() -> None:
    # v = (3, 0, -3): straight ahead of the Enforcer; the draw of 2 is under HD's 5 (the head's
    # armour is thin: the hit reaches structure and rolls a component).
    raider = falcon(off((3, 0, -3)), facing_=W)
    b = battle(raider, enforcer(E))
    dice = ScriptedDice(d100(40), d100(99), (100, 2), comp("no_effect"))
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice)
    assert result.arc == "front" and result.location == "head"
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0])
    assert hc is not None and hc.value("rear") is None


def test_a_called_shot_keeps_its_location_and_rear() -> None:
    raider = falcon(off((-3, 0, 3)))
    b = battle(raider, enforcer(E))
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0], called_shot=True)
    assert hc is not None and hc.value("rear") == 10 and hc.value("called shot") is not None
    dice = ScriptedDice(d100(10), d100(99))  # no location draw: the called one is kept
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice, called_location="legs")
    assert result.location == "legs" and result.arc == "rear" and dice.done


def test_with_o4_off_nothing_changes() -> None:
    raider = falcon(off((-3, 0, 3)), facing_=None)
    b = battle(raider, enforcer(None), rules=())
    assert facing.attack_arc(b, raider, b.unit("enforcer")) is None
    hc = hit_chance(b, raider, b.unit("enforcer"), raider.weapons[0])
    assert hc is not None and hc.chance == 82 and hc.value("rear") is None
    dice = ScriptedDice(d100(40), d100(99), (100, 2), comp("no_effect"))
    _, result = resolve_attack(b, "falcon", "enforcer", 0, dice)
    assert result.arc is None and result.location == "head"
    enf = b.unit("enforcer")
    assert all(facing.bears(b, enf, ws, raider.pos) for ws in enf.weapons)  # type: ignore[arg-type]


# --- O4.8 mount arcs ------------------------------------------------------------------------------
def test_the_o4_example_reply_only_the_left_arm_bears() -> None:
    # Falcon at v = (0, -3, 3): not front (c > 0), not rear, b < 0: the Enforcer's left side.
    raider = falcon(off((0, -3, 3)))
    b = battle(raider, enforcer(E))
    enf = b.unit("enforcer")
    assert facing.attack_arc(b, enf, raider) is not None
    assert [facing.bears(b, enf, ws, raider.pos) for ws in enf.weapons] == [  # type: ignore[arg-type]
        True,  # AC-5, left arm: front + left
        False,  # Medium Laser, right torso: front only
        False,  # Light Laser, head
    ]
    plan = plan_fire(b, enf, 1, raider, False)
    assert plan.shots == (0,) and plan.skipped == ((1, OUT_OF_ARC),)
    refused = check_fire(b, enf, 2, "falcon", None)
    assert refused == f"no weapon of group 2 can fire at FALCON: {OUT_OF_ARC}"
    # A free pivot to NE normalises v to (3, -3, 0): front, and all its weapons bear.
    turned = b.with_unit(facing_of(enf, NE))
    enf = turned.unit("enforcer")
    assert all(facing.bears(turned, enf, ws, raider.pos) for ws in enf.weapons)  # type: ignore[arg-type]


def facing_of(u: Unit, f: int) -> Unit:
    return attrs.evolve(u, facing=f)


def test_the_right_arm_bears_right_not_left() -> None:
    # Facing E, v = (0, 3, -3) (SE of the frame): a = 0, c = -3: front? a >= 0 and c <= 0: yes.
    # v = (-3, 3, 0): a = -3, b = 3 > 0 and not rear (c = 0 is not > b): the right side.
    right = off((-3, 3, 0))
    left = off((0, -3, 3))
    u = make_unit(
        "u",
        pos=ENFORCER_AT,
        facing=E,
        weapons=(weapon("light_laser", "right_arm"), weapon("light_laser", "left_arm")),
    )
    b = battle(u)
    assert [facing.bears(b, u, ws, right) for ws in u.weapons] == [True, False]
    assert [facing.bears(b, u, ws, left) for ws in u.weapons] == [False, True]
    behind = off((-3, 0, 3))
    assert not any(facing.bears(b, u, ws, behind) for ws in u.weapons)


def test_overwatch_takes_the_nearest_enemy_in_arc() -> None:
    # The Enforcer's group 2 (head: front only): Falcon 2 hexes behind, another Raider 4 ahead.
    behind = falcon(off((-2, 0, 2)))
    ahead = make_unit("ahead", side="player", pos=off((4, 0, -4)), facing=W)
    b = battle(behind, ahead, enforcer(E))
    target = overwatch_target(b, b.unit("enforcer"), 2)
    assert target is not None and target.id == "ahead"
    core = battle(behind, ahead, enforcer(E), rules=())
    target = overwatch_target(core, core.unit("enforcer"), 2)
    assert target is not None and target.id == "falcon"
