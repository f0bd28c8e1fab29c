"""Cells of CSV and tab-separated outputs made safe to open in a spreadsheet.

A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return before one) as a formula, so a tag such as ``[Event "=HYPERLINK(...)"]``
would run when a ``pdn stats -o games.csv`` is opened. As OWASP's "CSV Injection" page
recommends, such a text cell is written with a single quote before it (``'=HYPERLINK(...)``),
which the spreadsheet shows and does not evaluate. A number stays a number: ``-1``, ``-0.5``
and ``+3`` are written as they are (numeric columns are never touched), and so is a text
that is only a number.

Every CSV and TSV writer of the toolkit goes through ``safe_cell`` or ``safe_frame``: the
tables of ``pdn stats`` (``-o x.csv`` and its tab-separated output on a pipe), the report of
``pdn dedupe --report``, and ``pdn search --format table``.

>>> safe_cell("=1+2"), safe_cell("-1"), safe_cell(-1), safe_cell("@SUM(A1)"), safe_cell("Ivanov")
("'=1+2", '-1', -1, "'@SUM(A1)", 'Ivanov')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA = re.compile(r"[=+\-@\t\r]")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")

T = TypeVar("T")
_FEW_ROWS = 64  # up to this many rows a column is checked cell by cell (a game with 200,000
# distinct tags is one row of 200,000 columns)


def safe_cell(value: T) -> T | str:
    """``value`` as a CSV cell: a text that a spreadsheet would take for a formula gets a
    single quote before it; anything else (numbers, other texts) is returned as it is."""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS \
            and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def safe_row(values: list) -> list:
    """A row of cells, each through ``safe_cell``."""
    return [safe_cell(value) for value in values]


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with its text cells through ``safe_cell``, to be written (a copy where a
    cell changes). Numeric, boolean and date columns are left as they are; in a frame of
    few rows the text columns come back as one block of Python objects, the same cells:
    pandas writes a column of its own at ~50 µs, and a game with 200,000 distinct tags is
    one row of 200,000 columns."""
    texts = [index for index, dtype in enumerate(frame.dtypes)
             if dtype.kind in "OUS" or str(dtype) in ("category", "string")]
    if not texts:
        return frame
    if len(frame) <= _FEW_ROWS:  # cell by cell: the vectorised path costs ~7 ms a column
        return _safe_block(frame, texts)
    changed = {}
    for index in texts:
        column = frame.iloc[:, index]
        texts_ = column.astype("string")
        risky = texts_.str.match(_FORMULA.pattern) & ~texts_.str.fullmatch(_NUMBER.pattern)
        risky = risky.fillna(False).astype(bool)
        if risky.any():
            changed[index] = column.astype(object).where(~risky, "'" + texts_)
    if not changed:
        return frame
    frame = frame.copy()
    for index, column in changed.items():
        frame.isetitem(index, column)
    return frame


def _safe_block(frame: pd.DataFrame, texts: list[int]) -> pd.DataFrame:
    """``safe_frame`` for a frame of few rows: its text columns (``texts``, positions) as
    one object block, checked cell by cell."""
    import pandas as pd

    cells = frame.iloc[:, texts].to_numpy(dtype=object)
    for row in cells:
        for index, cell in enumerate(row):
            row[index] = safe_cell(cell)
    chosen = set(texts)
    others = [index for index in range(frame.shape[1]) if index not in chosen]
    joined = pd.concat([frame.iloc[:, others],
                        pd.DataFrame(cells, columns=frame.columns[texts], index=frame.index,
                                     dtype=object)], axis=1)
    where = {old: new for new, old in enumerate([*others, *texts])}
    return joined.iloc[:, [where[index] for index in range(frame.shape[1])]]
