"""Optional module O11: objectives, mission costs and debt (optional-rules.md O11.1-O11.10).

Every number is worked by hand from the document: the catalogue's table is read from
optional-rules.md, the worked example (230,250 -> 161,175; costs 2,250) is played through the
engine's settlement, each objective's condition is set up on a small battle, and the debt rules
(no XP below 0, deploying down to -100,000) are checked through `step`.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from mac_tui.campaign.accept import deployment_cost
from mac_tui.campaign.contracts import contract_rows, generate_contract
from mac_tui.campaign.events import CreditsMoved, PayCut
from mac_tui.campaign.objectives import objective_pay
from mac_tui.catalog import catalog
from mac_tui.combat import objectives as ob
from mac_tui.combat.commands import FireStructure
from mac_tui.combat.detection import Detected
from mac_tui.combat.events import Attacked, EquipmentUsed, RoundStarted
from mac_tui.combat.features import Section
from mac_tui.combat.mapgen import BattleMap
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle, Contact, Objective, Tally
from mac_tui.dice import CONTRACTS, MISSIONS, Dice, RngState
from mac_tui.game import Accepted, fold, parse_command, refusal, step
from mac_tui.hexgrid import from_offset
from mac_tui.model import GameState, initial_state
from mac_tui.players.ai import decide
from mac_tui.players.ai.objectives import HOLD, SEIZE, demolition_shot, seize_target, seize_value
from mac_tui.players.sim import play
from mac_tui.save import state_from_data, state_hash, state_to_data
from mac_tui.snapshot import problems

from .rulebook import SHARED, Doc
from .test_attack import at, battle, raider, shooter
from .test_mission import (
    camp,
    contract,
    edit,
    finish,
    head_kill,
    hub,
    in_battle,
    kill,
    refused,
    run,
)

CAT = catalog()
DATA = CAT.objectives
OPTIONAL = Doc(SHARED / "optional-rules.md", "optional-rules.md")
O11_HEADING = "## O11 Objectives, mission costs and debt"
RULES = ("O3", "O11")


def o11(b: Battle, *objectives: Objective, **changes: Any) -> Battle:
    """`b` under O3 and O11 with these objectives and an empty tally."""
    return attrs.evolve(
        b, **{"ruleset": RULES, "objectives": objectives, "tally": Tally(), **changes}
    )


# ---- O11.2: the catalogue is the document's table ----------------------------------------------
def test_catalogue_is_the_documents_table() -> None:
    rows = OPTIONAL.table(O11_HEADING, after="**O11.2 Catalogue**")
    assert [r["Id"] for r in rows] == [k.id for k in DATA.objective]
    needs = {"–": "none", "hex map": "map", "O3": "O3", "O10 ally": "O10", "O8": "O8"}
    for row in rows:
        kind = DATA.kind(row["Id"])
        assert kind.name == row["Name"]
        assert kind.bonus == int(row["Bonus"].rstrip("%"))
        assert kind.needs == needs[row["Needs"]]
    met = {r["Id"]: r["Met when"] for r in rows}
    assert f"round {DATA.kind('OB3').round}" in met["OB3"]
    assert f"round ≥ {DATA.kind('OB5').round}" in met["OB5"]
    assert f"within {DATA.kind('OB5').radius} hexes" in met["OB5"]
    assert f"≥ {DATA.kind('OB4').armour_percent}%" in met["OB4"]
    assert f"round {DATA.kind('OB8').round}" in met["OB8"]


def test_draw_cuts_costs_and_floor_are_the_documents() -> None:
    text = OPTIONAL.section(O11_HEADING)
    assert "1 visible **secondary** objective\nif D ≤ 2, 2 if D ≥ 3" in text
    assert (DATA.draw.secondary_low, DATA.draw.secondary_high, DATA.draw.low_max) == (1, 2, 2)
    assert f"a {DATA.draw.hidden_chance}% chance of one **hidden** objective" in text
    cuts = DATA.cuts
    assert f"−{cuts.collateral}% per section" in text and f"max −{cuts.collateral_max}%" in text
    assert f"Lost ally (O10): −{cuts.ally_lost}%" in text
    assert f"Neutral killed (O10): −{cuts.neutral_killed}%" in text
    costs = DATA.costs
    assert f"**{costs.credits_per_point} × P**" in text
    assert (costs.structure, costs.small, costs.medium, costs.large) == (1, 1, 2, 3)
    assert costs.equipment_use == 1
    assert f"≥ **−{-DATA.debt.floor:,}**" in text


# ---- O11.1: the draw -----------------------------------------------------------------------------
def test_no_draw_at_all_with_o11_off() -> None:
    dice = Dice(RngState(seed=7))
    assert ob.draw_objectives(dice, 3, ("O3",)) == ()
    assert dice.state() == RngState(seed=7)


@pytest.mark.parametrize("difficulty, visible", [(1, 1), (2, 1), (3, 2), (5, 2)])
def test_secondary_count_by_difficulty_and_no_repeats(difficulty: int, visible: int) -> None:
    hidden = 0
    for seed in range(200):
        drawn = ob.draw_objectives(Dice(RngState(seed=seed)), difficulty, RULES)
        assert sum(not o.hidden for o in drawn) == visible
        assert [o.hidden for o in drawn] == sorted(o.hidden for o in drawn)  # hidden last
        assert len({o.id for o in drawn}) == len(drawn)
        hidden += sum(o.hidden for o in drawn)
    assert 40 <= hidden <= 80  # 30% of 200 = 60


def test_only_the_entries_the_ruleset_allows() -> None:
    assert [k.id for k in ob.allowed(("O11",))] == ["OB1", "OB2", "OB3", "OB4", "OB5"]
    assert [k.id for k in ob.allowed(RULES)] == ["OB1", "OB2", "OB3", "OB4", "OB5", "OB6"]
    # O1's range bands have no hex map (no OB5); OB8 needs O8; OB7 an allied lance (O10).
    assert "OB5" not in [k.id for k in ob.allowed(("O1", "O11"))]
    both = ("O8", "O10", "O11")
    assert [k.id for k in ob.allowed(both)] == ["OB1", "OB2", "OB3", "OB4", "OB5", "OB8"]
    assert [k.id for k in ob.allowed(both, ally=True)][-2:] == ["OB7", "OB8"]
    assert "OB7" not in [k.id for k in ob.allowed(("O11",), ally=True)]
    # O1.12: range-band battles draw only OB1-OB4 and OB7.
    bands = [k.id for k in ob.allowed(("O1", "O10", "O11"), ally=True)]
    assert bands == ["OB1", "OB2", "OB3", "OB4", "OB7"]
    seen = {
        o.id for seed in range(100) for o in ob.draw_objectives(Dice(RngState(seed)), 4, ("O11",))
    }
    assert seen == {"OB1", "OB2", "OB3", "OB4", "OB5"}


def test_a_contract_is_the_same_with_o11_on_but_for_its_objectives() -> None:
    state = hub()
    off = camp(state)
    on = attrs.evolve(off, ruleset=("O11",))
    a_dice, b_dice = Dice(RngState(seed=3)), Dice(RngState(seed=3))
    a = generate_contract(off, a_dice, "C1")
    b = generate_contract(on, b_dice, "C1")
    assert a.objectives == () and b.objectives
    assert attrs.evolve(b, objectives=()) == a
    assert a_dice.state().counter(CONTRACTS) == b_dice.state().counter(CONTRACTS)
    assert a_dice.state().counter(MISSIONS) == 0 < b_dice.state().counter(MISSIONS)


def test_the_board_shows_objectives_and_a_hidden_one_as_a_question_mark() -> None:
    c = contract(
        objectives=(Objective(id="OB3"), Objective(id="OB1", hidden=True)),
    )
    state = edit(hub(), lambda cp: attrs.evolve(cp, contracts=(c,), ruleset=("O11",)))
    (row,) = contract_rows(camp(state))
    assert row.objectives == ("OB3 Swift +10%", "?")


# ---- O11.2: the conditions -----------------------------------------------------------------------
def _me(col: int = 0, **changes: Any) -> Any:
    return shooter(**{"pos": at(col), **changes})


def test_ob1_decapitate_a_head_kill_only() -> None:
    b = o11(battle(_me(), raider()), Objective(id="OB1"))
    b2, events = ob.track_battle(b, ())
    assert events == [] and not b2.objectives[0].met
    dead = head_kill(raider())
    b3, events = ob.track_battle(attrs.evolve(b, units=(_me(), dead), round=2), ())
    assert b3.objectives[0].met == 2
    assert [type(e) for e in events] == [ob.ObjectiveMet]
    # A centre-torso kill is no decapitation.
    b4, _ = ob.track_battle(attrs.evolve(b, units=(_me(), kill(raider()))), ())
    assert not b4.objectives[0].met


def _over(b: Battle, result: str, round_: int = 4) -> Battle:
    return attrs.evolve(b, phase="over", result=result, round=round_)


def test_ob2_annihilate_every_enemy_out_none_withdrew() -> None:
    b = o11(battle(_me(), kill(raider()), head_kill(raider(col=7))), Objective(id="OB2"))
    met, _ = ob.track_battle(_over(b, "victory"), ())
    assert met.objectives[0].met == 4
    # A Victory by the enemy's withdrawal leaves an enemy frame on the field: missed.
    withdrew = o11(battle(_me(), kill(raider()), raider(col=7)), Objective(id="OB2"))
    missed, _ = ob.track_battle(_over(withdrew, "victory"), ())
    assert not missed.objectives[0].met
    # Not before the battle is over.
    early, _ = ob.track_battle(b, ())
    assert not early.objectives[0].met


def test_ob3_swift_victory_by_the_end_of_round_5() -> None:
    b = o11(battle(_me(), kill(raider())), Objective(id="OB3"))
    assert ob.track_battle(_over(b, "victory", 5), ())[0].objectives[0].met == 5
    assert not ob.track_battle(_over(b, "victory", 6), ())[0].objectives[0].met
    assert not ob.track_battle(_over(b, "withdrawal", 3), ())[0].objectives[0].met


def test_ob4_unscathed_half_the_armour_kept_by_every_frame() -> None:
    me = _me()
    half = attrs.evolve(me, start_armor=100, armor=(50, 0, 0, 0, 0, 0, 0))
    less = attrs.evolve(me, start_armor=100, armor=(49, 0, 0, 0, 0, 0, 0))
    for unit, met in ((half, True), (less, False)):
        b = o11(battle(unit, kill(raider())), Objective(id="OB4"))
        assert bool(ob.track_battle(_over(b, "victory"), ())[0].objectives[0].met) is met
    # A frame that went down fails it, whatever its armour.
    b = o11(battle(kill(half), kill(raider())), Objective(id="OB4"))
    assert not ob.track_battle(_over(b, "defeat"), ())[0].objectives[0].met


def test_ob5_objective_hex_nearest_the_centre_row_major_first() -> None:
    # 9 x 5 map, deployment columns 0-1 and 7-8; the centre hex is offset (4, 2).
    rows = ["........."] * 5
    assert ob.objective_hex(BattleMap.from_rows(rows)) == from_offset(4, 2)
    # The centre is forest: the hexes at distance 1 are (3,1) (4,1) (3,2) (5,2) (3,3) (4,3);
    # row-major first is offset (3, 1).
    rows = [".........", ".........", "....T....", ".........", "........."]
    assert ob.objective_hex(BattleMap.from_rows(rows)) == from_offset(3, 1)
    # A hex holding a feature (O3) is not Open.
    taken = (Section(hex=from_offset(4, 2), feature="barricade", durability=20),)
    assert ob.objective_hex(BattleMap.from_rows(["........."] * 5), taken) == from_offset(3, 1)


def test_ob5_seize_at_the_end_of_a_round_from_round_3() -> None:
    h = at(4)
    me = _me(4)
    b = o11(battle(me, raider(col=7)), Objective(id="OB5", hex=h), round=3)
    held, events = ob.round_closed(b)
    assert held.objectives[0].met == 3 and [type(e) for e in events] == [ob.ObjectiveMet]
    assert not ob.round_closed(attrs.evolve(b, round=2))[0].objectives[0].met
    # An active enemy within 2 hexes denies it; a destroyed one does not.
    near = o11(battle(me, raider(col=6)), Objective(id="OB5", hex=h), round=3)
    assert not ob.round_closed(near)[0].objectives[0].met
    dead = o11(battle(me, kill(raider(col=6))), Objective(id="OB5", hex=h), round=3)
    assert ob.round_closed(dead)[0].objectives[0].met == 3
    # Nobody on the hex: missed.
    away = o11(battle(_me(3), raider(col=7)), Objective(id="OB5", hex=h), round=3)
    assert not ob.round_closed(away)[0].objectives[0].met


def test_ob6_demolition_the_marked_building_collapsed_once() -> None:
    low = Section(hex=at(3, 0), feature="low_building", durability=50)
    high = Section(hex=at(5, 2), feature="high_building", durability=100)
    b = o11(battle(_me(), raider()), structures=(low, high))
    assert ob.marked_building(b) == at(5, 2)  # the first High, though a Low comes first
    assert ob.marked_building(attrs.evolve(b, structures=(low,))) == at(3, 0)
    marked = attrs.evolve(b, objectives=(Objective(id="OB6", hex=at(5, 2)),))
    assert not ob.track_battle(marked, ())[0].objectives[0].met
    ruin = Section(hex=at(5, 2), feature="ruin", durability=30)
    fallen = attrs.evolve(marked, structures=(low, ruin), round=3)
    assert ob.track_battle(fallen, ())[0].objectives[0].met == 3


def test_objectives_are_placed_when_the_battle_is_made() -> None:
    state = make_state(5, 3, ruleset=RULES)
    b = state.battle
    assert b is not None and b.tally == Tally() and b.objectives
    for o in b.objectives:
        if o.id == "OB5":
            assert o.hex == ob.objective_hex(b.map, b.structures)
        elif o.id == "OB6":
            assert o.hex == ob.marked_building(b)
        else:
            assert o.hex is None
    core = make_state(5, 3, ruleset=("O3",)).battle
    assert core is not None and core.objectives == () and core.tally is None


def test_ob7_escort_no_allied_frame_destroyed() -> None:
    friend = attrs.evolve(shooter(pos=at(1, 0)), id="ally-1", side="ally")
    b = o11(battle(_me(), kill(raider()), friend), Objective(id="OB7"), ruleset=("O10", "O11"))
    assert ob.track_battle(_over(b, "victory"), ())[0].objectives[0].met == 4
    for lost in (kill(friend), head_kill(friend)):
        gone = attrs.evolve(b, units=(_me(), kill(raider()), lost))
        assert not ob.track_battle(_over(gone, "victory"), ())[0].objectives[0].met
    assert not ob.track_battle(b, ())[0].objectives[0].met  # only at the end


def test_o10_cuts_lost_allies_and_neutrals_the_lance_destroyed() -> None:
    friend = attrs.evolve(shooter(pos=at(1, 0)), id="ally-1", side="ally")
    bystander = attrs.evolve(raider(col=6, row=0), id="neutral-1", side="neutral")
    b = o11(
        battle(_me(), raider(), kill(friend), attrs.evolve(kill(bystander), downed_by="shooter")),
        ruleset=("O10", "O11"),
    )
    # Withdrawal 50% of 150,000 = 75,000; -5% (7,500) an ally, -5% a neutral: 60,000.
    pay = objective_pay(contract(), b, "withdrawal", 100, 0, zero_losses=True)
    assert pay.total == 60_000
    assert [(c.id, c.percent, c.amount) for c in pay.cuts] == [
        ("ally_lost", 5, 7_500),
        ("neutral_killed", 5, 7_500),
    ]
    # A neutral the enemy destroyed costs the lance nothing.
    theirs = attrs.evolve(kill(bystander), downed_by="raider-2")
    b2 = attrs.evolve(b, units=(_me(), raider(), friend, theirs))
    assert objective_pay(contract(), b2, "withdrawal", 100, 0, zero_losses=True).total == 75_000


def test_ob8_recon_every_enemy_detected_by_the_end_of_round_3() -> None:

    e1, e2 = raider(col=7), attrs.evolve(raider(col=9), id="raider-3")
    b = o11(battle(_me(), e1, e2), Objective(id="OB8"), round=2, ruleset=("O8", "O11"))
    seen = Detected(side="player", unit="raider-2", how="sight", hex=at(7))
    b, events = ob.track_battle(b, (seen,))
    assert b.tally is not None and b.tally.detected == ("raider-2",)
    assert not b.objectives[0].met and events == []
    # The enemy's own detections do not count; the player's side's contacts do.
    theirs = Detected(side="enemy", unit="shooter", how="sight", hex=at(0))
    b, _ = ob.track_battle(b, (theirs,))
    assert b.tally is not None and b.tally.detected == ("raider-2",)
    # The command that closes round 3 (RoundStarted 4 among its events) still counts ...
    late = attrs.evolve(
        b, round=4, contacts=(Contact(side="player", unit="raider-3", how="sight"),)
    )
    met, events = ob.track_battle(late, (RoundStarted(round=4, order=()),))
    assert met.objectives[0].met == 4 and [type(e) for e in events] == [ob.ObjectiveMet]
    # ... a command begun in round 4 does not.
    missed, _ = ob.track_battle(late, ())
    assert not missed.objectives[0].met
    # A frame out of the fight before it was detected needs no detecting (ruling O11i).
    gone = attrs.evolve(b, units=(_me(), e1, kill(e2)))
    assert ob.track_battle(gone, ())[0].objectives[0].met == 2


# ---- O11.5: the tally ----------------------------------------------------------------------------
def test_tally_counts_each_weapon_that_fires_by_size_and_equipment_uses() -> None:
    state = make_state(2, 2, ruleset=("O11",))
    state = run(state, "auto-deploy", "start-battle")
    shots = [0, 0, 0]
    uses = 0
    for _ in range(400):
        b = state.battle
        if b is None or b.phase != "combat":
            break
        decision = decide(state)
        out = step(state, decision.command)
        assert isinstance(out, Accepted)
        for e in out.events:
            if isinstance(e, Attacked) and b.unit(e.result.attacker).side == "player":
                size = CAT.weapons[e.result.weapon].size
                shots[("small", "medium", "large").index(size)] += 1
            if isinstance(e, EquipmentUsed) and b.unit(e.unit).side == "player":
                uses += 1
        state = out.state
        assert state.battle is not None and state.battle.tally is not None
        assert state.battle.tally.shots == tuple(shots)
        assert state.battle.tally.equipment == uses
    assert sum(shots) > 0


def test_mission_costs_50_per_point_structure_after_reactive_armor() -> None:
    me = attrs.evolve(_me(), start_structure=40, structure=(0, 10, 4, 4, 4, 4, 0))
    b = o11(battle(me, raider()), tally=Tally(shots=(5, 7, 4), equipment=2))
    costs = ob.mission_costs(b)
    assert costs.structure == 14
    # 14 structure + 5 x 1 + 7 x 2 + 4 x 3 + 2 = 47 points x 50.
    assert costs.credits == 47 * 50


# ---- O11.3-O11.5: settlement, the worked example ------------------------------------------------
def o11_hub(credits: int | None = None, **changes: Any) -> GameState:
    changes = {"objectives": (Objective(id="OB3"), Objective(id="OB1")), **changes}
    state = hub(**changes)

    def setup(cp: Any) -> Any:
        standing = tuple((f, 100 if f == "crucible" else v) for f, v in cp.standing)
        cp = attrs.evolve(cp, ruleset=RULES, standing=standing)
        return cp if credits is None else attrs.evolve(cp, credits=credits)

    return edit(state, setup)


def _worked_example_battle(state: GameState) -> GameState:
    """Round 3 of the example's battle: 14 structure lost, 31 tier points fired (5 small,
    7 medium, 4 large), two sections levelled by the player's shots."""
    b = state.battle
    assert b is not None
    p1, _ = b.side_units("player")
    hurt = attrs.evolve(p1, structure=tuple(max(0, s - 2) for s in p1.structure))
    lost = p1.total_structure - hurt.total_structure
    assert lost == 14
    b = attrs.evolve(
        b.with_unit(hurt), round=3, tally=Tally(shots=(5, 7, 4), equipment=0, collateral=2)
    )
    return attrs.evolve(state, battle=b)


