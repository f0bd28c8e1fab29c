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

from __future__ import annotations

from importlib import import_module
from typing import Any

# Each name this package gives, and its module: imported when the name is first asked for,
# so that a command importing one module (``replay.archive.stream``) loads no other.
_EXPORTS = {
    "CleanOptions": "clean", "Grouper": "dedupe", "fingerprint": "dedupe",
    "dedupe_games": "duplicates", "Settings": "run", "Summary": "run", "clean_games": "run",
    "filter_games": "run", "merge_games": "run", "split_games": "run", "Criteria": "select",
    "CriterionError": "select", "MaterialTest": "select", "TagTest": "select",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
