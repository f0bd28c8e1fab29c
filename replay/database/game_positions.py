"""Writing the ``game_positions`` table in its key order: each game's plies held in integer
arrays as the games come, sorted by numpy and inserted in one ordered walk of the table's
B-tree when the file ends or ``HELD_ROWS`` are held. A row is held as two 64-bit integers,
the key and the game's id and ply packed (``PLY_BITS``), 16 bytes where three integers took
24: their order is the table's. On OCA 2.0 this is a third cheaper than staging the rows in a
temporary SQLite table and sorting them there.
"""

from __future__ import annotations

import sqlite3
from array import array

from replay.database.bulk import insert_flat

HELD_ROWS = 1_000_000  # 16 MB, the sort's order array 8 more
SLICE_ROWS = 100_000  # rows made Python integers at a time when written
PLY_BITS = 20  # plies of a main line: at most pdn.reader.PLY_LIMIT (10,000), far below 2**20
INSERT = "INSERT OR IGNORE INTO game_positions (position_key, game_id, ply)"


class GamePositions:
    """The ``game_positions`` rows of the games being written (one file's: a file rolled
    back takes the rows held with it)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.keys, self.places = array("q"), array("q")  # places: game_id << PLY_BITS | ply

    def add(self, game_id: int, keys: list[int]) -> None:
        """Hold a game's rows: the key of its position at each ply, from 0."""
        if len(keys) > 1 << PLY_BITS:
            raise ValueError(f"a main line of more than {1 << PLY_BITS} positions")
        self.keys.extend(keys)
        first = game_id << PLY_BITS
        self.places.extend(range(first, first + len(keys)))
        if len(self.keys) >= HELD_ROWS:
            self.flush()

    def flush(self) -> None:
        """Write the rows held, in key order (in the caller's transaction), and forget them."""
        import numpy as np

        if not self.keys:
            return
        keys, places = (np.frombuffer(held, dtype=np.int64) for held in (self.keys, self.places))
        order = np.lexsort((places, keys))
        mask = (1 << PLY_BITS) - 1
        for start in range(0, len(order), SLICE_ROWS):
            taken = order[start:start + SLICE_ROWS]
            place = places[taken]
            rows = np.stack((keys[taken], place >> PLY_BITS, place & mask), axis=1)
            insert_flat(self.connection, INSERT, 3, rows.ravel().tolist())
        del keys, places, order, rows  # numpy's views of the arrays, released before they go
        self.keys, self.places = array("q"), array("q")


__all__ = ["GamePositions"]
