"""Missions: accepting a contract, settling the battle, salvage, head-kill frames, the R28 end.

Games are driven through `step(parse_command(...))` from a `new-campaign` state. A contract of
known numbers is put on the board by hand (the board's own contracts are random), and a battle
is brought to a chosen end by setting its frames' damage with `attrs.evolve` and then giving one
ordinary battle command (`end` or `withdraw`), after which the engine's end check and the
mission hook run as in play.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mac_tui.campaign import ledger
from mac_tui.campaign.accept import deployment_cost
from mac_tui.campaign.debrief import debrief_text
from mac_tui.campaign.events import CampaignEnded, CreditsMoved
from mac_tui.campaign.market import fresh_frame
from mac_tui.campaign.repair import (
    frame_status_after_battle,
    repair_cost,
    wreck_price,
    wreck_repair_cost,
    wreck_repair_days,
)
from mac_tui.campaign.rewards import (
    mission_reward,
    mission_xp,
    reputation_after,
    standing_after,
    standing_changes,
)
from mac_tui.campaign.runend import check_end
from mac_tui.campaign.salvage import (
    arsenal,
    base_picks,
    salvage_allowance,
    salvage_chance,
    scaled_picks,
)
from mac_tui.campaign.state import (
    AfterAction,
    Campaign,
    Contract,
    EnemyFrame,
    Fitting,
    Frame,
    SalvageItem,
    count_of,
)
from mac_tui.catalog import catalog
from mac_tui.combat.events import BattleEnded
from mac_tui.combat.state import CENTER_TORSO, HEAD, LOC_INDEX, Unit
from mac_tui.combat.stats import armor_split, full_structure
from mac_tui.dice import LOOT, Dice
from mac_tui.game import Accepted, Event, Refused, parse_command, step
from mac_tui.model import GameState, initial_state
from mac_tui.players.ai import decide

# ---- helpers -----------------------------------------------------------------------------------
D3_ENEMIES = (
    EnemyFrame(chassis="EN-50", loadout="Sniper", label="ENFORCER-1"),  # AC5 RA, AC5 LA, LL H
    EnemyFrame(chassis="VG-45", loadout="Sniper", label="VANGUARD-2"),  # AC5 RA/LA/RT, LL H/RA
)


def contract(**changes: object) -> Contract:
    """Difficulty 3 for Crucible against the Directorate: base 120,000, bonus 30,000."""
    base = Contract(
        id="C90",
        employer="crucible",
        opponent="directorate",
        difficulty=3,
        base=120_000,
        bonus=30_000,
        landscape="station",
        enemies=D3_ENEMIES,
        place="junction_station",
        enemy_withdrawal="at_25",
    )
    return attrs.evolve(base, **changes)  # type: ignore[arg-type]


def run(state: GameState, *lines: str) -> GameState:
    for line in lines:
        out = step(state, parse_command(line))
        assert isinstance(out, Accepted), f"{line}: {getattr(out, 'reason', '')}"
        state = out.state
    return state


def refused(state: GameState, line: str, reason: str) -> None:
    out = step(state, parse_command(line))
    assert isinstance(out, Refused), line
    assert reason in out.reason, out.reason


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def edit(state: GameState, fn: Callable[[Campaign], Campaign]) -> GameState:
    return attrs.evolve(state, campaign=fn(camp(state)))


def hub(seed: int = 1, **contract_changes: object) -> GameState:
    """A new company with our contract alone on the board."""
    state = run(initial_state(seed), 'new-campaign "Iron Wolves"')
    c = contract(place=camp(state).place, **contract_changes)
    return edit(state, lambda cp: attrs.evolve(cp, contracts=(c,)))


def in_battle(state: GameState, line: str = "accept C90 2 F1+F2") -> GameState:
    return run(state, line, "auto-deploy", "start-battle")


UnitFn = Callable[[Unit], Unit]


def finish(state: GameState, command: str = "end", **changes: UnitFn) -> Accepted:
    """Set the frames' fates (by battle unit id), then give one battle command."""
    battle = state.battle
    assert battle is not None and battle.phase == "combat"
    units = tuple(changes[u.id](u) if u.id in changes else u for u in battle.units)
    battle = attrs.evolve(battle, units=units)
    if command == "withdraw":
        first = battle.living("player")[0].id
        battle = attrs.evolve(
            battle, order=(first, *(i for i in battle.order if i != first)), turn=0
        )
    out = step(attrs.evolve(state, battle=battle), parse_command(command))
    assert isinstance(out, Accepted), getattr(out, "reason", "")
    return out


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return tuple(value if i == index else v for i, v in enumerate(values))


