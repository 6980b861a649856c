"""Optional module O8: a side's view (O8.10, O8.11), the AI that plays from it, and a fogged
battle saved, resumed and replayed.

The required property of O8.11: moving an undetected enemy, or changing its armour or loadout
(its last-known record unchanged), never changes the AI's decision.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui.combat import detection, stats
from mac_tui.combat import view as view_module
from mac_tui.combat.skirmish import NewSkirmish, make_state
from mac_tui.combat.state import Side, Unit
from mac_tui.combat.view import hidden_enemies, view_of
from mac_tui.game import to_act
from mac_tui.model import GameState
from mac_tui.players.ai import policy_for
from mac_tui.players.driver import battle_seats, drive
from mac_tui.ruleset import PLAYABLE
from mac_tui.save import from_json, state_hash, to_json
from mac_tui.session import Session, verify

FOG = ("O8",)


def fogged(seed: int, commands: int, difficulty: int = 2) -> GameState:
    """A quick battle with O8 on, both sides played by the AI for `commands` commands."""
    state = make_state(seed, difficulty, ruleset=FOG)
    assert state.battle is not None
    seats = battle_seats(state.battle, policy_for(), everyone=True)
    return drive(state, seats, max_commands=commands).state


def test_view_off_is_the_state() -> None:
    state = make_state(3, 2)
    assert view_of(state, "player") is state
    assert state.battle is not None
    assert view_of(state.battle, "enemy") is state.battle


def test_deployment_hides_the_enemy() -> None:
    """O8.1: the enemy deploys hidden: the player's view has no enemy position, weapon or
    damage, and no dice but the AI's."""
    state = make_state(3, 2, ruleset=FOG)
    view = view_of(state, "player")
    assert view.battle is not None
    enemies = [u for u in view.battle.units if u.side == "enemy"]
    assert enemies and all(u.pos is None and u.weapons == () for u in enemies)
    assert all(name == "ai" for name, _ in view.rng.counters)
    assert view_of(view, "player") == view  # idempotent


def test_view_shows_detected_and_markers() -> None:
    state = fogged(3, 24, 5)
    battle = state.battle
    assert battle is not None and battle.phase == "combat"
    for side in ("player", "enemy"):
        view = view_of(battle, side)
        seen = {c.unit for c in battle.contacts if c.side == side}
        last = {lk.unit: lk for lk in battle.last_known if lk.side == side}
        for u, v in zip(battle.units, view.units, strict=True):
            if u.side == side or not u.active or u.id in seen:
                assert v == u  # own frames, the dead and the detected: as they are
            else:
                # nothing hidden shows: no weapons, a fresh frame's armour
                assert v.weapons == () and v.equipment == ()
                assert v.armor == stats.armor_split(stats.chassis_of(u))
                assert v.pos == (last[u.id].hex if u.id in last else None)
                assert (u.id in view.markers) is (u.id in last)
        assert all(c.side == side for c in view.contacts)
        assert view_of(view, side) == view


def test_contacts_follow_the_battle() -> None:
    """The state's contacts are exactly what `side_detection` finds after every step."""
    state = fogged(2, 16, 5)
    battle = state.battle
    assert battle is not None
    fresh, _ = detection.refresh_contacts(battle)
    assert fresh.contacts == battle.contacts
    assert fresh.last_known == battle.last_known


def _hidden_decision_points() -> list[tuple[GameState, Side, Unit]]:
    """States mid-battle where the side to act has a living enemy it does not detect."""
    found = []
    for seed, commands, difficulty in (
        (1, 20, 4),
        (2, 10, 4),
        (5, 30, 4),
        (1, 8, 5),
        (2, 16, 5),
        (3, 24, 5),
        (4, 8, 5),
    ):
        state = fogged(seed, commands, difficulty)
        battle = state.battle
        side = to_act(state).side
        if battle is None or battle.phase != "combat" or side is None:
            continue
        for enemy in hidden_enemies(battle, side):
            found.append((state, side, enemy))
    return found


POINTS = _hidden_decision_points()


def test_there_are_hidden_decision_points() -> None:
    assert len(POINTS) >= 3


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_ai_never_uses_an_undetected_enemy(data: st.DataObject) -> None:
    """O8.11: the decision is the same whatever an undetected enemy's hex (among those where
    it stays undetected), armour or loadout."""
    state, side, enemy = data.draw(st.sampled_from(POINTS))
    battle = state.battle
    assert battle is not None
    spots = [
        h
        for h in battle.map.deployment_hexes("player") + battle.map.deployment_hexes("enemy")
        if h not in battle.occupied()
    ]
    changed = enemy
    if data.draw(st.booleans(), label="move"):
        h = data.draw(st.sampled_from(spots), label="hex")
        trial = battle.with_unit(attrs.evolve(enemy, pos=h))
        if detection.side_detection(trial, side, trial.unit(enemy.id)) is None:
            changed = attrs.evolve(changed, pos=h)
    if data.draw(st.booleans(), label="armour"):
        cut = data.draw(st.integers(0, 6), label="cut")
        changed = attrs.evolve(changed, armor=tuple(max(1, a - cut) for a in changed.armor))
    if data.draw(st.booleans(), label="loadout"):
        keep = data.draw(st.integers(0, len(changed.weapons)), label="keep")
        changed = attrs.evolve(changed, weapons=changed.weapons[:keep], stress=3)
    other = attrs.evolve(state, battle=battle.with_unit(changed))
    assert view_of(other, side) == view_of(state, side)
    a = policy_for()(state)
    b = policy_for()(other)
    assert a.command == b.command
    assert a.options == b.options


