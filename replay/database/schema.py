"""The database's tables and its schema version; opening a file refuses other versions.

The schema is a stable interface for SQL users, documented in docs/database.md; a change
to it raises ``SCHEMA_VERSION``, and a database of another version is refused with a
message that says which.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pdn.i18n import N_
from replay.database.sqlite_reasons import is_not_ours, sqlite_reason

SCHEMA_VERSION = 5
# What each version added, for the message that refuses an older database (version 4 made
# the positions' unique key an index of its own, built after a bulk load; version 5 computes
# every position's key another way, so no older database can be brought up to date).
ADDED = {2: N_("the pattern index"), 3: N_("the moves played from each position (pdn "
                                           "explore), and position keys of the rules core's "
                                           "playable-squares layout"),
         5: N_("position keys mixed from the bitboards")}
APPLICATION = "pdn-toolkit game database"

POSITIONS = """CREATE TABLE positions (
    position_id  INTEGER PRIMARY KEY,  -- 1, 2, 3... in the order positions were first met
    position_key INTEGER NOT NULL,     -- see replay.database.keys (unique: positions_by_key)
    variant      TEXT NOT NULL,
    turn         TEXT NOT NULL,        -- 'W' or 'B': the side to move
    white_men    INTEGER,              -- bitboards: bit i = the i-th playing square
    white_kings  INTEGER,              --   (NULL on boards of more than 64 playing squares)
    black_men    INTEGER,
    black_kings  INTEGER,
    white_men_count   INTEGER NOT NULL,
    white_kings_count INTEGER NOT NULL,
    black_men_count   INTEGER NOT NULL,
    black_kings_count INTEGER NOT NULL,
    fen          TEXT NOT NULL
)"""
TABLES = f"""
CREATE TABLE meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE files (
    file_id    INTEGER PRIMARY KEY,
    path       TEXT NOT NULL UNIQUE,   -- absolute path when indexed
    sha256     TEXT NOT NULL,          -- of the file's bytes: the same file is never doubled
    size       INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    indexed_at TEXT NOT NULL           -- UTC, ISO 8601
);
CREATE TABLE games (
    game_id       INTEGER PRIMARY KEY, -- in index order: file by file, game by game
    file_id       INTEGER NOT NULL REFERENCES files(file_id),
    game_index    INTEGER NOT NULL,    -- 1-based place of the game in its file
    line          INTEGER NOT NULL,    -- where its record starts in the file
    variant       TEXT,                -- the variant it was replayed as (NULL: unreadable)
    white         TEXT,
    black         TEXT,
    event         TEXT,
    date          TEXT,                -- the Date tag as written
    date_low      INTEGER,             -- earliest day a partial date can mean, YYYYMMDD
    date_high     INTEGER,             -- latest day, YYYYMMDD (NULL: no year known)
    result        TEXT,
    status        TEXT NOT NULL,       -- valid, invalid, incomplete or unreadable
    plies         INTEGER NOT NULL,    -- moves of the main line that replay
    moves         TEXT NOT NULL,       -- those moves, numeric squares, e.g. '11-15 23-19 ...'
    opening       TEXT,                -- its opening's name where a source names it
    ballot        TEXT,                -- Russian: the FMJD Drawing Table 64 ballot, e.g. 4-IV
    white_men     INTEGER,             -- material of the final position
    white_kings   INTEGER,
    black_men     INTEGER,
    black_kings   INTEGER,
    tags          TEXT NOT NULL,       -- every tag, as a JSON object
    pdn           TEXT NOT NULL        -- the game's record as it was read
);
CREATE INDEX games_by_file ON games(file_id, game_index);
CREATE TABLE players (
    name TEXT PRIMARY KEY              -- every White and Black tag met, as written
) WITHOUT ROWID;
{POSITIONS};
CREATE TABLE game_positions (
    position_key INTEGER NOT NULL,     -- positions(position_key)
    game_id      INTEGER NOT NULL,     -- games(game_id)
    ply          INTEGER NOT NULL,     -- 0: the start; n: after the n-th move of the main line
    PRIMARY KEY (position_key, game_id, ply)
) WITHOUT ROWID;
CREATE TABLE pattern_planes (
    variant TEXT NOT NULL,
    chunk   INTEGER NOT NULL,          -- positions chunk * 65536 to chunk * 65536 + 65535
    plane   INTEGER NOT NULL,          -- kind * 64 + square bit; 256: all; 257: Black to move
    bits    BLOB NOT NULL,             -- 8192 bytes: bit i = position_id chunk * 65536 + i
    PRIMARY KEY (variant, chunk, plane)
) WITHOUT ROWID;
CREATE TABLE position_moves (          -- the explorer: each move played from each position
    position_key INTEGER NOT NULL,     -- the position before the move
    next_key     INTEGER NOT NULL,     -- the position after it (the move, as the board says)
    move         TEXT NOT NULL,        -- as in games.moves, e.g. '11-15' or '9x18x27'
    games        INTEGER NOT NULL,     -- games that played it from there (at any ply)
    white_wins   INTEGER NOT NULL,     -- their results, as each game's variant reads them
    draws        INTEGER NOT NULL,
    black_wins   INTEGER NOT NULL,     -- the rest: no result ('*') or a double forfeit
    rated        INTEGER NOT NULL,     -- ratings read from WhiteRating/WhiteElo, BlackRating...
    rating_sum   INTEGER NOT NULL,     --   and their sum (average: rating_sum / rated)
    latest_day   INTEGER NOT NULL,     -- the latest game's date_high (0: no date)
    latest_game  INTEGER NOT NULL,     -- games(game_id) of the latest game (ties: the last)
    PRIMARY KEY (position_key, next_key)
) WITHOUT ROWID;
"""
# Built once the rows of a new database are written (a sort is faster than keeping them up
# to date row by row), then kept up to date.
POSITIONS_BY_KEY = ("CREATE UNIQUE INDEX IF NOT EXISTS positions_by_key "
                    "ON positions(position_key)")
INDEXES = f"""
{POSITIONS_BY_KEY};
CREATE INDEX IF NOT EXISTS games_by_variant ON games(variant);
CREATE INDEX IF NOT EXISTS games_by_white ON games(white);
CREATE INDEX IF NOT EXISTS games_by_black ON games(black);
CREATE INDEX IF NOT EXISTS games_by_white_material ON games(white_men, white_kings);
CREATE INDEX IF NOT EXISTS games_by_black_material ON games(black_men, black_kings);
CREATE INDEX IF NOT EXISTS game_positions_by_ply ON game_positions(ply, position_key);
CREATE INDEX IF NOT EXISTS positions_by_material
    ON positions(white_men_count, white_kings_count, black_men_count, black_kings_count);
