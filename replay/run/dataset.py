"""Output datasets: a folder (or an fsspec URL) of parts that workers write themselves.

A big output (``pdn stats -o DIR/``, ``pdn validate --json -o DIR/``) is written as one part
per partition of the input, by the process that worked on that partition, so that only
small results travel back to the client. The parts are named ``part-00000000.parquet``,
``part-00000001.parquet``... in input order, so reading the folder's parts in name order
(``pandas.read_parquet(DIR)`` does) gives the rows of the single-file output, in order.

The commit rule, all or nothing in spirit:

- every file of a run is first written in a hidden folder of the target, ``.pdn-<token>/``
  (readers such as pyarrow skip names starting with ``.`` or ``_``);
- at the end the client removes the marker ``_SUCCESS`` and the parts of an earlier run,
  moves the new parts in, removes the hidden folder and writes ``_SUCCESS`` last (a line of
  JSON: parts and rows);
- a run that fails removes its hidden folder and leaves the target as it was.

So a folder holds a complete dataset exactly when it has ``_SUCCESS``. A target that exists
must be empty or hold such a dataset (its parts are replaced); anything else is refused.

>>> import tempfile
>>> target = Dataset.plan(tempfile.mkdtemp() + "/reports/", ".jsonl")
>>> with target.part_stream(0) as stream:
...     _ = stream.write(b'{"game": 1}\\n')
>>> target.commit(parts=1, rows=1)
>>> sorted(os.listdir(target.root))
['_SUCCESS', 'part-00000000.jsonl']
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

SUCCESS = "_SUCCESS"
PART_PREFIX = "part-"
TEMPORARY_PREFIX = ".pdn-"


class DatasetError(ValueError):
    """A target that must not be written (a folder holding other files, or an input)."""


def is_dataset_target(output: str) -> bool:
    """Whether ``-o`` names a dataset folder: a path or URL ending in ``/``, an existing
    directory, or a URL without a file name suffix."""
    if output.endswith("/") or (os.sep != "/" and output.endswith(os.sep)):
        return True
    if "://" in output:
        return "." not in output.rsplit("/", 1)[-1]
    return os.path.isdir(output)


@dataclass(frozen=True)
class Dataset:
    """Where one run writes its parts: picklable, so workers get it with their task."""

    root: str  # the target folder, without a trailing slash
    suffix: str  # of every part: .parquet or .jsonl
    token: str  # names this run's hidden folder

    @classmethod
    def plan(cls, target: str, suffix: str) -> Dataset:
        """Check ``target`` and make this run's hidden folder in it. Raises
        ``DatasetError`` when the target holds files other than a dataset's, ``OSError``
        when it cannot be written."""
        import uuid

        root = target.rstrip("/") or "/"
        if "://" not in root:  # workers may run elsewhere in the directory tree
            root = os.path.abspath(root)
        dataset = cls(root, suffix, uuid.uuid4().hex[:12])
        files = dataset.files()
        if files.exists(root):
            if not files.isdir(root):
                raise DatasetError(f"{target}: not a folder")
            strangers = [name for name in _names(files, root)
                         if not (name == SUCCESS or name.startswith(PART_PREFIX)
                                 or name.startswith(TEMPORARY_PREFIX))]
            if strangers:
                raise DatasetError(f"{target}: the folder holds other files ({strangers[0]}"
                                   "...): give a new or empty folder, or a dataset's")
        files.makedirs(dataset.temporary, exist_ok=True)
        return dataset

    @property
    def temporary(self) -> str:
        """This run's hidden folder, where parts and spools wait."""
        return f"{self.root}/{TEMPORARY_PREFIX}{self.token}"

    def files(self) -> Any:
        """The filesystem of the target (fsspec for a URL, plain files otherwise)."""
        if "://" in self.root:
            import fsspec

            return fsspec.core.url_to_fs(self.root)[0]
        return LocalFiles()

    def part_name(self, index: int) -> str:
        return f"{PART_PREFIX}{index:08d}{self.suffix}"

    @contextmanager
    def part_stream(self, index: int) -> Iterator[IO[bytes]]:
        """A binary stream for part ``index``, written in the hidden folder (a worker's)."""
        with self.files().open(f"{self.temporary}/{self.part_name(index)}", "wb") as stream:
            yield stream

    def spool_path(self, name: str) -> str:
        """Where a worker leaves an intermediate result for the second pass."""
        return f"{self.temporary}/spool-{name}"

    def commit(self, parts: int, rows: int) -> None:
        """Make the run's parts the dataset (the client, once every part is written)."""
        files = self.files()
        if files.exists(f"{self.root}/{SUCCESS}"):
            files.rm(f"{self.root}/{SUCCESS}")
        for name in _names(files, self.root):
            if name.startswith(PART_PREFIX):
                files.rm(f"{self.root}/{name}")
        for index in range(parts):
            name = self.part_name(index)
            files.mv(f"{self.temporary}/{name}", f"{self.root}/{name}")
        files.rm(self.temporary, recursive=True)
        with files.open(f"{self.root}/{SUCCESS}", "wb") as marker:
            marker.write(json.dumps({"parts": parts, "rows": rows}).encode() + b"\n")

    def abort(self) -> None:
        """Remove what the run wrote; the target stays as it was."""
        files = self.files()
        if files.exists(self.temporary):
            files.rm(self.temporary, recursive=True)


def _names(files: Any, folder: str) -> list[str]:
    return [path.rstrip("/").rsplit("/", 1)[-1] for path in files.ls(folder, detail=False)]


class LocalFiles:
    """The few filesystem calls a dataset makes, on local paths, named as fsspec names them
    (so that a local target needs no fsspec)."""

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def makedirs(self, path: str, exist_ok: bool = False) -> None:
        os.makedirs(path, exist_ok=exist_ok)

    def ls(self, path: str, detail: bool = False) -> list[str]:
        return [os.path.join(path, name) for name in sorted(os.listdir(path))]

    def open(self, path: str, mode: str) -> IO[Any]:
        if "w" in mode:  # a full disk says "cannot write" and names the part
            from replay.run.output import plain_writer

            return plain_writer(path, binary="b" in mode)
        return open(path, mode)

    def mv(self, source: str, target: str) -> None:
        os.replace(source, target)

    def rm(self, path: str, recursive: bool = False) -> None:
        if recursive and os.path.isdir(path):
            import shutil

            shutil.rmtree(path)
        else:
            os.remove(path)