def test_fogged_battle_is_deterministic() -> None:
    one = fogged(21, 120, 4)
    two = fogged(21, 120, 4)
    assert state_hash(one) == state_hash(two)


@pytest.mark.skipif("O8" not in PLAYABLE, reason="O8 is not yet playable")
def test_save_mid_fog_resumes_with_the_same_views() -> None:
    """A save in the middle of a fogged battle loads with the same state, so the same views,
    and replays from its seed to the same state (`replay --verify`)."""
    session = Session.new(31)
    assert not isinstance(session.apply(NewSkirmish(difficulty=5, rules="O8")), str)
    assert session.state.battle is not None
    seats = battle_seats(session.state.battle, policy_for(), everyone=True)
    drive(session.state, seats, apply=lambda _, c: session.apply(c), max_commands=16)
    battle = session.state.battle
    assert battle is not None and battle.phase == "combat"
    assert battle.contacts or battle.last_known  # something is known, something hidden
    loaded = from_json(to_json(session.to_save()))
    for side in ("player", "enemy"):
        assert view_of(loaded.state, side) == view_of(session.state, side)
    assert verify(loaded).ok
    resumed = Session.from_save(loaded)
    seats = battle_seats(resumed.state.battle, policy_for(), everyone=True)  # type: ignore[arg-type]
    drive(resumed.state, seats, apply=lambda _, c: resumed.apply(c), max_commands=20)
    drive(session.state, seats, apply=lambda _, c: session.apply(c), max_commands=20)
    assert state_hash(resumed.state) == state_hash(session.state)


def test_screen_log_filters_hidden_actions() -> None:
    """O8.10: a hidden enemy's move is not shown; its attack on the player's frame is, after
    its reveal; the enemy side's own detections are not shown; with O8 off all is shown."""
    from mac_tui.combat.events import ActivationStarted, Moved
    from mac_tui.combat.state import Contact
    from mac_tui.hexgrid import Hex

    from .test_attack import battle, raider, shooter

    b = battle(shooter(), raider(15), ruleset=FOG, contacts=())
    hidden_move = Moved(
        unit="raider-2", mode="move", path=(Hex(15, 1), Hex(14, 1)), energy=2, pullback=False
    )
    act = ActivationStarted(unit="raider-2", ap=2, energy=10)
    theirs = detection.Detected(side="enemy", unit="shooter", how="sight", hex=Hex(0, 1))
    assert view_module.visible_events(b, [act, hidden_move, theirs], "player") == []
    assert view_module.visible_events(b, [act, hidden_move], "enemy") == [act, hidden_move]
    core = attrs.evolve(b, ruleset=())
    assert view_module.visible_events(core, [act, hidden_move], "player") == [act, hidden_move]
    # the raider fires at the shooter: its reveal comes first, then the shot
    from mac_tui.combat.events import GroupFired

    shot = GroupFired(
        unit="raider-2", group=1, target="shooter", called=None, energy=3, overwatch=False
    )
    flash = detection.Detected(side="player", unit="raider-2", how="revealed", hex=Hex(14, 1))
    seen = attrs.evolve(b, contacts=(Contact(side="player", unit="raider-2", how="revealed"),))
    assert view_module.visible_events(seen, [shot, flash], "player") == [flash, shot]


def test_view_hides_the_other_sides_commanders_and_orders() -> None:
    """O8.11 with O9: another side's abilities not yet used and its formation order stay hidden
    (the formation in effect shows); the side's own stay in full."""
    from mac_tui.combat.state import Contact, Formation

    from .test_attack import battle, raider, shooter

    b = battle(
        shooter(abilities=("battle_plan",)),
        raider(8, abilities=("breach_shot",), abilities_used=("battle_plan",)),
        ruleset=("O8", "O9"),
        contacts=(Contact(side="player", unit="raider-2", how="sight"),),
        formations=(
            Formation(side="player", order="line"),
            Formation(side="enemy", order="dispersed", effect="none"),
        ),
    )
    view = view_of(b, "player")
    assert view.unit("shooter").abilities == ("battle_plan",)
    assert view.unit("raider-2").abilities == ()
    assert view.unit("raider-2").abilities_used == ("battle_plan",)
    assert view.formation("player").order == "line"
    assert view.formation("enemy").order == "none"
