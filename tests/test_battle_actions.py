"""Battle actions through the engine's `step` (§2, §5.2, §5.5, §6.4, §7.2, R2-R6, R11, R14).

Every test builds a small battle by hand, already in combat, and plays commands through
`mac_tui.game.step`. Most maps are a single row of hexes: on row 0 of an odd-r map
``from_offset(col, 0) == Hex(col, 0)`` and the only neighbours are east and west, so a
distance is a difference of columns and a move's terrain cost is a plain sum.

Frames used (data/chassis.toml, data/classes.toml):
    RD-30 Raider    light:  4 hexes per Move, move energy 2, reactor 11, speed 8
    VG-45 Vanguard  medium: 3 hexes per Move, move energy 5, reactor 15, speed 6
    WD-60 Warden    heavy:  2 hexes per Move, move energy 7, reactor 22, speed 4
Overload limit (§5.3) = effective output x 150%, rounded down: Raider 16, Vanguard 22.

Weapons (data/weapons.toml): medium laser 8 energy, medium range (max 10); autocannon-5 1
energy, 5 ammo a shot, long range (max 14); small missile rack 1 energy, 8 ammo a shot, short
range (max 7); heavy laser 14 energy, long range; flamer 6 energy, short range.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from mac_tui.catalog import catalog
from mac_tui.combat import stats
from mac_tui.combat.actions import vent_amount
from mac_tui.combat.attack import AttackResult, Modifier
from mac_tui.combat.commands import (
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    Sprint,
    UseEquipment,
    Vent,
    Withdraw,
)
from mac_tui.combat.events import (
    ActivationEnded,
    ActivationStarted,
    Attacked,
    BattleEnded,
    Braced,
    EquipmentUsed,
    GroupFired,
    Moved,
    OverwatchSet,
    RoundStarted,
    StressChanged,
    Vented,
    WeaponSkipped,
)
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.mapgen import BattleMap
from mac_tui.combat.movement import reach
from mac_tui.combat.state import LEGS, Battle, SideInfo, Unit, Uplink
from mac_tui.dice import RngState
from mac_tui.game import Accepted, Command, Event, Refused, step
from mac_tui.hexgrid import Hex, from_offset
from mac_tui.model import GameState

from .test_damage import gear, make_unit, weapon

CAT = catalog()
ROW = "." * 12
# Armour no single hit can get through: the target of a test never goes down by accident.
TOUGH = (200,) * 7


# --- building battles -----------------------------------------------------------------------
def frame(
    uid: str,
    side: str = "player",
    chassis: str = "VG-45",
    col: int = 0,
    row: int = 0,
    **changes: Any,
) -> Unit:
    """A fresh frame (full armour and structure, 2 AP, no energy used) at (col, row)."""
    return make_unit(uid, side=side, chassis=chassis, pos=from_offset(col, row), **changes)


def game(
    *units: Unit,
    rows: Sequence[str] = (ROW,),
    order: Sequence[str] | None = None,
    turn: int = 0,
    round_: int = 1,
    seed: int = 1,
    sides: tuple[SideInfo, SideInfo] | None = None,
) -> GameState:
    """A game in combat: `order` is the round's initiative order (default: the units' order),
    `order[turn]` acts."""
    battle = Battle(
        map=BattleMap.from_rows(list(rows)),
        units=units,
        sides=sides or (SideInfo(side="player", ai=False), SideInfo(side="enemy", ai=True)),
        difficulty=1,
        landscape="habitable",
        phase="combat",
        round=round_,
        order=tuple(order) if order is not None else tuple(u.id for u in units),
        turn=turn,
    )
    return GameState(seed=seed, rng=RngState(seed=seed), battle=battle)


def bat(state: GameState) -> Battle:
    assert state.battle is not None
    return state.battle


def unit(state: GameState, uid: str) -> Unit:
    return bat(state).unit(uid)


def ok(state: GameState, command: Command) -> Accepted:
    out = step(state, command)
    assert isinstance(out, Accepted), f"{command.to_text()} refused: {getattr(out, 'reason', '')}"
    return out


def refused(state: GameState, command: Command) -> str:
    out = step(state, command)
    assert isinstance(out, Refused), f"{command.to_text()} was accepted"
    return out.reason


def of(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def attacks(events: Sequence[Event]) -> list[AttackResult]:
    return [e.result for e in events if isinstance(e, Attacked)]


def h(col: int, row: int = 0) -> Hex:
    return from_offset(col, row)


def texts(state: GameState) -> set[str]:
    return {c.to_text() for c in legal_commands(state)}


def test_frames_used_here() -> None:
    raider, vanguard = CAT.chassis["RD-30"], CAT.chassis["VG-45"]
    assert (raider.move_energy, raider.reactor, raider.speed) == (2, 11, 8)
    assert (vanguard.move_energy, vanguard.reactor, vanguard.speed) == (5, 15, 6)
    assert stats.hex_movement(frame("r", chassis="RD-30")) == 4
    assert stats.hex_movement(frame("v")) == 3
    # §5.3: 11 x 150% = 16.5 -> 16; 15 x 150% = 22.5 -> 22.
    assert stats.overload_limit(frame("r", chassis="RD-30")) == 16
    assert stats.overload_limit(frame("v")) == 22


# --- Move and Sprint (§6.4, §5.2, R2, R3) ---------------------------------------------------
TERRAIN_ROW = ".T%^........"  # open, forest, rough, rocks, then open


def mover_game(mover: Unit, *others: Unit, rows: Sequence[str] = (ROW,)) -> GameState:
    """`mover` acts; a Raider enemy far east (column 11) keeps the battle going."""
    enemy = frame("E1", "enemy", "RD-30", col=11, row=0 if len(rows) == 1 else 1)
    return game(mover, *others, enemy, rows=rows)


def test_move_pays_terrain_on_entry() -> None:
    # Raider, 4 hexes: forest (2) + rough (2) = 4 reaches column 2; rocks would make it 6.
    state = mover_game(frame("P1", chassis="RD-30"), rows=(TERRAIN_ROW,))
    reached = reach(bat(state), unit(state, "P1"))
    assert {hx: cost for hx, (cost, _) in reached.items()} == {h(0): 0, h(1): 2, h(2): 4}
    assert "out of move range" in refused(state, Move(h(3)))
    out = ok(state, Move(h(2)))
    assert unit(out.state, "P1").pos == h(2)
    assert of(out.events, Moved) == [
        Moved(unit="P1", mode="move", path=(h(0), h(1), h(2)), energy=2, pullback=False)
    ]


def test_sprint_has_double_range_over_terrain() -> None:
    # 8 hexes: forest 2, rough 4, rocks 6, open 7, open 8 -> column 5; column 6 would be 9.
    state = mover_game(frame("P1", chassis="RD-30"), rows=(TERRAIN_ROW,))
    reached = reach(bat(state), unit(state, "P1"), sprint=True)
    assert sorted(hx.q for hx in reached) == [0, 1, 2, 3, 4, 5]
    assert reached[h(5)][0] == 8
    assert "out of sprint range" in refused(state, Sprint(h(6)))
    out = ok(state, Sprint(h(5)))
    p1 = unit(out.state, "P1")
    # Sprint: 2 AP, 2 x 2 = 4 energy.
    assert (p1.pos, p1.ap, p1.energy_used) == (h(5), 0, 4)


@pytest.mark.parametrize("blocker_side", ["player", "enemy"])
def test_occupied_hexes_are_neither_entered_nor_crossed(blocker_side: str) -> None:
    # Raider at 0, another frame at 2 on a one-row map: column 3 is 3 hexes away (within 4)
    # but the only way there crosses column 2.
    blocker = frame("X", blocker_side, "RD-30", col=2)
    state = mover_game(frame("P1", chassis="RD-30"), blocker)
    assert set(reach(bat(state), unit(state, "P1"))) == {h(0), h(1)}
    assert "occupied" in refused(state, Move(h(2)))
    assert "out of move range" in refused(state, Move(h(3)))
    assert "out of sprint range" in refused(state, Sprint(h(3)))


def test_occupied_hex_can_be_walked_around() -> None:
    # Three rows: the blocker at (2, 1) is passed through row 0 or row 2. From Hex(0,1) to
    # Hex(3,1) around Hex(2,1): (0,1) -> (1,1) -> (2,0) -> (3,0) -> (3,1) is 4 steps.
    rows = (ROW, ROW, ROW)
    state = mover_game(frame("P1", chassis="RD-30", row=1), frame("X", col=2, row=1), rows=rows)
    reached = reach(bat(state), unit(state, "P1"))
    assert h(2, 1) not in reached
    assert reached[h(3, 1)][0] == 4
    ok(state, Move(h(3, 1)))


def test_a_destroyed_frame_does_not_block() -> None:
    wreck = frame("X", "enemy", "RD-30", col=2, destroyed=True)
    state = mover_game(frame("P1", chassis="RD-30"), wreck)
    ok(state, Move(h(2)))


@pytest.mark.parametrize("target", [Hex(-1, 0), Hex(12, 0), Hex(0, 1), Hex(0, -1)])
def test_off_map_is_refused(target: Hex) -> None:
    state = mover_game(frame("P1", chassis="RD-30"))
    assert "off the map" in refused(state, Move(target))
    assert "off the map" in refused(state, Sprint(target))


def test_moving_to_the_own_hex_is_refused() -> None:
    state = mover_game(frame("P1"))
    assert "already there" in refused(state, Move(h(0)))


def test_move_energy_is_per_action_not_per_hex() -> None:
    # Vanguard towards the enemy: 1 hex or 3 hexes, 5 energy either way.
    state = mover_game(frame("P1", col=2))
    for col in (3, 5):
        out = ok(state, Move(h(col)))
        p1 = unit(out.state, "P1")
        assert (p1.energy_used, p1.ap) == (5, 1)
        assert bat(out.state).active_unit == p1  # one AP left: still its activation


def test_pullback_costs_half_again_rounded_up() -> None:
    # Vanguard at 5, enemy at 11 (6 away). Column 3 ends 8 away: pull-back, 5 x 1.5 = 7.5 -> 8.
    # Column 7 ends 4 away: advance, 5.
    state = mover_game(frame("P1", col=5))
    back = ok(state, Move(h(3)))
    assert of(back.events, Moved)[0].pullback
    assert unit(back.state, "P1").energy_used == 8
    forward = ok(state, Move(h(7)))
    assert not of(forward.events, Moved)[0].pullback
    assert unit(forward.state, "P1").energy_used == 5


def test_raider_pullback_rounds_up() -> None:
    # Raider: 2 x 1.5 = 3 exactly.
    state = mover_game(frame("P1", chassis="RD-30", col=5))
    assert unit(ok(state, Move(h(2))).state, "P1").energy_used == 3


def test_sideways_move_at_equal_distance_is_not_a_pullback() -> None:
    # Three rows, enemy at Hex(11,1). From Hex(5,1) (6 away) to Hex(6,0): |-5|+|-1|+|-6| / 2 = 6.
    state = mover_game(frame("P1", row=1, col=5), rows=(ROW, ROW, ROW))
    out = ok(state, Move(Hex(6, 0)))
    moved = of(out.events, Moved)[0]
    assert (moved.pullback, moved.energy) == (False, 5)


def test_pullback_is_measured_from_the_nearest_living_enemy() -> None:
    # A wreck at column 3 does not count: moving from 5 to 4 ends 7 from E1 (was 6).
    wreck = frame("E2", "enemy", "RD-30", col=3, destroyed=True)
    state = mover_game(frame("P1", col=5), wreck)
    moved = of(ok(state, Move(h(4))).events, Moved)[0]
    assert (moved.pullback, moved.energy) == (True, 8)


@pytest.mark.parametrize(("col", "pullback"), [(1, True), (10, False)])
def test_sprint_costs_double_either_way(col: int, pullback: bool) -> None:
    # Vanguard at 5: sprint 6 hexes, 5 x 2 = 10 energy whether it pulls back or not; 2 AP.
    state = mover_game(frame("P1", col=5))
    out = ok(state, Sprint(h(col)))
    moved = of(out.events, Moved)[0]
    assert (moved.mode, moved.pullback, moved.energy) == ("sprint", pullback, 10)
    p1 = unit(out.state, "P1")
    assert (p1.ap, p1.energy_used) == (0, 10)


def test_sprint_needs_two_ap() -> None:
    state = mover_game(frame("P1", col=5, ap=1))
    assert refused(state, Sprint(h(8))) == "needs 2 AP, 1 left"
    ok(state, Move(h(8)))


@pytest.mark.parametrize(
    ("hits", "advance", "pullback", "sprint"),
    [
        (1, 7, 11, 14),  # 5 + 2 = 7; 7 x 1.5 = 10.5 -> 11; 7 x 2 = 14
        (2, 9, 14, 18),  # 5 + 4 = 9; 9 x 1.5 = 13.5 -> 14; 9 x 2 = 18
    ],
)
def test_leg_actuator_hits(hits: int, advance: int, pullback: int, sprint: int) -> None:
    actuators = tuple(hits if i == LEGS else 0 for i in range(7))
    state = mover_game(frame("P1", col=5, actuator_hits=actuators))
    assert unit(ok(state, Move(h(7))).state, "P1").energy_used == advance
    assert unit(ok(state, Move(h(3))).state, "P1").energy_used == pullback
    assert unit(ok(state, Sprint(h(9))).state, "P1").energy_used == sprint


def test_destroyed_legs_refuse_move_and_sprint() -> None:
    legs = tuple(0 if i == LEGS else s for i, s in enumerate(frame("x").structure))
    state = mover_game(frame("P1", col=5, structure=legs))
    assert "legs are destroyed" in refused(state, Move(h(6)))
    assert "legs are destroyed" in refused(state, Sprint(h(6)))
    assert not [c for c in legal_commands(state) if isinstance(c, Move | Sprint)]


def test_not_enough_energy_is_refused_and_changes_nothing() -> None:
    # Vanguard with 18 used: 22 - 18 = 4 left; an advance needs 5.
    state = mover_game(frame("P1", col=5, energy_used=18))
    assert refused(state, Move(h(6))) == "needs 5 energy, 4 left"
    assert refused(state, Sprint(h(8))) == "needs 10 energy, 4 left"
    assert unit(state, "P1").energy_used == 18 and unit(state, "P1").pos == h(5)


def test_enough_for_an_advance_but_not_a_pullback() -> None:
    # 22 - 15 = 7 left: an advance (5) goes, a pull-back (8) does not.
    state = mover_game(frame("P1", col=5, energy_used=15))
    assert refused(state, Move(h(4))) == "needs 8 energy, 7 left"
    assert unit(ok(state, Move(h(6))).state, "P1").energy_used == 20


def test_move_may_overload() -> None:
    # 15 used of output 15: the Move's 5 go into overload (20 <= 22 allowed).
    state = mover_game(frame("P1", col=5, energy_used=15))
    assert unit(ok(state, Move(h(6))).state, "P1").energy_used == 20


def test_stealth_plating_costs_a_hex() -> None:
    # Raider 4 - 1 = 3 hexes; sprint 2 x 3 = 6.
    plated = frame("P1", chassis="RD-30", equipment=(gear("stealth_plating", "center_torso"),))
    state = mover_game(plated)
    assert stats.hex_movement(unit(state, "P1")) == 3
    ok(state, Move(h(3)))
    assert "out of move range" in refused(state, Move(h(4)))
    ok(state, Sprint(h(6)))
    assert "out of sprint range" in refused(state, Sprint(h(7)))


def test_stealth_plating_never_takes_a_frame_below_one_hex() -> None:
    # D8: an Assault moves 1 hex; with the plating max(1, 1 - 1) = 1; sprint 2.
    plated = frame("P1", chassis="TN-85", equipment=(gear("stealth_plating", "center_torso"),))
    assert CAT.classes["assault"].hex_movement == 1
    state = mover_game(plated)
    assert stats.hex_movement(unit(state, "P1")) == 1
    ok(state, Move(h(1)))
    ok(state, Sprint(h(2)))


def test_destroyed_stealth_plating_costs_nothing() -> None:
    plate = attrs.evolve(gear("stealth_plating", "center_torso"), destroyed=True)
    state = mover_game(frame("P1", chassis="RD-30", equipment=(plate,)))
    ok(state, Move(h(4)))


# --- Fire Group and Called Shot (§2, §7.2, R5, R6) ------------------------------------------
def gunner(*weapons: Any, col: int = 0, **changes: Any) -> Unit:
    return frame("P1", weapons=tuple(weapons), col=col, **changes)


def fire_game(shooter: Unit, target_col: int = 4, **target: Any) -> GameState:
    """P1 acts, then E1 (a Raider that cannot be broken by one group) still has its AP."""
    enemy = frame("E1", "enemy", "RD-30", col=target_col, armor=TOUGH, **target)
    return game(shooter, enemy)


def test_fire_group_pays_ap_energy_and_ammo() -> None:
    # Group 1: medium laser (8 energy) + autocannon-5 (1 energy, 5 ammo of 40).
    state = fire_game(
        gunner(weapon("medium_laser", "right_arm"), weapon("autocannon_5", "left_arm"))
    )
    assert unit(state, "P1").weapons[1].ammo == 40  # 5 x 8 reloads (R12)
    out = ok(state, FireGroup(1, "E1"))
    p1 = unit(out.state, "P1")
    assert (p1.ap, p1.energy_used, p1.fired_groups) == (1, 9, (1,))
    assert [w.ammo for w in p1.weapons] == [0, 35]
    fired = of(out.events, GroupFired)
    assert fired == [
        GroupFired(unit="P1", group=1, target="E1", called=None, energy=9, overwatch=False)
    ]
    assert [a.weapon for a in attacks(out.events)] == ["medium_laser", "autocannon_5"]
    assert not of(out.events, WeaponSkipped)


def test_each_group_fires_once_per_round() -> None:
    state = fire_game(
        gunner(weapon("medium_laser", "right_arm"), weapon("autocannon_5", "left_arm", group=2))
    )
    first = ok(state, FireGroup(1, "E1"))
    assert refused(first.state, FireGroup(1, "E1")) == "group 1 has already fired this round"
    assert "already fired" in refused(first.state, Overwatch(1))
    ok(first.state, FireGroup(2, "E1"))


def test_called_shot_with_a_group_that_fired_is_refused() -> None:
    state = fire_game(
        gunner(
            weapon("medium_laser", "right_arm"),
            weapon("autocannon_5", "left_arm", group=2),
            ap=3,  # an impossible 3 AP, only to show it is the group that stops it
        )
    )
    first = ok(state, FireGroup(1, "E1"))
    assert "already fired" in refused(first.state, CalledShot(1, "E1", "legs"))


def test_out_of_range_weapon_is_skipped_the_rest_fires() -> None:
    # Distance 9: the small missile rack (short, max 7) cannot reach; the laser (max 10) can.
    state = fire_game(
        gunner(weapon("small_missile_rack", "left_arm"), weapon("medium_laser", "right_arm")),
        target_col=9,
    )
    out = ok(state, FireGroup(1, "E1"))
    assert of(out.events, WeaponSkipped) == [
        WeaponSkipped(unit="P1", weapon="small_missile_rack", reason="out of range")
    ]
    assert [a.weapon for a in attacks(out.events)] == ["medium_laser"]
    p1 = unit(out.state, "P1")
    assert p1.energy_used == 8
    assert p1.weapons[0].ammo == 64  # the rack kept its 8 x 8 shots


def test_out_of_ammo_weapon_is_skipped() -> None:
    state = fire_game(
        gunner(weapon("autocannon_5", "left_arm", ammo=4), weapon("medium_laser", "right_arm"))
    )
    out = ok(state, FireGroup(1, "E1"))
    assert [e.reason for e in of(out.events, WeaponSkipped)] == ["out of ammo"]
    assert [a.weapon for a in attacks(out.events)] == ["medium_laser"]
    assert unit(out.state, "P1").weapons[0].ammo == 4


def test_unaffordable_weapon_is_skipped_the_cheaper_one_fires() -> None:
    # 16 used: 22 - 16 = 6 left. The laser needs 8 (skipped), the autocannon 1 (fires).
    state = fire_game(
        gunner(
            weapon("medium_laser", "right_arm"),
            weapon("autocannon_5", "left_arm"),
            energy_used=16,
        )
    )
    out = ok(state, FireGroup(1, "E1"))
    assert [e.reason for e in of(out.events, WeaponSkipped)] == ["needs 8 energy, 6 left"]
    assert unit(out.state, "P1").energy_used == 17


def test_nothing_able_to_fire_is_refused_and_nothing_is_paid() -> None:
    state = fire_game(
        gunner(
            weapon("small_missile_rack", "left_arm"),
            weapon("autocannon_5", "left_arm", group=2, ammo=0),
        ),
        target_col=9,
    )
    assert refused(state, FireGroup(1, "E1")) == "no weapon of group 1 can fire at E1: out of range"
    assert refused(state, FireGroup(2, "E1")) == "no weapon of group 2 can fire at E1: out of ammo"
    assert "out of range" in refused(state, CalledShot(1, "E1", "head"))


@pytest.mark.parametrize(
    ("used", "shots", "skipped", "energy_after"),
    [
        # 0 used: heavy laser 14 + medium laser 8 = 22 = the whole 150% budget.
        (0, ["heavy_laser", "medium_laser"], [], 22),
        # 1 used: 21 left; the heavy laser leaves 7, the medium laser needs 8.
        (1, ["heavy_laser"], ["needs 8 energy, 7 left"], 15),
        # 8 used: 14 left; the heavy laser fits exactly, nothing for the laser.
        (8, ["heavy_laser"], ["needs 8 energy, 0 left"], 22),
    ],
)
def test_overload_up_to_150_percent_and_not_beyond(
    used: int, shots: list[str], skipped: list[str], energy_after: int
) -> None:
    state = fire_game(
        gunner(
            weapon("heavy_laser", "right_torso"),
            weapon("medium_laser", "right_arm"),
            energy_used=used,
        )
    )
    out = ok(state, FireGroup(1, "E1"))
    assert [a.weapon for a in attacks(out.events)] == shots
    assert [e.reason for e in of(out.events, WeaponSkipped)] == skipped
    assert unit(out.state, "P1").energy_used == energy_after


def test_no_energy_left_at_all_is_refused() -> None:
    state = fire_game(
        gunner(
            weapon("medium_laser", "right_arm"),
            weapon("autocannon_5", "left_arm", group=2),
            energy_used=22,
        )
    )
    assert refused(state, FireGroup(1, "E1")).endswith("needs 8 energy, 0 left")
    assert refused(state, FireGroup(2, "E1")).endswith("needs 1 energy, 0 left")


def test_called_shot_costs_two_ap_and_carries_its_penalty() -> None:
    state = fire_game(gunner(weapon("medium_laser", "right_arm")))
    out = ok(state, CalledShot(1, "E1", "legs"))
    assert unit(out.state, "P1").ap == 0
    assert bat(out.state).active_unit == unit(out.state, "E1")  # its activation is over
    (shot,) = attacks(out.events)
    assert shot.called == "legs"
    assert Modifier("called shot", -15) in shot.modifiers
    if shot.hit and not shot.intercepted:
        assert shot.location == "legs"
    assert of(out.events, GroupFired)[0].called == "legs"


def test_called_shot_refusals() -> None:
    state = fire_game(gunner(weapon("medium_laser", "right_arm"), ap=1))
    assert refused(state, CalledShot(1, "E1", "legs")) == "needs 2 AP, 1 left"
    full = fire_game(gunner(weapon("medium_laser", "right_arm")))
    assert "no location" in refused(full, CalledShot(1, "E1", "tail"))


def test_fire_target_refusals() -> None:
    shooter = gunner(weapon("medium_laser", "right_arm"))
    ally = frame("P2", col=2)
    wreck = frame("E2", "enemy", "RD-30", col=5, destroyed=True)
    enemy = frame("E1", "enemy", "RD-30", col=4, armor=TOUGH)
    state = game(shooter, ally, enemy, wreck)
    assert refused(state, FireGroup(1, "P2")) == "P2 is on your side"
    assert refused(state, FireGroup(1, "E2")) == "E2 is out of the fight"
    assert refused(state, FireGroup(1, "nobody")) == "no frame 'nobody'"
    assert refused(state, FireGroup(3, "E1")) == "group 3 has no working weapon"
    broken = attrs.evolve(shooter.weapons[0], destroyed=True)
    state = game(attrs.evolve(shooter, weapons=(broken,)), enemy)
    assert refused(state, FireGroup(1, "E1")) == "group 1 has no working weapon"


def test_fire_needs_ap() -> None:
    # An activation with no AP cannot happen, so check the last AP is spent exactly once.
    state = fire_game(
        gunner(weapon("medium_laser", "right_arm"), weapon("autocannon_5", "left_arm", group=2))
    )
    once = ok(state, FireGroup(1, "E1"))
    twice = ok(once.state, FireGroup(2, "E1"))
    assert unit(twice.state, "P1").ap == 0
    assert bat(twice.state).active_unit == unit(twice.state, "E1")
    # P1 is not acting now: a fire order goes to E1, which has no weapon.
    assert refused(twice.state, FireGroup(1, "P1")) == "group 1 has no working weapon"


# --- Brace, Vent, End, Withdraw --------------------------------------------------------------
def test_brace() -> None:
    state = game(frame("P1"), frame("E1", "enemy", "RD-30", col=4))
    out = ok(state, Brace())
    p1 = unit(out.state, "P1")
    assert (p1.braced, p1.ap, p1.energy_used) == (True, 1, 0)
    assert of(out.events, Braced) == [Braced(unit="P1")]
    assert refused(out.state, Brace()) == "P1 is already bracing"
    assert "brace" not in texts(out.state)


def test_brace_shows_in_incoming_fire() -> None:
    # P1 braced earlier this round; E1 fires: its record carries brace -20 (§3.5).
    state = game(
        frame("P1", braced=True, ap=0),
        frame("E1", "enemy", "RD-30", col=4, weapons=(weapon("medium_laser", "right_arm"),)),
        turn=1,
    )
    (shot,) = attacks(ok(state, FireGroup(1, "P1")).events)
    assert Modifier("brace", -20, "P1 bracing") in shot.modifiers


@pytest.mark.parametrize(
    ("chassis", "stress", "amount"),
    [
        ("VG-45", 10, 3),  # max(2, 15 // 4 = 3) = 3
        ("RD-30", 10, 2),  # max(2, 11 // 4 = 2) = 2
        ("WD-60", 10, 5),  # max(2, 22 // 4 = 5) = 5
        ("VG-45", 2, 2),  # 3, but only 2 to take away
    ],
)
def test_vent(chassis: str, stress: int, amount: int) -> None:
    state = game(frame("P1", chassis=chassis, stress=stress), frame("E1", "enemy", col=6))
    assert vent_amount(unit(state, "P1")) == max(2, stats.effective_output(unit(state, "P1")) // 4)
    out = ok(state, Vent())
    p1 = unit(out.state, "P1")
    assert (p1.stress, p1.ap, p1.energy_used) == (stress - amount, 1, 0)
    assert of(out.events, Vented) == [Vented(unit="P1", amount=amount, stress=stress - amount)]


def test_vent_uses_effective_output() -> None:
    # Two reactor hits: 15 - 6 = 9 -> max(2, 9 // 4 = 2) = 2.
    state = game(frame("P1", stress=10, reactor_hits=2), frame("E1", "enemy", col=6))
    assert unit(ok(state, Vent()).state, "P1").stress == 8


def test_vent_without_stress_is_refused() -> None:
    state = game(frame("P1"), frame("E1", "enemy", col=6))
    assert refused(state, Vent()) == "there is no reactor stress to vent"
    assert "vent" not in texts(state)


def test_end_activation_passes_the_turn() -> None:
    state = game(frame("P1"), frame("E1", "enemy", col=6))
    out = ok(state, EndActivation())
    assert unit(out.state, "P1").ap == 0
    assert of(out.events, ActivationEnded) == [ActivationEnded(unit="P1")]
    assert of(out.events, ActivationStarted) == [ActivationStarted(unit="E1", ap=2, energy=22)]
    assert bat(out.state).active_unit == unit(out.state, "E1")


def test_player_withdraws() -> None:
    state = game(frame("P1"), frame("E1", "enemy", col=6))
    assert "withdraw" in texts(state)
    out = ok(state, Withdraw())
    battle = bat(out.state)
    assert (battle.phase, battle.result) == ("over", "withdrawal")
    (ended,) = of(out.events, BattleEnded)
    assert (ended.result, ended.round) == ("withdrawal", 1)
    assert refused(out.state, EndActivation()) == "the battle is over (withdrawal)"
    assert legal_commands(out.state) == []


def test_the_ai_side_cannot_order_a_withdrawal() -> None:
    state = game(frame("P1", ap=0), frame("E1", "enemy", col=6), turn=1)
    assert "only the player" in refused(state, Withdraw())
    assert "withdraw" not in texts(state)


# --- Overwatch (R4, R5) -----------------------------------------------------------------------
def watch_game(p1: Unit, *enemies: Unit) -> GameState:
    return game(p1, *enemies)


def close_round(state: GameState) -> Accepted:
    """End every remaining activation of the round; return the outcome that closed it."""
    start = bat(state).round
    while True:
        out = ok(state, EndActivation())
        if bat(out.state).round != start or bat(out.state).phase != "combat":
            return out
        state = out.state


def test_overwatch_fires_at_the_nearest_enemy_at_round_end() -> None:
    # AC-5 (long, max 14) in group 1; E1 5 hexes away, E2 8.
    p1 = gunner(weapon("autocannon_5", "left_arm"))
    e1 = frame("E1", "enemy", "RD-30", col=5, armor=TOUGH)
    e2 = frame("E2", "enemy", "RD-30", col=8, armor=TOUGH)
    state = watch_game(p1, e1, e2)
    declared = ok(state, Overwatch(1))
    assert of(declared.events, OverwatchSet) == [OverwatchSet(unit="P1", group=1)]
    p1_after = unit(declared.state, "P1")
    assert (p1_after.ap, p1_after.overwatch_group, p1_after.energy_used) == (1, 1, 0)
    out = close_round(declared.state)
    fired = of(out.events, GroupFired)
    assert fired == [
        GroupFired(unit="P1", group=1, target="E1", called=None, energy=1, overwatch=True)
    ]
    (shot,) = attacks(out.events)
    assert Modifier("overwatch", -10, "reaction fire") in shot.modifiers
    assert unit(out.state, "P1").weapons[0].ammo == 35  # 40 - 5
    # It fired before the end of round (§1 phases 4, 5) and the new round has begun.
    kinds = [type(e) for e in out.events]
    assert kinds.index(GroupFired) < kinds.index(RoundStarted)
    assert unit(out.state, "P1").overwatch_group is None


@pytest.mark.parametrize(("armor_e1", "armor_e2", "target"), [(30, 20, "E2"), (20, 30, "E1")])
def test_overwatch_tie_goes_to_lowest_armour(armor_e1: int, armor_e2: int, target: str) -> None:
    # P1 at column 5, E1 at 2 and E2 at 8: both 3 away; 7 x 20 = 140 armour beats 7 x 30.
    p1 = gunner(weapon("autocannon_5", "left_arm"), col=5)
    e1 = frame("E1", "enemy", "RD-30", col=2, armor=(armor_e1,) * 7)
    e2 = frame("E2", "enemy", "RD-30", col=8, armor=(armor_e2,) * 7)
    out = close_round(ok(watch_game(p1, e1, e2), Overwatch(1)).state)
    assert [f.target for f in of(out.events, GroupFired)] == [target]


def test_overwatch_does_not_fire_out_of_range() -> None:
    # Small missile rack: short, max 7; the enemy is 9 away.
    p1 = gunner(weapon("small_missile_rack", "left_arm"))
    state = ok(watch_game(p1, frame("E1", "enemy", col=9)), Overwatch(1)).state
    out = close_round(state)
    assert not of(out.events, GroupFired)
    assert unit(out.state, "P1").weapons[0].ammo == 64


def test_overwatch_not_if_the_group_already_fired() -> None:
    # Declared, then the same group fired this activation: R5, nothing at round end.
    p1 = gunner(weapon("autocannon_5", "left_arm"))
    state = watch_game(p1, frame("E1", "enemy", "RD-30", col=5, armor=TOUGH))
    declared = ok(state, Overwatch(1))
    fired = ok(declared.state, FireGroup(1, "E1"))
    out = close_round(fired.state)
    assert [f.overwatch for f in of(fired.events + out.events, GroupFired)] == [False]
    assert unit(out.state, "P1").weapons[0].ammo == 35  # one shot in all


def test_overwatch_pays_energy_from_the_rounds_budget() -> None:
    # 15 used (= output) before declaring; the overwatch shot's 1 energy is overload:
    # stress 0 + 1 = 1, dissipation max(1, 15 // 10) = 1 -> 0.
    p1 = gunner(weapon("autocannon_5", "left_arm"), energy_used=15)
    state = watch_game(p1, frame("E1", "enemy", "RD-30", col=5, armor=TOUGH))
    out = close_round(ok(state, Overwatch(1)).state)
    assert len(of(out.events, GroupFired)) == 1
    (change,) = [e for e in of(out.events, StressChanged) if e.unit == "P1"]
    assert (change.overload, change.dissipated, change.stress) == (1, 1, 0)


def test_overwatch_without_energy_does_not_fire() -> None:
    p1 = gunner(weapon("medium_laser", "right_arm"), energy_used=20)  # 2 left, laser needs 8
    state = watch_game(p1, frame("E1", "enemy", "RD-30", col=5))
    out = close_round(ok(state, Overwatch(1)).state)
    assert not of(out.events, GroupFired)


def test_overwatch_fires_once_only() -> None:
    # Declared in round 1 and not again: nothing at the end of round 2.
    p1 = gunner(weapon("autocannon_5", "left_arm"))
    state = watch_game(p1, frame("E1", "enemy", "RD-30", col=5, armor=TOUGH))
    first = close_round(ok(state, Overwatch(1)).state)
    second = close_round(first.state)
    assert len(of(first.events, GroupFired)) == 1
    assert not of(second.events, GroupFired)


def test_overwatch_refusals() -> None:
    p1 = gunner(
        weapon("autocannon_5", "left_arm"),
        weapon("small_missile_rack", "left_arm", group=2, ammo=7),  # 8 a shot: dry
    )
    state = watch_game(p1, frame("E1", "enemy", col=5))
    assert refused(state, Overwatch(3)) == "group 3 has no weapon that can still fire"
    assert refused(state, Overwatch(2)) == "group 2 has no weapon that can still fire"
    # D22: one overwatch group per frame per round.
    declared = ok(state, Overwatch(1))
    assert refused(declared.state, Overwatch(1)) == "P1 is already on overwatch with group 1"


# --- Equipment (R11) -------------------------------------------------------------------------
def test_thrust_pack_jumps_over_terrain() -> None:
    # Forest at columns 1-3: a Move of the Raider (4) reaches column 2 at most (2 + 2);
    # the jump lands 3 hexes away on column 3 for 1 AP and 4 energy.
    rows = (".TTT........",)
    jumper = frame("P1", chassis="RD-30", equipment=(gear("thrust_pack"),))
    state = mover_game(jumper, rows=rows)
    assert "out of move range" in refused(state, Move(h(3)))
    out = ok(state, UseEquipment("thrust_pack", None, h(3)))
    p1 = unit(out.state, "P1")
    assert (p1.pos, p1.ap, p1.energy_used) == (h(3), 1, 4)
    assert of(out.events, EquipmentUsed) == [
        EquipmentUsed(unit="P1", equipment="thrust_pack", target=None, hex=h(3), energy=4)
    ]
    assert of(out.events, Moved)[0].mode == "jump"
    assert "reaches 3 hexes" in refused(state, UseEquipment("thrust_pack", None, h(4)))


def test_thrust_pack_needs_an_empty_hex_and_legs() -> None:
    jumper = frame("P1", chassis="RD-30", equipment=(gear("thrust_pack"),))
    state = mover_game(jumper, frame("P2", col=2))
    assert "occupied" in refused(state, UseEquipment("thrust_pack", None, h(2)))
    assert "needs a hex" in refused(state, UseEquipment("thrust_pack"))
    assert "not a place to land" in refused(state, UseEquipment("thrust_pack", None, h(0)))
    assert "not a place to land" in refused(state, UseEquipment("thrust_pack", None, h(-1)))
    ok(state, UseEquipment("thrust_pack", None, h(3)))  # over the ally, onto an empty hex
    legs = tuple(0 if i == LEGS else s for i, s in enumerate(jumper.structure))
    lame = mover_game(attrs.evolve(jumper, structure=legs))
    assert "legs are destroyed" in refused(lame, UseEquipment("thrust_pack", None, h(2)))


def test_equipment_refusals() -> None:
    # Cooling Vents: output 15 + 3 = 18, overload limit 18 x 150% = 27; 25 used, 2 left.
    p1 = frame("P1", equipment=(gear("cooling_vents"), gear("thrust_pack")), energy_used=25)
    state = mover_game(p1)
    assert refused(state, UseEquipment("barrier_projector", "P1")) == (
        "P1 carries no working Barrier Projector"
    )
    assert "not an active device" in refused(state, UseEquipment("cooling_vents"))
    assert refused(state, UseEquipment("warp_drive")) == "no equipment 'warp_drive'"
    # 27 - 25 = 2 left, the pack needs 4.
    assert refused(state, UseEquipment("thrust_pack", None, h(2))) == (
        "Thrust Pack needs 4 energy, 2 left"
    )
    broken = attrs.evolve(gear("thrust_pack"), destroyed=True)
    assert "carries no working" in refused(
        mover_game(frame("P1", equipment=(broken,))), UseEquipment("thrust_pack", None, h(2))
    )


def test_countermeasures_last_until_the_users_next_activation() -> None:
    # E1 (Raider, speed 8) goes before P1 (Vanguard, speed 6) every round. Round 1: E1 has
    # acted; P1 switches on its suite (1 AP, 3 energy) and ends. Round 2: E1 fires at P1
    # under the -20; when P1's activation begins, the suite switches off.
    p1 = frame("P1", equipment=(gear("countermeasure_suite"),))
    e1 = frame("E1", "enemy", "RD-30", col=4, ap=0, weapons=(weapon("medium_laser", "right_arm"),))
    state = game(p1, e1, order=("E1", "P1"), turn=1)
    on = ok(state, UseEquipment("countermeasure_suite"))
    assert unit(on.state, "P1").ecm_active
    assert (unit(on.state, "P1").ap, unit(on.state, "P1").energy_used) == (1, 3)
    # B4: a second use in the same activation would pay 1 AP and 3 energy for nothing
    again = refused(on.state, UseEquipment("countermeasure_suite"))
    assert again == "Countermeasure Suite is already on until P1's next activation"
    assert "use countermeasure_suite - -" not in [c.to_text() for c in legal_commands(on.state)]
    round2 = ok(on.state, EndActivation())
    assert bat(round2.state).round == 2
    assert bat(round2.state).active_unit == unit(round2.state, "E1")
    assert unit(round2.state, "P1").ecm_active
    shot = ok(round2.state, FireGroup(1, "P1"))
    (record,) = attacks(shot.events)
    assert Modifier("countermeasure suite", -20, "P1, active") in record.modifiers
    p1_turn = ok(shot.state, EndActivation())
    assert bat(p1_turn.state).active_unit == unit(p1_turn.state, "P1")
    assert not unit(p1_turn.state, "P1").ecm_active


def test_targeting_uplink_designates_within_four_until_end_of_round() -> None:
    # P1 (uplink) at 0, P2 (laser) at 1, E1 4 hexes from P1, E2 5 hexes.
    p1 = frame("P1", equipment=(gear("targeting_uplink"),))
    p2 = frame("P2", col=1, weapons=(weapon("medium_laser", "right_arm"),))
    e1 = frame("E1", "enemy", "RD-30", col=4, armor=TOUGH)
    e2 = frame("E2", "enemy", "RD-30", col=5, armor=TOUGH)
    state = game(p1, p2, e1, e2)
    assert refused(state, UseEquipment("targeting_uplink", "E2")) == "E2 is beyond 4 hexes"
    assert "designates an enemy" in refused(state, UseEquipment("targeting_uplink", "P2"))
    assert "needs a target" in refused(state, UseEquipment("targeting_uplink"))
    out = ok(state, UseEquipment("targeting_uplink", "E1"))
    assert bat(out.state).uplinks == (Uplink(side="player", target="E1", user="P1"),)
    assert unit(out.state, "P1").energy_used == 5
    ended = ok(out.state, EndActivation())
    assert bat(ended.state).active_unit == unit(ended.state, "P2")
    (record,) = attacks(ok(ended.state, FireGroup(1, "E1")).events)
    assert Modifier("targeting uplink", 15, "E1 designated") in record.modifiers
    assert bat(close_round(ended.state).state).uplinks == ()


def test_barrier_on_adjacent_ally_or_self_until_end_of_round() -> None:
    p1 = frame("P1", equipment=(gear("barrier_projector"),))
    p2 = frame("P2", col=1)
    p3 = frame("P3", col=3)
    e1 = frame("E1", "enemy", col=8)
    state = game(p1, p2, p3, e1)
    assert refused(state, UseEquipment("barrier_projector", "P3")) == "P3 is not adjacent"
    assert "shields an ally" in refused(state, UseEquipment("barrier_projector", "E1"))
    on_ally = ok(state, UseEquipment("barrier_projector", "P2"))
    assert unit(on_ally.state, "P2").barrier == 20
    assert (unit(on_ally.state, "P1").ap, unit(on_ally.state, "P1").energy_used) == (1, 6)
    on_self = ok(state, UseEquipment("barrier_projector", "P1"))
    assert unit(on_self.state, "P1").barrier == 20
    assert unit(close_round(on_ally.state).state, "P2").barrier == 0


def test_legal_commands_list_the_equipment_uses() -> None:
    p1 = frame(
        "P1",
        chassis="RD-30",
        equipment=(
            gear("thrust_pack"),
            gear("countermeasure_suite"),
            gear("targeting_uplink"),
            gear("barrier_projector"),
        ),
    )
    state = game(p1, frame("P2", col=1), frame("E1", "enemy", col=4), frame("E2", "enemy", col=9))
    legal = texts(state)
    assert "use countermeasure_suite - -" in legal
    assert {"use targeting_uplink E1 -", "use barrier_projector P1 -"} <= legal
    assert {"use barrier_projector P2 -"} <= legal
    assert "use targeting_uplink E2 -" not in legal
    # Jump: every empty on-map hex within 3 (columns 2, 3; column 1 holds P2).
    jumps = sorted(c for c in legal if c.startswith("use thrust_pack"))
    assert jumps == ["use thrust_pack - 2,0", "use thrust_pack - 3,0"]


# --- before the battle, after it ------------------------------------------------------------
def test_no_battle() -> None:
    state = GameState(seed=1, rng=RngState(seed=1))
    assert refused(state, EndActivation()) == "there is no battle in progress"
    assert legal_commands(state) == []


def test_every_refusal_leaves_the_state_alone() -> None:
    # A sample of refusals from above, on one state: the state is frozen and unchanged.
    state = fire_game(gunner(weapon("small_missile_rack", "left_arm"), energy_used=21), 9)
    before = attrs.evolve(state)
    for command in (
        FireGroup(1, "E1"),
        Move(h(-1)),
        Vent(),
        UseEquipment("thrust_pack", None, h(1)),
        Sprint(h(3)),
    ):
        assert isinstance(step(state, command), Refused)
    assert state == before


def test_a_second_designation_replaces_the_first() -> None:
    # R11 "the one enemy it designates": P1 moves its uplink from E1 to E2 (both within 4).
    p1 = frame("P1", equipment=(gear("targeting_uplink"),))
    e1 = frame("E1", "enemy", "RD-30", col=3, armor=TOUGH)
    e2 = frame("E2", "enemy", "RD-30", col=4, armor=TOUGH)
    first = ok(game(p1, e1, e2), UseEquipment("targeting_uplink", "E1"))
    second = ok(first.state, UseEquipment("targeting_uplink", "E2"))
    assert bat(second.state).uplinks == (Uplink(side="player", target="E2", user="P1"),)


def test_equipment_refuses_arguments_it_does_not_take() -> None:
    p1 = frame("P1", equipment=(gear("countermeasure_suite"), gear("thrust_pack")))
    e1 = frame("E1", "enemy", "RD-30", col=4)
    state = game(p1, e1)
    assert "takes no target" in refused(state, UseEquipment("countermeasure_suite", "E1"))
    assert "takes no target" in refused(
        state, UseEquipment("countermeasure_suite", None, Hex(1, 0))
    )
    assert "takes a hex" in refused(state, UseEquipment("thrust_pack", "E1", Hex(1, 0)))


def test_foes_are_the_living_frames_of_the_hostile_side() -> None:
    dead = frame("E2", "enemy", col=5, destroyed=True)
    state = game(frame("P1"), frame("P2", col=1), frame("E1", "enemy", col=4), dead)
    b = bat(state)
    assert [u.id for u in b.foes("player")] == ["E1"]
    assert [u.id for u in b.foes("enemy")] == ["P1", "P2"]
    assert b.hostile("player", "enemy") and not b.hostile("enemy", "enemy")
