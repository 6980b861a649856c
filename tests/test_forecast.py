"""Tests for mac_tui.combat.forecast: exact outcome distributions of attacks.

Three kinds of check:

* hand-computed cases (the arithmetic is in the comments);
* laws: the probabilities that partition the outcomes sum to 1, the mean damage is
  `preview.expected_damage` where both apply, the cache returns what a cold call computes;
* agreement with the engine: a large seeded Monte Carlo of the real `firing.fire` (which
  runs `attack.resolve_attack` and `damage.apply_damage` with dice) matches every forecast
  probability within 4 standard errors, for shots chosen to reach every chance node (marked
  ``montecarlo``: ``pytest -m "not montecarlo"`` skips them in a quick loop).

The usual shot is test_preview.py's: a Vanguard (gunnery 5) five hexes from a Raider (RD-30,
piloting 4: head armour 5, structure 2; survival 50 + 4 x 5 = 70%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import forecast, outcomes
from mac_tui.combat.events import Attacked
from mac_tui.combat.firing import do_fire
from mac_tui.combat.forecast import (
    AttackPlan,
    Forecast,
    RoundEnd,
    Shot,
    Step,
    forecast_attacks,
    forecast_group,
)
from mac_tui.combat.preview import fire_preview
from mac_tui.combat.state import Battle, Unit
from mac_tui.dice import Dice, RngState

from .test_damage import gear, set_loc, weapon
from .test_preview import OPEN_ROWS, at, battle, raider, shooter

CAT = catalog()
HEAD_SHARE = CAT.location("head").hit_weight / sum(
    CAT.location(loc).hit_weight for loc in LOCATION_ORDER
)


def laser_only(**changes: Any) -> Unit:
    """The Vanguard with one Medium Laser (10 damage) in group 1."""
    return shooter(weapons=(weapon("medium_laser", "right_torso"),), **changes)


def partitions_hold(f: Forecast) -> None:
    assert f.p_frame_destroyed + f.p_pilot_killed + f.p_fighting + f.residual == pytest.approx(
        1.0, abs=1e-12
    )
    assert f.p_out == pytest.approx(f.p_frame_destroyed + f.p_pilot_killed, abs=1e-12)
    assert sum(p for _, p in f.damage) + f.residual == pytest.approx(1.0, abs=1e-12)
    assert f.p_any_hit == pytest.approx(1.0 - dict(f.damage).get(0, 0.0), abs=1e-12)
    assert f.expected_damage == pytest.approx(sum(d * p for d, p in f.damage), abs=1e-9)
    assert all(-1e-12 <= p <= 1 + 1e-12 for p in f.p_destroyed.values())


# ---- hand-computed --------------------------------------------------------------------------
def test_one_laser_at_a_head_it_can_destroy() -> None:
    b = battle(laser_only(), raider(), rows=OPEN_ROWS)
    f = forecast_group(b, "shooter", 1, "raider-2")
    # 80 + 10 (gunnery 5) - 22 (Raider) + 10 (5 hexes, optimal) = 78% to hit.
    assert [c.chance for c in f.chances] == [78]
    # Any hit on the head (5%) destroys it (10 > 5 armour + 2 structure); the pilot then
    # survives 70% of the time: p = 0.78 x 0.05 x 0.30.
    assert f.p_pilot_killed == pytest.approx(0.78 * HEAD_SHARE * 0.30)
    assert f.p_destroyed["head"] == pytest.approx(0.78 * HEAD_SHARE)
    assert f.p_frame_destroyed == 0.0
    assert f.expected_damage == pytest.approx(7.8)
    assert f.damage == ((0, pytest.approx(0.22)), (10, pytest.approx(0.78)))
    # Nothing else can go: 10 damage never gets through the other locations' armour.
    assert all(p == 0.0 for loc, p in f.p_destroyed.items() if loc != "head")
    partitions_hold(f)


def test_called_head_shot() -> None:
    b = battle(laser_only(), raider(), rows=OPEN_ROWS)
    f = forecast_group(b, "shooter", 1, "raider-2", "head")
    # 78 - 15 (called shot) = 63%; every hit lands on the head.
    assert f.p_destroyed["head"] == pytest.approx(0.63)
    assert f.p_pilot_killed == pytest.approx(0.63 * 0.30)
    assert f.p_out == pytest.approx(0.63 * 0.30)
    partitions_hold(f)


def test_centre_torso_breach() -> None:
    # CT armour 0, structure 3: a CT hit (20%) breaches it, destroying the frame (§4.5).
    target = set_loc(raider(), "center_torso", armor=0, structure=3)
    b = battle(laser_only(), target, rows=OPEN_ROWS)
    f = forecast_group(b, "shooter", 1, "raider-2")
    ct_share = CAT.location("center_torso").hit_weight / 100
    assert f.p_frame_destroyed == pytest.approx(0.78 * ct_share)
    assert f.p_destroyed["center_torso"] == pytest.approx(0.78 * ct_share)
    # The head: 5% of hits, then 30% pilot deaths.
    assert f.p_pilot_killed == pytest.approx(0.78 * HEAD_SHARE * 0.30)
    partitions_hold(f)


def test_already_destroyed_location_counts_as_one() -> None:
    target = set_loc(raider(), "left_arm", armor=0, structure=0)
    f = forecast_group(battle(laser_only(), target, rows=OPEN_ROWS), "shooter", 1, "raider-2")
    assert f.p_destroyed["left_arm"] == 1.0


def test_point_defense_halves_missile_damage() -> None:
    smr = shooter(weapons=(weapon("small_missile_rack", "left_arm"),), pos=at(3))
    plain = forecast_group(battle(smr, raider(), rows=OPEN_ROWS), "shooter", 1, "raider-2")
    pd = raider(equipment=(gear("point_defense", "left_torso"),))
    guarded = forecast_group(battle(smr, pd, rows=OPEN_ROWS), "shooter", 1, "raider-2")
    assert plain.chances == guarded.chances
    assert guarded.p_any_hit == pytest.approx(plain.p_any_hit * 0.5)
    assert guarded.expected_damage == pytest.approx(plain.expected_damage * 0.5)


def test_ammo_explosion_and_its_transfer() -> None:
    # A called Flamer shot (2 damage) at a bare left arm (structure 3) holding a loaded
    # Machine Gun: 1 structure left, then the §4.3 roll. Only an Ammo Explosion (rows 25-29,
    # 5%) can destroy the arm: 10-24 internal damage, 1 absorbed, 9-23 passed to the left
    # torso (armour 0, structure 10), destroyed when it gets 10 or more: 14 of the 15 values.
    flamer = shooter(weapons=(weapon("flamer", "right_arm"),), pos=at(2))
    target = set_loc(
        set_loc(
            raider(weapons=(weapon("machine_gun", "left_arm"),)), "left_arm", armor=0, structure=3
        ),
        "left_torso",
        armor=0,
        structure=10,
    )
    f = forecast_group(battle(flamer, target, rows=OPEN_ROWS), "shooter", 1, "raider-2", "left_arm")
    c = f.chances[0].chance / 100
    assert f.p_destroyed["left_arm"] == pytest.approx(c * 0.05)
    assert f.p_destroyed["left_torso"] == pytest.approx(c * 0.05 * 14 / 15)
    assert f.p_destroyed["center_torso"] == 0.0
    # Damage landed is the Flamer's 2, not the explosion's.
    assert f.damage == ((0, pytest.approx(1 - c)), (2, pytest.approx(c)))


def test_preview_expected_damage_agrees() -> None:
    # A target that cannot go down (21 damage in the group; head and centre torso given 30
    # armour): every shot of the group fires, so the mean is the preview's 11.08.
    sturdy = set_loc(set_loc(raider(), "head", armor=30), "center_torso", armor=30)
    b = battle(shooter(), sturdy)
    f = forecast_group(b, "shooter", 1, "raider-2")
    assert f.expected_damage == pytest.approx(
        fire_preview(b, b.unit("shooter"), 1, "raider-2").expected
    )
    partitions_hold(f)


def test_preview_overstates_when_the_target_can_go_down() -> None:
    # CT at 1 structure: the first CT hit downs the frame and the rest of the group is
    # skipped (`firing.fire`), which the preview's per-weapon sum does not know.
    target = set_loc(raider(), "center_torso", armor=0, structure=1)
    b = battle(shooter(), target)
    f = forecast_group(b, "shooter", 1, "raider-2")
    assert f.expected_damage < fire_preview(b, b.unit("shooter"), 1, "raider-2").expected - 0.1


def test_two_orders_in_sequence() -> None:
    # Two single-laser shots at 78%: hits are independent, but a second head hit finds the
    # head gone (no second survival roll) and a dead pilot's frame draws no more fire.
    twin = laser_only(id="twin", label="TWIN", pos=at(0, 2))
    b = battle(laser_only(), twin, raider(), rows=OPEN_ROWS)
    f = forecast_attacks(
        b, [AttackPlan("shooter", 1, "raider-2"), AttackPlan("twin", 1, "raider-2")]
    )
    miss, head = 0.22, 0.78 * HEAD_SHARE
    killed = head * 0.30  # the first shot kills the pilot: the second is never fired
    assert f.damage == (
        (0, pytest.approx(miss**2)),
        (10, pytest.approx(2 * 0.78 * miss + killed * 0.78)),
        (20, pytest.approx((0.78 - killed) * 0.78)),
    )
    assert f.p_destroyed["head"] == pytest.approx(1 - (1 - head) ** 2)
    assert f.p_pilot_killed == pytest.approx((1 - (1 - head) ** 2) * 0.30)
    partitions_hold(f)
    # The same two lasers as two groups of one frame: the engine pays the first order's AP
    # and energy before the second; the outcome is the same.
    both = shooter(
        weapons=(
            weapon("medium_laser", "right_torso"),
            weapon("medium_laser", "left_torso", group=2),
        )
    )
    b2 = battle(both, raider(), rows=OPEN_ROWS)
    g = forecast_attacks(
        b2, [AttackPlan("shooter", 1, "raider-2"), AttackPlan("shooter", 2, "raider-2")]
    )
    assert dict(g.damage) == pytest.approx(dict(f.damage))
    assert g.p_pilot_killed == pytest.approx(f.p_pilot_killed)


def test_orders_must_share_a_target_and_be_legal() -> None:
    b = battle(laser_only(), raider(), raider("raider-3", row=2), rows=OPEN_ROWS)
    with pytest.raises(ValueError, match="same target"):
        forecast_attacks(
            b, [AttackPlan("shooter", 1, "raider-2"), AttackPlan("shooter", 1, "raider-3")]
        )
    with pytest.raises(ValueError, match="already fired"):
        forecast_attacks(
            b, [AttackPlan("shooter", 1, "raider-2"), AttackPlan("shooter", 1, "raider-2")]
        )


def test_cached_equals_cold() -> None:
    b = battle(shooter(), raider())
    warm = forecast_group(b, "shooter", 1, "raider-2")
    forecast.clear_cache()
    assert forecast_group(b, "shooter", 1, "raider-2") == warm


# ---- agreement with the engine: seeded Monte Carlo ------------------------------------------
def monte_carlo(
    b: Battle, plans: Sequence[AttackPlan], runs: int, first_seed: int
) -> dict[str, Any]:
    """Carry ``plans`` out ``runs`` times with the real engine (`firing.do_fire`: check,
    AP, energy, ammo, `resolve_attack`, `apply_damage`), each run on its own dice seed; count
    what the forecast predicts."""
    target_id = plans[0].target
    damage: dict[int, int] = {}
    destroyed = dict.fromkeys(LOCATION_ORDER, 0)
    frame = pilot = 0
    for seed in range(first_seed, first_seed + runs):
        dice = Dice(RngState(seed))
        state = b
        landed = 0
        for plan in plans:
            out = do_fire(
                state, state.unit(plan.attacker), plan.group, target_id, plan.called, dice
            )
            if isinstance(out, str):  # the target is down: the engine refuses the order
                assert not state.unit(target_id).active, out
                continue
            state, events = out
            landed += sum(
                e.result.damage.total
                for e in events
                if isinstance(e, Attacked) and e.result.damage is not None
            )
        t = state.unit(target_id)
        damage[landed] = damage.get(landed, 0) + 1
        for loc in LOCATION_ORDER:
            destroyed[loc] += t.location_destroyed(loc)
        frame += t.destroyed
        pilot += not t.pilot_alive and not t.destroyed
    return {"damage": damage, "destroyed": destroyed, "frame": frame, "pilot": pilot}


def within(p: float, hits: int, runs: int, what: str) -> None:
    """The observed count agrees with probability ``p`` within 4 standard errors; a
    probability of exactly 0 or 1 must be observed exactly."""
    if p <= 1e-12 or p >= 1 - 1e-12:
        assert hits == round(p) * runs, f"{what}: forecast {p}, observed {hits}/{runs}"
        return
    se = math.sqrt(p * (1 - p) / runs)
    assert abs(hits / runs - p) <= 4 * se + 1e-9, (
        f"{what}: forecast {p:.5f}, observed {hits / runs:.5f} ({hits}/{runs}), 4 SE {4 * se:.5f}"
    )


def agrees(b: Battle, plans: Sequence[AttackPlan], runs: int, first_seed: int) -> Forecast:
    f = forecast_attacks(b, plans)
    partitions_hold(f)
    assert f.residual == 0.0
    mc = monte_carlo(b, plans, runs, first_seed)
    for loc in LOCATION_ORDER:
        within(f.p_destroyed[loc], mc["destroyed"][loc], runs, f"{loc} destroyed")
    within(f.p_frame_destroyed, mc["frame"], runs, "frame destroyed")
    within(f.p_pilot_killed, mc["pilot"], runs, "pilot killed")
    forecast_damage = dict(f.damage)
    assert set(mc["damage"]) <= set(forecast_damage), "a damage total the forecast calls impossible"
    for value, p in forecast_damage.items():
        within(p, mc["damage"].get(value, 0), runs, f"damage {value}")
    sd = math.sqrt(sum(p * (d - f.expected_damage) ** 2 for d, p in f.damage))
    mean = sum(d * n for d, n in mc["damage"].items()) / runs
    assert abs(mean - f.expected_damage) <= 4 * sd / math.sqrt(runs) + 1e-9
    return f


def battered(uid: str = "raider-2", **changes: Any) -> Unit:
    """A Raider that has been in a fight: little armour left, loaded ammunition in an arm
    and a torso (ammo explosions), weapons to lose, so most hits roll components."""
    unit = raider(
        uid,
        weapons=(
            weapon("machine_gun", "left_arm"),
            weapon("autocannon_5", "right_torso"),
            weapon("medium_laser", "left_torso"),
            weapon("light_laser", "head"),
        ),
        **changes,
    )
    return attrs.evolve(unit, armor=(2, 4, 0, 3, 0, 2, 6))


#: (name, battle, plans): every chance node of the forecast is reached by some case.
SHOTS: list[tuple[str, Battle, list[AttackPlan]]] = [
    (
        "plain",
        battle(shooter(), battered(), rows=OPEN_ROWS),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
    (
        "called head",
        battle(shooter(), raider(), rows=OPEN_ROWS),
        [AttackPlan("shooter", 1, "raider-2", "head")],
    ),
    ("forest cover", battle(shooter(), battered()), [AttackPlan("shooter", 1, "raider-2")]),
    (
        "braced",
        battle(shooter(), battered(braced=True), rows=OPEN_ROWS),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
    (
        "reactive armour",
        battle(
            shooter(),
            battered(equipment=(gear("reactive_armor"),)),
            rows=OPEN_ROWS,
        ),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
    (
        "point defence",
        battle(
            shooter(
                weapons=(
                    weapon("small_missile_rack", "left_arm"),
                    weapon("small_missile_rack", "right_arm"),
                    weapon("small_missile_rack", "left_torso"),
                ),
                pos=at(3),
            ),
            # The PDS sits in the bare left arm: destroying it stops the next intercepts.
            battered(equipment=(gear("point_defense", "left_arm"),)),
            rows=OPEN_ROWS,
        ),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
    (
        "stealth lost mid-group",
        battle(
            shooter(pos=at(3)),
            set_loc(
                battered(equipment=(gear("stealth_plating", "left_torso"),)),
                "left_torso",
                structure=2,
            ),
            rows=OPEN_ROWS,
        ),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
    (
        "barrier",
        battle(shooter(), battered(barrier=12), rows=OPEN_ROWS),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
    (
        "two attacks in sequence",
        battle(
            shooter(),
            shooter(id="second", label="SECOND", pos=at(0, 2)),
            battered(),
            rows=OPEN_ROWS,
        ),
        [AttackPlan("shooter", 1, "raider-2"), AttackPlan("second", 1, "raider-2", "head")],
    ),
    (
        "one frame, two groups",
        battle(shooter(pos=at(3)), battered(), rows=OPEN_ROWS),
        [AttackPlan("shooter", 1, "raider-2"), AttackPlan("shooter", 2, "raider-2")],
    ),
    (
        "ammo explosion",
        battle(
            shooter(pos=at(3)),
            set_loc(set_loc(battered(), "left_arm", structure=12), "left_torso", structure=3),
            rows=OPEN_ROWS,
        ),
        [AttackPlan("shooter", 1, "raider-2", "left_arm")],
    ),
    (
        "nearly destroyed",
        battle(
            shooter(),
            attrs.evolve(battered(), armor=(0, 0, 0, 0, 0, 0, 0), structure=(1, 3, 2, 2, 1, 1, 4)),
            rows=OPEN_ROWS,
        ),
        [AttackPlan("shooter", 1, "raider-2")],
    ),
]


@pytest.mark.montecarlo
@pytest.mark.parametrize(("name", "b", "plans"), SHOTS, ids=[s[0] for s in SHOTS])
def test_forecast_matches_the_engine(name: str, b: Battle, plans: list[AttackPlan]) -> None:
    seed = 1_000_003 * (1 + [s[0] for s in SHOTS].index(name))
    agrees(b, plans, 2500, seed)


# ---- the canonical forms lose nothing -------------------------------------------------------
def _targets() -> st.SearchStrategy[Unit]:
    """Raiders in every state of repair, with weapons (some loaded) to lose or explode."""
    return st.builds(
        lambda armor, structure, extra: attrs.evolve(
            battered(), armor=tuple(armor), structure=tuple(structure), equipment=extra
        ),
        st.lists(st.integers(0, 12), min_size=7, max_size=7),
        st.lists(st.integers(0, 7), min_size=7, max_size=7).filter(lambda s: s[1] > 0 and s[0] > 0),
        st.sampled_from([(), (gear("reactive_armor"),), (gear("point_defense", "left_arm"),)]),
    )


def _shots() -> st.SearchStrategy[list[Step]]:
    shot = st.builds(
        lambda damage, missile, called, chance: Shot(damage, missile, called, (), (chance,)),
        st.sampled_from([2, 5, 6, 8, 10, 20]),
        st.booleans(),
        st.sampled_from([-1, -1, -1, 0, 1, 4]),
        st.integers(5, 95),
    )
    return st.lists(st.one_of(shot, st.just(RoundEnd())), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(target=_targets(), steps=_shots())
def test_canonical_forms_change_no_answer(target: Unit, steps: list[Step]) -> None:
    """The walk with its canonical forms (`outcomes._canon`) gives the answers of the walk
    that tracks every state in full, and the threat's short walk the same threat answers."""
    outcomes.clear_cache()
    fast = outcomes.walk(target, steps)
    quick = outcomes.walk(target, steps, full=False)
    outcomes.clear_cache()
    original = outcomes._canon
    try:
        outcomes._canon = lambda sid, cid: sid  # type: ignore[assignment]
        slow = outcomes.walk(target, steps)
    finally:
        outcomes._canon = original
        outcomes.clear_cache()
    assert fast.p_destroyed == pytest.approx(slow.p_destroyed, abs=1e-12)
    assert fast.p_frame_destroyed == pytest.approx(slow.p_frame_destroyed, abs=1e-12)
    assert fast.p_pilot_killed == pytest.approx(slow.p_pilot_killed, abs=1e-12)
    assert dict(fast.damage) == pytest.approx(dict(slow.damage), abs=1e-12)
    assert fast.expected_loss == pytest.approx(slow.expected_loss, abs=1e-9)
    if quick.sampled:  # past THREAT_STATES the short walk samples: exact only within its bound
        _assert_within_bound(quick, slow)
        return
    for i in (LOCATION_ORDER.index("head"), LOCATION_ORDER.index("center_torso")):
        assert quick.p_destroyed[i] == pytest.approx(slow.p_destroyed[i], abs=1e-12)
    assert quick.p_frame_destroyed == pytest.approx(slow.p_frame_destroyed, abs=1e-12)
    assert quick.p_pilot_killed == pytest.approx(slow.p_pilot_killed, abs=1e-12)
    assert quick.expected_damage == pytest.approx(slow.expected_damage, abs=1e-9)


