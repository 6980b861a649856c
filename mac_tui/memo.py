"""Values computed from immutable objects, remembered by the object's identity.

The battle's values (`Unit`, its equipment tuple, a `Catalog`) never change, and successive
states share the parts a command left alone, so what is derived from one object can be kept
while that object lives: `ByIdentity.get(obj, make, context)` returns `make(obj)`, computed
once per object (and per `context`, e.g. the catalog in force, when the value depends on it).
The memo holds the object, so its id cannot be reused while the entry lives; it is bounded
and emptied when full. Pure functions only: a memoised value is what `make` would give again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self._entries: dict[int, tuple[K, object, V]] = {}

    def get(self, obj: K, make: Callable[[K], V], context: object = None) -> V:
        known = self._entries.get(id(obj))
        if known is not None and known[0] is obj and known[1] is context:
            return known[2]
        value = make(obj)
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[id(obj)] = (obj, context, value)
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