def test_the_documents_worked_example() -> None:
    """D3, C = 150,000, Friendly, flawless Victory: R23 206,250; Swift and Decapitate +30,000;
    two buildings levelled -6,000: 230,250; at Balanced (70%) 161,175. Costs 45 x 50 = 2,250."""
    state = o11_hub()
    credits = camp(state).credits
    state = _worked_example_battle(in_battle(state, "accept C90 2 F1+F2"))
    deployed = camp(state).credits
    out = finish(state, "end", E1=head_kill, E2=kill)
    cp = camp(out.state)
    aa = cp.after_action
    assert aa is not None and aa.credits == 161_175
    moved = [e for e in out.events if isinstance(e, CreditsMoved)]
    assert [(m.category, m.amount) for m in moved] == [
        ("reward", 144_375),  # 206,250 x 70%
        ("objective", 10_500),  # Swift: 10% of 150,000 at 70%
        ("objective", 10_500),  # Decapitate
        ("pay_cut", -4_200),  # 2 sections x 2% = 4% of 150,000 at 70%
        ("mission_costs", -2_250),
    ]
    assert [e for e in out.events if isinstance(e, PayCut)] == [
        PayCut(id="collateral", percent=4, amount=4_200)
    ]
    costs = [e for e in out.events if isinstance(e, ob.MissionCosts)]
    assert costs == [ob.MissionCosts(structure=14, shots=(5, 7, 4), equipment=0, credits=2_250)]
    assert cp.credits == deployed + 161_175 - 2_250 < credits + 161_175
    assert {o.id: o.met for o in aa.objectives} == {"OB3": 3, "OB1": 3}
    report = "\n".join(aa.report)
    assert "Objective OB3 Swift" in report and "met in round 3" in report


