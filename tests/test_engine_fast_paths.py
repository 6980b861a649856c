"""The engine's fast paths give the answers of the slow ones they replace (issue 15's speed
work): over the states of whole battles played by the random bot,

* `legal_commands(state, only=...)` is the full list filtered to those classes (the classes
  left out are not even tried);
* `attack.in_range` is None exactly when `attack.hit_chance` is, plain, called or overwatch;
* `movement.move_checker` / `check_move` answer as the rule reads, computed here the slow way:
  the frame moved onto the hex (`attrs.evolve`) and its nearest enemy measured from there;
* `firing.check_fire` (memoised per battle, frame and catalog) answers as its unmemoised
  reading, asked once or again, under another catalog too;
* `preview.fire_expected` is `fire_preview`'s expected damage, None where it is refused;
* the greedy bot decides as its plain reading (every legal command listed, then weighed);
* the bot API's memoised frame views equal fresh ones, and follow the catalog in force;
  memoised equipment values are the sums over the working pieces (`memo.ByIdentity`);
* the catalog's lookups by id find the row a scan of the table finds.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui.bots import api
from mac_tui.bots.greedy import greedy
from mac_tui.bots.random_bot import random_policy
from mac_tui.catalog import LOCATION_ORDER, catalog, load_catalog, use_catalog
from mac_tui.combat import firing, stats
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
from mac_tui.combat.preview import fire_expected, fire_preview
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle, EquipmentState, Unit
from mac_tui.core import Command
from mac_tui.hexgrid import Hex, path, within
from mac_tui.memo import ByIdentity
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


def plain_greedy(state: GameState) -> Decision:
    """The greedy bot as first written: every legal fire order and move listed, then weighed."""
    me = api.acting(state)
    assert me is not None and me.hex is not None
    legal = api.legal_commands(state, (api.FireGroup, api.Move))
    foes = api.enemies(state)
    if not foes or foes[0].hex is None:
        return api.Decision(api.EndActivation(), note="no enemy in sight")
    target, there = foes[0], foes[0].hex
    shots = [c for c in legal if isinstance(c, api.FireGroup) and c.target == target.id]
    scored = [(api.expected_damage(state, c), c) for c in shots]
    best = max(scored, key=lambda s: (s[0], -s[1].group), default=None)
    options = tuple((c.to_text(), round(e, 2)) for e, c in scored)
    if best is not None and best[0] > 0:
        return api.Decision(best[1], options, note=f"fire at the nearest, {target.id}")
    moves = [c for c in legal if isinstance(c, api.Move)]
    step = min(moves, key=lambda c: (api.distance(c.hex, there), c.to_text()), default=None)
    if step is not None and api.distance(step.hex, there) < api.distance(me.hex, there):
        return api.Decision(step, options, note=f"close on {target.id}")
    return api.Decision(api.EndActivation(), options, note="nothing to do")


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_greedy_decides_as_its_plain_reading(seed: int, difficulty: int) -> None:
    decisions = 0

    def both(state: GameState) -> Decision:
        nonlocal decisions
        decision = greedy(state)
        if api.acting(state) is not None:
            assert decision == plain_greedy(state)
            decisions += 1
        return decision

    play(make_state(seed, difficulty), {"player": both, "enemy": both}, max_commands=400)
    assert decisions


def test_frame_views_are_fresh_views_of_the_frame_under_the_catalog_in_force() -> None:
    units = []
    for state in battle_states(7, 3, every=1):
        battle = state.battle
        assert battle is not None
        fresh = tuple(api._build_view(u) for u in battle.units)
        assert api.frames(state) == fresh
        assert api.frames(state) == fresh  # the memoised ones
        units = list(battle.units)
    unit = units[0]
    view = api._view(unit)
    assert api._view(unit) is view  # memoised
    changed = attrs.evolve(unit, ap=unit.ap + 1)
    assert api._view(changed).ap == unit.ap + 1  # another frame, another view
    previous = use_catalog(load_catalog())  # an equal catalog, another object
    try:
        again = api._view(unit)
        assert again is not view and again == api._build_view(unit) == view
    finally:
        use_catalog(previous)
    assert api._view(unit) == view


def test_equipment_values_are_the_sums_of_the_working_pieces() -> None:
    cat = catalog()
    effects = sorted({e.effect for e in cat.equipment.values()})
    for state in battle_states(11, 4, every=1):
        battle = state.battle
        assert battle is not None
        for unit in battle.units:
            for effect in effects:
                assert stats.equipment_value(unit, effect) == stats.equipment_total(
                    unit.equipment, effect
                )
    gear = tuple(EquipmentState(equipment=e) for e in sorted(cat.equipment))
    broken = tuple(attrs.evolve(g, destroyed=True) for g in gear)
    sample = make_state(11, 4).battle
    assert sample is not None
    for effect in effects:
        assert stats.equipment_value(
            attrs.evolve(sample.units[0], equipment=gear), effect
        ) == stats.equipment_total(gear, effect)
        assert stats.equipment_value(attrs.evolve(sample.units[0], equipment=broken), effect) == 0


def test_by_identity_remembers_per_object_and_context() -> None:
    calls: list[object] = []

    def make(obj: list[int]) -> int:
        calls.append(obj)
        return sum(obj)

    memo: ByIdentity[list[int], int] = ByIdentity(limit=2)
    a, b, c = [1], [1], [2]
    assert memo.get(a, make) == 1 and memo.get(a, make) == 1 and len(calls) == 1
    assert memo.get(b, make) == 1 and len(calls) == 2  # equal but another object
    assert memo.get(a, make, "other") == 1 and len(calls) == 3  # another context
    assert len(memo) == 1  # it was full: emptied, then a kept
    assert memo.get(c, make) == 2 and memo.get(a, make, "other") == 1 and len(calls) == 4
    assert memo.get(b, make) == 1 and len(calls) == 5 and len(memo) == 1


def test_catalog_lookups_by_id_find_the_first_row_of_the_table() -> None:
    cat = catalog()
    for rc in cat.ranges.range_class:
        assert cat.range_class(rc.id) is next(x for x in cat.ranges.range_class if x.id == rc.id)
    for loc in LOCATION_ORDER:
        assert cat.location(loc) is next(x for x in cat.combat.location if x.id == loc)
    other = load_catalog()
    assert other.range_class("long") is not cat.range_class("long")  # each catalog its own
    assert other.range_class("long") == cat.range_class("long")


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_fire_expected_is_the_previews_expected_damage(seed: int, difficulty: int) -> None:
    fired = 0
    for state in battle_states(seed, difficulty):
        battle = state.battle
        assert battle is not None and battle.active_unit is not None
        unit = battle.active_unit
        for group in range(6):
            for target in [*battle.units, None]:
                target_id = "nobody" if target is None else target.id
                for location in (None, *LOCATION_ORDER[:3]):
                    preview = fire_preview(battle, unit, group, target_id, location)
                    expected = fire_expected(battle, unit, group, target_id, location)
                    assert expected == (None if preview.refusal else preview.expected)
                    fired += expected is not None and expected > 0
    assert fired


@BATTLES
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_check_fire_answers_as_its_unmemoised_reading(seed: int, difficulty: int) -> None:
    plans = 0
    for state in battle_states(seed, difficulty):
        battle = state.battle
        assert battle is not None and battle.active_unit is not None
        for unit in (battle.active_unit, attrs.evolve(battle.active_unit, ap=1)):
            for _ in range(2):  # asked again: the memoised answer
                for group in range(6):
                    for target in [*battle.units, None]:
                        target_id = "nobody" if target is None else target.id
                        for location in (None, "head", "nowhere"):
                            fresh = firing._check_fire(battle, unit, group, target_id, location)
                            assert firing.check_fire(battle, unit, group, target_id, location) == (
                                fresh
                            )
                            plans += not isinstance(fresh, str)
    assert plans


def test_check_fire_follows_the_catalog_in_force() -> None:
    state = next(s for s in battle_states(5, 2, every=1) if s.battle and s.battle.round >= 2)
    battle = state.battle
    assert battle is not None and battle.active_unit is not None
    unit = battle.active_unit
    target = battle.living("enemy" if unit.side == "player" else "player")[0]
    group = stats.groups(unit)[0]
    before = firing.check_fire(battle, unit, group, target.id, None)
    previous = use_catalog(load_catalog())
    try:
        assert firing.check_fire(battle, unit, group, target.id, None) == before
        answers = firing._CHECKED.get(battle, lambda _: {}, unit)
        assert answers[(group, target.id, None)][0] is catalog()  # asked again under it
    finally:
        use_catalog(previous)
