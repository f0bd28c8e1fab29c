"""SQLite's errors explained by their result code: the generic SQLITE_ERROR is called a
missing table or column only when SQLite says so."""

from __future__ import annotations

import sqlite3

import pytest

from replay.database.sqlite_reasons import is_not_ours, sqlite_reason


def _error_of(statement: str) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as caught:
        sqlite3.connect(":memory:").execute(statement)
    return caught.value


@pytest.mark.parametrize("statement", ["SELECT * FROM games", "SELECT moves FROM sqlite_master"])
def test_a_missing_table_or_column_is_no_database_of_ours(statement: str) -> None:
    error = _error_of(statement)
    assert is_not_ours(error)
    assert sqlite_reason(error).startswith("the database lacks a table or column")


def test_another_generic_error_is_said_in_sqlites_words() -> None:
    error = _error_of("SELECT FROM")
    assert not is_not_ours(error)
    assert sqlite_reason(error) == f"SQLite refused: {error}"
