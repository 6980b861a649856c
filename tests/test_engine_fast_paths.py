"""The engine's fast paths give the answers of the slow ones they replace (issue 15's speed
work): over the states of whole battles played by the random bot,

* `legal_commands(state, only=...)` is the full list filtered to those classes (the classes
  left out are not even tried);
* `attack.in_range` is None exactly when `attack.hit_chance` is, plain, called or overwatch;
* `movement.move_checker` / `check_move` answer as the rule reads, computed here the slow way:
  the frame moved onto the hex (`attrs.evolve`) and its nearest enemy measured from there.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui.bots.random_bot import random_policy
from mac_tui.combat import stats
from mac_tui.combat.attack import hit_chance, in_range
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
)
from mac_tui.combat.flow import nearest_enemy_distance, nearest_enemy_distance_from
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.movement import MovePlan, check_move, move_checker, reach
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle, Unit
from mac_tui.core import Command
from mac_tui.hexgrid import Hex, path, within
from mac_tui.model import GameState
from mac_tui.players.policy import Decision
from mac_tui.players.sim import play

BATTLES = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONLY: tuple[tuple[type[Command], ...], ...] = (
    (FireGroup, Move),
    (Move,),
    (Sprint, CalledShot),
    (Overwatch, Brace, Vent),
    (UseEquipment, EndActivation),
)


def battle_states(seed: int, difficulty: int, every: int = 3) -> Iterator[GameState]:
    """Every `every`-th state of a random-bot battle at which a frame acts."""
    seen: list[GameState] = []

    def watch(state: GameState) -> Decision:
        battle = state.battle
        if battle is not None and battle.active_unit is not None:
            seen.append(state)
        return random_policy(state)

    play(make_state(seed, difficulty), {"player": watch, "enemy": watch}, max_commands=150)
    yield from seen[::every]


def slow_check_move(battle: Battle, unit: Unit, target: Hex, sprint: bool) -> MovePlan | str:
    """§6.4, R2, R3 as the rule reads (check_move before its fast path)."""
    ap_cost = stats.ap_costs().sprint if sprint else stats.ap_costs().move
    if unit.ap < ap_cost:
        return f"needs {ap_cost} AP, {unit.ap} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot move"
    if unit.pos == target:
        return "the frame is already there"
    if not battle.map.contains(target):
        return f"hex {target.q},{target.r} is off the map"
    if battle.occupant(target) is not None:
        return f"hex {target.q},{target.r} is occupied"
    reached = reach(battle, unit, sprint)
    if target not in reached:
        return f"hex {target.q},{target.r} is out of {'sprint' if sprint else 'move'} range"
    before = nearest_enemy_distance(battle, unit)
    after = nearest_enemy_distance(battle, attrs.evolve(unit, pos=target))
    pullback = before is not None and after is not None and after > before
    energy = stats.move_energy(unit, sprint=sprint, pullback=pullback)
    if stats.energy_left(unit) < energy:
        return f"needs {energy} energy, {stats.energy_left(unit)} left"
    return MovePlan(path=path(reached, target), energy=energy, pullback=pullback)


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_legal_commands_only_is_the_full_list_filtered(seed: int, difficulty: int) -> None:
    for state in battle_states(seed, difficulty):
        full = legal_commands(state)
        for only in ONLY:
            assert legal_commands(state, only=only) == [c for c in full if isinstance(c, only)]


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_in_range_is_none_exactly_when_hit_chance_is(seed: int, difficulty: int) -> None:
    checked = 0
    for state in battle_states(seed, difficulty):
        battle = state.battle
        assert battle is not None
        for shooter in battle.units:
            for target in battle.units:
                for ws in shooter.weapons:
                    reach_ = in_range(battle, shooter, target, ws)
                    for called, overwatch in ((False, False), (True, False), (False, True)):
                        chance = hit_chance(
                            battle, shooter, target, ws, called_shot=called, overwatch=overwatch
                        )
                        assert (reach_ is None) == (chance is None)
                        if chance is not None and reach_ is not None:
                            assert chance.value("range") == reach_[1]
                            checked += 1
    assert checked  # some shots were in range


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_move_checks_answer_as_the_rule_reads(seed: int, difficulty: int) -> None:
    moves = 0
    for state in battle_states(seed, difficulty, every=5):
        battle = state.battle
        assert battle is not None and battle.active_unit is not None
        unit = battle.active_unit
        assert unit.pos is not None
        for sprint in (False, True):
            fast = move_checker(battle, unit, sprint)
            # every hex a sprint could reach, its rim, and some off the map
            hexes = [*within(unit.pos, stats.hex_movement(unit, True) + 1), Hex(-1, -1)]
            for h in hexes:
                slow = slow_check_move(battle, unit, h, sprint)
                assert fast(h) == slow == check_move(battle, unit, h, sprint)
                moves += not isinstance(slow, str)
    assert moves


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_nearest_enemy_from_a_hex_is_the_moved_frames(seed: int, difficulty: int) -> None:
    for state in battle_states(seed, difficulty, every=7):
        battle = state.battle
        assert battle is not None
        for unit in battle.units:
            for h in [Hex(0, 0), Hex(5, 3), *(u.pos for u in battle.units if u.pos)]:
                moved = attrs.evolve(unit, pos=h)
                assert nearest_enemy_distance_from(battle, unit.side, h) == nearest_enemy_distance(
                    battle, moved
                )
