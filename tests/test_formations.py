"""Optional module O9, Formations and commanders (optional-rules.md O9.1-O9.11), rule by rule.

The battles are hand-built on an open map of 14 x 8 hexes (no cover, no LOS penalty), frames
placed by axial coordinates as the document's example places them. Expected numbers are worked
out by hand in the comments.
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui import game
from mac_tui.catalog import catalog
from mac_tui.combat import formations
from mac_tui.combat.actions import vent_amount
from mac_tui.combat.attack import hit_chance, resolve_attack
from mac_tui.combat.commands import (
    AssignAbilities,
    AutoAssign,
    FireGroup,
    Overwatch,
    SetFormation,
    UseAbility,
)
from mac_tui.combat.damage import apply_damage
from mac_tui.combat.mapgen import BattleMap
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import LOC_INDEX, Battle, SideInfo, Unit
from mac_tui.core import Accepted, Refused
from mac_tui.dice import AI, Dice, RngState
from mac_tui.hexgrid import Hex, distance, from_offset, in_cone120
from mac_tui.model import GameState
from mac_tui.players.sim import play
from mac_tui.players.specs import load_policy

from .test_damage import ScriptedDice, d100, gear, location_draw, make_unit, weapon

CAT = catalog()
O9 = ("O9",)
OPEN = ("." * 14,) * 8
#: The O9 example: Ghost at (4,3), Falcon at (4,5), the enemy Enforcer 5 hexes from Ghost.
GHOST_AT, FALCON_AT, FOE_AT = Hex(4, 3), Hex(4, 5), Hex(9, 3)


def battle(*units: Unit, rules: tuple[str, ...] = O9, **kw: Any) -> Battle:
    return Battle(
        map=BattleMap.from_rows(list(OPEN)),
        units=units,
        sides=(SideInfo(side="player", ai=False), SideInfo(side="enemy", ai=True)),
        difficulty=1,
        landscape="habitable",
        phase="combat",
        round=1,
        ruleset=rules,
        **kw,
    )


def ghost(pos: Hex = GHOST_AT, **changes: Any) -> Unit:
    """Ghost's Enforcer (gunnery 4: +8) with a Medium Laser (accuracy 80, Medium range)."""
    return make_unit(
        "ghost",
        side="player",
        chassis="EN-50",
        gunnery=4,
        **{"weapons": (weapon("medium_laser", "right_arm"),), "pos": pos, **changes},
    )


def falcon(pos: Hex = FALCON_AT, **changes: Any) -> Unit:
    """Falcon's Raider (gunnery 5) with a Medium Laser."""
    return make_unit(
        "falcon",
        side="player",
        chassis="RD-30",
        gunnery=5,
        **{"weapons": (weapon("medium_laser", "right_arm"),), "pos": pos, **changes},
    )


def foe(uid: str = "foe", pos: Hex = FOE_AT, **changes: Any) -> Unit:
    """An enemy Enforcer (evasion 13) with a Medium Laser."""
    return make_unit(
        uid, chassis="EN-50", weapons=(weapon("medium_laser", "right_arm"),), pos=pos, **changes
    )


def ordered(b: Battle, side: str, order: str, screens: tuple[str, ...] = ()) -> Battle:
    """`side`'s order given and checked (step 2b)."""
    assert formations.check_order(b, side, order, screens) is None  # type: ignore[arg-type]
    b, _ = formations.set_order(b, side, order, screens)  # type: ignore[arg-type]
    b, _ = formations.check_round(b)
    return b


def chance(b: Battle, attacker: str, target: str) -> Any:
    a = b.unit(attacker)
    hc = hit_chance(b, a, b.unit(target), a.weapons[0])
    assert hc is not None
    return hc


def names(hc: Any) -> list[str]:
    return [m.name for m in hc.modifiers]


