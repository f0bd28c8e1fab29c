"""Write a table part by part: Parquet row groups, CSV rows, JSON lines, all atomically.

A ``TableWriter`` takes typed frames as they come (all of one schema) and appends them to a
temporary file beside the target, renamed over it when the block ends without an error, so
an interrupted run leaves no half-written table and memory holds one row group at most.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

import pandas as pd

from replay.run.output import atomic_writer
from replay.run.spreadsheet import safe_frame
from replay.stats.csv_text import csv_text

SUFFIXES = (".csv", ".parquet", ".jsonl", ".ndjson")
ROW_GROUP_BYTES = 1 << 23  # parts gathered into one Parquet row group, measured in memory
# (OCA 2.0 x16, -t games: 32 MiB peaked at 246 MB, 16 MiB at 217 MB, 8 MiB at 210 MB; x1 at
# 180-183 MB whichever)


class TableWriter:
    """``with TableWriter(path) as out: out.write(frame)`` for each part, in order."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.suffix = self.path.suffix.lower()
        if self.suffix not in SUFFIXES:
            raise ValueError(f"a table is written as {', '.join(SUFFIXES)}, not "
                             f"'{self.suffix}'")
        self.rows = 0
        self._stack = ExitStack()
        self._stream: IO[Any] | None = None
        self._parquet: Any = None
        self._pending: list[pd.DataFrame] = []
        self._pending_bytes = 0
        self._started = False

    def __enter__(self) -> TableWriter:
        parquet = self.suffix == ".parquet"
        self._stream = self._stack.enter_context(atomic_writer(self.path, binary=parquet))
        return self

    def write(self, frame: pd.DataFrame) -> None:
        """Append the rows of a part (the first part written gives the header or schema)."""
        if self.suffix == ".parquet":
            self._pending.append(frame)
            self._pending_bytes += int(frame.memory_usage(index=False, deep=True).sum())
            if self._pending_bytes >= ROW_GROUP_BYTES:
                self._flush()
        elif self.suffix == ".csv":
            text = csv_text(frame, header=not self._started)
            if text is None:
                safe_frame(frame).to_csv(self._stream, index=False, header=not self._started)
            else:
                self._stream.write(text)
        elif len(frame):  # each line ends with a line break
            frame.to_json(self._stream, orient="records", lines=True, date_format="iso",
                          force_ascii=False)
        self._started = True
        self.rows += len(frame)

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        frame = pd.concat(self._pending, ignore_index=True) if len(self._pending) > 1 \
            else self._pending[0]
        self._pending, self._pending_bytes = [], 0
        if self._parquet is None:
            table = pa.Table.from_pandas(frame, preserve_index=False)
            self._parquet = pq.ParquetWriter(self._stream, table.schema)
        else:
            table = pa.Table.from_pandas(frame, schema=self._parquet.schema,
                                         preserve_index=False)
        self._parquet.write_table(table)

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            if kind is None and self.suffix == ".parquet":
                self._flush()
            self._close_parquet(failed=kind is not None)
        except BaseException as failure:  # the temporary file is removed, the error goes on
            if not self._stack.__exit__(type(failure), failure, failure.__traceback__):
                raise
            return
        self._stack.__exit__(kind, error, trace)

    def _close_parquet(self, failed: bool) -> None:
        """Close the Parquet writer before its stream, also when the run failed (Ctrl-C):
        left open, its ``__del__`` would write to the closed stream and print an ignored
        exception."""
        writer, self._parquet = self._parquet, None
        if writer is None:
            return
        try:
            writer.close()
        except Exception:
            if not failed:
                raise