def test_pay_formula_the_example_without_the_engine() -> None:
    c = contract()
    b = o11(
        battle(_me(), raider()),
        Objective(id="OB3", met=4),
        Objective(id="OB1", met=2),
        tally=Tally(collateral=2),
    )
    pay = objective_pay(c, b, "victory", 110, 2, zero_losses=True)
    assert pay.total == 161_175
    assert sum(amount for _, amount, _ in pay.lines) == pay.total
    # At Full Pay (100%): 230,250.
    assert objective_pay(c, b, "victory", 110, 0, zero_losses=True).total == 230_250


def test_collateral_is_capped_at_20_percent_and_needs_o3() -> None:
    c = contract()
    b = o11(battle(_me(), raider()), tally=Tally(collateral=15))
    # Withdrawal: 50% of 150,000 = 75,000 - 20% (30,000) = 45,000 at Full Pay.
    assert objective_pay(c, b, "withdrawal", 100, 0, zero_losses=True).total == 45_000
    no_o3 = attrs.evolve(b, ruleset=("O11",))
    assert objective_pay(c, no_o3, "withdrawal", 100, 0, zero_losses=True).total == 75_000


def test_a_defeat_pays_no_bonus_but_takes_the_cuts() -> None:
    c = contract()
    b = o11(battle(_me(), raider()), Objective(id="OB1", met=2), tally=Tally(collateral=1))
    # Defeat 25% of 150,000 = 37,500; no Decapitate bonus; -2% = -3,000: 34,500.
    pay = objective_pay(c, b, "defeat", 100, 0, zero_losses=False)
    assert pay.total == 34_500
    assert [cat for cat, _, _ in pay.lines] == ["reward", "pay_cut"]


