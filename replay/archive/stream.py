"""Stream the games of many sources through a task, in order, in worker processes.

Sources are cut into partitions of whole games by a runner (``replay.run.runner``: worker
processes, or a Dask cluster); each worker cuts its partition into game chunks, parses them
and runs the task over their records; only the task's small results come back, in file
order. A game whose text the parser gave up on, or whose main line is over the ply limit, is
a record without a game, carrying its original text, so that no command ever drops it or
writes it emptier; a game over the size limit is one with no text, which no command writes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pdn.chunks import Chunk, block_chunks
from pdn.errors import unreadable_reason
from pdn.game import Game
from pdn.reader import parse_chunks
from pdn.records import STDIN
from pdn.tags import head_tags
from replay.run.partitions import Partition
from replay.run.runner import Runner, open_runner

R = TypeVar("R")


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
    # over the most characters a game may hold (``pdn.chunks.GAME_LIMIT``): only its head was
    # read, so ``text`` is empty and no command may write the game (it would write it emptier)
    too_large: bool = False


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
        if chunk.too_large:  # only its head was kept: no text to pass through
            game = next(iter(parse_chunks([chunk], source)))
            records.append(Record(source, chunk.line, "", None, game.tags,
                                  game.errors[-1].message, too_large=True))
            continue
        games = list(parse_chunks([chunk], source))
        for part, game in enumerate(games):
            # a game the reader gave up on, or refused as longer than ``pdn.reader.PLY_LIMIT``
            # (its moves not read, so it may only be passed through as its text)
            reason = unreadable_reason(game)
            line = game.line or chunk.line
            where = (part, len(games))
            records.append(Record(source, line, chunk.text, None, game.tags, reason, where)
                           if reason is not None else
                           Record(source, line, chunk.text, game, game.tags, part=where))
    return records


def _run(partition: Partition, task: Task[R]) -> Done[R]:
    """Worker entry: the task's results for the games of one partition."""
    screen = getattr(task, "screen", None)
    chunks = block_chunks(partition.chunk())
    return Done(partition.source, task(read_records(partition.source, chunks, screen)),
                partition.size)


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
             progress: Callable[[int], None] | None = None, engine: str = "local",
             scheduler: str | None = None, runner: Runner | None = None
             ) -> Iterator[Located[R]]:
    """The task's result for every game of every source, in order, with where it stands.

    The work runs on ``engine`` (``replay.run.runner``): ``jobs`` worker processes (0: one per
    usable core, when the input is large enough to repay them), or a Dask cluster
    (``scheduler``); or on ``runner``, left open for the caller. ``progress`` is told how many
    characters each partition covered. Raises ``OSError`` for a file that cannot be read.
    """
    counts: dict[str, int] = {}
    with ExitStack() as stack:
        if runner is None:
            runner = stack.enter_context(open_runner(engine, jobs=jobs, scheduler=scheduler))
        for part in runner.run(_run, sources, task, encoding=encoding):
            if progress is not None:
                progress(part.size)
            offset = counts.get(part.source, 0)
            counts[part.source] = offset + len(part.results)
            for number, result in enumerate(part.results, offset + 1):
                yield Located(part.source, number, result)
