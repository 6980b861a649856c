"""The threat to a frame: what it can receive before its next activation (§1, §2, §3, §4).

`threat(battle, unit_id, at=..., braced=...)` forecasts every attack the enemy can make on the
frame before it acts again, combined as one exact distribution (`forecast.risk_steps`),
and says what each enemy contributes. `threat_options(battle, unit_id)` answers the screen's
"how to defend" line: the threat after bracing, after a Move into the best cover in reach,
after stepping out of reach, each with its numbers.

This is a model of the enemy's reply, a ruling of the forecast (docs/rulings.md F1), not a
rule of the game:

* **Who.** The window runs from now to the frame's next activation. Initiative (§1 phase 2)
  is the same every round, so every living enemy acts at most once in it: one whose turn is
  still to come this round (the frame acting now or done), the one acting now, or one ahead
  of the frame in the next round's order (`flow.initiative`). Enemies on Overwatch fire
  their group at the end of this round (R4) if the frame is the one they would pick
  (`firing.overwatch_target`). A frame shut down now restarts at the round's end (R7) and
  acts next round; a shutdown this round's end might bring is not foreseen.
* **What.** Each enemy takes the one attack, among those its AP and energy allow, that is
  worst for the frame: the largest ``mean damage landed + p(out) x armour and structure
  left`` (putting the frame out counts as taking all it has). Its attacks:
  fire one group, or two groups (2 AP), or a Called Shot at the head or centre torso with
  one group (2 AP) from where it stands; or one Move (1 AP, any hex `reach_hexes` allows,
  paying its energy) and then one group, from the reachable hex where that group's
  expected damage is highest. Of two groups it fires the pair whose single values add up
  to the most. This round it has the AP, energy and groups it has left; next round a fresh
  round's (`flow.refresh`). Sprints, jumps and equipment are not foreseen; the other frames
  stay where they are (two enemies may each be assumed to move to the same hex).
* **The frame.** At ``at`` (default: where it is), braced as ``braced`` says (default: as
  it is) against this round's attacks only: bracing, the Barrier's armour and Targeting
  Uplink designations end with the round; an active Countermeasure Suite lasts until the
  frame's next activation (R11). Cover, LOS, range, Point Defense, Reactive Armour, Stealth
  Plating and every other modifier come from `attack.hit_chance` and the cascade as usual.
* **Combined.** The chosen attacks are forecast in the order they would come, as one
  sequence on the frame (`RoundEnd` between the rounds): a frame out early takes no more.
  The numbers are `forecast.risk_steps`'s: exact, except that several enemies' fire at a
  healthy frame can pass `outcomes.THREAT_STATES` live states (millions, for four frames'
  fire at an intact assault frame); then they come from `outcomes.SAMPLES` paths of the
  same model with a fixed seed, and ``Threat.forecast.residual`` bounds their error.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Final, Literal

import attrs
from attrs import frozen

from ..catalog import catalog
from ..hexgrid import Hex, distance
from . import facing, moving_fire, stats
from .actions import check_brace
from .firing import overwatch_target
from .flow import initiative, refresh
from .forecast import (
    AttackPlan,
    Risk,
    RoundEnd,
    ShotChance,
    Step,
    paid,
    risk_steps,
    shot_steps,
)
from .movement import check_move, reach
from .preview import reach_hexes
from .state import Battle, Unit

__all__ = [
    "CALLED_AT",
    "EnemyAttack",
    "Threat",
    "ThreatOption",
    "threat",
    "threat_options",
]

When = Literal["now", "this round", "overwatch", "next round"]

#: The locations an enemy is assumed to call shots at: the two whose loss ends a frame.
CALLED_AT: Final = ("head", "center_torso")


@frozen(kw_only=True)
class EnemyAttack:
    """One enemy's assumed attack on the frame (``forecast``: that attack alone)."""

    enemy: str
    when: When
    move_to: Hex | None
    orders: tuple[AttackPlan, ...]
    overwatch: bool
    forecast: Risk
    value: float
    steps: tuple[Step, ...] = ()


