"""Items held in order while a file's verdict waits, in a bounded window of memory.

A file's variant (``replay.record.agreement``), its silent games at its head
(``replay.record.silent``) and the reading of its results
(``replay.validate.reports.settle_results``, or the three at once: ``settle_source``) are
settled from tens of thousands of its games, which wait until then. ``Held`` keeps the last
``BATCH`` of them in memory and the others pickled, ``BATCH`` at a time, in an anonymous
temporary file: memory holds at most two batches whatever the count, and a file shorter
than a batch touches no disk.

>>> held = Held(batch=2)
>>> for n in range(5):
...     held.append(n)
>>> len(held), list(held.drain()), len(held)
(5, [0, 1, 2, 3, 4], 0)
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from typing import IO, Generic, TypeVar

from replay.run.parallel import gc_paused

T = TypeVar("T")
BATCH = 1_000  # items kept in memory; beyond them, batches of as many go to disk


class Held(Generic[T]):
    """A queue of items, appended one by one and drained all at once, in order; items
    past the batch in memory are pickled to a temporary file (they must pickle: the
    toolkit's reports and games do, as they travel from worker processes)."""

    def __init__(self, batch: int | None = None) -> None:
        self.batch = batch or BATCH
        self.memory: list[T] = []
        self.spilled = 0  # items in the file
        self.file: IO[bytes] | None = None

    def __len__(self) -> int:
        return self.spilled + len(self.memory)

    def append(self, item: T) -> None:
        """Hold ``item`` after the others."""
        self.memory.append(item)
        if len(self.memory) >= self.batch:
            if self.file is None:
                # closed by drain, or when collected (an anonymous file: nothing left on disk)
                self.file = tempfile.TemporaryFile(prefix="pdn-held-")  # noqa: SIM115
            pickle.dump(self.memory, self.file, protocol=pickle.HIGHEST_PROTOCOL)
            self.spilled += len(self.memory)
            self.memory = []

    def drain(self) -> Iterator[T]:
        """Every item held, in order, forgotten as given: the queue is empty after."""
        memory, spilled, file = self.memory, self.spilled, self.file
        self.memory, self.spilled, self.file = [], 0, None
        if file is not None:
            with file:
                file.seek(0)
                while spilled:
                    # the collector would walk the batch again and again as it is built
                    # (OCA 2.0's validation: 14% of its time, 2.4 -> 1.75 s CPU)
                    with gc_paused():
                        batch = pickle.load(file)
                    spilled -= len(batch)
                    yield from batch
        yield from memory
