"""Galaxy travel (§14.3, §14.4, setup-facts galaxy): `travel`, `jump`, the galaxy screen's
destinations and route plans."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.campaign.commands import Jump, Travel
from mac_tui.campaign.state import Campaign, Mission
from mac_tui.campaign.travel import (
    _jump,
    _travel,
    destinations,
    quickest_chain,
    route_plan,
)
from mac_tui.catalog import catalog
from mac_tui.dice import Dice
from mac_tui.game import Accepted, Refused, parse_command, step
from mac_tui.model import GameState, initial_state

CAT = catalog()
# Starting lance: EN-50 (medium, 1,000 a day) + RD-30 (light, 500 a day) = 1,500 a day (§11.4).
UPKEEP = 1_500


def start(seed: int = 1) -> GameState:
    out = step(initial_state(seed), parse_command("new-campaign Test"))
    assert isinstance(out, Accepted)
    return out.state


def run(state: GameState, line: str) -> GameState:
    out = step(state, parse_command(line))
    assert isinstance(out, Accepted), getattr(out, "reason", "")
    return out.state


def refuse(state: GameState, line: str) -> str:
    out = step(state, parse_command(line))
    assert isinstance(out, Refused), f"{line!r} was accepted"
    return out.reason


def camp(state: GameState) -> Campaign:
    assert state.campaign is not None
    return state.campaign


def with_campaign(state: GameState, **changes: object) -> GameState:
    return attrs.evolve(state, campaign=attrs.evolve(camp(state), **changes))


def upkeep_entries(before: Campaign, after: Campaign) -> list[tuple[int, int]]:
    new = after.ledger[len(before.ledger) :]
    return [(e.day, e.amount) for e in new if e.category == "upkeep"]


def test_data_matches_section_14_3() -> None:
    rules = CAT.galaxy.travel
    assert (rules.intra_system_fuel, rules.intra_system_days, rules.fuel_capacity) == (5, 1, 100)


# ---- travel within a system ----------------------------------------------------------------
def test_travel_costs_fuel_and_a_day_with_upkeep() -> None:
    s0 = start()
    c0 = camp(s0)
    assert (c0.place, c0.fuel, c0.day) == ("junction_station", 50, 1)
    c1 = camp(run(s0, "travel waypoint"))
    assert c1.place == "waypoint"
    assert c1.fuel == 45  # 50 - 5
    assert c1.day == 2  # 1 + 1
    assert upkeep_entries(c0, c1) == [(2, -UPKEEP)]
    # Every credit moved through the ledger: the balance is the last entry's.
    assert c1.credits == c1.ledger[-1].balance


def test_travel_refusals() -> None:
    s0 = start()
    assert "already at Junction Station" in refuse(s0, "travel junction_station")
    assert "no location 'nowhere'" in refuse(s0, "travel nowhere")
    reason = refuse(s0, "travel new_geneva")
    assert "New Geneva is in Sol" in reason and "jump sol" in reason


def test_travel_refused_without_fuel() -> None:
    s0 = with_campaign(start(), fuel=4)
    reason = refuse(s0, "travel waypoint")
    assert "needs 5 fuel; the company holds 4" in reason
    # Exactly enough fuel is enough: 5 - 5 = 0.
    assert camp(run(with_campaign(s0, fuel=5), "travel waypoint")).fuel == 0


def test_refusal_changes_nothing_at_the_handler() -> None:
    s0 = with_campaign(start(), fuel=4)
    c0 = camp(s0)
    dice = Dice(s0.rng)
    assert isinstance(_travel(c0, Travel("waypoint"), dice), str)
    assert isinstance(_jump(c0, Jump("sol"), dice), str)
    assert isinstance(_jump(c0, Jump("deadlight"), dice), str)  # 10 fuel needed, 4 held
    assert dice.state() == s0.rng


# ---- jumps -----------------------------------------------------------------------------------
def test_jump_costs_route_fuel_and_days_and_arrives_at_the_arrival_point() -> None:
    s0 = start()
    c0 = camp(s0)
    # Crossroads-Deadlight: 10 fuel, 2 days; the arrival point is Deadlight's first location.
    c1 = camp(run(s0, "jump deadlight"))
    assert c1.place == "blackport" == CAT.arrival_place("deadlight").id
    assert c1.fuel == 40  # 50 - 10
    assert c1.day == 3  # 1 + 2
    assert upkeep_entries(c0, c1) == [(2, -UPKEEP), (3, -UPKEEP)]
    assert c1.credits == c0.credits - 2 * UPKEEP  # nothing else was bought


def test_jump_refusals() -> None:
    s0 = start()
    reason = refuse(s0, "jump sol")
    assert "no jump route from Crossroads to Sol" in reason
    assert "Centauri Gate > Sol" in reason  # the shortest way is suggested
    assert "already in Crossroads" in refuse(s0, "jump crossroads")
    assert "no system 'andromeda'" in refuse(s0, "jump andromeda")
    reason = refuse(with_campaign(s0, fuel=14), "jump centauri_gate")
    assert "needs 15 fuel; the company holds 14" in reason


def test_jump_from_any_location_of_the_system() -> None:
    s = run(start(), "travel waypoint")  # not the arrival point
    c = camp(run(s, "jump haven"))
    assert c.place == "concord"
    assert c.fuel == 50 - 5 - 15


def test_a_long_trip_is_several_jumps() -> None:
    s = start()
    s = run(s, "jump centauri_gate")  # 15 fuel, 3 days
    s = run(s, "jump sol")  # 15 fuel, 3 days
    c = camp(s)
    assert (c.place, c.fuel, c.day) == ("new_geneva", 20, 7)  # 50 - 30; 1 + 6


def test_repairs_and_injuries_go_on_while_travelling() -> None:
    s0 = start()
    c0 = camp(s0)
    frame = attrs.evolve(c0.frame("F1"), status="repairing", busy_days=2)
    pilot = attrs.evolve(c0.pilot("Thunder"), status="injured", injury_days=2)
    s0 = attrs.evolve(s0, campaign=c0.with_frame(frame).with_pilot(pilot))
    c1 = camp(run(s0, "jump deadlight"))  # 2 days
    assert c1.frame("F1").status == "ready"
    assert c1.pilot("Thunder").status == "active"


def test_no_travel_during_a_mission() -> None:
    s0 = start()
    c0 = camp(s0)
    mission = Mission(contract=c0.contracts[0], payout_level=2, frames=())
    s0 = attrs.evolve(s0, campaign=attrs.evolve(c0, mission=mission))
    assert "mission is under way" in refuse(s0, "travel waypoint")
    assert "mission is under way" in refuse(s0, "jump deadlight")


# ---- contracts on arrival (§14.4) ------------------------------------------------------------
def test_one_fresh_board_on_arrival_after_travel() -> None:
    c = camp(run(start(), "travel waypoint"))
    assert c.contracts_day == c.day == 2
    assert {k.place for k in c.contracts} == {"waypoint"}
    # Exactly one board of three was posted on the way: C1-C3 at the start, then C4-C6.
    assert [k.id for k in c.contracts] == ["C4", "C5", "C6"]
    assert c.next_contract == 7


def test_one_fresh_board_on_arrival_after_a_jump() -> None:
    c = camp(run(start(), "jump haven"))  # 3 days
    assert c.contracts_day == c.day == 4
    assert {k.place for k in c.contracts} == {"concord"}
    assert [k.id for k in c.contracts] == ["C4", "C5", "C6"]


def test_arrival_posts_a_board_even_when_the_old_one_was_fresh() -> None:
    s = run(start(), "travel waypoint")
    s = run(s, "travel junction_station")
    c = camp(s)
    assert c.contracts_day == 3
    assert {k.place for k in c.contracts} == {"junction_station"}
    assert [k.id for k in c.contracts] == ["C7", "C8", "C9"]


def test_the_run_can_end_on_the_way() -> None:
    # R28: credits below zero for the limit's days; the last of them passes during the trip.
    limit = CAT.economy.failure.negative_credit_days
    s0 = with_campaign(start(), credits=-1, negative_days=limit - 1)
    c = camp(run(s0, "jump deadlight"))
    assert c.ended
    assert c.day == 2  # the trip stopped with the run
    assert c.contracts == ()  # no board is posted for a finished company
    assert "the run is over" in refuse(attrs.evolve(s0, campaign=c), "travel waypoint")


# ---- the galaxy screen -----------------------------------------------------------------------
def test_destinations_from_the_start() -> None:
    c = attrs.evolve(camp(start()), fuel=12)
    rows = [(d.kind, d.id, d.arrival, d.fuel, d.days, d.affordable) for d in destinations(c)]
    assert rows == [
        ("travel", "waypoint", "waypoint", 5, 1, True),
        ("jump", "centauri_gate", "gatekeeper_station", 15, 3, False),
        ("jump", "avalon", "foundry_station", 15, 3, False),
        ("jump", "haven", "concord", 15, 3, False),
        ("jump", "deadlight", "blackport", 10, 2, True),
    ]
    avalon = destinations(c)[2]
    assert avalon.reason is not None and "needs 15 fuel; the company holds 12" in avalon.reason
    assert avalon.command() == "jump avalon"
    assert destinations(c)[0].reason is None


def test_destinations_match_what_the_engine_accepts() -> None:
    s0 = with_campaign(start(), fuel=12)
    for d in destinations(camp(s0)):
        out = step(s0, parse_command(d.command()))
        assert out.accepted == d.affordable
        if isinstance(out, Accepted):
            assert camp(out.state).place == d.arrival


def test_route_plan_hand_examples() -> None:
    c = camp(start())  # Crossroads
    plan = route_plan(c, "sol")
    assert plan is not None
    # Via Centauri Gate: 3 + 3 = 6 days, 15 + 15 = 30 fuel (via Avalon-Meridian: 3+2+3 = 8).
    assert plan.systems == ("crossroads", "centauri_gate", "sol")
    assert (plan.days, plan.fuel, plan.fuel_enough) == (6, 30, True)
    assert [(h.origin, h.to, h.fuel, h.days) for h in plan.hops] == [
        ("crossroads", "centauri_gate", 15, 3),
        ("centauri_gate", "sol", 15, 3),
    ]
    plan = route_plan(c, "rimward")
    assert plan is not None
    # Via Deadlight: 2 + 3 = 5 days, 10 + 15 = 25 fuel (via Haven: 3 + 3 = 6 days).
    assert (plan.systems, plan.days, plan.fuel) == (("crossroads", "deadlight", "rimward"), 5, 25)
    plan = route_plan(attrs.evolve(c, fuel=20), "the_drift")
    assert plan is not None
    # Via Haven: 3 + 2 = 5 days, 15 + 10 = 25 fuel, more than the 20 held.
    assert (plan.systems, plan.days, plan.fuel) == (("crossroads", "haven", "the_drift"), 5, 25)
    assert not plan.fuel_enough
    here = route_plan(c, "crossroads")
    assert here is not None and (here.hops, here.days, here.fuel) == ((), 0, 0)
    with pytest.raises(KeyError):
        route_plan(c, "andromeda")


def test_route_plan_tie_break() -> None:
    # A toy galaxy: a-b-d and a-c-d both take 4 days; a-c-d burns less fuel.
    graph = {
        "a": [("b", 10, 2), ("c", 5, 2), ("e", 1, 1)],
        "b": [("a", 10, 2), ("d", 10, 2)],
        "c": [("a", 5, 2), ("d", 10, 2)],
        "d": [("b", 10, 2), ("c", 10, 2), ("f", 5, 2)],
        "e": [("a", 1, 1), ("f", 4, 1)],
        "f": [("e", 4, 1), ("d", 5, 2)],
        "z": [],
    }

    def neighbours(s: str) -> list[tuple[str, int, int]]:
        return graph[s]

    # a-e-f-d: 1 + 1 + 2 = 4 days, 1 + 4 + 5 = 10 fuel beats a-c-d (4 days, 15 fuel) and
    # a-b-d (4 days, 20 fuel): equal days, less fuel wins.
    assert quickest_chain("a", "d", neighbours) == ("a", "e", "f", "d")
    # b-d-f: 2 + 2 = 4 days, 10 + 5 = 15 fuel; b-a-e-f: 2 + 1 + 1 = 4 days, 10 + 1 + 4 = 15
    # fuel: equal days and fuel, fewer jumps win.
    assert quickest_chain("b", "f", neighbours) == ("b", "d", "f")
    # a-b-d and a-c-d: 4 days, 15 fuel, 2 jumps each: the alphabetically first list wins.
    graph["a"] = [("c", 5, 2), ("b", 5, 2)]
    assert quickest_chain("a", "d", neighbours) == ("a", "b", "d")
    assert quickest_chain("a", "z", neighbours) is None


def test_every_system_can_be_planned_and_the_plan_can_be_flown() -> None:
    c = attrs.evolve(camp(start()), fuel=CAT.galaxy.travel.fuel_capacity)
    for system in CAT.systems:
        plan = route_plan(c, system)
        assert plan is not None
        for hop in plan.hops:
            assert CAT.route(hop.origin, hop.to) is not None


# ---- invariants ------------------------------------------------------------------------------
SYSTEMS = sorted(CAT.systems)
PLACES = sorted(CAT.places)


@settings(max_examples=25, deadline=None)
@given(
    fuel=st.integers(0, 100),
    moves=st.lists(
        st.one_of(
            st.sampled_from(PLACES).map(lambda p: f"travel {p}"),
            st.sampled_from(SYSTEMS).map(lambda s: f"jump {s}"),
        ),
        max_size=8,
    ),
)
def test_fuel_stays_in_range_and_refusals_change_nothing(fuel: int, moves: list[str]) -> None:
    state = with_campaign(start(3), fuel=fuel)
    capacity = CAT.galaxy.travel.fuel_capacity
    for line in moves:
        before = camp(state)
        out = step(state, parse_command(line))
        if isinstance(out, Accepted):
            after = camp(out.state)
            assert 0 <= after.fuel < before.fuel <= capacity
            assert after.day > before.day
            state = out.state
        else:
            assert camp(state) == before
        assert 0 <= camp(state).fuel <= capacity
