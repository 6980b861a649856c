"""One decision's view of the battle: who acts before the frame acts again, what each frame can
fire, what damage is worth, and the fire a position will draw.

Everything is measured in one currency, expected damage points:

* damage dealt counts `1 + focus x firepower / kill distance` per point (a frame that hits
  hard and is near its end is worth hitting; the same weight makes a damaged frame careful);
* putting a frame out of the fight is worth its firepower over `HORIZON` activations
  (`CALLED_HORIZON` for a pilot who calls shots, Tactics 5+) and the battle itself for the
  last one; destroying a location, the firepower mounted there;
* for a pilot who calls shots (Tactics 5+), damage on a frame's centre torso is a step toward
  the called shot that finishes it: its share of what the centre torso has left, times
  `SETUP` of the frame's worth (what the step is worth if the volley does not kill);
* the fire a position draws is every enemy's best reply before the frame acts again (its two
  best groups where it stands, or one after its move), shared among the frames it could shoot
  at by how well it could hit each, with cover, lines of sight, bracing and countermeasures;
* stress counts by the shutdown it risks (§5.4).
"""

from __future__ import annotations

import heapq
from typing import Final, NamedTuple

from ...catalog import LOCATION_ORDER, catalog
from ...combat import detection, stats, track
from ...combat.state import CENTER_TORSO, HEAD, LEGS, Battle, Unit, friendly
from ...hexgrid import Hex, distance
from .odds import NOTHING, Odds, hit_share, volley_odds
from .rules import FEAR, preferred_distance
from .skill import Skill
from .tables import (
    BLOCKED,
    Clamp,
    Gun,
    Kit,
    MapTables,
    kit_of,
    make_room,
    map_tables,
    relief_of,
    shift_of,
)
from .volleys import Volley, called_kill, coarse, potential, volley

HORIZON: Final = 8.0  # activations of fire a kill takes off the field: the rest of a battle
#: The same for a pilot who calls shots (Tactics 5+): it can finish a frame it has hurt, and
#: presses for the kill (measured in docs/balance.md: 12 and 16 won alike against `greedy`,
#: both more often than 8).
CALLED_HORIZON: Final = 12.0
FOCUS: Final = 1.5  # weight of firepower per kill distance on damage
#: Share of a frame's worth that destroying all its centre torso has left is worth as a step
#: toward a called shot's kill (`Situation.setup`; measured in docs/balance.md: 0.3 and 0.6
#: won about as often against `greedy`, 1.0 and 1.5 less).
SETUP: Final = 0.6
VICTORY: Final = 40.0  # putting the last enemy out of the fight
GAMMA: Final = 0.6  # weight of the fire a position lets the frame bring next time
BAND: Final = 0.6  # per hex away from the stance's preferred distance
WAYS_KEPT: Final = 64  # O2: the fields `way_to_sight` works out, kept per map
HIDDEN_BAND: Final = 4.0  # O2: the band's hexes with no enemy in sight, the way round added
LOCATION_SHARE: Final = 0.6  # a location's weapons are worth this much of a kill's share
LEGS_SHARE: Final = 0.25  # legs: share of the frame's kill value (it can no longer close)
FOLLOW_UP_FLOOR: Final = 0.25  # the follow-up never takes the kill distance below this share
SHUTDOWN_ROUNDS: Final = 1.5  # a shutdown costs this many activations of the frame's fire
TYPICAL_EVASION: Final = 15
OPTIMAL_BONUS: Final = 10
#: The band is pressed harder from this round on in a quiet battle (nothing damaged yet) ...
QUIET_FROM: Final = 3
#: ... and from this round on in any battle (a standoff: R30 ends only one where nobody can
#: move), by PRESS_PER_ROUND more each round.
STANDOFF_FROM: Final = 12
PRESS_PER_ROUND: Final = 0.5

ODDS_KEPT: Final = 20_000
#: A volley's odds by the target's kit (one frame state: `kit_of`), the shots and the called
#: location, shared by the decisions that follow (a frame nobody hit keeps its kit).
_odds: dict[tuple[object, ...], Odds] = {}

DRAWN_KEPT: Final = 4
DrawnTable = dict[tuple[Hex, "Status", int | None], list[float]]
#: The fire drawn at each hex (`Situation.drawn`) by everything it is worked out from, for the
#: last few decisions.
_drawn_tables: dict[tuple[object, ...], DrawnTable] = {}


