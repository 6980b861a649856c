"""Tests for mac_tui.combat.threat: what a frame can receive before its next activation.

The model is docs/rulings.md FC1 (the module docstring of `combat/threat.py`). The frame at
risk is test_preview.py's Vanguard ("shooter", the player's); the enemy a Raider with a Medium
Laser (group 1) and a Light Laser (group 2). Hand-made battles put the Raider before or after
the Vanguard in the round's order.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from mac_tui.catalog import catalog
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.forecast import forecast_attacks
from mac_tui.combat.state import Battle, Unit
from mac_tui.combat.threat import threat, threat_options

from .test_damage import set_loc, weapon
from .test_preview import OPEN_ROWS, at, battle, raider, shooter

CAT = catalog()
WIDE = ("." * 30,) * 3


def gunner(col: int = 5, row: int = 1, **changes: Any) -> Unit:
    return raider(
        col=col,
        row=row,
        weapons=(weapon("medium_laser", "right_torso"), weapon("light_laser", "head", group=2)),
        **changes,
    )


def player_then_enemy(rows: tuple[str, ...] = OPEN_ROWS, **enemy: Any) -> Battle:
    """The Vanguard acts now (turn 0); the Raider acts after it this round."""
    return battle(shooter(), gunner(**enemy), rows=rows)


def enemy_then_player(rows: tuple[str, ...] = OPEN_ROWS, **enemy: Any) -> Battle:
    """The Raider has acted; the Vanguard acts now: the Raider's next go is next round."""
    b = battle(gunner(**enemy), shooter(), rows=rows)
    return attrs.evolve(b, turn=1)


def test_an_enemy_after_the_frame_attacks_this_round_and_bracing_counts() -> None:
    b = player_then_enemy(ap=1)  # one AP: it can only fire one group, where it stands
    t = threat(b, "shooter")
    assert [(a.enemy, a.when) for a in t.attacks] == [("raider-2", "this round")]
    braced = threat(b, "shooter", braced=True)
    assert braced.braced and braced.attacks[0].when == "this round"
    brace = CAT.combat.accuracy.brace
    plain_chances = [c.chance for c in t.attacks[0].forecast.chances]
    assert [c.chance for c in braced.attacks[0].forecast.chances] == [
        c - brace for c in plain_chances
    ]
    assert braced.expected_damage < t.expected_damage


def test_the_combined_numbers_are_the_forecast_of_the_chosen_orders() -> None:
    b = player_then_enemy(ap=1)
    t = threat(b, "shooter")
    (attack,) = t.attacks
    f = forecast_attacks(b, attack.orders)
    assert t.expected_damage == pytest.approx(f.expected_damage)
    assert t.p_head_destroyed == pytest.approx(f.p_head_destroyed)
    assert t.p_center_torso_destroyed == pytest.approx(f.p_center_torso_destroyed)
    assert t.p_pilot_killed == pytest.approx(f.p_pilot_killed)
    assert t.p_out == pytest.approx(f.p_out)
    # With one AP the Raider's best is its Medium Laser: more damage than the Light Laser.
    assert [o.group for o in attack.orders] == [1]


def test_two_ap_the_worst_attack_for_the_frame() -> None:
    # A Medium Laser destroys the Vanguard's head (armour + structure < 10): a called head
    # shot (2 AP) puts it out 0.68 x 30% of the time, worth more than both groups' damage
    # (FC1: value = expected damage + p(out) x armour and structure left).
    b = player_then_enemy()
    (attack,) = threat(b, "shooter").attacks
    assert [(o.group, o.called) for o in attack.orders] == [(1, "head")]
    assert attack.forecast.p_pilot_killed == pytest.approx(0.68 * 0.30)
    # With a head that holds, both groups from where it stands are worth the most.
    sturdy = b.with_unit(set_loc(b.unit("shooter"), "head", armor=40))
    (attack,) = threat(sturdy, "shooter").attacks
    assert attack.move_to is None
    assert sorted((o.group, o.called) for o in attack.orders) == [(1, None), (2, None)]


