"""The exact enumeration behind `combat/forecast.py`: every outcome of a sequence of shots at
one target, with its probability (§3, §4, §7.7.3).

Input: the target (`Unit`) and a sequence of steps: `Shot` (one weapon's shot: its damage,
whether it is a missile, the called location, its hit chance for each combination of the
target's slot equipment destroyed) and `RoundEnd` (the Barrier's armour goes, R11).
Output: `Summary`, the distribution's answers.

How it walks (the chance nodes in the engine's draw order, `attack.resolve_attack`):

1. the d100 to hit (the cosmetic critical roll, §3.8, is skipped);
2. for a missile, Point Defense (`attack.missile_pass_chance`);
3. the hit location (`attack.hit_location_weights`, §4.1) or the called location;
4. the cascade, by the engine's own `damage.CascadeWork.cascade` with its draws answered
   from a script (`combat/branches.py`): each §4.3 row that changes what is tracked
   (Weapon Destroyed with each weapon pick, Ammo Explosion with each pick and each internal
   damage value), the other rows as one branch, the §4.6 survival roll as survive / die.

What is tracked (the target's *state*): per location its armour, structure, the weapons and
slot equipment mounted there (a *part*, interned as a small int); the Barrier's armour;
whether the pilot lives and whether the frame is destroyed. Actuator, reactor, gyro, sensor
and cockpit hits are not: nothing in a later shot's resolution reads them (a shot's chance
depends on the target's chassis, stance, hex and equipment).

Why it stays small:

* states are tuples of small ints, interned; paths reaching the same state merge;
* a hit's cascade reads and writes only the locations of its transfer chain (§4.4), so it
  is enumerated link by link and cached on those locations' parts, whatever the rest of
  the frame looks like, once per process (`branches.Store`);
* before each shot a state is put in a canonical form that the rest of the walk cannot tell
  from it (`_canon`); armour and structure lost are summed as they happen, so the canonical
  form loses no answer;
* the threat's walk (``full=False``) computes only the head, centre torso, out and mean
  damage answers, and forgets every location that cannot pass anything on to the head or
  centre torso.

The one approximation: past `MAX_STATES` live (state, damage) pairs after a shot the least
likely are dropped and their mass reported as `Summary.residual` (every probability is then
exact to within it, from below). Single groups and ordinary focus fire stay far below it.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Sequence
from typing import Final, NamedTuple

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER
from . import branches as br
from . import facing
from .attack import hit_location_weights
from .state import LOC_INDEX, Unit, WeaponState

__all__ = [
    "MAX_STATES",
    "SAMPLES",
    "THREAT_STATES",
    "RoundEnd",
    "Shot",
    "Step",
    "Summary",
    "clear_cache",
    "walk",
]

#: Past this many live states after a shot the threat's walk (``full=False``) gives way to
#: sampling `SAMPLES` paths of the same model (several enemies' fire at a healthy frame can
#: reach millions of states: 3.5 million for nine shots at an intact TN-85).
THREAT_STATES: Final = 600
SAMPLES: Final = 1_500
#: Past this many live (state, damage) pairs after a shot, the least likely are dropped.
MAX_STATES: Final = 20_000


# ---- the steps ---------------------------------------------------------------------------------
class Shot(NamedTuple):
    """One weapon's shot (hashable: part of the cache key).

    ``chances[mask]`` is the hit chance (percent) when, for every bit ``j`` set in ``mask``,
    the target's equipment ``sensitive[j]`` (an index into ``Unit.equipment``) is destroyed.
    """

    damage: int
    missile: bool
    called: int  # location index; -1 for the §4.1 roll
    sensitive: tuple[int, ...]
    chances: tuple[int, ...]
    table: str = ""  # O4.9: the arc whose hit table the §4.1 roll uses ("": the core table)


def _weights(table: str) -> tuple[tuple[str, int], ...]:
    """§4.1's weights, or (O4.9) those of the arc a shot comes from."""
    return facing.hit_weights(table) if table else hit_location_weights()


def _located(table: str) -> tuple[tuple[int, float], ...]:
    """(location index, probability) of the §4.1 roll with `table`'s weights."""
    weights = _weights(table)
    total = sum(w for _, w in weights)
    return tuple((LOC_INDEX[loc], w / total) for loc, w in weights if w > 0)