@frozen(kw_only=True)
class Threat:
    """What the frame can receive before its next activation (see the module docstring)."""

    unit: str
    at: Hex
    braced: bool
    attacks: tuple[EnemyAttack, ...]
    forecast: Risk

    @property
    def expected_damage(self) -> float:
        return self.forecast.expected_damage

    @property
    def p_head_destroyed(self) -> float:
        return self.forecast.p_head_destroyed

    @property
    def p_center_torso_destroyed(self) -> float:
        return self.forecast.p_center_torso_destroyed

    @property
    def p_pilot_killed(self) -> float:
        return self.forecast.p_pilot_killed

    @property
    def p_out(self) -> float:
        return self.forecast.p_out


@frozen(kw_only=True)
class ThreatOption:
    """A way to lower the threat: ``kind`` is ``stay``, ``brace``, ``cover``,
    ``cover+brace`` or ``away``; ``move_to`` the Move it takes (None: none)."""

    kind: str
    move_to: Hex | None
    braced: bool
    threat: Threat


# ---- one enemy's best attack ----------------------------------------------------------------
def _value(f: Risk, left: int) -> float:
    return f.expected_damage + f.p_out * left


class _Chooser:
    """Builds and values the attacks of one enemy on the frame: ``target`` is the frame as
    the hit chances see it (hex, stance), ``victim`` as the forecast walks it."""

    def __init__(self, battle: Battle, enemy: Unit, target: Unit, victim: Unit, when: When) -> None:
        self.battle = battle
        # O4.5: the enemy's free pivot turns its guns on the frame when it can
        at = enemy.pos
        if target.pos is not None and at is not None:
            enemy = facing.turned_toward(battle, enemy, at, facing.free_facings(enemy), target.pos)
        # O5.1: an enemy still to act starts a new activation, its hexes moved 0 (the one
        # acting now keeps its own; overwatch pays its last activation's, O5.4)
        if when in ("this round", "next round") and enemy.moved_hexes:
            enemy = attrs.evolve(enemy, moved_hexes=0)
        self.enemy = enemy
        self.target = target
        self.victim = victim
        self.when = when
        self.left = victim.total_armor + victim.total_structure

    def attack(
        self,
        plan: Sequence[tuple[int, str | None]],
        shooter: Unit | None = None,
        move_to: Hex | None = None,
        overwatch: bool = False,
    ) -> EnemyAttack | None:
        shooter = shooter or self.enemy
        steps: list[Step] = []
        chances: list[ShotChance] = []
        for group, called in plan:
            shots, used = shot_steps(
                self.battle, shooter, group, self.target, called, overwatch=overwatch
            )
            steps.extend(shots)
            chances.extend(used)
            shooter = paid(self.battle, shooter, group, self.target, called)
        if not steps:
            return None
        f = risk_steps(self.victim, steps, chances)
        return EnemyAttack(
            enemy=self.enemy.id,
            when=self.when,
            move_to=move_to,
            orders=tuple(AttackPlan(self.enemy.id, g, self.target.id, c) for g, c in plan),
            overwatch=overwatch,
            forecast=f,
            value=_value(f, self.left),
            steps=tuple(steps),
        )

    def best(self) -> EnemyAttack | None:
        """The worst attack for the frame among the model's (module docstring)."""
        enemy = self.enemy
        costs = stats.ap_costs()
        groups = [g for g in stats.groups(enemy) if g not in enemy.fired_groups]
        found: list[EnemyAttack] = []
        singles: dict[int, EnemyAttack] = {}
        if enemy.ap >= costs.fire_group:
            for g in groups:
                a = self.attack([(g, None)])
                if a is not None:
                    singles[g] = a
                    found.append(a)
        if enemy.ap >= 2 * costs.fire_group and len(singles) > 1:
            # Two groups: the pair whose single values add up to the most, valued exactly.
            first, second = min(
                permutations(singles, 2),
                key=lambda p: (-(singles[p[0]].value + singles[p[1]].value), p),
            )
            found.extend(a for a in [self.attack([(first, None), (second, None)])] if a)
        if enemy.ap >= costs.called_shot:
            for g in groups:
                for loc in CALLED_AT:
                    found.extend(a for a in [self.attack([(g, loc)])] if a)
        if enemy.ap >= costs.move + costs.fire_group and enemy.pos is not None:
            for g, (h, moved) in sorted(self._moves(groups).items()):
                found.extend(a for a in [self.attack([(g, None)], moved, move_to=h)] if a)
        best: EnemyAttack | None = None
        for a in found:
            if best is None or a.value > best.value + 1e-12:
                best = a
        return best

    def _moves(self, groups: Sequence[int]) -> dict[int, tuple[Hex, Unit]]:
        """Per group, the hex one Move away where its expected damage is highest."""
        battle, enemy = self.battle, self.enemy
        costs = stats.ap_costs()
        reached = reach(battle, enemy)
        best: dict[int, tuple[float, Hex, Unit]] = {}
        where = self.target.pos
        assert where is not None
        reaches = {
            g: max(
                stats.weapon_range(stats.weapon_of(ws)) for _, ws in stats.group_weapons(enemy, g)
            )
            for g in groups
        }
        for h in sorted(reach_hexes(battle, enemy, sprint=False)):
            near = [g for g in groups if distance(h, where) <= reaches[g]]
            if not near:
                continue
            move = check_move(battle, enemy, h, False, reached)
            if isinstance(move, str):
                continue
            moved = attrs.evolve(
                enemy, pos=h, ap=enemy.ap - costs.move, energy_used=enemy.energy_used + move.energy
            )
            if move.facing is not None:  # O4.2 (and the pivot): it ends turned on the frame
                pivot = 0 if enemy.pivoted else facing.data().pivot.hexsides
                width = facing.data().move.spread + pivot
                last = facing.step_direction(move.path[-2], move.path[-1])
                moved = facing.turned_toward(battle, moved, h, facing.spread(last, width), where)
            moved = moving_fire.count_move(battle, moved, len(move.path) - 1)  # O5: `moving`
            for g in near:
                shots, _ = shot_steps(battle, moved, g, self.target)
                rough = sum(s.chances[0] * s.damage for s in shots)
                if shots and (g not in best or rough > best[g][0]):
                    best[g] = (rough, h, moved)
        return {g: (h, moved) for g, (_, h, moved) in best.items()}


