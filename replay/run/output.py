"""Writing output files safely: all or nothing, never over an input.

``atomic_writer(path)`` yields a text stream on a temporary file beside ``path`` and renames
it over ``path`` only when the block ends without an exception (Ctrl-C included), so an
interrupted run leaves no half-written file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


class OutputError(ValueError):
    """An output path that must not be written (it is one of the inputs)."""


@contextmanager
def atomic_writer(path: str | os.PathLike, *, encoding: str = "utf-8",
                  binary: bool = False) -> Iterator[IO]:
    """A stream whose content replaces ``path`` atomically when the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                         dir=target.parent)
    try:
        mode = "wb" if binary else "w"
        with os.fdopen(handle, mode, **({} if binary else {"encoding": encoding,
                                                          "newline": ""})) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: str | os.PathLike, text: str) -> None:
    """Write a whole text file atomically."""
    with atomic_writer(path) as stream:
        stream.write(text)


def refuse_overwriting_inputs(output: str | os.PathLike, inputs: Iterable[str | os.PathLike]
                              ) -> None:
    """Raise OutputError when ``output`` is one of the input files."""
    target = Path(output).resolve()
    for source in inputs:
        if str(source) != "-" and Path(source).resolve() == target:
            raise OutputError(f"refusing to write {output}: it is also an input")