def test_an_o11_mission_leaves_a_complete_report() -> None:
    state = o11_hub(objectives=(Objective(id="OB2"), Objective(id="OB5", hidden=True)))
    state = in_battle(state)
    out = finish(state, "end", E1=kill, E2=kill)
    aa = camp(out.state).after_action
    assert aa is not None
    report = "\n".join(aa.report)
    assert "Objective OB2 Annihilate" in report and "met in round 1" in report
    assert "Hidden objective OB5 Seize" in report and "hidden, missed" in report
    assert "Mission costs:" in report


# ---- O11.6-O11.7: debt ---------------------------------------------------------------------------
def test_settlement_may_leave_credits_below_zero_and_then_no_xp() -> None:
    state = in_battle(o11_hub(credits=1_000))
    assert camp(state).credits < 0  # deployed on credit (O11.7)
    b = state.battle
    assert b is not None
    b = attrs.evolve(b, tally=Tally(shots=(0, 0, 4000)))  # 12,000 points: 600,000 credits
    out = finish(attrs.evolve(state, battle=b), "end", E1=kill, E2=kill)
    cp = camp(out.state)
    assert cp.credits < 0
    xp_before = {p.callsign: p.xp for p in camp(state).pilots}
    assert {p.callsign: p.xp for p in cp.pilots} == xp_before
    assert any("no XP" in line for line in cp.after_action.report)  # type: ignore[union-attr]


