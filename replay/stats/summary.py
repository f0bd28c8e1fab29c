"""``running_summary``: the summary table folded part by part as the games come, so that
its memory stays flat whatever the archive's size (``stats_tables`` holds every game).

Each part of games adds to the counts of ``replay.stats.counts`` (per file, variant, event
and year). Where Black moves first, a file's decided games read their results the way most
of them do (``tables.settle_readings``), which only the file's end tells: the counts keep
apart the games whose result that reading turns round, and the games whose result check it
settles wait, as the warnings they may become, in a spool on disk. The table built at the
end is ``summary_table`` of the whole games table, row for row."""

from __future__ import annotations

import pickle
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pandas as pd

from pdn.writer import SEVEN_TAGS
from replay.rules.choice import RulesChoice
from replay.rules.variants import Rules, Variant
from replay.stats.counts import VALID, SummaryCounts, counted_table
from replay.stats.execution import TableOptions, iter_parts
from replay.stats.schema import (
    REPLAY_COLUMNS,
    RESULTS,
    STRING,
    TAG_COLUMN_LIMIT,
    file_categories,
)
from replay.stats.stream import count_statuses, folded_message
from replay.stats.tables import ReadingVotes, contradicted_line, date_parts

# The games' columns counted, and how many games wait to be counted together (each
# counting costs pandas some milliseconds whatever its size: a few per archive, not one
# per part).
_COUNTED = ("variant", "Event", "Date", "result", "first_mover", "plies", "status")
FOLDED_GAMES = 1 << 15


@dataclass
class Overview:
    """What the headline above a table says of the games."""

    games: int
    results: pd.Series  # games per result, as ``value_counts`` orders them
    valid: int
    files: list[str]  # the files with games, in order

    @classmethod
    def of(cls, games: pd.DataFrame) -> Overview:
        """The overview of a whole games table."""
        return cls(len(games), games["result"].value_counts(),
                   int((games["status"] == "valid").sum()),
                   [file for file in games["file"].unique().tolist() if isinstance(file, str)])


@dataclass
class Summary:
    """The summary table of some sources and what is said of their games."""

    table: pd.DataFrame
    overview: Overview
    contradicted: list[str]  # as ``tables.contradicted_lines`` of the games table
    folded: str | None  # the warning for the first game with tags in other_tags
    statuses: Counter[str] = field(default_factory=Counter)


def running_summary(sources: Iterable[str], default: Variant | None = None,
                    override: Variant | None = None, *, jobs: int = 1, engine: str = "local",
                    scheduler: str | None = None, opening_plies: int = 6,
                    encoding: str | None = None, rules: Rules | None = None,
                    progress: Callable[[int], None] | None = None) -> Summary:
    """The summary of ``sources`` as ``stats_tables(...).summary`` has it, and what the games
    table tells of them, without holding the games (arguments as ``stats_tables``). Raises
    ``OSError`` for an unreadable file and ``EngineUnavailableError`` without Dask."""
    sources = list(sources)
    options = TableOptions(RulesChoice(default, override, rules), opening_plies,
                           with_moves=False, walked=False)
    with tempfile.TemporaryFile(prefix="pdn-summary-") as spool:
        running = _Running(file_categories(sources), spool)
        for part in iter_parts(sources, options, jobs=jobs, engine=engine,
                               scheduler=scheduler, encoding=encoding, progress=progress):
            running.add(part.source, part.games)
        return running.summary()