# ---- the window ------------------------------------------------------------------------------
def _window(battle: Battle, unit: Unit) -> tuple[list[Unit], list[Unit], list[Unit]]:
    """The enemies acting before ``unit`` acts again: (this round, on overwatch at this
    round's end, next round), each in acting order."""
    enemies = {e.id: e for e in battle.foes(unit.side) if e.pos is not None}
    if battle.phase != "combat" or unit.id not in battle.order:
        order = initiative(battle)
        mine = order.index(unit.id) if unit.id in order else len(order)
        return [], [], [enemies[i] for i in order[:mine] if i in enemies]
    order = battle.order
    mine = order.index(unit.id)
    turn = battle.turn
    if mine > turn:  # the frame is still to act this round
        return [enemies[i] for i in order[turn:mine] if i in enemies], [], []
    this_round = [enemies[i] for i in order[turn:] if i in enemies]
    watching = [
        enemies[i] for i in order if i in enemies and enemies[i].overwatch_group is not None
    ]
    nxt = initiative(battle)
    upcoming = nxt.index(unit.id) if unit.id in nxt else len(nxt)
    done = {e.id for e in this_round}
    next_round = [enemies[i] for i in nxt[:upcoming] if i in enemies and i not in done]
    return this_round, watching, next_round


def threat(
    battle: Battle, unit_id: str, *, at: Hex | None = None, braced: bool | None = None
) -> Threat:
    """What frame ``unit_id`` can receive before its next activation, standing at ``at``
    (default: where it is), braced or not for the rest of this round (default: as it is).
    The model of the enemy's reply is the module docstring's (docs/rulings.md F1)."""
    unit = battle.unit(unit_id)
    where = at if at is not None else unit.pos
    if where is None:
        raise ValueError(f"{unit.label} is not on the map")
    now_braced = unit.braced if braced is None else braced
    here = attrs.evolve(unit, pos=where, braced=now_braced)
    placed = battle.with_unit(here)
    this_round, watching, next_round = _window(placed, here)
    attacks: list[EnemyAttack] = []
    acting = placed.active_unit
    for enemy in this_round:
        when: When = "now" if acting is not None and acting.id == enemy.id else "this round"
        found = _Chooser(placed, enemy, here, unit, when).best()
        if found is not None:
            attacks.append(found)
    for enemy in watching:
        group = enemy.overwatch_group
        chosen = None if group is None else overwatch_target(placed, enemy, group)
        if group is None or enemy.shutdown or chosen is None or chosen.id != unit.id:
            continue
        found = _Chooser(placed, enemy, here, unit, "overwatch").attack(
            [(group, None)], overwatch=True
        )
        if found is not None:
            attacks.append(found)
    split = len(attacks)
    if next_round:
        later = attrs.evolve(here, braced=False)
        fresh_units = tuple(
            refresh(attrs.evolve(u, shutdown=False))
            if u.active and battle.hostile(unit.side, u.side)
            else u
            for u in placed.units
        )
        nxt = attrs.evolve(placed, units=fresh_units, uplinks=()).with_unit(later)
        bare = attrs.evolve(unit, barrier=0)
        for enemy in next_round:
            found = _Chooser(nxt, nxt.unit(enemy.id), later, bare, "next round").best()
            if found is not None:
                attacks.append(found)
    steps: list[Step] = []
    chances: list[ShotChance] = []
    for n, a in enumerate(attacks):
        if n == split:
            steps.append(RoundEnd())  # bracing, the Barrier and designations end
        steps.extend(a.steps)
        chances.extend(a.forecast.chances)
    combined = risk_steps(unit, steps, chances)
    return Threat(
        unit=unit.id, at=where, braced=now_braced, attacks=tuple(attacks), forecast=combined
    )