def _assert_within_bound(sampled: outcomes.Summary, exact: outcomes.Summary) -> None:
    """A sampled walk's threat answers lie within ``residual`` (four standard errors) of the
    exact ones, its expected damage within four standard errors of the mean."""
    bound = sampled.residual
    for i in (LOCATION_ORDER.index("head"), LOCATION_ORDER.index("center_torso")):
        assert abs(sampled.p_destroyed[i] - exact.p_destroyed[i]) <= bound
    assert abs(sampled.p_frame_destroyed - exact.p_frame_destroyed) <= bound
    assert abs(sampled.p_pilot_killed - exact.p_pilot_killed) <= bound
    sd = math.sqrt(sum(p * (d - exact.expected_damage) ** 2 for d, p in exact.damage))
    assert (
        abs(sampled.expected_damage - exact.expected_damage)
        <= 4 * sd / math.sqrt(sampled.sampled) + 1e-9
    )


@settings(max_examples=8, deadline=None, derandomize=True)
@given(target=_targets(), steps=_shots())
def test_sampled_threat_answers_are_within_their_bound(target: Unit, steps: list[Step]) -> None:
    """Past `THREAT_STATES` the threat's walk samples the same model; its answers then lie
    within ``residual`` (four standard errors) of the exact ones."""
    assume(any(isinstance(step, Shot) for step in steps))
    outcomes.clear_cache()
    exact = outcomes.walk(target, steps)
    outcomes.clear_cache()
    limit = outcomes.THREAT_STATES
    try:
        outcomes.THREAT_STATES = -1  # type: ignore[misc]
        sampled = outcomes.walk(target, steps, full=False)
    finally:
        outcomes.THREAT_STATES = limit  # type: ignore[misc]
        outcomes.clear_cache()
    assert sampled.sampled == outcomes.SAMPLES
    _assert_within_bound(sampled, exact)
