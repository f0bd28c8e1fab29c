"""Writing the ``game_positions`` table in its key order: each game's plies held in integer
arrays as the games come, sorted by numpy and inserted in one ordered walk of the table's
B-tree when the file ends or ``HELD_ROWS`` are held (about 24 bytes a row). On OCA 2.0 this
is a third cheaper than staging the rows in a temporary SQLite table and sorting them there.
"""

from __future__ import annotations

import sqlite3
from array import array
from itertools import repeat

HELD_ROWS = 4_000_000
SLICE_ROWS = 250_000  # rows made Python integers at a time when written
INSERT = "INSERT OR IGNORE INTO game_positions (position_key, game_id, ply) VALUES (?, ?, ?)"


class GamePositions:
    """The ``game_positions`` rows of the games being written (one file's: a file rolled
    back takes the rows held with it)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.keys, self.games, self.plies = array("q"), array("q"), array("q")

    def add(self, game_id: int, keys: list[int]) -> None:
        """Hold a game's rows: the key of its position at each ply, from 0."""
        self.keys.extend(keys)
        self.games.extend(repeat(game_id, len(keys)))
        self.plies.extend(range(len(keys)))
        if len(self.keys) >= HELD_ROWS:
            self.flush()

    def flush(self) -> None:
        """Write the rows held, in key order (in the caller's transaction), and forget them."""
        import numpy as np

        if not self.keys:
            return
        keys, games, plies = (np.frombuffer(held, dtype=np.int64)
                              for held in (self.keys, self.games, self.plies))
        order = np.lexsort((plies, games, keys))
        for start in range(0, len(order), SLICE_ROWS):
            taken = order[start:start + SLICE_ROWS]
            self.connection.executemany(INSERT, zip(keys[taken].tolist(),
                                                    games[taken].tolist(),
                                                    plies[taken].tolist(), strict=True))
        del keys, games, plies  # numpy's views of the arrays, released before they go
        self.keys, self.games, self.plies = array("q"), array("q"), array("q")


__all__ = ["GamePositions"]