def kill(u: Unit) -> Unit:
    """§4.5: centre torso breached (its weapons die with it)."""
    weapons = tuple(
        attrs.evolve(w, destroyed=True) if w.mount == "center_torso" else w for w in u.weapons
    )
    return attrs.evolve(
        u,
        destroyed=True,
        destroyed_by="center_torso",
        armor=_set(u.armor, CENTER_TORSO, 0),
        structure=_set(u.structure, CENTER_TORSO, 0),
        weapons=weapons,
    )


def head_kill(u: Unit) -> Unit:
    """§4.6: head destroyed, pilot dead; the frame is not destroyed."""
    weapons = tuple(attrs.evolve(w, destroyed=True) if w.mount == "head" else w for w in u.weapons)
    return attrs.evolve(
        u,
        pilot_alive=False,
        destroyed_by="pilot",
        sensor_hit=True,
        armor=_set(u.armor, HEAD, 0),
        structure=_set(u.structure, HEAD, 0),
        weapons=weapons,
    )


def reports(events: tuple[Event, ...]) -> str:
    return "\n".join(e.describe() for e in events)


def victory(state: GameState, **changes: UnitFn) -> Accepted:
    return finish(state, "end", **{"E1": kill, "E2": kill, **changes})


# ---- the rulebook's own examples and the pure helpers -----------------------------------------
def test_salvage_allowance_examples_12_1() -> None:
    # §12.1: D1 Victory = 1 pick, D3 Victory = 2, D5 Victory = 3; Withdrawal 1; Defeat 0.
    assert [base_picks("victory", d) for d in (1, 3, 5)] == [1, 2, 3]
    assert base_picks("victory", 2) == 2  # 1 + 2 // 2
    assert base_picks("withdrawal", 4) == 1
    assert base_picks("defeat", 5) == 0


def test_payout_slider_examples_12_2() -> None:
    # §12.2, D3 Victory (base 2): Full Pay 0, Mostly Pay 1 (2 x 0.5), Balanced 2,
    # Mostly Salvage 3 (2 x 1.5), Full Salvage 4.
    assert [scaled_picks(2, level) for level in range(5)] == [0, 1, 2, 3, 4]
    # R24 rounding: base 1 (D1 V): Mostly Pay 0.5 -> 0 (down), Mostly Salvage 1.5 -> 2 (up).
    assert [scaled_picks(1, level) for level in range(5)] == [0, 0, 1, 2, 2]
    # base 3 (D5 V): Mostly Pay 1.5 -> 1, Mostly Salvage 4.5 -> 5, Full Salvage 6.
    assert [scaled_picks(3, level) for level in range(5)] == [0, 1, 3, 5, 6]
    # The allowance is capped by the pool (§12.1): D5 V Full Salvage 6, pool of 4 -> 4.
    assert salvage_allowance("victory", 5, 4, 4) == 4
    assert salvage_allowance("victory", 5, 4, 10) == 6
    assert salvage_allowance("defeat", 5, 4, 10) == 0


def test_salvage_chance_12_1() -> None:
    # 15% + Difficulty x 5%: D1 = 20%, D5 = 40%.
    assert [salvage_chance(d) for d in (1, 3, 5)] == [20, 30, 40]


def test_standing_example_15_2() -> None:
    # §15.2: a D3 Victory for Crucible: +16 Crucible, -5 Directorate and Outer Reach.
    assert standing_changes("crucible", "victory", 3) == {
        "crucible": 16,
        "directorate": -5,
        "outer_reach": -5,
    }
    # Defeat -(5 + D) with the employer only; Withdrawal -3 with the employer only.
    assert standing_changes("outer_reach", "defeat", 2) == {
        "crucible": 0,
        "directorate": 0,
        "outer_reach": -7,
    }
    assert standing_changes("directorate", "withdrawal", 5)["directorate"] == -3


def test_standing_is_clamped_to_the_scale_15_1() -> None:
    # 495 + 16 = 511 -> 500; -98 - 5 = -103 -> -100.
    start = (("crucible", 495), ("directorate", -98), ("outer_reach", 0))
    assert dict(standing_after(start, "crucible", "victory", 3)) == {
        "crucible": 500,
        "directorate": -100,
        "outer_reach": -5,
    }


def test_reputation_r21() -> None:
    assert reputation_after(0, "victory", 3) == 3
    assert reputation_after(4, "withdrawal", 5) == 4
    assert reputation_after(2, "defeat", 5) == 1
    assert reputation_after(0, "defeat", 1) == 0  # never below 0


def test_xp_examples_9_4() -> None:
    # §9.4: D3 Victory = 75 + 50 = 125; D5 Defeat = 125 (no bonus); D2 Withdrawal = 50.
    assert mission_xp("victory", 3) == 125
    assert mission_xp("defeat", 5) == 125
    assert mission_xp("withdrawal", 2) == 50