def test_xp_as_usual_while_credits_stay_at_or_above_zero() -> None:
    state = in_battle(o11_hub())
    out = finish(state, "end", E1=kill, E2=kill)
    cp = camp(out.state)
    assert cp.credits >= 0
    assert all(p.xp > 0 for p in cp.pilots if p.callsign in ("Ghost", "Falcon"))


def test_deploying_in_debt_down_to_the_floor() -> None:
    state = o11_hub(credits=0)
    cost = deployment_cost(camp(state), ["F1", "F2"])
    assert cost == 6_000  # §11.5: the starting Enforcer and Raider
    floor = DATA.debt.floor
    at_floor = edit(state, lambda cp: attrs.evolve(cp, credits=floor + cost))
    assert run(at_floor, "accept C90 2 F1+F2").campaign.credits == floor  # type: ignore[union-attr]
    below = edit(state, lambda cp: attrs.evolve(cp, credits=floor + cost - 1))
    refused(below, "accept C90 2 F1+F2", "in debt only down to -100,000 (O11.7)")
    # The core game still refuses a deployment it cannot pay.
    core = edit(state, lambda cp: attrs.evolve(cp, credits=cost - 1, ruleset=()))
    refused(core, "accept C90 2 F1+F2", "costs 6,000 credits")


# ---- O11.8: quick battles; determinism -----------------------------------------------------------
def test_a_quick_battle_shows_objectives_and_costs_and_posts_nothing() -> None:
    state = make_state(4, 3, ruleset=RULES)
    end, events = play(state, {"player": decide, "enemy": decide})
    assert end.campaign is None
    costs = [e for e in events if isinstance(e, ob.MissionCosts)]
    assert len(costs) == 1 and costs[0] == ob.mission_costs(end.battle)  # type: ignore[arg-type]
    met = [e for e in events if isinstance(e, ob.ObjectiveMet)]
    assert [(e.id, e.round) for e in met] == [
        (o.id, o.met)
        for o in sorted(end.battle.objectives, key=lambda o: o.met)  # type: ignore[union-attr]
        if o.met
    ]


