"""Run the per-game work over whole archives: batches of game chunks, locally, in worker
processes or on Dask.

Every engine runs the same function on the same batches, and the main process puts the
results together in file order, so all engines give identical tables. Games never leave
the process that read them: a batch comes back as two small typed frames.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice

import pandas as pd

from pdn.parallel import gc_paused, in_order
from pdn.reader import iter_blocks, read_games
from pdn.syntax import Chunk
from replay.stats.rows import MoveColumns, game_row
from replay.stats.schema import typed_games, typed_moves
from replay.variants import Rules, Variant

BLOCK = 1 << 18  # characters of games per batch (some hundreds of games)
ENGINES = ("local", "dask")


class EngineUnavailableError(ImportError):
    """The engine asked for is not installed (``pip install 'pdn-toolkit[dask]'``)."""


@dataclass(frozen=True)
class Options:
    """What every batch needs to know."""

    default: Variant
    override: Variant | None = None
    opening_plies: int = 6
    with_moves: bool = True
    rules: Rules | None = None


@dataclass
class Batch:
    """A block of whole games of one source (``pdn.reader.iter_blocks``); its last game
    ends with a result, so none runs into the next block without its separator."""

    source: str
    block: Chunk


@dataclass
class Part:
    """A batch's tables, games numbered from 1 within the batch."""

    source: str
    games: pd.DataFrame
    moves: pd.DataFrame | None


def iter_batches(sources: Iterable[str], encoding: str | None = None) -> Iterator[Batch]:
    """The batches of every source in order; ``-`` reads standard input."""
    for source in sources:
        name = "<stdin>" if source == "-" else source
        handle = sys.stdin.buffer if source == "-" else source
        for block in iter_blocks(handle, encoding=encoding, size=BLOCK):
            yield Batch(name, block)


def run_batch(batch: Batch, options: Options) -> Part:
    """Read, replay and tabulate one batch (the unit of work of every engine)."""
    with gc_paused():
        return _tabulated(batch, options)


def _tabulated(batch: Batch, options: Options) -> Part:
    moves = MoveColumns() if options.with_moves else None
    rows = []
    for game in read_games(io.StringIO(batch.block.text)):
        game.line += batch.block.line - 1
        rows.append(game_row(game, len(rows) + 1, options.default, options.override,
                             options.opening_plies, moves, options.rules))
    return Part(batch.source, typed_games(rows),
                typed_moves(moves.columns) if moves is not None else None)


def run_parts(batches: Iterable[Batch], options: Options, *, jobs: int = 1,
              engine: str = "local") -> Iterator[Part]:
    """The parts of every batch, in order, computed by the engine asked for."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine '{engine}'; known: {', '.join(ENGINES)}")
    workers = jobs or (os.cpu_count() or 1)
    if engine == "dask":
        return _run_dask(batches, options, workers)
    if workers == 1:
        return (run_batch(batch, options) for batch in batches)
    return _run_pool(batches, options, workers)


def _run_pool(batches: Iterable[Batch], options: Options, workers: int) -> Iterator[Part]:
    with ProcessPoolExecutor(workers) as pool:
        yield from in_order(pool, run_batch, ((batch, options) for batch in batches), workers)


def _run_dask(batches: Iterable[Batch], options: Options, workers: int) -> Iterator[Part]:
    """Windows of batches as Dask delayed tasks: on the Dask cluster of an open
    ``distributed.Client`` when there is one, else on local processes."""
    try:
        import dask
    except ImportError as error:
        raise EngineUnavailableError(
            "the dask engine needs Dask: pip install 'pdn-toolkit[dask]'") from error
    task = dask.delayed(run_batch, pure=True)
    if dask.config.get("scheduler", None) is not None:
        yield from _dask_windows(batches, options, workers, task, {})
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from _dask_windows(batches, options, workers, task,
                                 {"scheduler": "processes", "pool": pool})


def _dask_windows(batches: Iterable[Batch], options: Options, workers: int, task: Callable,
                  settings: dict) -> Iterator[Part]:
    import dask

    iterator = iter(batches)
    while window := list(islice(iterator, 2 * workers)):
        yield from dask.compute(*(task(batch, options) for batch in window), **settings)
