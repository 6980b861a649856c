"""Optional module O7, Kicks and stun (optional-rules.md O7.1-O7.9), rule by rule.

Same hand-drawn map as `test_moving_fire.py`: three rows of fourteen Open hexes; frames on row 1
stand `col` apart. Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui.catalog import catalog
from mac_tui.combat import stats, stun
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.state import Unit

from .test_damage import make_unit, set_loc
from .test_moving_fire import battle, enforcer, falcon, names

CAT = catalog()
O7 = ("O7",)


def test_data_file_names_its_rules() -> None:
    data = CAT.kicks
    assert (data.kick.rule, data.chance.rule, data.damage.rule) == ("O7.1", "O7.2", "O7.3")
    assert sum(row.weight for row in data.location) == 100
    assert CAT.modules["O7"].data == "kicks.toml"


# --- O7.6: the entries and the movement ---------------------------------------------------------
@pytest.mark.parametrize(("state", "value"), [("stunned", -50), ("dazed", -20)])
def test_stunned_and_dazed_entries(state: str, value: int) -> None:
    # 80 + 10 - 13 + 10 = 87, then the stun's entry last
    b = battle(falcon(stun=state), enforcer(), rules=O7)
    a = b.unit("falcon")
    hc = hit_chance(b, a, b.unit("enforcer"), a.weapons[0])
    assert hc is not None and names(hc)[-1] == state and hc.value(state) == value
    assert hc.chance == 87 + value


def test_stun_after_the_o5_entries() -> None:
    b = battle(falcon(stun="stunned", moved_hexes=1), enforcer(moved_hexes=8), rules=("O5", "O7"))
    a = b.unit("falcon")
    hc = hit_chance(b, a, b.unit("enforcer"), a.weapons[0])
    assert hc is not None and names(hc)[-3:] == ["moving", "fast target", "stunned"]
    # 87 - 25 - 5 - 50 = 7
    assert hc.chance == 7


@pytest.mark.parametrize(
    ("chassis", "normal", "stunned"),
    [("RD-30", 4, 2), ("EN-50", 3, 1), ("BR-70", 2, 1), ("CL-100", 1, 1)],
)
def test_stunned_movement_halved_at_least_1(chassis: str, normal: int, stunned: int) -> None:
    unit = make_unit(chassis=chassis)
    assert stats.hex_movement(unit) == normal
    assert stats.hex_movement(attrs.evolve(unit, stun="stunned")) == stunned
    assert stats.hex_movement(attrs.evolve(unit, stun="stunned"), sprint=True) == 2 * stunned
    assert stats.hex_movement(attrs.evolve(unit, stun="dazed")) == normal


# --- O7.7: the threshold ------------------------------------------------------------------------
@pytest.mark.parametrize(("chassis", "threshold"), [("SC-20", 7), ("EN-50", 12), ("CL-100", 24)])
def test_threshold_is_a_quarter_of_the_structure_rounded_up(chassis: str, threshold: int) -> None:
    assert stun.threshold(make_unit(chassis=chassis)) == threshold


def hurt(unit: Unit, lost: int) -> Unit:
    """`unit` (round counter started at full structure) with `lost` structure gone from CT."""
    started = attrs.evolve(unit, round_structure=unit.total_structure)
    ct = started.structure[1]
    return set_loc(started, "center_torso", structure=ct - lost)


def test_threshold_stuns_at_12_for_an_enforcer() -> None:
    b = battle(falcon(), hurt(enforcer(), 11), rules=O7)
    b, events = stun.check_threshold(b)
    assert events == [] and b.unit("enforcer").stun == ""
    b = b.with_unit(hurt(enforcer(), 12))
    b, events = stun.check_threshold(b)
    assert events == [stun.Stunned(unit="enforcer", cause="threshold", lost=12, threshold=12)]
    assert b.unit("enforcer").stun == "stunned" and not b.unit("enforcer").stun_running


def test_no_threshold_with_o7_off() -> None:
    b = battle(falcon(), hurt(enforcer(), 20), rules=())
    assert stun.check_threshold(b) == (b, [])


# --- O7.6: stun never stacks ------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(
    start=st.sampled_from(["", "stunned", "dazed"]),
    running=st.booleans(),
    steps=st.lists(st.sampled_from(["kick", "threshold", "start", "end"]), max_size=12),
)
def test_stun_never_stacks(start: str, running: bool, steps: list[str]) -> None:
    """Whatever happens, a frame holds one state; a stun lands only on a frame in none, and a
    stun runs exactly: stunned -> (an activation starts, ends) -> dazed -> (again) -> none."""
    b = battle(falcon(), enforcer(stun=start, stun_running=running and bool(start)), rules=O7)
    for step in steps:
        before = b.unit("enforcer")
        if step in ("kick", "threshold"):
            b, events = stun.stun(b, "enforcer", step)  # type: ignore[arg-type]
            assert bool(events) == (before.stun == "")
        elif step == "start":
            b = b.with_unit(stun.activation_started(before))
        else:
            b, events = stun.activation_ended(b, "enforcer")
            if before.stun and before.stun_running:
                want = {"stunned": stun.StunEased, "dazed": stun.StunEnded}[before.stun]
                assert [type(e) for e in events] == [want]
            else:
                assert events == []
        after = b.unit("enforcer")
        assert after.stun in ("", "stunned", "dazed")
        if before.stun and step in ("kick", "threshold"):
            assert after == before  # never stacks, never restarts


def test_a_stun_lasts_to_the_end_of_the_first_activation_that_starts_after_it() -> None:
    b = battle(falcon(), enforcer(), rules=O7)
    b, _ = stun.stun(b, "enforcer", "kick")
    b, events = stun.activation_ended(b, "enforcer")  # landed during its own activation
    assert events == [] and b.unit("enforcer").stun == "stunned"
    b = b.with_unit(stun.activation_started(b.unit("enforcer")))
    b, events = stun.activation_ended(b, "enforcer")
    assert events == [stun.StunEased(unit="enforcer")] and b.unit("enforcer").stun == "dazed"
    b = b.with_unit(stun.activation_started(b.unit("enforcer")))
    assert b.unit("enforcer").stun == "dazed"
    b, events = stun.activation_ended(b, "enforcer")
    assert events == [stun.StunEnded(unit="enforcer")] and b.unit("enforcer").stun == ""