def test_reward_arithmetic_r23() -> None:
    c = contract(difficulty=2, base=80_000, bonus=10_000)
    # Friendly 1.10x, Victory, zero losses x1.25, Balanced 70%:
    # 90,000 x 110/100 x 125/100 x 70/100 = 86,625.
    assert mission_reward(c, "victory", 110, 2, zero_losses=True) == 86_625
    # A frame lost: no 1.25: 90,000 x 1.10 x 0.70 = 69,300.
    assert mission_reward(c, "victory", 110, 2, zero_losses=False) == 69_300
    # Withdrawal 50% of (base + bonus), no standing multiplier: 90,000 x 0.5 x 0.7 = 31,500.
    assert mission_reward(c, "withdrawal", 110, 2, zero_losses=True) == 31_500
    # Defeat 25%: 90,000 x 0.25 x 0.7 = 15,750; at Full Pay 22,500; at Full Salvage 5,625.
    assert mission_reward(c, "defeat", 110, 2, zero_losses=True) == 15_750
    assert mission_reward(c, "defeat", 100, 0, zero_losses=True) == 22_500
    assert mission_reward(c, "defeat", 100, 4, zero_losses=True) == 5_625
    # Trusted 1.30x at Full Pay, no losses: 90,000 x 1.3 x 1.25 = 146,250.
    assert mission_reward(c, "victory", 130, 0, zero_losses=True) == 146_250
    # One rounding down at the end: 58,354 x 0.25 x 0.85 = 12,400.225 -> 12,400.
    odd = contract(difficulty=1, base=50_000, bonus=8_354)
    assert mission_reward(odd, "defeat", 100, 1, zero_losses=True) == 12_400


@given(
    total=st.integers(0, 400_000),
    result=st.sampled_from(["victory", "withdrawal", "defeat"]),
    percent=st.sampled_from([100, 110, 120, 130]),
    level=st.integers(0, 4),
    zero=st.booleans(),
)
def test_reward_is_the_exact_product_rounded_down_once(
    total: int, result: str, percent: int, level: int, zero: bool
) -> None:
    c = contract(base=0, bonus=total)
    credit = {0: 100, 1: 85, 2: 70, 3: 50, 4: 25}[level]
    if result == "victory":
        exact = Fraction(total * percent, 100) * (Fraction(125, 100) if zero else 1)
    else:
        exact = Fraction(total * (50 if result == "withdrawal" else 25), 100)
    exact *= Fraction(credit, 100)
    assert mission_reward(c, result, percent, level, zero) == int(exact)  # floor, >= 0


def test_wreck_numbers_12_4() -> None:
    # 40% of the class price; repair 30% of that, 3 days. Light 100,000 -> 40,000 -> 12,000;
    # Medium 200,000 -> 80,000 -> 24,000.
    assert (wreck_price("RD-30"), wreck_repair_cost("RD-30")) == (40_000, 12_000)
    assert (wreck_price("EN-50"), wreck_repair_cost("EN-50")) == (80_000, 24_000)
    assert wreck_repair_days() == 3


def test_frame_status_r20() -> None:
    # RD-30: 70 armour. 3 lost = 4.3% -> Ready; 4 lost = 5.7% -> Damaged (R20: >= 5%).
    f = fresh_frame("F9", "RD-30", "Raider")
    assert sum(f.armor) == 70
    assert frame_status_after_battle(f) == "ready"
    assert frame_status_after_battle(attrs.evolve(f, armor=_set(f.armor, 1, f.armor[1] - 3))) == (
        "ready"
    )
    assert frame_status_after_battle(attrs.evolve(f, armor=_set(f.armor, 1, f.armor[1] - 4))) == (
        "damaged"
    )
    # Any structure or component damage needs repair.
    hurt = attrs.evolve(f, structure=_set(f.structure, 4, f.structure[4] - 1))
    assert frame_status_after_battle(hurt) == "damaged"
    assert frame_status_after_battle(attrs.evolve(f, components=1)) == "damaged"


def test_bonus_find_arsenal_is_faction_and_universal_without_exclusives() -> None:
    weapons = catalog().weapons
    pool = arsenal("directorate")
    assert "gauss_rifle" in pool and "medium_laser" in pool
    assert "precision_gauss" not in pool  # exclusive
    assert "flamer" not in pool  # Crucible's
    assert all(weapons[w].faction in ("directorate", "universal") for w in pool)


def test_data_for_lance_and_reputation() -> None:
    # §11.5 "a full 4-frame lance"; R21 +Difficulty, -1, never below 0.
    m = catalog().missions
    assert m.lance.max_frames == 4
    assert (m.reputation.victory_per_difficulty, m.reputation.defeat, m.reputation.min) == (
        1,
        -1,
        0,
    )


