"""Games whose record tells nothing of their variant take the variant of their file's others.

A game without a GameType tag whose record has no square and no FEN (``[Result "*"] *``, an
empty game of a tournament file, an unreadable one) would be read as the home variant. In a
file whose other games tell their variant, it is read as the nearest game before it that
tells; games at the head of a file, before any that tells, as the first that does after
them. Streams of any length go through in order: only such leading games are held, at most
``HELD_SILENT``, all but the last thousand on disk (``replay.record.held``; docs/inference.md).

>>> items = ["?", "?", "international", "?", "russian", "?"]
>>> list(follow_file(items, lambda item: item == "?", lambda item: item,
...                  lambda item, key: key + "*"))
['international*', 'international*', 'international', 'international*', 'russian', 'russian*']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from replay.record.held import Held

T = TypeVar("T")
HELD_SILENT = 50_000  # leading silent games held at most, waiting for one that tells


def follow_file(items: Iterable[T], silent: Callable[[T], bool], told: Callable[[T], str],
                redo: Callable[[T, str], T], held: int = HELD_SILENT, key: str | None = None
                ) -> Iterator[T]:
    """The items of one source, in order, each ``silent`` one ``redo``-ne under the variant
    key (``replay.record.inference.variant_key``) ``told`` by the nearest item before it that is
    not silent, or for those at the head, by the first after them; silent items with none
    to follow (or more than ``held`` at the head) are given as they are. ``key``: the one
    told before the items (a part of a source whose earlier parts told it)."""
    leading: Held[T] = Held()
    for item in items:
        if not silent(item):
            key = told(item)
            yield from (redo(waiting, key) for waiting in leading.drain())
            yield item
        elif key is not None:
            yield redo(item, key)
        else:
            leading.append(item)
            if len(leading) > held:
                yield from leading.drain()
    yield from leading.drain()


def heads_follow(parts: list[tuple[str | None, str | None]]) -> list[str | None]:
    """For the parts of one source in order, each as the variant keys its first and its last
    game that tells give (None: none tells), the key its silent games at its head follow:
    the last told in the parts before it, else the first told from it on.

    >>> heads_follow([(None, None), ("russian", "english"), (None, None), ("czech", "czech")])
    ['russian', 'russian', 'english', 'english']
    """
    before: list[str | None] = []
    last: str | None = None
    for _, last_told in parts:
        before.append(last)
        last = last_told or last
    after: str | None = None
    keys: list[str | None] = []
    for (first_told, _), told in zip(reversed(parts), reversed(before), strict=True):
        after = first_told or after
        keys.append(told or after)
    return keys[::-1]