class RoundEnd(NamedTuple):
    """The end of a round between shots (§1 phase 5, R11): the Barrier's armour goes."""


Step = Shot | RoundEnd


@frozen
class Summary:
    """The answers of a walk (see `forecast.Forecast` for their meaning)."""

    expected_damage: float
    expected_loss: float
    p_any_hit: float
    p_destroyed: tuple[float, ...]
    p_frame_destroyed: float
    p_pilot_killed: float
    damage: tuple[tuple[int, float], ...]
    residual: float
    sampled: int = 0  # paths sampled (0: enumerated); then ``residual`` is 4 standard errors


# ---- the walk's own caches (on the store's ids) ------------------------------------------------
class _Caches:
    def __init__(self) -> None:
        self.generation = br.GENERATION[0]
        self.part_canon: dict[tuple[int, int | None, int | None, bool], int] = {}
        self.canon: dict[tuple[int, int], int] = {}
        self.contexts: dict[_Context, int] = {}
        self.context_list: list[_Context] = []
        self.summaries: dict[tuple[int, tuple[Step, ...], bool], Summary] = {}


_CACHES = [_Caches()]


def _caches() -> _Caches:
    if _CACHES[0].generation != br.GENERATION[0]:
        _CACHES[0] = _Caches()
    return _CACHES[0]


def clear_cache() -> None:
    """Forget every interned state and cached result (benchmarks measure cold calls)."""
    br.reset()
    _CACHES[0] = _Caches()


# ---- merging states the rest of the walk cannot tell apart -------------------------------------
class _Context(NamedTuple):
    """What the rest of a walk can still do, as `_canon` needs it."""

    total: int  # damage of every shot still to come
    per_location: tuple[int, ...]  # damage of the shots still to come that can land there
    full: bool  # every answer (else only the threat's: head, centre torso, out, mean damage)


def _canon_part(pid: int, armor: int | None, structure: int | None, dead: bool) -> int:
    """Part ``pid`` with its armour and structure set (None: as they are) and, when ``dead``
    (it can roll no component again), its weapons in one shared form (destroyed, no ammo);
    the ammo of a working weapon kept only as "some left"."""
    key = (pid, armor, structure, dead)
    done = _caches().part_canon.get(key)
    if done is not None:
        return done
    p = br.STORE.part_list[pid]
    weapons = tuple(
        WeaponState(weapon=w.weapon, mount=w.mount, group=1, destroyed=True)
        if dead or w.destroyed
        else w
        if w.ammo <= 1
        else attrs.evolve(w, ammo=1)
        for w in p.weapons
    )
    out = br.STORE.part(
        p._replace(
            armor=p.armor if armor is None else armor,
            structure=p.structure if structure is None else structure,
            weapons=weapons,
        )
    )
    _caches().part_canon[key] = out
    return out


