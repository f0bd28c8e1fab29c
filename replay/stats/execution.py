"""Run the per-game work over whole archives: partitions of games (``replay.run.runner``), in
this process, in worker processes or on a Dask cluster.

Every engine runs the same function on partitions of whole games, and the main process
takes the results in file order, so all engines give identical tables. Games never leave
the process that read them: a partition comes back as two small typed frames.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import pandas as pd

from pdn.chunks import Chunk
from pdn.game import Game
from pdn.reader import read_games
from replay.record.agreement import HELD_GAMES, file_variant
from replay.record.held import Held
from replay.record.inference import keyed_variant
from replay.record.silent import HELD_SILENT
from replay.rules.choice import RulesChoice
from replay.run.parallel import gc_paused
from replay.run.partitions import Partition
from replay.run.runner import PARTITION_CHARS, EngineUnavailableError, open_runner
from replay.stats.rows import MoveColumns, game_row
from replay.stats.schema import REPLAY_COLUMNS, RUN_COLUMNS, typed_games, typed_moves

BLOCK = 2 * PARTITION_CHARS  # tabulating costs less per game than validating: larger pieces
# The parts waiting for their file's variant kept in memory (``_agreed``), the others pickled
# to a temporary file: a local part has some hundreds of games (OCA 2.0: 500).
HELD_PARTS = 8


@dataclass(frozen=True)
class TableOptions:
    """What every batch needs to know."""

    choice: RulesChoice
    opening_plies: int = 6
    with_moves: bool = True
    # False: the games' ``WALK_COLUMNS`` are left missing (a table that reads none of them)
    walked: bool = True
    # False: of the games only the ``RUN_COLUMNS`` (a run that writes the moves alone)
    games: bool = True


@dataclass
class Part:
    """A partition's tables (games numbered in their source once ``iter_parts`` gives them)."""

    source: str
    size: int  # the partition's characters (or bytes), for progress
    games: pd.DataFrame
    moves: pd.DataFrame | None
    # The games whose record tells nothing of their variant, by row: their file's other
    # games tell it (``replay.record.silent``), which only the main process sees in order.
    silent: dict[int, Game] = field(default_factory=dict)
    # The rows of the games that several variants replay: they take the variant their file's
    # games show where it replays them too (``replay.record.agreement``), read again from the
    # partition's ``block`` (a string the collector need not walk, unlike games).
    open: tuple[int, ...] = ()
    block: Chunk | None = None


def run_batch(partition: Partition, options: TableOptions) -> Part:
    """Read, replay and tabulate one partition (the unit of work of every engine)."""
    with gc_paused():
        return _tabulated(partition, options)


def _tabulated(partition: Partition, options: TableOptions) -> Part:
    moves = MoveColumns() if options.with_moves else None
    rows = []
    block = partition.chunk()
    games = _block_games(block)
    walked = options.walked and options.games
    for game in games:
        rows.append(game_row(game, len(rows) + 1, options.choice.default, options.choice.override,
                             options.opening_plies, moves, options.choice.rules,
                             walked=walked))
    open_ = tuple(row for row, fields in enumerate(rows) if fields["open"] and not fields["silent"])
    return Part(partition.source, partition.size,
                typed_games(rows) if options.games else typed_games(rows, RUN_COLUMNS),
                typed_moves(moves.columns) if moves is not None else None,
                {row: game for row, (game, fields) in enumerate(zip(games, rows, strict=True))
                 if fields["silent"]},
                open_, block if open_ else None)


def _block_games(block: Chunk) -> list[Game]:
    """The games of a partition's text, located in their source."""
    games = list(read_games(io.StringIO(block.text)))
    for game in games:
        game.line += block.line - 1
    return games


def iter_parts(sources: Iterable[str], options: TableOptions, *, jobs: int = 1,
               engine: str = "local", scheduler: str | None = None,
               encoding: str | None = None, progress: Callable[[int], None] | None = None,
               moves: Callable[[str, pd.DataFrame], None] | None = None) -> Iterator[Part]:
    """The parts of every source, in order, computed on the engine asked for
    (``replay.run.runner``), games numbered from 1 in each source; ``progress`` is told each part's
    size. ``moves``, when given, is told each part's source and moves table, in order, as soon
    as its games are numbered, and the parts come without it: the moves are final then (a game
    read again for its file's variant or the game before it keeps its moves), and need not
    wait with the games for their file's variant (up to ``HELD_GAMES`` games). Raises
    ``OSError`` for an unreadable file and ``EngineUnavailableError`` without Dask."""
    with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
        parts = _numbered(runner.run(run_batch, sources, options, encoding=encoding,
                                     size=BLOCK), progress)
        if moves is not None:
            parts = _moves_given(parts, moves)
        yield from _followed(_agreed(parts, options), options)


def _moves_given(parts: Iterable[Part], moves: Callable[[str, pd.DataFrame], None]
                 ) -> Iterator[Part]:
    """The parts, each one's moves table first given to ``moves`` and then dropped."""
    for part in parts:
        if part.moves is not None:
            moves(part.source, part.moves)
            part.moves = None
        yield part


