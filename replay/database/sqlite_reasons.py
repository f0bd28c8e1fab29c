"""What SQLite's own words mean to a player: an error of the database (``database is
locked``, ``file is not a database``, ``disk I/O error``...) as a catalog entry that
explains it, SQLite's words kept after it in parentheses.

The explanation is chosen by SQLite's result code (``sqlite3.Error.sqlite_errorname``), not
by its English text; a message is made in English, as every message is, and a display puts
it into the reader's language (``pdn.i18n.Catalog.localize``).

>>> import sqlite3
>>> try:
...     sqlite3.connect(":memory:").execute("SELECT * FROM games")
... except sqlite3.Error as error:
...     sqlite_reason(error)
'the database lacks a table or column pdn index makes (no such table: games)'
>>> try:
...     sqlite3.connect(":memory:").execute("SELECT FROM")
... except sqlite3.Error as error:
...     sqlite_reason(error)
'SQLite refused: near "FROM": syntax error'
"""

from __future__ import annotations

import sqlite3

from pdn.i18n import N_

# SQLite's primary result codes (https://www.sqlite.org/rescode.html) a user may meet, each
# with what it means for them; an extended code (SQLITE_IOERR_READ) is its primary's.
EXPLAINED = {
    "SQLITE_BUSY": N_("another program is using the database: try again once it is done "
                      "({error})"),
    "SQLITE_LOCKED": N_("another program is using the database: try again once it is done "
                        "({error})"),
    "SQLITE_NOTADB": N_("the file is not an SQLite database ({error})"),
    "SQLITE_CORRUPT": N_("the database file is damaged ({error})"),
    "SQLITE_IOERR": N_("the disk could not be read or written ({error})"),
    "SQLITE_FULL": N_("the disk is full ({error})"),
    "SQLITE_CANTOPEN": N_("the file cannot be opened ({error})"),
    "SQLITE_READONLY": N_("the database cannot be written: it is read-only ({error})"),
    "SQLITE_PERM": N_("permission denied ({error})"),
    "SQLITE_AUTH": N_("permission denied ({error})"),
}
MISSING = N_("the database lacks a table or column pdn index makes ({error})")
OTHER = N_("SQLite refused: {error}")
# SQLITE_ERROR is SQLite's generic code; of its messages, which are always English, these
# two mean a table or column is missing (https://www.sqlite.org/rescode.html#error).
MISSING_WORDS = ("no such table", "no such column")


def sqlite_reason(error: sqlite3.Error) -> str:
    """Why SQLite failed, a catalog entry explaining its result code with SQLite's words
    after it; an error raised with a message of our own (no result code) as it is."""
    name = getattr(error, "sqlite_errorname", None)
    if name is None:
        return str(error)
    primary = "_".join(name.split("_")[:2])
    if primary == "SQLITE_ERROR":
        return (MISSING if _is_missing(error) else OTHER).format(error=error)
    return EXPLAINED.get(primary, OTHER).format(error=error)


def _is_missing(error: sqlite3.Error) -> bool:
    """Whether SQLite's generic error says a table or column does not exist."""
    return str(error).startswith(MISSING_WORDS)


def is_not_ours(error: sqlite3.Error) -> bool:
    """Whether reading a file failed because it is no database of ours (not SQLite, or
    without the tables pdn index makes), rather than because it could not be read now."""
    primary = getattr(error, "sqlite_errorname", "").split("_")[:2]
    return primary == ["SQLITE", "NOTADB"] or (primary == ["SQLITE", "ERROR"]
                                               and _is_missing(error))