def _canon(sid: int, cid: int) -> int:
    """State ``sid`` in a canonical form that behaves the same for the rest of the walk (its
    `_Context` ``cid``) and gives the same answers.

    Per location ``L`` a bound ``B`` on the damage that can still reach its armour: the
    shots still to come that can land there, plus what its feeders (§4.4) can pass on. A
    feeder ``u`` passes on at most ``max(0, B(u) + explosion x loaded weapons at u - armour -
    structure of u)`` (nothing leaves a location before its armour and structure are gone,
    a component roll needs the armour gone, each loaded weapon explodes once); a destroyed
    one passes on all it gets. (Also ``B(L)`` is at most all the damage to come plus what
    the feeders could add to it.) Then:

    * armour at or above ``B`` is cut to ``B``: every later hit is absorbed either way, and
      the location rolls no more components, so its weapons no longer matter;
    * a location that cannot be destroyed, holds no loaded weapon and has no Reactive Armour
      to split a hit, absorbs every later hit whole: it becomes armour ``B``, structure 1;
    * for the threat's answers only, so does every location that can pass nothing on to the
      head or centre torso (legs, an arm and torso that cannot break through) and holds no
      working slot equipment it could lose;
    * a frame that is out keeps only which locations are destroyed (for the threat's
      answers: which of the head and centre torso).
    """
    key = (sid, cid)
    done = _caches().canon.get(key)
    if done is not None:
        return done
    ctx = _caches().context_list[cid]
    s = br.STORE.state_list[sid]
    n = len(LOCATION_ORDER)
    chains = br.chains()
    new = list(s)
    if not (s[2] and not s[3]):
        new[1] = 0
        for i in range(n):
            p = br.STORE.part_list[s[br.PARTS + i]]
            gone = p.structure <= 0
            if not ctx.full and i not in chains.enders:
                gone = False
            new[br.PARTS + i] = _canon_part(s[br.PARTS + i], 0, 0 if gone else 1, True)
    else:
        layout = br.STORE.layout_list[s[0]]
        parts = [br.STORE.part_list[s[br.PARTS + i]] for i in range(n)]
        loaded = [br.STORE.part_loaded[s[br.PARTS + i]] for i in range(n)]
        boom = chains.explosion
        extra = [0] * n  # the old bound's feeder allowance (shared damage budget)
        reach = [0] * n
        passes = [0] * n
        for i in chains.order:
            shared = 0
            via = 0
            for u in chains.feeders[i]:
                pu = parts[u]
                if pu.structure <= 0:
                    shared += extra[u]
                else:
                    shared += max(0, extra[u] + boom * loaded[u] - pu.armor - pu.structure)
                via += passes[u]
            extra[i] = shared
            reach[i] = min(ctx.total + shared, ctx.per_location[i] + via)
            p = parts[i]
            if p.structure <= 0:
                passes[i] = reach[i]
            else:
                passes[i] = max(0, reach[i] + boom * loaded[i] - p.armor - p.structure)
        relevant = [False] * n
        if not ctx.full:
            for i in reversed(chains.order):
                to = chains.transfer[i]
                relevant[i] = (
                    i in chains.enders
                    or (to is not None and relevant[to] and passes[i] > 0)
                    or (
                        any(not e.destroyed for e in parts[i].equipment)
                        and reach[i] + boom * loaded[i] >= parts[i].armor + parts[i].structure
                    )
                )
        for i in range(n):
            p, b, pid = parts[i], reach[i], s[br.PARTS + i]
            breakable = b > p.armor and b - p.armor + boom * loaded[i] >= p.structure
            if p.structure <= 0:
                new[br.PARTS + i] = _canon_part(pid, 0, None, True)
            elif p.armor >= b:
                new[br.PARTS + i] = _canon_part(pid, b, None, True)
            elif (not ctx.full and not relevant[i]) or (
                not breakable and not loaded[i] and not layout.reactive
            ):
                new[br.PARTS + i] = _canon_part(pid, b, 1, True)
            else:
                new[br.PARTS + i] = _canon_part(pid, None, None, False)
    out = br.STORE.state(tuple(new))
    _caches().canon[key] = out
    return out


def _context(ctx: _Context) -> int:
    cid = _caches().contexts.get(ctx)
    if cid is None:
        cid = len(_caches().context_list)
        _caches().contexts[ctx] = cid
        _caches().context_list.append(ctx)
    return cid


# ---- the walk ----------------------------------------------------------------------------------
def _chance(shot: Shot, info: br.Info) -> float:
    mask = 0
    for j, i in enumerate(shot.sensitive):
        if info.destroyed_equipment[i]:
            mask |= 1 << j
    return shot.chances[mask] / 100


def walk(target: Unit, steps: Sequence[Step], *, full: bool = True) -> Summary:
    """The answers for ``steps`` carried out on ``target`` as it is now (cached). With
    ``full=False`` only the threat's answers are computed (the mean damage landed, the head
    and centre torso destroyed, the frame destroyed, the pilot killed): ``damage`` is empty,
    ``expected_loss`` is NaN and the other locations' ``p_destroyed`` are NaN; much faster
    over long sequences."""
    if br.STORE.full():
        clear_cache()
    start = br.start_state(target)
    key = (start, tuple(steps), full)
    done = _caches().summaries.get(key)
    if done is None:
        try:
            done = _walk(start, key[1], full)
        except _TooBig:
            done = _sample(start, key[1], SAMPLES)
        _caches().summaries[key] = done
    return done


class _TooBig(Exception):
    """The threat's walk would pass `THREAT_STATES` live states."""


# The end of a walk, as the answers need it: (destroyed locations mask, pilot alive,
# frame destroyed, damage landed).
End = tuple[int, int, int, int]


