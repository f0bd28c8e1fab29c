"""Many rows written by one statement each: ``INSERT ... VALUES (?, ...), (?, ...), ...``.

Python's ``executemany`` runs its statement once per row, and each run costs SQLite a
statement's start and end (its program's set-up, halt and reset) besides the row itself;
a statement of many rows pays that once for all of them. OCA 2.0's ``game_positions``
(1.2 million rows of three integers) took 1.0 s of CPU this way where one row a statement
took 1.6 s. The rows are inserted in their order, each as its own would be: ``OR IGNORE``
and ``ON CONFLICT`` act row by row, a row meeting the rows before it in the same statement.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice

# parameters of one statement: SQLite's limit before 3.32 (SQLITE_MAX_VARIABLE_NUMBER)
MAX_PARAMETERS = 999


def insert_flat(connection: sqlite3.Connection, head: str, width: int,
                values: Sequence[object], tail: str = "") -> None:
    """Insert the rows of ``values``, ``width`` values a row one after the other, by
    ``{head} VALUES (?, ...), ... {tail}`` statements of as many rows as fit."""
    if len(values) % width:
        raise ValueError(f"{len(values)} values are no whole rows of {width}")
    per = max(MAX_PARAMETERS // width, 1)
    step = per * width
    whole = len(values) - len(values) % step
    if whole:
        connection.executemany(_statement(head, width, per, tail),
                               (values[start:start + step] for start in range(0, whole, step)))
    if whole < len(values):
        connection.execute(_statement(head, width, (len(values) - whole) // width, tail),
                           values[whole:])


def insert_rows(connection: sqlite3.Connection, head: str, width: int,
                rows: Iterable[Sequence[object]], tail: str = "") -> None:
    """``insert_flat`` of rows given as tuples of ``width`` values, a statement's rows made
    flat at a time."""
    per = max(MAX_PARAMETERS // width, 1)
    given = iter(rows)
    rest: list[object] = []

    def groups() -> Iterator[list[object]]:
        while len(group := list(chain.from_iterable(islice(given, per)))) == per * width:
            yield group
        rest.extend(group)

    connection.executemany(_statement(head, width, per, tail), groups())
    if rest:
        insert_flat(connection, head, width, rest, tail)


def _statement(head: str, width: int, rows: int, tail: str) -> str:
    row = f"({', '.join('?' * width)})"
    return f"{head} VALUES {', '.join([row] * rows)} {tail}"


__all__ = ["MAX_PARAMETERS", "insert_flat", "insert_rows"]