def drawn_table(inputs: tuple[object, ...]) -> DrawnTable:
    found = _drawn_tables.get(inputs)
    if found is None:
        if len(_drawn_tables) >= DRAWN_KEPT:
            _drawn_tables.clear()
        found = _drawn_tables[inputs] = {}
    return found


Status = tuple[bool, bool]  # (braced, countermeasures on)
NONE_STATUS: Final[Status] = (False, False)


def exactly(shift: int) -> int:
    """A shift as it is (`Skill.exact`; `volleys.coarse` rounds it)."""
    return shift


class Reply(NamedTuple):
    """An enemy's activation before the frame acts again."""

    slot: int  # in `Situation.enemies`
    kit: Kit
    pos: Hex
    ap: int
    energy: int
    move: int  # hexes its reply may move
    now: bool  # acts later this round (bracing counts against it)
    friends: tuple[Hex, ...] | None  # its allies' positions, when it has indirect fire (R10)


class Situation:
    """The analysis of one decision for the active frame `unit`."""

    def __init__(self, battle: Battle, unit: Unit, skill: Skill) -> None:
        Clamp.load()
        cat = catalog()
        acc = cat.combat.accuracy
        self.battle = battle
        self.unit = unit
        self.skill = skill
        self.fog = detection.on(battle)  # O8: planning on the side's view
        self.rounded = exactly if skill.exact else coarse
        self.tables: MapTables = map_tables(battle.map, battle)
        self.on_track = track.on(battle)  # O1: kits with the bands' columns
        self.me: Kit = kit_of(unit, self.on_track)
        assert unit.pos is not None
        self.pos: Hex = unit.pos
        placed = [u for u in battle.units if u.active and u.pos is not None]
        # its side's other frames (O10.2: the player's and the allied lance's together)
        self.allies: list[Kit] = [
            kit_of(u, self.on_track)
            for u in placed
            if friendly(u.side, unit.side) and u.id != unit.id
        ]
        # the frames it fights (O10.2: with third parties, `Battle.hostile`: never a neutral
        # that holds no grudge against its side)
        self.enemies: list[Kit] = [
            kit_of(u, self.on_track) for u in placed if battle.hostile(unit.side, u.side)
        ]
        self.brace_mod = acc.brace
        self.called_mod = acc.called_shot
        self.overwatch_mod = acc.overwatch
        self.spot_range = acc.indirect_spotter_range
        uplink = next((e for e in cat.equipment.values() if e.effect == "designate"), None)
        self.uplink_value = 0 if uplink is None else uplink.value
        self.uplink_range = 0 if uplink is None else uplink.range
        barrier = next((e for e in cat.equipment.values() if e.effect == "barrier"), None)
        self.barrier_range = 0 if barrier is None else barrier.range
        if self.on_track:  # O1.7
            self.uplink_range = cat.range_bands.equipment.uplink_range
            self.barrier_range = cat.range_bands.equipment.barrier_range
        self.designated = {u.target for u in battle.uplinks if u.side == unit.side}
        self.fear = FEAR[unit.stance]
        self.preferred = preferred_distance(unit, self.on_track)
        order = {uid: i for i, uid in enumerate(battle.order)}
        mine = order.get(unit.id, battle.turn)
        # Who acts before this frame acts again: later this round, or earlier next round.
        self.this_round: set[str] = set()
        self.next_round: set[str] = set()
        for e in self.enemies:
            i = order.get(e.unit.id)
            if i is None:
                continue
            if i > mine and e.unit.ap > 0:
                self.this_round.add(e.unit.id)
            elif i < mine:
                self.next_round.add(e.unit.id)
        self.allies_after = [
            a for a in self.allies if order.get(a.unit.id, -1) > mine and a.unit.ap > 0
        ]
        reactor = cat.combat.reactor
        self.reactor = reactor
        self._fp: dict[str, float] = {}
        self._ehp: dict[str, float] = {}
        self._loc_value: dict[str, tuple[float, ...]] = {}
        self._others2: dict[int, float] = {}
        self._reactors: dict[str, tuple[int, int, float]] = {}
        self._spotted: dict[tuple[str, Hex], bool] = {}
        self._sights: dict[tuple[int, Hex], tuple[int, int, bool, int]] = {}
        self._outputs: dict[str, tuple[int, int]] = {}
        self._weights: dict[tuple[str, float], float] = {}
        self._drawn_table: DrawnTable | None = None
        self._way: dict[Hex, int] | None = None
        damaged = any(
            u.total_armor < u.start_armor or u.total_structure < u.start_structure
            for u in battle.units
        )
        since = STANDOFF_FROM if damaged else QUIET_FROM
        self.pressure = 1.0 + max(0, battle.round - since) * PRESS_PER_ROUND
        self.last_enemy = len(self.enemies) == 1
        self.replies = self._replies()
        self.next_energy = stats.overload_limit(unit)
        self.next_ap = stats.max_ap(unit)
        self.targets: list[tuple[Hex, Kit, int, bool, float]] = []
        for e in self.enemies:
            epos = e.unit.pos
            assert epos is not None
            spotted = self.me.indirect and self.spotted(unit, epos, unit.id)
            self.targets.append((epos, e, self.tables.cover[epos], spotted, self.damage_weight(e)))

    # ---- fire ----------------------------------------------------------------------------
    def spotted(self, side_of: Unit, target_pos: Hex, exclude: str) -> bool:
        """R10: an active frame of `side_of`'s side other than `exclude` within spotting
        range of `target_pos`."""
        key = (exclude, target_pos)
        found = self._spotted.get(key)
        if found is None:
            found = any(
                u.side == side_of.side
                and u.id != exclude
                and u.active
                and u.pos is not None
                and self.tables.dist(u.pos, target_pos) <= self.spot_range
                and self.tables.los(u.pos, target_pos) < BLOCKED  # O2.6: the spotter sees
                for u in self.battle.units
            )
            self._spotted[key] = found
        return found

    def volley(
        self,
        att: Kit,
        group: int,
        tgt: Kit,
        d: int,
        los: int,
        cover: int,
        spotted: bool,
        budget: int,
        extra: int,
    ) -> Volley:
        """`volley` from a position: `los`, `cover`, an R10 spotter (`spotted`)."""
        relief = relief_of(att.indirect, los, spotted)
        return volley(att, group, tgt, d, shift_of(los, cover, extra), relief, budget)

    def odds(self, tgt: Kit, shots: tuple[tuple[int, Gun], ...], called: str | None) -> Odds:
        if not shots:
            return NOTHING
        key = (tgt, shots, called)
        found = _odds.get(key)
        if found is None:
            found = volley_odds(tgt, shots, called)
            make_room(_odds, ODDS_KEPT)
            _odds[key] = found
        return found

    def potential(
        self,
        att: Kit,
        tgt: Kit,
        d: int,
        los: int,
        cover: int,
        spotted: bool,
        budget: int,
        ap: int,
        move: int,
        extra: int,
    ) -> float:
        """`potential` from a position: `los`, `cover`, an R10 spotter (`spotted`)."""
        relief = relief_of(att.indirect, los, spotted)
        return potential(att, tgt, d, shift_of(los, cover, extra), relief, budget, ap, move)

    # ---- what frames are worth ---------------------------------------------------------------
    def firepower(self, k: Kit) -> float:
        """What taking the frame out of the fight saves per activation: the expected damage of
        its two best groups at their best range against a typical target; for an enemy, the
        mean of that and the most it can do to one of this side's frames where they stand
        (its activation from where it is, moving included)."""
        uid = k.unit.id
        found = self._fp.get(uid)
        if found is None:
            per_group = []
            for guns in k.groups.values():
                v = 0.0
                for gun in guns:
                    chance = gun.accuracy - TYPICAL_EVASION + OPTIMAL_BONUS
                    chance = max(Clamp.lo, min(Clamp.hi, chance))
                    v += chance * gun.damage / 100
                per_group.append(v)
            per_group.sort(reverse=True)
            found = sum(per_group[:2])
            if not friendly(k.unit.side, self.unit.side):
                found = (found + self.menace(k)) / 2
            if k.unit.shutdown:
                found *= 0.5
            self._fp[uid] = found
        return found

    def menace(self, e: Kit) -> float:
        """The most enemy `e` can do in one activation to a frame of this side where it stands
        (its full AP and energy, its move, cover and lines of sight as they are)."""
        epos = e.unit.pos
        assert epos is not None
        best = 0.0
        move = int(e.move * self.skill.enemy_moves + 0.5)
        for a in (self.me, *self.allies):
            apos = a.unit.pos
            assert apos is not None
            d = self.tables.dist(epos, apos)
            los = self.tables.los(epos, apos)
            v = potential(
                e,
                a,
                d,
                self.rounded(self.tables.lift(epos, apos) - self.tables.cover[apos] - los),
                0,
                stats.overload_limit(e.unit),
                stats.max_ap(e.unit),
                move,
            )
            best = max(best, v)
        return best

    def kill_distance(self, k: Kit) -> float:
        """Roughly how much damage, hitting at random, puts the frame out of the fight; with
        lance coordination (Tactics 4+), less what the allies still to act this round are
        expected to put on an enemy."""
        uid = k.unit.id
        found = self._ehp.get(uid)
        if found is None:
            hp = k.hp
            ct = hp[CENTER_TORSO] + 0.3 * (hp[2] + hp[3])
            found = max(1.0, min(float(sum(hp)), ct / 0.45))
            if self.skill.coordination and not friendly(k.unit.side, self.unit.side):
                found = max(found * FOLLOW_UP_FLOOR, found - self.follow_up(k))
            self._ehp[uid] = found
        return found

    def follow_up(self, t: Kit) -> float:
        """Expected damage the allies still to act this round will put on enemy `t`: each
        one's best activation at it, times the share of its fire `t` draws among the enemies
        (by the squares of what it could do to each)."""
        total = 0.0
        for a in self.allies_after:
            apos = a.unit.pos
            assert apos is not None
            pots = []
            for e in self.enemies:
                epos = e.unit.pos
                assert epos is not None
                d = self.tables.dist(apos, epos)
                los = self.tables.los(apos, epos)
                pots.append(
                    potential(
                        a,
                        e,
                        d,
                        self.rounded(self.tables.lift(apos, epos) - self.tables.cover[epos] - los),
                        0,
                        stats.energy_left(a.unit),
                        a.unit.ap,
                        a.move,
                    )
                )
            norm = sum(p * p for p in pots)
            mine = pots[self.enemies.index(t)]
            if norm > 0:
                total += mine * mine * mine / norm
        return total

    def damage_weight(self, k: Kit, focus: float | None = None) -> float:
        f = self.skill.focus if focus is None else focus
        key = (k.unit.id, f)
        found = self._weights.get(key)
        if found is None:
            found = self._weights[key] = 1.0 + f * FOCUS * self.firepower(k) / self.kill_distance(k)
        return found

    def kill_value(self, k: Kit) -> float:
        horizon = CALLED_HORIZON if self.skill.called_shots else HORIZON
        value = self.skill.focus * horizon * self.firepower(k)
        if self.last_enemy and not friendly(k.unit.side, self.unit.side):
            value += VICTORY
        return value

    def location_values(self, k: Kit) -> tuple[float, ...]:
        """What destroying each location is worth (weapons mounted there; the legs' mobility);
        the head and centre torso count through the kill chance instead."""
        uid = k.unit.id
        found = self._loc_value.get(uid)
        if found is None:
            total = sum(stats.weapon_of(w).damage for _, w in k.unit.live_weapons()) or 1
            kill = self.skill.focus * HORIZON * self.firepower(k)
            values = []
            for i, loc in enumerate(LOCATION_ORDER):
                if i in (HEAD, CENTER_TORSO):
                    values.append(0.0)
                elif i == LEGS:
                    values.append(LEGS_SHARE * kill if k.move else 0.0)
                else:
                    mounted = sum(
                        stats.weapon_of(w).damage
                        for _, w in k.unit.live_weapons()
                        if w.mount == loc
                    )
                    values.append(LOCATION_SHARE * kill * mounted / total)
            found = tuple(values)
            self._loc_value[uid] = found
        return found

    def attack_parts(self, tgt: Kit, odds: Odds) -> tuple[float, float, float, float, float]:
        """(damage, kill by the centre torso, kill by the pilot, wrecked locations, target
        stress) value of an attack's odds; the two kills add up to the chance of putting the
        frame out of the fight times its worth."""
        dmg = odds.expected * self.damage_weight(tgt)
        worth = self.kill_value(tgt)
        pilot = odds.p_pilot * (1.0 - odds.p_destroyed[CENTER_TORSO]) * worth
        kill = odds.p_kill * worth - pilot
        wreck = sum(p * v for p, v in zip(odds.p_destroyed, self.location_values(tgt), strict=True))
        stress = 0.0
        if odds.stress > 0:
            u = tgt.unit
            before = self.reactor_cost_of(u, u.energy_used, 0, 0.0)
            after = self.reactor_cost_of(u, u.energy_used, 0, odds.stress)
            stress = (after - before) * (1.0 - odds.p_kill)
        return dmg, kill, pilot, wreck, stress

    def setup(self, tgt: Kit, odds: Odds, called: str | None) -> float:
        """What an attack's damage on `tgt`'s centre torso is worth as a step toward the called
        shot that finishes it (pilots who call shots: Tactics 5+): the share of the centre
        torso's hit points it is expected to take (all the damage of a shot called there; of
        other fire, the centre torso's share of the hit locations, §4.1), times `SETUP` of the
        frame's worth, when the attack does not put the frame out already. With the attack's
        `kill`, never more than the frame's worth."""
        left = tgt.hp[CENTER_TORSO]
        if not self.skill.called_shots or left <= 0 or odds.expected <= 0:
            return 0.0
        if called is None:
            share = hit_share(CENTER_TORSO)
        else:
            share = 1.0 if called == LOCATION_ORDER[CENTER_TORSO] else 0.0
        step = min(1.0, odds.expected * share / left)
        return SETUP * self.kill_value(tgt) * step * (1.0 - odds.p_kill)

    # ---- reactor ---------------------------------------------------------------------------
    def reactor_cost_of(self, u: Unit, energy_used: int, vented: int, extra_stress: float) -> float:
        """What the stress a frame ends the round with costs it (§5.3, §5.4): a 25% chance of a
        shutdown from its output, a certain one and a reactor hit from 150%."""
        r = self.reactor
        found = self._reactors.get(u.id)
        if found is None:
            found = (*self._output(u), self.firepower(kit_of(u, self.on_track)))
            self._reactors[u.id] = found
        output, dissipation, fp = found
        stress = max(0, u.stress - vented) + max(0, energy_used - output) + extra_stress
        stress -= min(stress, dissipation)
        shutdown = SHUTDOWN_ROUNDS * fp + 5.0
        if stress * 100 >= output * r.auto_shutdown_percent:
            return shutdown + 0.5 * fp + 10.0
        cost = 0.0
        if stress >= output:
            cost = r.shutdown_chance / 100 * shutdown
        return cost + 0.15 * fp * stress / max(1, output)

    def _output(self, u: Unit) -> tuple[int, int]:
        """The frame's effective output and what it dissipates at the round's end (§5.3)."""
        found = self._outputs.get(u.id)
        if found is None:
            r = self.reactor
            out = stats.effective_output(u)
            found = self._outputs[u.id] = (
                out,
                max(r.dissipation_min, out // r.dissipation_divisor),
            )
        return found

    def end_stress(self, energy_used: int, vented: int) -> float:
        u = self.unit
        output, dissipation = self._output(u)
        stress = max(0, u.stress - vented) + max(0, energy_used - output)
        return stress - min(stress, dissipation)

    # ---- the fire a position draws ----------------------------------------------------------
    def _replies(self) -> list[Reply]:
        """Per enemy acting before this frame acts again: what its activation can bring."""
        out = []
        for i, e in enumerate(self.enemies):
            uid = e.unit.id
            epos = e.unit.pos
            assert epos is not None
            if uid in self.this_round:
                ap, energy, now = e.unit.ap, stats.energy_left(e.unit), True
            elif uid in self.next_round:
                ap, energy, now = stats.max_ap(e.unit), stats.overload_limit(e.unit), False
            else:
                continue
            friends = tuple(
                u.unit.pos for u in self.enemies if u is not e and u.unit.pos is not None
            )
            move = int(e.move * self.skill.enemy_moves + 0.5)
            out.append(Reply(i, e, epos, ap, energy, move, now, friends if e.indirect else None))
        return out

    def _sight(self, r: Reply, at: Hex) -> tuple[int, int, bool, int]:
        """The enemy of `r`'s distance and line of sight to `at`, whether a friend of its
        spots `at` for its indirect fire (R10), and its `height` modifier there (O2.7): the
        same for every status and target there."""
        key = (r.slot, at)
        found = self._sights.get(key)
        if found is None:
            spotted = False
            t = self.tables
            if r.friends is not None:
                spot = self.spot_range
                spotted = any(t.dist(f, at) <= spot and t.los(f, at) < BLOCKED for f in r.friends)
            found = (t.dist(r.pos, at), t.los(r.pos, at), spotted, t.lift(r.pos, at))
            self._sights[key] = found
        return found

    def reply_both(
        self, r: Reply, target: Kit, at: Hex, status: Status, cover: int | None = None
    ) -> tuple[float, float]:
        """`reply` without and with `kills`, worked out together."""
        d, los, spotted, lift = self._sight(r, at)
        if d < r.kit.closest:
            return 0.0, 0.0
        braced, ecm = status
        extra = lift
        if braced and r.now:
            extra -= self.brace_mod
        if ecm:
            extra += target.ecm_value
        shift = self.rounded(extra - (self.tables.cover[at] if cover is None else cover) - los)
        relief = relief_of(r.kit.indirect, los, spotted)
        v = potential(r.kit, target, d, shift, relief, r.energy, r.ap, r.move)
        worst = v
        if r.ap >= 2 and r.kit.reach >= d:
            # a called shot that may put the frame out: its worth, as damage
            ck = called_kill(r.kit, target, d, shift, relief, r.energy)
            if ck > 0:
                worst = max(v, ck * self.kill_value(target) / self.damage_weight(target, 1.0))
        return v, worst

    def reply(
        self,
        r: Reply,
        target: Kit,
        at: Hex,
        status: Status,
        cover: int | None = None,
        kills: bool = False,
    ) -> float:
        """Expected damage the enemy of `r` can fire at `target` standing at `at` before this
        frame acts again (with the cover of `at`, or `cover`); with `kills`, or the worth (as
        damage) of a called shot that may put it out of the fight, when that is more."""
        plain, worst = self.reply_both(r, target, at, status, cover)
        return worst if kills else plain

    def others_drawn(self, r: Reply) -> float:
        """Σ over this frame's allies of the square of the enemy's reply at them."""
        i = r.slot
        found = self._others2.get(i)
        if found is None:
            found = 0.0
            for a in self.allies:
                apos = a.unit.pos
                assert apos is not None
                v = self.reply(r, a, apos, (a.unit.braced, a.unit.ecm_active))
                found += v * v
            self._others2[i] = found
        return found

    def drawn(self, at: Hex, status: Status, cover: int | None = None) -> list[float]:
        """Per enemy: the expected damage it puts on this frame at `at` (its reply, times the
        share of its fire this frame draws among its side), with the cover of `at` (or
        `cover`). The share goes by what the enemy could do to each frame as they stand
        (bracing and countermeasures left out: an enemy does not always turn away from a braced
        frame), so bracing takes off only what it takes off the shots."""
        key = (at, status, cover)
        table = self._drawn_table
        if table is None:
            table = self._drawn_table = drawn_table(self._drawn_inputs())
        found = table.get(key)
        if found is not None:
            return found
        out = table[key] = [0.0] * len(self.enemies)
        me = self.me
        for r in self.replies:
            v0, v = self.reply_both(r, me, at, status, cover)
            if v > 0:
                if status != NONE_STATUS:
                    v0 = self.reply_both(r, me, at, NONE_STATUS, cover)[0]
                out[r.slot] = v * share(v0 * v0, self.others_drawn(r))
        return out

    def _drawn_inputs(self) -> tuple[object, ...]:
        """Everything `drawn` reads, as values: two decisions with equal inputs draw equal fire
        at every hex (the second decision of an activation, after a shot that changed no
        enemy's guns, finds the first one's work done)."""
        me = self.me
        return (
            self.tables,
            self.skill.exact,
            self.brace_mod,
            self.spot_range,
            len(self.enemies),
            me.defence_sig,
            me.hp,
            me.piloting_survival,
            me.ecm_value,
            self.kill_value(me),
            self.damage_weight(me, 1.0),
            tuple((r.slot, r.pos, r.ap, r.energy, r.move, r.now, r.friends) for r in self.replies),
            tuple((r.kit.attack_sig, r.kit.indirect, r.kit.move_energy) for r in self.replies),
            tuple(
                (a.unit.pos, a.defence_sig, a.hp, a.ecm_value, a.unit.braced, a.unit.ecm_active)
                for a in self.allies
            ),
        )

    def received_weight(self) -> float:
        return self.fear * self.damage_weight(self.me, 1.0)

    # ---- where the frame stands --------------------------------------------------------------
    def outlook(self, at: Hex) -> float:
        """The fire this frame could bring next time from `at` at its best target (expected
        damage weighted by the target's worth), its next round's full energy and AP."""
        best = 0.0
        me = self.me
        t = self.tables
        for epos, e, cover, spotted, weight in self.targets:
            d = t.dist(at, epos)
            if d < me.closest:
                continue
            line = t.los(at, epos)
            v = weight * potential(
                me,
                e,
                d,
                self.rounded(t.lift(at, epos) - cover - line),
                relief_of(me.indirect, line, spotted),
                self.next_energy,
                self.next_ap,
                me.move,
            )
            if v > best:
                best = v
        return best

    def band(self, at: Hex) -> float:
        """Hexes from the stance's preferred distance to the nearest enemy. With O2: by d3,
        to the nearest enemy in sight; when every line from `at` is blocked (O2.6),
        `HIDDEN_BAND` plus the steps to the nearest hex with a line (`way_to_sight`), so a
        frame in a standoff behind a hill works its way round it."""
        t = self.tables
        if not t.raised:
            nearest = min(
                (distance(at, e.unit.pos) for e in self.enemies if e.unit.pos is not None),
                default=self.preferred,
            )
            return float(abs(nearest - self.preferred))
        seen = [
            (t.los(at, e.unit.pos) >= BLOCKED, t.dist(at, e.unit.pos))
            for e in self.enemies
            if e.unit.pos is not None
        ]
        if not seen:
            return 0.0
        hidden, nearest = min(seen)
        if not hidden:
            return float(abs(nearest - self.preferred))
        way = self.way_to_sight().get(at)
        return HIDDEN_BAND + (abs(nearest - self.preferred) if way is None else way)

    def way_to_sight(self) -> dict[Hex, int]:
        """O2: per hex, the least of (the movement (§6.4, O2.3) it takes to walk to a hex with
        an unblocked line to an enemy within this frame's reach + that hex's band there): how
        far the frame is from a good firing position; absent where no walk leads to one. A
        hidden frame's band is this plus `HIDDEN_BAND`, so it works its way round a hill
        toward its preferred distance."""
        if self._way is None:
            t = self.tables
            reach = max(self.me.reach, 1)
            targets = tuple(e.unit.pos for e in self.enemies if e.unit.pos is not None)
            key = (targets, reach, self.preferred)
            known = t.ways.get(key)  # the same field for any frame with this reach and band
            if known is None:
                make_room(t.ways, WAYS_KEPT)
                known = t.ways[key] = self._way_field(targets, reach)
            self._way = known
        return self._way

    def _way_field(self, targets: tuple[Hex, ...], reach: int) -> dict[Hex, int]:
        t = self.tables
        way: dict[Hex, int] = {}
        heap: list[tuple[int, Hex]] = []
        into = t.walks()
        for h in into:
            near = ((p, t.dist(h, p)) for p in targets if p != h)
            seen = [d for p, d in near if d <= reach and t.los(h, p) < BLOCKED]
            if seen:
                way[h] = abs(min(seen) - self.preferred)
                heap.append((way[h], h))
        heapq.heapify(heap)
        while heap:  # movement (§6.4, O2.3), backwards from the hexes with a line
            v, h = heapq.heappop(heap)
            if v != way[h]:
                continue
            for n, cost in into[h]:
                if v + cost < way.get(n, v + cost + 1):
                    way[n] = v + cost
                    heapq.heappush(heap, (way[n], n))
        return way


def share(mine: float, others: float) -> float:
    """The share of an enemy's fire a frame draws: its square of the enemy's plain reply
    (`mine`) among its side's (`others`: the allies'). When the enemy has no plain shot at
    anyone (both are 0) and only its worst case (a called shot) reaches this frame, the frame
    draws all of it: it is the only one that enemy threatens."""
    total = mine + others
    return mine / total if total > 0 else 1.0
