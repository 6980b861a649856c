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
4. the cascade: the engine's own `damage.CascadeWork.cascade`, with its draws answered by
   `_Script` (depth-first by replay) instead of dice: each §4.3 component row that changes
   what is tracked (Weapon Destroyed with each weapon pick, Ammo Explosion with each pick and
   each internal damage value), the other rows as one branch, the §4.6 survival roll as
   survive / die.

What is tracked (the target's *state*): per location its armour, structure, the weapons and
slot equipment mounted there (a *location part*, interned as a small int); the Barrier's
armour; whether the pilot lives and whether the frame is destroyed. Actuator, reactor, gyro,
sensor and cockpit hits are not: nothing in a later shot's resolution reads them (a shot's
chance depends on the target's chassis, stance, hex and equipment).

Why it stays small:

* states are tuples of small ints, interned; paths reaching the same state merge;
* a hit's cascade reads and writes only the locations of its transfer chain (§4.4), so it
  is cached on those locations' parts (and the Barrier, the pilot's Piloting and Reactive
  Armour), whatever the rest of the frame looks like, once per process;
* before each shot a state is put in a canonical form that the rest of the walk cannot tell
  from it (`_canon`): armour above what can still reach a location is cut to that, the
  weapons of a location that can no longer roll a component are forgotten, a frame that is
  out keeps only which locations are destroyed. Armour and structure lost are summed as
  they happen, so the canonical form loses no answer.

The one approximation: past `MAX_STATES` live (state, damage) pairs after a shot the least
likely are dropped and their mass reported as `Summary.residual` (every probability is then
exact to within it, from below). Single groups and ordinary focus fire stay far below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from .attack import hit_location_weights, missile_pass_chance
from .damage import (
    AMMO_EXPLOSION,
    NO_EFFECT,
    STRUCTURE_DAMAGE_REDUCTION,
    WEAPON_DESTROYED,
    CascadeWork,
    component_die,
)
from .state import CENTER_TORSO, HEAD, LOC_INDEX, EquipmentState, Unit, WeaponState
from .stats import equipment_total, weapon_of

__all__ = ["MAX_STATES", "RoundEnd", "Shot", "Step", "Summary", "clear_cache", "walk"]

#: Past this many live (state, damage) pairs after a shot, the least likely are dropped.
MAX_STATES: Final = 20_000
#: The caches are emptied when they hold this many states.
_STORE_LIMIT: Final = 400_000


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


# ---- interned values ---------------------------------------------------------------------------
class _Layout(NamedTuple):
    """What never changes about a target during a walk."""

    piloting: int
    reactive: int  # Reactive Armour's percent (passive: never destroyed)
    weapons_at: tuple[tuple[int, ...], ...]  # per location: indices into Unit.weapons
    equipment_at: tuple[tuple[int, ...], ...]  # per location: indices of slot equipment
    loose: tuple[EquipmentState, ...]  # the equipment with no mount, as it is


class _Part(NamedTuple):
    """One location of the target: armour, structure, its weapons and slot equipment."""

    armor: int
    structure: int
    weapons: tuple[WeaponState, ...]
    equipment: tuple[EquipmentState, ...]


# A state: (layout id, barrier, pilot alive, destroyed, part id per location).
State = tuple[int, ...]
_PARTS: Final = 4  # where the part ids begin in a state


# (probability, armour and structure lost, Barrier, pilot alive, destroyed, new part ids)
Outcome = tuple[float, int, int, int, int, tuple[int, ...]]
# (probability, lost, Barrier, pilot alive, destroyed, new part id, overflow passed on)
Local = tuple[float, int, int, int, int, int, int]


class _Info(NamedTuple):
    active: bool
    missile_pass: float
    destroyed_equipment: tuple[bool, ...]


