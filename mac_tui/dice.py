"""Counter-based deterministic randomness that lives inside the game state.

Every random number in the game is a pure function of ``(seed, stream, counter)``:

* ``seed`` — the campaign's integer seed (any Python int; reduced modulo 2**64).
* ``stream`` — a free-form name such as ``"combat"`` or ``"market"``.  Each stream has its
  own counter, so drawing from one stream never changes the values of another.
* ``counter`` — how many 64-bit values that stream has already consumed.

Construction (all arithmetic modulo 2**64)::

    splitmix64(x) = mix(x + 0x9E3779B97F4A7C15)         # one step of Vigna's SplitMix64
    mix(z)        = z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
                    z ^= z >> 27; z *= 0x94D049BB133111EB
                    z ^ (z >> 31)
    stream_key(n) = 64-bit FNV-1a of the UTF-8 bytes of n
    key(s, n)     = splitmix64(splitmix64(s) ^ stream_key(n))
    raw(s, n, c)  = splitmix64(key(s, n) + c * 0x9E3779B97F4A7C15)

so ``raw(s, n, c)`` is exactly the ``c``-th output of a standard SplitMix64 generator seeded
with ``key(s, n)``: a well-studied sequence that passes BigCrush, and random access by
counter is O(1).  Only integer operations are used — no ``random``, no ``hash()``, no set
ordering, no floats — so replays are bit-identical on every machine and Python version.

The game state stores an immutable :class:`RngState` (seed + per-stream counters).  An
engine function wraps it in a mutable :class:`Dice` cursor, draws, and returns
``dice.state()`` as part of the new game state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, TypeVar

import attrs

__all__ = [
    "AI",
    "CAMPAIGN",
    "COMBAT",
    "CONTRACTS",
    "LOOT",
    "MAP",
    "MAP_ELEVATION",
    "MAP_FEATURES",
    "MARKET",
    "MISSIONS",
    "PILOTS",
    "Dice",
    "RngState",
    "raw",
    "splitmix64",
    "stream_key",
]

T = TypeVar("T")

# Well-known stream names.
MAP: Final = "map"
MAP_ELEVATION: Final = "map.elevation"  # O2.2's levels (O0.6: the core terrain stays on MAP)
MAP_FEATURES: Final = "map.features"  # O3.4's features
COMBAT: Final = "combat"
AI: Final = "ai"
MARKET: Final = "market"
LOOT: Final = "loot"
CAMPAIGN: Final = "campaign"
CONTRACTS: Final = "contracts"
MISSIONS: Final = "missions"  # O11.1's objectives (O0.6: the rest of a contract stays on CONTRACTS)
PILOTS: Final = "pilots"

MASK64: Final = 0xFFFF_FFFF_FFFF_FFFF
_GAMMA: Final = 0x9E37_79B9_7F4A_7C15
_MUL1: Final = 0xBF58_476D_1CE4_E5B9
_MUL2: Final = 0x94D0_49BB_1331_11EB
_FNV_OFFSET: Final = 0xCBF2_9CE4_8422_2325
_FNV_PRIME: Final = 0x0000_0100_0000_01B3
_SPAN: Final = 1 << 64


def splitmix64(x: int) -> int:
    """One SplitMix64 step: add the golden gamma to ``x`` and apply the output mix."""
    z = (x + _GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * _MUL1) & MASK64
    z = ((z ^ (z >> 27)) * _MUL2) & MASK64
    return z ^ (z >> 31)


def stream_key(name: str) -> int:
    """Stable 64-bit FNV-1a hash of the UTF-8 encoding of ``name``."""
    h = _FNV_OFFSET
    for byte in name.encode("utf-8"):
        h = ((h ^ byte) * _FNV_PRIME) & MASK64
    return h


def _key(seed: int, stream: str) -> int:
    return splitmix64(splitmix64(seed & MASK64) ^ stream_key(stream))


def _raw_keyed(key: int, counter: int) -> int:
    return splitmix64((key + counter * _GAMMA) & MASK64)


def raw(seed: int, stream: str, counter: int) -> int:
    """The 64-bit value number ``counter`` (0-based) of ``stream`` under ``seed``."""
    if counter < 0:
        raise ValueError(f"counter must be >= 0, got {counter}")
    return _raw_keyed(_key(seed, stream), counter)


def _normalise_counters(
    value: Iterable[tuple[str, int]] | Iterable[Sequence[str | int]],
) -> tuple[tuple[str, int], ...]:
    """Sort by stream name and drop zero counters, so equal states compare equal."""
    seen: dict[str, int] = {}
    for item in value:
        name, count = item
        if not isinstance(name, str) or not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"counter entries must be (str, int) pairs, got {item!r}")
        if count < 0:
            raise ValueError(f"counter for stream {name!r} must be >= 0, got {count}")
        if name in seen:
            raise ValueError(f"duplicate stream {name!r} in counters")
        seen[name] = count
    return tuple((name, seen[name]) for name in sorted(seen) if seen[name])


@attrs.frozen
class RngState:
    """Immutable randomness state: the seed plus how far each named stream has advanced.

    ``counters`` is normalised on construction: sorted by stream name, zero entries
    dropped (an absent stream is at counter 0), so equal states compare and serialise
    equal.
    """

    seed: int
    counters: tuple[tuple[str, int], ...] = attrs.field(default=(), converter=_normalise_counters)

    def counter(self, stream: str) -> int:
        """How many values ``stream`` has consumed (0 if never used)."""
        for name, count in self.counters:
            if name == stream:
                return count
        return 0

    def advanced(self, stream: str, n: int = 1) -> RngState:
        """A copy with ``stream``'s counter moved ``n >= 0`` values forward."""
        if n < 0:
            raise ValueError(f"cannot advance by a negative amount ({n})")
        if n == 0:
            return self
        updated = dict(self.counters)
        updated[stream] = updated.get(stream, 0) + n
        return RngState(self.seed, tuple(updated.items()))

    def dice(self) -> Dice:
        """A fresh :class:`Dice` cursor starting at this state."""
        return Dice(self)