# ---- accepting a contract (§11.5) --------------------------------------------------------------
def test_accept_pays_deployment_and_sets_up_the_battle() -> None:
    state = hub()
    # Carry a scratch on the Enforcer: 1 armour off the head (0.9% -> still Ready, R20).
    scratched = camp(state).frame("F1")
    scratched = attrs.evolve(
        scratched, armor=_set(scratched.armor, HEAD, scratched.armor[HEAD] - 1)
    )
    state = edit(state, lambda c: c.with_frame(scratched))
    before = camp(state).credits
    state = run(state, "accept C90 3 F1+F2")
    c = camp(state)
    # §11.5: EN-50 medium 4,000 + RD-30 light 2,000 = 6,000.
    assert before - c.credits == 6_000
    assert (c.ledger[-1].category, c.ledger[-1].amount) == ("deployment", -6_000)
    assert c.contracts == ()
    assert c.mission is not None and c.mission.payout_level == 3
    assert c.mission.frames == (("P1", "F1"), ("P2", "F2"))
    battle = state.battle
    assert battle is not None and battle.phase == "deployment"
    assert (battle.difficulty, battle.landscape) == (3, "station")
    p1 = battle.unit("P1")
    assert p1.armor == scratched.armor and p1.pilot.callsign == "Ghost"
    assert p1.pilot.gunnery == 4 and [w.weapon for w in p1.weapons] == [
        m.weapon for m in scratched.weapons
    ]
    assert not battle.side_info("player").ai
    # R17, R18: the enemies carry the named stock loadouts and the §16.1 D3 pilots (5/4/4).
    e1, e2 = battle.side_units("enemy")
    assert (e1.chassis, e1.label) == ("EN-50", "ENFORCER-1")
    assert [w.weapon for w in e1.weapons] == ["autocannon_5", "autocannon_5", "light_laser"]
    assert [w.weapon for w in e2.weapons] == ["autocannon_5"] * 3 + ["light_laser"] * 2
    assert (e2.pilot.gunnery, e2.pilot.piloting, e2.pilot.tactics) == (5, 4, 4)
    assert all(e.pos is not None for e in (e1, e2))
    # While the mission runs, the hub's commands wait.
    refused(state, "advance-day", "a mission is under way")
    refused(state, "accept C90 2 F1", "a mission is under way")


def test_deployment_cost_sums_the_classes() -> None:
    state = hub()
    c = camp(state)
    f3 = attrs.evolve(fresh_frame("F3", "WD-60", "Warden"), pilot="Thunder")
    f4 = attrs.evolve(fresh_frame("F4", "TN-85", "Titan"), pilot="Shadow")
    c = attrs.evolve(c, frames=(*c.frames, f3, f4), next_frame=5)
    # Medium 4,000 + Light 2,000 + Heavy 7,500 + Assault 12,000 = 25,500 (§11.5).
    assert deployment_cost(c, ["F1", "F2", "F3", "F4"]) == 25_500
    state = run(attrs.evolve(state, campaign=c), "accept C90 2 F1+F2+F3+F4")
    assert c.credits - camp(state).credits == 25_500
    assert state.battle is not None and len(state.battle.side_units("player")) == 4


def test_accept_refusals_change_nothing() -> None:
    state = hub()
    refused(initial_state(1), "accept C90 2 F1", "start a campaign first")
    refused(state, "accept C99 2 F1", "no contract C99")
    refused(state, "accept C90 5 F1", "payout level must be one of")
    refused(state, "accept C90 2 -", "deploy 1 to 4 frames")
    refused(state, "accept C90 2 F1+F2+F1+F2+F1", "deploy 1 to 4 frames")
    refused(state, "accept C90 2 F1+F1", "only once")
    refused(state, "accept C90 2 F9", "no frame F9")
    elsewhere = edit(
        state, lambda c: attrs.evolve(c, contracts=(contract(place="foundry_station"),))
    )
    refused(elsewhere, "accept C90 2 F1", "is offered at Foundry Station")
    injured = edit(
        state,
        lambda c: c.with_pilot(attrs.evolve(c.pilot("Ghost"), status="injured", injury_days=4)),
    )
    refused(injured, "accept C90 2 F1", "Ghost is injured for 4 more day(s)")
    busy = edit(state, lambda c: c.with_frame(attrs.evolve(c.frame("F1"), busy_days=2)))
    refused(busy, "accept C90 2 F1", "in the bay for 2 more day(s)")
    damaged = edit(state, lambda c: c.with_frame(attrs.evolve(c.frame("F1"), status="damaged")))
    refused(damaged, "accept C90 2 F1", "is damaged, not ready")
    no_pilot = run(state, "unassign Falcon")
    refused(no_pilot, "accept C90 2 F1+F2", "has no pilot")
    # 500,000 - 494,001 = 5,999 left; deployment costs 6,000.
    poor = edit(state, lambda c: ledger.post(c, "market", -494_001, "test: spend")[0])
    refused(poor, "accept C90 2 F1+F2", "costs 6,000 credits; the company has 5,999")
    assert run(poor, "accept C90 2 F2").campaign is not None  # 2,000 is affordable