def _threat_value(t: Threat, unit: Unit) -> float:
    return _value(t.forecast, unit.total_armor + unit.total_structure)


def threat_options(battle: Battle, unit_id: str) -> tuple[ThreatOption, ...]:
    """The threat as things stand (``stay``) and what would lower it with the frame's AP
    left: ``brace`` (1 AP, `actions.check_brace`), ``cover`` (a Move to the reachable hex
    with terrain defense whose threat is lowest), ``cover+brace`` (both, 2 AP) and ``away``
    (the reachable hex whose threat is lowest: out of range or sight), each with its threat.
    Options that change nothing or that the frame cannot take are left out."""
    unit = battle.unit(unit_id)
    costs = stats.ap_costs()
    stay = threat(battle, unit_id)
    out = [ThreatOption(kind="stay", move_to=None, braced=unit.braced, threat=stay)]
    if check_brace(unit) is None:
        out.append(
            ThreatOption(
                kind="brace", move_to=None, braced=True, threat=threat(battle, unit_id, braced=True)
            )
        )
    hexes = sorted(reach_hexes(battle, unit, sprint=False))
    if not hexes:
        return tuple(out)
    terrain = catalog().terrain
    by_hex = {h: threat(battle, unit_id, at=h) for h in hexes}
    ranked = sorted(hexes, key=lambda h: (_threat_value(by_hex[h], unit), h))
    cover = [h for h in ranked if terrain[battle.map.terrain_at(h)].defense > 0]
    if cover:
        h = cover[0]
        out.append(ThreatOption(kind="cover", move_to=h, braced=unit.braced, threat=by_hex[h]))
        if unit.ap >= costs.move + costs.brace and not unit.braced:
            braced = threat(battle, unit_id, at=h, braced=True)
            out.append(ThreatOption(kind="cover+brace", move_to=h, braced=True, threat=braced))
    best = ranked[0]
    if not cover or best != cover[0]:
        out.append(ThreatOption(kind="away", move_to=best, braced=unit.braced, threat=by_hex[best]))
    return tuple(out)
