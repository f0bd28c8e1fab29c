"""``write_table``: one statistics table streamed to a file as partitions finish.

The moves table is written part by part as it comes, as soon as each part's games are
numbered (``iter_parts(moves=...)``): it does not wait with the games for its file's variant.
The games table needs two things that only the whole of a file tells: which way its results
read where Black moves first, and every tag any game has (one column each). So each part of
games waits in a spool (in memory up to ``FINISHED_GAMES`` games, else in a temporary folder
on disk) while the votes and the tag names are gathered, and is then finished and written
``FINISHED_GAMES`` games at a time. Players, openings and summary are aggregates of the
games table, built in memory from the few columns of it they read.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pandas as pd

from pdn.i18n import N_
from pdn.writer import SEVEN_TAGS
from replay.rules.choice import RulesChoice
from replay.rules.variants import Rules, Variant
from replay.run.output import as_write_error
from replay.stats.counts import summary_table
from replay.stats.execution import TableOptions, iter_parts
from replay.stats.rows import MoveColumns
from replay.stats.schema import (
    REPLAY_COLUMNS,
    TAG_COLUMN_LIMIT,
    file_categories,
    fold_tags,
    folded_rows,
    typed_games,
    typed_moves,
    with_file,
)
from replay.stats.tables import (
    ReadingVotes,
    contradicted_lines,
    finish_games,
    finish_moves,
    openings_table,
    players_table,
)
from replay.stats.writer import TableWriter

DERIVED_TABLES = {"players": players_table, "openings": openings_table,
                  "summary": summary_table}
# The games finished together (``_Spool.finished``), and the most the spool holds in memory:
# OCA 2.0's 22,621 games held and finished at once peaked at 209 MB, by 16,384 at 183 MB.
FINISHED_GAMES = 1 << 14
# The games' columns those tables read: only these are held in memory to build them.
AGGREGATED_COLUMNS = ("file", "White", "Black", "Event", "date", "year", "variant", "result",
                      "first_mover", "white_score", "opening", "plies", "status")


def write_table(sources: Iterable[str], default: Variant, path: str | os.PathLike,
                table: str = "games", override: Variant | None = None, *, jobs: int = 1,
                engine: str = "local", scheduler: str | None = None, opening_plies: int = 6,
                encoding: str | None = None, keep_games: bool = False,
                rules: Rules | None = None, progress: Callable[[int], None] | None = None,
                statuses: Counter[str] | None = None,
                warn: Callable[[str], None] | None = None) -> tuple[int, pd.DataFrame | None]:
    """Write ``table`` of ``sources`` to ``path`` (.csv, .parquet, .jsonl) atomically, with
    the rows ``stats_tables(...).table(table)`` has, part by part as the work finishes.

    Returns the rows written and, with ``keep_games``, the games table (for plots and a
    terminal summary). ``rules`` are rule options set on top of each game's variant;
    ``progress`` is told how much of the input each part covered; ``statuses``, when given,
    counts the games of each status (valid, invalid...); ``warn`` is told each game whose
    result its final position contradicts, and the first game whose tags went into
    ``other_tags`` (not for the moves table alone). Raises ``OSError`` for an
    unreadable file, ``ValueError`` for an unknown table or suffix and
    ``EngineUnavailableError`` without Dask.
    """
    if table not in ("games", "moves", *DERIVED_TABLES):
        raise ValueError(f"unknown table '{table}'")
    sources = list(sources)
    files = file_categories(sources)
    need_games = table != "moves" or keep_games
    # the summary reads nothing a walk along the main line counts, the moves alone no game
    options = TableOptions(RulesChoice(default, override, rules), opening_plies,
                           with_moves=table == "moves",
                           walked=keep_games or table not in ("moves", "summary"),
                           games=need_games)
    with TableWriter(path) as out, tempfile.TemporaryDirectory(prefix="pdn-stats-") as spool:

        def write_moves(source: str, moves: pd.DataFrame) -> None:
            out.write(finish_moves(with_file([moves], [source], moves, files)))

        parts = iter_parts(sources, options, jobs=jobs, engine=engine, scheduler=scheduler,
                           encoding=encoding, progress=progress,
                           moves=write_moves if table == "moves" else None)
        games = _Spool(Path(spool), files)
        for part in parts:
            count_statuses(part.games, statuses)
            if need_games:
                games.add(part.source, part.games)
        if table == "moves" and out.rows == 0:
            out.write(finish_moves(with_file([], [], typed_moves(MoveColumns().columns),
                                             files)))
        kept, folded_told = [], False
        for finished, sizes in games.finished() if need_games else ():
            if warn is not None:
                for line in contradicted_lines(finished):
                    warn(line)
                if not folded_told and folded_rows(finished).any():
                    warn(folded_warning(finished))
                    folded_told = True
            if table == "games":
                _write_parts(out, finished, sizes)
            if keep_games:
                kept.append(finished)
            elif table in DERIVED_TABLES:
                kept.append(finished[list(AGGREGATED_COLUMNS)])
        whole = pd.concat(kept, ignore_index=True) if len(kept) > 1 else \
            (kept[0] if kept else None)
        if table in DERIVED_TABLES:
            derived = DERIVED_TABLES[table](whole)
            out.write(derived)
        return out.rows, whole if keep_games else None


def _write_parts(out: TableWriter, games: pd.DataFrame, sizes: list[int]) -> None:
    """Write a batch of finished games: whole, or in Parquet part by part as they came (the
    row groups are cut between the parts written, as they always were)."""
    if out.suffix != ".parquet":
        out.write(games)
        return
    start = 0
    for size in sizes:
        out.write(games.iloc[start:start + size])
        start += size


def folded_warning(games: pd.DataFrame) -> str:
    """The warning for the first game of a finished part whose tags were folded into
    ``other_tags`` (the table has more distinct tags than ``TAG_COLUMN_LIMIT``)."""
    first = games[folded_rows(games)].iloc[0]
    return folded_message(first["file"], first["line"], first["game"])


def folded_message(file: object, line: object, game: object) -> str:
    """The warning for the first game whose tags went into ``other_tags``."""
    return N_("{where}: warning: game {number}: the games table has more than {limit} "
              "distinct tags; this game's tags past them, and any later game's, are in its "
              "other_tags column").format(where=f"{file}:{line}", number=game,
                                          limit=f"{TAG_COLUMN_LIMIT:,}")


def count_statuses(games: pd.DataFrame, statuses: Counter[str] | None) -> None:
    """Add the games of each status to ``statuses`` (nothing when it is None)."""
    if statuses is not None:
        statuses.update({str(status): int(count)
                         for status, count in games["status"].value_counts().items()})


class _Spool:
    """Parts of the games table, with what finishing them needs: in memory while they hold
    at most ``FINISHED_GAMES`` games (as many as a finished batch), then all on disk."""

    def __init__(self, folder: Path, files: list[str]) -> None:
        self.folder = folder
        self.files = files
        self.parts: list[tuple[Path | pd.DataFrame, str]] = []
        self.held = 0  # the games of the parts in memory
        self.tags: dict[str, None] = dict.fromkeys(SEVEN_TAGS)
        self.votes = ReadingVotes()

    def add(self, source: str, games: pd.DataFrame) -> None:
        self.tags.update(dict.fromkeys(c for c in games.columns if c not in REPLAY_COLUMNS))
        self.votes.add(source, games)
        self.parts.append((games, source))
        self.held += len(games)
        if self.held > FINISHED_GAMES:
            self.parts = [(self._spooled(part, number), source) if isinstance(part, pd.DataFrame)
                          else (part, source) for number, (part, source) in enumerate(self.parts)]
            self.held = 0

    def _spooled(self, games: pd.DataFrame, number: int) -> Path:
        """``games`` written to the spool's folder."""
        path = self.folder / f"{number}.pickle"
        try:
            games.to_pickle(path)
        except OSError as error:  # a full disk: the temporary folder's fault, said so
            raise as_write_error(error, path) from None
        return path

    def finished(self) -> Iterator[tuple[pd.DataFrame, list[int]]]:
        """The parts finished as the whole table would finish them, in order, gathered
        ``FINISHED_GAMES`` games at a time, each batch with the rows of each of its parts
        (one empty table when there are none): pandas costs some milliseconds per operation
        whatever its size, and finishing takes many (a part finished alone cost more than
        its replay)."""
        readings = self.votes.readings()
        tags = list(self.tags)
        if not self.parts:
            yield finish_games(with_file([], [], typed_games([]), self.files)), [0]
            return
        batch: list[pd.DataFrame] = []
        sources: list[str] = []
        parts, self.parts, self.held = self.parts, [], 0
        for part, source in parts:
            if isinstance(part, pd.DataFrame):
                games = part
            else:
                games = pd.read_pickle(part)
                part.unlink()
            batch.append(fold_tags(games, tags))
            sources.append(source)
            if sum(map(len, batch)) >= FINISHED_GAMES:
                yield self._finished(batch, sources, readings)
                batch, sources = [], []
        if batch:
            yield self._finished(batch, sources, readings)

    def _finished(self, batch: list[pd.DataFrame], sources: list[str],
                  readings: pd.Series | None) -> tuple[pd.DataFrame, list[int]]:
        """A batch of parts finished together, and the rows of each."""
        return (finish_games(with_file(batch, sources, batch[0], self.files), readings),
                [len(games) for games in batch])
