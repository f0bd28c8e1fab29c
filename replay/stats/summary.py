"""``running_summary``: the summary table folded part by part as the games come, so that
its memory stays flat whatever the archive's size (``stats_tables`` holds every game).

Each part of games adds to a few counts per file, variant, event and year: the games, each
result, the plies' sum and count (for the mean), the valid records. Where Black moves first,
a file's decided games read their results the way most of them do (``tables.settle_readings``),
which only the file's end tells: the counts keep apart the games whose result that reading
turns round, and the games whose result check it settles wait, as the warnings they may
become, in a spool on disk. The table built at the end is ``summary_table`` of the whole
games table, row for row.
"""

from __future__ import annotations

import pickle
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pdn.writer import SEVEN_TAGS
from replay.rules.choice import RulesChoice
from replay.rules.variants import Rules, Variant
from replay.stats.execution import TableOptions, iter_parts
from replay.stats.schema import (
    REPLAY_COLUMNS,
    RESULTS,
    STRING,
    TAG_COLUMN_LIMIT,
    file_categories,
)
from replay.stats.stream import count_statuses, folded_message
from replay.stats.tables import (
    SUMMARY_DTYPES,
    ReadingVotes,
    contradicted_line,
    date_parts,
)

KEYS = ["file", "variant", "event", "year"]
# The counts kept per key: games, each result, the white and black wins a file's reading of
# its results turns round, the plies' sum and count, the valid records.
_TURNED_WHITE, _TURNED_BLACK = len(RESULTS) + 1, len(RESULTS) + 2
_PLIES_SUM, _PLIES_COUNT, _VALID = len(RESULTS) + 3, len(RESULTS) + 4, len(RESULTS) + 5
_COUNTS = len(RESULTS) + 6
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
        self.counts: dict[tuple, np.ndarray] = {}
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
        variant, event = games["variant"], games["Event"].astype(object)
        source_codes, sources = pd.factorize(games["source"])
        event_codes, events = pd.factorize(event)
        year_codes, years = pd.factorize(self._years(games["Date"]))
        variant_codes = variant.cat.codes.to_numpy(dtype=np.int64)
        combined = ((((source_codes * (len(variant.cat.categories) + 1)) + variant_codes + 1)
                     * (len(events) + 1) + event_codes + 1) * (len(years) + 1) + year_codes + 1)
        _, first, group = np.unique(combined, return_index=True, return_inverse=True)
        groups = len(first)
        result = games["result"].cat.codes.to_numpy()
        turnable = (games["first_mover"] == "black").to_numpy(dtype=bool)
        plies = games["plies"].astype("Int64")
        known = plies.notna().to_numpy()
        sums = np.zeros((groups, _COUNTS), dtype=np.int64)
        sums[:, 0] = np.bincount(group, minlength=groups)
        for code in range(len(RESULTS)):
            sums[:, code + 1] = np.bincount(group[result == code], minlength=groups)
        for column, code in ((_TURNED_WHITE, 0), (_TURNED_BLACK, 1)):
            sums[:, column] = np.bincount(group[turnable & (result == code)], minlength=groups)
        values = plies.to_numpy(dtype=np.int64, na_value=0)
        np.add.at(sums[:, _PLIES_SUM], group, values)
        sums[:, _PLIES_COUNT] = np.bincount(group[known], minlength=groups)
        sums[:, _VALID] = np.bincount(group[(games["status"] == "valid").to_numpy(dtype=bool)],
                                      minlength=groups)
        names = variant.cat.categories
        for index, row in enumerate(first):
            key = (sources[source_codes[row]],
                   names[variant_codes[row]] if variant_codes[row] >= 0 else None,
                   events[event_codes[row]] if event_codes[row] >= 0 else None,
                   int(years[year_codes[row]]) if year_codes[row] >= 0 else None)
            held = self.counts.get(key)
            if held is None:
                self.counts[key] = sums[index].copy()
            else:
                held += sums[index]

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
        keys = list(self.counts)
        counts = np.array([self.counts[key] for key in keys], dtype=np.int64).reshape(
            len(keys), _COUNTS)
        turned = np.array([readings.get(key[0], None) == "colour" for key in keys], dtype=bool)
        white, black = counts[:, 1].copy(), counts[:, 2].copy()
        moved = counts[:, _TURNED_BLACK] - counts[:, _TURNED_WHITE]
        counts[:, 1] = np.where(turned, white + moved, white)
        counts[:, 2] = np.where(turned, black - moved, black)
        table = self._table(keys, counts)
        results = pd.Series(counts[:, 1:len(RESULTS) + 1].sum(axis=0),
                            index=pd.CategoricalIndex(RESULTS, categories=RESULTS,
                                                      name="result"), name="count")
        overview = Overview(int(counts[:, 0].sum()), results.sort_values(ascending=False),
                            int(counts[:, _VALID].sum()), list(self.seen))
        return Summary(table, overview, self._contradicted(readings), self.folded,
                       self.statuses)

    def _table(self, keys: list[tuple], counts: np.ndarray) -> pd.DataFrame:
        games = counts[:, 0]
        plies = counts[:, _PLIES_COUNT]
        columns = {
            "file": pd.Categorical([key[0] for key in keys], categories=self.files),
            "variant": pd.Categorical([key[1] for key in keys],
                                      dtype=REPLAY_COLUMNS["variant"]),
            "event": pd.array([key[2] for key in keys], dtype=STRING),
            "year": pd.array([key[3] for key in keys], dtype="Int64"),
            "games": pd.array(games, dtype="Int64"),
            **{name: pd.array(counts[:, index + 1], dtype="Int64")
               for index, name in enumerate(RESULTS)},
            "average_plies": pd.arrays.FloatingArray(
                counts[:, _PLIES_SUM] / np.where(plies > 0, plies, 1), plies == 0),
            "valid_share": pd.array(counts[:, _VALID] / games, dtype="Float64"),
        }
        table = pd.DataFrame(columns)[list(SUMMARY_DTYPES)].astype(SUMMARY_DTYPES)
        return table.sort_values(KEYS, na_position="last", ignore_index=True)
