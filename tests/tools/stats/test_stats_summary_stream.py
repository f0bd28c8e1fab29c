"""``pdn stats`` (the summary, without -o) folds the games part by part: the table, the
headline's counts and the warnings are those of the whole in-memory games table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import replay.stats.execution as engine
import replay.stats.summary as summary
from replay.rules.variants import ENGLISH
from replay.stats import stats_tables
from replay.stats.summary import Overview, running_summary
from replay.stats.tables import contradicted_lines

# Files of several variants, with games of no Event or no year, results read for the first
# mover (OCA, Black first) and for the colour, contradicted results, invalid records.
FILES = [
    ["english/OCA_2.0.pdn"],
    ["english/tinsley.pdn"],
    ["international/fmjd_wk2007_all_games.pdn"],
    ["lidraughts_sample/lidraughts_export_sample.pdn"],
    ["games-checkers/italian/partite.pdn"],
    ["games-checkers/russian/abatsiev.pdn"],
    ["games-checkers/pool/3_vs_1_King_Theory.phn"],
    ["fen_ballots/11_man_english.pdn"],
    ["tests/lynx-r_shashkispark/notation_variant1.pdn"],
    # several files in one run, one given twice
    ["games-checkers/russian", "english/tinsley.pdn", "games-checkers/internt/wk2003.pdn",
     "english/tinsley.pdn"],
]


def _sources(shared_data: Path, names: list[str]) -> list[str]:
    from pdn.cli.sources import collect_sources

    return collect_sources([str(shared_data / name) for name in names])


@pytest.mark.parametrize("names", FILES, ids=lambda names: "+".join(names))
def test_streamed_summary_is_the_whole_tables_summary(shared_data, monkeypatch, names):
    """Small partitions, so that each file comes in many parts, counted a few at a time."""
    monkeypatch.setattr(engine, "BLOCK", 1 << 15)
    monkeypatch.setattr(summary, "FOLDED_GAMES", 1000)
    sources = _sources(shared_data, names)
    whole = stats_tables(sources, with_moves=False, jobs=1)
    streamed = running_summary(sources, jobs=1)
    pd.testing.assert_frame_equal(streamed.table, whole.summary)
    assert len(streamed.table) > 0
    expected = Overview.of(whole.games)
    assert streamed.overview.games == expected.games == len(whole.games)
    assert streamed.overview.valid == expected.valid
    assert streamed.overview.files == expected.files
    assert list(streamed.overview.results.items()) == list(expected.results.items())
    assert streamed.contradicted == contradicted_lines(whole.games)
    assert streamed.folded is None
    assert +streamed.statuses == Counter(whole.games["status"].astype(str))


def test_streamed_summary_names_the_contradicted_results_as_the_whole_table(
        shared_data, monkeypatch):
    """OCA (results read for the first mover), a file with a result its final position
    contradicts and files without years or events, read as English."""
    monkeypatch.setattr(engine, "BLOCK", 1 << 16)
    sources = _sources(shared_data, ["english/OCA_2.0.pdn",
                                     "tests/wiegerw_pdn/succeed/bridges.pdn",
                                     "fen_ballots/11_man_english.pdn"])
    whole = stats_tables(sources, ENGLISH, with_moves=False, jobs=1)
    streamed = running_summary(sources, ENGLISH, jobs=1)
    pd.testing.assert_frame_equal(streamed.table, whole.summary)
    assert streamed.contradicted == contradicted_lines(whole.games) != []
    assert streamed.table["event"].isna().any() and streamed.table["year"].isna().any()