def _agreed(parts: Iterable[Part], options: TableOptions) -> Iterator[Part]:
    """The parts, in order, where a game that several variants replay takes the variant its
    file's games show where that replays it too (``replay.record.agreement``): the parts of a source
    are held until it ends (at most ``HELD_GAMES`` games, which then decide for the rest), the
    last ``HELD_PARTS`` in memory and the others on disk (``replay.record.held``)."""
    source: str | None = None
    held: Held[Part] = Held(HELD_PARTS)
    games = 0  # the games held
    votes: Counter[str] = Counter()
    shown: str | None = None
    settled = False
    for part in parts:
        if part.source != source:
            yield from agree_parts(held.drain(), file_variant(votes) if not settled else shown,
                                   options)
            source, games, votes, shown, settled = part.source, 0, Counter(), None, False
        if settled:
            yield from agree_parts([part], shown, options)
            continue
        votes.update(str(variant) for row, variant in enumerate(part.games["variant"].tolist())
                     if row not in part.silent)
        held.append(part)
        games += len(part.games)
        if games >= HELD_GAMES:
            shown, settled = file_variant(votes), True
            yield from agree_parts(held.drain(), shown, options)
    yield from agree_parts(held.drain(), file_variant(votes) if not settled else shown, options)


def agree_parts(parts: Iterable[Part], shown: str | None, options: TableOptions
                 ) -> Iterator[Part]:
    """The parts with each open game read other than ``shown`` read again with it offered."""
    for part in parts:
        # the column read once: a cell read alone costs pandas ~0.1 ms, a game each
        variants = part.games["variant"].astype(object).tolist() if part.open else []
        again_rows = [row for row in part.open if shown is not None
                      and str(variants[row]) != shown]
        games = _block_games(part.block) if again_rows and part.block is not None else []
        for row in again_rows:
            game = games[row]
            choice = options.choice
            fields = game_row(game, int(part.games.at[row, "game"]), choice.default,
                              choice.override, options.opening_plies, None, choice.rules,
                              shown=keyed_variant(shown), walked=options.walked)
            _replace_row(part.games, row, fields)
        part.open, part.block = (), None
        yield part


def _numbered(parts: Iterable[Part], progress: Callable[[int], None] | None
              ) -> Iterator[Part]:
    """The parts with their games numbered from 1 in each source."""
    counts: dict[str, int] = {}
    for part in parts:
        if progress is not None:
            progress(part.size)
        offset = counts.get(part.source, 0)
        counts[part.source] = offset + len(part.games)
        if offset:
            part.games["game"] += offset
            if part.moves is not None:
                part.moves["game"] += offset
        yield part


def _followed(parts: Iterable[Part], options: TableOptions) -> Iterator[Part]:
    """The parts, in order, where a game whose record tells nothing of its variant takes the
    variant of the nearest game before it in its source that tells, or at the head of the
    source, of the first after it (``replay.record.silent``); parts of such leading games are held
    until one that tells comes (at most ``HELD_SILENT`` games), the last ``HELD_PARTS`` in
    memory and the others on disk (``replay.record.held``)."""
    source: str | None = None
    key: str | None = None
    held: Held[Part] = Held(HELD_PARTS)
    silent = 0  # the silent games held
    for part in parts:
        if part.source != source:
            yield from held.drain()
            source, key, silent = part.source, None, 0
        telling = [row for row in range(len(part.games)) if row not in part.silent]
        if key is None:
            if not telling:
                held.append(part)
                silent += len(part.silent)
                if silent > HELD_SILENT:
                    yield from held.drain()
                    silent = 0
                continue
            key = str(part.games.at[telling[0], "variant"])
            for waiting in held.drain():
                follow_rows(waiting.games, waiting.silent, key, options)
                waiting.silent = {}
                yield waiting
            silent = 0
        key = follow_rows(part.games, part.silent, key, options)
        part.silent = {}
        yield part
    yield from held.drain()


def follow_rows(games: pd.DataFrame, silent: dict[int, Game], key: str | None,
                options: TableOptions) -> str | None:
    """Each ``silent`` game (by row of ``games``) read again as the nearest game before it
    that tells (``key`` before the first; None: left as it is); the key after the last."""
    if not silent:  # nothing to read again: the last game tells
        return str(games["variant"].iat[-1]) if len(games) else key
    # the column read once: a cell read alone costs pandas ~0.1 ms, a game each
    for row, variant in enumerate(games["variant"].astype(object).tolist()):
        game = silent.get(row)
        if game is None:
            key = str(variant)
            continue
        if key is None:
            continue
        choice = options.choice
        fields = game_row(game, int(games.at[row, "game"]), choice.default, choice.override,
                          options.opening_plies, None, choice.rules,
                          follow=keyed_variant(key), walked=options.walked)
        _replace_row(games, row, fields)
    return key


def _replace_row(games: pd.DataFrame, row: int, fields: dict) -> None:
    """Put a game's replayed ``fields`` (``game_row``) in the columns of ours ``games`` has."""
    again = typed_games([fields])
    for column in REPLAY_COLUMNS:
        if column in games:
            games.at[row, column] = again.at[0, column]


__all__ = ["EngineUnavailableError", "Part", "TableOptions", "agree_parts", "iter_parts",
           "run_batch"]
