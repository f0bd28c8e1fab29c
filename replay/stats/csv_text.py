"""A typed frame as CSV text, the bytes ``safe_frame(frame).to_csv(index=False)`` writes.

pandas formats a CSV cell by cell in Python (~5 µs a cell: 5 s for the 1.16 M plies of OCA
2.0's moves table). Here each column is formatted once per distinct value -- a moves or
games column holds few (square names, counts, tags) -- and each row's code into them is
read by numpy (or Arrow, for Arrow's texts), so nothing is made per cell: the cells are
laid out in a byte matrix, each column at a fixed place and as wide as its widest cell,
the rest of each cell NUL bytes, which are then dropped. The cells are pandas': ``str`` of
an integer or a boolean, numpy's ``str`` of a float, ``''`` where a value is missing, a
text through ``safe_cell`` (``replay.run.spreadsheet``) and quoted by the ``csv`` module
where it needs it. ``csv_text`` gives None for a frame it cannot format so (a column of
Python objects, a single column, few rows, a text holding a NUL); the caller writes that
one with pandas.
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
        coded = _coded(frame.iloc[:, index])
        if coded is None:
            return None
        columns.append(coded)
    lines = _lines(columns)
    if lines is None:
        return None
    head = ",".join(_quoted(str(name)) for name in frame.columns) + "\n" if header else ""
    return head + lines


Coded = tuple[list[str], np.ndarray]  # a column's distinct cells, each row's code into them
_RANGE = 1 << 12  # integers spread over at most this many values are coded by their offset


def _coded(column: pd.Series) -> Coded | None:
    """A column as the texts of its distinct cells and each row's code into them (-1:
    missing, an empty cell), or None: a dtype not handled here."""
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        if dtype.categories.dtype.kind not in "OUT" and not isinstance(
                dtype.categories.dtype, pd.StringDtype):
            return None
        texts = _texts(dtype.categories.to_numpy(dtype=object))
        return None if texts is None else (texts, column.cat.codes.to_numpy())
    if isinstance(dtype, pd.StringDtype):
        codes, distinct = _factorized(column)
        texts = _texts(np.asarray(distinct, dtype=object))
        return None if texts is None else (texts, codes)
    if dtype.kind in "iub":
        array = column.array
        if isinstance(array, pd.arrays.BooleanArray | pd.arrays.IntegerArray):
            values, missing = array._data, array._mask
        elif isinstance(array, pd.arrays.NumpyExtensionArray):
            values, missing = array.to_numpy(), None
        else:
            return None
        texts, codes = _integers(values)
        if missing is not None:
            codes[missing] = -1
        return texts, codes
    if dtype.kind == "f":
        if np.dtype(getattr(dtype, "numpy_dtype", dtype)) != np.float64:
            return None  # pandas writes a float32 with its own shortest form
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        known = ~np.isnan(values)
        codes = np.full(len(values), -1, dtype=np.int64)
        codes[known] = np.arange(int(known.sum()))
        return values[known].astype(str).tolist(), codes
    if isinstance(dtype, np.dtype) and dtype.kind == "M":
        # naive dates: pandas' own format for the column as a whole, beside a second
        # column (a line of one empty cell would be written as "")
        pair = pd.DataFrame({"date": column.to_numpy(), "mark": 0})
        lines = pair.to_csv(index=False, header=False, lineterminator="\n").split("\n")[:-1]
        return ([line[:-2] for line in lines], np.arange(len(lines))) \
            if len(lines) == len(column) else None
    return None


def _integers(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Integers or booleans as their texts (``str``) and codes: by their offset from the
    smallest where they spread over few values (no sort), else by their distinct values."""
    fits = values.dtype.kind == "i" or (values.dtype.kind == "u" and values.itemsize < 8)
    if fits and len(values):
        low, high = int(values.min()), int(values.max())
        if high - low < _RANGE:
            return ([str(value) for value in range(low, high + 1)],
                    values.astype(np.int64) - low)
    distinct, codes = np.unique(values, return_inverse=True)
    return [str(value) for value in distinct.tolist()], codes.reshape(-1)


def _factorized(column: pd.Series) -> tuple[np.ndarray, object]:
    """A text column's code of each row (-1: missing) and its distinct texts: read by Arrow
    where the column keeps its texts there (no str per row), else by pandas."""
    if column.dtype.storage == "pyarrow":
        import pyarrow as pa
        import pyarrow.compute as pc

        texts = pa.array(column.array)
        encoded = (texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
                   ).dictionary_encode()
        codes = pc.fill_null(encoded.indices, -1).to_numpy().astype(np.int64)
        return codes, encoded.dictionary.to_pylist()
    return pd.factorize(column.to_numpy(dtype=object, na_value=None), use_na_sentinel=True)


def _lines(columns: list[Coded]) -> str | None:
    """The rows' cells joined by commas, each line ended; None where a cell holds a NUL.

    Each column's cells, with the comma or the line end after them, are laid out at a fixed
    place of a byte matrix of one row per line, as wide as the column's widest; the NUL
    bytes after the shorter ones are then dropped."""
    rows = len(columns[0][1])
    cells = []
    for number, (texts, codes) in enumerate(columns):
        end = "\n" if number == len(columns) - 1 else ","
        encoded = [(text + end).encode() for text in [*texts, ""]]  # the last: missing
        if any(b"\0" in text for text in encoded):
            return None
        cells.append(np.array(encoded)[codes])  # fixed width, NUL-padded; -1: the last
    width = sum(column.itemsize for column in cells)
    matrix = np.empty((rows, width), dtype=np.uint8)
    place = 0
    for column in cells:
        matrix[:, place:place + column.itemsize] = column.view(np.uint8).reshape(
            rows, column.itemsize)
        place += column.itemsize
    flat = matrix.reshape(-1)
    return flat[flat != 0].tobytes().decode()


def _texts(values: np.ndarray) -> list[str] | None:
    """Distinct texts as cells: made safe for a spreadsheet, quoted where they need it
    (None: a value that is not a text)."""
    if not all(isinstance(value, str) for value in values):
        return None
    return [_quoted(safe_cell(value)) for value in values]


def _quoted(text: str) -> str:
    """A cell as the ``csv`` module writes it for pandas (minimal quoting)."""
    if not any(mark in text for mark in _SPECIAL):
        return text
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_MINIMAL).writerow([text])
    return out.getvalue()[:-1]
