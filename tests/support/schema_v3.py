"""A game database of schema version 3, as pdn index wrote it before version 4: the same
rows, the positions' key unique by a constraint of the table (version 4 keeps it as an index
of its own, built after a bulk load). ``make_v3`` turns a database the current code made into
that, for the tests of what a newer toolkit says of, and does to, an older database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

# Version 3's positions table, as its replay/database/schema.py created it.
POSITIONS_V3 = """CREATE TABLE positions (
    position_id  INTEGER PRIMARY KEY,
    position_key INTEGER NOT NULL UNIQUE,
    variant      TEXT NOT NULL,
    turn         TEXT NOT NULL,
    white_men    INTEGER,
    white_kings  INTEGER,
    black_men    INTEGER,
    black_kings  INTEGER,
    white_men_count   INTEGER NOT NULL,
    white_kings_count INTEGER NOT NULL,
    black_men_count   INTEGER NOT NULL,
    black_kings_count INTEGER NOT NULL,
    fen          TEXT NOT NULL
)"""


def make_v3(path: Path) -> None:
    """Rewrite a current database in place as version 3 wrote it."""
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("ALTER TABLE positions RENAME TO positions_v4")
        connection.execute("DROP INDEX IF EXISTS positions_by_key")
        connection.execute("DROP INDEX IF EXISTS positions_by_material")
        connection.execute(POSITIONS_V3)
        connection.execute("INSERT INTO positions SELECT * FROM positions_v4")
        connection.execute("DROP TABLE positions_v4")
        connection.execute("CREATE INDEX positions_by_material ON positions(white_men_count, "
                           "white_kings_count, black_men_count, black_kings_count)")
        connection.execute("UPDATE meta SET value = '3' WHERE name = 'schema_version'")
        connection.execute("PRAGMA user_version = 3")
    connection.execute("VACUUM")
    connection.close()