def _contexts(steps: tuple[Step, ...], full: bool) -> list[int]:
    """The `_Context` id before each step."""
    weights = hit_location_weights()
    n = len(LOCATION_ORDER)
    can = [w > 0 for _, w in weights]
    total = 0
    per = [0] * n
    out = [0] * len(steps)
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if isinstance(step, Shot):
            total += step.damage
            for loc in range(n):
                if (step.called == loc) or (step.called < 0 and can[loc]):
                    per[loc] += step.damage
        out[i] = _context(_Context(total, tuple(per), full))
    return out


def _walk(start: int, steps: tuple[Step, ...], full: bool) -> Summary:
    located = {"": _located("")}
    contexts = _contexts(steps, full)
    last = max((i for i, st in enumerate(steps) if isinstance(st, Shot)), default=-1)
    chains = br.chains()
    chain_bits = [sum(1 << i for i in chain) for chain in chains.chain]
    watched = -1 if full else sum(1 << i for i in chains.enders)
    dist: dict[tuple[int, int], float] = {(start, 0): 1.0}
    end: dict[End, float] = {}
    residual = 0.0
    lost = 0.0
    landed_mean = 0.0
    for n, step in enumerate(steps[: last + 1]):
        new: dict[tuple[int, int], float] = {}
        if isinstance(step, RoundEnd):
            for (sid, dmg), p in dist.items():
                s = br.STORE.state_list[sid]
                nid = br.STORE.state((s[0], 0, *s[2:])) if s[1] else sid
                new[(nid, dmg)] = new.get((nid, dmg), 0.0) + p
            dist = new
            continue
        final = n == last
        amount = step.damage
        if step.called >= 0:
            targets: tuple[tuple[int, float], ...] = ((step.called, 1.0),)
        else:
            targets = located.get(step.table) or located.setdefault(
                step.table, _located(step.table)
            )
        cid = contexts[n]
        for (sid0, dmg), p in dist.items():
            sid = _canon(sid0, cid)
            info = br.STORE.state_info(sid)
            c = 0.0 if not info.active else _chance(step, info)
            landed = c * info.missile_pass if step.missile else c
            if landed < 1.0:
                if final:
                    s = br.STORE.state_list[sid]
                    e = (br.mask(sid) & watched, s[2], s[3], dmg)
                    end[e] = end.get(e, 0.0) + p * (1.0 - landed)
                else:
                    key = (sid, dmg)
                    new[key] = new.get(key, 0.0) + p * (1.0 - landed)
            if landed <= 0.0:
                continue
            hit = p * landed
            landed_mean += hit * amount
            after = dmg + amount if full else 0
            for loc, w in targets:
                pw = hit * w
                if not final:
                    for nid, q, loss in br.moves(sid, loc, amount):
                        k = (nid, after)
                        pq = pw * q
                        new[k] = new.get(k, 0.0) + pq
                        lost += pq * loss
                    continue
                s = br.STORE.state_list[sid]
                keep = br.mask(sid) & ~chain_bits[loc] & watched
                pids = tuple(s[br.PARTS + i] for i in chains.chain[loc])
                for q, qloss, alive, destroyed, bits in br.ends(
                    s[0], s[1], s[2], s[3], loc, amount, pids
                ):
                    e = (keep | (bits & watched), alive, destroyed, after)
                    end[e] = end.get(e, 0.0) + pw * q
                    lost += pw * qloss
        if not full and len(new) > THREAT_STATES:
            raise _TooBig
        if len(new) > MAX_STATES:
            kept = sorted(new.items(), key=lambda kv: kv[1], reverse=True)[:MAX_STATES]
            residual += sum(new.values()) - sum(p for _, p in kept)
            new = dict(kept)
        dist = new
    for (sid, dmg), p in dist.items():  # no shot at all
        s = br.STORE.state_list[sid]
        e = (br.mask(sid) & watched, s[2], s[3], dmg)
        end[e] = end.get(e, 0.0) + p
    summary = _summarise(end, lost, residual)
    if full:
        return summary
    nan = float("nan")
    return attrs.evolve(
        summary,
        expected_damage=landed_mean,
        expected_loss=nan,
        p_any_hit=nan,
        p_destroyed=tuple(
            p if i in chains.enders else nan for i, p in enumerate(summary.p_destroyed)
        ),
        damage=(),
    )


