"""Values made once per object and found again by its identity, not its hash.

A ``Variant`` is a frozen dataclass: hashing one walks every field, nested ones too (about
2.5 µs), and a report used to hash the game's variant several times (the native rules, the
start position, the numbering, the standard form). The variants met are a handful of
objects, so ``ByIdentity`` keeps what is made from each under ``id()``, with the object
itself to be sure the id is still its own, and a bound for variants made on the fly.

>>> made = ByIdentity(lambda key: [key])
>>> key = ("english",)
>>> made(key) is made(key), made(key)
(True, [('english',)])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """``make(key)``, made once per key object while at most ``limit`` are kept."""

    __slots__ = ("_kept", "_limit", "_make")

    def __init__(self, make: Callable[[K], V], limit: int = 256) -> None:
        self._make = make
        self._kept: dict[int, tuple[K, V]] = {}
        self._limit = limit

    def __call__(self, key: K) -> V:
        kept = self._kept.get(id(key))
        if kept is not None and kept[0] is key:
            return kept[1]
        value = self._make(key)
        if len(self._kept) >= self._limit:
            self._kept.clear()
        self._kept[id(key)] = (key, value)
        return value
