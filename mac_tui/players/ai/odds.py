"""What a volley is expected to do to its target: expected damage, the chance of destroying each
location, of putting the frame out of the fight and of killing its pilot (§4).

This is the planner's own estimate: each location's fate is worked out exactly over the shots
of the volley (hit or miss, §4.1 hit location or the called one, the §4.4 transfer chain, the
head's §4.6 survival roll), with two simplifications: the locations are taken one at a time
(a side torso's overflow into the centre torso uses the side torso's hit points before the
volley), and component effects (§4.3) are left out. Reactive Armor is taken hit by hit at
the location worked out, as the engine does (each hit's structure damage reduced and rounded
down on its own), and as extra structure on the way through other locations; Point Defense
counts as a lower chance of the missile landing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from ...catalog import LOCATION_ORDER, catalog
from ...combat.state import CENTER_TORSO, HEAD
from .tables import Gun, Kit, make_room

_N: Final = len(LOCATION_ORDER)


class Odds(NamedTuple):
    expected: float  # expected damage
    p_kill: float  # the frame out of the fight: centre torso destroyed or pilot killed
    p_pilot: float  # the pilot killed (head destroyed and the survival roll failed)
    p_destroyed: tuple[float, ...]  # per location, LOCATION_ORDER
    stress: float  # expected reactor stress added to the target (R9)


NOTHING: Final = Odds(0.0, 0.0, 0.0, (0.0,) * _N, 0.0)


class _Tables:
    weights: tuple[float, ...] = ()
    transfer: tuple[int | None, ...] = ()

    @classmethod
    def load(cls) -> None:
        if cls.weights:
            return
        cat = catalog()
        locs = [cat.location(loc) for loc in LOCATION_ORDER]
        total = sum(loc.hit_weight for loc in locs)
        cls.weights = tuple(loc.hit_weight / total for loc in locs)
        index = {loc: i for i, loc in enumerate(LOCATION_ORDER)}
        cls.transfer = tuple(
            None if loc.transfer_to is None else index[loc.transfer_to] for loc in locs
        )


def hit_share(location: int) -> float:
    """The share of the hits a location takes when no shot is called (§4.1's hit weights)."""
    _Tables.load()
    return _Tables.weights[location]


def _arriving(hp: tuple[int, ...], start: int, amount: int, at: int) -> int:
    """Damage of a hit on `start` that reaches location `at` (0 if none), through §4.4."""
    transfer = _Tables.transfer
    cur: int | None = start
    while cur is not None:
        if cur == at:
            return amount
        left = hp[cur]
        if left > 0:
            amount -= left
            if amount <= 0:
                return 0
        cur = transfer[cur]
    return 0


Shot = tuple[float, int]  # (chance the hit lands, damage)
_NO_REACTIVE: Final[tuple[None, ...]] = (None,) * _N
_REACHING_KEPT: Final = 50_000
_reaching_cache: dict[tuple[tuple[int, ...], int, int], tuple[tuple[int, int], ...]] = {}


def _reaching(hp: tuple[int, ...], damage: int, at: int) -> tuple[tuple[int, int], ...]:
    """(location hit, damage reaching `at`) for each location a hit of `damage` reaches `at`
    from, in location order (kept: the same few frames and weapons come up again and again)."""
    key = (hp, damage, at)
    found = _reaching_cache.get(key)
    if found is None:
        found = tuple((start, a) for start in range(_N) if (a := _arriving(hp, start, damage, at)))
        make_room(_reaching_cache, _REACHING_KEPT)
        _reaching_cache[key] = found
    return found


def _after(done: int, amount: int, armor: int, percent: int) -> int:
    """§7.7.3 Reactive Armor, hit by hit as the engine does it: what a location has taken
    (armour, then structure) after `amount` more arrives, the structure's share reduced by
    `percent` rounded down, at least 1."""
    if done < armor:
        soaked = min(armor - done, amount)
        done += soaked
        amount -= soaked
    if amount > 0:
        done += max(1, amount - amount * percent // 100)
    return done


def _destroy_chance(
    hp: tuple[int, ...],
    shots: Sequence[Shot],
    at: int,
    called: int | None,
    reactive: tuple[int, int, int] | None = None,
) -> float:
    """The chance `shots` destroy location `at`; with `reactive` (its armour, its structure,
    the reduction in percent) the reduction is taken hit by hit at `at` (each hit's structure
    damage rounded down on its own: small hits lose nothing), elsewhere as `hp` has it."""
    need = hp[at]
    if need <= 0:
        return 0.0
    if reactive is not None:
        armor, structure, percent = reactive
        need = armor + structure
    weights = _Tables.weights
    dist: dict[int, float] = {0: 1.0}
    for p, damage in shots:
        spread: tuple[tuple[int, float], ...]
        if called is not None:
            spread = ((_arriving(hp, called, damage, at), p),)
        else:
            acc: dict[int, float] = {}
            for start, a in _reaching(hp, damage, at):
                acc[a] = acc.get(a, 0.0) + p * weights[start]
            spread = tuple(acc.items())
        if not spread:
            continue
        nxt: dict[int, float] = {}
        for done, q in dist.items():
            if done >= need:
                nxt[done] = nxt.get(done, 0.0) + q
                continue
            rest = q
            for a, pa in spread:
                v = done + a if reactive is None else _after(done, a, armor, percent)
                if v > need:
                    v = need
                nxt[v] = nxt.get(v, 0.0) + q * pa
                rest -= q * pa
            nxt[done] = nxt.get(done, 0.0) + rest
        dist = nxt
    return sum(q for done, q in dist.items() if done >= need)


def _chain(start: int) -> frozenset[int]:
    """The locations damage on `start` can reach through §4.4's transfers (`start` included)."""
    found = _chains.get(start)
    if found is None:
        seen: list[int] = []
        cur: int | None = start
        while cur is not None and cur not in seen:
            seen.append(cur)
            cur = _Tables.transfer[cur]
        found = _chains[start] = frozenset(seen)
    return found


_chains: dict[int, frozenset[int]] = {}
_ALL: Final = frozenset(range(_N))


def _needed(hp: int, reactive: tuple[int, int, int] | None) -> int:
    """The least damage that can destroy a location (`hp` left, or with Reactive Armor its
    armour and structure: hit by hit, small hits lose nothing to it)."""
    if reactive is None or hp <= 0:
        return hp
    return reactive[0] + reactive[1]


def _reactive(target: Kit) -> tuple[tuple[int, int, int] | None, ...]:
    """Per location: (armour, structure, reduction) where Reactive Armor works, else None."""
    if not target.reactive:
        return _NO_REACTIVE
    u = target.unit
    return tuple(
        (u.armor[i], u.structure[i], target.reactive) if u.structure[i] > 0 else None
        for i in range(_N)
    )


def volley_odds(target: Kit, shots: Sequence[tuple[int, Gun]], called: str | None) -> Odds:
    """The odds of `shots` (chance in percent, weapon) fired at `target` (a called shot at
    `called` when given)."""
    _Tables.load()
    if not shots:
        return NOTHING
    landed: list[Shot] = []
    expected = 0.0
    stress = 0.0
    for chance, gun in shots:
        p = chance / 100 * (target.missile_pass if gun.missile else 1.0)
        landed.append((p, gun.damage))
        expected += p * gun.damage
        stress += p * gun.stress
    at = None if called is None else LOCATION_ORDER.index(called)
    hp = target.hp
    total = sum(d for _, d in landed)
    reactive = _reactive(target)
    # a location the whole volley cannot reach the end of is not worked out, nor one a called
    # shot's damage cannot reach (off the called location's transfer chain: its chance is 0)
    reach = _ALL if at is None else _chain(at)
    destroyed = tuple(
        _destroy_chance(hp, landed, i, at, r)
        if i in reach and 0 < _needed(hp[i], r) <= total
        else 0.0
        for i, r in enumerate(reactive)
    )
    p_pilot = destroyed[HEAD] * (1.0 - target.piloting_survival)
    p_kill = 1.0 - (1.0 - destroyed[CENTER_TORSO]) * (1.0 - p_pilot)
    return Odds(expected, p_kill, p_pilot, destroyed, stress)
