"""The activation planner: every sequence of actions the frame's AP allow, valued in one
currency (`situation.py`), best first.

A plan is what the frame does before it ends its activation: fire groups (or a called shot)
where it stands, move (Move, Sprint, or the Thrust Pack's jump) and fire or act where it lands,
or fire first and then move, brace, vent, set overwatch, switch its countermeasures on,
designate a target for its side, shield an ally. Its value is the sum of named parts:

* `damage`: expected damage dealt, each point weighted by the target's firepower per kill
  distance;
* `kill`: the chance of putting each target out of the fight by its centre torso, times its
  worth; `pilot`: the chance of doing it by killing the pilot (§4.6), times the same worth (a
  pilot's death counts as the frame's loss to the fight, never more);
* `wreck`: the chance of destroying a location times the firepower mounted there (legs: the
  frame's mobility);
* `stress`: the shutdown risk the Flamer's stress (R9) puts on the target;
* `outlook`: the fire the frame could bring next time from where it ends;
* `band`: hexes from the stance's preferred distance (pressed harder in a quiet battle);
* `received`: the fire the end position draws before the frame acts again (lines of sight,
  bracing, countermeasures and the plan's kills included) as if its ground gave no cover;
  `cover`: what the ground's cover takes off that, counted `COVER_HELD` times (a frame holds
  its hex for more than one enemy activation; bracing lasts one round, the forest stays);
* `overwatch`: the reaction fire an overwatch is expected to land;
* `support`: what a Targeting Uplink adds to the side's fire, or a barrier's armour saves;
* `reactor`: the shutdown risk of the round's spending, and what venting takes off it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, NamedTuple

from attrs import frozen

from ...catalog import catalog
from ...combat import stats
from ...combat.commands import (
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
from ...combat.movement import reach
from ...combat.state import Unit
from ...core import Command
from ...hexgrid import Hex, distance, within
from .odds import Odds
from .situation import BAND, GAMMA, NONE_STATUS, Situation, Status
from .tables import Gun, Kit

PARTS: Final = (
    "damage",
    "kill",
    "pilot",
    "wreck",
    "stress",
    "outlook",
    "band",
    "received",
    "cover",
    "overwatch",
    "support",
    "reactor",
)
CALLED_LOCATIONS: Final = ("head", "center_torso", "legs")
POST_FIRE_POSITIONS: Final = 12  # fire-then-move: end positions tried, the best by standing
COVER_HELD: Final = 2.0  # cover counts for this window and about as long again (frames hold)
FOLLOWED_UP: Final = 16  # move-then-act: landing places worked out in full, the most promising


@frozen
class Plan:
    """A sequence of commands for the rest of the activation, its value and its parts."""

    commands: tuple[Command, ...]
    value: float
    parts: tuple[tuple[str, float], ...]
    target: str | None = None  # the first target fired at (§10.3 priority window)
    stress: float = 0.0  # the frame's stress after the round's end (§5.4)
    at: Hex | None = None  # where the frame ends
    status: Status = NONE_STATUS  # braced, countermeasures on at the end
    kills: tuple[tuple[str, float], ...] = ()  # chance the plan takes each target out

    def part(self, name: str) -> float:
        return next((v for n, v in self.parts if n == name), 0.0)

    def text(self) -> str:
        return "; ".join(c.to_text() for c in self.commands)


Shots = tuple[tuple[int, Gun], ...]


class Scored(NamedTuple):
    value: float
    parts: tuple[float, ...]
    stress: float
    at: Hex
    status: Status
    kills: tuple[tuple[Kit, float], ...]


class Act(NamedTuple):
    """What a non-fire action adds to a plan."""

    brace: bool = False
    ecm: bool = False
    vents: int = 0
    energy: float = 0.0
    overwatch: float = 0.0
    support: float = 0.0


class Attack:
    """One fire action of a plan (a group, or two groups at one target, or a called shot)."""

    __slots__ = ("commands", "energy", "groups", "odds", "target")

    def __init__(
        self,
        commands: tuple[Command, ...],
        target: Kit,
        odds: Odds,
        energy: int,
        groups: tuple[int, ...],
    ) -> None:
        self.commands = commands
        self.target = target
        self.odds = odds
        self.energy = energy
        self.groups = groups


class Spot:
    """A place the plan can end at: how it is reached, what it costs, how it stands."""

    __slots__ = ("ap", "band", "command", "energy", "hex", "outlook")

    def __init__(self, hex_: Hex, command: Command | None, ap: int, energy: int) -> None:
        self.hex = hex_
        self.command = command
        self.ap = ap
        self.energy = energy
        self.outlook = 0.0
        self.band = 0.0


class Planner:
    """Plans the active frame's activation in `situation`."""

    def __init__(self, sit: Situation) -> None:
        self.sit = sit
        u = sit.unit
        self.unit: Unit = u
        self.ap = u.ap
        self.energy_left = stats.energy_left(u)
        self.cat = catalog()
        self.ap_costs = self.cat.combat.ap_costs
        self.items = {
            self.cat.equipment[e.equipment].effect: self.cat.equipment[e.equipment]
            for e in u.equipment
            if not e.destroyed and self.cat.equipment[e.equipment].category == "active"
        }
        self.base_reactor = sit.reactor_cost_of(u, u.energy_used, 0, 0.0)
        self.vent_amount = max(
            sit.reactor.vent_min, stats.effective_output(u) // sit.reactor.vent_divisor
        )
        self.w_received = sit.received_weight()
        self.free_groups = tuple(g for g in sit.me.groups if g not in u.fired_groups)
        self._drawn: dict[tuple[Hex, Status], list[float]] = {}
        self._bare: dict[tuple[Hex, Status], list[float]] = {}

    # ---- pieces -----------------------------------------------------------------------------
    def extra_against(self, t: Kit, uplinked: str | None = None) -> int:
        s = self.sit
        extra = 0
        if t.unit.braced:
            extra -= s.brace_mod
        if t.unit.ecm_active:
            extra += t.ecm_value
        if t.unit.id in s.designated or t.unit.id == uplinked:
            extra += s.uplink_value
        return extra

    def fire_from(
        self, at: Hex, group: int, t: Kit, budget: int, uplinked: str | None = None, called: int = 0
    ) -> tuple[Shots, int]:
        s = self.sit
        tpos = t.unit.pos
        assert tpos is not None
        d = distance(at, tpos)
        if d == 0:
            return (), 0
        v = s.volley(
            s.me,
            group,
            t,
            d,
            s.tables.los(at, tpos),
            s.tables.cover[tpos],
            s.spotted(self.unit, tpos, self.unit.id),
            budget,
            self.extra_against(t, uplinked) - called,
        )
        return v.shots, v.energy

    def drawn(self, at: Hex, status: Status) -> list[float]:
        key = (at, status)
        found = self._drawn.get(key)
        if found is None:
            found = self.sit.drawn(at, status)
            self._drawn[key] = found
        return found

    def received(
        self, at: Hex, status: Status, kills: dict[Kit, float], drawn: list[float] | None = None
    ) -> float:
        total = 0.0
        for e, v in zip(self.sit.enemies, drawn or self.drawn(at, status), strict=True):
            if v:
                total += v * (1.0 - kills.get(e, 0.0))
        return total * self.w_received

    def bare(self, at: Hex, status: Status) -> list[float]:
        """`drawn` at `at` as if its ground gave no cover."""
        key = (at, status)
        found = self._bare.get(key)
        if found is None:
            found = self._bare[key] = self.sit.drawn(at, status, cover=0)
        return found

    def reactor(self, energy: float, vented: int) -> float:
        u = self.unit
        cost = self.sit.reactor_cost_of(u, u.energy_used + round(energy), vented, 0.0)
        return -(cost - self.base_reactor)

    def spots(self) -> list[Spot]:
        """Where the frame can end: here, every Move, Jump and Sprint destination."""
        u = self.unit
        s = self.sit
        out = [Spot(s.pos, None, 0, 0)]
        if not stats.can_move(u):
            return out
        nearest_now = min(
            (distance(s.pos, e.unit.pos) for e in s.enemies if e.unit.pos), default=None
        )

        def nearest(h: Hex) -> int | None:
            return min((distance(h, e.unit.pos) for e in s.enemies if e.unit.pos), default=None)

        if self.ap >= self.ap_costs.move:
            walk = stats.move_energy(u)
            back = stats.move_energy(u, pullback=True)
            for h in reach(s.battle, u, False):
                if h == s.pos:
                    continue
                after = nearest(h)
                pull = nearest_now is not None and after is not None and after > nearest_now
                energy = back if pull else walk
                if energy <= self.energy_left:
                    out.append(Spot(h, Move(h), self.ap_costs.move, energy))
        jump = self.items.get("jump")
        if (
            jump is not None
            and self.ap >= self.ap_costs.equipment
            and jump.energy <= self.energy_left
        ):
            occupied = s.battle.occupied()
            bmap = s.battle.map
            for h in within(s.pos, jump.value):
                if h != s.pos and h not in occupied and bmap.contains(h):
                    out.append(
                        Spot(
                            h, UseEquipment(jump.id, None, h), self.ap_costs.equipment, jump.energy
                        )
                    )
        if self.ap >= self.ap_costs.sprint:
            run = stats.move_energy(u, sprint=True)
            walked = {spot.hex for spot in out}
            if run <= self.energy_left:
                for h in reach(s.battle, u, True):
                    if h not in walked:  # a hex a Move reaches is better walked to
                        out.append(Spot(h, Sprint(h), self.ap_costs.sprint, run))
        for spot in out:
            spot.outlook = GAMMA * s.outlook(spot.hex)
            spot.band = -BAND * s.pressure * s.band(spot.hex)
        return out

    def quick_fire(self, at: Hex, budget: int) -> float:
        """A quick bound on the fire a frame landing at `at` could add: its best group's
        expected damage at any enemy, weighted by the enemy's worth (no odds worked out)."""
        s = self.sit
        best = 0.0
        for g in self.free_groups:
            for t in s.enemies:
                tpos = t.unit.pos
                assert tpos is not None
                d = distance(at, tpos)
                if d == 0 or d > s.me.reach:
                    continue
                v = s.volley(
                    s.me,
                    g,
                    t,
                    d,
                    s.tables.los(at, tpos),
                    s.tables.cover[tpos],
                    s.spotted(self.unit, tpos, self.unit.id),
                    budget,
                    self.extra_against(t),
                ).expected * s.damage_weight(t)
                if v > best:
                    best = v
        return best

    def attacks_from(self, at: Hex, budget: int, uplinked: str | None = None) -> list[Attack]:
        """Every group at every enemy it can reach from `at` with `budget` energy."""
        out = []
        s = self.sit
        for g in self.free_groups:
            for t in s.enemies:
                shots, energy = self.fire_from(at, g, t, budget, uplinked)
                if shots:
                    out.append(
                        Attack((FireGroup(g, t.unit.id),), t, s.odds(t, shots, None), energy, (g,))
                    )
        return out

    # ---- valuation --------------------------------------------------------------------------
    def value(
        self,
        spot: Spot,
        attacks: list[Attack],
        status: Status = NONE_STATUS,
        vents: int = 0,
        extra_energy: float = 0.0,
        overwatch: float = 0.0,
        support: float = 0.0,
    ) -> Scored:
        s = self.sit
        dmg = kill = pilot = wreck = stress = 0.0
        kills: dict[Kit, float] = {}
        energy = spot.energy + extra_energy
        for a in attacks:
            d, k, pk, w, st = s.attack_parts(a.target, a.odds)
            dmg += d
            kill += k
            pilot += pk
            wreck += w
            stress += st
            energy += a.energy
            if a.odds.p_kill:
                kills[a.target] = 1.0 - (1.0 - kills.get(a.target, 0.0)) * (1.0 - a.odds.p_kill)
        vented = 0
        left = self.unit.stress
        for _ in range(vents):
            v = min(left, self.vent_amount)
            vented += v
            left -= v
        received = -self.received(spot.hex, status, kills)
        cover = 0.0
        if self.sit.tables.cover[spot.hex]:
            # what the ground's cover saves, for as long as the frame holds the hex
            bare = -self.received(spot.hex, status, kills, self.bare(spot.hex, status))
            cover = (received - bare) * COVER_HELD
            received = bare
        reactor = self.reactor(energy, vented)
        parts = (
            dmg,
            kill,
            pilot,
            wreck,
            stress,
            spot.outlook,
            spot.band,
            received,
            cover,
            overwatch,
            support,
            reactor,
        )
        stress_end = s.end_stress(self.unit.energy_used + round(energy), vented)
        return Scored(sum(parts), parts, stress_end, spot.hex, status, tuple(kills.items()))

    # ---- the non-fire actions ---------------------------------------------------------------
    def overwatch_value(self, at: Hex, group: int, budget: int) -> tuple[float, float]:
        """R4: (value, expected energy) of `group` on overwatch at `at`: reaction fire at the
        nearest enemy in its reach at the end of the round (enemies still to act may come or go)."""
        s = self.sit
        guns = s.me.groups.get(group, ())
        if not guns:
            return 0.0, 0.0
        reach_hexes = max(g.reach for g in guns)
        ranked = sorted(
            (distance(at, e.unit.pos), i, e)
            for i, e in enumerate(s.enemies)
            if e.unit.pos is not None
        )
        left = 1.0
        value = 0.0
        energy = 0.0
        for d, _, e in ranked:
            moving = e.unit.id in s.this_round
            if d <= reach_hexes:
                p = 0.6 if moving else 1.0
            elif moving and d - e.move <= reach_hexes:
                p = 0.3
            else:
                continue
            epos = e.unit.pos
            assert epos is not None
            dd = min(d, reach_hexes)
            v = s.volley(
                s.me,
                group,
                e,
                dd,
                s.tables.los(at, epos),
                s.tables.cover[epos],
                s.spotted(self.unit, epos, self.unit.id),
                budget,
                self.extra_against(e) - s.overwatch_mod,
            )
            q = left * p
            value += q * v.expected * s.damage_weight(e)
            energy += q * v.energy
            left -= q
            if left <= 0.01:
                break
        return value, energy

    def uplink_value(self, at: Hex, t: Kit) -> float:
        """R11: what designating `t` adds to the fire of the allies still to act this round."""
        s = self.sit
        tpos = t.unit.pos
        if tpos is None or distance(at, tpos) > s.uplink_range or t.unit.id in s.designated:
            return 0.0
        total = 0.0
        for a in s.allies_after:
            apos = a.unit.pos
            assert apos is not None
            pots = []
            for e in s.enemies:
                epos = e.unit.pos
                assert epos is not None
                d = distance(apos, epos)
                los = s.tables.los(apos, epos)
                spot = s.spotted(a.unit, epos, a.unit.id)
                args = (
                    d,
                    los,
                    s.tables.cover[epos],
                    spot,
                    stats.energy_left(a.unit),
                    a.unit.ap,
                    a.move,
                )
                base = self.extra_against(e)
                without = s.potential(a, e, *args, base)
                gain = 0.0
                if e is t:
                    gain = s.potential(a, e, *args, base + s.uplink_value) - without
                pots.append((without, gain, e))
            norm = sum(p * p for p, _, _ in pots)
            for p, gain, e in pots:
                if gain > 0 and norm > 0:
                    total += gain * (p * p / norm) * s.damage_weight(e)
        return total

    def barrier_value(self, ally: Kit, at: Hex) -> float:
        """R11: the damage the barrier's temporary armour takes for `ally` (at `at`) from the
        enemies still to act this round."""
        s = self.sit
        item = self.items["barrier"]
        incoming = 0.0
        if ally is s.me:
            for e, v in zip(s.enemies, self.drawn(at, NONE_STATUS), strict=True):
                if e.unit.id in s.this_round:
                    incoming += v
        else:
            status = (ally.unit.braced, ally.unit.ecm_active)
            for r in s.replies:
                if r.now:
                    incoming += s.reply(r, ally, at, status) * 0.5
        return min(float(item.value), incoming) * s.fear * s.damage_weight(ally, 1.0)

    # ---- enumeration ------------------------------------------------------------------------
    def plans(self) -> list[Plan]:
        """Every plan, valued (not sorted)."""
        out: list[Plan] = []
        spots = self.spots()
        here = spots[0]
        depth = self.sit.skill.depth
        for plan in self._stay(here, depth):
            out.append(plan)
        if depth >= 1:
            out.extend(self._moves(spots, depth))
        return out

    def _plan(
        self,
        commands: tuple[Command, ...],
        scored: Scored,
        target: str | None = None,
    ) -> Plan:
        return Plan(
            commands,
            scored.value,
            tuple(zip(PARTS, scored.parts, strict=True)),
            target,
            scored.stress,
            scored.at,
            scored.status,
            tuple((k.unit.id, p) for k, p in scored.kills),
        )

    def _singles(
        self, spot: Spot, budget: int, ap: int, fired: tuple[int, ...] = ()
    ) -> Iterator[tuple[tuple[Command, ...], Act]]:
        """One-AP actions other than fire and moves available at `spot` with `budget` energy."""
        u = self.unit
        s = self.sit
        if ap < 1:
            return
        if not u.braced:
            yield (Brace(),), Act(brace=True)
        ecm = self.items.get("ecm")
        if (
            ecm is not None
            and not u.ecm_active
            and budget >= ecm.energy
            and s.skill.support_equipment
        ):
            yield (UseEquipment(ecm.id),), Act(ecm=True, energy=ecm.energy)
        if u.stress > 0:
            yield (Vent(),), Act(vents=1)
        if u.overwatch_group is None:
            for g in self.free_groups:
                if g in fired:
                    continue
                v, e = self.overwatch_value(spot.hex, g, budget)
                if v > 0:
                    yield (Overwatch(g),), Act(overwatch=v, energy=e)
        if not s.skill.support_equipment:
            return
        uplink = self.items.get("designate")
        if uplink is not None and budget >= uplink.energy:
            for t in s.enemies:
                v = self.uplink_value(spot.hex, t)
                if v > 0:
                    yield (
                        (UseEquipment(uplink.id, t.unit.id),),
                        Act(support=v, energy=uplink.energy),
                    )
        barrier = self.items.get("barrier")
        if barrier is not None and budget >= barrier.energy:
            for a in (s.me, *s.allies):
                apos = spot.hex if a is s.me else a.unit.pos
                if apos is None or distance(spot.hex, apos) > barrier.range:
                    continue
                v = self.barrier_value(a, apos)
                if v > 0:
                    yield (
                        (UseEquipment(barrier.id, a.unit.id),),
                        Act(support=v, energy=barrier.energy),
                    )

    def _score(self, spot: Spot, attacks: list[Attack], acts: tuple[Act, ...]) -> Scored:
        return self.value(
            spot,
            attacks,
            (any(a.brace for a in acts), any(a.ecm for a in acts)),
            sum(a.vents for a in acts),
            sum(a.energy for a in acts),
            sum(a.overwatch for a in acts),
            sum(a.support for a in acts),
        )

    def _pairable(self, c1: Command, c2: Command) -> bool:
        """Two one-AP actions worth doing together: not the same one twice (a second vent
        only while there is stress left to vent; a second barrier on another frame)."""
        if type(c1) is not type(c2):
            return True
        if isinstance(c1, Vent):
            return self.unit.stress > self.vent_amount
        if isinstance(c1, UseEquipment) and isinstance(c2, UseEquipment):
            item = self.cat.equipment[c1.equipment]
            return c1.equipment != c2.equipment or (item.effect == "barrier" and c1 != c2)
        return False

    def _stay(self, here: Spot, depth: int) -> Iterator[Plan]:
        """Plans that do not move: end now, one action, or two."""
        s = self.sit
        yield self._plan((EndActivation(),), self.value(here, []))
        ap = self.ap
        budget = self.energy_left
        firsts = self.attacks_from(here.hex, budget)
        singles = list(self._singles(here, budget, ap))
        for a in firsts:
            yield self._plan(a.commands, self.value(here, [a]), a.target.unit.id)
        for cmds, act in singles:
            yield self._plan(cmds, self._score(here, [], (act,)))
        if ap < 2 or depth < 2:
            return
        # two groups
        for a in firsts:
            rest = budget - a.energy
            g1 = a.groups[0]
            for g2 in self.free_groups:
                if g2 == g1:
                    continue
                for t in s.enemies:
                    shots, energy = self.fire_from(here.hex, g2, t, rest)
                    if not shots:
                        continue
                    cmd = FireGroup(g2, t.unit.id)
                    if t is a.target:
                        first_shots, _ = self.fire_from(here.hex, g1, t, budget)
                        joint = s.odds(t, first_shots + shots, None)
                        both = Attack((*a.commands, cmd), t, joint, a.energy + energy, (g1, g2))
                        attacks = [both]
                    else:
                        attacks = [a, Attack((cmd,), t, s.odds(t, shots, None), energy, (g2,))]
                    yield self._plan(
                        (*a.commands, cmd), self.value(here, attacks), a.target.unit.id
                    )
            # fire, then one other action where it stands
            for cmds, act in self._singles(here, rest, 1, a.groups):
                yield self._plan(
                    (*a.commands, *cmds), self._score(here, [a], (act,)), a.target.unit.id
                )
        # uplink first, then fire at the designated target
        uplink = self.items.get("designate")
        if uplink is not None and s.skill.support_equipment and budget >= uplink.energy:
            for t in s.enemies:
                v = self.uplink_value(here.hex, t)
                tpos = t.unit.pos
                if tpos is None or distance(here.hex, tpos) > s.uplink_range:
                    continue
                use = UseEquipment(uplink.id, t.unit.id)
                for g in self.free_groups:
                    shots, energy = self.fire_from(
                        here.hex, g, t, budget - uplink.energy, t.unit.id
                    )
                    if shots:
                        a = Attack(
                            (FireGroup(g, t.unit.id),), t, s.odds(t, shots, None), energy, (g,)
                        )
                        act = Act(support=v, energy=uplink.energy)
                        yield self._plan(
                            (use, *a.commands), self._score(here, [a], (act,)), t.unit.id
                        )
        # two other actions
        for i, (c1, a1) in enumerate(singles):
            for c2, a2 in singles[i:]:
                if a1.energy + a2.energy <= budget and self._pairable(c1[0], c2[0]):
                    yield self._plan((*c1, *c2), self._score(here, [], (a1, a2)))
        # called shots
        if s.skill.called_shots:
            for g in self.free_groups:
                for t in s.enemies:
                    shots, energy = self.fire_from(here.hex, g, t, budget, None, s.called_mod)
                    if not shots:
                        continue
                    for loc in CALLED_LOCATIONS:
                        odds = s.odds(t, shots, loc)
                        called = CalledShot(g, t.unit.id, loc)
                        yield self._plan(
                            (called,),
                            self.value(here, [Attack((called,), t, odds, energy, (g,))]),
                            t.unit.id,
                        )

    def _moves(self, spots: list[Spot], depth: int) -> Iterator[Plan]:
        ap = self.ap
        budget = self.energy_left
        here = spots[0]
        standing: list[tuple[float, Spot]] = []
        promising: list[tuple[float, int, Spot]] = []
        for i, spot in enumerate(spots[1:]):
            assert spot.command is not None
            base = self.value(spot, [])
            standing.append((base[0], spot))
            yield self._plan((spot.command,), base)
            if ap - spot.ap >= 1 and depth >= 2:
                promising.append(
                    (base[0] + self.quick_fire(spot.hex, budget - spot.energy), i, spot)
                )
        # the acts after a Move or jump: worked out in full where they promise most
        promising.sort(key=lambda p: (-p[0], p[1]))
        for _, _, spot in promising[:FOLLOWED_UP]:
            assert spot.command is not None
            rest = budget - spot.energy
            for a in self.attacks_from(spot.hex, rest):
                yield self._plan(
                    (spot.command, *a.commands), self.value(spot, [a]), a.target.unit.id
                )
            for cmds, act in self._singles(spot, rest, ap - spot.ap):
                yield self._plan((spot.command, *cmds), self._score(spot, [], (act,)))
        if ap < 2 or depth < 2:
            return
        # fire where it stands, then move to one of the best-standing places
        standing.sort(key=lambda p: -p[0])
        best = [spot for _, spot in standing if spot.ap == 1][:POST_FIRE_POSITIONS]
        for a in self.attacks_from(here.hex, budget):
            for spot in best:
                if spot.energy > budget - a.energy:
                    continue
                assert spot.command is not None
                yield self._plan(
                    (*a.commands, spot.command), self.value(spot, [a]), a.target.unit.id
                )