def test_an_o11_skirmish_replays_byte_for_byte() -> None:
    state = fold(initial_state(9), [parse_command("new-skirmish 3 --rules O3,O11")])[0]
    assert state.battle is not None and state.battle.objectives
    end, _ = play(state, {"player": decide, "enemy": decide})
    assert end.battle is not None and end.battle.tally is not None
    assert state_hash(end) == state_hash(play(state, {"player": decide, "enemy": decide})[0])


def test_a_mid_battle_o11_save_loads_and_checks() -> None:
    state = _worked_example_battle(in_battle(o11_hub(), "accept C90 2 F1+F2"))
    assert problems(state) == []
    again = state_from_data(json.loads(json.dumps(state_to_data(state))))
    assert again == state and state_hash(again) == state_hash(state)
    b = state.battle
    assert b is not None
    bad = attrs.evolve(b, objectives=(Objective(id="OB9", met=7),))
    found = problems(attrs.evolve(state, battle=bad))
    assert any("OB9" in f for f in found) and any(".met" in f for f in found)
    core = attrs.evolve(b, ruleset=("O3",))
    assert any("need optional module O11" in f for f in problems(attrs.evolve(state, battle=core)))


# ---- O11.10: the AI ------------------------------------------------------------------------------
def test_the_frame_nearest_the_objective_hex_goes_for_it() -> None:
    goal = at(6)
    near, far = _me(4), attrs.evolve(_me(1), id="other")
    b = o11(battle(far, near, raider(col=12)), Objective(id="OB5", hex=goal))
    assert seize_target(b, near) == goal and seize_target(b, far) is None
    assert seize_target(b, b.unit("raider-2")) is None  # the enemy side never scores it
    for hidden, met in ((True, 0), (False, 2)):
        other = attrs.evolve(b, objectives=(Objective(id="OB5", hex=goal, hidden=hidden, met=met),))
        assert seize_target(other, near) is None
    assert seize_value(goal, goal) == HOLD
    assert seize_value(at(3), goal) == -3 * SEIZE


