"""The branches of one hit at one target, enumerated: the part of the forecast's walk
(`combat/outcomes.py`) that runs the engine's cascade (§4.2-§4.6, §7.7.3).

* `Store`: the target's tracked state interned as small ints: per location a `Part` (armour,
  structure, the weapons and slot equipment mounted there), and a state (layout, Barrier,
  pilot alive, destroyed, a part id per location); the enumerated outcomes cached on them.
* `local_outcomes`: every outcome at one location of one hit (or transfer), by the engine's
  own `damage.CascadeWork.cascade` with ``follow=False`` and its `damage.Draws` answered by
  `Script`, once per path through the chance nodes: each §4.3 row that changes what is
  tracked there (`component_options`), each weapon pick, each ammo explosion's internal
  damage, the §4.6 survival roll as survive / die.
* `cascade`: a whole hit, link by link along its transfer chain (§4.4: a transfer is a hit on
  the next location, the Barrier being spent by then); `moves`: the same as next states.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from ..catalog import LOCATION_ORDER, catalog
from .attack import missile_pass_chance
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

#: The store starts again past this many states.
STORE_LIMIT: Final = 400_000

# The end of one hit as the last shot of a walk needs it: (probability, probability x lost,
# pilot alive, destroyed, destroyed-locations bits of the chain).
End = tuple[float, float, int, int, int]


# ---- interned values ---------------------------------------------------------------------------
class Layout(NamedTuple):
    """What never changes about a target during a walk."""

    piloting: int
    reactive: int  # Reactive Armour's percent (passive: never destroyed)
    weapons_at: tuple[tuple[int, ...], ...]  # per location: indices into Unit.weapons
    equipment_at: tuple[tuple[int, ...], ...]  # per location: indices of slot equipment
    loose: tuple[EquipmentState, ...]  # the equipment with no mount, as it is


class Part(NamedTuple):
    """One location of the target: armour, structure, its weapons and slot equipment."""

    armor: int
    structure: int
    weapons: tuple[WeaponState, ...]
    equipment: tuple[EquipmentState, ...]


# A state: (layout id, barrier, pilot alive, destroyed, part id per location).
State = tuple[int, ...]
PARTS: Final = 4  # where the part ids begin in a state


# (probability, armour and structure lost, Barrier, pilot alive, destroyed, new part ids)
Outcome = tuple[float, int, int, int, int, tuple[int, ...]]
# (probability, lost, Barrier, pilot alive, destroyed, new part id, overflow passed on)
Local = tuple[float, int, int, int, int, int, int]


class Info(NamedTuple):
    active: bool
    missile_pass: float
    destroyed_equipment: tuple[bool, ...]


class Store:
    """Every interned value and each hit's enumerated outcomes (`reset` empties it: the
    ids of the old store mean nothing in the new one)."""

    def __init__(self) -> None:
        self.layouts: dict[Layout, int] = {}
        self.layout_list: list[Layout] = []
        self.layout_units: list[Unit] = []
        self.parts: dict[Part, int] = {}
        self.part_list: list[Part] = []
        self.part_loaded: list[int] = []
        self.states: dict[State, int] = {}
        self.state_list: list[State] = []
        self.info: dict[int, Info] = {}
        self.locals: dict[tuple[int, ...], tuple[Local, ...]] = {}
        self.cascades: dict[tuple[int, ...], tuple[Outcome, ...]] = {}
        self.moves: dict[tuple[int, int, int], tuple[tuple[int, float, int], ...]] = {}
        self.masks: dict[int, int] = {}
        self.ends: dict[tuple[int, ...], tuple[End, ...]] = {}

    def full(self) -> bool:
        """Past `STORE_LIMIT` states: time to start again."""
        return len(self.state_list) > STORE_LIMIT

    def layout(self, unit: Unit) -> int:
        n = len(LOCATION_ORDER)
        weapons_at: list[list[int]] = [[] for _ in range(n)]
        for i, w in enumerate(unit.weapons):
            weapons_at[LOC_INDEX[w.mount]].append(i)
        equipment_at: list[list[int]] = [[] for _ in range(n)]
        for i, e in enumerate(unit.equipment):
            if e.mount is not None:
                equipment_at[LOC_INDEX[e.mount]].append(i)
        key = Layout(
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

    def part(self, p: Part) -> int:
        pid = self.parts.get(p)
        if pid is None:
            pid = len(self.part_list)
            self.parts[p] = pid
            self.part_list.append(p)
            self.part_loaded.append(sum(1 for w in p.weapons if loaded(w)))
        return pid

    def state(self, s: State) -> int:
        sid = self.states.get(s)
        if sid is None:
            sid = len(self.state_list)
            self.states[s] = sid
            self.state_list.append(s)
        return sid

    def state_info(self, sid: int) -> Info:
        info = self.info.get(sid)
        if info is None:
            s = self.state_list[sid]
            equipment = equipment_of(s)
            info = Info(
                active=bool(s[2]) and not s[3],
                missile_pass=missile_pass_chance(equipment),
                destroyed_equipment=tuple(e.destroyed for e in equipment),
            )
            self.info[sid] = info
        return info


STORE = Store()
#: Bumped by `reset`, so caches built on the store's ids know to empty themselves.
GENERATION = [0]


def reset() -> None:
    """Forget every interned value and enumerated outcome."""
    STORE.__init__()  # type: ignore[misc]
    GENERATION[0] += 1


def loaded(w: WeaponState) -> bool:
    return not w.destroyed and w.ammo > 0 and weapon_of(w).uses_ammo


def equipment_of(s: State) -> list[EquipmentState]:
    """The target's whole equipment tuple in state ``s``, in `Unit.equipment` order."""
    layout = STORE.layout_list[s[0]]
    size = len(layout.loose) + sum(len(x) for x in layout.equipment_at)
    out: list[EquipmentState | None] = [None] * size
    for i, positions in enumerate(layout.equipment_at):
        for pos, e in zip(positions, STORE.part_list[s[PARTS + i]].equipment, strict=True):
            out[pos] = e
    loose = iter(layout.loose)
    return [e if e is not None else next(loose) for e in out]


