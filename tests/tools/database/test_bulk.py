"""Rows written many to a statement (replay.database.bulk) land as one row a statement
would: in their order, ``OR IGNORE`` and ``ON CONFLICT`` acting row by row."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.database import bulk
from replay.database.played import COLUMNS, INSERT, ON_CONFLICT

TABLE = "CREATE TABLE t (id INTEGER PRIMARY KEY, key INTEGER UNIQUE, word TEXT)"
rows_of = st.lists(st.tuples(st.integers(-5, 5), st.text(max_size=3)), max_size=60)


def _table() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.execute(TABLE)
    return connection


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=rows_of, parameters=st.integers(2, 40))
def test_rows_many_to_a_statement_are_the_rows_one_a_statement_gives(rows, parameters,
                                                                     monkeypatch):
    monkeypatch.setattr(bulk, "MAX_PARAMETERS", parameters)  # full statements and a rest
    one, many = _table(), _table()
    one.executemany("INSERT OR IGNORE INTO t (key, word) VALUES (?, ?)", rows)
    bulk.insert_rows(many, "INSERT OR IGNORE INTO t (key, word)", 2, iter(rows))
    flat = _table()
    bulk.insert_flat(flat, "INSERT OR IGNORE INTO t (key, word)", 2,
                     [value for row in rows for value in row])
    expected = one.execute("SELECT * FROM t ORDER BY id").fetchall()
    assert many.execute("SELECT * FROM t ORDER BY id").fetchall() == expected
    assert flat.execute("SELECT * FROM t ORDER BY id").fetchall() == expected


def test_an_upsert_many_to_a_statement_adds_up_a_step_met_twice_in_it():
    connection = sqlite3.connect(":memory:")
    connection.executescript("""CREATE TABLE position_moves (
        position_key INTEGER, next_key INTEGER, move TEXT, games INTEGER, white_wins INTEGER,
        draws INTEGER, black_wins INTEGER, rated INTEGER, rating_sum INTEGER,
        latest_day INTEGER, latest_game INTEGER, PRIMARY KEY (position_key, next_key))""")
    first = (1, 2, "11-15", 1, 1, 0, 0, 1, 2000, 19000101, 7)
    again = (1, 2, "11-15", 2, 0, 1, 1, 0, 0, 19500101, 3)
    other = (1, 3, "9-14", 1, 0, 0, 1, 0, 0, 0, 9)
    bulk.insert_rows(connection, INSERT, COLUMNS, [first, other, again], ON_CONFLICT)
    assert connection.execute("SELECT * FROM position_moves ORDER BY next_key").fetchall() == [
        (1, 2, "11-15", 3, 1, 1, 1, 1, 2000, 19500101, 3), other]


def test_values_that_are_no_whole_rows_are_refused():
    with pytest.raises(ValueError, match="no whole rows"):
        bulk.insert_flat(_table(), "INSERT INTO t (key, word)", 2, [1, "a", 2])