# --- data -------------------------------------------------------------------------------------
def test_every_number_of_o9_is_data_with_its_rule_id() -> None:
    f = CAT.formations
    assert f.module == "O9"
    assert (f.members.rule, f.members.min) == ("O9.2", 2)
    assert (f.sphere.rule, f.sphere.radius, f.sphere.mutual_cover) == ("O9.4", 2, 5)
    assert (f.line.rule, f.line.spacing, f.line.per_member, f.line.max) == ("O9.5", 2, 5, 15)
    assert (f.screen.rule, f.screen.reach, f.screen.bonus, f.screen.flanking) == ("O9.6", 3, 5, 5)
    assert (f.dispersed.rule, f.dispersed.spacing, f.dispersed.crossfire) == ("O9.7", 4, 10)
    assert [a.id for a in f.ability] == [
        "battle_plan",
        "breach_shot",
        "impossible_turn",
        "percussive_maintenance",
    ]
    assert (f.breach_shot.component_high, f.battle_plan.bonus) == (42, 10)
    assert f.percussive_maintenance.vent_multiplier == 2
    assert CAT.modules["O9"].data == "formations.toml"


# --- O9.8 who commands --------------------------------------------------------------------------
def test_o98_tactics_gives_abilities() -> None:
    # Tactics 1-2: none; 3-4: one; 5+: two.
    assert [formations.slots(t) for t in range(1, 8)] == [0, 0, 1, 1, 2, 2, 2]


def test_o98_starting_pilots_and_enemy_rows() -> None:
    # Ghost (3), Falcon (3), Thunder (4) one each, Shadow (1) none.
    got = {p.callsign: formations.slots(p.tactics) for p in CAT.pilots.starting_pilot}
    assert got == {"Ghost": 1, "Falcon": 1, "Thunder": 1, "Shadow": 0}
    # Difficulty 1 (Tactics 2) none, 2-3 one each, 4-5 (Tactics 5-6) two each.
    by_difficulty = [formations.slots(CAT.enemy_force(d).tactics) for d in range(1, 6)]
    assert by_difficulty == [0, 1, 1, 2, 2]


def _pilot(uid: str, tactics: int, side: str = "enemy") -> Unit:
    u = make_unit(uid, side=side)
    return attrs.evolve(u, pilot=attrs.evolve(u.pilot, tactics=tactics))


def test_o98_ai_assigns_highest_tactics_first_in_priority_order() -> None:
    # Tactics 6, 3, 5, 1: the 6 takes Battle Plan and Breach Shot, the 5 Impossible Turn and
    # Percussive Maintenance, the 3 is left none (each ability once per side).
    frames = [_pilot("a", 3), _pilot("b", 6), _pilot("c", 1), _pilot("d", 5)]
    got = formations.auto_abilities(frames, Dice(RngState(seed=7)))
    assert got == {
        "b": ("battle_plan", "breach_shot"),
        "d": ("impossible_turn", "percussive_maintenance"),
    }


def test_o98_equal_tactics_are_ordered_by_the_ai_stream() -> None:
    frames = [_pilot("a", 3), _pilot("b", 3)]
    firsts = set()
    for seed in range(12):
        dice = Dice(RngState(seed=seed))
        got = formations.auto_abilities(frames, dice)
        assert sorted(got.values()) == [("battle_plan",), ("breach_shot",)]
        assert dice.state().counter(AI) > 0  # the tie was drawn from the ai stream
        firsts.add(next(k for k, v in got.items() if v == ("battle_plan",)))
    assert firsts == {"a", "b"}


def test_o98_no_holder_draws_nothing() -> None:
    dice = Dice(RngState(seed=1))
    assert formations.auto_abilities([_pilot("a", 2), _pilot("b", 1)], dice) == {}
    assert dice.state().counter(AI) == 0


# --- O9.2-O9.7 requirements ---------------------------------------------------------------------
def test_o92_members_and_fewer_than_two() -> None:
    b = battle(ghost(), falcon(destroyed=True), foe())
    v = formations.requirement(b, "player", "line")
    assert not v.met and "needs 2" in v.reason