class _Store:
    """Every interned value and cache; emptied past `_STORE_LIMIT` states."""

    def __init__(self) -> None:
        self.layouts: dict[_Layout, int] = {}
        self.layout_list: list[_Layout] = []
        self.layout_units: list[Unit] = []
        self.parts: dict[_Part, int] = {}
        self.part_list: list[_Part] = []
        self.part_loaded: list[int] = []
        self.states: dict[State, int] = {}
        self.state_list: list[State] = []
        self.info: dict[int, _Info] = {}
        self.locals: dict[tuple[int, ...], tuple[Local, ...]] = {}
        self.cascades: dict[tuple[int, ...], tuple[Outcome, ...]] = {}
        self.moves: dict[tuple[int, int, int], tuple[tuple[int, float, int], ...]] = {}
        self.canon: dict[tuple[int, int], int] = {}
        self.contexts: dict[_Context, int] = {}
        self.context_list: list[_Context] = []
        self.masks: dict[int, int] = {}
        self.ends: dict[tuple[int, ...], tuple[tuple[float, float, int, int, int], ...]] = {}
        self.part_canon: dict[tuple[int, int | None, int | None, bool], int] = {}
        self.summaries: dict[tuple[int, tuple[Step, ...], bool], Summary] = {}

    def layout(self, unit: Unit) -> int:
        n = len(LOCATION_ORDER)
        weapons_at: list[list[int]] = [[] for _ in range(n)]
        for i, w in enumerate(unit.weapons):
            weapons_at[LOC_INDEX[w.mount]].append(i)
        equipment_at: list[list[int]] = [[] for _ in range(n)]
        for i, e in enumerate(unit.equipment):
            if e.mount is not None:
                equipment_at[LOC_INDEX[e.mount]].append(i)
        key = _Layout(
            unit.pilot.piloting,
            equipment_total(unit.equipment, STRUCTURE_DAMAGE_REDUCTION),
            tuple(tuple(x) for x in weapons_at),
            tuple(tuple(x) for x in equipment_at),
            tuple(e for e in unit.equipment if e.mount is None),
        )
        lid = self.layouts.get(key)
        if lid is None:
            lid = len(self.layout_list)
            self.layouts[key] = lid
            self.layout_list.append(key)
            self.layout_units.append(unit)
        return lid

    def part(self, p: _Part) -> int:
        pid = self.parts.get(p)
        if pid is None:
            pid = len(self.part_list)
            self.parts[p] = pid
            self.part_list.append(p)
            self.part_loaded.append(sum(1 for w in p.weapons if _loaded(w)))
        return pid

    def state(self, s: State) -> int:
        sid = self.states.get(s)
        if sid is None:
            sid = len(self.state_list)
            self.states[s] = sid
            self.state_list.append(s)
        return sid

    def state_info(self, sid: int) -> _Info:
        info = self.info.get(sid)
        if info is None:
            s = self.state_list[sid]
            equipment = _equipment(s)
            info = _Info(
                active=bool(s[2]) and not s[3],
                missile_pass=missile_pass_chance(equipment),
                destroyed_equipment=tuple(e.destroyed for e in equipment),
            )
            self.info[sid] = info
        return info


_STORE = _Store()


def clear_cache() -> None:
    """Forget every interned state and cached result (benchmarks measure cold calls)."""
    global _STORE
    _STORE = _Store()


def _loaded(w: WeaponState) -> bool:
    return not w.destroyed and w.ammo > 0 and weapon_of(w).uses_ammo


def _equipment(s: State) -> list[EquipmentState]:
    """The target's whole equipment tuple in state ``s``, in `Unit.equipment` order."""
    layout = _STORE.layout_list[s[0]]
    size = len(layout.loose) + sum(len(x) for x in layout.equipment_at)
    out: list[EquipmentState | None] = [None] * size
    for i, positions in enumerate(layout.equipment_at):
        for pos, e in zip(positions, _STORE.part_list[s[_PARTS + i]].equipment, strict=True):
            out[pos] = e
    loose = iter(layout.loose)
    return [e if e is not None else next(loose) for e in out]


def _weapons(s: State) -> list[WeaponState]:
    layout = _STORE.layout_list[s[0]]
    size = sum(len(x) for x in layout.weapons_at)
    out: list[WeaponState | None] = [None] * size
    for i, positions in enumerate(layout.weapons_at):
        for pos, w in zip(positions, _STORE.part_list[s[_PARTS + i]].weapons, strict=True):
            out[pos] = w
    return [w for w in out if w is not None]


