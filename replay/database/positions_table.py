"""Writing the ``positions`` table: each distinct position once, its key index built after.

A run that starts on an empty table (a new database) appends rows to a plain rowid table,
the keys already written kept in a set in this process (``native.key_set``), and builds the
unique key index (``positions_by_key``) once, by a sort, at the end of the run
(``schema.INDEXES``): three times faster on OCA 2.0 than keeping a unique index up to date
row by row, whose rows come in no order. As each row's position_id is then known (1, 2,
3...), the native part makes the pattern planes from the rows as they are written
(``native.planes``), where reading 660,000 positions back took a tenth of OCA 2.0's
indexing. Past ``KEYS_LIMIT`` keys, when a file's rows are rolled back, or when the table
already holds rows, the index is built, each row is inserted unless its key is there, and the
planes are read back from the table (``planes.update_planes``).
"""

from __future__ import annotations

import sqlite3

from replay.database.bulk import insert_rows
from replay.database.native import PythonKeySet, key_set, planes
from replay.database.planes import mark_planes, merge_planes
from replay.database.schema import POSITIONS_BY_KEY, build_indexes

KEYS_LIMIT = 4_000_000  # keys kept in the set (native: 64 MB; Python's: 250) before the index
INSERT = ("INSERT {} INTO positions (position_key, variant, turn, white_men, white_kings, "
          "black_men, black_kings, white_men_count, white_kings_count, black_men_count, "
          "black_kings_count, fen)")
COLUMNS = 12


class PositionsTable:
    """The ``positions`` rows of one indexing run (``rows.LineRows.rows``: key first)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        empty = connection.execute("SELECT 1 FROM positions LIMIT 1").fetchone() is None
        self.written: PythonKeySet | None = key_set() if empty else None
        self.planes = planes() if empty else None  # the native maker of the planes
        self.next_id = 1  # the position_id of the next row written (while ``written``)
        with connection:
            connection.execute("DROP INDEX IF EXISTS positions_by_key" if empty
                               else POSITIONS_BY_KEY)

    def add(self, rows: list[tuple]) -> None:
        """Write the rows whose key the table does not hold yet (in the caller's
        transaction)."""
        written = self.written
        if written is None:
            insert_rows(self.connection, INSERT.format("OR IGNORE"), COLUMNS, rows)
            return
        new = written.fresh(rows)
        insert_rows(self.connection, INSERT.format(""), COLUMNS, new)
        if self.planes is not None:
            self.planes.add(self.next_id, new)
            merge_planes(self.connection, self.planes.take())
        self.next_id += len(new)
        if len(written) > KEYS_LIMIT:
            self.index()

    def finish_planes(self) -> None:
        """Write the planes of the positions written so far (in the caller's transaction);
        ``planes.update_planes`` then finds none of them to read back."""
        if self.planes is not None:
            self.planes.finish()
            merge_planes(self.connection, self.planes.take())
            mark_planes(self.connection, self.next_id - 1)

    def index(self) -> None:
        """Build the key index (in the caller's transaction) and look keys up in it from
        now on, the planes read back from the table."""
        self.finish_planes()
        self.forget()

    def forget(self) -> None:
        """``index`` once a file's rows were rolled back: the set would name rows the table
        lost, and the planes held would be of those rows."""
        self.planes = None
        build_indexes(self.connection, POSITIONS_BY_KEY)
        self.written = None


__all__ = ["KEYS_LIMIT", "PositionsTable"]