def test_o95_line_needs_one_hex_line_two_apart() -> None:
    # (4,3) and (4,5) share q and are 2 apart: an Attack Line along q (axis NW-SE).
    v = formations.requirement(battle(ghost(), falcon(), foe()), "player", "line")
    assert v.met and v.axis == 2
    # Three apart along the line: not a Line.
    far = battle(ghost(), falcon(Hex(4, 6)), foe())
    assert not formations.requirement(far, "player", "line").met
    # Off the line (4,3) and (5,5): share nothing.
    off = battle(ghost(), falcon(Hex(5, 5)), foe())
    assert not formations.requirement(off, "player", "line").met
    # Under O4 a shared facing is needed.
    faced = battle(ghost(facing=0), falcon(facing=1), foe())
    assert "facing" in formations.requirement(faced, "player", "line").reason


def test_o94_sphere_every_member_within_two_of_one() -> None:
    # (4,3), (4,5), (6,3): (4,3) is 2 from both others.
    b = battle(ghost(), falcon(), make_unit("p3", side="player", pos=Hex(6, 3)), foe())
    assert formations.requirement(b, "player", "sphere").met
    b = battle(ghost(), falcon(Hex(4, 7)), foe())
    assert not formations.requirement(b, "player", "sphere").met


def test_o97_dispersed_every_pair_four_apart() -> None:
    assert formations.requirement(
        battle(ghost(Hex(0, 3)), falcon(Hex(4, 3)), foe()), "player", "dispersed"
    ).met
    assert not formations.requirement(
        battle(ghost(Hex(1, 3)), falcon(Hex(4, 3)), foe()), "player", "dispersed"
    ).met


def test_o96_screen_needs_a_screen_nearer_the_enemy() -> None:
    # The player's enemy deploys on the right: the screen's offset column must be higher.
    # Falcon at (6,5) is column 8; Ghost at (4,3) column 5: within 3? distance 2 + 2 = 3.
    screen = falcon(Hex(6, 4))
    b = battle(ghost(), screen, foe())
    assert formations.requirement(b, "player", "screen", ("falcon",)).met
    behind = falcon(Hex(2, 3))  # column 3: behind Ghost
    b = battle(ghost(), behind, foe())
    assert not formations.requirement(b, "player", "screen", ("falcon",)).met
    # Nobody screened: both named screens.
    b = battle(ghost(), screen, foe())
    v = formations.requirement(b, "player", "screen", ("falcon", "ghost"))
    assert not v.met and "screened" in v.reason


# --- the O9 example -----------------------------------------------------------------------------
def test_o9_example_line_battle_plan_and_flanking() -> None:
    b = ordered(battle(ghost(), falcon(), foe()), "player", "line")
    hc = chance(b, "ghost", "foe")
    # base 80, gunnery +8, evasion -13, range +10 (5 hexes, Medium optimal), line +5: 90.
    assert [(m.name, m.value) for m in hc.modifiers] == [
        ("base", 80),
        ("gunnery", 8),
        ("evasion", -13),
        ("range", 10),
        ("line", 5),
    ]
    assert hc.chance == 90
    # Ghost's Battle Plan: 100, clamped to 95.
    ghost_plans = attrs.evolve(b.unit("ghost"), abilities=("battle_plan",))
    b = b.with_unit(ghost_plans)
    assert formations.check_ability(b, ghost_plans, "battle_plan") is None
    b, events = formations.use_ability(b, ghost_plans, "battle_plan", 0)
    hc = chance(b, "ghost", "foe")
    assert hc.value("battle plan") == 10 and hc.total == 100 and hc.chance == 95
    assert [type(e).__name__ for e in events] == ["AbilityUsed"]
    # The enemy at (9,3) shoots the Raider at (4,5): the vector (5,-2,-3) lies between the E
    # and NE rays, outside both cones along the line (NW-SE): flanking +5.
    assert not in_cone120(Hex(4, 5), 2, Hex(9, 3))
    assert not in_cone120(Hex(4, 5), 5, Hex(9, 3))
    assert chance(b, "foe", "falcon").value("flanking") == 5
    # From along the line's axis (straight down the SE ray) no flanking.
    b2 = ordered(battle(ghost(), falcon(), foe(pos=Hex(4, 7))), "player", "line")
    assert chance(b2, "foe", "falcon").value("flanking") is None


