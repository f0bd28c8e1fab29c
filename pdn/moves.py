"""Move records: a MOVE token (a run of records) as plies, each record read into its parts.

Every part is found with the grammar's own terminals (``grammar.lark``): the move number
(MOVENUMBER), the squares (SQUARE_NAME, NUMERIC_SQUARE), the mark between them (MOVE_MARK),
the file letter of a short record (SHORT_MOVE) and a glued strength mark (MOVE_SUFFIX).

>>> from lark import Token
>>> [(p.number, p.record.squares, p.record.origin_file) for p in
...  read_moves(Token("MOVE", "12. 32x23x14 b:d6", 0, 1, 1), 0)]
[(12, ('32', '23', '14'), None), (None, ('d6',), 'b')]
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from itertools import islice
from typing import NamedTuple, cast

from lark import Token

from pdn.grammar import terminal
from pdn.lexer import GAP
from pdn.model import MoveRecord, Ply

NAG_FORCED_MOVE = 7  # "$7", what a "*" glued to a move (a star move) means


class _Parts(NamedTuple):
    """The grammar's terminals for the parts of a move record, compiled."""

    number: re.Pattern[str]  # a move number and the blank after it
    suffix: re.Pattern[str]  # a glued strength mark or star, at the end
    short: re.Pattern[str]  # a whole short record
    square: re.Pattern[str]  # one square, in lowercase
    mark: re.Pattern[str]  # what stands between two squares


@cache
def _parts() -> _Parts:
    return _Parts(
        re.compile(f"({terminal('MOVENUMBER')})(?:{terminal('BLANK')})?"),
        re.compile(f"(?:{terminal('MOVE_SUFFIX')})$"),
        re.compile(terminal("SHORT_MOVE")),
        re.compile(f"{terminal('SQUARE_NAME')}|{terminal('NUMERIC_SQUARE')}"),
        re.compile(terminal("MOVE_MARK")),
    )


@cache
def move_pattern() -> re.Pattern[str]:
    """One move record of a MOVE token (the grammar's MOVE), after its whitespace."""
    return re.compile(f"(?:{GAP})?({terminal('MOVE')})")


@lru_cache(maxsize=1 << 16)
def _read_record(value: str) -> tuple:
    """What one move record of a MOVE token says, cached by its text (they repeat a lot).

    ``(number, black, line_delta, column, column_is_absolute, head, star)``: the move number
    and whether it was ``n...``; where the move starts relative to its text (a newline may
    separate it from its number); ``head``, the first five fields of its ``MoveRecord``
    (the move as written; its squares normalised, lowercase and without leading zeros; the
    capture mark, ``X`` and ``×`` read as ``x``; the file letter of a short record; a
    glued strength mark); and whether a glued ``*`` marked a star move.
    """
    parts = _parts()
    number = None
    black = False
    line_delta = 0
    column = 0
    absolute = False
    numbered = parts.number.match(value)
    if numbered:
        written = numbered.group(1)
        number, black = written_number(written.rstrip(".")), written.endswith("...")
        start = numbered.end()
        gap = value[:start]
        line_delta = gap.count("\n")
        absolute = line_delta > 0
        column = start - gap.rfind("\n") if absolute else start
        value = value[start:]
    suffix = parts.suffix.search(value)
    strength = suffix.group() if suffix else None
    text = value[: suffix.start()] if suffix else value
    origin_file = text[0] if parts.short.fullmatch(text) else None
    lowered = (text[1:] if origin_file else text).lower()
    squares = tuple(name.lstrip("0") if name[0] == "0" else name
                    for name in parts.square.findall(lowered))
    separator = parts.mark.search(lowered)
    mark = separator.group() if separator else ""
    star = strength == "*"
    head = (text, squares, "x" if mark == "×" else mark, origin_file,
            None if star else strength)
    return number, black, line_delta, column, absolute, head, star


MAX_NUMBER_DIGITS = 9  # a move number or NAG past this is no number a record means


class NumberError(ValueError):
    """A move number or NAG too long to be one (``text``, as written)."""

    def __init__(self, text: str) -> None:
        super().__init__(f"'{text[:20]}...' ({len(text)} digits) is too long for a number")
        self.text = text


def written_number(text: str) -> int:
    """The value of a move number or NAG's digits; raises ``NumberError`` past
    ``MAX_NUMBER_DIGITS`` digits (Python refuses to read 4,300 or more, and no record has
    a billionth move).

    >>> written_number("12")
    12
    """
    if len(text) > MAX_NUMBER_DIGITS:
        raise NumberError(text)
    return int(text)


@cache
def _long_number() -> re.Pattern[str]:
    # A run of digits before a "." in a MOVE token is a move number: a square is never
    # followed by one.
    return re.compile(f"[0-9]{{{MAX_NUMBER_DIGITS + 1},}}(?=\\.)")


def check_numbers(value: str) -> None:
    """Raise the ``NumberError`` that reading the move records of a MOVE token's text would
    raise (a move number longer than ``MAX_NUMBER_DIGITS``), without reading them."""
    found = _long_number().search(value)
    if found is not None:
        raise NumberError(found.group())


def starts_numbered(value: str) -> int:
    """Where the move of the first record of a MOVE token's text starts when the record has
    its own move number (past the number and the blank after it), else 0."""
    numbered = _parts().number.match(value)
    return 0 if numbered is None else numbered.end()


def read_moves(token: Token, line_offset: int) -> list[Ply]:
    """The plies of a MOVE token: a run of move records that only whitespace separates
    (``line_offset``: the lines of the file before the token's chunk)."""
    value = token.value
    # The lexer gives every token its line and column (Lark types them as optional).
    line = cast(int, token.line) + line_offset
    base = cast(int, token.column)  # a move at offset ``start`` is in column base + start
    scanned = 0
    plies = []
    record = tuple.__new__  # MoveRecord's own __new__ is Python code; this is the tuple's
    for found in move_pattern().finditer(value):
        start = found.start(1)
        newlines = value.count("\n", scanned, start)
        if newlines:
            line += newlines
            base = -value.rfind("\n", scanned, start)
        scanned = start
        number, black, line_delta, column, absolute, head, star = _read_record(found.group(1))
        where = (line + line_delta, column if absolute else base + start + column, False)
        plies.append(Ply(record(MoveRecord, head + where), number, black,
                         [NAG_FORCED_MOVE] if star else []))
    return plies


def record_at(token: Token, line_offset: int, index: int) -> MoveRecord:
    """The ``index``-th move record of a MOVE token with its place in the file, as
    ``read_moves`` gives it, the others not made (raises IndexError past the last)."""
    value = token.value
    found = next(islice(move_pattern().finditer(value), index, None), None)
    if found is None:
        raise IndexError(index)
    start = found.start(1)
    newline = value.rfind("\n", 0, start)
    line = cast(int, token.line) + line_offset + value.count("\n", 0, start)
    base = cast(int, token.column) if newline < 0 else -newline
    _number, _black, line_delta, column, absolute, head, _star = _read_record(found.group(1))
    where = (line + line_delta, column if absolute else base + start + column, False)
    return tuple.__new__(MoveRecord, head + where)


def record_of(value: str) -> MoveRecord:
    """The move record one move token says (an item of ``Line.move_tokens``), without its
    place in the file (line and column 0).

    >>> record_of("12. 32x23x14!").squares
    ('32', '23', '14')
    """
    return MoveRecord(*_read_record(value)[5])