def start_state(unit: Unit) -> int:
    """The target as it is now, interned."""
    lid = _STORE.layout(unit)
    layout = _STORE.layout_list[lid]
    parts = tuple(
        _STORE.part(
            _Part(
                unit.armor[i],
                unit.structure[i],
                tuple(unit.weapons[p] for p in layout.weapons_at[i]),
                tuple(unit.equipment[p] for p in layout.equipment_at[i]),
            )
        )
        for i in range(len(LOCATION_ORDER))
    )
    return _STORE.state((lid, unit.barrier, int(unit.pilot_alive), int(unit.destroyed), *parts))


# ---- the cascade, enumerated -------------------------------------------------------------------
Option = tuple[int, float]


class _Script:
    """`damage.Draws` answered from a script of earlier choices; at each new chance node it
    takes the first option and queues the others (depth-first enumeration by replay)."""

    __slots__ = ("component", "pending", "pos", "script", "taken")

    def __init__(self, script: tuple[Option, ...], component: tuple[Option, ...]) -> None:
        self.component = component
        self.script = script
        self.pos = 0
        self.taken: list[Option] = list(script)
        self.pending: list[tuple[Option, ...]] = []

    def _draw(self, options: Sequence[Option]) -> int:
        if self.pos < len(self.script):
            value = self.script[self.pos][0]
            self.pos += 1
            return value
        self.pos += 1
        live = [o for o in options if o[1] > 0.0]
        for other in live[1:]:
            self.pending.append((*self.taken, other))
        self.taken.append(live[0])
        return live[0][0]

    def component_roll(self) -> int:
        return self._draw(self.component)

    def pick(self, options: Sequence[int]) -> int:
        share = 1.0 / len(options)
        return self._draw([(i, share) for i in options])

    def between(self, lo: int, hi: int) -> int:
        share = 1.0 / (hi - lo + 1)
        return self._draw([(v, share) for v in range(lo, hi + 1)])

    def survival_roll(self, needed: int) -> int:
        survive = min(100, max(0, needed)) / 100
        return self._draw([(1, survive), (100, 1.0 - survive)])

    @property
    def probability(self) -> float:
        p = 1.0
        for _, q in self.taken:
            p *= q
        return p


_COMPONENT_OPTIONS: dict[tuple[int, bool, bool], tuple[Option, ...]] = {}


def _component_options(armed: bool, loaded: bool) -> tuple[Option, ...]:
    """§4.3 as branches at a location with working weapons (``armed``) and some with ammo
    (``loaded``): one per row whose effect changes what is tracked there (Weapon Destroyed
    when armed, Ammo Explosion when loaded; at its first roll), the others merged into one
    (a roll of the No Effect row, or of the first row not tracked)."""
    cat = catalog()
    key = (id(cat), armed, loaded)
    cached = _COMPONENT_OPTIONS.get(key)
    if cached is not None:
        return cached
    tracked_now = {WEAPON_DESTROYED} if armed else set()
    if loaded:
        tracked_now.add(AMMO_EXPLOSION)
    die = component_die()
    tracked: list[Option] = []
    rest = 0
    rest_roll: int | None = None
    for row in cat.combat.component:
        share = row.high - row.low + 1
        if row.id in tracked_now:
            tracked.append((row.low, share / die))
        else:
            rest += share
            if rest_roll is None or row.id == NO_EFFECT:
                rest_roll = row.low
    options = tuple(tracked) + (((rest_roll, rest / die),) if rest_roll is not None else ())
    _COMPONENT_OPTIONS[key] = options
    return options


class _Chains(NamedTuple):
    chain: tuple[tuple[int, ...], ...]  # per location: it and the locations it transfers to
    transfer: tuple[int | None, ...]  # per location: where its overflow goes
    feeders: tuple[tuple[int, ...], ...]  # per location: the locations transferring into it
    order: tuple[int, ...]  # every location after all its feeders
    explosion: int  # §4.3: the most internal damage of one ammo explosion
    enders: frozenset[int]  # the locations whose loss ends the frame (§4.5, §4.6)


_CHAINS: dict[int, _Chains] = {}