def test_o95_line_counts_only_members_that_reach_and_caps_at_15() -> None:
    # Falcon's only weapon destroyed: it could not attack, so no line entry.
    broken = (attrs.evolve(weapon("medium_laser", "right_arm"), destroyed=True),)
    b = ordered(battle(ghost(), falcon(weapons=broken), foe()), "player", "line")
    assert b.formation("player").effect == "line"
    assert chance(b, "ghost", "foe").value("line") is None
    # Five members on one line, each reaching: 4 others x 5 = 20, capped at 15.
    lined = [ghost(Hex(4, 1))] + [
        make_unit(
            f"p{i}",
            side="player",
            weapons=(weapon("medium_laser", "right_arm"),),
            pos=Hex(4, 1 + 2 * i),
        )
        for i in range(1, 4)
    ]
    b = ordered(battle(*lined, falcon(Hex(4, 0)), foe(pos=Hex(9, 2))), "player", "line")
    assert b.formation("player").effect == "line"
    assert chance(b, "ghost", "foe").value("line") == 15


def test_o92_benefits_last_the_round_whatever_moves_follow() -> None:
    b = ordered(battle(ghost(), falcon(), foe()), "player", "line")
    moved = b.with_unit(attrs.evolve(b.unit("falcon"), pos=Hex(2, 7)))  # off the line now
    assert moved.formation("player").effect == "line"
    assert chance(moved, "ghost", "foe").value("line") == 5
    # The next check (step 2b) finds it broken.
    after, events = formations.check_round(moved)
    assert after.formation("player").effect == "none"
    checked = [e for e in events if isinstance(e, formations.FormationChecked)]
    assert [(e.side, e.formation, e.met) for e in checked] == [
        ("player", "line", False),
        ("enemy", "none", False),
    ]
    assert checked[0].members == ("ghost", "falcon")


def test_o94_mutual_cover_and_the_extra_pds_roll() -> None:
    pds = gear("point_defense")
    b = ordered(
        battle(ghost(), falcon(Hex(4, 4), equipment=(pds,)), foe(pos=Hex(9, 3))),
        "player",
        "sphere",
    )
    # Falcon adjacent: mutual cover -5 on Ghost.
    assert chance(b, "foe", "ghost").value("mutual cover") == -5
    # A missile hit on Ghost (no PDS of its own): Falcon's PDS rolls once (50%).
    srm = make_unit(
        "foe",
        chassis="EN-50",
        weapons=(weapon("srm_6", "right_arm"),),
        pos=Hex(7, 3),
    )
    b = b.with_unit(srm)
    dice = ScriptedDice(d100(1), d100(100), d100(50))  # hit; no critical; PDS stops it
    _, result = resolve_attack(b, "foe", "ghost", 0, dice)
    assert result.intercepted and result.shared_pds == "falcon" and dice.done
    # Outside a Sphere there is no such roll: the location is drawn next.
    plain = attrs.evolve(b, formations=())
    dice = ScriptedDice(d100(1), d100(100), location_draw("left_torso"))
    _, result = resolve_attack(plain, "foe", "ghost", 0, dice)
    assert not result.intercepted and result.location == "left_torso" and dice.done


# --- O9.6 screen and O9.7 crossfire -------------------------------------------------------------
def test_o96_screen_bonus_after_a_screen_attacked() -> None:
    b = ordered(battle(ghost(), falcon(Hex(6, 4)), foe()), "player", "screen", ("falcon",))
    assert b.formation("player").effect == "screen"
    assert chance(b, "ghost", "foe").value("screen") is None
    b = formations.note_attack(b, b.unit("falcon"), "foe")
    assert chance(b, "ghost", "foe").value("screen") == 5
    # The screen itself gets no screen bonus; a Line enemy attacking the screen: flanking +5.
    assert chance(b, "falcon", "foe").value("screen") is None
    # The enemy forms a Line at (9,3)-(9,5); the next check clears the screen's targets.
    b = attrs.evolve(b, units=(*b.units, foe("foe2", pos=Hex(9, 5))))
    b = ordered(b, "enemy", "line")
    assert b.formation("enemy").effect == "line"
    assert b.formation("player").screen_targets == ()
    assert chance(b, "foe", "falcon").value("flanking") == 5
    assert chance(b, "foe", "ghost").value("flanking") is None


