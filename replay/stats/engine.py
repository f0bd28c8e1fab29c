"""Run the per-game work over whole archives: partitions of games (``pdn.runner``), in
this process, in worker processes or on a Dask cluster.

Every engine runs the same function on partitions of whole games, and the main process
takes the results in file order, so all engines give identical tables. Games never leave
the process that read them: a partition comes back as two small typed frames.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import pandas as pd

from pdn.parallel import gc_paused
from pdn.partitions import Partition
from pdn.reader import read_games
from pdn.runner import ENGINES, EngineUnavailableError, open_runner
from replay.stats.rows import MoveColumns, game_row
from replay.stats.schema import typed_games, typed_moves
from replay.variants import Rules, Variant

BLOCK = 1 << 18  # characters of games per partition on one machine (some hundreds of games)


@dataclass(frozen=True)
class Options:
    """What every batch needs to know."""

    default: Variant | None
    override: Variant | None = None
    opening_plies: int = 6
    with_moves: bool = True
    rules: Rules | None = None


@dataclass
class Part:
    """A partition's tables (games numbered in their source once ``iter_parts`` gives them)."""

    source: str
    size: int  # the partition's characters (or bytes), for progress
    games: pd.DataFrame
    moves: pd.DataFrame | None


def run_batch(partition: Partition, options: Options) -> Part:
    """Read, replay and tabulate one partition (the unit of work of every engine)."""
    with gc_paused():
        return _tabulated(partition, options)


def _tabulated(partition: Partition, options: Options) -> Part:
    moves = MoveColumns() if options.with_moves else None
    rows = []
    block = partition.chunk()
    for game in read_games(io.StringIO(block.text)):
        game.line += block.line - 1
        rows.append(game_row(game, len(rows) + 1, options.default, options.override,
                             options.opening_plies, moves, options.rules))
    return Part(partition.source, partition.size, typed_games(rows),
                typed_moves(moves.columns) if moves is not None else None)


def iter_parts(sources: Iterable[str], options: Options, *, jobs: int = 1,
               engine: str = "local", scheduler: str | None = None,
               encoding: str | None = None, progress: Callable[[int], None] | None = None
               ) -> Iterator[Part]:
    """The parts of every source, in order, computed on the engine asked for
    (``pdn.runner``), games numbered from 1 in each source; ``progress`` is told each part's
    size. Raises ``OSError`` for an unreadable file and ``EngineUnavailableError`` without
    Dask."""
    counts: dict[str, int] = {}
    with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
        for part in runner.run(run_batch, sources, options, encoding=encoding, size=BLOCK):
            if progress is not None:
                progress(part.size)
            offset = counts.get(part.source, 0)
            counts[part.source] = offset + len(part.games)
            if offset:
                part.games["game"] += offset
                if part.moves is not None:
                    part.moves["game"] += offset
            yield part


__all__ = ["ENGINES", "EngineUnavailableError", "Options", "Part", "iter_parts", "run_batch"]