# ---- settling: the outcomes (§11.6, §15.2, R21, §9.4) ------------------------------------------
def test_victory_without_losses_pays_the_full_formula() -> None:
    state = in_battle(hub())
    before = camp(state).credits
    out = victory(state)
    c = camp(out.state)
    assert out.state.battle is None and c.mission is None
    # R23: 150,000 x 100% (Neutral) x 125% (no frame destroyed) x 70% (Balanced) = 131,250.
    assert c.credits - before == 131_250
    assert (c.ledger[-1].category, c.ledger[-1].amount) == ("reward", 131_250)
    assert any(isinstance(e, CreditsMoved) and e.amount == 131_250 for e in out.events)
    assert any(isinstance(e, BattleEnded) for e in out.events)
    # §15.2: +16 Crucible, -5 others. R21: +3. §9.4: 125 XP each.
    assert dict(c.standing) == {"crucible": 16, "directorate": -5, "outer_reach": -5}
    assert c.reputation == 3
    assert (c.pilot("Ghost").xp, c.pilot("Falcon").xp, c.pilot("Thunder").xp) == (125, 125, 0)
    assert (c.missions_played, c.missions_won) == (1, 1)
    assert [f.status for f in c.frames] == ["ready", "ready"]
    aa = c.after_action
    assert aa is not None and aa.result == "victory" and aa.credits == 131_250
    assert aa.picks == 2 and not aa.revealed
    # R24 pool: both enemies' weapons (none at the CT): 3 + 5 = 8 items.
    assert len(aa.pool) == 8
    assert "Victory" in aa.report[0]
    assert "Paid 131,250 credits" in reports(out.events)
    # While the report is open, the hub waits.
    refused(out.state, "advance-day", "after-action report is open")


def test_a_destroyed_frame_costs_the_bonus_and_its_pilot_may_die() -> None:
    # R23: no x1.25 with a frame destroyed: 150,000 x 70% = 105,000. §9.2: 30% KIA, else the
    # pilot ejects and is unassigned; XP only to survivors.
    fates = set()
    for seed in range(1, 16):
        state = in_battle(hub(seed))
        before = camp(state).credits
        c = camp(victory(state, P1=kill).state)
        assert c.credits - before == 105_000
        f1 = c.frame("F1")
        assert (f1.status, f1.pilot) == ("destroyed", None)
        ghost = c.pilot("Ghost")
        if ghost.status == "kia":
            assert ghost.xp == 0
        else:
            assert (ghost.status, ghost.xp) == ("active", 125)
        fates.add(ghost.status)
        assert c.frame("F2").pilot == "Falcon" and c.pilot("Falcon").xp == 125
    assert fates == {"kia", "active"}


def test_head_kill_on_a_player_frame_r15() -> None:
    # R15: the pilot is KIA; the frame is not destroyed (the x1.25 stands) and comes home Damaged.
    state = in_battle(hub())
    before = camp(state).credits
    c = camp(victory(state, P2=head_kill).state)
    assert c.credits - before == 131_250
    falcon, raider = c.pilot("Falcon"), c.frame("F2")
    assert (falcon.status, falcon.xp) == ("kia", 0)
    assert (raider.status, raider.pilot) == ("damaged", None)
    assert raider.structure[HEAD] == 0
    # Nothing was mounted on the Raider's head, so every weapon comes home; the destroyed head's
    # sensor hit is a component (1).
    assert [m.weapon for m in raider.weapons] == ["medium_laser", "light_laser", "autocannon_5"]
    assert raider.components == 1


def test_cockpit_hit_injures_the_pilot_r16() -> None:
    state = in_battle(hub())
    c = camp(victory(state, P1=lambda u: attrs.evolve(u, cockpit_hit=True)).state)
    ghost = c.pilot("Ghost")
    assert ghost.status == "injured" and 3 <= ghost.injury_days <= 10
    assert ghost.xp == 125  # survived
    assert c.frame("F1").pilot == "Ghost"
    assert c.frame("F1").components == 1 and c.frame("F1").status == "damaged"