"""
# SQLite's page cache while indexes are built: its sorter sorts runs of the cache's size and
# merges them, and runs of 2 MB (the processor's caches) sorted OCA 2.0's three large indexes
# in 1.3 s of CPU where runs of 32 MB took 2.2 s
SORT_CACHE_KIB = 2 * 1024


CANNOT_OPEN = N_("{file}: cannot open: {reason}")
CANNOT_READ = N_("{file}: cannot read the database: {reason}")
NOT_OURS_BECAUSE = N_("{file}: not a game database made by pdn index: {reason}")


class DatabaseError(Exception):
    """A database that cannot be used: missing, corrupt, or of another schema version."""


def create_or_open(path: str | Path) -> sqlite3.Connection:
    """A database to index into: created with the current schema when new, else checked."""
    target = Path(path)
    fresh = not target.exists() or target.stat().st_size == 0
    try:
        connection = sqlite3.connect(target)
        if fresh:
            with connection:
                connection.executescript(TABLES)
                connection.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("application", APPLICATION), ("schema_version", str(SCHEMA_VERSION))])
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.Error as error:
        raise DatabaseError(N_("{file}: cannot create a database: {reason}").format(
            file=path, reason=sqlite_reason(error))) from None
    _check(connection, path)
    return connection


def older_database(path: str | Path) -> tuple[int, list[str]] | None:
    """A database of ours of an older schema at ``path``: its version and the files it
    indexed, in their order (None for anything else: a new, current or foreign file, which
    ``create_or_open`` says how to treat)."""
    target = Path(path)
    if not target.is_file() or target.stat().st_size == 0:
        return None
    try:
        connection = sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        names = dict(connection.execute("SELECT name, value FROM meta"))
        if names.get("application") != APPLICATION or version >= SCHEMA_VERSION:
            return None
        files = [name for (name,) in connection.execute(
            "SELECT path FROM files ORDER BY file_id")]
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return version, files


def open_readonly(path: str | Path) -> sqlite3.Connection:
    """An existing database, opened read-only and checked; raises DatabaseError."""
    target = Path(path)
    try:
        exists = target.is_file()
    except OSError as error:  # a name too long, a loop of links: said as an error of its own
        raise DatabaseError(CANNOT_OPEN.format(file=path, reason=error.strerror or error)
                            ) from None
    if not exists:
        raise DatabaseError(N_("{file}: no such database").format(file=path))
    try:
        connection = sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise DatabaseError(CANNOT_OPEN.format(file=path, reason=sqlite_reason(error))
                            ) from None
    _check(connection, path)
    return connection


def _check(connection: sqlite3.Connection, path: str | Path) -> None:
    """Refuse a file that is not our database, or one of another schema version."""
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        names = dict(connection.execute("SELECT name, value FROM meta"))
    except sqlite3.Error as error:  # not SQLite's, or locked by another program, or damaged
        connection.close()
        said = NOT_OURS_BECAUSE if is_not_ours(error) else CANNOT_READ
        raise DatabaseError(said.format(file=path, reason=sqlite_reason(error))) from None
    if names.get("application") != APPLICATION:
        connection.close()
        raise DatabaseError(N_("{file}: not a game database made by pdn index").format(file=path))
    if version != SCHEMA_VERSION:
        connection.close()
        missing = [ADDED[number] for number in range(version + 1, SCHEMA_VERSION + 1)
                   if number in ADDED]
        raise DatabaseError(_version_refused(version, missing).format(
            file=path, version=version, current=SCHEMA_VERSION,
            listing=", and ".join(missing)))


def _version_refused(version: int, missing: list[str]) -> str:
    """The message refusing a database of another schema version, a catalog entry."""
    if version > SCHEMA_VERSION:
        return N_("{file}: database schema version {version} is newer than this toolkit's "
                  "({current}); use the pdn that made it")
    if not missing:
        return N_("{file}: database schema version {version} is older than this toolkit's "
                  "({current}); pdn index -o {file} FILES rebuilds it from the files it "
                  "indexed")
    return N_("{file}: database schema version {version} is older than this toolkit's "
              "({current}) (it lacks {listing}); pdn index -o {file} FILES rebuilds it from "
              "the files it indexed")


def build_indexes(connection: sqlite3.Connection, script: str) -> None:
    """Run the ``CREATE INDEX`` statements of ``script`` (``INDEXES``, ``POSITIONS_BY_KEY``)
    in the caller's transaction with the small page cache that sorts fastest
    (``SORT_CACHE_KIB``), then give the connection its cache back."""
    kept = connection.execute("PRAGMA cache_size").fetchone()[0]
    connection.execute(f"PRAGMA cache_size = -{SORT_CACHE_KIB}")
    try:
        for statement in script.split(";"):
            if statement.strip():
                connection.execute(statement)
    finally:
        connection.execute(f"PRAGMA cache_size = {kept}")


def indexed_files(path: str | Path) -> list[str]:
    """The source files a database knows (an output must not replace them); none when the
    database cannot be read (opening it says why)."""
    try:
        connection = open_readonly(path)
    except DatabaseError:
        return []
    try:
        return [name for (name,) in connection.execute("SELECT path FROM files")]
    except sqlite3.Error:
        return []
    finally:
        connection.close()


__all__ = ["INDEXES", "POSITIONS_BY_KEY", "SCHEMA_VERSION", "DatabaseError", "build_indexes",
           "create_or_open",
           "indexed_files", "open_readonly"]