def test_o97_crossfire_with_a_member_in_the_opposite_wedge() -> None:
    # Target at (6,3); Ghost at (2,3) (W wedge), Falcon at (10,3) (E wedge): opposite.
    b = ordered(
        battle(ghost(Hex(2, 3)), falcon(Hex(10, 3)), foe(pos=Hex(6, 3))), "player", "dispersed"
    )
    assert b.formation("player").effect == "dispersed"
    assert chance(b, "ghost", "foe").value("crossfire") == 10
    # Falcon at (6,7) (SE/SW of the target), not opposite Ghost's W wedge: none.
    b = ordered(
        battle(ghost(Hex(2, 3)), falcon(Hex(6, 7)), foe(pos=Hex(6, 3))), "player", "dispersed"
    )
    assert chance(b, "ghost", "foe").value("crossfire") is None


def test_o04_order_of_the_module_entries() -> None:
    b = ordered(battle(ghost(), falcon(), foe()), "player", "line")
    ghost_plans = attrs.evolve(b.unit("ghost"), abilities=("battle_plan",))
    b, _ = formations.use_ability(b.with_unit(ghost_plans), ghost_plans, "battle_plan", 0)
    got = [n for n in names(chance(b, "ghost", "foe")) if n in ("line", "battle plan")]
    assert got == ["line", "battle plan"]


# --- O9.9 abilities -----------------------------------------------------------------------------
def test_o99a_breach_shot_skips_armour_and_rolls_an_effect() -> None:
    target = foe()
    i = LOC_INDEX["left_torso"]
    dice = ScriptedDice((43, 0))  # component roll below 43: 0 = weapon destroyed
    new, report = apply_damage(target, "left_torso", 5, dice, breach=True)
    assert new.armor[i] == target.armor[i]
    assert new.structure[i] == target.structure[i] - 5
    assert report.locations[0].component_roll == 0 and dice.done


def test_o99c_percussive_maintenance_vents_twice() -> None:
    u = ghost(stress=20, abilities=("percussive_maintenance",))
    b = battle(u, falcon(), foe())
    amount = vent_amount(u)  # CORE 5.5: max(2, output // 4)
    b, _ = formations.use_ability(b, u, "percussive_maintenance", amount)
    assert b.unit("ghost").stress == 20 - min(20, 2 * amount)
    assert b.unit("ghost").abilities_used == ("percussive_maintenance",)
    assert formations.check_ability(b, b.unit("ghost"), "percussive_maintenance") is not None


def test_o99d_impossible_turn_dodges_and_cannot_fire() -> None:
    u = ghost(abilities=("impossible_turn",))
    b = battle(u, falcon(), foe())
    b, _ = formations.use_ability(b, u, "impossible_turn", 0)
    g = b.unit("ghost")
    assert g.dodging and g.ap == u.ap - 1
    dice = ScriptedDice(d100(1))  # the hit roll, and nothing else
    after, result = resolve_attack(b, "foe", "ghost", 0, dice)
    assert result.hit and result.dodged and result.damage is None and dice.done
    assert after.unit("ghost") == g
    st_ = GameState(seed=1, rng=RngState(seed=1), battle=attrs.evolve(b, order=("ghost",)))
    assert "Impossible Turn" in str(game.refusal(st_, FireGroup(1, "foe")))
    assert "Impossible Turn" in str(game.refusal(st_, Overwatch(1)))


# --- commands and refusals ----------------------------------------------------------------------
def _deploying(rules: tuple[str, ...] = O9) -> GameState:
    return make_state(3, 3, ruleset=rules, player_ai=False)


