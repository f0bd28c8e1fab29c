"""One file, one variant: a game whose record several variants replay takes its file's.

A game without a GameType tag is first read on its own (``replay.record.inference``): the most
usual variant that replays it to the end. A Czech game without captures of men backwards
replays as Russian too, so a Czech team championship would read as Czech and Russian. The
variant a file shows is the one most of its games that tell a variant are read as (a
GameType tag, ``--variant`` or their record); a game read otherwise on its own is read again
with that variant offered first (``replay_game(shown=...)``): it keeps it where the record
replays under it, and leaves it only where the evidence excludes it (docs/inference.md).

From its first game that several variants replay, the reports of a file are held until it
ends (at most ``HELD_GAMES``: past that, the games seen so far decide for the rest), as the
reading of its results is (``settle_results``; ``pdn validate`` holds its reports once for
both, ``replay.validate.reports.settle_source``); all but the last thousand wait on disk
(``replay.record.held``), so memory stays bounded.

>>> items = [("czech", True), ("russian", True), ("czech", False), (None, True)]
>>> list(agree_file(items, lambda item: item[0], lambda item: item[1],
...                 lambda item, key: (key + "*", item[1])))
[('czech', True), ('czech*', True), ('czech', False), (None, True)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from replay.record.held import Held

T = TypeVar("T")
HELD_GAMES = 50_000  # games of one file seen at most before its variant is settled


def agree_file(items: Iterable[T], told: Callable[[T], str | None], open_: Callable[[T], bool],
               redo: Callable[[T, str], T], held: int = HELD_GAMES, *, seen: int = 0,
               votes: Counter[str] | None = None) -> Iterator[T]:
    """The items of one source, in order, each ``open_`` one whose variant key ``told``
    (None: it tells none) differs from the file's ``redo``-ne with the file's key offered.

    Only items from the first open one on wait for the file's key (those before it are
    given at once: the key changes none of them), in a ``replay.record.held.Held`` window.
    ``seen``: the items of the source given before these (none open), whose keys ``votes``
    counts."""
    waiting: Held[T] = Held()
    votes = Counter(votes)
    shown: str | None = None
    settled = False
    for item in items:
        if settled:
            yield _agreed(item, shown, told, open_, redo)
            continue
        seen += 1
        key = told(item)
        if key is not None:
            votes[key] += 1
        if waiting or open_(item):
            waiting.append(item)
        else:
            yield item
        if seen >= held:
            shown, settled = file_variant(votes), True
            yield from (_agreed(item, shown, told, open_, redo) for item in waiting.drain())
    shown = file_variant(votes) if not settled else shown
    yield from (_agreed(item, shown, told, open_, redo) for item in waiting.drain())


def agree_with(items: Iterable[T], shown: str | None, told: Callable[[T], str | None],
               open_: Callable[[T], bool], redo: Callable[[T, str], T]) -> Iterator[T]:
    """``agree_file`` where the file's variant key is already known (``shown``)."""
    return (_agreed(item, shown, told, open_, redo) for item in items)


def file_variant(votes: Counter[str]) -> str | None:
    """The variant key most games tell; None where two tie for most (or none tells).

    >>> file_variant(Counter(czech=36, russian=4)), file_variant(Counter(a=1, b=1))
    ('czech', None)
    """
    ranked = votes.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _agreed(item: T, shown: str | None, told: Callable[[T], str | None],
            open_: Callable[[T], bool], redo: Callable[[T, str], T]) -> T:
    key = told(item)
    if shown is None or key is None or key == shown or not open_(item):
        return item
    return redo(item, shown)
