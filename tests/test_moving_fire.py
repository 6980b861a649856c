"""Optional module O5, Movement and fire (optional-rules.md O5.1-O5.9), rule by rule.

The maps are hand-drawn: three rows of fourteen Open hexes (as `test_attack.py`); on row 1 of an
odd-r map ``from_offset(col, 1) == Hex(col, 1)``, so frames on that row stand `col` apart.
Expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mac_tui import game
from mac_tui.catalog import catalog
from mac_tui.combat import moving_fire
from mac_tui.combat.attack import hit_chance
from mac_tui.combat.commands import EndActivation, Move, Sprint, UseEquipment
from mac_tui.combat.events import ActivationEnded
from mac_tui.combat.state import Battle, SideInfo, Unit
from mac_tui.combat.structures import structure_chance
from mac_tui.core import Accepted
from mac_tui.dice import RngState
from mac_tui.hexgrid import Hex, from_offset
from mac_tui.model import GameState

from .test_attack import battle as open_battle
from .test_damage import gear, make_unit, weapon

CAT = catalog()
O5 = ("O5",)


def at(col: int, row: int = 1) -> Hex:
    return from_offset(col, row)


def battle(*units: Unit, rules: tuple[str, ...] = O5, **kw: Any) -> Battle:
    """A battle in combat on Open ground under `rules`, the frames acting in the given order."""
    return open_battle(*units, round=1, order=tuple(u.id for u in units), ruleset=rules, **kw)


def falcon(col: int = 0, **changes: Any) -> Unit:
    """Falcon (gunnery 5, +10; Piloting 3) in her Raider with a Medium Laser (80, Medium)."""
    fields: dict[str, Any] = {
        "gunnery": 5,
        "piloting": 3,
        "weapons": (weapon("medium_laser", "right_arm"),),
        "pos": at(col),
    }
    fields = {"side": "player", **fields, **changes}
    return make_unit("falcon", chassis="RD-30", **fields)


def enforcer(col: int = 5, **changes: Any) -> Unit:
    """An Enforcer (evasion 13) in the Open."""
    return make_unit("enforcer", chassis="EN-50", **{"pos": at(col), **changes})


def chance(b: Battle, attacker: str = "falcon", target: str = "enforcer") -> Any:
    a = b.unit(attacker)
    hc = hit_chance(b, a, b.unit(target), a.weapons[0])
    assert hc is not None
    return hc


def names(hc: Any) -> list[str]:
    return [m.name for m in hc.modifiers]


# --- data -------------------------------------------------------------------------------------
def test_data_file_names_its_rules() -> None:
    data = CAT.moving_fire
    assert (data.moving.rule, data.stabilised.rule, data.fast_target.rule) == (
        "O5.2",
        "O5.3",
        "O5.5",
    )
    assert CAT.modules["O5"].data == "moving_fire.toml"


# --- O5.2, O5.3, O5.5: the penalties --------------------------------------------------------
@pytest.mark.parametrize(("n", "expected"), [(0, 0), (1, -25), (3, -35), (8, -60)])
def test_moving_is_minus_20_minus_5_a_hex(n: int, expected: int) -> None:
    assert moving_fire.moving_penalty(n, stable=False) == expected


@pytest.mark.parametrize(("n", "expected"), [(0, 0), (1, 0), (2, -5), (3, -5), (8, -20)])
def test_stabilised_is_5_per_two_hexes(n: int, expected: int) -> None:
    assert moving_fire.moving_penalty(n, stable=True) == expected


@pytest.mark.parametrize(
    ("m", "expected"), [(0, 0), (7, 0), (8, -5), (9, -5), (10, -10), (11, -10), (12, -15)]
)
def test_fast_target_from_8_hexes(m: int, expected: int) -> None:
    assert moving_fire.fast_target_penalty(m) == expected


# --- the O5 example ---------------------------------------------------------------------------
def test_o5_example_moved_three_hexes_52() -> None:
    # 80 + 10 - 13 + 10 (Medium at 5) - 35 (moving: 20 + 5 x 3) = 52
    b = battle(falcon(moved_hexes=3), enforcer())
    hc = chance(b)
    assert names(hc) == ["base", "gunnery", "evasion", "range", "moving"]
    assert hc.value("moving") == -35 and hc.chance == 52
    assert hc.modifiers[-1].detail == "3 hexes"


def test_o5_example_fired_first_87() -> None:
    hc = chance(battle(falcon(), enforcer()))
    assert "moving" not in names(hc) and hc.chance == 87


def test_o5_example_stabilised_92() -> None:
    # 80 + 10 - 13 + 10 + 10 (Gyro Stabilizer) - 5 (stabilised: 5 x floor(3 / 2)) = 92
    b = battle(falcon(moved_hexes=3, equipment=(gear("gyro_stabilizer"),)), enforcer())
    hc = chance(b)
    assert hc.value("moving") == -5 and hc.chance == 92
    assert hc.modifiers[-1].detail == "3 hexes, stabilised"


def test_a_gyro_hit_unstabilises() -> None:
    # O5.3: no Gyro Hit; the item's +10 stays (CORE §7.7.3): 80 + 10 - 13 + 10 + 10 - 35 = 62
    shooter = falcon(moved_hexes=3, equipment=(gear("gyro_stabilizer"),), gyro_hit=True)
    assert chance(battle(shooter, enforcer())).chance == 62


def test_o5_example_fast_target_next_round() -> None:
    # The Enforcer fires back at the Raider, which moved 8 hexes: `fast target` -5, after
    # every core entry, with the detail "8 hexes".
    b = battle(falcon(moved_hexes=8), enforcer(weapons=(weapon("medium_laser", "right_arm"),)))
    hc = chance(b, "enforcer", "falcon")
    assert names(hc)[-1] == "fast target" and hc.value("fast target") == -5
    assert hc.modifiers[-1].detail == "8 hexes"


def test_moving_before_fast_target() -> None:
    b = battle(falcon(moved_hexes=2), enforcer(moved_hexes=10))
    hc = chance(b)
    assert names(hc)[-2:] == ["moving", "fast target"]
    assert (hc.value("moving"), hc.value("fast target")) == (-30, -10)


def test_nothing_with_o5_off() -> None:
    b = battle(falcon(moved_hexes=3), enforcer(moved_hexes=9), rules=())
    hc = chance(b)
    assert "moving" not in names(hc) and "fast target" not in names(hc) and hc.chance == 87


def test_overwatch_pays_the_last_activation_in_full() -> None:
    # O5.4: the deferred shot takes every hex of the declaring activation (moved_hexes holds
    # it until the frame's next activation): 87 - 10 (overwatch) - 35 = 42
    b = battle(falcon(moved_hexes=3), enforcer())
    a = b.unit("falcon")
    hc = hit_chance(b, a, b.unit("enforcer"), a.weapons[0], overwatch=True)
    assert hc is not None and names(hc)[-2:] == ["overwatch", "moving"] and hc.chance == 42


def test_structures_pay_moving_not_fast_target() -> None:
    # O5.6: an attack on a structure: `structure` 80 + 10 + 10 (5 hexes, Medium) - 35 = 65
    b = battle(falcon(moved_hexes=3), enforcer())
    a = b.unit("falcon")
    hc = structure_chance(b, a, a.weapons[0], at(5, 0))
    assert hc is not None and names(hc)[-1] == "moving" and hc.total == 65


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(0, 16),
    m=st.integers(0, 16),
    stable=st.booleans(),
    gunnery=st.integers(0, 10),
    col=st.integers(1, 13),
)
def test_penalties_never_push_the_chance_outside_5_95(
    n: int, m: int, stable: bool, gunnery: int, col: int
) -> None:
    gear_ = (gear("gyro_stabilizer"),) if stable else ()
    b = battle(
        falcon(moved_hexes=n, gunnery=gunnery, equipment=gear_), enforcer(col, moved_hexes=m)
    )
    a = b.unit("falcon")
    hc = hit_chance(b, a, b.unit("enforcer"), a.weapons[0])
    if hc is None:
        return
    assert 5 <= hc.chance <= 95
    assert hc.chance == max(5, min(95, sum(m_.value for m_ in hc.modifiers)))


# --- O5.1: counting the hexes -----------------------------------------------------------------
def state_of(b: Battle) -> GameState:
    from mac_tui.model import initial_state

    return attrs.evolve(initial_state(7), battle=b, rng=RngState(seed=7))


def run(state: GameState, *commands: Any) -> tuple[GameState, list[Any]]:
    events: list[Any] = []
    for cmd in commands:
        out = game.step(state, cmd)
        assert isinstance(out, Accepted), out
        state = out.state
        events += out.events
    return state, events


def test_moves_and_jumps_count_and_the_next_activation_resets() -> None:
    jumper = falcon(1, equipment=(gear("thrust_pack"),), ap=3)
    b = battle(jumper, enforcer(12))
    state, events = run(
        state_of(b), Move(hex=at(3)), UseEquipment(equipment="thrust_pack", hex=at(6))
    )
    assert state.battle is not None
    assert state.battle.unit("falcon").moved_hexes == 5  # 2 hexes + a jump of 3
    state, events = run(state, EndActivation())
    assert state.battle is not None
    ended = [e for e in events if isinstance(e, ActivationEnded)]
    assert [e.hexes_moved for e in ended] == [5]
    # between its activations the frame keeps the total (O5.4, O5.5)
    assert state.battle.unit("falcon").moved_hexes == 5


def test_sprint_counts_its_hexes() -> None:
    b = battle(falcon(1), enforcer(12))
    state, _ = run(state_of(b), Sprint(hex=at(7)))
    assert state.battle is not None
    assert state.battle.unit("falcon").moved_hexes == 6


def test_no_count_with_o5_and_o7_off() -> None:
    b = battle(falcon(1), enforcer(12), rules=())
    state, events = run(state_of(b), Move(hex=at(3)), EndActivation())
    assert state.battle is not None
    assert state.battle.unit("falcon").moved_hexes == 0
    assert [e.hexes_moved for e in events if isinstance(e, ActivationEnded)] == [None]


# --- O5.9: the AI -------------------------------------------------------------------------------
def test_the_ai_shot_model_takes_moving_and_fast_target() -> None:
    """The planner's model gives `hit_chance`'s chances with O5 on: a shooter that moved (with
    and without a Gyro Stabilizer, stunned too under O7) at targets that moved 0-11 hexes."""
    from .test_ai_planner import _same_shots, randomly_played

    compared = 0
    for seed in range(6):
        played = randomly_played(seed, 1 + seed % 5, 20, ("O5", "O7"))
        assert played.battle is not None
        units = tuple(
            attrs.evolve(
                u,
                moved_hexes=(3 * i + seed) % 12,
                stun=("", "stunned", "dazed")[(i + seed) % 3],
                equipment=(*u.equipment, gear("gyro_stabilizer")) if i % 2 else u.equipment,
            )
            for i, u in enumerate(played.battle.units)
        )
        compared += _same_shots(attrs.evolve(played.battle, units=units), seed % 2 == 1)
    assert compared > 50


def test_the_ai_fires_before_it_moves_when_the_target_is_in_range() -> None:
    """O5.9: 8 hexes off (Medium reach), the core planner closes in and then fires; under O5
    moving first costs `moving` (-35 for 3 hexes), so it fires where it stands, and every
    fire-and-move plan it ranks fires first."""
    from mac_tui.players.ai import plan_activation

    def planned(rules: tuple[str, ...]) -> Any:
        b = battle(falcon(0, ap=2), enforcer(8), rules=rules)
        ai = (SideInfo(side="player", ai=True), SideInfo(side="enemy", ai=True))
        return plan_activation(state_of(attrs.evolve(b, sides=ai)), tactics=6)

    core = planned(())
    assert core.chosen.commands[0].verb == "move" and core.chosen.commands[1].verb == "fire"
    o5 = planned(O5)
    assert o5.chosen.commands[0].verb in ("fire", "called-shot"), o5.chosen.text()
    for plan in o5.shown:
        verbs = [c.verb for c in plan.commands]
        if "move" in verbs and "fire" in verbs:
            assert verbs.index("fire") < verbs.index("move"), plan.text()


def test_every_ai_decision_is_legal_with_o5_and_o7() -> None:
    from mac_tui.combat.skirmish import make_state
    from mac_tui.game import legal_commands
    from mac_tui.players.ai import REPLANNED, policy_for
    from mac_tui.players.driver import drive

    policy = policy_for(6)

    def checked(state: GameState) -> Any:
        decision = policy(state)
        assert decision.command.to_text() in {c.to_text() for c in legal_commands(state)}
        assert REPLANNED not in decision.note
        return decision

    for seed in range(2):
        state = make_state(seed, 2 + seed, ruleset=("O5", "O7"))
        drive(state, {"player": checked, "enemy": checked}, max_commands=150)


@pytest.mark.parametrize(("seed", "difficulty"), [(1, 2), (4, 4)])
def test_o5_o7_battles_between_ais_end_and_replay_to_the_same_log(
    seed: int, difficulty: int
) -> None:
    from mac_tui.combat.skirmish import make_state
    from mac_tui.players.ai import decide
    from mac_tui.players.sim import play

    logs = []
    for _ in range(2):
        log: list[str] = []
        end, _ = play(
            make_state(seed, difficulty, ruleset=("O5", "O7")),
            {"player": decide, "enemy": decide},
            log=log,
        )
        assert end.battle is not None and end.battle.phase == "over"
        logs.append(log)
    assert logs[0] == logs[1]
    text = "\n".join(logs[0])
    assert '"ruleset":"O5,O7"' in logs[0][0]
    assert '"hexes_moved"' in text and '"name":"moving"' in text


def test_the_threat_view_counts_the_moving_penalty_of_an_enemy_that_closes_in() -> None:
    """The threat to a frame (combat/threat.py) takes O5's `moving` on an enemy's Move and
    fire: the Raider 11 hexes off moves 4 and fires its Medium Laser at 87 in the core game,
    87 - 40 = 47 under O5; its last activation's 5 hexes do not count in its next one."""
    from mac_tui.combat.threat import threat

    chances = []
    for rules in ((), O5):
        target = enforcer(1, side="player", id="P1")
        raider = falcon(12, id="E1", side="enemy", moved_hexes=5)
        [attack] = threat(battle(target, raider, rules=rules), "P1").attacks
        assert attack.move_to == at(8)
        chances.append([c.chance for c in attack.forecast.chances])
    assert chances == [[87], [47]]