def _chains() -> _Chains:
    cat = catalog()
    cached = _CHAINS.get(id(cat))
    if cached is not None:
        return cached
    n = len(LOCATION_ORDER)
    to: list[int | None] = []
    for loc in LOCATION_ORDER:
        nxt = cat.location(loc).transfer_to
        to.append(None if nxt is None else LOC_INDEX[nxt])
    chain = []
    for i in range(n):
        links = [i]
        j = to[i]
        while j is not None and j not in links:
            links.append(j)
            j = to[j]
        chain.append(tuple(links))
    feeders = tuple(tuple(j for j in range(n) if to[j] == i) for i in range(n))
    order: list[int] = []
    while len(order) < n:
        order.extend(i for i in range(n) if i not in order and all(f in order for f in feeders[i]))
    chains = _Chains(
        tuple(chain),
        tuple(to),
        feeders,
        tuple(order),
        cat.combat.damage.ammo_explosion_max,
        frozenset({HEAD, CENTER_TORSO}),
    )
    _CHAINS.clear()
    _CHAINS[id(cat)] = chains
    return chains


def _local(
    lid: int, barrier: int, alive: int, destroyed: int, loc: int, amount: int, pid: int
) -> tuple[Local, ...]:
    """Every outcome at location ``loc`` alone of one hit (or transfer) of ``amount``: the
    engine's `CascadeWork.cascade` with ``follow=False``, once per path through its chance
    nodes: (probability, lost, Barrier, pilot alive, destroyed, new part, overflow passed on).
    Only location ``loc`` of the work is loaded: nothing else is read before the transfer."""
    key = (lid, barrier, alive, destroyed, loc, amount, pid)
    done = _STORE.locals.get(key)
    if done is not None:
        return done
    layout = _STORE.layout_list[lid]
    unit = _STORE.layout_units[lid]
    part = _STORE.part_list[pid]
    weapons = list(unit.weapons)
    for pos, w in zip(layout.weapons_at[loc], part.weapons, strict=True):
        weapons[pos] = w
    equipment = list(unit.equipment)
    for pos, e in zip(layout.equipment_at[loc], part.equipment, strict=True):
        equipment[pos] = e
    base = CascadeWork(unit)
    base.armor[loc], base.structure[loc] = part.armor, part.structure
    base.barrier = barrier
    base.weapons = weapons
    base.equipment = equipment
    base.pilot_alive = bool(alive)
    base.destroyed = bool(destroyed)
    location = LOCATION_ORDER[loc]
    component = _component_options(
        any(not w.destroyed for w in part.weapons), _STORE.part_loaded[pid] > 0
    )
    out: dict[tuple[int, int, int, int, int], list[float | int]] = {}
    stack: list[tuple[Option, ...]] = [()]
    while stack:
        script = _Script(stack.pop(), component)
        work = base.copy()
        work.cascade(location, amount, script, records=False, follow=False)
        stack.extend(script.pending)
        new_pid = _STORE.part(
            _Part(
                work.armor[loc],
                work.structure[loc],
                tuple(work.weapons[p] for p in layout.weapons_at[loc]),
                tuple(work.equipment[p] for p in layout.equipment_at[loc]),
            )
        )
        overflow = work.transfer[1] if work.transfer is not None else 0
        k = (work.barrier, int(work.pilot_alive), int(work.destroyed), new_pid, overflow)
        entry = out.get(k)
        if entry is None:
            lost = part.armor + part.structure - work.armor[loc] - work.structure[loc]
            out[k] = [script.probability, lost]
        else:
            entry[0] += script.probability
    local = tuple((float(v[0]), int(v[1]), *k) for k, v in out.items())
    _STORE.locals[key] = local
    return local


