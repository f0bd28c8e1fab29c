"""The summary table's counts: per file, variant, event and year, the games, each result,
the plies' sum and count (for the mean) and the valid records, added part by part.

Where Black moves first, a file's decided games read their results the way most of them do
(``tables.settle_readings``), which only the file's end tells: the counts keep apart the
white and black wins such a reading turns round, and ``SummaryCounts.table`` turns them for
the files it is told read their results for the colour. ``summary_table`` counts a whole
(finished) games table at once, ``summary.running_summary`` the parts as they come.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from replay.stats.schema import REPLAY_COLUMNS, RESULTS, STRING

KEYS = ["file", "variant", "event", "year"]
# The counts kept per key: games, each result, the white and black wins a file's reading of
# its results turns round, the plies' sum and count, the valid records.
TURNED_WHITE, TURNED_BLACK = len(RESULTS) + 1, len(RESULTS) + 2
PLIES_SUM, PLIES_COUNT, VALID = len(RESULTS) + 3, len(RESULTS) + 4, len(RESULTS) + 5
COUNTS = len(RESULTS) + 6

SUMMARY_DTYPES: dict[str, object] = {
    "file": "category", "variant": REPLAY_COLUMNS["variant"], "event": STRING,
    "year": "Int64", "games": "Int64", **dict.fromkeys(RESULTS, "Int64"),
    "average_plies": "Float64", "valid_share": "Float64",
}


class SummaryCounts:
    """The counts of each key (file, variant, event, year) so far."""

    def __init__(self) -> None:
        self.counts: dict[tuple, np.ndarray] = {}

    def add(self, files: pd.Series, games: pd.DataFrame, years: pd.Series) -> None:
        """Count ``games`` (typed frames' ``variant``, ``Event``, ``result``,
        ``first_mover``, ``plies``, ``status``), each of the file and the year given."""
        if not len(games):
            return
        variant, event = games["variant"], games["Event"].astype(object)
        file_codes, names = pd.factorize(files.astype(object))
        event_codes, events = pd.factorize(event)
        year_codes, known_years = pd.factorize(years)
        variant_codes = variant.cat.codes.to_numpy(dtype=np.int64)
        combined = ((((file_codes * (len(variant.cat.categories) + 1)) + variant_codes + 1)
                     * (len(events) + 1) + event_codes + 1) * (len(known_years) + 1)
                    + year_codes + 1)
        _, first, group = np.unique(combined, return_index=True, return_inverse=True)
        groups = len(first)
        result = games["result"].cat.codes.to_numpy()
        turnable = (games["first_mover"] == "black").to_numpy(dtype=bool)
        plies = games["plies"].astype("Int64")
        known = plies.notna().to_numpy()
        sums = np.zeros((groups, COUNTS), dtype=np.int64)
        sums[:, 0] = np.bincount(group, minlength=groups)
        for code in range(len(RESULTS)):
            sums[:, code + 1] = np.bincount(group[result == code], minlength=groups)
        for column, code in ((TURNED_WHITE, 0), (TURNED_BLACK, 1)):
            sums[:, column] = np.bincount(group[turnable & (result == code)], minlength=groups)
        values = plies.to_numpy(dtype=np.int64, na_value=0)
        np.add.at(sums[:, PLIES_SUM], group, values)
        sums[:, PLIES_COUNT] = np.bincount(group[known], minlength=groups)
        sums[:, VALID] = np.bincount(group[(games["status"] == "valid").to_numpy(dtype=bool)],
                                     minlength=groups)
        categories = variant.cat.categories
        for index, row in enumerate(first):
            key = (names[file_codes[row]],
                   categories[variant_codes[row]] if variant_codes[row] >= 0 else None,
                   events[event_codes[row]] if event_codes[row] >= 0 else None,
                   int(known_years[year_codes[row]]) if year_codes[row] >= 0 else None)
            held = self.counts.get(key)
            if held is None:
                self.counts[key] = sums[index].copy()
            else:
                held += sums[index]

    def totals(self, readings: pd.Series | None = None) -> tuple[list[tuple], np.ndarray]:
        """The keys and their counts, the wins turned round in the files ``readings`` says
        read their results for the colour."""
        keys = list(self.counts)
        counts = np.array([self.counts[key] for key in keys], dtype=np.int64).reshape(
            len(keys), COUNTS)
        if readings is not None:
            turned = np.array([readings.get(key[0], None) == "colour" for key in keys],
                              dtype=bool)
            white, black = counts[:, 1].copy(), counts[:, 2].copy()
            moved = counts[:, TURNED_BLACK] - counts[:, TURNED_WHITE]
            counts[:, 1] = np.where(turned, white + moved, white)
            counts[:, 2] = np.where(turned, black - moved, black)
        return keys, counts


def counted_table(files: list[str], keys: list[tuple], counts: np.ndarray) -> pd.DataFrame:
    """The summary table of ``SummaryCounts.totals``; ``files`` are the ``file`` column's
    categories."""
    games = counts[:, 0]
    plies = counts[:, PLIES_COUNT]
    columns = {
        "file": pd.Categorical([key[0] for key in keys], categories=files),
        "variant": pd.Categorical([key[1] for key in keys], dtype=REPLAY_COLUMNS["variant"]),
        "event": pd.array([key[2] for key in keys], dtype=STRING),
        "year": pd.array([key[3] for key in keys], dtype="Int64"),
        "games": pd.array(games, dtype="Int64"),
        **{name: pd.array(counts[:, index + 1], dtype="Int64")
           for index, name in enumerate(RESULTS)},
        "average_plies": pd.arrays.FloatingArray(
            counts[:, PLIES_SUM] / np.where(plies > 0, plies, 1), plies == 0),
        "valid_share": pd.array(counts[:, VALID] / games, dtype="Float64"),
    }
    table = pd.DataFrame(columns)[list(SUMMARY_DTYPES)].astype(SUMMARY_DTYPES)
    return table.sort_values(KEYS, na_position="last", ignore_index=True)


def summary_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per file, variant, event and year of a finished games table: games, results split,
    average length in plies, share of valid records."""
    counts = SummaryCounts()
    counts.add(games["file"], games, games["year"])
    return counted_table(list(games["file"].cat.categories), *counts.totals())