def weapons_of(s: State) -> list[WeaponState]:
    layout = STORE.layout_list[s[0]]
    size = sum(len(x) for x in layout.weapons_at)
    out: list[WeaponState | None] = [None] * size
    for i, positions in enumerate(layout.weapons_at):
        for pos, w in zip(positions, STORE.part_list[s[PARTS + i]].weapons, strict=True):
            out[pos] = w
    return [w for w in out if w is not None]


def start_state(unit: Unit) -> int:
    """The target as it is now, interned."""
    lid = STORE.layout(unit)
    layout = STORE.layout_list[lid]
    parts = tuple(
        STORE.part(
            Part(
                unit.armor[i],
                unit.structure[i],
                tuple(unit.weapons[p] for p in layout.weapons_at[i]),
                tuple(unit.equipment[p] for p in layout.equipment_at[i]),
            )
        )
        for i in range(len(LOCATION_ORDER))
    )
    return STORE.state((lid, unit.barrier, int(unit.pilot_alive), int(unit.destroyed), *parts))


# ---- the cascade, enumerated -------------------------------------------------------------------
Option = tuple[int, float]


class Script:
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


def component_options(armed: bool, loaded: bool) -> tuple[Option, ...]:
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


class Chains(NamedTuple):
    chain: tuple[tuple[int, ...], ...]  # per location: it and the locations it transfers to
    transfer: tuple[int | None, ...]  # per location: where its overflow goes
    feeders: tuple[tuple[int, ...], ...]  # per location: the locations transferring into it
    order: tuple[int, ...]  # every location after all its feeders
    explosion: int  # §4.3: the most internal damage of one ammo explosion
    enders: frozenset[int]  # the locations whose loss ends the frame (§4.5, §4.6)


_CHAINS: dict[int, Chains] = {}