def _cascade(
    lid: int, barrier: int, alive: int, destroyed: int, loc: int, amount: int, pids: tuple[int, ...]
) -> tuple[Outcome, ...]:
    """Every outcome of one hit of ``amount`` on location ``loc`` whose transfer chain (§4.4)
    has parts ``pids``: (probability, armour and structure lost, Barrier, pilot alive,
    destroyed, the chain's new parts). A transfer is a hit on the next location of the chain
    (the Barrier is spent by then), so each link is `_local` and the rest is cached too."""
    key = (lid, barrier, alive, destroyed, loc, amount, *pids)
    done = _STORE.cascades.get(key)
    if done is not None:
        return done
    chain = _chains().chain[loc]
    out: dict[tuple[int, int, int, tuple[int, ...]], list[float | int]] = {}

    def add(p: float, lost: int, k: tuple[int, int, int, tuple[int, ...]]) -> None:
        entry = out.get(k)
        if entry is None:
            out[k] = [p, lost]
        else:
            entry[0] += p

    for p, lost, b, a, d, pid, overflow in _local(
        lid, barrier, alive, destroyed, loc, amount, pids[0]
    ):
        if overflow > 0 and len(chain) > 1:
            for q, more, b2, a2, d2, rest in _cascade(lid, b, a, d, chain[1], overflow, pids[1:]):
                add(p * q, lost + more, (b2, a2, d2, (pid, *rest)))
        else:
            add(p, lost, (b, a, d, (pid, *pids[1:])))
    result = tuple((float(v[0]), int(v[1]), *k) for k, v in out.items())
    _STORE.cascades[key] = result
    return result


def _moves(sid: int, loc: int, amount: int) -> tuple[tuple[int, float, int], ...]:
    """`_cascade` as (next state id, probability, armour and structure lost)."""
    key = (sid, loc, amount)
    done = _STORE.moves.get(key)
    if done is not None:
        return done
    s = _STORE.state_list[sid]
    chain = _chains().chain[loc]
    out: list[tuple[int, float, int]] = []
    pids = tuple(s[_PARTS + i] for i in chain)
    for p, lost, barrier, alive, destroyed, parts in _cascade(
        s[0], s[1], s[2], s[3], loc, amount, pids
    ):
        new = list(s)
        new[1], new[2], new[3] = barrier, alive, destroyed
        for i, part in zip(chain, parts, strict=True):
            new[_PARTS + i] = part
        out.append((_STORE.state(tuple(new)), p, lost))
    result = tuple(out)
    _STORE.moves[key] = result
    return result


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
    done = _STORE.part_canon.get(key)
    if done is not None:
        return done
    p = _STORE.part_list[pid]
    weapons = tuple(
        WeaponState(weapon=w.weapon, mount=w.mount, group=1, destroyed=True)
        if dead or w.destroyed
        else w
        if w.ammo <= 1
        else attrs.evolve(w, ammo=1)
        for w in p.weapons
    )
    out = _STORE.part(
        p._replace(
            armor=p.armor if armor is None else armor,
            structure=p.structure if structure is None else structure,
            weapons=weapons,
        )
    )
    _STORE.part_canon[key] = out
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
    done = _STORE.canon.get(key)
    if done is not None:
        return done
    ctx = _STORE.context_list[cid]
    s = _STORE.state_list[sid]
    n = len(LOCATION_ORDER)
    chains = _chains()
    new = list(s)
    if not (s[2] and not s[3]):
        new[1] = 0
        for i in range(n):
            p = _STORE.part_list[s[_PARTS + i]]
            gone = p.structure <= 0
            if not ctx.full and i not in chains.enders:
                gone = False
            new[_PARTS + i] = _canon_part(s[_PARTS + i], 0, 0 if gone else 1, True)
    else:
        layout = _STORE.layout_list[s[0]]
        parts = [_STORE.part_list[s[_PARTS + i]] for i in range(n)]
        loaded = [_STORE.part_loaded[s[_PARTS + i]] for i in range(n)]
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
            p, b, pid = parts[i], reach[i], s[_PARTS + i]
            breakable = b > p.armor and b - p.armor + boom * loaded[i] >= p.structure
            if p.structure <= 0:
                new[_PARTS + i] = _canon_part(pid, 0, None, True)
            elif p.armor >= b:
                new[_PARTS + i] = _canon_part(pid, b, None, True)
            elif (not ctx.full and not relevant[i]) or (
                not breakable and not loaded[i] and not layout.reactive
            ):
                new[_PARTS + i] = _canon_part(pid, b, 1, True)
            else:
                new[_PARTS + i] = _canon_part(pid, None, None, False)
    out = _STORE.state(tuple(new))
    _STORE.canon[key] = out
    return out


def _context(ctx: _Context) -> int:
    cid = _STORE.contexts.get(ctx)
    if cid is None:
        cid = len(_STORE.context_list)
        _STORE.contexts[ctx] = cid
        _STORE.context_list.append(ctx)
    return cid


