"""Worker processes that never outlive the process that started them.

A pool's workers would go on (and hold the machine) after their parent is killed: with
``kill -9`` nothing in the parent runs, so each worker must notice by itself. On Linux the
kernel tells it: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks for SIGKILL when the parent dies
(prctl(2)). Elsewhere a daemon thread in the worker looks at its parent's process id every
``WATCH_SECONDS`` and ends the worker once it has changed (the worker was adopted).

A parent that stops early (an error, Ctrl-C, SIGTERM) shuts its pool down with the calls
not yet started cancelled: each worker finishes the partition it holds (a few hundred games)
and exits. Workers are never killed while the pool lives: one ended in the middle of sending
its result leaves half a message in the pool's result pipe, on which the pool's manager
thread, and with it the exit of the program, waits for ever (3 runs in 100 hung that way,
and 16 more printed a traceback at exit, when a failed write stopped ``pdn dedupe --jobs``).
For the same reason Ctrl-C is the parent's alone: the workers ignore SIGINT, which the
terminal sends to the whole process group.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a pool starts: a short run needs none
    from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
WATCH_SECONDS = 0.5


def pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers end when this process does, however it ends."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, initializer=watch_parent, initargs=(os.getpid(),))


def watch_parent(parent: int) -> None:
    """Worker initializer: end this process when the one that made the pool (``parent``)
    dies. SIGTERM gets its default action back (the parent's handler, inherited through
    ``fork``, would turn it into an exception the worker reports and survives); SIGINT is
    ignored, as the parent alone answers Ctrl-C."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _death_signal():
        threading.Thread(target=_watch, args=(os.getppid(),), name="pdn-parent-watch",
                         daemon=True).start()
    # the parent may have died before the request was made: then nothing would come
    if os.getppid() != parent and not _alive(parent):
        os._exit(1)


def _death_signal() -> bool:
    """Ask the kernel for SIGKILL when the parent dies (Linux); whether it was granted."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