def test_an_enemy_that_already_acted_comes_back_next_round_unbraced() -> None:
    b = enemy_then_player(ap=0)  # it spent its AP this round
    t = threat(b, "shooter")
    assert [a.when for a in t.attacks] == ["next round"]
    # Bracing ends with the round (D22): it does not help against next round's fire.
    assert threat(b, "shooter", braced=True).expected_damage == pytest.approx(t.expected_damage)


def test_the_frame_still_to_act_sees_only_who_comes_first() -> None:
    # The Raider acts now (turn 0), the Vanguard after it: the window ends at the
    # Vanguard's activation, so only the Raider's current activation counts.
    b = battle(gunner(), shooter(), rows=OPEN_ROWS)
    t = threat(b, "shooter")
    assert [a.when for a in t.attacks] == ["now"]


def test_cover_lowers_the_threat() -> None:
    forest = (OPEN_ROWS[0], "." * 5 + "T" + "." * 8, OPEN_ROWS[2])
    b_open = battle(gunner(col=0, ap=1), shooter(pos=at(5)), rows=OPEN_ROWS)
    b_forest = battle(gunner(col=0, ap=1), shooter(pos=at(5)), rows=forest)
    cover = CAT.terrain["forest"].defense
    t_open, t_forest = threat(b_open, "shooter"), threat(b_forest, "shooter")
    assert [c.chance for c in t_forest.attacks[0].forecast.chances] == [
        c.chance - cover for c in t_open.attacks[0].forecast.chances
    ]
    assert t_forest.expected_damage < t_open.expected_damage


def test_out_of_reach_means_no_threat() -> None:
    # Medium Laser and Light Laser reach 10 hexes; the Raider moves 4: 20 hexes is safe.
    b = battle(shooter(pos=at(20)), gunner(col=0), rows=WIDE)
    t = threat(b, "shooter")
    assert t.attacks == () and t.expected_damage == 0.0 and t.p_out == 0.0


def test_a_move_closes_the_range() -> None:
    # 12 hexes: out of range where it stands, in range after one Move (4 hexes).
    b = battle(shooter(pos=at(12)), gunner(col=0), rows=WIDE)
    (attack,) = threat(b, "shooter").attacks
    assert attack.move_to is not None and len(attack.orders) == 1


def test_overwatch_fires_at_the_end_of_the_round() -> None:
    b = enemy_then_player(ap=0, overwatch_group=1)
    t = threat(b, "shooter")
    assert [a.when for a in t.attacks] == ["overwatch", "next round"]
    ow = t.attacks[0]
    assert ow.overwatch and [o.group for o in ow.orders] == [1]
    expected = hit_chance(
        b, b.unit("raider-2"), b.unit("shooter"), b.unit("raider-2").weapons[0], overwatch=True
    )
    assert expected is not None
    assert [c.chance for c in ow.forecast.chances] == [expected.chance]


def test_threat_options_brace_and_cover() -> None:
    # Forest two hexes behind the Vanguard, in reach of one Move.
    rows = (OPEN_ROWS[0], "..T" + "." * 11, OPEN_ROWS[2])
    b = battle(shooter(pos=at(4)), gunner(col=9), rows=rows)
    options = {o.kind: o for o in threat_options(b, "shooter")}
    assert {"stay", "brace", "cover", "cover+brace"} <= set(options)
    stay = options["stay"].threat
    assert options["brace"].threat.expected_damage < stay.expected_damage
    assert options["cover"].move_to == at(2)
    assert options["cover+brace"].threat.expected_damage < options["cover"].threat.expected_damage


def test_a_frame_off_the_map_has_no_threat_to_compute() -> None:
    b = battle(shooter(pos=None), gunner(), rows=OPEN_ROWS)
    with pytest.raises(ValueError, match="not on the map"):
        threat(b, "shooter")