def chains() -> Chains:
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
    chains = Chains(
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


def local_outcomes(
    lid: int, barrier: int, alive: int, destroyed: int, loc: int, amount: int, pid: int
) -> tuple[Local, ...]:
    """Every outcome at location ``loc`` alone of one hit (or transfer) of ``amount``: the
    engine's `CascadeWork.cascade` with ``follow=False``, once per path through its chance
    nodes: (probability, lost, Barrier, pilot alive, destroyed, new part, overflow passed on).
    Only location ``loc`` of the work is loaded: nothing else is read before the transfer."""
    key = (lid, barrier, alive, destroyed, loc, amount, pid)
    done = STORE.locals.get(key)
    if done is not None:
        return done
    layout = STORE.layout_list[lid]
    unit = STORE.layout_units[lid]
    part = STORE.part_list[pid]
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
    component = component_options(
        any(not w.destroyed for w in part.weapons), STORE.part_loaded[pid] > 0
    )
    out: dict[tuple[int, int, int, int, int], list[float | int]] = {}
    stack: list[tuple[Option, ...]] = [()]
    while stack:
        script = Script(stack.pop(), component)
        work = base.copy()
        work.cascade(location, amount, script, records=False, follow=False)
        stack.extend(script.pending)
        new_pid = STORE.part(
            Part(
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
    STORE.locals[key] = local
    return local


def cascade(
    lid: int, barrier: int, alive: int, destroyed: int, loc: int, amount: int, pids: tuple[int, ...]
) -> tuple[Outcome, ...]:
    """Every outcome of one hit of ``amount`` on location ``loc`` whose transfer chain (§4.4)
    has parts ``pids``: (probability, armour and structure lost, Barrier, pilot alive,
    destroyed, the chain's new parts). A transfer is a hit on the next location of the chain
    (the Barrier is spent by then), so each link is `local_outcomes` and the rest is cached too."""
    key = (lid, barrier, alive, destroyed, loc, amount, *pids)
    done = STORE.cascades.get(key)
    if done is not None:
        return done
    chain = chains().chain[loc]
    out: dict[tuple[int, int, int, tuple[int, ...]], list[float | int]] = {}

    def add(p: float, lost: int, k: tuple[int, int, int, tuple[int, ...]]) -> None:
        entry = out.get(k)
        if entry is None:
            out[k] = [p, lost]
        else:
            entry[0] += p

    for p, lost, b, a, d, pid, overflow in local_outcomes(
        lid, barrier, alive, destroyed, loc, amount, pids[0]
    ):
        if overflow > 0 and len(chain) > 1:
            for q, more, b2, a2, d2, rest in cascade(lid, b, a, d, chain[1], overflow, pids[1:]):
                add(p * q, lost + more, (b2, a2, d2, (pid, *rest)))
        else:
            add(p, lost, (b, a, d, (pid, *pids[1:])))
    result = tuple((float(v[0]), int(v[1]), *k) for k, v in out.items())
    STORE.cascades[key] = result
    return result


def moves(sid: int, loc: int, amount: int) -> tuple[tuple[int, float, int], ...]:
    """`cascade` as (next state id, probability, armour and structure lost)."""
    key = (sid, loc, amount)
    done = STORE.moves.get(key)
    if done is not None:
        return done
    s = STORE.state_list[sid]
    chain = chains().chain[loc]
    out: list[tuple[int, float, int]] = []
    pids = tuple(s[PARTS + i] for i in chain)
    for p, lost, barrier, alive, destroyed, parts in cascade(
        s[0], s[1], s[2], s[3], loc, amount, pids
    ):
        new = list(s)
        new[1], new[2], new[3] = barrier, alive, destroyed
        for i, part in zip(chain, parts, strict=True):
            new[PARTS + i] = part
        out.append((STORE.state(tuple(new)), p, lost))
    result = tuple(out)
    STORE.moves[key] = result
    return result


def mask(sid: int) -> int:
    """Bit ``i`` set when location ``i`` is destroyed in state ``sid``."""
    done = STORE.masks.get(sid)
    if done is None:
        s = STORE.state_list[sid]
        done = 0
        for i in range(len(LOCATION_ORDER)):
            if STORE.part_list[s[PARTS + i]].structure <= 0:
                done |= 1 << i
        STORE.masks[sid] = done
    return done


def ends(
    lid: int, barrier: int, alive: int, destroyed: int, loc: int, amount: int, pids: tuple[int, ...]
) -> tuple[End, ...]:
    """`cascade` as the last shot needs it: (probability, probability x lost, pilot alive,
    destroyed, destroyed-locations bits of the chain), outcomes alike in those merged."""
    key = (lid, barrier, alive, destroyed, loc, amount, *pids)
    done = STORE.ends.get(key)
    if done is not None:
        return done
    chain = chains().chain[loc]
    out: dict[tuple[int, int, int], list[float]] = {}
    for q, lost, _, a, d, parts in cascade(lid, barrier, alive, destroyed, loc, amount, pids):
        bits = 0
        for i, pid in zip(chain, parts, strict=True):
            if STORE.part_list[pid].structure <= 0:
                bits |= 1 << i
        entry = out.setdefault((a, d, bits), [0.0, 0.0])
        entry[0] += q
        entry[1] += q * lost
    result = tuple((v[0], v[1], *k) for k, v in out.items())
    STORE.ends[key] = result
    return result