def test_commands_refused_with_o9_off() -> None:
    st_ = _deploying(())
    assert "O9" in str(game.refusal(st_, SetFormation("line")))
    assert "O9" in str(game.refusal(st_, AutoAssign()))


def test_deployment_orders_and_assignments() -> None:
    st_ = _deploying()
    b = st_.battle
    assert b is not None
    ids = [u.id for u in b.side_units("player")]
    out = game.step(st_, SetFormation("screen", (ids[0],)))
    assert isinstance(out, Accepted)
    assert out.state.battle is not None
    assert out.state.battle.formation("player").order == "screen"
    assert isinstance(game.step(st_, SetFormation("screen")), Refused)
    assert isinstance(game.step(st_, SetFormation("bogus")), Refused)
    holder = next(u for u in b.side_units("player") if formations.slots(u.pilot.tactics) >= 1)
    out = game.step(st_, AssignAbilities(holder.id, ("battle_plan",)))
    assert isinstance(out, Accepted) and out.state.battle is not None
    # The same ability for a second pilot of the side: refused (one pilot per side).
    other = next(
        (
            u
            for u in b.side_units("player")
            if u.id != holder.id and formations.slots(u.pilot.tactics)
        ),
        None,
    )
    if other is not None:
        refused = game.step(out.state, AssignAbilities(other.id, ("battle_plan",)))
        assert isinstance(refused, Refused) and "held by" in refused.reason
    too_many = AssignAbilities(holder.id, ("battle_plan", "breach_shot"))
    if formations.slots(holder.pilot.tactics) == 1:
        assert "at most 1" in str(game.refusal(st_, too_many))
    # Refusals equal step's and the text form round-trips.
    for cmd in game.legal_commands(st_):
        assert game.refusal(st_, cmd) is None
        assert game.parse_command(cmd.to_text()) == cmd


def test_ability_refusals() -> None:
    u = ghost(abilities=("breach_shot",))
    b = battle(u, falcon(), foe())
    assert "does not hold" in str(formations.check_ability(b, u, "battle_plan"))
    assert "fire order" in str(formations.check_ability(b, u, "breach_shot"))
    planner = ghost(abilities=("battle_plan",))
    why = formations.check_ability(battle(planner), planner, "battle_plan")
    assert "formation in effect" in str(why)


# --- whole battles ------------------------------------------------------------------------------
def _sim(seed: int, rules: tuple[str, ...]) -> list[str]:
    log: list[str] = []
    st_ = make_state(seed, 4, ruleset=rules)
    play(st_, {"player": load_policy("ai"), "enemy": load_policy("ai")}, log=log)
    return log


def test_an_o9_battle_replays_identically_and_logs_every_check() -> None:
    a = _sim(5, O9)
    assert a == _sim(5, O9)
    text = "\n".join(a)
    rounds = text.count('"type": "RoundStarted"') or text.count('"RoundStarted"')
    assert rounds and text.count("FormationChecked") == 2 * rounds
    assert "AbilitiesAssigned" in text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(0, 10), st.integers(0, 7)), min_size=2, max_size=4, unique=True),
    st.sampled_from(["sphere", "line", "dispersed"]),
)
def test_property_requirement_matches_its_definition(
    spots: list[tuple[int, int]], order: str
) -> None:
    hexes = [from_offset(c, r) for c, r in spots]
    frames = [make_unit(f"p{i}", side="player", pos=h) for i, h in enumerate(hexes)]
    b = battle(*frames, foe(pos=Hex(20, 20)))
    met = formations.requirement(b, "player", order).met
    if order == "sphere":
        want = any(all(distance(c, h) <= 2 for h in hexes) for c in hexes)
    elif order == "dispersed":
        want = all(distance(a, h) >= 4 for i, a in enumerate(hexes) for h in hexes[i + 1 :])
    else:
        # one hex line: the members share a cube coordinate; in (q, r) order they run along
        # it, and each is at most 2 hexes from the next (hex distance, not a coordinate)
        one_line = any(len({getattr(h, c) for h in hexes}) == 1 for c in ("q", "r", "s"))
        ordered = sorted(hexes)
        want = one_line and all(distance(a, b) <= 2 for a, b in itertools.pairwise(ordered))
    assert met == want