# ---- the walk ----------------------------------------------------------------------------------
def _chance(shot: Shot, info: _Info) -> float:
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
    if len(_STORE.state_list) > _STORE_LIMIT:
        clear_cache()
    start = start_state(target)
    key = (start, tuple(steps), full)
    done = _STORE.summaries.get(key)
    if done is None:
        done = _walk(start, key[1], full)
        _STORE.summaries[key] = done
    return done


def _mask(sid: int) -> int:
    """Bit ``i`` set when location ``i`` is destroyed in state ``sid``."""
    done = _STORE.masks.get(sid)
    if done is None:
        s = _STORE.state_list[sid]
        done = 0
        for i in range(len(LOCATION_ORDER)):
            if _STORE.part_list[s[_PARTS + i]].structure <= 0:
                done |= 1 << i
        _STORE.masks[sid] = done
    return done


def _ends(
    lid: int, barrier: int, alive: int, destroyed: int, loc: int, amount: int, pids: tuple[int, ...]
) -> tuple[tuple[float, float, int, int, int], ...]:
    """`_cascade` as the last shot needs it: (probability, probability x lost, pilot alive,
    destroyed, destroyed-locations bits of the chain), outcomes alike in those merged."""
    key = (lid, barrier, alive, destroyed, loc, amount, *pids)
    done = _STORE.ends.get(key)
    if done is not None:
        return done
    chain = _chains().chain[loc]
    out: dict[tuple[int, int, int], list[float]] = {}
    for q, lost, _, a, d, parts in _cascade(lid, barrier, alive, destroyed, loc, amount, pids):
        bits = 0
        for i, pid in zip(chain, parts, strict=True):
            if _STORE.part_list[pid].structure <= 0:
                bits |= 1 << i
        entry = out.setdefault((a, d, bits), [0.0, 0.0])
        entry[0] += q
        entry[1] += q * lost
    result = tuple((v[0], v[1], *k) for k, v in out.items())
    _STORE.ends[key] = result
    return result


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
    weights = hit_location_weights()
    total = sum(w for _, w in weights)
    located = tuple((LOC_INDEX[loc], w / total) for loc, w in weights if w > 0)
    contexts = _contexts(steps, full)
    last = max((i for i, st in enumerate(steps) if isinstance(st, Shot)), default=-1)
    chains = _chains()
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
                s = _STORE.state_list[sid]
                nid = _STORE.state((s[0], 0, *s[2:])) if s[1] else sid
                new[(nid, dmg)] = new.get((nid, dmg), 0.0) + p
            dist = new
            continue
        final = n == last
        amount = step.damage
        targets = ((step.called, 1.0),) if step.called >= 0 else located
        cid = contexts[n]
        for (sid0, dmg), p in dist.items():
            sid = _canon(sid0, cid)
            info = _STORE.state_info(sid)
            c = 0.0 if not info.active else _chance(step, info)
            landed = c * info.missile_pass if step.missile else c
            if landed < 1.0:
                if final:
                    s = _STORE.state_list[sid]
                    e = (_mask(sid) & watched, s[2], s[3], dmg)
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
                    for nid, q, loss in _moves(sid, loc, amount):
                        k = (nid, after)
                        pq = pw * q
                        new[k] = new.get(k, 0.0) + pq
                        lost += pq * loss
                    continue
                s = _STORE.state_list[sid]
                keep = _mask(sid) & ~chain_bits[loc] & watched
                pids = tuple(s[_PARTS + i] for i in chains.chain[loc])
                for q, qloss, alive, destroyed, bits in _ends(
                    s[0], s[1], s[2], s[3], loc, amount, pids
                ):
                    e = (keep | (bits & watched), alive, destroyed, after)
                    end[e] = end.get(e, 0.0) + pw * q
                    lost += pw * qloss
        if len(new) > MAX_STATES:
            kept = sorted(new.items(), key=lambda kv: kv[1], reverse=True)[:MAX_STATES]
            residual += sum(new.values()) - sum(p for _, p in kept)
            new = dict(kept)
        dist = new
    for (sid, dmg), p in dist.items():  # no shot at all
        s = _STORE.state_list[sid]
        e = (_mask(sid) & watched, s[2], s[3], dmg)
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