def test_the_ai_weighs_the_objective_hex_only_under_o11() -> None:
    state = run(make_state(3, 4, ruleset=RULES), "auto-deploy", "start-battle")
    b = state.battle
    assert b is not None
    b = ob.place_objectives(attrs.evolve(b, objectives=()), (Objective(id="OB5"),))
    for _ in range(60):
        u = b.active_unit
        if u is not None and seize_target(b, u) is not None:
            break
        out = step(attrs.evolve(state, battle=b), decide(attrs.evolve(state, battle=b)).command)
        assert isinstance(out, Accepted) and out.state.battle is not None
        state, b = out.state, out.state.battle
    decision = decide(attrs.evolve(state, battle=b))
    assert all(dict(o.parts).get("objective") is not None for o in decision.why)
    core = decide(attrs.evolve(state, battle=attrs.evolve(b, objectives=(), tally=None)))
    assert all("objective" not in dict(o.parts) for o in core.why)


def test_the_ai_fires_at_the_marked_building_when_it_can() -> None:
    h = at(4)
    section = Section(hex=h, feature="low_building", durability=50)
    me = _me(0, ap=2)
    b = o11(
        battle(me, raider(col=12)),
        Objective(id="OB6", hex=h),
        structures=(section,),
        order=(me.id, "raider-2"),
    )
    state = attrs.evolve(make_state(1, 1), battle=b)
    shot = demolition_shot(state)
    assert isinstance(shot, FireStructure) and shot.hex == h
    assert refusal(state, shot) is None
    # Not once met.
    met = attrs.evolve(b, objectives=(Objective(id="OB6", hex=h, met=1),))
    assert demolition_shot(attrs.evolve(state, battle=met)) is None
