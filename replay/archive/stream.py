"""Stream the games of many sources through a task, in order, in worker processes.

A source is cut into game chunks (``pdn.reader.iter_chunks``); batches of chunks go to
worker processes, which parse them and run the task over the batch's records; only the
task's small results come back, in file order. A game whose text the parser gave up on is a
record without a game, carrying its original text, so that no command ever drops it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Generic, Protocol, TypeVar

from pdn.model import Game
from pdn.parallel import in_order
from pdn.reader import iter_chunks, parse_chunks
from pdn.syntax import Chunk, head_tags

R = TypeVar("R")
STDIN = "-"
BATCH_CHUNKS = 200
PARALLEL_MIN_BYTES = 1 << 19


@dataclass
class Record:
    """One game of a source: the parsed game, or (``game`` None) the text the parser gave
    up on with the reason."""

    source: str
    line: int
    text: str  # the whole chunk the game was read from
    game: Game | None
    tags: dict[str, str]  # the game's tags (of an unreadable game: what its head shows)
    error: str = ""
    part: tuple[int, int] = (0, 1)  # which game of its chunk, of how many (almost always 1)
    screened: bool = False  # left unparsed: the task's screen turned its tags down


@dataclass(frozen=True)
class Located(Generic[R]):
    """A task's result for one game, with the game's source and 1-based index in it."""

    source: str
    index: int
    result: R


class Task(Protocol[R]):
    """The per-batch work of a command: one result per record, in order. A task may also
    have a ``screen(tags) -> bool`` method: chunks whose tags it turns down are not parsed.
    """

    def __call__(self, records: list[Record]) -> list[R]: ...


@dataclass
class Batch:
    source: str
    chunks: list[Chunk]

    @property
    def size(self) -> int:
        return sum(len(chunk.text) for chunk in self.chunks)


@dataclass
class Done(Generic[R]):
    """A batch's results (one per game, in order) and the characters it covered."""

    source: str
    results: list[R]
    size: int


def read_records(source: str, chunks: Iterable[Chunk],
                 screen: Callable[[dict[str, str]], bool] | None = None) -> list[Record]:
    """The records of consecutive chunks of a source; a tagged chunk whose tags ``screen``
    turns down is not parsed (its record is marked ``screened``)."""
    records = []
    for chunk in chunks:
        if screen is not None:
            tags = head_tags(chunk.text, chunk.line)[0]
            if tags and not screen(tags):
                records.append(Record(source, chunk.line, chunk.text, None, tags,
                                      screened=True))
                continue
        games = list(parse_chunks([chunk], source))
        for part, game in enumerate(games):
            syntax = [d for d in game.errors if d.code in ("syntax", "internal-error")]
            line = game.line or chunk.line
            where = (part, len(games))
            records.append(Record(source, line, chunk.text, None, game.tags, syntax[0].message,
                                  where) if syntax else
                           Record(source, line, chunk.text, game, game.tags, part=where))
    return records


def _run(task: Task[R], batch: Batch) -> Done[R]:
    screen = getattr(task, "screen", None)
    return Done(batch.source, task(read_records(batch.source, batch.chunks, screen)),
                batch.size)


def _batches(sources: list[str], encoding: str | None) -> Iterator[Batch]:
    """Every source's chunks in batches; a batch never spans two sources."""
    for source in sources:
        name = "<stdin>" if source == STDIN else source
        handle = sys.stdin.buffer if source == STDIN else source
        chunks = iter_chunks(handle, encoding=encoding)
        while batch := list(islice(chunks, BATCH_CHUNKS)):
            yield Batch(name, batch)


def total_size(sources: list[str]) -> int | None:
    """The bytes to read, for a progress bar (None when standard input is among them)."""
    if STDIN in sources:
        return None
    return sum(file_size(source) for source in sources)


def file_size(path: str) -> int:
    """The size of a file, 0 when it cannot be read (reading it will say why)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def run_task(sources: list[str], task: Task[R], *, jobs: int = 1, encoding: str | None = None,
             progress: Callable[[int], None] | None = None) -> Iterator[Located[R]]:
    """The task's result for every game of every source, in order, with where it stands.

    ``jobs`` worker processes (0: all cores, when the input is large enough to repay them);
    ``progress`` is told how many characters each batch covered. Raises ``OSError`` for a
    file that cannot be read.
    """
    workers = jobs or (os.cpu_count() or 1)
    size = total_size(sources)
    parallel = workers > 1 and (jobs > 1 or size is None or size > PARALLEL_MIN_BYTES)
    parts = (_pool(task, sources, encoding, workers) if parallel
             else (_run(task, batch) for batch in _batches(sources, encoding)))
    counts: dict[str, int] = {}
    for part in parts:
        if progress is not None:
            progress(part.size)
        offset = counts.get(part.source, 0)
        counts[part.source] = offset + len(part.results)
        for number, result in enumerate(part.results, offset + 1):
            yield Located(part.source, number, result)


def _pool(task: Task[R], sources: list[str], encoding: str | None, workers: int
          ) -> Iterator[Done[R]]:
    """Batches in worker processes, at most two per worker in flight."""
    with ProcessPoolExecutor(workers) as pool:
        yield from in_order(pool, _run, ((task, batch) for batch in _batches(sources, encoding)),
                            workers)