def test_frames_come_home_with_their_damage_and_without_lost_weapons_r19_r20() -> None:
    state = hub()
    state = edit(
        state,
        lambda c: c.with_frame(
            attrs.evolve(
                c.frame("F1"),
                equipment=(Fitting(equipment="cooling_vents"), Fitting(equipment="ammo_bin")),
            )
        ),
    )
    state = in_battle(state)
    rt = LOC_INDEX["right_torso"]

    def battered(u: Unit) -> Unit:
        weapons = tuple(
            attrs.evolve(w, destroyed=True) if w.weapon == "heavy_laser" else w for w in u.weapons
        )
        equipment = (u.equipment[0], attrs.evolve(u.equipment[1], destroyed=True))
        return attrs.evolve(
            u,
            weapons=weapons,
            equipment=equipment,
            armor=_set(u.armor, rt, 0),
            structure=_set(u.structure, rt, 0),
            reactor_hits=1,
            gyro_hit=True,
            actuator_hits=(0, 0, 0, 0, 0, 0, 1),
        )

    out = victory(state, P1=battered)
    c = camp(out.state)
    f1 = c.frame("F1")
    assert [m.weapon for m in f1.weapons] == ["medium_laser", "autocannon_5", "light_laser"]
    assert [f.equipment for f in f1.equipment] == ["cooling_vents"]
    assert f1.armor[rt] == 0 and f1.structure[rt] == 0
    assert f1.status == "damaged" and f1.pilot == "Ghost"
    assert f1.components == 3  # reactor 1 + gyro 1 + leg actuator 1
    assert "Heavy Laser" in reports(out.events)
    # Repair later (§11.2): 200,000 x 30% x lost/110 + 3 x 5,000.
    lost = sum(armor_split(catalog().chassis["EN-50"])) - sum(f1.armor)
    assert repair_cost(f1) == 200_000 * 30 * lost // (100 * 110) + 15_000


def test_withdrawal_pays_half_and_one_pick() -> None:
    state = edit(in_battle(hub()), lambda c: attrs.evolve(c, reputation=4))
    before = camp(state).credits
    out = finish(state, "withdraw", E1=kill)
    c = camp(out.state)
    # R23: 150,000 x 50% x 70% = 52,500. §15.2: -3 Crucible only. R21: unchanged. §9.4: 75 XP.
    assert c.credits - before == 52_500
    assert dict(c.standing) == {"crucible": -3, "directorate": 0, "outer_reach": 0}
    assert c.reputation == 4
    assert c.pilot("Ghost").xp == 75
    assert (c.missions_played, c.missions_won) == (1, 0)
    aa = c.after_action
    assert aa is not None and aa.result == "withdrawal"
    # §12.1: Withdrawal 1 pick x Balanced; the pool is E1's three weapons (R24).
    assert aa.picks == 1 and len(aa.pool) == 3


def test_defeat_pays_a_quarter_and_leaves_no_salvage() -> None:
    state = edit(in_battle(hub()), lambda c: attrs.evolve(c, reputation=2))
    before = camp(state).credits
    out = finish(state, "end", P1=kill, P2=kill, E1=kill)
    c = camp(out.state)
    # R23: 150,000 x 25% x 70% = 26,250. §15.2: -(5 + 3) = -8 Crucible. R21: 2 - 1 = 1.
    assert c.credits - before == 26_250
    assert dict(c.standing) == {"crucible": -8, "directorate": 0, "outer_reach": 0}
    assert c.reputation == 1
    aa = c.after_action
    assert aa is not None and aa.result == "defeat"
    assert (aa.picks, aa.pool, aa.frame_offers, aa.found) == (0, (), (), ())
    assert [f.status for f in c.frames] == ["destroyed", "destroyed"]
    assert all(f.pilot is None for f in c.frames)
    # Nothing to choose: `done` reveals (nothing) and closes the report.
    after = run(out.state, "done")
    assert camp(after).after_action is None and camp(after).weapons == c.weapons


def test_defeat_from_reputation_zero_stays_zero() -> None:
    state = in_battle(hub())
    c = camp(finish(state, "end", P1=kill, P2=kill).state)
    assert c.reputation == 0