def test_an_o9_battle_saves_loads_and_replays_mid_fight() -> None:
    """Orders, formations in effect and abilities are in the save and the hash, load back
    checked (`snapshot.problems`) and replay from the commands; a core battle carries none."""
    from mac_tui.combat.commands import AutoDeploy, StartBattle
    from mac_tui.combat.skirmish import NewSkirmish
    from mac_tui.players.ai import decide
    from mac_tui.players.driver import drive
    from mac_tui.save import from_json, to_json
    from mac_tui.session import Session, verify
    from mac_tui.snapshot import problems

    session = Session.new(6)
    for cmd in (NewSkirmish(4, "industrial", "O9"), AutoDeploy(), StartBattle()):
        assert session.apply(cmd).accepted
    drive(
        session.state,
        {"player": decide, "enemy": decide},
        apply=lambda _, cmd: session.apply(cmd),
        until=lambda s: s.battle is None or s.battle.round >= 3,
    )
    b = session.state.battle
    assert b is not None and b.phase == "combat" and b.formations
    assert any(u.abilities or u.abilities_used for u in b.units)
    save = session.to_save()
    loaded = from_json(to_json(save))
    assert loaded.state == session.state and problems(loaded.state) == []
    assert verify(save).ok
    core = attrs.evolve(b, ruleset=())
    assert "need optional module O9" in " ".join(problems(attrs.evolve(session.state, battle=core)))
    wrong = b.with_unit(attrs.evolve(b.units[0], abilities=("telepathy",)))
    assert "unknown ability" in " ".join(problems(attrs.evolve(session.state, battle=wrong)))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 10_000), st.integers(0, 40))
def test_property_every_o9_command_offered_is_accepted_with_no_reason(
    seed: int, steps: int
) -> None:
    """In an O9 battle played `steps` commands in by the AI, every formation order, ability
    and breach shot `legal_commands` offers has no refusal and `step` accepts it; the same
    orders with O9's reasons refused leave the state unchanged."""
    from mac_tui.combat.commands import AutoDeploy, CalledShot, StartBattle
    from mac_tui.players.ai import decide

    state = make_state(seed, 3, ruleset=O9)
    for cmd in (AutoDeploy(), StartBattle()):
        out = game.step(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state
    for _ in range(steps):
        if state.battle is None or state.battle.phase != "combat":
            return
        out = game.step(state, decide(state).command)
        assert isinstance(out, Accepted)
        state = out.state
    kinds = (SetFormation, UseAbility, FireGroup, CalledShot)
    for cmd in game.legal_commands(state, only=kinds):
        if isinstance(cmd, (FireGroup, CalledShot)) and not cmd.breach:
            continue
        assert game.refusal(state, cmd) is None, cmd
        assert isinstance(game.step(state, cmd), Accepted), cmd
    for bad in (SetFormation("wedge"), UseAbility("telepathy")):
        refused = game.step(state, bad)
        assert isinstance(refused, Refused) and game.refusal(state, bad) == refused.reason


def test_o99c_percussive_maintenance_counts_as_venting_under_o8() -> None:
    """O9.9c with O8.2 (c): the frame radiates to the round's end, as a vent makes it."""
    from mac_tui.combat import detection
    from mac_tui.combat.commands import AutoDeploy, StartBattle

    state = make_state(2, 3, ruleset=("O8", "O9"))
    for cmd in (AutoDeploy(), StartBattle()):
        out = game.step(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state
    b = state.battle
    assert b is not None
    u = next(x for x in b.units if x.side == "player")
    used = formations.AbilityUsed(unit=u.id, ability="percussive_maintenance", vented=4, stress=0)
    hot, _ = detection.update(b, (used,))
    assert hot.unit(u.id).radiating == "vent"
    plan = formations.AbilityUsed(unit=u.id, ability="battle_plan")
    assert detection.update(b, (plan,))[0].unit(u.id).radiating == b.unit(u.id).radiating
