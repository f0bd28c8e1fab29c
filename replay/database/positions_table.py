"""Writing the ``positions`` table: each distinct position once, its key index built after.

A run that starts on an empty table (a new database) appends rows to a plain rowid table,
the keys already written kept in a set in this process, and builds the unique key index
(``positions_by_key``) once, by a sort, at the end of the run (``schema.INDEXES``): three
times faster on OCA 2.0 than keeping a unique index up to date row by row, whose rows come
in no order. Past ``KEYS_LIMIT`` keys, when a file's rows are rolled back, or when the table
already holds rows, the index is built and each row is inserted unless its key is there.
"""

from __future__ import annotations

import sqlite3

from replay.database.schema import POSITIONS_BY_KEY

KEYS_LIMIT = 4_000_000  # keys kept in the set (about 250 MB) before the index takes over
INSERT = ("INSERT {} INTO positions (position_key, variant, turn, white_men, white_kings, "
          "black_men, black_kings, white_men_count, white_kings_count, black_men_count, "
          "black_kings_count, fen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


class PositionsTable:
    """The ``positions`` rows of one indexing run (``rows.LineRows.rows``: key first)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        empty = connection.execute("SELECT 1 FROM positions LIMIT 1").fetchone() is None
        self.written: set[int] | None = set() if empty else None
        with connection:
            connection.execute("DROP INDEX IF EXISTS positions_by_key" if empty
                               else POSITIONS_BY_KEY)

    def add(self, rows: list[tuple]) -> None:
        """Write the rows whose key the table does not hold yet (in the caller's
        transaction)."""
        written = self.written
        if written is None:
            self.connection.executemany(INSERT.format("OR IGNORE"), rows)
            return
        new = [row for row in rows if not (row[0] in written or written.add(row[0]))]
        self.connection.executemany(INSERT.format(""), new)
        if len(written) > KEYS_LIMIT:
            self.index()

    def index(self) -> None:
        """Build the key index (in the caller's transaction) and look keys up in it from
        now on: after a rollback the set would name rows the table lost."""
        self.connection.execute(POSITIONS_BY_KEY)
        self.written = None


__all__ = ["KEYS_LIMIT", "PositionsTable"]
