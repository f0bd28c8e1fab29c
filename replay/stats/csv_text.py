"""A typed frame as CSV text, the bytes ``safe_frame(frame).to_csv(index=False)`` writes.

pandas formats a CSV cell by cell in Python (~5 µs a cell: 5 s for the 1.16 M plies of OCA
2.0's moves table). Here each column is formatted once per distinct value -- a moves or
games column holds few (square names, counts, tags) -- and the cells are taken by code,
so only the final joining of cells into lines runs per cell. The cells are pandas': ``str``
of an integer or a boolean, numpy's ``str`` of a float, ``''`` where a value is missing, a
text through ``safe_cell`` (``replay.run.spreadsheet``) and quoted by the ``csv`` module
where it needs it. ``csv_text`` gives None for a frame it cannot format so (a column of
Python objects, a single column, few rows); the caller writes that one with pandas.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

from replay.run.spreadsheet import safe_cell

_SPECIAL = (",", '"', "\n", "\r")  # a cell holding one is quoted by the csv module
_MIN_ROWS = 64  # fewer rows: pandas is as quick (a wide frame of one game has many columns)


def csv_text(frame: pd.DataFrame, header: bool) -> str | None:
    """``frame`` as CSV lines (the header first when ``header``), or None where it holds a
    column this module does not format (the caller then uses pandas)."""
    if len(frame) < _MIN_ROWS or frame.shape[1] < 2:
        return None
    columns = []
    for index in range(frame.shape[1]):
        cells = _cells(frame.iloc[:, index])
        if cells is None:
            return None
        columns.append(cells.tolist())
    lines = map(",".join, zip(*columns, strict=True))
    head = ",".join(_quoted(str(name)) for name in frame.columns) + "\n" if header else ""
    return head + "\n".join(lines) + "\n"


def _cells(column: pd.Series) -> np.ndarray | None:
    """A column's cells as an object array of texts, or None: a dtype not handled here."""
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        if dtype.categories.dtype.kind not in "OUT" and not isinstance(
                dtype.categories.dtype, pd.StringDtype):
            return None
        texts = _texts(dtype.categories.to_numpy(dtype=object))
        return None if texts is None else _take(texts, column.cat.codes.to_numpy())
    if isinstance(dtype, pd.StringDtype):
        codes, distinct = pd.factorize(column.to_numpy(dtype=object, na_value=None),
                                       use_na_sentinel=True)
        texts = _texts(np.asarray(distinct, dtype=object))
        return None if texts is None else _take(texts, codes)
    if dtype.kind in "iub":
        array = column.array
        if isinstance(array, pd.arrays.BooleanArray | pd.arrays.IntegerArray):
            values, missing = array._data, array._mask
        elif isinstance(array, pd.arrays.NumpyExtensionArray):
            values, missing = array.to_numpy(), None
        else:
            return None
        distinct, codes = np.unique(values, return_inverse=True)
        cells = _take(np.array([str(value) for value in distinct.tolist()], dtype=object),
                      codes.reshape(-1))
        if missing is not None:
            cells[missing] = ""
        return cells
    if dtype.kind == "f":
        if np.dtype(getattr(dtype, "numpy_dtype", dtype)) != np.float64:
            return None  # pandas writes a float32 with its own shortest form
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        known = ~np.isnan(values)
        cells = np.full(len(values), "", dtype=object)
        cells[known] = values[known].astype(str)
        return cells
    if isinstance(dtype, np.dtype) and dtype.kind == "M":
        # naive dates: pandas' own format for the column as a whole, beside a second
        # column (a line of one empty cell would be written as "")
        pair = pd.DataFrame({"date": column.to_numpy(), "mark": 0})
        lines = pair.to_csv(index=False, header=False, lineterminator="\n").split("\n")[:-1]
        return np.array([line[:-2] for line in lines], dtype=object) \
            if len(lines) == len(column) else None
    return None


def _texts(values: np.ndarray) -> np.ndarray | None:
    """Distinct texts as cells: made safe for a spreadsheet, quoted where they need it
    (None: a value that is not a text)."""
    if not all(isinstance(value, str) for value in values):
        return None
    return np.array([_quoted(safe_cell(value)) for value in values], dtype=object)


def _take(texts: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The cell of each code (-1: missing, an empty cell)."""
    return np.append(texts, "")[codes]


def _quoted(text: str) -> str:
    """A cell as the ``csv`` module writes it for pandas (minimal quoting)."""
    if not any(mark in text for mark in _SPECIAL):
        return text
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_MINIMAL).writerow([text])
    return out.getvalue()[:-1]