class Dice:
    """Mutable cursor over an :class:`RngState`, for use inside one pure engine function.

    Every method draws from a named stream and consumes at least one counter of that
    stream, whatever its arguments (rejection sampling may consume more; ``shuffle`` of
    ``k`` items consumes at least ``k - 1``).  The input state is never mutated;
    :meth:`state` returns the advanced state.
    """

    __slots__ = ("_counters", "_keys", "_start")

    def __init__(self, state: RngState) -> None:
        self._start = state
        self._counters: dict[str, int] = dict(state.counters)
        self._keys: dict[str, int] = {}

    def state(self) -> RngState:
        """The immutable state after every draw made so far."""
        if not self._keys:
            return self._start
        return RngState(self._start.seed, tuple(self._counters.items()))

    # -- primitive -------------------------------------------------------------------

    def draw(self, stream: str) -> int:
        """The next raw 64-bit value of ``stream``."""
        key = self._keys.get(stream)
        if key is None:
            key = self._keys[stream] = _key(self._start.seed, stream)
        counter = self._counters.get(stream, 0)
        self._counters[stream] = counter + 1
        return _raw_keyed(key, counter)

    def below(self, stream: str, n: int) -> int:
        """Uniform integer in ``0 .. n-1`` (``1 <= n <= 2**64``), without modulo bias.

        Draws are rejected while they fall in the incomplete top block of ``2**64 mod n``
        values; the expected number of draws is below 2.
        """
        if not 1 <= n <= _SPAN:
            raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
        limit = _SPAN - _SPAN % n
        x = self.draw(stream)
        while x >= limit:
            x = self.draw(stream)
        return x % n

    # -- dice ------------------------------------------------------------------------

    def d(self, stream: str, sides: int) -> int:
        """Roll one die with ``sides`` faces: ``1 .. sides``."""
        return self.below(stream, sides) + 1

    def d100(self, stream: str) -> int:
        """Percentile roll ``1 .. 100``."""
        return self.below(stream, 100) + 1

    def roll_under(self, stream: str, chance: int) -> tuple[bool, int]:
        """Roll d100; succeed when ``roll <= chance``.  Returns ``(success, roll)``."""
        roll = self.d100(stream)
        return roll <= chance, roll

    def chance(self, stream: str, percent: int) -> bool:
        """True with probability ``percent``% (clamped to 0..100 by the d100 range)."""
        return self.d100(stream) <= percent

    def between(self, stream: str, lo: int, hi: int) -> int:
        """Uniform integer in ``lo .. hi`` inclusive."""
        if hi < lo:
            raise ValueError(f"between() needs lo <= hi, got {lo} > {hi}")
        return lo + self.below(stream, hi - lo + 1)

    # -- collections -----------------------------------------------------------------

    def weighted(self, stream: str, items: Sequence[tuple[T, int]]) -> T:
        """Pick an item with probability proportional to its integer weight.

        Order-dependent (the cumulative walk follows ``items``); zero-weight items are
        never chosen.  Raises ``ValueError`` on a negative weight or a zero total.
        """
        total = 0
        for _, w in items:
            if w < 0:
                raise ValueError(f"negative weight {w}")
            total += w
        if total <= 0:
            raise ValueError("weighted() needs at least one positive weight")
        pick = self.below(stream, total)
        for item, w in items:
            if pick < w:
                return item
            pick -= w
        raise AssertionError("unreachable")  # pragma: no cover

    def choice(self, stream: str, seq: Sequence[T]) -> T:
        """A uniformly chosen element of ``seq``; ``IndexError`` if it is empty."""
        if not seq:
            raise IndexError("choice() from an empty sequence")
        return seq[self.below(stream, len(seq))]

    def shuffle(self, stream: str, seq: Iterable[T]) -> list[T]:
        """A new list with the elements of ``seq`` in uniformly random order.

        Fisher–Yates: for ``i = len-1 .. 1`` swap position ``i`` with ``below(i + 1)``.
        """
        out = list(seq)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(stream, i + 1)
            out[i], out[j] = out[j], out[i]
        return out