# ---- salvage (§12.1-§12.3, R24) ----------------------------------------------------------------
def test_salvage_picks_scavenge_and_bonus_finds() -> None:
    out = victory(in_battle(hub()), E1=head_kill)
    state = out.state
    aa = camp(state).after_action
    assert aa is not None
    # R24 pool: E1 (head killed: its head laser is gone) AC5 x2, then E2's AC5 x3, LL x2.
    assert [i.item for i in aa.pool] == ["autocannon_5"] * 5 + ["light_laser"] * 2
    assert aa.picks == 2  # D3 Victory, Balanced
    # §12.3 bonus finds were rolled at settlement: at most one per destroyed enemy, all from
    # the Directorate's arsenal; they stay hidden until the picks are made.
    bonus = aa.found
    assert len(bonus) <= 2 and all(i.item in arsenal("directorate") for i in bonus)
    refused(state, "salvage 1+2+3", "you may pick 2 item(s), not 3")
    refused(state, "salvage 1+1", "only once")
    refused(state, "salvage 8", "no item 8 in the salvage pool (1 to 7)")
    refused(state, "salvage x", "picks are item numbers")
    refused(state, "done", "choose your salvage first")
    # The scavenge: each unpicked item, in pool order, with the Salvage Chance (D3: 30%).
    dice = Dice(state.rng)
    expected = [item for i, item in enumerate(aa.pool) if i not in (0, 5) and dice.chance(LOOT, 30)]
    weapons_before = camp(state).weapons
    state = run(state, "salvage 1+6")
    aa = camp(state).after_action
    assert aa is not None and aa.revealed and aa.picked == (0, 5)
    assert list(aa.found) == [*expected, *bonus]
    got = [SalvageItem(kind="weapon", item="autocannon_5"), aa.pool[5], *aa.found]
    for w in {i.item for i in got}:
        n = sum(1 for i in got if i.item == w)
        assert count_of(camp(state).weapons, w) == count_of(weapons_before, w) + n
    refused(state, "salvage -", "already settled")
    state = run(state, "done")
    assert camp(state).after_action is None
    refused(state, "salvage 1", "no after-action report is open")


def test_full_pay_scavenges_the_whole_pool() -> None:
    # §12.3: at Full Pay the allowance is 0, yet the crew still scavenges every item.
    state = victory(in_battle(hub(), "accept C90 0 F1+F2")).state
    aa = camp(state).after_action
    assert aa is not None and aa.picks == 0 and len(aa.pool) == 8
    refused(state, "salvage 1", "you may pick 0 item(s), not 1")
    dice = Dice(state.rng)
    expected = [item for item in aa.pool if dice.chance(LOOT, 30)]
    by_hand = run(state, "salvage -")
    revealed = camp(by_hand).after_action
    assert revealed is not None and list(revealed.found) == [*expected, *aa.found]
    # `done` with nothing to choose reveals the same way and closes.
    assert camp(run(by_hand, "done")).weapons == camp(run(state, "done")).weapons


def test_head_kill_frames_for_sale_12_4() -> None:
    state = victory(in_battle(hub()), E1=head_kill).state
    aa = camp(state).after_action
    assert aa is not None and len(aa.frame_offers) == 1
    offer = aa.frame_offers[0]
    assert (offer.chassis, offer.status, offer.weapons) == ("EN-50", "damaged", ())
    assert offer.armor[HEAD] == 0 and offer.structure[HEAD] == 0
    # Other locations keep their combat damage (none here).
    assert offer.armor[1:] == armor_split(catalog().chassis["EN-50"])[1:]
    refused(state, "buy-wreck 2", "no frame 2 for sale (1 to 1)")
    before = camp(state).credits
    bought = run(state, "buy-wreck 1")
    c = camp(bought)
    # 40% of 200,000 = 80,000, paid as salvage.
    assert before - c.credits == 80_000
    assert (c.ledger[-1].category, c.ledger[-1].amount) == ("salvage", -80_000)
    new = c.frames[-1]
    assert (new.id, new.chassis, new.status, new.pilot) == ("F3", "EN-50", "damaged", None)
    assert c.next_frame == 4
    assert c.after_action is not None and c.after_action.frame_offers == ()
    refused(bought, "buy-wreck 1", "no head-kill frames are for sale")
    # Short of credits: nothing changes.
    poor = edit(state, lambda cp: ledger.post(cp, "market", -(cp.credits - 79_999), "test")[0])
    refused(poor, "buy-wreck 1", "costs 80,000 credits; the company has 79,999")


def test_a_ct_breached_enemy_is_no_frame_offer() -> None:
    state = victory(in_battle(hub())).state
    aa = camp(state).after_action
    assert aa is not None and aa.frame_offers == ()


# ---- a whole battle fought by the AI on both sides ---------------------------------------------
def test_a_battle_fought_to_the_end_settles_the_mission() -> None:
    state = run(hub(3), "accept C90 2 F1+F2")
    before = camp(state).credits
    result = None
    for _ in range(5000):
        if state.battle is None:
            break
        out = step(state, decide(state).command)
        assert isinstance(out, Accepted)
        for e in out.events:
            if isinstance(e, BattleEnded):
                result = e.result
        state = out.state
    c = camp(state)
    assert state.battle is None and c.mission is None and result is not None
    aa = c.after_action
    assert aa is not None and aa.result == result
    assert c.credits - before == aa.credits and c.ledger[-1].category == "reward"
    assert c.missions_played == 1 and c.missions_won == (result == "victory")
    state = run(state, "salvage -")
    state = run(state, "done")
    assert camp(state).after_action is None


