"""Archive tools: select, deduplicate, split, merge and clean collections of games.

What pgn-extract is to chess. Every tool streams its sources in constant memory, reads and
replays games in worker processes, writes PDN 3.0, and never drops a game silently: a game
the reader gives up on is passed through unchanged (or to a rejects file) and reported.

- ``select.Criteria``: tags, players, dates, variant, result, length, status, opening
  moves, positions and material reached;
- ``dedupe``: fingerprints of games (their moves as positions) and groups of duplicates;
- ``identity``: which game a record names, and when two records of the same moves are
  different games;
- ``clean``: PDN dates, ``Last, First`` names, the variant's results, a full GameType;
- ``run``: the commands over whole sources (``filter_games``, ``split_games``,
  ``merge_games``, ``clean_games``); ``duplicates``: ``dedupe_games``, here or on a cluster
  (``shuffle``).
"""

from replay.archive.clean import CleanOptions
from replay.archive.dedupe import Grouper, fingerprint
from replay.archive.duplicates import dedupe_games
from replay.archive.run import (
    Settings,
    Summary,
    clean_games,
    filter_games,
    merge_games,
    split_games,
)
from replay.archive.select import Criteria, CriterionError, MaterialTest, TagTest

__all__ = ["CleanOptions", "Criteria", "CriterionError", "Grouper", "MaterialTest", "Settings",
           "Summary", "TagTest", "clean_games", "dedupe_games", "filter_games", "fingerprint",
           "merge_games", "split_games"]