def test_a_reverse_move_counts_its_hexes_under_o4() -> None:
    """O5.1 with O4: a reverse Move's steps count like a Move's (a pivot does not)."""
    from .test_facing import E, W, acting
    from .test_facing import battle as o4_battle
    from .test_facing import enforcer as o4_enforcer
    from .test_facing import falcon as o4_falcon
    from .test_facing import step as o4_step

    b = o4_battle(o4_falcon(Hex(5, 4), E), o4_enforcer(W, pos=Hex(10, 4)))
    state = acting(attrs.evolve(b, ruleset=("O4", "O5")))
    s, _ = o4_step(state, Move(Hex(3, 4), reverse=True))  # two steps W, backwards
    assert s.battle is not None and s.battle.unit("falcon").moved_hexes == 2


def test_an_activation_that_runs_out_of_ap_is_logged_with_its_hexes() -> None:
    """Ruling O5b: under O5 the end of every activation is an `ActivationEnded` with
    `hexes_moved`, also when the frame's AP ran out (the core game logs only an `end`)."""
    b = battle(falcon(1, ap=2), enforcer(12))
    _, events = run(state_of(b), Move(hex=at(3)), Move(hex=at(5)))
    assert [e for e in events if isinstance(e, ActivationEnded)] == [
        ActivationEnded(unit="falcon", hexes_moved=4)
    ]
    core = battle(falcon(1, ap=2), enforcer(12), rules=())
    _, events = run(state_of(core), Move(hex=at(3)), Move(hex=at(5)))
    assert not [e for e in events if isinstance(e, ActivationEnded)]
