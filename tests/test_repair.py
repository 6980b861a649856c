"""Repairs (§11.2, §11.3, R19, R20): hand-computed costs and days, rush, rebuilds, the 5%
threshold, and the `repair` command as a player uses it.

RepairCost = ChassisPrice x 0.30 x DamageRatio + ComponentDamageCount x 5,000, rounded down;
RepairTime = DamageRatio x 5 days, rounded up, at least 1; rush = 2x cost, half the days
rounded up; destroyed = full chassis price, 7 days. DamageRatio = missing armour / full armour.
Prices (§11.1): Light 100,000, Medium 200,000. Armour: EN-50 110, VG-45 100, RD-30 70.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
from hypothesis import given
from hypothesis import strategies as st

from mac_tui.campaign import ledger
from mac_tui.campaign.market import fresh_frame
from mac_tui.campaign.repair import (
    Quote,
    damage_ratio,
    damage_ratio_percent,
    frame_status_after_battle,
    needs_repair,
    plan_repair,
    repair_quote,
)
from mac_tui.campaign.state import Campaign, Contract, Frame, Mission
from mac_tui.catalog import catalog
from mac_tui.combat.stats import armor_split, full_structure
from mac_tui.game import Accepted, Refused, parse_command, step
from mac_tui.model import GameState, initial_state

START_CREDITS = 500_000
HALF_ENFORCER = (4, 11, 8, 8, 6, 6, 12)  # 55 of 110 armour left


# ---- helpers ---------------------------------------------------------------------------
def frame(chassis: str = "EN-50", **changes: Any) -> Frame:
    return attrs.evolve(fresh_frame("F9", chassis, catalog().chassis[chassis].name), **changes)


def missing(chassis: str, n: int) -> tuple[int, ...]:
    """Full armour with `n` points taken off, from the legs first, then the others."""
    parts = list(armor_split(catalog().chassis[chassis]))
    for i in reversed(range(len(parts))):
        take = min(n, parts[i])
        parts[i] -= take
        n -= take
    return tuple(parts)


def new_game(seed: int = 3) -> GameState:
    out = step(initial_state(seed), parse_command("new-campaign Repairs"))
    assert isinstance(out, Accepted)
    return out.state


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def with_frame(state: GameState, frame_id: str, **changes: Any) -> GameState:
    c = camp(state)
    return attrs.evolve(state, campaign=c.with_frame(attrs.evolve(c.frame(frame_id), **changes)))


def run(state: GameState, line: str) -> Accepted:
    out = step(state, parse_command(line))
    assert isinstance(out, Accepted), getattr(out, "reason", out)
    return out


def refuse(state: GameState, line: str) -> str:
    out = step(state, parse_command(line))
    assert isinstance(out, Refused), f"{line!r} was accepted"
    return out.reason


# ---- cost and time (§11.2, §11.3) ----------------------------------------------------------
def test_enforcer_at_half_armour_with_two_components() -> None:
    f = frame(armor=HALF_ENFORCER, components=2)
    assert sum(HALF_ENFORCER) == 55
    assert damage_ratio(f) == Fraction(1, 2)
    assert damage_ratio_percent(f) == 50
    # 200,000 x 0.30 x 0.5 + 2 x 5,000 = 30,000 + 10,000 = 40,000.
    # 0.5 x 5 = 2.5 days, rounded up to 3.
    assert repair_quote(f) == Quote(cost=40_000, days=3)
    # Rush: 2 x 40,000 = 80,000; half of 3 days = 1.5, rounded up to 2.
    assert repair_quote(f, rush=True) == Quote(cost=80_000, days=2, rush=True)


def test_cost_rounds_down_to_whole_credits() -> None:
    # Raider, 1 of 70 armour missing: 100,000 x 0.30 x 1/70 = 428.57... -> 428; 5/70 day -> 1.
    f = frame("RD-30", armor=missing("RD-30", 1), structure=(2, 7, 5, 5, 3, 3, 5))
    assert repair_quote(f) == Quote(cost=428, days=1)


def test_days_round_up_with_a_minimum_of_one() -> None:
    # 22/110 = 0.2 -> exactly 1 day; 23/110 -> 1.045 -> 2 days. Costs: 200,000 x 0.3 x 0.2 =
    # 12,000; 60,000 x 23/110 = 12,545.45 -> 12,545.
    assert repair_quote(frame(armor=missing("EN-50", 22))) == Quote(cost=12_000, days=1)
    assert repair_quote(frame(armor=missing("EN-50", 23))) == Quote(cost=12_545, days=2)
    # No armour left at all (not destroyed): 60,000 and 5 days; rush 120,000 and 3 days.
    f = frame(armor=(0,) * 7)
    assert repair_quote(f) == Quote(cost=60_000, days=5)
    assert repair_quote(f, rush=True) == Quote(cost=120_000, days=3, rush=True)


def test_five_percent_threshold() -> None:
    # Vanguard, 100 armour: 4 missing = 4% -> Ready, no repair; 5 missing = 5% -> repair.
    light = frame("VG-45", armor=missing("VG-45", 4))
    assert not needs_repair(light) and frame_status_after_battle(light) == "ready"
    assert repair_quote(light) == (
        "Vanguard needs no repair: 4% damage, under 5%, and no structure or component damage"
    )
    edge = frame("VG-45", armor=missing("VG-45", 5))
    assert needs_repair(edge) and frame_status_after_battle(edge) == "damaged"
    # 200,000 x 0.30 x 0.05 = 3,000; 0.05 x 5 = 0.25 day -> 1 day.
    assert repair_quote(edge) == Quote(cost=3_000, days=1)
    # Enforcer: 5 of 110 = 4.5% -> Ready; 6 of 110 = 5.5% -> repair.
    assert not needs_repair(frame(armor=missing("EN-50", 5)))
    assert needs_repair(frame(armor=missing("EN-50", 6)))
    assert frame_status_after_battle(frame()) == "ready"


def test_structure_or_component_damage_always_needs_repair() -> None:
    # R20, below 5% armour damage. Vanguard, 1 armour and 1 head structure missing:
    # 200,000 x 0.30 x 1/100 = 600, 1 day.
    full = full_structure(catalog().chassis["VG-45"])
    hurt = (full[0] - 1, *full[1:])
    f = frame("VG-45", armor=missing("VG-45", 1), structure=hurt)
    assert needs_repair(f) and repair_quote(f) == Quote(cost=600, days=1)
    # One component hit, armour whole: 1 x 5,000, 1 day.
    f = frame("VG-45", components=1)
    assert needs_repair(f) and repair_quote(f) == Quote(cost=5_000, days=1)


def test_a_rush_that_saves_no_time_is_refused() -> None:
    f = frame("VG-45", components=1)  # a 1-day job: half of 1, rounded up, is still 1
    assert repair_quote(f, rush=True) == "a rush would still take 1 day(s): order a normal repair"


def test_rebuild_of_a_destroyed_frame() -> None:
    # §11.3: full chassis price, 7 days; rush: double price, 3.5 -> 4 days.
    wreck = frame(status="destroyed", armor=(0,) * 7, structure=(0,) * 7, components=3)
    assert needs_repair(wreck)
    assert repair_quote(wreck) == Quote(cost=200_000, days=7, rebuild=True)
    assert repair_quote(wreck, rush=True) == Quote(cost=400_000, days=4, rush=True, rebuild=True)
    light = frame("SC-20", status="destroyed")
    assert repair_quote(light) == Quote(cost=100_000, days=7, rebuild=True)


@given(
    st.sampled_from(sorted(catalog().chassis)),
    st.data(),
    st.integers(0, 6),
    st.booleans(),
)
def test_quotes_follow_the_formula(
    designation: str, data: st.DataObject, components: int, rush: bool
) -> None:
    ch = catalog().chassis[designation]
    armor = tuple(data.draw(st.integers(0, a)) for a in armor_split(ch))
    f = frame(designation, armor=armor, components=components)
    ratio = Fraction(ch.armor - sum(armor), ch.armor)
    price = catalog().chassis_price(ch)
    quote = repair_quote(f, rush)
    assert needs_repair(f) == (ratio >= Fraction(5, 100) or components > 0)
    assert frame_status_after_battle(f) == ("damaged" if needs_repair(f) else "ready")
    if not needs_repair(f):
        assert isinstance(quote, str)
        return
    cost = int(price * Fraction(30, 100) * ratio) + components * 5_000  # int() floors here
    days = max(1, -int(-ratio * 5 // 1))  # ceiling
    if not rush:
        assert quote == Quote(cost=cost, days=days)
    elif days == 1:
        assert isinstance(quote, str)
    else:
        assert quote == Quote(cost=2 * cost, days=-(-days // 2), rush=True)


# ---- the repair command --------------------------------------------------------------------
def damaged_game() -> GameState:
    state = new_game()
    full = full_structure(catalog().chassis["EN-50"])
    return with_frame(
        state,
        "F1",
        status="damaged",
        armor=HALF_ENFORCER,
        structure=(full[0], full[1], full[2], 3, *full[4:]),
        components=2,
    )


def test_repair_pays_restores_and_keeps_the_frame_in_the_bay() -> None:
    state = damaged_game()
    out = run(state, "repair F1")
    c = camp(out.state)
    f1 = c.frame("F1")
    ch = catalog().chassis["EN-50"]
    assert c.credits == START_CREDITS - 40_000
    assert c.ledger[-1].category == "repair" and c.ledger[-1].amount == -40_000
    assert f1.status == "repairing" and f1.busy_days == 3
    assert f1.armor == armor_split(ch) and f1.structure == full_structure(ch)
    assert f1.components == 0
    assert f1.weapons == camp(state).frame("F1").weapons and f1.pilot == "Ghost"
    later = run(out.state, "advance-day 2").state
    assert camp(later).frame("F1").status == "repairing"
    later = run(later, "advance-day").state
    assert camp(later).frame("F1").status == "ready"
    assert camp(later).frame("F1").busy_days == 0


def test_rush_repair_through_the_command() -> None:
    c = camp(run(damaged_game(), "repair F1 yes").state)
    assert c.credits == START_CREDITS - 80_000
    assert c.frame("F1").busy_days == 2
    assert c.ledger[-1].text == "Rush repair of Enforcer"


def test_rebuild_keeps_what_the_loadout_still_lists() -> None:
    # R19: the Heavy Laser was lost with the right torso; the rest comes back with the frame.
    state = new_game()
    kept = camp(state).frame("F1").weapons[:2] + camp(state).frame("F1").weapons[3:]
    state = with_frame(
        state,
        "F1",
        status="destroyed",
        pilot=None,
        weapons=kept,
        armor=(0,) * 7,
        structure=(0,) * 7,
        components=4,
    )
    out = run(state, "repair F1")
    c = camp(out.state)
    f1 = c.frame("F1")
    assert c.credits == START_CREDITS - 200_000
    assert f1.status == "repairing" and f1.busy_days == 7
    assert f1.weapons == kept and f1.components == 0 and f1.pilot is None
    assert sum(f1.armor) == 110
    ready = run(out.state, "advance-day 7").state
    assert camp(ready).frame("F1").status == "ready"


def test_rebuild_unseats_a_pilot_still_listed() -> None:
    state = with_frame(new_game(), "F1", status="destroyed")
    out = run(state, "repair F1")
    assert camp(out.state).frame("F1").pilot is None
    assert any("Ghost steps out" in e.describe() for e in out.events)


def test_repair_refusals() -> None:
    state = new_game()
    assert refuse(state, "repair F9") == "no frame F9"
    assert "needs no repair" in refuse(state, "repair F1")
    repairing = run(damaged_game(), "repair F1").state
    assert refuse(repairing, "repair F1") == "Enforcer is in the repair bay for 3 more day(s)"
    line = "refit F1 medium_laser@RA:1+autocannon_5@LA:1+heavy_laser@RT:2"
    refitting = run(damaged_game(), line).state
    assert refuse(refitting, "repair F1") == "Enforcer is in the refit bay for 1 more day(s)"
    poor = damaged_game()
    c = camp(poor)
    c, _ = ledger.post(c, "market", -(c.credits - 39_999), "test: spend down")
    poor = attrs.evolve(poor, campaign=c)
    assert refuse(poor, "repair F1") == "costs 40,000 credits; the company has 39,999"


def test_deployed_frames_cannot_be_repaired() -> None:
    contract = Contract(
        id="C1",
        employer="crucible",
        opponent="directorate",
        difficulty=1,
        base=50_000,
        bonus=0,
        landscape="station",
        enemies=(),
        place="junction_station",
        enemy_withdrawal="at_25",
    )
    c = attrs.evolve(
        camp(damaged_game()),
        mission=Mission(contract=contract, payout_level=2, frames=(("P1", "F1"),)),
    )
    assert plan_repair(c, "F1") == "Enforcer is deployed on a mission"
    c = attrs.evolve(c, mission=None)
    assert plan_repair(c, "F1") == Quote(cost=40_000, days=3)


def test_a_salvaged_wreck_is_repaired_at_the_salvage_rate() -> None:
    # §12.4: a Raider wreck sells for 40% of 100,000 = 40,000; its repair costs 30% of that,
    # 12,000, and takes 3 days, whatever its damage; afterwards it is an ordinary frame.
    wreck = frame("RD-30", armor=missing("RD-30", 50), wreck=True)
    quote = repair_quote(wreck)
    assert not isinstance(quote, str)
    assert (quote.cost, quote.days) == (12_000, 3)
    state = with_frame(new_game(), "F2", armor=missing("RD-30", 50), wreck=True)
    done = run(state, "repair F2")
    repaired = camp(done.state).frame("F2")
    assert not repaired.wreck and repaired.busy_days == 3
    assert camp(done.state).credits == camp(state).credits - 12_000


def test_rush_is_spelled_as_a_word_too() -> None:
    state = with_frame(new_game(), "F1", armor=missing("EN-50", 55))
    assert run(state, "repair F1 rush").state == run(state, "repair F1 yes").state