class _Running:
    """The counts so far, the files' votes on their reading, the warnings pending."""

    def __init__(self, files: list[str], spool) -> None:
        self.files = files
        self.counts = SummaryCounts()
        self.votes = ReadingVotes()
        self.tags: dict[str, None] = dict.fromkeys(SEVEN_TAGS)
        self.folded: str | None = None
        self.seen: dict[str, None] = {}
        # each Date tag's year (None: missing), as ``date_parts`` reads it
        self.years: dict[str | None, object] = {
            None: date_parts(pd.Series([None], dtype=STRING))["year"].iat[0]}
        self.statuses: Counter[str] = Counter()
        self.spool = spool
        self.pending: list[pd.DataFrame] = []
        self.pending_games = 0

    def add(self, source: str, games: pd.DataFrame) -> None:
        """Fold a part of ``source``'s games (``iter_parts``' typed frame) in."""
        count_statuses(games, self.statuses)
        if not len(games):
            return
        self.seen[source] = None
        self.tags.update(dict.fromkeys(c for c in games.columns if c not in REPLAY_COLUMNS))
        self.votes.add(source, games)
        self._note_folded(source, games)
        self._spool_checks(source, games)
        self.pending.append(games[list(_COUNTED)].assign(source=source))
        self.pending_games += len(games)
        if self.pending_games >= FOLDED_GAMES:
            self._fold()

    def _fold(self) -> None:
        """Add the pending games to the counts."""
        if not self.pending:
            return
        games = pd.concat(self.pending, ignore_index=True)
        self.pending, self.pending_games = [], 0
        self.counts.add(games["source"], games, self._years(games["Date"]))

    def _years(self, dates: pd.Series) -> pd.Series:
        """``date_parts``' year of each date, each distinct date read once in the run (an
        archive's games share a few thousand dates: read in each part, they cost more than
        the counting)."""
        codes, distinct = pd.factorize(dates.astype(object))
        new = [date for date in distinct if date not in self.years]
        if new:
            read = date_parts(pd.Series(new, dtype=STRING))["year"]
            self.years.update(zip(new, read.astype(object).tolist(), strict=True))
        known = [self.years[date] for date in distinct] + [self.years[None]]
        return pd.Series(pd.array(known, dtype="Int64")[codes], index=dates.index)

    def _note_folded(self, source: str, games: pd.DataFrame) -> None:
        """The warning for the first game whose tags past the table's first
        ``TAG_COLUMN_LIMIT`` go into other_tags (``schema.fold_tags``)."""
        if self.folded is not None or len(self.tags) <= TAG_COLUMN_LIMIT:
            return
        past = [tag for tag in list(self.tags)[TAG_COLUMN_LIMIT:] if tag in games.columns]
        folded = games[past].notna().any(axis=1).to_numpy() if past else None
        if folded is not None and folded.any():
            first = games[folded].iloc[0]
            self.folded = folded_message(source, first["line"], first["game"])

    def _spool_checks(self, source: str, games: pd.DataFrame) -> None:
        """Spool the warning of each game that contradicts its result (``result_check``
        inconsistent) or may, by its file's reading, with the reading it has."""
        own = games["result_reading"].astype(object)
        check = games["result_check"].astype(object)
        rows = own.notna() | (check == "inconsistent")
        if not rows.any():
            return
        shown = games.loc[rows, ["line", "game", "White", "Black", "Result", "ending"]]
        pending = own[rows].where(own[rows].notna(), None).tolist()
        pickle.dump([(source, reading, contradicted_line(source, row))
                     for reading, row in zip(pending, shown.itertuples(index=False),
                                             strict=True)], self.spool)

    def _contradicted(self, readings: pd.Series) -> list[str]:
        """The spooled warnings of the games that contradict their results, in order."""
        lines = []
        self.spool.seek(0)
        while True:
            try:
                batch = pickle.load(self.spool)
            except EOFError:
                return lines
            for source, own, line in batch:
                reading = readings.get(source, pd.NA) if own is not None else None
                if own is None or (isinstance(reading, str) and own != reading):
                    lines.append(line)

    def summary(self) -> Summary:
        """The summary table, the overview and the warnings, once every part is in."""
        self._fold()
        readings = self.votes.readings()
        if readings is None:
            readings = pd.Series(dtype=object)
        keys, counts = self.counts.totals(readings)
        table = counted_table(self.files, keys, counts)
        results = pd.Series(counts[:, 1:len(RESULTS) + 1].sum(axis=0),
                            index=pd.CategoricalIndex(RESULTS, categories=RESULTS,
                                                      name="result"), name="count")
        overview = Overview(int(counts[:, 0].sum()), results.sort_values(ascending=False),
                            int(counts[:, VALID].sum()), list(self.seen))
        return Summary(table, overview, self._contradicted(readings), self.folded,
                       self.statuses)