def _summarise(end: dict[End, float], lost: float, residual: float) -> Summary:
    n = len(LOCATION_ORDER)
    destroyed = [0.0] * n
    damage: dict[int, float] = {}
    expected_damage = p_hit = p_frame = p_pilot = 0.0
    for (mask, alive, frame, dmg), p in end.items():
        for i in range(n):
            if mask >> i & 1:
                destroyed[i] += p
        damage[dmg] = damage.get(dmg, 0.0) + p
        expected_damage += p * dmg
        if dmg > 0:
            p_hit += p
        if frame:
            p_frame += p
        elif not alive:
            p_pilot += p
    return Summary(
        expected_damage=expected_damage,
        expected_loss=lost,
        p_any_hit=p_hit,
        p_destroyed=tuple(destroyed),
        p_frame_destroyed=p_frame,
        p_pilot_killed=p_pilot,
        damage=tuple(sorted(damage.items())),
        residual=residual,
    )


def _sample(start: int, steps: tuple[Step, ...], n: int) -> Summary:
    """The threat's answers estimated from ``n`` paths of the walk's own model (the same
    cached branches, drawn instead of enumerated) with a fixed seed, so the same question
    always gets the same answer; ``residual`` is then a 99.99% bound on the error of every
    probability (four standard errors of the least certain, at least 10/n)."""
    rng = random.Random(0x5EED)
    tables: dict[str, tuple[list[int], list[int]]] = {}
    for table in {step.table for step in steps if isinstance(step, Shot)} | {""}:
        weights = _weights(table)  # O4.9: each arc's table
        tables[table] = (
            [LOC_INDEX[loc] for loc, w in weights if w > 0],
            list(itertools.accumulate(w for _, w in weights if w > 0)),
        )
    chains = br.chains()
    head_i, ct_i = LOC_INDEX["head"], LOC_INDEX["center_torso"]
    counts = {"head": 0, "ct": 0, "frame": 0, "pilot": 0}
    landed_total = 0.0
    squares = 0.0
    for _ in range(n):
        sid = start
        landed = 0
        for step in steps:
            s = br.STORE.state_list[sid]
            if isinstance(step, RoundEnd):
                if s[1]:
                    sid = br.STORE.state((s[0], 0, *s[2:]))
                continue
            info = br.STORE.state_info(sid)
            if not info.active:
                break
            c = _chance(step, info)
            p = c * info.missile_pass if step.missile else c
            if rng.random() >= p:
                continue
            landed += step.damage
            if step.called >= 0:
                loc = step.called
            else:
                located, cumulative = tables[step.table]
                loc = located[bisect.bisect_right(cumulative, rng.random() * cumulative[-1])]
            chain = chains.chain[loc]
            pids = tuple(s[br.PARTS + i] for i in chain)
            outcomes = br.cascade(s[0], s[1], s[2], s[3], loc, step.damage, pids)
            pick = rng.random()
            chosen = outcomes[-1]
            for o in outcomes:
                pick -= o[0]
                if pick < 0:
                    chosen = o
                    break
            _, _, barrier, alive, destroyed, parts = chosen
            new = list(s)
            new[1], new[2], new[3] = barrier, alive, destroyed
            for i, part in zip(chain, parts, strict=True):
                new[br.PARTS + i] = part
            sid = br.STORE.state(tuple(new))
        s = br.STORE.state_list[sid]
        gone = br.mask(sid)
        counts["head"] += gone >> head_i & 1
        counts["ct"] += gone >> ct_i & 1
        counts["frame"] += s[3]
        counts["pilot"] += not s[2] and not s[3]
        landed_total += landed
        squares += landed * landed
    share = {k: v / n for k, v in counts.items()}
    # Four standard errors, and never less than 10/n: with no event seen in n paths, a
    # chance above 10/n would have shown one with probability 1 - e^-10.
    error = max(max(4 * math.sqrt(p * (1 - p) / n), 10 / n) for p in share.values())
    nan = float("nan")
    gone_shares = [nan] * len(LOCATION_ORDER)
    gone_shares[head_i], gone_shares[ct_i] = share["head"], share["ct"]
    mean = landed_total / n
    return Summary(
        expected_damage=mean,
        expected_loss=nan,
        p_any_hit=nan,
        p_destroyed=tuple(gone_shares),
        p_frame_destroyed=share["frame"],
        p_pilot_killed=share["pilot"],
        damage=(),
        residual=error,
        sampled=n,
    )