# ---- the roguelike end (R28) -------------------------------------------------------------------
def _company() -> Campaign:
    return camp(hub())


def test_check_end_r28() -> None:
    c = _company()
    assert check_end(c) is None
    wrecked = attrs.evolve(
        c, frames=tuple(attrs.evolve(f, status="destroyed", pilot=None) for f in c.frames)
    )
    # The cheapest fix for the frames is the cheapest chassis (Light, 100,000).
    assert check_end(attrs.evolve(wrecked, credits=100_000)) is None
    cause = check_end(attrs.evolve(wrecked, credits=99_999))
    assert cause is not None and "no frame can deploy" in cause
    # A head-kill frame on offer counts: a Light wreck 40,000 + repair 12,000 = 52,000.
    offer = fresh_frame("W1", "SC-20", "Scout")
    aa = AfterAction(
        contract=contract(), result="victory", payout_level=2, credits=0, picks=0, pool=()
    )
    offered = attrs.evolve(wrecked, after_action=attrs.evolve(aa, frame_offers=(offer,)))
    assert check_end(attrs.evolve(offered, credits=52_000)) is None
    assert check_end(attrs.evolve(offered, credits=51_999)) is not None
    # A damaged Raider (35 of 70 armour lost, 1 component): 100,000 x 30% x 0.5 + 5,000.
    f2 = c.frame("F2")
    half = attrs.evolve(f2, status="damaged", armor=(0, 0, 0, 0, 0, 0, 35), components=1)
    assert sum(f2.armor) - 35 == 35
    assert repair_cost(half) == 20_000
    one_damaged = wrecked.with_frame(half)
    assert check_end(attrs.evolve(one_damaged, credits=20_000)) is None
    assert check_end(attrs.evolve(one_damaged, credits=19_999)) is not None
    # A frame in the repair bay needs nothing more.
    repairing = wrecked.with_frame(attrs.evolve(f2, status="repairing", busy_days=3))
    assert check_end(attrs.evolve(repairing, credits=0)) is None


def test_check_end_pilots_r28() -> None:
    c = _company()
    dead = attrs.evolve(c, pilots=tuple(attrs.evolve(p, status="kia") for p in c.pilots))
    assert check_end(attrs.evolve(dead, credits=30_000)) is None  # hire one (§9.3)
    cause = check_end(attrs.evolve(dead, credits=29_999))
    assert cause is not None and "no pilot is left" in cause
    hurt = attrs.evolve(
        c, pilots=tuple(attrs.evolve(p, status="injured", injury_days=5) for p in c.pilots)
    )
    assert check_end(attrs.evolve(hurt, credits=0)) is None  # injuries heal
    both = attrs.evolve(
        dead, frames=tuple(attrs.evolve(f, status="destroyed", pilot=None) for f in c.frames)
    )
    assert check_end(attrs.evolve(both, credits=130_000)) is None  # 100,000 + 30,000
    assert check_end(attrs.evolve(both, credits=129_999)) is not None


def test_a_ruinous_defeat_ends_the_run() -> None:
    state = in_battle(hub())
    # Leave 14,000 after deployment: 26,250 paid on defeat -> 40,250 < a Light chassis.
    state = edit(state, lambda c: ledger.post(c, "market", -(c.credits - 14_000), "test")[0])
    out = finish(state, "end", P1=kill, P2=kill)
    c = camp(out.state)
    assert c.credits == 40_250
    assert c.ended is not None and "no frame can deploy" in c.ended
    assert any(isinstance(e, CampaignEnded) for e in out.events)
    refused(out.state, "done", "the run is over")


def test_debrief_text() -> None:
    c = attrs.evolve(_company(), day=31, missions_played=3, missions_won=2, ended="broke")
    text = debrief_text(c, 1234, ["Upkeep", "Defeat: contract C4"], None)
    for part in (
        "Iron Wolves",
        "Seed:            1234",
        "31 Jan 2847",
        "Days survived:   30",
        "2 won of 3 played",
        "Credits:         500,000",
        "Defeat: contract C4",
        "Cause: broke",
        "Ghost",
    ):
        assert part in text, part
    assert "Cause: out of money" in debrief_text(c, 1, [], "out of money")


@pytest.mark.parametrize("frame", ["F1", "F2"])
def test_frame_spec_follows_the_full_structure(frame: str) -> None:
    # A frame straight from the factory enters the battle whole.
    state = run(hub(), f"accept C90 2 {frame}")
    assert state.battle is not None
    unit = state.battle.unit("P1")
    f: Frame = camp(hub()).frame(frame)
    assert unit.structure == full_structure(catalog().chassis[f.chassis])
