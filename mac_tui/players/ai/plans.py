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
* `setup`: for a pilot who calls shots (Tactics 5+), the damage on the centre torso as a step
  toward the called shot that finishes the frame (`Situation.setup`);
* `stress`: the shutdown risk the Flamer's stress (R9) puts on the target;
* `outlook`: the fire the frame could bring next time from where it ends (for a one-action
  planner, Tactics 1-2, also its next action's: `plan_search.one_step_ahead`);
* `band`: hexes from the stance's preferred distance (pressed harder in a quiet battle and in
  a long one);
* `received`: the fire the end position draws before the frame acts again (lines of sight,
  bracing, countermeasures and the plan's kills included) as if its ground gave no cover;
  `cover`: what the ground's cover takes off that, counted `COVER_HELD` times (a frame holds
  its hex for more than one enemy activation; bracing lasts one round, the forest stays);
* `overwatch`: the reaction fire an overwatch is expected to land;
* `support`: what a Targeting Uplink adds to the side's fire, or a barrier's armour saves;
* `reactor`: the shutdown risk of the round's spending, and what venting takes off it;
* `objective` (O11.10, only in a plan that has it): the pull of the OB5 objective hex.

The `Planner` here values a plan; `plan_search.all_plans` lists them; `plan_types.py` holds the
plan, its parts and the pieces it is built from.
"""

from __future__ import annotations

import attrs

from ...catalog import catalog
from ...combat import facing, moving_fire, stats, stun, track
from ...combat.attack import formation_modifiers
from ...combat.commands import (
    FireGroup,
    Kick,
    Move,
    Sprint,
    UseEquipment,
)
from ...combat.elevation import jump_length
from ...combat.kicks import KickPlan, kick_targets
from ...combat.movement import reach
from ...combat.state import Unit
from ...hexgrid import Hex, distance, path, within
from .fog import can_target
from .fog import radiating as fog_radiating
from .objectives import seize_target, seize_value
from .plan_types import COVER_HELD, Attack, Scored, Shots, Spot
from .rules import stance_band
from .situation import BAND, GAMMA, NONE_STATUS, Situation, Status
from .tables import Kit, masked

#: The range class of the Point Blank and Short bands (O7.9's close-range stance).
SHORT = "short"


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
        # O5: the hexes moved so far this activation and whether the frame is stabilised;
        # O7.6: its own `stunned`/`dazed` (the same entries `hit_chance` adds)
        self.o5 = moving_fire.on(sit.battle)
        self.counts = moving_fire.counts_moves(sit.battle)
        self.moved = u.moved_hexes
        self.stable = moving_fire.stabilised(u)
        self.own_mod = sum(value for _, value, _ in stun.entries(u))
        self.kicks = sit.battle.rule("O7") and not u.kicked
        self._drawn: dict[tuple[Hex, Status], list[float]] = {}
        self._bare: dict[tuple[Hex, Status], list[float]] = {}
        # O4: the facings the frame may fire from at each place it can end (the free pivot
        # included while unspent), and the kits of the guns that bear there on each target
        self.o4 = facing.on(sit.battle) and u.facing is not None
        self.pivot = 0 if u.pivoted else facing.data().pivot.hexsides if self.o4 else 0
        self.facings: dict[Hex, tuple[int, ...]] = {}
        if self.o4 and u.facing is not None:
            self.facings[sit.pos] = facing.spread(u.facing, self.pivot)
        self._bearing: dict[tuple[Hex, str], Kit] = {}
        self._formation: dict[tuple[Hex, str], int] = {}  # O9: the entries by place, target
        # O8: by place and target, whether the frame would detect it there (None: it would
        # not), else O8.7's `radiating` for a shot from there
        self._fog: dict[tuple[Hex, str], int | None] = {}

    # ---- pieces -----------------------------------------------------------------------------
    def fog_at(self, at: Hex, target: Unit) -> int | None:
        """O8.6 and O8.7 for a shot from `at`: None when the frame would not detect `target`
        there, else the `radiating` entry (remembered by place and target)."""
        key = (at, target.id)
        if key not in self._fog:
            b = self.sit.battle
            seen = can_target(b, self.unit, at, target)
            self._fog[key] = fog_radiating(b, self.unit, at, target) if seen else None
        return self._fog[key]

    def shooter_mod(self, moved: int | None = None) -> int:
        """The frame's own module entries on its fire: O5's `moving` for `moved` hexes (the
        hexes so far when None; O5.4: an overwatch pays its whole activation's), O7.6's
        `stunned`/`dazed`."""
        n = self.moved if moved is None else moved
        return self.own_mod + (moving_fire.moving_penalty(n, self.stable) if self.o5 else 0)

    def extra_against(self, t: Kit, uplinked: str | None = None) -> int:
        s = self.sit
        extra = moving_fire.fast_target_penalty(t.unit.moved_hexes) if self.o5 else 0  # O5.5
        if t.unit.braced:
            extra -= s.brace_mod
        if t.unit.ecm_active:
            extra += t.ecm_value
        if t.unit.id in s.designated or t.unit.id == uplinked:
            extra += s.uplink_value
        return extra

    def fire_from(
        self,
        at: Hex,
        group: int,
        t: Kit,
        budget: int,
        uplinked: str | None = None,
        called: int = 0,
        moved: int | None = None,
    ) -> tuple[Shots, int]:
        s = self.sit
        tpos = t.unit.pos
        assert tpos is not None
        d = s.tables.dist(at, tpos)
        if d < s.me.closest or t.unit.dodging:  # O1: range 0 on the track; O9.9d: dodged
            return (), 0
        hot = 0
        if s.fog:  # O8.6: only at a target it would detect from `at`; O8.7 `radiating`
            found = self.fog_at(at, t.unit)
            if found is None:
                return (), 0
            hot = found
        v = s.volley(
            self.bearing(at, t),
            group,
            t,
            d,
            s.tables.los(at, tpos),
            s.tables.cover[tpos],
            s.spotted(self.unit, tpos, self.unit.id),
            budget,
            self.extra_against(t, uplinked)
            - called
            + s.tables.lift(at, tpos)
            + self.rear(at, t)
            + hot
            + self.formation_extra(at, t)
            + self.shooter_mod(moved),
        )
        return v.shots, v.energy

    def formation_extra(self, at: Hex, t: Kit) -> int:
        """O9: the formation entries of a shot from `at` at `t` (`line`, `crossfire`,
        `screen`, `flanking`, `mutual cover`, `battle plan`), the engine's own, with the frame
        placed at `at`; 0 with O9 off."""
        battle = self.sit.battle
        if not battle.formations:
            return 0
        key = (at, t.unit.id)
        found = self._formation.get(key)
        if found is None:
            there = attrs.evolve(self.unit, pos=at)
            placed = battle.with_unit(there) if at != self.unit.pos else battle
            entries = formation_modifiers(placed, there, placed.unit(t.unit.id))
            found = self._formation[key] = sum(m.value for m in entries)
        return found

    # ---- O4: facing and arcs ----------------------------------------------------------------
    def bearing(self, at: Hex, t: Kit) -> Kit:
        """O4.8: the frame's kit with only the guns that bear on `t` from `at`, each group
        turned its best way among the facings it may take there (its whole kit with O4 off)."""
        me = self.sit.me
        if not self.o4:
            return me
        key = (at, t.unit.id)
        found = self._bearing.get(key)
        if found is not None:
            return found
        tpos = t.unit.pos
        assert tpos is not None
        weapons = self.unit.weapons
        options = self.facings.get(at, tuple(range(6)))
        keep: set[int] = set()
        whole = True
        for guns in me.groups.values():
            best: list[int] = []
            for f in options:
                bearing = [
                    g.weapon
                    for g in guns
                    if facing.bears_from(at, f, weapons[g.weapon].mount, tpos)
                ]
                if len(bearing) > len(best):
                    best = bearing
                if len(best) == len(guns):
                    break
            whole = whole and len(best) == len(guns)
            keep.update(best)
        found = self._bearing[key] = me if whole else masked(me, frozenset(keep))
        return found

    def rear(self, at: Hex, t: Kit) -> int:
        """O4.9: `rear` for a shot from `at` at `t`, by `t`'s facing now (O4.11: the gain of a
        place in an enemy's rear arc)."""
        if not self.o4 or t.unit.pos is None:
            return 0
        side = facing.arc_from(self.sit.battle, t.unit, at)
        return facing.data().rear.modifier if side == "rear" else 0

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
            walked_to = reach(s.battle, u, False)
            self.learn_facings(walked_to)
            for h in walked_to:
                if h == s.pos:
                    continue
                if s.on_track:  # O1.4: toward its own line
                    pull = track.toward_own_line(u.side, s.pos.q, h.q)
                else:
                    after = nearest(h)
                    pull = nearest_now is not None and after is not None and after > nearest_now
                energy = back if pull else walk
                if energy <= self.energy_left:
                    steps = self.steps(walked_to, h)
                    out.append(Spot(h, Move(h), self.ap_costs.move, energy, steps))
        jump = self.items.get("jump")
        if (
            jump is not None
            and self.ap >= self.ap_costs.equipment
            and jump.energy <= self.energy_left
        ):
            occupied = s.battle.occupied()
            bmap = s.battle.map
            for h in within(s.pos, jump.value):
                if s.on_track:  # O1.7: one position, no passing
                    fits = h.r == 0 and track.check_thrust(s.battle, u, h) is None
                else:
                    fits = (
                        h != s.pos
                        and h not in occupied
                        and bmap.contains(h)
                        and jump_length(s.battle, s.pos, h) <= jump.value  # O2.4: levels up
                    )
                if fits:
                    if self.o4:  # O4.4: a jump lands with any facing
                        self.facings.setdefault(h, tuple(range(6)))
                    out.append(
                        Spot(
                            h,
                            UseEquipment(jump.id, None, h),
                            self.ap_costs.equipment,
                            jump.energy,
                            distance(s.pos, h) if self.counts else 0,  # O5.1
                        )
                    )
        if self.ap >= self.ap_costs.sprint:
            run = stats.move_energy(u, sprint=True)
            taken = {spot.hex for spot in out}
            if run <= self.energy_left:
                run_to = reach(s.battle, u, True)
                self.learn_facings(run_to)
                for h in run_to:
                    if h not in taken:  # a hex a Move reaches is better walked to
                        steps = self.steps(run_to, h)
                        out.append(Spot(h, Sprint(h), self.ap_costs.sprint, run, steps))
        goal = seize_target(s.battle, u)  # O11.10: the OB5 hex, for the frame that goes
        for spot in out:
            spot.outlook = GAMMA * s.outlook(spot.hex)
            spot.band = -BAND * s.pressure * s.band(spot.hex)
            if goal is not None:
                spot.objective = seize_value(spot.hex, goal)
        return out

    def learn_facings(self, reached: dict[Hex, tuple[int, Hex | None]]) -> None:
        """O4.2: the facings a Move or Sprint ending on each hex of `reached` may end with (the
        last step's direction, one hexside either side), widened by the free pivot."""
        if not self.o4:
            return
        width = facing.data().move.spread + self.pivot
        for h, (_, before) in reached.items():
            if before is not None and h not in self.facings:
                self.facings[h] = facing.spread(facing.step_direction(before, h), width)

    def steps(self, walked: dict[Hex, tuple[int, Hex | None]], h: Hex) -> int:
        """O5.1: the hexes a Move or Sprint to `h` enters (0 while neither O5 nor O7 counts
        them)."""
        return len(path(walked, h)) - 1 if self.counts else 0

    def quick_fire(
        self, at: Hex, budget: int, fired: tuple[int, ...] = (), moved: int | None = None
    ) -> float:
        """A quick bound on the fire a frame landing at `at` could add: its best group (but
        those `fired`) expected damage at any enemy, weighted by the enemy's worth (no odds
        worked out)."""
        s = self.sit
        me = s.me
        groups = [g for g in self.free_groups if g not in fired]
        best = 0.0
        for t in s.enemies:
            tpos = t.unit.pos
            assert tpos is not None
            d = s.tables.dist(at, tpos)
            if d < me.closest or d > me.reach:
                continue
            los = s.tables.los(at, tpos)
            cover = s.tables.cover[tpos]
            spotted = s.spotted(self.unit, tpos, self.unit.id)
            extra = self.extra_against(t) + s.tables.lift(at, tpos) + self.rear(at, t)
            extra += self.shooter_mod(moved)
            weight = s.damage_weight(t)
            kit = self.bearing(at, t)
            for g in groups:
                v = s.volley(kit, g, t, d, los, cover, spotted, budget, extra).expected * weight
                if v > best:
                    best = v
        return best

    def attacks_from(
        self, at: Hex, budget: int, uplinked: str | None = None, moved: int | None = None
    ) -> list[Attack]:
        """Every group at every enemy it can reach from `at` with `budget` energy (after
        `moved` hexes this activation, O5)."""
        out = []
        s = self.sit
        for g in self.free_groups:
            for t in s.enemies:
                shots, energy = self.fire_from(at, g, t, budget, uplinked, moved=moved)
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
        ahead: float = 0.0,
        kick: float = 0.0,
    ) -> Scored:
        """The plan ending at `spot` after `attacks` and the other actions' effects; `ahead`
        is fire the frame can still bring this activation from `spot` (a one-action planner's
        move: `quick_fire` with the AP it leaves), counted with the outlook."""
        s = self.sit
        dmg = kick  # O7: a kick's damage and stun, valued (`kicks_from`)
        kill = pilot = wreck = setup = stress = 0.0
        kills: dict[Kit, float] = {}
        energy = spot.energy + extra_energy
        for a in attacks:
            d, k, pk, w, st = s.attack_parts(a.target, a.odds)
            dmg += d
            kill += k
            pilot += pk
            wreck += w
            setup += s.setup(a.target, a.odds, a.called)
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
        parts: tuple[float, ...] = (
            dmg,
            kill,
            pilot,
            wreck,
            setup,
            stress,
            spot.outlook + ahead,
            spot.band,
            received,
            cover,
            overwatch,
            support,
            reactor,
        )
        if spot.objective:
            parts = (*parts, spot.objective)
        stress_end = s.end_stress(self.unit.energy_used + round(energy), vented)
        return Scored(sum(parts), parts, stress_end, spot.hex, status, tuple(kills.items()))

    # ---- the non-fire actions ---------------------------------------------------------------
    def overwatch_value(
        self, at: Hex, group: int, budget: int, moved: int | None = None
    ) -> tuple[float, float]:
        """R4: (value, expected energy) of `group` on overwatch at `at`: reaction fire at the
        nearest enemy in its reach at the end of the round (enemies still to act may come or go)."""
        s = self.sit
        guns = s.me.groups.get(group, ())
        if not guns:
            return 0.0, 0.0
        reach_hexes = max(g.reach for g in guns)
        ranked = sorted(
            (s.tables.dist(at, e.unit.pos), i, e)
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
                self.extra_against(e)
                - s.overwatch_mod
                + s.tables.lift(at, epos)
                + self.shooter_mod(moved),
            )
            q = left * p
            value += q * v.expected * s.damage_weight(e)
            energy += q * v.energy
            left -= q
            if left <= 0.01:
                break
        return value, energy

    def closes_to_kick(self) -> bool:
        """O7.9: the frame closes in to kick only when its preferred band is Point Blank or
        Short (its stance band the short range class, §10.2)."""
        return self.kicks and stance_band(self.unit) == SHORT

    def kicks_from(self, spot: Spot, ap: int, spent: float) -> list[tuple[Kick, float, int, str]]:
        """O7.9: the kicks the frame could give from `spot` with `ap` AP left after spending
        `spent` energy this plan (the engine's `check_kick` and `kick_chance` on the frame
        standing there): (command, value, energy, target id). A kick's value is its expected
        damage, weighted as fire's, plus, for a target it would stun, the fire the stun takes
        off that target's next two activations (O7.6: -50, then -20), weighed as received fire
        is. None that would overload the reactor (or with O7 off, or after a kick)."""
        if not self.kicks or ap < 1:
            return []
        s = self.sit
        u = self.unit
        moved = self.moved + spot.hexes
        here = attrs.evolve(
            u, pos=spot.hex, ap=ap, energy_used=u.energy_used + round(spent), moved_hexes=moved
        )
        battle = s.battle.with_unit(here)
        output = stats.effective_output(u)
        rule = self.cat.kicks.stun
        out = []
        kits = {e.unit.id: e for e in s.enemies}  # not a neutral it holds no grudge with (O10)
        for target, plan in kick_targets(battle, here):
            kit = kits.get(target.id)
            if kit is None or not isinstance(plan, KickPlan):
                continue
            if here.energy_used + plan.energy > output:
                continue
            p = plan.chance.chance / 100
            value = p * plan.damage * s.damage_weight(kit)
            if not target.stun:
                eased = (rule.stunned + rule.dazed) / 100
                value += p * eased * s.firepower(kit) * self.w_received
            out.append((Kick(target.id), value, plan.energy, target.id))
        return out

    def uplink_value(self, at: Hex, t: Kit) -> float:
        """R11: what designating `t` adds to the fire of the allies still to act this round."""
        s = self.sit
        tpos = t.unit.pos
        if tpos is None or s.tables.dist(at, tpos) > s.uplink_range or t.unit.id in s.designated:
            return 0.0
        total = 0.0
        for a in s.allies_after:
            apos = a.unit.pos
            assert apos is not None
            pots = []
            for e in s.enemies:
                epos = e.unit.pos
                assert epos is not None
                d = s.tables.dist(apos, epos)
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
                base = self.extra_against(e) + s.tables.lift(apos, epos)
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
