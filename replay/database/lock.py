"""One ``pdn index`` at a time per database: an exclusive lock on the database file.

Two runs that create one database at once would both write its schema (one failing with
"table meta already exists"), or one would read it half made ("schema version 0"); two that
index into one database would have one fail after SQLite's busy timeout. So a run holds an
exclusive ``flock(2)`` on the file from before it decides whether the database is new until
it is done: a second run waits for the first (told so through ``note``), then finds the
database made and indexes into it. The lock is the file's own, so nothing is left beside
it; SQLite's own locks (``fcntl`` byte ranges) do not meet ``flock`` locks. Where ``fcntl``
is missing (Windows) runs are not kept apart.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pdn.i18n import N_
from replay.database.schema import DatabaseError


@contextmanager
def index_lock(path: str | Path, note: Callable[[str], None] = print) -> Iterator[None]:
    """Hold the database file (created empty when missing) locked for the block, waiting
    for another run that holds it; ``DatabaseError`` when it cannot be created."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    target = Path(path)
    if target.exists() and not target.is_file():  # a device or a folder: SQLite says no
        yield
        return
    try:
        descriptor = os.open(target, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        raise DatabaseError(N_("{file}: cannot create a database: {reason}").format(
            file=path, reason=error.strerror or error)) from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            note(N_("{file}: busy: another pdn index is writing it; waiting for it to finish")
                 .format(file=path))
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # after the block: SQLite's connection is closed by then
