"""``csv_text`` writes the bytes pandas writes for the same frame made safe (``safe_frame``).

The statistics' CSV tables are formatted once per distinct value (``replay.stats.csv_text``)
rather than by ``DataFrame.to_csv``; the reference is pandas itself, on frames holding every
kind of cell the tables have and on the tables of real archives.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replay.rules.variants import get_variant
from replay.run.spreadsheet import safe_frame
from replay.stats.csv_text import csv_text
from replay.stats.schema import STRING
from replay.stats.stream import write_table
from replay.stats.writer import TableWriter


def pandas_text(frame: pd.DataFrame, header: bool = True) -> str:
    out = io.StringIO()
    safe_frame(frame).to_csv(out, index=False, header=header)
    return out.getvalue()


def edge_frame(rows: int) -> pd.DataFrame:
    """Every kind of cell: quoted texts, formulas, numbers as text, empty and missing
    values, floats of every form, nullable integers and booleans, categories, dates."""
    texts = ["plain", "a,b", 'say "x"', "two\nlines", "cr\rhere", "=1+2", "-1", "+3.5e2",
             "@SUM(A1)", "-x", "", None, "ünï", "\tlead"]
    floats = [0.1, 1e16, 12.0, -0.5, np.nan, 1 / 3, 2.5e-7, 123456789.125]
    dates = pd.to_datetime(["1841-03-02", None, "2002-06-01", "1996-01-13"])
    pick = np.arange(rows)
    return pd.DataFrame({
        "text": pd.array([texts[i % len(texts)] for i in pick], dtype=STRING),
        "count": pd.array([None if i % 5 == 0 else i - 40 for i in pick], dtype="Int64"),
        "small": pd.array(pick % 7, dtype="Int8"),
        "flag": pd.array([None if i % 9 == 0 else i % 2 == 0 for i in pick], dtype="boolean"),
        "plain_int": pick * 3,
        "side": pd.Categorical.from_codes(pick % 3 - 1, categories=["white", "=black"]),
        "value": pd.array([floats[i % len(floats)] for i in pick], dtype="Float64"),
        "raw": np.array([floats[i % len(floats)] for i in pick]),
        "date": [dates[i % len(dates)] for i in pick],
        "name, quoted": pd.array(["x"] * rows, dtype=STRING),
    })


@pytest.mark.parametrize("header", [True, False])
def test_every_kind_of_cell_is_written_as_pandas_writes_it(header: bool) -> None:
    frame = edge_frame(300)
    assert csv_text(frame, header) == pandas_text(frame, header)


@pytest.mark.parametrize("column", [
    [object()] * 100,
    pd.array(np.arange(100) / 7, dtype="Float32"),
    pd.date_range("2026-01-01", periods=100, tz="Europe/Amsterdam"),
], ids=["python objects", "float32", "dates with a time zone"])
def test_a_column_formatted_otherwise_is_left_to_pandas(column: object) -> None:
    frame = pd.DataFrame({"a": column, "b": range(100)})
    assert csv_text(frame, True) is None


def test_few_rows_are_left_to_pandas_and_the_writer_still_writes_them(tmp_path: Path
                                                                      ) -> None:
    frame = edge_frame(10)
    assert csv_text(frame, True) is None
    with TableWriter(tmp_path / "t.csv") as out:
        out.write(frame)
        out.write(edge_frame(200))
    assert (tmp_path / "t.csv").read_bytes().decode() == pandas_text(frame) + pandas_text(
        edge_frame(200), header=False)


@pytest.mark.parametrize(("name", "variant"), [
    ("english/tinsley.pdn", "english"),
    ("lidraughts_sample/lidraughts_export_sample.pdn", "international"),
    ("games-checkers/russian/abatsiev.pdn", "russian")])
@pytest.mark.parametrize("table", ["moves", "games"])
def test_tables_of_real_archives_are_the_bytes_pandas_writes(shared_data: Path, tmp_path: Path,
                                                             name: str, variant: str,
                                                             table: str) -> None:
    written = tmp_path / "table.csv"
    parquet = tmp_path / "table.parquet"
    write_table([str(shared_data / name)], get_variant(variant), written, table)
    write_table([str(shared_data / name)], get_variant(variant), parquet, table)
    frame = pd.read_parquet(parquet)
    assert len(frame)  # the comparison has rows to compare
    assert written.read_bytes().decode() == pandas_text(frame)


def test_texts_kept_by_python_rather_than_arrow_are_written_as_pandas_writes_them() -> None:
    frame = edge_frame(300)
    for name in ("text", "name, quoted"):
        frame[name] = frame[name].astype(pd.StringDtype("python"))
    assert csv_text(frame, True) == pandas_text(frame)


def test_a_text_holding_a_nul_is_left_to_pandas() -> None:
    frame = edge_frame(100)
    frame.loc[3, "text"] = "a\0b"
    assert csv_text(frame, True) is None
